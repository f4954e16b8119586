/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Where threads start to pay: a memory-bound and a compute-bound evaluation, f32, from 128 KiB to 16 MiB
// moved, on 1 and 2 threads, with every evaluation cut into blocks (XTENSOR_NAMED_PARALLEL_MIN_BYTES=0).
// XTENSOR_NAMED_PARALLEL_MIN_BYTES (docs/kernels.md) is the smallest size where 2 threads are faster.
//
//   threads_threshold                       # wall-clock time, 2 arguments: bytes moved, threads

#include <cstddef>
#include <cstdint>

#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    /// (x - m[c]) / s[c] over x (n, 4, 64, 64) floats: reads and writes as many bytes as it moves.
    template <bool Exp>
    void normalize(benchmark::State& state)
    {
        const auto bytes = static_cast<std::size_t>(state.range(0));
        const auto threads = static_cast<std::size_t>(state.range(1));
        const std::size_t n = bytes / (2 * 4 * 64 * 64 * sizeof(float));
        xt::xarray<float> x = xt::ones<float>({n, std::size_t(4), std::size_t(64), std::size_t(64)});
        const xt::xarray<float> m = {0.5f, 0.25f, 0.125f, 1.f};
        const xt::xarray<float> s = {2.f, 4.f, 8.f, 0.5f};
        xt::xarray<float> out(x.shape());
        const auto nx = xn::name(x, {"n", "c", "h", "w"});
        const auto nm = xn::name(m, {"c"});
        const auto ns = xn::name(s, {"c"});
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
        for (auto _ : state)
        {
            if constexpr (Exp)
            {
                xn::assign(out, xn::exp((nx - nm) / ns));
            }
            else
            {
                xn::assign(out, (nx - nm) / ns);
            }
            benchmark::ClobberMemory();
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    }

    void sizes(benchmark::internal::Benchmark* b)
    {
        for (std::int64_t bytes = 128 << 10; bytes <= 16 << 20; bytes *= 2)
        {
            b->Args({bytes, 1})->Args({bytes, 2});
        }
        b->UseRealTime()->Unit(benchmark::kMicrosecond);
    }
} // namespace

BENCHMARK_TEMPLATE(normalize, false)->Apply(sizes);
BENCHMARK_TEMPLATE(normalize, true)->Apply(sizes);
