/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Where streaming stores start to pay: A(x, y) + u[y], f64, from 16 to 160 MiB written and read, against
// a loop written by hand. Built twice, streaming always (XTENSOR_NAMED_STREAMING_MIN_BYTES=0) and never
// (SIZE_MAX): streaming_min_bytes (docs/kernels.md) is to lie where the first gets faster than the second.
//
//   streaming_threshold_always; streaming_threshold_never     # CPU time, 1 argument: MiB moved

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    /// A (n, n) and an output of the same shape, whose bytes add up to `mib`, and a row u (n).
    struct matrices
    {
        std::size_t n;
        xt::xtensor<double, 2> a;
        xt::xtensor<double, 2> out;
        xt::xtensor<double, 1> u;

        explicit matrices(std::int64_t mib)
            : n(static_cast<std::size_t>(std::sqrt(double(mib) * double(1 << 20) / (2 * sizeof(double))))),
              a(xt::xtensor<double, 2>::from_shape({n, n})), out(xt::xtensor<double, 2>::from_shape({n, n})),
              u(xt::xtensor<double, 1>::from_shape({n}))
        {
            for (std::size_t i = 0; i < a.size(); ++i)
            {
                a.data()[i] = double(i % 97);
                out.data()[i] = 0.0;
            }
            for (std::size_t j = 0; j < n; ++j)
            {
                u(j) = double(j);
            }
        }
    };

    void hand(benchmark::State& state)
    {
        matrices d(state.range(0));
        for (auto _ : state)
        {
            const double* a = d.a.data();
            const double* u = d.u.data();
            double* out = d.out.data();
            for (std::size_t i = 0; i < d.n; ++i)
            {
                for (std::size_t j = 0; j < d.n; ++j)
                {
                    out[i * d.n + j] = a[i * d.n + j] + u[j];
                }
            }
            benchmark::ClobberMemory();
        }
    }

    void named(benchmark::State& state)
    {
        matrices d(state.range(0));
        for (auto _ : state)
        {
            xn::assign(d.out, xn::name(d.a, {"x", "y"}) + xn::name(d.u, {"y"}));
            benchmark::ClobberMemory();
        }
    }

    void sizes(benchmark::internal::Benchmark* b)
    {
        for (std::int64_t mib : {16, 32, 48, 64, 80, 96, 112, 128, 160})
        {
            b->Arg(mib);
        }
        b->Unit(benchmark::kMicrosecond);
    }
} // namespace

BENCHMARK(hand)->Apply(sizes);
BENCHMARK(named)->Apply(sizes);
