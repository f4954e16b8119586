#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""numpy and PyTorch on the layouts of bench_layouts.cpp.

Same cases, shapes, memory orders and data (the same hashed values, bit for bit), preallocated outputs
(`out=`) where the API has them; PyTorch on the CPU with one thread, under torch.inference_mode(). Every
implementation is checked once against a float64 numpy reference before anything is timed (exit status 1
on a mismatch). The measuring protocol, the options and the output (a table, or JSON with --json, what
benchmarks/run_all.py reads) are bench_pipelines.py's.

Run it with the Python that has numpy and PyTorch (on Debian: /usr/bin/python3):

    /usr/bin/python3 benchmarks/bench_layouts.py --scale small
"""

import sys

import numpy as np

import bench_pipelines
from bench_pipelines import hashed

# The sizes of bench_layouts.cpp: points (n, 3); images (n, h, w, c), channels last; f64 matrices (rows,
# columns); rank 5 (a, b, c, d, e) with d short; rank 6 (a, b, c, d, e, f) with b, c and e short.
SIZES = {
    "full": dict(points=1000000, n=8, h=256, w=256, c=3, rows=2000, columns=2000, rank5=(64, 3, 32, 2, 32),
                 rank6=(16, 2, 3, 32, 2, 64)),
    "small": dict(points=10000, n=2, h=16, w=16, c=3, rows=200, columns=200, rank5=(4, 3, 8, 2, 8),
                  rank6=(2, 2, 3, 4, 2, 8)),
}

CASES = ["points_offset", "points_distance", "points_centroid", "nhwc_normalize", "nhwc_sum_c", "nhwc_channel_max",
         "nhwc_softmax", "column_major_column", "other_order", "other_order_sum", "other_order_sum_y", "strided_row",
         "rank5_mean", "rank6_scale"]

# (rtol, atol) against the float64 reference, as bench_pipelines.py reads them. The f32 cases round once or
# twice per element, near 0 where a difference or a sum of terms of both signs cancels (the atol); f32 sums
# of 1e6 terms (pairwise in numpy, blocked in PyTorch) stay well within 1e-5; the f64 cases are one IEEE
# operation per element, as the reference computes it.
TOLERANCE = {
    "points_offset": (1e-6, 1e-7),
    "points_distance": (1e-6, 1e-7),
    "points_centroid": (1e-5, 0.0),
    "nhwc_normalize": (1e-6, 1e-7),
    "nhwc_sum_c": (1e-6, 5e-7),
    "nhwc_channel_max": (0.0, 0.0),
    "nhwc_softmax": (1e-6, 1e-7),
    "column_major_column": (0.0, 0.0),
    "other_order": (0.0, 0.0),
    "other_order_sum": (1e-12, 0.0),
    "other_order_sum_y": (1e-12, 0.0),
    "strided_row": (0.0, 0.0),
    "rank5_mean": (1e-6, 2.5e-7),
    "rank6_scale": (1e-6, 5e-7),
}


def product(shape):
    count = 1
    for extent in shape:
        count *= extent
    return count


def make_data(z):
    """The inputs of every case, filled in the order of their logical positions as bench_layouts.cpp fills
    them, whatever their memory order."""
    points, n, h, w, c = z["points"], z["n"], z["h"], z["w"], z["c"]
    rows, columns = z["rows"], z["columns"]
    rank5, rank6 = z["rank5"], z["rank6"]
    return {
        "p": hashed(points * 3, 21, -0.5, 2.0, np.float32).reshape(points, 3),
        "c": hashed(3, 22, 0.25, 0.5, np.float32),
        "w": hashed(points, 23, 0.5, 1.0, np.float32),
        "x": hashed(n * h * w * c, 31, -0.5, 2.0, np.float32).reshape(n, h, w, c),
        "m": hashed(c, 32, 0.25, 0.5, np.float32),
        "s": hashed(c, 33, 0.25, 0.25, np.float32),
        "A": np.asfortranarray(hashed(rows * columns, 41, 0.5, 1.0, np.float64).reshape(rows, columns)),
        "u": hashed(rows, 42, -1.0, 2.0, np.float64),
        "B": hashed(rows * columns, 43, 0.5, 1.0, np.float64).reshape(rows, columns),
        "C_yx": hashed(columns * rows, 44, 0.5, 1.0, np.float64).reshape(columns, rows),
        "v": hashed((columns + 1) // 2, 45, 0.5, 1.0, np.float64),
        "x5": hashed(product(rank5), 51, -0.5, 2.0, np.float32).reshape(rank5),
        "x6": hashed(product(rank6), 52, -0.5, 2.0, np.float32).reshape(rank6),
        "g": hashed(rank6[2], 53, 0.5, 1.0, np.float32),
        "k": hashed(rank6[4], 54, -1.0, 2.0, np.float32),
    }


def data_of(case, d):
    """(case, data) to compute: every case its own."""
    return case, d


def reference(case, d):
    """The case computed in float64 with plain numpy: what every implementation is checked against."""
    f = {name: value.astype(np.float64) for name, value in d.items()}
    if case == "points_offset":
        return (f["p"] - f["c"]) * f["w"][:, None]
    if case == "points_distance":
        return np.sqrt(((f["p"] - f["c"]) ** 2).sum(axis=1))
    if case == "points_centroid":
        return f["p"].sum(axis=0)
    if case == "nhwc_normalize":
        return (f["x"] - f["m"]) / f["s"]
    if case == "nhwc_sum_c":
        return f["x"].sum(axis=3)
    if case == "nhwc_channel_max":
        return f["x"].max(axis=(0, 1, 2))
    if case == "nhwc_softmax":
        e = np.exp(f["x"] - f["x"].max(axis=3, keepdims=True))
        return e / e.sum(axis=3, keepdims=True)
    if case == "column_major_column":
        return f["A"] + f["u"][:, None]
    if case == "other_order":
        return f["B"] + f["C_yx"].T
    if case == "other_order_sum":
        return (f["B"] * f["C_yx"].T).sum(axis=0)
    if case == "other_order_sum_y":
        return (f["B"] * f["C_yx"].T).sum(axis=1)
    if case == "strided_row":
        return f["B"][:, ::2] * f["v"]
    if case == "rank5_mean":
        return f["x5"] - f["x5"].mean(axis=3, keepdims=True)
    if case == "rank6_scale":
        return f["x6"] * f["g"][:, None, None, None] + f["k"][:, None]
    raise ValueError(case)


def numpy_case(case, d):
    """(run, result): numpy's spelling of `case`, writing into preallocated arrays, and its output."""
    p, c, w = d["p"], d["c"], d["w"]
    if case == "points_offset":
        out = np.empty_like(p)

        def run():
            np.subtract(p, c, out=out)
            np.multiply(out, w[:, None], out=out)
        return run, out
    if case == "points_distance":
        squares = np.empty_like(p)
        out = np.empty(p.shape[0], dtype=p.dtype)

        def run():
            np.subtract(p, c, out=squares)
            np.square(squares, out=squares)
            np.sum(squares, axis=1, out=out)
            np.sqrt(out, out=out)
        return run, out
    if case == "points_centroid":
        out = np.empty(p.shape[1], dtype=p.dtype)
        return (lambda: np.sum(p, axis=0, out=out)), out
    x, m, s = d["x"], d["m"], d["s"]
    if case == "nhwc_normalize":
        out = np.empty_like(x)

        def run():
            np.subtract(x, m, out=out)
            np.divide(out, s, out=out)
        return run, out
    if case == "nhwc_sum_c":
        out = np.empty(x.shape[:3], dtype=x.dtype)
        return (lambda: np.sum(x, axis=3, out=out)), out
    if case == "nhwc_channel_max":
        out = np.empty(x.shape[3], dtype=x.dtype)
        return (lambda: np.max(x, axis=(0, 1, 2), out=out)), out
    if case == "nhwc_softmax":
        out = np.empty_like(x)
        across = np.empty(x.shape[:3] + (1,), dtype=x.dtype)

        def run():
            np.max(x, axis=3, keepdims=True, out=across)
            np.subtract(x, across, out=out)
            np.exp(out, out=out)
            np.sum(out, axis=3, keepdims=True, out=across)
            np.divide(out, across, out=out)
        return run, out
    A, u, B, C_yx, v = d["A"], d["u"], d["B"], d["C_yx"], d["v"]
    if case == "column_major_column":
        out = np.empty_like(A)  # column-major too: empty_like keeps the memory order
        return (lambda: np.add(A, u[:, None], out=out)), out
    if case == "other_order":
        out = np.empty_like(B)
        return (lambda: np.add(B, C_yx.T, out=out)), out
    if case == "other_order_sum":
        out = np.empty(B.shape[1], dtype=B.dtype)
        return (lambda: np.sum(B * C_yx.T, axis=0, out=out)), out
    if case == "other_order_sum_y":
        out = np.empty(B.shape[0], dtype=B.dtype)
        return (lambda: np.sum(B * C_yx.T, axis=1, out=out)), out
    if case == "strided_row":
        out = np.empty((B.shape[0], v.shape[0]), dtype=B.dtype)
        return (lambda: np.multiply(B[:, ::2], v, out=out)), out
    x5, x6, g, k = d["x5"], d["x6"], d["g"], d["k"]
    if case == "rank5_mean":
        out = np.empty_like(x5)
        mean = np.empty(x5.shape[:3] + (1,) + x5.shape[4:], dtype=x5.dtype)

        def run():
            np.mean(x5, axis=3, keepdims=True, out=mean)
            np.subtract(x5, mean, out=out)
        return run, out
    if case == "rank6_scale":
        out = np.empty_like(x6)

        def run():
            np.multiply(x6, g[:, None, None, None], out=out)
            np.add(out, k[:, None], out=out)
        return run, out
    raise ValueError(case)


def torch_case(case, d, torch):
    """(run, result, note): PyTorch's spelling of `case` on tensors that share numpy's memory (and its
    strides: A stays column-major)."""
    t = {name: torch.from_numpy(value) for name, value in d.items()}
    p, c, w = t["p"], t["c"], t["w"]
    if case == "points_offset":
        out = torch.empty_like(p)

        def run():
            torch.sub(p, c, out=out)
            out.mul_(w[:, None])
        return run, out, None
    if case == "points_distance":
        squares = torch.empty_like(p)
        out = torch.empty(p.shape[0], dtype=p.dtype)

        def run():
            torch.sub(p, c, out=squares)
            squares.square_()
            torch.sum(squares, dim=1, out=out)
            out.sqrt_()
        return run, out, None
    if case == "points_centroid":
        out = torch.empty(p.shape[1], dtype=p.dtype)
        return (lambda: torch.sum(p, dim=0, out=out)), out, None
    x, m, s = t["x"], t["m"], t["s"]
    if case == "nhwc_normalize":
        out = torch.empty_like(x)

        def run():
            torch.sub(x, m, out=out)
            out.div_(s)
        return run, out, None
    if case == "nhwc_sum_c":
        out = torch.empty(x.shape[:3], dtype=x.dtype)
        return (lambda: torch.sum(x, dim=3, out=out)), out, None
    if case == "nhwc_channel_max":
        out = torch.empty(x.shape[3], dtype=x.dtype)
        return (lambda: torch.amax(x, dim=(0, 1, 2), out=out)), out, None
    if case == "nhwc_softmax":
        out = torch.empty_like(x)
        return (lambda: torch.softmax(x, dim=3, out=out)), out, None
    A, u, B, C_yx, v = t["A"], t["u"], t["B"], t["C_yx"], t["v"]
    if case == "column_major_column":
        out = torch.empty_like(A)  # preserve_format: column-major too
        return (lambda: torch.add(A, u[:, None], out=out)), out, None
    if case == "other_order":
        out = torch.empty_like(B)
        return (lambda: torch.add(B, C_yx.T, out=out)), out, None
    if case == "other_order_sum":
        out = torch.empty(B.shape[1], dtype=B.dtype)
        return (lambda: torch.sum(B * C_yx.T, dim=0, out=out)), out, None
    if case == "other_order_sum_y":
        out = torch.empty(B.shape[0], dtype=B.dtype)
        return (lambda: torch.sum(B * C_yx.T, dim=1, out=out)), out, None
    if case == "strided_row":
        out = torch.empty((B.shape[0], v.shape[0]), dtype=B.dtype)
        return (lambda: torch.mul(B[:, ::2], v, out=out)), out, None
    x5, x6, g, k = t["x5"], t["x6"], t["g"], t["k"]
    if case == "rank5_mean":
        out = torch.empty_like(x5)
        mean = torch.empty(x5.shape[:3] + (1,) + x5.shape[4:], dtype=x5.dtype)

        def run():
            torch.mean(x5, dim=3, keepdim=True, out=mean)
            torch.sub(x5, mean, out=out)
        return run, out, None
    if case == "rank6_scale":
        out = torch.empty_like(x6)

        def run():
            torch.mul(x6, g[:, None, None, None], out=out)
            out.add_(k[:, None])
        return run, out, None
    raise ValueError(case)


if __name__ == "__main__":
    bench_pipelines.main(sys.modules[__name__])
