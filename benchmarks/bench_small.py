#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""numpy and PyTorch on the small arrays of bench_small.cpp.

`a` (m, n) float64, `r` (n), `k` (m), the same values as bench_small.cpp: `(a - r) * k[:, None]` into a
preallocated output (`out=`), `exp(a)` into it, `a - r` into an (n, m) output through its transposed view
(`out=ot.T`), `a.sum(1)`, and `a3.sum(2)` of an (m, n, 4) `a3` into the (n, m) output through its transposed
view, at 1, 12, 100, 1,000 and 10,000 elements of (m, n); PyTorch on the
CPU with one thread, under torch.inference_mode(). Medians of --rounds rounds, each the mean of as many
calls as take about 20 ms of CPU time (bench_numpy.calibrate), in nanoseconds a call. Both are checked
against a plain loop first.

    /usr/bin/python3 benchmarks/bench_small.py
"""

import argparse
import math
import statistics
import time

import numpy as np

from bench_numpy import calibrate

SHAPES = {1: (1, 1), 12: (4, 3), 100: (10, 10), 1000: (40, 25), 10000: (100, 100)}


def operands(elements):
    m, n = SHAPES[elements]
    a = (0.5 + (np.arange(m * n) % 7)).reshape(m, n).astype(np.float64)
    r = 0.25 * np.arange(n, dtype=np.float64)
    k = 1.0 + 0.125 * np.arange(m, dtype=np.float64)
    a3 = (0.5 + (np.arange(m * n * 4) % 5)).reshape(m, n, 4).astype(np.float64)
    return a, r, k, np.empty((m, n)), a3


def per_call_ns(call, rounds):
    calls = calibrate(call, 0.02)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - start) / calls * 1e9)
    return statistics.median(times)


def reference(a, r, k):
    m, n = a.shape
    chain = np.empty((m, n))
    exps = np.empty((m, n))
    sums = np.zeros(m)
    for i in range(m):
        for j in range(n):
            chain[i, j] = (a[i, j] - r[j]) * k[i]
            exps[i, j] = math.exp(a[i, j])
            sums[i] += a[i, j]
    return chain, exps, sums


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    rows = []
    for elements in SHAPES:
        a, r, k, o, a3 = operands(elements)
        ot = np.empty(o.shape[::-1])
        ta, tr, tk, to, tot, ta3 = (torch.from_numpy(x.copy()) for x in (a, r, k, o, ot, a3))
        m, n = a.shape
        sums3 = np.array([[sum(a3[i, j, z] for z in range(4)) for i in range(m)] for j in range(n)])
        chain, exps, sums = reference(a, r, k)
        kc = k[:, None]
        tkc = tk[:, None]
        with torch.inference_mode():
            np.multiply(np.subtract(a, r), kc, out=o)
            torch.mul(torch.sub(ta, tr), tkc, out=to)
            assert np.array_equal(o, chain) and np.array_equal(to.numpy(), chain), "chain differs"
            np.exp(a, out=o)
            torch.exp(ta, out=to)
            assert np.allclose(o, exps) and np.allclose(to.numpy(), exps), "exp differs"
            np.subtract(a, r, out=ot.T)
            torch.sub(ta, tr, out=tot.t())
            assert np.array_equal(ot, (a - r).T) and np.array_equal(tot.numpy(), (a - r).T), "transposed differs"
            assert np.allclose(a.sum(1), sums) and np.allclose(ta.sum(1).numpy(), sums), "sum differs"
            np.sum(a3, axis=2, out=ot.T)
            torch.sum(ta3, 2, out=tot.t())
            assert np.array_equal(ot, sums3) and np.array_equal(tot.numpy(), sums3), "sum_transposed differs"
            rows.append((elements,
                         per_call_ns(lambda: np.multiply(np.subtract(a, r), kc, out=o), args.rounds),
                         per_call_ns(lambda: torch.mul(torch.sub(ta, tr), tkc, out=to), args.rounds),
                         per_call_ns(lambda: np.exp(a, out=o), args.rounds),
                         per_call_ns(lambda: torch.exp(ta, out=to), args.rounds),
                         per_call_ns(lambda: np.subtract(a, r, out=ot.T), args.rounds),
                         per_call_ns(lambda: torch.sub(ta, tr, out=tot.t()), args.rounds),
                         per_call_ns(lambda: a.sum(1), args.rounds),
                         per_call_ns(lambda: ta.sum(1), args.rounds),
                         per_call_ns(lambda: np.sum(a3, axis=2, out=ot.T), args.rounds),
                         per_call_ns(lambda: torch.sum(ta3, 2, out=tot.t()), args.rounds)))
    print(f"numpy {np.__version__}, PyTorch {torch.__version__} (1 thread); ns a call, medians of {args.rounds}")
    print(f"{'elements':>9} {'chain numpy':>12} {'chain torch':>12} {'exp numpy':>10} {'exp torch':>10} "
          f"{'transposed numpy':>17} {'transposed torch':>17} {'sum numpy':>10} {'sum torch':>10} "
          f"{'sum_transposed numpy':>21} {'sum_transposed torch':>21}")
    for elements, cn, ct, en, et, tn, tt, sn, st, stn, stt in rows:
        print(f"{elements:>9} {cn:>12.0f} {ct:>12.0f} {en:>10.0f} {et:>10.0f} {tn:>17.0f} {tt:>17.0f} "
              f"{sn:>10.0f} {st:>10.0f} {stn:>21.0f} {stt:>21.0f}")


if __name__ == "__main__":
    main()
