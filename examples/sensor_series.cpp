/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Two sensors sampled on different time stamps: the time axis carries the stamps as labels, and a
// shaping strategy decides which stamps a sum keeps. Every step prints one line; the program
// fails if a result is not the one written next to it.

#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <variant>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    /// `t=10: 40.8, t=20: 41.5` for a named expression of one labelled axis.
    template <class E>
    std::string series(const E& e)
    {
        const std::string& axis = e.dims()[0];
        const auto& stamps = e.coords().at(axis);
        const xt::xarray<double> values = e.expression();
        std::ostringstream out;
        for (std::size_t i = 0; i < stamps.size(); ++i)
        {
            out << (i == 0 ? "" : ", ") << axis << "=" << std::get<std::int64_t>(stamps[i]) << ": "
                << values(i);
        }
        return out.str();
    }

    bool check(bool ok, const char* what)
    {
        if (!ok)
        {
            std::cout << "unexpected: " << what << "\n";
        }
        return ok;
    }
} // namespace

int main()
{
    // Sensor a measured at t = 0, 10, 20, 30; sensor b at t = 10, 20, 30, 40.
    const xt::xarray<double> a_values = {20.5, 21.0, 21.4, 21.9};
    const xt::xarray<double> b_values = {19.8, 20.1, 20.6, 21.2};
    auto a = xn::name(a_values, {"t"}, {{"t", {0, 10, 20, 30}}});
    auto b = xn::name(b_values, {"t"}, {{"t", {10, 20, 30, 40}}});
    std::cout << "1. a: " << series(a) << "\n   b: " << series(b) << "\n";

    // 2. By default (xn::join_exact) labels must be equal: the stamps differ, so a + b is refused.
    try
    {
        auto refused = a + b;
        std::cout << "unexpected: a + b was accepted with " << refused.coords() << "\n";
        return 1;
    }
    catch (const xn::shape_error& e)
    {
        std::cout << "2. a + b: " << e.what() << "\n";
    }

    // 3. Intersection (tensorics' default, xarray's join='inner'): the stamps both have, in a's order.
    auto both = xn::apply<xn::missing_dims, xn::join_inner>(std::plus<>(), a, b);
    std::cout << "3. a + b where both measured: " << series(both) << "\n";
    bool ok = check(both.coords().at("t") == xn::labels{10, 20, 30}, "intersection stamps");

    // 4. Union (join='outer'): every stamp, sorted; a value that one sensor lacks is NaN.
    auto either = xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), a, b);
    std::cout << "4. a + b at every stamp:    " << series(either) << "\n";
    const xt::xarray<double> sums = either.expression();
    ok = check(either.coords().at("t") == xn::labels{0, 10, 20, 30, 40}, "union stamps") && ok;
    ok = check(std::isnan(sums(0)) && std::isnan(sums(4)) && sums(1) == 21.0 + 19.8, "union sums") && ok;

    // 5. A shaping strategy can also travel with the operands: their operators then align under it.
    using inner = xn::with_shaping<xn::missing_dims, xn::join_inner>;
    auto ta = xn::name<inner>(a_values, {"t"}, {{"t", {0, 10, 20, 30}}});
    auto tb = xn::name<inner>(b_values, {"t"}, {{"t", {10, 20, 30, 40}}});
    auto mean = (ta + tb) / 2.;
    std::cout << "5. mean of both sensors:     " << series(mean) << "\n";

    // 6. sel picks by stamp: one stamp drops the axis, a list keeps it in the list's order.
    const double at_20 = xt::xarray<double>(either.sel({{"t", 20}}).expression())();
    std::cout << "6. the union at t=20: " << at_20
              << "; at t=30 and t=0: " << series(either.sel({{"t", xn::labels{30, 0}}})) << "\n";
    ok = check(at_20 == 21.4 + 20.1, "sel") && ok;

    // 7. Integer counts have no NaN: the union takes a fill value.
    const xt::xarray<int> a_counts = {3, 4, 5, 6};
    const xt::xarray<int> b_counts = {1, 1, 2, 2};
    auto ca = xn::name(a_counts, {"t"}, {{"t", {0, 10, 20, 30}}});
    auto cb = xn::name(b_counts, {"t"}, {{"t", {10, 20, 30, 40}}});
    auto counts = xn::eval(xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), ca, cb, 0));
    std::cout << "7. samples per stamp: " << counts.expression() << " at " << counts.coords() << "\n";
    ok = check(counts.expression() == xt::xarray<int>{3, 5, 6, 8, 2}, "counts") && ok;

    // 8. A range of stamps, both ends included as in xarray (the bounds need not be stamps), and a range
    // of positions, the end excluded: views, not copies.
    auto middle = either.sel({{"t", xn::slice(5, 30)}});
    auto first_two = a.isel({{"t", xt::range(0, 2)}});
    std::cout << "8. the union from t=5 to t=30: " << series(middle)
              << "; a's first two: " << series(first_two) << "\n";
    ok = check(middle.coords().at("t") == xn::labels{10, 20, 30}, "slice") && ok;
    ok = check(first_two.coords().at("t") == xn::labels{0, 10}, "range") && ok;

    // 9. Each sensor on every stamp (xr.align), then a's readings with b's where a has none.
    auto [a_all, b_all] = xn::align<xn::join_outer>(a, b);
    auto merged = xn::combine_first(a, b);
    std::cout << "9. a on every stamp: " << series(a_all) << "\n   b where a has none: " << series(merged)
              << "\n";
    const xt::xarray<double> merged_values = merged.expression();
    ok = check(b_all.coords().at("t") == xn::labels{0, 10, 20, 30, 40} && std::isnan(b_all.expression()(0)),
               "align") &&
         ok;
    ok = check(merged_values == xt::xarray<double>{20.5, 21.0, 21.4, 21.9, 21.2}, "combine_first") && ok;
    return ok ? 0 : 1;
}
