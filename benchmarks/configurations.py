#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""The pipelines in other builds: markdown tables for benchmarks/README.md.

threads: bench_pipelines_tbb (the kernels and xtensor's assignment on TBB's threads, wall-clock times)
with --threads=1 and --threads=2, beside bench_pipelines.py with PyTorch on its default thread count
(wall-clock).

instruction-sets: bench_pipelines_default (no -march flag: SSE2 on x86-64, what a distribution or conda
build gets) against bench_pipelines (-march=native, through xtensor-named::optimize), one thread, CPU
time, beside numpy, which picks its instruction set at run time.

Each build runs `--rounds` times, the builds in turn, and each figure is the median over the rounds of
each run's median. Every program runs under run_all.py's SAME_PAGES (large blocks on huge pages, as
numpy's arrays). Needs a Release build (build/bench, as run_all.py builds it; TBB found for the threads)
and Debian's /usr/bin/python3 for the numpy and PyTorch columns.

    /usr/bin/python3 benchmarks/configurations.py          # both tables and docs/benchmarks_configurations.png
    /usr/bin/python3 benchmarks/configurations.py --table threads --rounds 3 --filter 'softmax|exp'
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from run_all import PIPELINES, format_time, medians_of, same_pages_environment

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "build" / "bench" / "benchmarks"
CASES = [case for case, *_ in PIPELINES]


def run_cpp(command, pattern, min_time, repetitions, clock):
    """Median seconds (`clock`: "real_time" or "cpu_time") of every `case/implementation` of one run."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.json"
        subprocess.run([*command, f"--benchmark_filter=^({pattern})/", f"--benchmark_min_time={min_time}",
                        f"--benchmark_repetitions={repetitions}", f"--benchmark_out={out}",
                        "--benchmark_out_format=json", "--benchmark_color=false"],
                       check=True, stdout=subprocess.DEVNULL, env=same_pages_environment())
        return medians_of(json.loads(out.read_text()), clock)


def interleaved(builds, args, clock):
    """{build: {name: median over the rounds}}: every build run `args.rounds` times, in turn."""
    runs = {build: [] for build in builds}
    for _ in range(args.rounds):
        for build, command in builds.items():
            runs[build].append(run_cpp(command, args.filter, args.min_time, args.repetitions, clock))
    medians = {}
    for build, results in runs.items():
        names = {name for r in results for name in r}
        medians[build] = {name: statistics.median(r[name] for r in results if name in r) for name in names}
    return medians


def python_medians(args, torch_threads):
    """numpy's and PyTorch's medians from bench_pipelines.py, PyTorch on `torch_threads` (0: its default)."""
    python = subprocess.run(["/usr/bin/python3", str(ROOT / "benchmarks" / "bench_pipelines.py"), "--json",
                             "--torch-threads", str(torch_threads), "--repetitions", str(args.repetitions)],
                            check=True, capture_output=True, text=True, env=same_pages_environment())
    return json.loads(python.stdout)["medians"]


def text(seconds):
    return "-" if seconds is None else format_time(seconds)


def ratio(numerator, denominator):
    return f"{numerator / denominator:.2f}" if numerator and denominator else "-"


def threads_table(args):
    """Prints the threads table; returns {"one", "two", "torch"}: medians by `case/implementation`."""
    bench = str(BENCHMARKS / "bench_pipelines_tbb")
    runs = interleaved({1: [bench, "--threads=1"], 2: [bench, "--threads=2"]}, args, "real_time")
    torch = {} if args.no_python else python_medians(args, 0)
    print("| case | hand | named, 1 thread | named, 2 threads | 2 threads / 1 | xtensor, 2 threads | "
          "PyTorch, default threads | PyTorch / named (2 threads) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        one, two = runs[1].get(f"{case}/named"), runs[2].get(f"{case}/named")
        if one is None or two is None:
            continue
        pytorch = torch.get(f"{case}/torch")
        print(f"| `{case}` | {text(runs[1].get(f'{case}/hand'))} | {text(one)} | {text(two)} | {ratio(one, two)} | "
              f"{text(runs[2].get(f'{case}/xtensor'))} | {text(pytorch)} | {ratio(pytorch, two)} |")
    return {"one": runs[1], "two": runs[2], "torch": torch}


def instruction_sets_table(args):
    """Prints the instruction sets table; returns {"default", "native", "python"}: medians."""
    runs = interleaved({"default": [str(BENCHMARKS / "bench_pipelines_default")],
                        "native": [str(BENCHMARKS / "bench_pipelines")]}, args, "cpu_time")
    python = {} if args.no_python else python_medians(args, 1)
    print("| case | hand, default | hand, native | named, default | named, native | named: native / default "
          "(bar ≥ 0.9) | xtensor, default | xtensor, native | numpy | numpy / named, default |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        default, native = runs["default"].get(f"{case}/named"), runs["native"].get(f"{case}/named")
        if default is None or native is None:
            continue
        numpy = python.get(f"{case}/numpy")
        print(f"| `{case}` | {text(runs['default'].get(f'{case}/hand'))} | {text(runs['native'].get(f'{case}/hand'))} "
              f"| {text(default)} | {text(native)} | {ratio(native, default)} "
              f"| {text(runs['default'].get(f'{case}/xtensor'))} | {text(runs['native'].get(f'{case}/xtensor'))} "
              f"| {text(numpy)} | {ratio(numpy, default)} |")
    return {"default": runs["default"], "native": runs["native"], "python": python}


def plot(threads, instruction_sets, path):
    """Bars per pipeline: xtensor-named in each build, and PyTorch on its default threads, as speed-ups over
    the hand loop (-march=native, one thread)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [("named, default instruction set, 1 thread", "#9fc5e8", instruction_sets["default"], "named"),
              ("named, -march=native, 1 thread", "#1f6fb4", instruction_sets["native"], "named"),
              ("named, -march=native, 2 threads", "#0b3d6b", threads["two"], "named"),
              ("PyTorch, default threads (2)", "#a64d79", threads["torch"], "torch")]
    figure, ax = plt.subplots(figsize=(14, 5.2))
    width = 0.2
    for k, (label, color, medians, who) in enumerate(series):
        positions, values = [], []
        for i, case in enumerate(CASES):
            hand = instruction_sets["native"].get(f"{case}/hand")
            t = medians.get(f"{case}/{who}")
            if hand and t:
                positions.append(i + (k - 1.5) * width)
                values.append(hand / t)
        ax.bar(positions, values, width, label=label, color=color)
    ax.axhline(1, color="grey", linewidth=0.8, linestyle="--", label="the hand loop (-march=native, 1 thread)")
    ax.set_yscale("log")
    ax.set_xticks(range(len(CASES)))
    ax.set_xticklabels([case.replace("_", "\n") for case in CASES], fontsize=8)
    ax.set_ylabel("the hand loop's time / this time\n(higher is faster; log scale)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=5, frameon=False)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.set_title("Pipelines in other builds: instruction sets and threads (medians; wall-clock with threads)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    print(f"\nwrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", choices=["threads", "instruction-sets", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each build, in turn")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--filter", default="|".join(CASES), help="cases, a regular expression")
    parser.add_argument("--no-python", action="store_true", help="leave out numpy and PyTorch")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "benchmarks_configurations.png",
                        help="where the plot goes (with --table both)")
    args = parser.parse_args()

    threads = instruction_sets = None
    if args.table in ("threads", "both"):
        print("Threads:\n")
        threads = threads_table(args)
    if args.table in ("instruction-sets", "both"):
        print("\nInstruction sets:\n")
        instruction_sets = instruction_sets_table(args)
    if threads and instruction_sets:
        plot(threads, instruction_sets, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
