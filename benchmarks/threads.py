#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""The pipelines on 1 and 2 threads: a markdown table for benchmarks/README.md.

Runs bench_pipelines_tbb (the kernels and xtensor's assignment on TBB's threads, wall-clock times) with
--threads=1 and --threads=2 in turn, `--rounds` times each, and takes the median over the rounds of each
run's median; then bench_pipelines.py with PyTorch on its default thread count (wall-clock). Needs a
Release build with TBB found (build/bench, as run_all.py builds it) and, for the PyTorch column, Debian's
/usr/bin/python3.

    /usr/bin/python3 benchmarks/threads.py
    /usr/bin/python3 benchmarks/threads.py --rounds 3 --filter 'softmax|exp'
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ["normalize", "normalize_masked", "exp", "relu", "channel_mean", "channel_max", "image_sum", "softmax",
         "row_column", "chain3", "anomaly", "join_anomaly"]


def run_cpp(bench, threads, pattern, min_time, repetitions):
    """Median wall-clock seconds of every `case/implementation` of one run of bench_pipelines_tbb."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.json"
        subprocess.run([str(bench), f"--threads={threads}", f"--benchmark_filter=^({pattern})/",
                        f"--benchmark_min_time={min_time}", f"--benchmark_repetitions={repetitions}",
                        f"--benchmark_out={out}", "--benchmark_out_format=json", "--benchmark_color=false"],
                       check=True, stdout=subprocess.DEVNULL)
        report = json.loads(out.read_text())
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    result = {}
    for b in report["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            name = b["run_name"].removesuffix("/real_time")
            result[name] = b["real_time"] * scale[b.get("time_unit", "ns")]
    return result


def text(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=str(ROOT / "build" / "bench" / "benchmarks" / "bench_pipelines_tbb"))
    parser.add_argument("--rounds", type=int, default=2, help="runs on each thread count, in turn")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--filter", default="|".join(CASES), help="cases, a regular expression")
    parser.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()

    runs = {1: [], 2: []}
    for _ in range(args.rounds):
        for threads in (1, 2):
            runs[threads].append(run_cpp(args.bench, threads, args.filter, args.min_time, args.repetitions))

    def median(threads, name):
        values = [r[name] for r in runs[threads] if name in r]
        return statistics.median(values) if values else None

    torch = {}
    if not args.no_torch:
        python = subprocess.run(["/usr/bin/python3", str(ROOT / "benchmarks" / "bench_pipelines.py"), "--json",
                                 "--torch-threads", "0", "--repetitions", str(args.repetitions)],
                                check=True, capture_output=True, text=True)
        torch = json.loads(python.stdout)["medians"]

    print("| case | hand | named, 1 thread | named, 2 threads | 2 threads / 1 | xtensor, 2 threads | "
          "PyTorch, default threads | PyTorch / named (2 threads) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        one = median(1, f"{case}/named")
        two = median(2, f"{case}/named")
        if one is None or two is None:
            continue
        hand = median(1, f"{case}/hand")
        xtensor = median(2, f"{case}/xtensor")
        pytorch = torch.get(f"{case}/torch")
        speedup = f"{one / two:.2f}"
        versus = f"{pytorch / two:.2f}" if pytorch else "-"
        print(f"| `{case}` | {text(hand)} | {text(one)} | {text(two)} | {speedup} | {text(xtensor)} | "
              f"{text(pytorch)} | {versus} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
