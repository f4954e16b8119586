#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""numpy on the cases of bench_kernels.cpp, for the comparison with xtensor-named's kernels.

Same shapes, same preallocated outputs (`out=` / `np.copyto`), median CPU time of 15 repetitions taken
in random interleaved order, as bench_kernels measures. Prints a table, or JSON with --json (what
benchmarks/run_all.py reads): {"f64_2000x2000/column/numpy": seconds, ...}.

Run it with the Python that has numpy (on Debian: /usr/bin/python3).
"""

import argparse
import json
import random
import statistics
import sys
import time

import numpy as np

CONFIGS = [("f64_2000x2000", 2000, 2000, np.float64),
           ("f32_2000x2000", 2000, 2000, np.float32),
           ("f64_256x256", 256, 256, np.float64)]

CASES = ["same_shape", "row", "column", "outer", "broadcast_to", "broadcast_column", "sum_to_axis0", "copy"]


def make_case(name, m, n, dtype):
    """The function that computes case `name` once, on operands like bench_kernels'."""
    index = np.arange(m * n) % 1000
    a = (1 + index / 1000).astype(dtype).reshape(m, n)
    b = (1 + ((index + m * n) % 1000) / 1000).astype(dtype).reshape(m, n)
    u = ((np.arange(m) % 7) / 8).astype(dtype).reshape(m, 1)
    v = ((np.arange(n) % 5) / 4).astype(dtype)
    out = np.zeros((m, n), dtype=dtype)
    sums = np.zeros(n, dtype=dtype)
    cases = {
        "same_shape": lambda: np.add(a, b, out=out),
        "row": lambda: np.add(a, v, out=out),
        "column": lambda: np.add(a, u, out=out),
        "outer": lambda: np.add(u, v, out=out),
        "broadcast_to": lambda: np.copyto(out, np.broadcast_to(v, (m, n))),
        "broadcast_column": lambda: np.copyto(out, np.broadcast_to(u, (m, n))),
        "sum_to_axis0": lambda: np.sum(a, axis=0, out=sums),
        "copy": lambda: np.copyto(out, a),
    }
    return cases[name]


def calibrate(f, min_time):
    """How many calls take at least `min_time` seconds of CPU time."""
    calls = 1
    while True:
        start = time.process_time()
        for _ in range(calls):
            f()
        if time.process_time() - start >= min_time:
            return calls
        calls *= 2


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repetitions", type=int, default=15)
    parser.add_argument("--min-time", type=float, default=0.05, help="seconds of CPU time per repetition")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    runs = []
    for config, m, n, dtype in CONFIGS:
        for case in CASES:
            f = make_case(case, m, n, dtype)
            f()
            runs.append((f"{config}/{case}/numpy", f, calibrate(f, args.min_time)))

    samples = {name: [] for name, _, _ in runs}
    order = [run for run in runs for _ in range(args.repetitions)]
    random.Random(args.seed).shuffle(order)
    for name, f, calls in order:
        start = time.process_time()
        for _ in range(calls):
            f()
        samples[name].append((time.process_time() - start) / calls)

    medians = {name: statistics.median(values) for name, values in samples.items()}
    if args.json:
        json.dump({"numpy": np.__version__, "python": sys.version.split()[0], "medians": medians}, sys.stdout, indent=1)
        print()
        return
    print(f"numpy {np.__version__}: median CPU time per call of {args.repetitions} interleaved repetitions")
    for name, seconds in medians.items():
        print(f"{name:45s} {seconds * 1e6:12.1f} us")


if __name__ == "__main__":
    main()
