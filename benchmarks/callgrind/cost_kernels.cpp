/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// One case of benchmarks/bench_kernels.cpp or a compound expression on a small square size, for the
// instruction count under `valgrind --tool=callgrind` (check_costs.cmake): `cost_kernels column_f64 128`
// evaluates the case once to warm up, then once more inside xn_cost_measured, the one function callgrind
// counts. The check counts two sizes and divides the difference by the difference in elements: the cost per
// element, without the fixed cost of a call. A regression of xn::assign to xtensor's stepper loop multiplies
// it by ten or more.

#include <cstdio>
#include <cstdlib>
#include <string>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    std::size_t rows = 128;
    std::size_t columns = 128;

    template <class T>
    struct operands
    {
        xt::xtensor<T, 2> a = xt::xtensor<T, 2>::from_shape({rows, columns});
        xt::xtensor<T, 2> b = xt::xtensor<T, 2>::from_shape({rows, columns});
        xt::xtensor<T, 1> u = xt::xtensor<T, 1>::from_shape({rows});
        xt::xtensor<T, 1> v = xt::xtensor<T, 1>::from_shape({columns});
        xt::xtensor<T, 2> out = xt::xtensor<T, 2>::from_shape({rows, columns});
        xt::xtensor<T, 1> sums = xt::xtensor<T, 1>::from_shape({columns});
        xt::xtensor<T, 1> row_results = xt::xtensor<T, 1>::from_shape({rows});

        operands()
        {
            std::size_t i = 0;
            for (auto* x : {&a, &b, &out})
            {
                for (auto& e : *x)
                {
                    e = T(1) + T(i++ % 1000) / T(1000);
                }
            }
            for (std::size_t r = 0; r < rows; ++r)
            {
                u(r) = T(r % 7) / T(8);
            }
            for (std::size_t c = 0; c < columns; ++c)
            {
                v(c) = T(c % 5) / T(4);
                sums(c) = T(0);
            }
        }
    };

    /// Evaluates case `name` once through xn::assign; false for an unknown name.
    template <class T>
    bool run_case(const std::string& name, operands<T>& o)
    {
        const auto a = xn::name(o.a, {"i", "j"});
        const auto b = xn::name(o.b, {"i", "j"});
        const auto u = xn::name(o.u, {"i"});
        const auto v = xn::name(o.v, {"j"});
        const auto m = static_cast<std::int64_t>(rows);
        const auto n = static_cast<std::int64_t>(columns);
        if (name == "same_shape")
        {
            xn::assign(o.out, a + b);
        }
        else if (name == "row")
        {
            xn::assign(o.out, a + v);
        }
        else if (name == "column")
        {
            xn::assign(o.out, a + u);
        }
        else if (name == "outer")
        {
            xn::assign(o.out, u + v);
        }
        else if (name == "broadcast_to")
        {
            xn::assign(o.out, xn::broadcast_to(o.v, {m, n}));
        }
        else if (name == "broadcast_column")
        {
            xn::assign(o.out, xn::broadcast(o.u, {m, n}, {1}));
        }
        else if (name == "sum_to_axis0")
        {
            xn::assign(o.sums, xn::sum_to(o.a, {n}));
        }
        // Compound expressions: several operations, math functions, reductions by name.
        else if (name == "normalize")
        {
            xn::assign(o.out, (a - u) / (v + T(1)) * b);
        }
        else if (name == "chain3")
        {
            xn::assign(o.out, (a + b) * a - b);
        }
        else if (name == "masked")
        {
            xn::assign(o.out, xn::where(a > u, (a - u) / (v + T(1)), T(0)));
        }
        else if (name == "exp_chain")
        {
            xn::assign(o.out, xn::exp(a - v) * b + u);
        }
        else if (name == "mean_rows")
        {
            xn::assign(o.sums, xn::mean(a, {"i"}));
        }
        else if (name == "nanmax_columns")
        {
            xn::assign(o.row_results, xn::nanmax(a, {"j"}));
        }
        else if (name == "softmax")
        {
            const auto e = xn::exp(a - xn::amax(a, {"j"}));
            xn::assign(o.out, e / xn::sum(e, {"j"}));
        }
        else
        {
            return false;
        }
        return true;
    }

    bool (*measured_case)(const std::string&, void*) = nullptr;
} // namespace

// The function callgrind counts (--toggle-collect=xn_cost_measured): C linkage for a plain name.
extern "C" __attribute__((noinline)) bool xn_cost_measured(const std::string* name, void* data)
{
    return measured_case(*name, data);
}

template <class T>
int run(const std::string& name)
{
    operands<T> o;
    measured_case = [](const std::string& n, void* data)
    { return run_case(n, *static_cast<operands<T>*>(data)); };
    if (!run_case(name, o))
    {
        std::fprintf(stderr, "cost_kernels: unknown case %s\n", name.c_str());
        return 2;
    }
    xn_cost_measured(&name, &o);
    // Every case reads or writes rows x columns elements: the cost is per element of the input.
    const std::size_t elements = rows * columns;
    std::printf("case %s elements %zu architecture %s\n", name.c_str(), elements,
                xn::detail::simd::arch_name());
    return 0;
}

int main(int argc, char** argv)
{
    if (argc != 3)
    {
        std::fprintf(stderr, "usage: cost_kernels <case>_<f64|f32> <size>, e.g. column_f64 128\n");
        return 2;
    }
    rows = std::strtoul(argv[2], nullptr, 10);
    columns = rows;
    const std::string full = argv[1];
    const auto cut = full.rfind('_');
    const std::string type = cut == std::string::npos ? "" : full.substr(cut + 1);
    const std::string name = cut == std::string::npos ? full : full.substr(0, cut);
    if (type == "f64")
    {
        return run<double>(name);
    }
    if (type == "f32")
    {
        return run<float>(name);
    }
    std::fprintf(stderr, "cost_kernels: the case must end in _f64 or _f32: %s\n", full.c_str());
    return 2;
}
