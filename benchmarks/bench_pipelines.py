#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""numpy and PyTorch on the pipelines of bench_pipelines.cpp.

Same cases, shapes and data (the same hashed values, bit for bit), preallocated outputs (`out=`) where
the API has them; PyTorch on the CPU with one thread, under torch.inference_mode(). Every implementation
is checked once against a float64 numpy reference before anything is timed (exit status 1 on a
mismatch). Times are medians of CPU time over repetitions (9 unless told otherwise) taken in random
interleaved order, as bench_pipelines measures. Prints a table, or JSON with --json (what
benchmarks/run_all.py reads): {"medians": {"softmax/numpy": seconds, ...}, "samples": {"softmax/numpy":
[seconds of each repetition], ...}, "notes": {...}, ...}.

Run it with the Python that has numpy and PyTorch (on Debian: /usr/bin/python3):

    /usr/bin/python3 benchmarks/bench_pipelines.py --scale small
"""

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

# The sizes of bench_pipelines.cpp: images (n, c, h, w), matrices (rows, columns), series (stations,
# times of each, skew: a at times [0, times), b at [skew, skew + times)).
SIZES = {
    "full": dict(n=16, c=3, h=224, w=224, rows=2000, columns=2000, stations=256, times=4000, skew=1000,
                 large_n=1024),
    "small": dict(n=4, c=3, h=32, w=32, rows=200, columns=200, stations=16, times=400, skew=100, large_n=8),
}

CASES = ["normalize", "normalize_large", "normalize_masked", "exp", "relu", "channel_mean", "channel_max", "image_sum", "softmax",
         "row_column", "chain3", "anomaly", "join_anomaly"]

# (rtol, atol) against the float64 reference: an element passes when both are NaN or
# |value - reference| <= atol + rtol * |reference|. The f32 cases round once or twice per element; f32 sums
# of 1e5 to 1e6 terms (pairwise in numpy, blocked in PyTorch) stay well within 1e-5.
TOLERANCE = {
    "normalize": (1e-6, 1e-7),
    "normalize_large": (1e-6, 1e-7),
    "normalize_masked": (1e-6, 1e-7),
    "exp": (1e-6, 0.0),
    "relu": (0.0, 0.0),
    "channel_mean": (1e-5, 0.0),
    "channel_max": (0.0, 0.0),
    "image_sum": (1e-5, 0.0),
    "softmax": (1e-6, 1e-7),
    "row_column": (1e-15, 0.0),
    "chain3": (0.0, 2e-15),
    "anomaly": (0.0, 1e-12),
    "join_anomaly": (0.0, 1e-12),
}


def hashed(count, salt, lo, span, dtype):
    """lo + span * u with u Knuth's multiplicative hash of the position in [0, 1), as bench_pipelines.cpp
    fills its arrays: with span a power of two every step is exact, so the values are the same bit for bit."""
    positions = np.arange(count, dtype=np.uint64) + np.uint64(salt)
    unit = (positions * np.uint64(2654435761)) % np.uint64(2 ** 32)
    return (lo + span * (unit.astype(np.float64) / 4294967296.0)).astype(dtype)


def make_data(z):
    """The inputs of every case, and the positions of the outer join of the two series' times."""
    n, c, h, w = z["n"], z["c"], z["h"], z["w"]
    d = {
        "x": hashed(n * c * h * w, 1, -0.5, 2.0, np.float32).reshape(n, c, h, w),
        "m": hashed(c, 2, 0.25, 0.5, np.float32),
        "s": hashed(c, 3, 0.25, 0.25, np.float32),
        # The C++ program rounds to float before it compares, so this does too.
        "lbl": (hashed(n * h * w, 4, 0.0, 1.0, np.float32) < np.float32(0.5)).astype(np.float32).reshape(n, h, w),
    }
    shape = (z["rows"], z["columns"])
    # normalize_large's batch: (large_n, c, h, w), far beyond the last-level cache.
    d["x_large"] = hashed(z["large_n"] * c * h * w, 1, -0.5, 2.0, np.float32).reshape(z["large_n"], c, h, w)
    d["A"] = hashed(shape[0] * shape[1], 5, 0.5, 1.0, np.float64).reshape(shape)
    d["B"] = hashed(shape[0] * shape[1], 6, 0.5, 1.0, np.float64).reshape(shape)
    d["C"] = hashed(shape[0] * shape[1], 7, 0.5, 1.0, np.float64).reshape(shape)
    d["u"] = hashed(shape[0], 8, -1.0, 2.0, np.float64)
    d["v"] = hashed(shape[1], 9, 0.5, 1.0, np.float64)
    stations, times = z["stations"], z["times"]
    d["a"] = hashed(stations * times, 10, 10.0, 4.0, np.float64).reshape(stations, times)
    d["b"] = hashed(stations * times, 11, 10.0, 4.0, np.float64).reshape(stations, times)
    d["time_a"] = np.arange(times, dtype=np.int64)
    d["time_b"] = np.arange(times, dtype=np.int64) + z["skew"]
    d["join"] = join_positions(d["time_a"], d["time_b"])
    d["joined"] = outer_join(d)
    return d


def outer_join(d):
    """a + b on the union of their times, NaN where one of them lacks the time: the anomaly case's input."""
    p = d["join"]
    a = np.full((d["a"].shape[0], p["times"]), np.nan)
    a[:, p["a_begin"]:p["a_begin"] + d["a"].shape[1]] = d["a"]
    b = np.full_like(a, np.nan)
    b[:, p["b_begin"]:p["b_begin"] + d["b"].shape[1]] = d["b"]
    return a + b


def join_positions(time_a, time_b):
    """Where each run of consecutive times lies in their outer join, and where both have values."""
    first = min(time_a[0], time_b[0])
    last = max(time_a[-1], time_b[-1])
    a_begin, b_begin = int(time_a[0] - first), int(time_b[0] - first)
    both_begin = max(a_begin, b_begin)
    both_end = max(both_begin, min(a_begin + len(time_a), b_begin + len(time_b)))
    return dict(a_begin=a_begin, b_begin=b_begin, both_begin=both_begin, both_end=both_end,
                times=int(last - first + 1))


def data_of(case, d):
    """(case, data) to compute: normalize_large is normalize on the large batch."""
    if case == "normalize_large":
        return "normalize", {**d, "x": d["x_large"]}
    return case, d


def reference(case, d):
    """The case computed in float64 with plain numpy: what every implementation is checked against."""
    x = d["x"].astype(np.float64)
    m = d["m"].astype(np.float64)[:, None, None]
    s = d["s"].astype(np.float64)[:, None, None]
    if case == "normalize":
        return (x - m) / s
    if case == "normalize_masked":
        return np.where(d["lbl"][:, None] == 1, (x - m) / s, 0.0)
    if case == "exp":
        return np.exp(x)
    if case == "relu":
        return np.where(x > 0, x, 0.0)
    if case == "channel_mean":
        return x.mean(axis=(0, 2, 3))
    if case == "channel_max":
        return x.max(axis=(0, 2, 3))
    if case == "image_sum":
        return x.sum(axis=(1, 2, 3))
    if case == "softmax":
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    if case == "row_column":
        return (d["A"] + d["u"][:, None]) * d["v"]
    if case == "chain3":
        return (d["A"] + d["B"]) * d["C"] - d["A"]
    if case in ("anomaly", "join_anomaly"):
        j = outer_join(d)
        return j - np.nanmean(j, axis=1, keepdims=True)
    raise ValueError(case)


def numpy_case(case, d):
    """(run, result): numpy's spelling of `case`, writing into preallocated arrays, and its output."""
    x, lbl = d["x"], d["lbl"]
    m, s = d["m"][:, None, None], d["s"][:, None, None]
    out = np.empty_like(x)
    if case == "normalize":
        def run():
            np.subtract(x, m, out=out)
            np.divide(out, s, out=out)
        return run, out
    if case == "normalize_masked":
        off = np.empty(lbl.shape, dtype=bool)

        def run():
            np.subtract(x, m, out=out)
            np.divide(out, s, out=out)
            np.not_equal(lbl, 1, out=off)
            np.copyto(out, 0, where=off[:, None])
        return run, out
    if case == "exp":
        return (lambda: np.exp(x, out=out)), out
    if case == "relu":
        return (lambda: np.maximum(x, 0, out=out)), out
    if case in ("channel_mean", "channel_max"):
        per_channel = np.empty(x.shape[1], dtype=x.dtype)
        reduce = np.mean if case == "channel_mean" else np.max
        return (lambda: reduce(x, axis=(0, 2, 3), out=per_channel)), per_channel
    if case == "image_sum":
        per_image = np.empty(x.shape[0], dtype=x.dtype)
        return (lambda: np.sum(x, axis=(1, 2, 3), out=per_image)), per_image
    if case == "softmax":
        across = np.empty((x.shape[0], 1) + x.shape[2:], dtype=x.dtype)

        def run():
            np.max(x, axis=1, keepdims=True, out=across)
            np.subtract(x, across, out=out)
            np.exp(out, out=out)
            np.sum(out, axis=1, keepdims=True, out=across)
            np.divide(out, across, out=out)
        return run, out
    A, B, C, u, v = d["A"], d["B"], d["C"], d["u"], d["v"]
    matrix_out = np.empty_like(A)
    if case == "row_column":
        def run():
            np.add(A, u[:, None], out=matrix_out)
            np.multiply(matrix_out, v, out=matrix_out)
        return run, matrix_out
    if case == "chain3":
        def run():
            np.add(A, B, out=matrix_out)
            np.multiply(matrix_out, C, out=matrix_out)
            np.subtract(matrix_out, A, out=matrix_out)
        return run, matrix_out
    if case == "anomaly":
        joined = d["joined"]
        out = np.empty_like(joined)
        station_mean = np.empty((joined.shape[0], 1))

        def run():
            np.nanmean(joined, axis=1, keepdims=True, out=station_mean)
            np.subtract(joined, station_mean, out=out)
        return run, out
    if case == "join_anomaly":
        a, b, p = d["a"], d["b"], d["join"]
        joined = np.empty((a.shape[0], p["times"]))
        station_mean = np.empty((a.shape[0], 1))
        both = slice(p["both_begin"], p["both_end"])
        in_a = slice(p["both_begin"] - p["a_begin"], p["both_end"] - p["a_begin"])
        in_b = slice(p["both_begin"] - p["b_begin"], p["both_end"] - p["b_begin"])

        def run():
            # The outer join spelled out on arrays: NaN where one series lacks the time.
            joined[:, :p["both_begin"]] = np.nan
            np.add(a[:, in_a], b[:, in_b], out=joined[:, both])
            joined[:, p["both_end"]:] = np.nan
            np.nanmean(joined, axis=1, keepdims=True, out=station_mean)
            np.subtract(joined, station_mean, out=joined)
        return run, joined
    raise ValueError(case)


def torch_case(case, d, torch):
    """(run, result, note): PyTorch's spelling of `case` on tensors that share numpy's memory."""
    x, lbl = torch.from_numpy(d["x"]), torch.from_numpy(d["lbl"])
    m, s = torch.from_numpy(d["m"])[:, None, None], torch.from_numpy(d["s"])[:, None, None]
    out = torch.empty_like(x)
    if case == "normalize":
        def run():
            torch.sub(x, m, out=out)
            out.div_(s)
        return run, out, None
    if case == "normalize_masked":
        off = torch.empty(lbl.shape, dtype=torch.bool)

        def run():
            torch.sub(x, m, out=out)
            out.div_(s)
            torch.ne(lbl, 1, out=off)
            out.masked_fill_(off[:, None], 0)
        return run, out, None
    if case == "exp":
        return (lambda: torch.exp(x, out=out)), out, None
    if case == "relu":
        return (lambda: torch.clamp(x, min=0, out=out)), out, "torch.relu has no out=: written torch.clamp(x, min=0, out=)"
    if case in ("channel_mean", "channel_max"):
        per_channel = torch.empty(x.shape[1], dtype=x.dtype)
        reduce = torch.mean if case == "channel_mean" else torch.amax
        return (lambda: reduce(x, dim=(0, 2, 3), out=per_channel)), per_channel, None
    if case == "image_sum":
        per_image = torch.empty(x.shape[0], dtype=x.dtype)
        return (lambda: torch.sum(x, dim=(1, 2, 3), out=per_image)), per_image, None
    if case == "softmax":
        return (lambda: torch.softmax(x, dim=1, out=out)), out, None
    A, B, C = torch.from_numpy(d["A"]), torch.from_numpy(d["B"]), torch.from_numpy(d["C"])
    u, v = torch.from_numpy(d["u"]), torch.from_numpy(d["v"])
    matrix_out = torch.empty_like(A)
    if case == "row_column":
        def run():
            torch.add(A, u[:, None], out=matrix_out)
            matrix_out.mul_(v)
        return run, matrix_out, None
    if case == "chain3":
        def run():
            torch.add(A, B, out=matrix_out)
            matrix_out.mul_(C)
            matrix_out.sub_(A)
        return run, matrix_out, None
    if case == "anomaly":
        joined = torch.from_numpy(d["joined"])
        out = torch.empty_like(joined)
        station_mean = torch.empty((joined.shape[0], 1), dtype=joined.dtype)

        def run():
            torch.nanmean(joined, dim=1, keepdim=True, out=station_mean)
            torch.sub(joined, station_mean, out=out)
        return run, out, None
    if case == "join_anomaly":
        a, b, p = torch.from_numpy(d["a"]), torch.from_numpy(d["b"]), d["join"]
        joined = torch.empty((a.shape[0], p["times"]), dtype=a.dtype)
        station_mean = torch.empty((a.shape[0], 1), dtype=a.dtype)
        both = joined[:, p["both_begin"]:p["both_end"]]
        in_a = a[:, p["both_begin"] - p["a_begin"]:p["both_end"] - p["a_begin"]]
        in_b = b[:, p["both_begin"] - p["b_begin"]:p["both_end"] - p["b_begin"]]

        def run():
            joined[:, :p["both_begin"]] = float("nan")
            torch.add(in_a, in_b, out=both)
            joined[:, p["both_end"]:] = float("nan")
            torch.nanmean(joined, dim=1, keepdim=True, out=station_mean)
            joined.sub_(station_mean)
        return run, joined, "no labels: the join is spelled out on positions"
    raise ValueError(case)


def as_numpy(result):
    """The values of an output, a numpy array or a tensor, as a numpy array."""
    return result.numpy() if hasattr(result, "numpy") else result


def check(name, got, expected, tolerance):
    """True when `got` matches the reference within `tolerance` (rtol, atol); prints a line either way."""
    rtol, atol = tolerance
    got = np.asarray(got, dtype=np.float64)
    if got.shape != expected.shape:
        print(f"MISMATCH {name}: shape {got.shape}, the reference's {expected.shape}", file=sys.stderr)
        return False
    both_nan = np.isnan(got) & np.isnan(expected)
    with np.errstate(invalid="ignore"):
        diff = np.where(both_nan, 0.0, np.abs(got - expected))
        bad = ~both_nan & ~(diff <= atol + rtol * np.abs(expected))
    if bad.any():
        first = np.flatnonzero(bad)[0]
        print(f"MISMATCH {name}: {bad.sum()} of {bad.size} elements off (rtol {rtol}, atol {atol}); element "
              f"{first} is {got.flat[first]!r}, the reference's {expected.flat[first]!r}", file=sys.stderr)
        return False
    print(f"  {name:28s} max |diff| {diff.max():.3g}", file=sys.stderr)
    return True


def calibrate(f, min_time, clock):
    """How many calls take at least `min_time` seconds of `clock`."""
    calls = 1
    while True:
        start = clock()
        for _ in range(calls):
            f()
        if clock() - start >= min_time:
            return calls
        calls *= 2


def main(family=None):
    """Checks and times the cases of `family`: this module, or one that defines the same names (bench_layouts.py):
    SIZES, CASES, TOLERANCE, make_data, data_of, reference, numpy_case and torch_case."""
    family = family or sys.modules[__name__]
    parser = argparse.ArgumentParser(description=family.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", choices=sorted(family.SIZES), default=os.environ.get("XTENSOR_NAMED_BENCH_SCALE", "full"),
                        help="sizes (default: $XTENSOR_NAMED_BENCH_SCALE, else full)")
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--min-time", type=float, default=0.05, help="seconds of CPU time per repetition")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--no-torch", action="store_true", help="numpy only")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="PyTorch's thread count (0: its default, all cores); above 1 or 0, times are "
                             "wall-clock (CPU time would add up the threads)")
    args = parser.parse_args()
    clock = time.process_time if args.torch_threads == 1 else time.perf_counter

    torch = None
    notes = {}
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            notes["torch"] = "PyTorch not found: no PyTorch column"
    if torch is not None and args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)

    d = family.make_data(family.SIZES[args.scale])
    runs = []
    ok = True
    print("Checking numpy and PyTorch against a float64 numpy reference:", file=sys.stderr)
    with torch.inference_mode() if torch is not None else contextlib.nullcontext():
        for case in family.CASES:
            computed, data = family.data_of(case, d)
            expected = family.reference(computed, data)
            run, result = family.numpy_case(computed, data)
            run()
            ok = check(f"{case}/numpy", as_numpy(result), expected, family.TOLERANCE[case]) and ok
            runs.append((f"{case}/numpy", run))
            if torch is None:
                continue
            run, result, note = family.torch_case(computed, data, torch)
            run()
            ok = check(f"{case}/torch", as_numpy(result), expected, family.TOLERANCE[case]) and ok
            runs.append((f"{case}/torch", run))
            if note:
                notes[f"{case}/torch"] = note
        if not ok:
            sys.exit(f"{Path(family.__file__).name}: an implementation computes something else than the reference; nothing timed")

        calls = {name: calibrate(run, args.min_time, clock) for name, run in runs}
        samples = {name: [] for name, _ in runs}
        order = [run for run in runs for _ in range(args.repetitions)]
        random.Random(args.seed).shuffle(order)
        for name, run in order:
            start = clock()
            for _ in range(calls[name]):
                run()
            samples[name].append((clock() - start) / calls[name])

    medians = {name: statistics.median(values) for name, values in samples.items()}
    versions = {"numpy": np.__version__, "torch": torch.__version__ if torch is not None else None,
                "python": sys.version.split()[0]}
    if args.json:
        json.dump({**versions, "scale": args.scale, "repetitions": args.repetitions, "medians": medians,
                   "samples": samples, "notes": notes}, sys.stdout, indent=1)
        print()
        return
    print(f"numpy {versions['numpy']}, PyTorch {versions['torch'] or '-'} (one thread), {args.scale} sizes: "
          f"median CPU time per call of {args.repetitions} interleaved repetitions")
    print(f"{'case':20s} {'numpy':>12s} {'PyTorch':>12s}")
    for case in family.CASES:
        cells = [medians.get(f"{case}/{who}") for who in ("numpy", "torch")]
        print(f"{case:20s} " + " ".join(f"{format_time(t):>12s}" for t in cells))
    for name, note in notes.items():
        print(f"{name}: {note}")


def format_time(seconds):
    """`12.3 us` or `4.56 ms`; `-` for a missing time."""
    if not seconds:
        return "-"
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


if __name__ == "__main__":
    main()
