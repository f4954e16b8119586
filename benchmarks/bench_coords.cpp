/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// What labels cost an elementwise sum: building `a + b` and assigning it into an
// existing array, for a 1-d series of n stamps and an (n, 64) table labelled along its first axis.
//   unlabelled          the reference: named operands, no labels
//   equal_exact         equal labels under xn::join_exact (the default), two lists compared label by
//                       label; nothing gathered
//   equal_union_shared  equal labels under xn::join_outer, both operands sharing one label list
//   equal_union_copies  equal labels under xn::join_outer, two equal lists compared label by label
//   shifted_union       labels shifted by one under xn::join_outer: both operands gathered and filled
// The first four should run as fast as each other; the last pays the gather.

#include <cstddef>
#include <cstdint>
#include <functional>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    using union_dims = xn::with_shaping<xn::missing_dims, xn::join_outer>;

    xn::labels stamps(std::size_t n, std::int64_t first)
    {
        xn::labels out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            out.emplace_back(first + static_cast<std::int64_t>(i));
        }
        return out;
    }

    enum class labelling
    {
        unlabelled,
        equal_exact,
        equal_union_shared,
        equal_union_copies,
        shifted_union
    };

    template <labelling L>
    void sum_of_two(benchmark::State& state, std::size_t columns)
    {
        const auto n = static_cast<std::size_t>(state.range(0));
        const auto shape = columns == 1 ? std::vector<std::size_t>{n} : std::vector<std::size_t>{n, columns};
        const xn::dims names = columns == 1 ? xn::dims{"t"} : xn::dims{"t", "channel"};
        const xt::xarray<double> x(shape, 1.);
        const xt::xarray<double> y(shape, 2.);
        xt::xarray<double> out(shape, 0.);
        const xn::coords labels_a{{"t", stamps(n, 0)}};
        const bool copies = L == labelling::equal_exact || L == labelling::equal_union_copies;
        const xn::coords labels_b = L == labelling::shifted_union ? xn::coords{{"t", stamps(n, 1)}}
                                    : copies                      ? xn::coords{{"t", stamps(n, 0)}}
                                                                  : labels_a;
        for (auto _ : state)
        {
            if constexpr (L == labelling::unlabelled)
            {
                xn::assign(out, xn::name(x, names) + xn::name(y, names));
            }
            else if constexpr (L == labelling::equal_exact)
            {
                xn::assign(out, xn::name(x, names, labels_a) + xn::name(y, names, labels_b));
            }
            else if constexpr (L == labelling::shifted_union)
            {
                // The union has one stamp more than each operand.
                auto sum =
                    xn::name<union_dims>(x, names, labels_a) + xn::name<union_dims>(y, names, labels_b);
                benchmark::DoNotOptimize(xn::eval(sum));
            }
            else
            {
                xn::assign(out, xn::name<union_dims>(x, names, labels_a) +
                                    xn::name<union_dims>(y, names, labels_b));
            }
            benchmark::ClobberMemory();
        }
        state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * x.size()));
    }

    template <labelling L>
    void series(benchmark::State& state)
    {
        sum_of_two<L>(state, 1);
    }

    template <labelling L>
    void table(benchmark::State& state)
    {
        sum_of_two<L>(state, 64);
    }
} // namespace

BENCHMARK_TEMPLATE(series, labelling::unlabelled)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK_TEMPLATE(series, labelling::equal_exact)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK_TEMPLATE(series, labelling::equal_union_shared)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK_TEMPLATE(series, labelling::equal_union_copies)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK_TEMPLATE(series, labelling::shifted_union)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);

BENCHMARK_TEMPLATE(table, labelling::unlabelled)->Arg(1 << 8)->Arg(1 << 12);
BENCHMARK_TEMPLATE(table, labelling::equal_exact)->Arg(1 << 8)->Arg(1 << 12);
BENCHMARK_TEMPLATE(table, labelling::equal_union_shared)->Arg(1 << 8)->Arg(1 << 12);
BENCHMARK_TEMPLATE(table, labelling::equal_union_copies)->Arg(1 << 8)->Arg(1 << 12);
BENCHMARK_TEMPLATE(table, labelling::shifted_union)->Arg(1 << 8)->Arg(1 << 12);
