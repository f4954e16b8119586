/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The kernels' bars: xtensor's `xt::noalias(out) = expr` against `xn::assign(out, named expr)` for the
// broadcasting cases, with a plain copy for the machine's bandwidth and Eigen where it has
// the same operation. Every benchmark is repeated (15 times unless told otherwise) in random
// interleaved order in one process; the table at the end compares medians.
//
//   bench_kernels                                  # the whole table
//   bench_kernels --benchmark_filter=f32           # one size
//   bench_kernels --benchmark_out=r.json --benchmark_out_format=json   # for benchmarks/run_all.py

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

#include "bench_protocol.hpp"

#if __has_include(<Eigen/Core>)
#include <Eigen/Core>
#define XTENSOR_NAMED_BENCH_EIGEN 1
#else
#define XTENSOR_NAMED_BENCH_EIGEN 0
#endif

namespace xn = xt::named;

namespace
{
    /// One row of the bars: a case, and the smallest ratio xtensor / xtensor-named it must reach
    /// at each size (f64 2000x2000, f32 2000x2000, f64 256x256).
    struct bar_case
    {
        const char* name;
        const char* what;
        double bar[3];
    };

    const bar_case cases[] = {
        {"same_shape", "A(M,N) + B(M,N)", {0.95, 0.95, 0.95}},
        {"row", "A(M,N) + v(N)", {0.95, 0.95, 0.95}},
        {"column", "A(M,N) + u(M,1)", {4, 8, 10}},
        {"outer", "u(M,1) + v(N)", {5, 10, 20}},
        {"broadcast_to", "broadcast_to(v(N), (M,N))", {5, 10, 15}},
        {"broadcast_column", "broadcast(u(M), (M,N), {1})", {5, 10, 15}},
        {"sum_to_axis0", "sum_to(G(M,N), (N))", {3, 6, 10}},
    };

    struct size_config
    {
        const char* name;
        std::size_t rows;
        std::size_t columns;
        std::size_t element_size;
    };

    const size_config configs[] = {
        {"f64_2000x2000", 2000, 2000, 8},
        {"f32_2000x2000", 2000, 2000, 4},
        {"f64_256x256", 256, 256, 8},
    };

    /// Bytes a case reads and writes once: what a perfect loop moves through memory.
    double bytes_moved(const std::string& name, std::size_t m, std::size_t n, std::size_t s)
    {
        const double mn = double(m) * double(n) * double(s);
        if (name == "same_shape")
        {
            return 3 * mn;
        }
        if (name == "row")
        {
            return 2 * mn + double(n * s);
        }
        if (name == "column")
        {
            return 2 * mn + double(m * s);
        }
        if (name == "outer")
        {
            return mn + double((m + n) * s);
        }
        if (name == "broadcast_to")
        {
            return mn + double(n * s);
        }
        if (name == "broadcast_column")
        {
            return mn + double(m * s);
        }
        if (name == "sum_to_axis0")
        {
            return mn + double(n * s);
        }
        return 2 * mn; // copy
    }

    template <class T>
    struct operands
    {
        std::size_t m;
        std::size_t n;
        xt::xtensor<T, 2> a;
        xt::xtensor<T, 2> b;
        xt::xtensor<T, 2> u_column;
        xt::xtensor<T, 1> u;
        xt::xtensor<T, 1> v;
        xt::xtensor<T, 2> out;
        xt::xtensor<T, 1> sums;

        operands(std::size_t rows, std::size_t columns)
            : m(rows), n(columns), a(xt::xtensor<T, 2>::from_shape({rows, columns})),
              b(xt::xtensor<T, 2>::from_shape({rows, columns})),
              u_column(xt::xtensor<T, 2>::from_shape({rows, 1})), u(xt::xtensor<T, 1>::from_shape({rows})),
              v(xt::xtensor<T, 1>::from_shape({columns})),
              out(xt::xtensor<T, 2>::from_shape({rows, columns})),
              sums(xt::xtensor<T, 1>::from_shape({columns}))
        {
            std::size_t i = 0;
            for (auto* x : {&a, &b})
            {
                for (auto& e : *x)
                {
                    e = T(1) + T(i++ % 1000) / T(1000);
                }
            }
            for (std::size_t r = 0; r < rows; ++r)
            {
                u(r) = T(r % 7) / T(8);
                u_column(r, 0) = u(r);
            }
            for (std::size_t c = 0; c < columns; ++c)
            {
                v(c) = T(c % 5) / T(4);
            }
            std::fill(out.begin(), out.end(), T(0));
            std::fill(sums.begin(), sums.end(), T(0));
        }
    };

    template <class T>
    operands<T>& operands_for(std::size_t m, std::size_t n)
    {
        static std::map<std::pair<std::size_t, std::size_t>, operands<T>> cache;
        auto it = cache.find({m, n});
        if (it == cache.end())
        {
            it = cache
                     .emplace(std::piecewise_construct, std::forward_as_tuple(m, n),
                              std::forward_as_tuple(m, n))
                     .first;
        }
        return it->second;
    }

    template <class F>
    void run(benchmark::State& state, double bytes, F&& f)
    {
        for (auto _ : state)
        {
            f();
            benchmark::ClobberMemory();
        }
        state.SetBytesProcessed(static_cast<int64_t>(bytes * double(state.iterations())));
    }

    template <class T>
    void bench_xtensor(benchmark::State& state, const std::string& name, std::size_t m, std::size_t n)
    {
        auto& o = operands_for<T>(m, n);
        const double bytes = bytes_moved(name, m, n, sizeof(T));
        const std::array<std::size_t, 2> shape = {m, n};
        if (name == "same_shape")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = o.a + o.b; });
        }
        else if (name == "row")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = o.a + o.v; });
        }
        else if (name == "column")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = o.a + o.u_column; });
        }
        else if (name == "outer")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = o.u_column + o.v; });
        }
        else if (name == "broadcast_to")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = xt::broadcast(o.v, shape); });
        }
        else if (name == "broadcast_column")
        {
            run(state, bytes, [&] { xt::noalias(o.out) = xt::broadcast(o.u_column, shape); });
        }
        else if (name == "sum_to_axis0")
        {
            run(state, bytes, [&] { xt::noalias(o.sums) = xt::sum(o.a, {0}); });
        }
    }

    template <class T>
    void bench_named(benchmark::State& state, const std::string& name, std::size_t m, std::size_t n)
    {
        auto& o = operands_for<T>(m, n);
        const double bytes = bytes_moved(name, m, n, sizeof(T));
        const auto a = xn::name(o.a, {"i", "j"});
        const auto b = xn::name(o.b, {"i", "j"});
        const auto u = xn::name(o.u, {"i"});
        const auto v = xn::name(o.v, {"j"});
        const auto rows = static_cast<std::int64_t>(m);
        const auto columns = static_cast<std::int64_t>(n);
        if (name == "same_shape")
        {
            run(state, bytes, [&] { xn::assign(o.out, a + b); });
        }
        else if (name == "row")
        {
            run(state, bytes, [&] { xn::assign(o.out, a + v); });
        }
        else if (name == "column")
        {
            run(state, bytes, [&] { xn::assign(o.out, a + u); });
        }
        else if (name == "outer")
        {
            run(state, bytes, [&] { xn::assign(o.out, u + v); });
        }
        else if (name == "broadcast_to")
        {
            run(state, bytes, [&] { xn::assign(o.out, xn::broadcast_to(o.v, {rows, columns})); });
        }
        else if (name == "broadcast_column")
        {
            run(state, bytes, [&] { xn::assign(o.out, xn::broadcast(o.u, {rows, columns}, {1})); });
        }
        else if (name == "sum_to_axis0")
        {
            run(state, bytes, [&] { xn::assign(o.sums, xn::sum_to(o.a, {columns})); });
        }
    }

#if XTENSOR_NAMED_BENCH_EIGEN
    template <class T>
    void bench_eigen(benchmark::State& state, const std::string& name, std::size_t m, std::size_t n)
    {
        using matrix = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        using column = Eigen::Array<T, Eigen::Dynamic, 1>;
        using row = Eigen::Array<T, 1, Eigen::Dynamic>;
        auto& o = operands_for<T>(m, n);
        const auto em = static_cast<Eigen::Index>(m);
        const auto en = static_cast<Eigen::Index>(n);
        const Eigen::Map<const matrix> a(o.a.data(), em, en);
        const Eigen::Map<const matrix> b(o.b.data(), em, en);
        const Eigen::Map<const column> u(o.u.data(), em);
        const Eigen::Map<const row> v(o.v.data(), en);
        Eigen::Map<matrix> out(o.out.data(), em, en);
        Eigen::Map<row> sums(o.sums.data(), en);
        const double bytes = bytes_moved(name, m, n, sizeof(T));
        if (name == "same_shape")
        {
            run(state, bytes, [&] { out = a + b; });
        }
        else if (name == "row")
        {
            run(state, bytes, [&] { out = a.rowwise() + v; });
        }
        else if (name == "column")
        {
            run(state, bytes, [&] { out = a.colwise() + u; });
        }
        else if (name == "outer")
        {
            run(state, bytes, [&] { out = u.replicate(1, en) + v.replicate(em, 1); });
        }
        else if (name == "broadcast_to")
        {
            run(state, bytes, [&] { out = v.replicate(em, 1); });
        }
        else if (name == "broadcast_column")
        {
            run(state, bytes, [&] { out = u.replicate(1, en); });
        }
        else if (name == "sum_to_axis0")
        {
            run(state, bytes, [&] { sums = a.colwise().sum(); });
        }
    }
#endif

    template <class T>
    void bench_copy(benchmark::State& state, std::size_t m, std::size_t n)
    {
        auto& o = operands_for<T>(m, n);
        run(state, bytes_moved("copy", m, n, sizeof(T)),
            [&] { std::memcpy(o.out.data(), o.a.data(), m * n * sizeof(T)); });
    }

    /**
     * The least work a materialised broadcast can do: write every element of the output once, from one
     * splatted register, with ordinary stores or with streaming stores (where the target has them). The
     * faster of the two is the floor of the cases that mostly write (outer, broadcast_to,
     * broadcast_column): xtensor's time over it is the largest ratio any loop can reach on this machine.
     */
    template <class T, bool Streaming>
    void bench_store(benchmark::State& state, std::size_t m, std::size_t n)
    {
        using traits = xn::detail::simd::batch_traits<T>;
        constexpr std::size_t lanes = xn::detail::simd::batch_size<T>;
        auto& o = operands_for<T>(m, n);
        T* out = o.out.data();
        const std::size_t count = m * n;
        const auto value = traits::splat(T(1));
        run(state, bytes_moved("broadcast_to", m, n, sizeof(T)),
            [&]
            {
                std::size_t i = 0;
                for (; i + lanes <= count; i += lanes)
                {
                    // A compile-time choice: no test in the loop that times the floor.
                    if constexpr (Streaming)
                    {
                        traits::stream(out + i, value);
                    }
                    else
                    {
                        traits::store(out + i, value);
                    }
                }
                for (; i < count; ++i)
                {
                    out[i] = T(1);
                }
                if constexpr (Streaming)
                {
                    xn::detail::simd::stream_fence();
                }
            });
    }

    /// Whether a case's cost is writing its output: its floor is then the store loop's time.
    bool writes_mostly(const std::string& name)
    {
        return name == "outer" || name == "broadcast_to" || name == "broadcast_column";
    }

    template <class T>
    void register_config(const size_config& config)
    {
        const std::size_t m = config.rows;
        const std::size_t n = config.columns;
        const std::string prefix = config.name;
        for (const auto& c : cases)
        {
            const std::string name = c.name;
            benchmark::RegisterBenchmark((prefix + "/" + name + "/xtensor").c_str(),
                                         [=](benchmark::State& state)
                                         { bench_xtensor<T>(state, name, m, n); });
            benchmark::RegisterBenchmark((prefix + "/" + name + "/xtensor-named").c_str(),
                                         [=](benchmark::State& state) { bench_named<T>(state, name, m, n); });
#if XTENSOR_NAMED_BENCH_EIGEN
            benchmark::RegisterBenchmark((prefix + "/" + name + "/eigen").c_str(),
                                         [=](benchmark::State& state) { bench_eigen<T>(state, name, m, n); });
#endif
        }
        benchmark::RegisterBenchmark((prefix + "/copy/memcpy").c_str(),
                                     [=](benchmark::State& state) { bench_copy<T>(state, m, n); });
        benchmark::RegisterBenchmark((prefix + "/store/ordinary").c_str(),
                                     [=](benchmark::State& state) { bench_store<T, false>(state, m, n); });
        benchmark::RegisterBenchmark((prefix + "/store/streaming").c_str(),
                                     [=](benchmark::State& state) { bench_store<T, true>(state, m, n); });
    }

    /// The faster of the two store loops of a configuration, 0 if neither ran.
    double store_floor(const xtensor_named_bench::median_reporter& reporter, const std::string& config)
    {
        const double ordinary = reporter.time(config + "/store/ordinary");
        const double streaming = reporter.time(config + "/store/streaming");
        if (ordinary <= 0 || streaming <= 0)
        {
            return std::max(ordinary, streaming);
        }
        return std::min(ordinary, streaming);
    }

    std::string format_ratio(double ratio)
    {
        char text[32];
        std::snprintf(text, sizeof(text), "%.2f", ratio);
        return text;
    }

    void print_table(const xtensor_named_bench::median_reporter& reporter)
    {
        std::printf("\nRatios of median CPU times, xtensor / xtensor-named (bar in brackets); "
                    "bw: share of the copy-bandwidth bound that xtensor-named reaches\n");
        std::printf("%-18s", "case");
        for (const auto& config : configs)
        {
            std::printf(" | %-30s", config.name);
        }
        std::printf("\n");
        bool all_met = true;
        bool any = false;
        std::vector<std::string> ceilings;
        for (const auto& c : cases)
        {
            std::printf("%-18s", c.name);
            for (std::size_t k = 0; k < 3; ++k)
            {
                const auto& config = configs[k];
                const std::string prefix = std::string(config.name) + "/" + c.name + "/";
                const double t_xtensor = reporter.time(prefix + "xtensor");
                const double t_named = reporter.time(prefix + "xtensor-named");
                const double t_copy = reporter.time(std::string(config.name) + "/copy/memcpy");
                if (t_xtensor <= 0 || t_named <= 0)
                {
                    std::printf(" | %-30s", "-");
                    continue;
                }
                any = true;
                const double ratio = t_xtensor / t_named;
                const bool met = ratio >= c.bar[k];
                all_met = all_met && met;
                char cell[64];
                if (t_copy > 0)
                {
                    const double bytes =
                        bytes_moved(c.name, config.rows, config.columns, config.element_size);
                    const double copy_bytes =
                        bytes_moved("copy", config.rows, config.columns, config.element_size);
                    const double share = (bytes / copy_bytes * t_copy) / t_named;
                    std::snprintf(cell, sizeof(cell), "%7.2f [%5.2f] %-4s bw %4.2f", ratio, c.bar[k],
                                  met ? "ok" : "LOW", share);
                    const double t_store = store_floor(reporter, config.name);
                    if (writes_mostly(c.name) && t_store > 0)
                    {
                        ceilings.push_back(std::string(c.name) + " " + config.name + ": " +
                                           format_ratio(t_xtensor / t_store));
                    }
                }
                else
                {
                    std::snprintf(cell, sizeof(cell), "%7.2f [%5.2f] %-4s", ratio, c.bar[k],
                                  met ? "ok" : "LOW");
                }
                std::printf(" | %-30s", cell);
            }
            std::printf("\n");
        }
        if (any)
        {
            std::printf("%s\n", all_met ? "Every ratio meets its bar." : "Some ratios are below their bar.");
        }
        if (!ceilings.empty())
        {
            std::printf("Ceiling (xtensor / the faster store loop that only writes the output):");
            for (const auto& c : ceilings)
            {
                std::printf("\n  %s", c.c_str());
            }
            std::printf("\n");
        }
    }
} // namespace

int main(int argc, char** argv)
{
    std::printf("xtensor-named kernels: SIMD architecture %s (xsimd %d.%d.%d), xtensor %d.%d.%d, streaming "
                "stores from %zu bytes\n",
                xn::detail::simd::arch_name(), XSIMD_VERSION_MAJOR, XSIMD_VERSION_MINOR, XSIMD_VERSION_PATCH,
                XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR, XTENSOR_VERSION_PATCH,
                xn::detail::streaming_min_bytes());
#if !XTENSOR_NAMED_BENCH_EIGEN
    std::printf("Eigen not found: no Eigen column\n");
#endif
    // The protocol unless the command line says otherwise: 15 repetitions in random interleaved
    // order, medians reported.
    if (!xtensor_named_bench::initialize(argc, argv, 15))
    {
        return 1;
    }
    register_config<double>(configs[0]);
    register_config<float>(configs[1]);
    register_config<double>(configs[2]);
    xtensor_named_bench::median_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    print_table(reporter);
    benchmark::Shutdown();
    return 0;
}
