/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// What building a named operation costs before any element is read: `a(i, j) + v(j)`, built, its
// shape read, and dropped, no evaluation.
//   xtensor     the same broadcast spelled in xtensor (`a + v`; its shape is computed when read), the floor
//   named_seen  operands of dims and shapes seen before: the plan from the thread's plan cache
//   named_new   operands of new shapes at every call (nine pairs in turn, one more than the cache keeps):
//               the strategy asked, its plan made
// What these allocate is counted in tests/test_allocations.cpp.

#include <array>
#include <cstddef>
#include <vector>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    constexpr std::size_t pairs = 9;

    struct operands
    {
        std::array<xt::xtensor<double, 2>, pairs> grids;
        std::array<xt::xtensor<double, 1>, pairs> rows;

        operands()
        {
            for (std::size_t k = 0; k < pairs; ++k)
            {
                grids[k] = xt::ones<double>({std::size_t(4), 5 + k});
                rows[k] = xt::ones<double>({5 + k});
            }
        }
    };

    void xtensor(benchmark::State& state)
    {
        const operands x;
        for (auto _ : state)
        {
            // The operands' shapes are read anew at every call, as they would be after any change.
            benchmark::ClobberMemory();
            auto e = x.grids[0] + x.rows[0];
            benchmark::DoNotOptimize(e.shape()[1]);
        }
    }

    void named_seen(benchmark::State& state)
    {
        const operands x;
        const auto a = xn::name(x.grids[0], {"i", "j"});
        const auto v = xn::name(x.rows[0], {"j"});
        for (auto _ : state)
        {
            // The operands' shapes are read anew at every call, as they would be after any change.
            benchmark::ClobberMemory();
            auto e = a + v;
            benchmark::DoNotOptimize(e.shape()[1]);
        }
    }

    void named_new(benchmark::State& state)
    {
        const operands x;
        using grid_type = decltype(xn::name(x.grids[0], {"i", "j"}));
        using row_type = decltype(xn::name(x.rows[0], {"j"}));
        std::vector<grid_type> a;
        std::vector<row_type> v;
        for (std::size_t k = 0; k < pairs; ++k)
        {
            a.push_back(xn::name(x.grids[k], {"i", "j"}));
            v.push_back(xn::name(x.rows[k], {"j"}));
        }
        std::size_t k = 0;
        for (auto _ : state)
        {
            // The operands' shapes are read anew at every call, as they would be after any change.
            benchmark::ClobberMemory();
            auto e = a[k] + v[k];
            benchmark::DoNotOptimize(e.shape()[1]);
            k = k + 1 == pairs ? 0 : k + 1;
        }
    }
} // namespace

BENCHMARK(xtensor);
BENCHMARK(named_seen);
BENCHMARK(named_new);
