/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// What one named operation costs on small arrays, where the fixed cost decides: `a` (m, n) double named
// (i, j), `r` (n) named (j), `k` (m) named (i), against the same work spelled in plain xtensor.
//   name3          xn::name of a, r and k
//   build_sub      building `na - nr`, no evaluation (the plan from the thread's plan cache)
//   build_chain    building `(na - nr) * nk`
//   build_views    building the xtensor tree that `(na - nr) * nk` holds (three leaf views made as the
//                  named layer makes them, detail::make_leaf_view, with the plan's shapes and strides written
//                  in; two functions), with no names or plan: what a named result that holds its tree costs
//                  at least
//   assign_built   xn::assign of the built `(na - nr) * nk`      / xt::noalias(o) = (a - r) * k[:, newaxis]
//   chain          building and assigning `(na - nr) * nk`      / the same, built each time
//   exp            xn::assign(o, xn::exp(na))                   / xt::noalias(o) = xt::exp(a)
//   transposed     xn::assign(ot, na - nr), ot (n, m) named (j, i) / xt::noalias(ot) = xt::transpose(a - r)
//   sum            xn::eval(xn::sum(na, "j"))                   / xt::eval(xt::sum(a, {1}))
//   sum_transposed xn::assign(ot, xn::sum(na3, "k")), a3 (m, n, 4) named (i, j, k), ot named (j, i)
//                                                                / xt::noalias(ot) = transpose(sum(a3, {2}))
//   crossover_*    one evaluation of a built xtensor expression by the kernels and by xtensor's assignment,
//                  on (side, side) grids of 16 to 1,024 elements: where the short path ends
// Each at (4, 3) and, for chain, exp, transposed, sum and sum_transposed, at 1, 12, 100, 1,000 and 10,000
// elements (the second argument), so that the size where the fixed cost stops deciding shows. bench_small.py
// times numpy and PyTorch on the same shapes.
//   bench_small --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true
//               --benchmark_report_aggregates_only=true          (one command line)

#include <array>
#include <cstddef>
#include <utility>

#include <benchmark/benchmark.h>

#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    /// (rows, columns) of each size the cases take, by its element count.
    std::array<std::size_t, 2> shape_of(long elements)
    {
        switch (elements)
        {
            case 1:
                return {1, 1};
            case 12:
                return {4, 3};
            case 100:
                return {10, 10};
            case 1000:
                return {40, 25};
            default:
                return {100, 100};
        }
    }

    struct operands
    {
        xt::xtensor<double, 2> a;
        xt::xtensor<double, 1> r;
        xt::xtensor<double, 1> k;
        xt::xtensor<double, 2> o;
        xt::xtensor<double, 2> ot;
        /// (m, n, 4): summed over its last axis into ot.
        xt::xtensor<double, 3> a3;

        explicit operands(long elements)
        {
            const auto [m, n] = shape_of(elements);
            a = xt::xtensor<double, 2>::from_shape({m, n});
            r = xt::xtensor<double, 1>::from_shape({n});
            k = xt::xtensor<double, 1>::from_shape({m});
            o = xt::xtensor<double, 2>::from_shape({m, n});
            ot = xt::xtensor<double, 2>::from_shape({n, m});
            a3 = xt::xtensor<double, 3>::from_shape({m, n, std::size_t(4)});
            for (std::size_t e = 0; e < a3.size(); ++e)
            {
                a3.flat(e) = 0.5 + static_cast<double>(e % 5);
            }
            for (std::size_t e = 0; e < a.size(); ++e)
            {
                a.flat(e) = 0.5 + static_cast<double>(e % 7);
            }
            for (std::size_t e = 0; e < n; ++e)
            {
                r(e) = 0.25 * static_cast<double>(e);
            }
            for (std::size_t e = 0; e < m; ++e)
            {
                k(e) = 1.0 + 0.125 * static_cast<double>(e);
            }
        }
    };

    void name3_named(benchmark::State& state)
    {
        operands x(12);
        for (auto _ : state)
        {
            auto na = xn::name(x.a, {"i", "j"});
            auto nr = xn::name(x.r, {"j"});
            auto nk = xn::name(x.k, {"i"});
            benchmark::DoNotOptimize(na);
            benchmark::DoNotOptimize(nr);
            benchmark::DoNotOptimize(nk);
        }
    }

    void build_sub_named(benchmark::State& state)
    {
        operands x(12);
        const auto na = xn::name(x.a, {"i", "j"});
        const auto nr = xn::name(x.r, {"j"});
        for (auto _ : state)
        {
            benchmark::ClobberMemory();
            auto e = na - nr;
            benchmark::DoNotOptimize(e.shape()[1]);
        }
    }

    void build_chain_named(benchmark::State& state)
    {
        operands x(12);
        const auto na = xn::name(x.a, {"i", "j"});
        const auto nr = xn::name(x.r, {"j"});
        const auto nk = xn::name(x.k, {"i"});
        for (auto _ : state)
        {
            benchmark::ClobberMemory();
            auto e = (na - nr) * nk;
            benchmark::DoNotOptimize(e.shape()[1]);
        }
    }

    void build_views(benchmark::State& state)
    {
        using xn::detail::make_leaf_view;
        const operands x(12);
        const std::size_t m = x.a.shape()[0];
        const std::size_t n = x.a.shape()[1];
        const auto columns = static_cast<std::ptrdiff_t>(n);
        constexpr auto layout = xt::layout_type::dynamic;
        for (auto _ : state)
        {
            benchmark::ClobberMemory();
            auto difference = make_leaf_view(x.a, {{m, n}, {columns, 1}, 0, layout}) -
                              make_leaf_view(x.r, {{1, n}, {0, 1}, 0, layout});
            auto e = std::move(difference) * make_leaf_view(x.k, {{m, 1}, {1, 0}, 0, layout});
            benchmark::DoNotOptimize(e.shape()[1]);
        }
    }

    void assign_built_named(benchmark::State& state)
    {
        operands x(12);
        const auto na = xn::name(x.a, {"i", "j"});
        const auto nr = xn::name(x.r, {"j"});
        const auto nk = xn::name(x.k, {"i"});
        const auto e = (na - nr) * nk;
        auto no = xn::name(x.o, {"i", "j"});
        for (auto _ : state)
        {
            xn::assign(no, e);
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void assign_built_xtensor(benchmark::State& state)
    {
        operands x(12);
        const auto e = (x.a - x.r) * xt::view(x.k, xt::all(), xt::newaxis());
        for (auto _ : state)
        {
            xt::noalias(x.o) = e;
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void chain_named(benchmark::State& state)
    {
        operands x(state.range(0));
        const auto na = xn::name(x.a, {"i", "j"});
        const auto nr = xn::name(x.r, {"j"});
        const auto nk = xn::name(x.k, {"i"});
        auto no = xn::name(x.o, {"i", "j"});
        for (auto _ : state)
        {
            xn::assign(no, (na - nr) * nk);
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void chain_xtensor(benchmark::State& state)
    {
        operands x(state.range(0));
        for (auto _ : state)
        {
            xt::noalias(x.o) = (x.a - x.r) * xt::view(x.k, xt::all(), xt::newaxis());
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void exp_named(benchmark::State& state)
    {
        operands x(state.range(0));
        const auto na = xn::name(x.a, {"i", "j"});
        auto no = xn::name(x.o, {"i", "j"});
        for (auto _ : state)
        {
            xn::assign(no, xn::exp(na));
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void exp_xtensor(benchmark::State& state)
    {
        operands x(state.range(0));
        for (auto _ : state)
        {
            xt::noalias(x.o) = xt::exp(x.a);
            benchmark::DoNotOptimize(x.o.data());
            benchmark::ClobberMemory();
        }
    }

    void transposed_named(benchmark::State& state)
    {
        operands x(state.range(0));
        const auto na = xn::name(x.a, {"i", "j"});
        const auto nr = xn::name(x.r, {"j"});
        auto named_ot = xn::name(x.ot, {"j", "i"});
        for (auto _ : state)
        {
            xn::assign(named_ot, na - nr);
            benchmark::DoNotOptimize(x.ot.data());
            benchmark::ClobberMemory();
        }
    }

    void transposed_xtensor(benchmark::State& state)
    {
        operands x(state.range(0));
        for (auto _ : state)
        {
            xt::noalias(x.ot) = xt::transpose(x.a - x.r);
            benchmark::DoNotOptimize(x.ot.data());
            benchmark::ClobberMemory();
        }
    }

    void sum_named(benchmark::State& state)
    {
        operands x(state.range(0));
        const auto na = xn::name(x.a, {"i", "j"});
        for (auto _ : state)
        {
            auto s = xn::eval(xn::sum(na, "j"));
            benchmark::DoNotOptimize(s);
            benchmark::ClobberMemory();
        }
    }

    void sum_xtensor(benchmark::State& state)
    {
        operands x(state.range(0));
        for (auto _ : state)
        {
            xt::xtensor<double, 1> s = xt::sum(x.a, {1});
            benchmark::DoNotOptimize(s.data());
            benchmark::ClobberMemory();
        }
    }

    void sum_transposed_named(benchmark::State& state)
    {
        operands x(state.range(0));
        const auto na3 = xn::name(x.a3, {"i", "j", "k"});
        auto named_ot = xn::name(x.ot, {"j", "i"});
        for (auto _ : state)
        {
            xn::assign(named_ot, xn::sum(na3, "k"));
            benchmark::DoNotOptimize(x.ot.data());
            benchmark::ClobberMemory();
        }
    }

    void sum_transposed_xtensor(benchmark::State& state)
    {
        operands x(state.range(0));
        for (auto _ : state)
        {
            xt::noalias(x.ot) = xt::transpose(xt::sum(x.a3, {2}));
            benchmark::DoNotOptimize(x.ot.data());
            benchmark::ClobberMemory();
        }
    }

    /// The kernels against xtensor's assignment on one evaluation of a built expression, a square
    /// (side, side) grid: where the short path's sizes (detail/kernels/xshort_path.hpp) come from.
    template <class Make>
    void crossover(benchmark::State& state, bool kernels, Make make)
    {
        const auto side = static_cast<std::size_t>(state.range(0));
        xt::xtensor<double, 2> a = xt::xtensor<double, 2>::from_shape({side, side});
        for (std::size_t e = 0; e < a.size(); ++e)
        {
            a.flat(e) = 0.5 + static_cast<double>(e % 7);
        }
        xt::xtensor<double, 1> r = xt::view(a, 0, xt::all());
        xt::xtensor<double, 1> k = xt::view(a, xt::all(), 1);
        const auto e = make(a, r, k);
        auto out = xt::eval(e);
        for (auto _ : state)
        {
            if (kernels)
            {
                xn::detail::try_kernel_assign(out, e);
            }
            else
            {
                xt::noalias(out) = e;
            }
            benchmark::DoNotOptimize(out.data());
            benchmark::ClobberMemory();
        }
    }

    /// Each crossover case, by the kernels and by xtensor's assignment; a case reads what it names.
#define XTENSOR_NAMED_CROSSOVER(NAME, ...)                                                                   \
    const auto NAME##_make = [](const auto& a, const auto& r, const auto& k)                                 \
    {                                                                                                        \
        static_cast<void>(a);                                                                                \
        static_cast<void>(r);                                                                                \
        static_cast<void>(k);                                                                                \
        return __VA_ARGS__;                                                                                  \
    };                                                                                                       \
    void NAME##_kernels(benchmark::State& state)                                                             \
    {                                                                                                        \
        crossover(state, true, NAME##_make);                                                                 \
    }                                                                                                        \
    void NAME##_xtensor(benchmark::State& state)                                                             \
    {                                                                                                        \
        crossover(state, false, NAME##_make);                                                                \
    }

    // Steppers: xtensor's slowest loop, a broadcast operand.
    XTENSOR_NAMED_CROSSOVER(crossover_chain, (a - r) * xt::view(k, xt::all(), xt::newaxis()))
    // xtensor's SIMD loop over contiguous elements.
    XTENSOR_NAMED_CROSSOVER(crossover_add, a + a * 0.5)
    XTENSOR_NAMED_CROSSOVER(crossover_sum_inner, xt::sum(a, {1}))
    XTENSOR_NAMED_CROSSOVER(crossover_sum_outer, xt::sum(a, {0}))
    XTENSOR_NAMED_CROSSOVER(crossover_sum_chain,
                            xt::sum((a - r) * xt::view(k, xt::all(), xt::newaxis()), {1}))
#undef XTENSOR_NAMED_CROSSOVER

    void sides(benchmark::internal::Benchmark* b)
    {
        for (const long side : {4, 6, 8, 11, 16, 32})
        {
            b->Arg(side);
        }
    }

    void sizes(benchmark::internal::Benchmark* b)
    {
        for (const long elements : {1, 12, 100, 1000, 10000})
        {
            b->Arg(elements);
        }
    }
} // namespace

BENCHMARK(name3_named);
BENCHMARK(build_sub_named);
BENCHMARK(build_chain_named);
BENCHMARK(build_views);
BENCHMARK(assign_built_named);
BENCHMARK(assign_built_xtensor);
BENCHMARK(chain_named)->Apply(sizes);
BENCHMARK(chain_xtensor)->Apply(sizes);
BENCHMARK(exp_named)->Apply(sizes);
BENCHMARK(exp_xtensor)->Apply(sizes);
BENCHMARK(transposed_named)->Apply(sizes);
BENCHMARK(transposed_xtensor)->Apply(sizes);
BENCHMARK(sum_named)->Apply(sizes);
BENCHMARK(sum_xtensor)->Apply(sizes);
BENCHMARK(sum_transposed_named)->Apply(sizes);
BENCHMARK(sum_transposed_xtensor)->Apply(sizes);
BENCHMARK(crossover_chain_kernels)->Apply(sides);
BENCHMARK(crossover_chain_xtensor)->Apply(sides);
BENCHMARK(crossover_add_kernels)->Apply(sides);
BENCHMARK(crossover_add_xtensor)->Apply(sides);
BENCHMARK(crossover_sum_inner_kernels)->Apply(sides);
BENCHMARK(crossover_sum_inner_xtensor)->Apply(sides);
BENCHMARK(crossover_sum_outer_kernels)->Apply(sides);
BENCHMARK(crossover_sum_outer_xtensor)->Apply(sides);
BENCHMARK(crossover_sum_chain_kernels)->Apply(sides);
BENCHMARK(crossover_sum_chain_xtensor)->Apply(sides);
