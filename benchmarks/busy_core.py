#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""Threads on an idle machine and on a busy one: a markdown table for benchmarks/README.md.

Runs the OpenMP builds of the pipelines and the layouts (bench_pipelines_openmp, bench_layouts_openmp)
with OMP_NUM_THREADS=1 and 2, first alone, then while another process keeps one core busy (a shell
loop that never sleeps), as a user's machine rarely is idle. Wall-clock medians of each run's
repetitions, then the median over `--rounds` rounds, the thread counts in turn within a round.

    /usr/bin/python3 benchmarks/busy_core.py
    /usr/bin/python3 benchmarks/busy_core.py --rounds 4 --pipelines 'channel_mean|image_sum' --layouts points_centroid
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "build" / "bench" / "benchmarks"
UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def run(binary, cases, threads):
    """{case: median wall-clock ms} of the named column of `binary` for the cases matching `cases`."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [str(binary), f"--benchmark_filter=^({cases})/named(/|$)", "--benchmark_repetitions=5",
             "--benchmark_min_time=0.05", "--benchmark_report_aggregates_only=true",
             f"--benchmark_out={out.name}", "--benchmark_out_format=json"],
            env=dict(os.environ, OMP_NUM_THREADS=str(threads)), check=True, stdout=subprocess.DEVNULL)
        report = json.load(open(out.name))
    return {b["run_name"].split("/")[0]: b["real_time"] * UNITS[b["time_unit"]]
            for b in report["benchmarks"] if b.get("aggregate_name") == "median"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pipelines", default="channel_mean|channel_max|image_sum|softmax")
    parser.add_argument("--layouts", default="points_centroid|nhwc_channel_max|nhwc_softmax")
    parser.add_argument("--bench", type=Path, default=BENCHMARKS, help="where the OpenMP builds are")
    args = parser.parse_args()
    runs = [(args.bench / "bench_pipelines_openmp", args.pipelines),
            (args.bench / "bench_layouts_openmp", args.layouts)]
    times = collections.defaultdict(list)
    for busy in (False, True):
        hog = subprocess.Popen(["/bin/sh", "-c", "while :; do :; done"]) if busy else None
        try:
            for _ in range(args.rounds):
                for threads in (1, 2):
                    for binary, cases in runs:
                        for case, ms in run(binary, cases, threads).items():
                            times[(case, busy, threads)].append(ms)
        finally:
            if hog:
                hog.kill()
    columns = [(False, 1), (False, 2), (True, 1), (True, 2)]
    print("| case | 1 thread | 2 threads | 1 thread, a core busy | 2 threads, a core busy |")
    print("|---|---:|---:|---:|---:|")
    for case in sorted({case for case, _, _ in times}):
        cells = [f"{statistics.median(times[(case, busy, threads)]):.3f}" for busy, threads in columns]
        print(f"| `{case}` | " + " | ".join(cells) + " |")
    print(f"\nms, wall-clock, median of {args.rounds} rounds")


if __name__ == "__main__":
    main()
