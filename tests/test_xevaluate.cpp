/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_math.hpp>
#include <xtensor-named/xnamed_operators.hpp>
#include <xtensor-named/xnamed_reducers.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    template <class E>
    std::vector<std::size_t> shape_vector(const E& e)
    {
        return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
    }
} // namespace

TEST(xevaluate, eval_of_a_named_expression_owns_a_container_with_the_same_dims)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20., 30.};
    auto result = xn::eval(xn::name(a, {"x"}) + xn::name(b, {"y"}));
    static_assert(std::is_same<decltype(result), xn::xnamed<xt::xarray<double>, xn::missing_dims>>::value);
    EXPECT_EQ(result.dims(), xn::dims({"x", "y"}));
    EXPECT_EQ(result.expression(), (xt::xarray<double>{{11., 21., 31.}, {12., 22., 32.}}));
    a(0) = 100.;
    EXPECT_EQ(result.expression()(0, 0), 11.);
}

TEST(xevaluate, eval_keeps_the_strategy)
{
    xt::xarray<double> a = {1., 2.};
    auto result = xn::eval(xn::name<xn::numpy>(a, {"x"}) * 2.);
    static_assert(std::is_same<decltype(result)::strategy_type, xn::numpy>::value);
    EXPECT_EQ(result.expression(), (xt::xarray<double>{2., 4.}));
}

TEST(xevaluate, eval_of_a_plain_expression_gives_an_xarray_or_an_xtensor)
{
    xt::xarray<double> a = {1., 2.};
    xt::xtensor<double, 2> t = {{1., 2.}, {3., 4.}};
    auto dynamic = xn::eval(a * 2.);
    auto fixed_rank = xn::eval(t + 1.);
    static_assert(std::is_same<decltype(dynamic), xt::xarray<double>>::value);
    static_assert(std::is_same<decltype(fixed_rank), xt::xtensor<double, 2>>::value);
    EXPECT_EQ(dynamic, (xt::xarray<double>{2., 4.}));
    EXPECT_EQ(fixed_rank, (xt::xtensor<double, 2>{{2., 3.}, {4., 5.}}));
}

TEST(xevaluate, eval_of_a_static_rank_named_expression_keeps_the_static_rank)
{
    xt::xtensor<double, 2> t = {{1., 2.}, {3., 4.}};
    auto result = xn::eval(-xn::name(t, {"h", "w"}));
    static_assert(std::is_same<decltype(result)::expression_type, xt::xtensor<double, 2>>::value);
    EXPECT_EQ(result.expression(), (xt::xtensor<double, 2>{{-1., -2.}, {-3., -4.}}));
}

TEST(xevaluate, eval_gives_an_xtensor_where_one_operand_keeps_its_static_rank_and_an_xarray_elsewhere)
{
    const xt::xtensor<float, 2> values = {{1.f, 2.f}, {3.f, 4.f}};
    const xt::xtensor<float, 1> means = {1.f, 3.f};
    const auto x = xn::name(values, {"n", "c"});
    const auto md = xn::name(means, {"c"});
    // One operand with axes, with numbers: its static rank is kept.
    const auto scaled = xn::eval(x * 0.5);
    static_assert(
        std::is_same<decltype(scaled), const xn::xnamed<xt::xtensor<float, 2>, xn::missing_dims>>::value,
        "x * 0.5 of an xt::xtensor<float, 2> is one");
    EXPECT_EQ(scaled.expression(), (xt::xtensor<float, 2>{{0.5f, 1.f}, {1.5f, 2.f}}));
    // Two operands lined up by name: the result's rank comes from the names, at run time.
    const auto anomaly = xn::eval(x - md);
    static_assert(std::is_same<decltype(anomaly)::expression_type, xt::xarray<float>>::value,
                  "x - md of two xt::xtensors under missing_dims is an xt::xarray");
    EXPECT_EQ(anomaly.dims(), xn::dims({"n", "c"}));
    EXPECT_EQ(anomaly.expression(), (xt::xarray<float>{{0.f, -1.f}, {2.f, 1.f}}));
    const auto same_dims = xn::eval(x + x);
    static_assert(std::is_same<decltype(same_dims)::expression_type, xt::xarray<float>>::value);
    EXPECT_EQ(same_dims.expression(), (xt::xarray<float>{{2.f, 4.f}, {6.f, 8.f}}));
    // Other names for the same expression keep it, and so its rank.
    const auto renamed = xn::eval(x.rename({{"c", "channel"}}));
    static_assert(std::is_same<decltype(renamed)::expression_type, xt::xtensor<float, 2>>::value);
    EXPECT_EQ(renamed.dims(), xn::dims({"n", "channel"}));
    EXPECT_EQ(renamed.expression(), values);
    // A view that permutes or inserts axes, and a reduction by a list of run-time length: xt::xarray too.
    const auto transposed = xn::eval(x.transpose({"c", "n"}));
    static_assert(std::is_same<decltype(transposed)::expression_type, xt::xarray<float>>::value);
    EXPECT_EQ(transposed.expression(), (xt::xarray<float>{{1.f, 3.f}, {2.f, 4.f}}));
    const auto aligned = xn::eval(md.align_to({"n", "c"}));
    static_assert(std::is_same<decltype(aligned)::expression_type, xt::xarray<float>>::value);
    EXPECT_EQ(aligned.expression(), (xt::xarray<float>{{1.f, 3.f}}));
    const std::vector<std::string> channel{"c"};
    const auto totals = xn::eval(xn::sum(x, channel));
    static_assert(std::is_same<decltype(totals)::expression_type, xt::xarray<float>>::value);
    EXPECT_EQ(totals.dims(), xn::dims({"n"}));
    EXPECT_EQ(totals.expression(), (xt::xarray<float>{3.f, 7.f}));
    // A reduction by names spelled in the call (one, or a braced list of literals) keeps a static rank,
    // as xt::sum(values, {1}) does.
    const auto total = xn::eval(xn::sum(x, "c"));
    static_assert(std::is_same<decltype(total)::expression_type, xt::xtensor<float, 1>>::value);
    EXPECT_EQ(total.dims(), xn::dims({"n"}));
    EXPECT_EQ(total.expression(), (xt::xtensor<float, 1>{3.f, 7.f}));
    const auto listed = xn::eval(xn::sum(x, {"c"}));
    static_assert(std::is_same<decltype(listed)::expression_type, xt::xtensor<float, 1>>::value);
    EXPECT_EQ(listed.expression(), (xt::xtensor<float, 1>{3.f, 7.f}));
    const auto everything = xn::eval(xn::sum(x, {"c", "n"}));
    static_assert(std::is_same<decltype(everything)::expression_type, xt::xtensor<float, 0>>::value);
    EXPECT_EQ(everything.item(), 10.f);
    const auto largest = xn::eval(xn::amax(x, std::string("n")));
    static_assert(std::is_same<decltype(largest)::expression_type, xt::xtensor<float, 1>>::value);
    EXPECT_EQ(largest.dims(), xn::dims({"c"}));
    EXPECT_EQ(largest.expression(), (xt::xtensor<float, 1>{3.f, 4.f}));
    const auto by_row = xn::eval(xn::mean(xn::name(xt::xarray<float>(values), {"n", "c"}), "c"));
    static_assert(std::is_same<decltype(by_row)::expression_type, xt::xarray<float>>::value,
                  "over an xt::xarray the rank is a run-time value");
    EXPECT_EQ(by_row.expression(), (xt::xarray<float>{1.5f, 3.5f}));
    // A plain expression: by its own shape type, as before.
    static_assert(std::is_same<decltype(xn::eval(values * 0.5)), xt::xtensor<double, 2>>::value);
}

TEST(xevaluate, assign_resizes_an_xarray)
{
    xt::xarray<double> out = {0.};
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20., 30.};
    xn::assign(out, xn::name(a, {"x"}) + xn::name(b, {"y"}));
    EXPECT_EQ(shape_vector(out), (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(out, (xt::xarray<double>{{11., 21., 31.}, {12., 22., 32.}}));
}

TEST(xevaluate, assign_writes_into_the_same_storage)
{
    xt::xtensor<double, 2> out = xt::zeros<double>({2, 3});
    const double* storage = out.data();
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20., 30.};
    xn::assign(out, xn::name(a, {"x"}) * xn::name(b, {"y"}));
    EXPECT_EQ(out.data(), storage);
    EXPECT_EQ(out, (xt::xtensor<double, 2>{{10., 20., 30.}, {20., 40., 60.}}));
}

TEST(xevaluate, assign_into_a_named_container_lines_the_axes_up_by_name)
{
    xt::xarray<double> storage = xt::zeros<double>({2, 3});
    auto out = xn::name(storage, {"x", "y"});
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20., 30.};
    xn::assign(out, xn::name(a, {"x"}) + xn::name(b, {"y"}));
    EXPECT_EQ(storage, (xt::xarray<double>{{11., 21., 31.}, {12., 22., 32.}}));
    // (y, x) goes into (x, y) transposed, as xarray assigns by name.
    xn::assign(out, xn::name(b, {"y"}) * 2.0 + xn::name(a, {"x"}));
    EXPECT_EQ(storage, (xt::xarray<double>{{21., 41., 61.}, {22., 42., 62.}}));
}

TEST(xevaluate, assign_refuses_an_axis_the_output_lacks_naming_both_dims)
{
    // The safety net for a misspelled name: under missing_dims "chanel" is a new axis, which the
    // output does not have.
    xt::xarray<double> storage = xt::zeros<double>({2, 3});
    auto out = xn::name(storage, {"channel", "w"});
    const xt::xarray<double> means = {1., 2.};
    const xt::xarray<double> row = {1., 2., 3.};
    auto typo = xn::name(means, {"chanel"}) + xn::name(row, {"w"});
    XN_EXPECT_THROW_MSG(xn::assign(out, typo), xn::name_error,
                        "xn::assign: the expression has the axis 'chanel' (axis 0) of (chanel, w), which the "
                        "output (channel, w) lacks; a misspelled name, or an axis to reduce or align first");
    XN_EXPECT_THROW_MSG(xn::assign(out, xn::name(row, {"w"}) * 2.0), xn::name_error,
                        "xn::assign: the output has the axis 'channel' (axis 0) of (channel, w), which the "
                        "expression (w) lacks; a misspelled name, or an axis to reduce or align first");
    EXPECT_TRUE(xt::all(xt::equal(storage, 0.)));
}

TEST(xevaluate, assign_of_a_plain_expression_into_a_named_container_checks_the_rank)
{
    xt::xarray<double> storage = xt::zeros<double>({2});
    auto out = xn::name(storage, {"x"});
    xn::assign(out, xt::xarray<double>{4., 5., 6.});
    EXPECT_EQ(storage, (xt::xarray<double>{4., 5., 6.}));
    XN_EXPECT_THROW_MSG(
        xn::assign(out, xt::xarray<double>{{1., 2.}}), xn::shape_error,
        "xn::assign: the output has the dims (x), and the expression has 2 axes, shape (1, 2)");
    EXPECT_EQ(storage, (xt::xarray<double>{4., 5., 6.}));
}

TEST(xevaluate, assign_refuses_another_static_rank_and_leaves_the_output_unchanged)
{
    xt::xtensor<double, 1> out = {7., 8.};
    xt::xarray<double> a = {1., 2.};
    XN_EXPECT_THROW_MSG(xn::assign(out, xn::name(a, {"x"}) * xn::name(a, {"y"})), xn::shape_error,
                        "xn::assign: the output of shape (2) has the static rank 1, and the expression has 2 "
                        "axes, shape (2, 2)");
    EXPECT_EQ(out, (xt::xtensor<double, 1>{7., 8.}));
}

TEST(xevaluate, assign_refuses_another_fixed_shape_and_leaves_the_output_unchanged)
{
    xt::xtensor_fixed<double, xt::xshape<2>> out = {7., 8.};
    xt::xarray<double> a = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::assign(out, xn::name(a, {"x"}) + 1.), xn::shape_error,
        "xn::assign: the output has the fixed shape (2), and the expression has the shape (3)");
    EXPECT_EQ(out(0), 7.);
    EXPECT_EQ(out(1), 8.);
    xt::xarray<double> b = {1., 2.};
    xn::assign(out, xn::name(b, {"x"}) + 1.);
    EXPECT_EQ(out(1), 3.);
}

TEST(xevaluate, assign_refuses_what_the_strategy_refuses_and_leaves_the_output_unchanged)
{
    xt::xarray<double> out = {7., 8.};
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {1., 2., 3.};
    EXPECT_THROW(xn::assign(out, xn::name(a, {"x"}) + xn::name(b, {"x"})), xn::broadcast_error);
    EXPECT_EQ(out, (xt::xarray<double>{7., 8.}));
}

TEST(xevaluate, expression_assigned_by_xtensor_gives_the_same_values)
{
    xt::xarray<double> a = {{1., 2., 3.}, {4., 5., 6.}};
    xt::xarray<double> b = {0.5, 1.5};
    auto lazy = xn::name(a, {"h", "w"}) / xn::name(b, {"h"});
    xt::xarray<double> by_xtensor = lazy.expression();
    EXPECT_EQ(by_xtensor, xn::eval(lazy).expression());
}

TEST(xevaluate, assign_into_a_labelled_output_takes_the_same_labels_in_any_axis_order)
{
    xt::xarray<double> storage = xt::zeros<double>({3, 2});
    auto out = xn::name(storage, {"t", "c"}, xn::coords{{"t", {0, 1, 2}}});
    const xt::xarray<double> a = {{1., 2., 3.}, {4., 5., 6.}};
    xn::assign(out, xn::name(a, {"c", "t"}, xn::coords{{"t", {0, 1, 2}}}) * 2.);
    EXPECT_EQ(storage, (xt::xarray<double>{{2., 8.}, {4., 10.}, {6., 12.}}));
    // Without labels on the axis, by position, as many elements as the output has labels.
    xn::assign(out, xn::name(a, {"c", "t"}) + 1.);
    EXPECT_EQ(storage, (xt::xarray<double>{{2., 5.}, {3., 6.}, {4., 7.}}));
    xn::assign(out, xt::xarray<double>{{1., 2.}, {3., 4.}, {5., 6.}});
    EXPECT_EQ(storage, (xt::xarray<double>{{1., 2.}, {3., 4.}, {5., 6.}}));
    EXPECT_EQ(out.coords().at("t"), (xn::labels{0, 1, 2}));
}

TEST(xevaluate, assign_refuses_other_labels_naming_both_lists_and_leaves_the_output_unchanged)
{
    xt::xarray<double> storage = {10., 11., 12.};
    auto out = xn::name(storage, {"t"}, xn::coords{{"t", {0, 1, 2}}});
    const xt::xarray<double> a = {1., 2., 3.};
    // Permuted labels: writing by position would put the value of t = 2 under the label 0.
    XN_EXPECT_THROW_MSG(xn::assign(out, xn::name(a, {"t"}, xn::coords{{"t", {2, 1, 0}}}) * 1.),
                        xn::shape_error,
                        "xn::assign: the output's axis 't' (axis 0) of (t) has the labels [0, 1, 2], and the "
                        "expression's has [2, 1, 0]; select the output's labels first (e.sel), or align both "
                        "with a join (xn::align)");
    // Disjoint labels of the same length.
    XN_EXPECT_THROW_MSG(xn::assign(out, xn::name(a, {"t"}, xn::coords{{"t", {7, 8, 9}}})), xn::shape_error,
                        "xn::assign: the output's axis 't' (axis 0) of (t) has the labels [0, 1, 2], and the "
                        "expression's has [7, 8, 9]; select the output's labels first (e.sel), or align both "
                        "with a join (xn::align)");
    // An axis without labels that would resize the labelled output.
    const xt::xarray<double> longer = {1., 2., 3., 4.};
    XN_EXPECT_THROW_MSG(
        xn::assign(out, xn::name(longer, {"t"}) + 0.), xn::shape_error,
        "xn::assign: the output's axis 't' (axis 0) of (t) has 3 labels, and the expression has "
        "4 elements there");
    XN_EXPECT_THROW_MSG(
        xn::assign(out, longer), xn::shape_error,
        "xn::assign: the output's axis 't' (axis 0) of (t) has 3 labels, and the expression has "
        "4 elements there");
    EXPECT_EQ(storage, (xt::xarray<double>{10., 11., 12.}));
    EXPECT_EQ(out.coords().at("t"), (xn::labels{0, 1, 2}));
    // The labels selected in the output's order are accepted.
    const auto permuted = xn::name(a, {"t"}, xn::coords{{"t", {2, 1, 0}}});
    xn::assign(out, permuted.sel({{"t", xn::labels{0, 1, 2}}}));
    EXPECT_EQ(storage, (xt::xarray<double>{3., 2., 1.}));
}

TEST(xevaluate, assign_in_another_axis_order_writes_what_a_loop_writes)
{
    // An output whose axes come in another order than the expression's is written by the kernels
    // through its strides in the expression's order (no view of the expression): every element as a
    // plain loop over the output's positions computes it. Short arrays (the short loop) and long ones
    // (the kernels' blocks), a tree of views and one of the operand itself, a scalar, an output resized,
    // a column-major one and one that an operand reads.
    for (const std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(17), std::size_t(300)})
    {
        const std::size_t m = n + 2;
        xt::xtensor<double, 2> a = xt::zeros<double>({m, n});
        xt::xtensor<double, 1> u = xt::zeros<double>({m});
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.flat(i) = 0.25 * static_cast<double>(i % 29) - 1.5;
        }
        for (std::size_t i = 0; i < m; ++i)
        {
            u(i) = static_cast<double>(i) - 0.5;
        }
        const auto na = xn::name(a, {"y", "x"});
        const auto nu = xn::name(u, {"y"});

        // Resized from (0, 0): the loop's element (x, y) is a(y, x) + u(y), times 2.
        xt::xtensor<double, 2> out;
        auto named_out = xn::name(out, {"x", "y"});
        xn::assign(named_out, (na + nu) * 2.0);
        ASSERT_EQ(out.shape()[0], n);
        ASSERT_EQ(out.shape()[1], m);
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < m; ++y)
            {
                ASSERT_EQ(out(x, y), (a(y, x) + u(y)) * 2.0) << n << " " << x << " " << y;
            }
        }

        // The operand itself under a function, into a column-major output of its shape.
        xt::xtensor<double, 2, xt::layout_type::column_major> column_out = xt::zeros<double>({n, m});
        auto named_column = xn::name(column_out, {"x", "y"});
        xn::assign(named_column, xn::exp(na));
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < m; ++y)
            {
                // The kernels' exp, within a few units in the last place of std::exp's.
                const double expected = std::exp(a(y, x));
                ASSERT_NEAR(column_out(x, y), expected, 4e-16 * expected) << n << " " << x << " " << y;
            }
        }

        // An output that the expression reads transposed: a square array replaced by its transpose
        // plus one, through a temporary.
        xt::xtensor<double, 2> square = xt::zeros<double>({n, n});
        for (std::size_t i = 0; i < square.size(); ++i)
        {
            square.flat(i) = static_cast<double>(i);
        }
        const xt::xtensor<double, 2> before = square;
        auto square_xy = xn::name(square, {"x", "y"});
        xn::assign(square_xy, xn::name(square, {"y", "x"}) + 1.0);
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < n; ++y)
            {
                ASSERT_EQ(square(x, y), before(y, x) + 1.0) << n << " " << x << " " << y;
            }
        }
    }
}

TEST(xevaluate, assign_of_a_reduction_in_another_axis_order_writes_what_a_loop_writes)
{
    // A reduction by name into an output whose axes come in another order: evaluated in its own order,
    // then written in the output's, or written by the kernels through the output's strides. Sums of
    // whole numbers are exact in any order of terms, so every element equals a plain loop's: small
    // reductions (xtensor's assignment), long ones (the kernels'), integers (never the kernels'), the
    // library's amax into floats, and an output that the reduction reads.
    for (const std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(17), std::size_t(300)})
    {
        const std::size_t m = n + 2;
        const std::size_t k = 5;
        xt::xtensor<double, 3> a = xt::zeros<double>({m, n, k});
        xt::xtensor<long, 3> counts = xt::zeros<long>({m, n, k});
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.flat(i) = static_cast<double>(i % 29) - 14.;
            counts.flat(i) = static_cast<long>(i % 7);
        }
        const auto na = xn::name(a, {"y", "x", "z"});
        const auto loop = [&](const auto& values, std::size_t x, std::size_t y, auto fold)
        {
            auto result = values(y, x, 0);
            for (std::size_t z = 1; z < k; ++z)
            {
                result = fold(result, values(y, x, z));
            }
            return result;
        };
        const auto plus = [](auto l, auto r) { return l + r; };

        // Resized from (0, 0), through a container; then of its shape already, through the output's
        // strides where the kernels take it.
        xt::xtensor<double, 2> sums;
        auto named_sums = xn::name(sums, {"x", "y"});
        xn::assign(named_sums, xn::sum(na, {"z"}));
        xt::xtensor<double, 2> sums_in_place = xt::zeros<double>({n, m});
        auto named_in_place = xn::name(sums_in_place, {"x", "y"});
        xn::assign(named_in_place, xn::sum(na, {"z"}));
        xt::xtensor<long, 2> count_sums = xt::zeros<long>({n, m});
        auto named_counts = xn::name(count_sums, {"x", "y"});
        xn::assign(named_counts, xn::sum(xn::name(counts, {"y", "x", "z"}), {"z"}));
        xt::xarray<float> maxima = xt::zeros<float>({1, 1});
        auto named_maxima = xn::name(maxima, {"x", "y"});
        xn::assign(named_maxima, xn::amax(na, {"z"}));
        ASSERT_EQ(shape_vector(sums), (std::vector<std::size_t>{n, m}));
        ASSERT_EQ(shape_vector(maxima), (std::vector<std::size_t>{n, m}));
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < m; ++y)
            {
                ASSERT_EQ(sums(x, y), loop(a, x, y, plus)) << n << " " << x << " " << y;
                ASSERT_EQ(sums_in_place(x, y), loop(a, x, y, plus)) << n << " " << x << " " << y;
                ASSERT_EQ(count_sums(x, y), loop(counts, x, y, plus)) << n << " " << x << " " << y;
                ASSERT_EQ(maxima(x, y), static_cast<float>(
                                            loop(a, x, y, [](double l, double r) { return std::max(l, r); })))
                    << n << " " << x << " " << y;
            }
        }

        // A kept innermost axis written with a stride: the sum over y, (x, z), into (z, x).
        xt::xtensor<double, 2> over_y = xt::zeros<double>({k, n});
        auto named_over_y = xn::name(over_y, {"z", "x"});
        xn::assign(named_over_y, xn::sum(na, {"y"}));
        for (std::size_t z = 0; z < k; ++z)
        {
            for (std::size_t x = 0; x < n; ++x)
            {
                double expected = 0.;
                for (std::size_t y = 0; y < m; ++y)
                {
                    expected += a(y, x, z);
                }
                ASSERT_EQ(over_y(z, x), expected) << n << " " << z << " " << x;
            }
        }

        // Into a plane of the array it sums: every sum taken from the elements before any is written.
        xt::xtensor<double, 3> cube = xt::zeros<double>({n, n, k});
        for (std::size_t i = 0; i < cube.size(); ++i)
        {
            cube.flat(i) = static_cast<double>(i % 11);
        }
        const xt::xtensor<double, 3> before = cube;
        auto plane = xt::view(cube, xt::all(), xt::all(), 0);
        auto named_plane = xn::name(plane, {"x", "y"});
        xn::assign(named_plane, xn::sum(xn::name(cube, {"y", "x", "z"}), {"z"}));
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < n; ++y)
            {
                ASSERT_EQ(cube(x, y, 0), loop(before, x, y, plus)) << n << " " << x << " " << y;
                ASSERT_EQ(cube(x, y, 1), before(x, y, 1)) << n << " " << x << " " << y;
            }
        }

        // Sums of doubles into a square float output of their shape: converted, never transposed.
        xt::xtensor<float, 2> converted = xt::zeros<float>({n, n});
        auto named_converted = xn::name(converted, {"x", "y"});
        xn::assign(named_converted, xn::sum(xn::name(before, {"y", "x", "z"}), {"z"}));
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t y = 0; y < n; ++y)
            {
                ASSERT_EQ(converted(x, y), static_cast<float>(loop(before, x, y, plus)))
                    << n << " " << x << " " << y;
            }
        }
    }
}

TEST(xevaluate, assign_of_a_reduction_in_a_cycle_of_three_axes_writes_what_a_loop_writes)
{
    // (w, y, x, z) summed over z into (x, w, y): each output axis from another position of the
    // expression's, which a transposition of two axes would not tell from its inverse. Short and long.
    for (const std::size_t n : {std::size_t(2), std::size_t(9)})
    {
        const std::size_t w = n + 1;
        const std::size_t y = n + 2;
        const std::size_t k = 4;
        xt::xtensor<double, 4> a = xt::zeros<double>({w, y, n, k});
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.flat(i) = static_cast<double>(i % 23) - 11.;
        }
        xt::xtensor<double, 3> out = xt::zeros<double>({n, w, y});
        auto named_out = xn::name(out, {"x", "w", "y"});
        xn::assign(named_out, xn::sum(xn::name(a, {"w", "y", "x", "z"}), {"z"}));
        for (std::size_t x = 0; x < n; ++x)
        {
            for (std::size_t iw = 0; iw < w; ++iw)
            {
                for (std::size_t iy = 0; iy < y; ++iy)
                {
                    double expected = 0.;
                    for (std::size_t z = 0; z < k; ++z)
                    {
                        expected += a(iw, iy, x, z);
                    }
                    ASSERT_EQ(out(x, iw, iy), expected) << n << " " << x << " " << iw << " " << iy;
                }
            }
        }
    }
}

TEST(xevaluate, assign_in_another_axis_order_of_rank_four_writes_what_a_loop_writes)
{
    // Every permutation of (n, c, h, w) as the output's order, over the sizes (2, 3, 4, 5) and
    // (2, 3, 17, 9): short and long, as a loop over the output's positions reads the operands.
    for (const std::size_t h : {std::size_t(4), std::size_t(17)})
    {
        const std::size_t w = h == 4 ? 5 : 9;
        xt::xtensor<float, 4> x = xt::zeros<float>({std::size_t(2), std::size_t(3), h, w});
        xt::xtensor<float, 1> c = {0.5f, -1.f, 2.f};
        for (std::size_t i = 0; i < x.size(); ++i)
        {
            x.flat(i) = static_cast<float>(i % 13) - 6.f;
        }
        const auto nx = xn::name(x, {"n", "c", "h", "w"});
        const auto nc = xn::name(c, {"c"});
        std::vector<std::string> order = {"c", "h", "n", "w"};
        std::sort(order.begin(), order.end());
        do
        {
            // Rank 4, of another shape: resized.
            xt::xarray<float> out = xt::zeros<float>({1, 1, 1, 1});
            auto named_out = xn::name(out, xn::dims(order));
            xn::assign(named_out, nx * nc - 1.f);
            std::vector<std::size_t> sizes;
            for (const auto& name : order)
            {
                sizes.push_back(name == "n" ? 2 : name == "c" ? 3 : name == "h" ? h : w);
            }
            ASSERT_EQ(std::vector<std::size_t>(out.shape().begin(), out.shape().end()), sizes);
            for (std::size_t i = 0; i < out.size(); ++i)
            {
                // The output's position i, axis by axis, then the operands' element there.
                std::size_t rest = i;
                std::size_t at[4] = {};
                for (std::size_t k = 4; k-- > 0;)
                {
                    at[k] = rest % sizes[k];
                    rest /= sizes[k];
                }
                std::size_t where[4] = {};
                for (std::size_t k = 0; k < 4; ++k)
                {
                    const std::size_t axis = order[k] == "n"   ? 0
                                             : order[k] == "c" ? 1
                                             : order[k] == "h" ? 2
                                                               : 3;
                    where[axis] = at[k];
                }
                ASSERT_EQ(out.flat(i), x(where[0], where[1], where[2], where[3]) * c(where[1]) - 1.f)
                    << order[0] << order[1] << order[2] << order[3] << " " << i;
            }
        } while (std::next_permutation(order.begin(), order.end()));
    }
}
