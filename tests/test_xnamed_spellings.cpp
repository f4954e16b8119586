/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/
//
// The spellings that xarray, PyTorch and numpy users reach for first: joins named by xarray's join=,
// xr.align, element access by position, a 0-d result as a number, the views by name on an xn::dims,
// PyTorch's align_as and "..." in refine_names, broadcast_gradient_axes on xtensor shapes and on named
// expressions.

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xadjoint.hpp>
#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_expression.hpp>
#include <xtensor-named/xnamed_operators.hpp>
#include <xtensor-named/xnamed_reducers.hpp>
#include <xtensor-named/xshaping.hpp>

#include "support/expect_error.hpp"
#include "support/same_values.hpp"

namespace xn = xt::named;

namespace
{
    constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
}

// Joins in one word
// =================

static_assert(std::is_same_v<xn::join_inner, xn::shape_intersection>);
static_assert(std::is_same_v<xn::join_outer, xn::shape_union>);
static_assert(std::is_same_v<xn::join_left, xn::shape_left>);
static_assert(std::is_same_v<xn::join_right, xn::shape_right>);
static_assert(std::is_same_v<xn::join_exact, xn::shape_exact>);

TEST(spellings, apply_takes_a_join_alone_and_the_broadcasting_strategy_from_the_operands)
{
    const xt::xarray<double> a = {1., 2., 3.};
    const xt::xarray<double> b = {20., 30., 40.};
    const auto na = xn::name(a, {"t"}, {{"t", {1, 2, 3}}});
    const auto nb = xn::name(b, {"t"}, {{"t", {2, 3, 4}}});

    // xarray: xr.align(a, b, join="inner") then (a + b) / 2.
    const auto inner = xn::eval(xn::apply<xn::join_inner>(std::plus<>(), na, nb) / 2.0);
    EXPECT_EQ(inner.dims(), xn::dims({"t"}));
    EXPECT_EQ(inner.coords(), (xn::coords{{"t", {2, 3}}}));
    EXPECT_TRUE(xn_test::same_with_nan(inner.expression(), xt::xarray<double>({11., 16.5})));

    const auto outer = xn::eval(xn::apply<xn::join_outer>(std::plus<>(), na, nb));
    EXPECT_EQ(outer.coords(), (xn::coords{{"t", {1, 2, 3, 4}}}));
    EXPECT_TRUE(xn_test::same_with_nan(outer.expression(),
                                       xt::xarray<double>({not_a_number, 22., 33., not_a_number})));

    const auto left = xn::eval(xn::apply<xn::join_left>(std::minus<>(), na, nb));
    EXPECT_EQ(left.coords(), (xn::coords{{"t", {1, 2, 3}}}));
    EXPECT_TRUE(xn_test::same_with_nan(left.expression(), xt::xarray<double>({not_a_number, -18., -27.})));

    XN_EXPECT_THROW_HAS(xn::apply<xn::join_exact>(std::plus<>(), na, nb), xn::shape_error, {"xn::", "'t'"});
}

TEST(spellings, align_gives_both_operands_on_the_joined_labels)
{
    const xt::xarray<double> a = {1., 2., 3.};
    const xt::xarray<double> b = {{20., 30.}, {200., 300.}};
    const auto na = xn::name(a, {"t"}, {{"t", {1, 2, 3}}});
    const auto nb = xn::name(b, {"sensor", "t"}, {{"t", {3, 5}}});

    auto [l, r] = xn::align<xn::join_outer>(na, nb);
    // Each keeps its own axes; only the labelled axis they share changes.
    EXPECT_EQ(l.dims(), xn::dims({"t"}));
    EXPECT_EQ(r.dims(), xn::dims({"sensor", "t"}));
    EXPECT_EQ(l.coords(), (xn::coords{{"t", {1, 2, 3, 5}}}));
    EXPECT_EQ(r.coords(), (xn::coords{{"t", {1, 2, 3, 5}}}));
    EXPECT_TRUE(
        xn_test::same_with_nan(xn::eval(l).expression(), xt::xarray<double>({1., 2., 3., not_a_number})));
    EXPECT_TRUE(xn_test::same_with_nan(xn::eval(r).expression(),
                                       xt::xarray<double>({{not_a_number, not_a_number, 20., 30.},
                                                           {not_a_number, not_a_number, 200., 300.}})));

    auto [li, ri] = xn::align<xn::join_inner>(na, nb, 0.0);
    EXPECT_TRUE(xn_test::same_with_nan(xn::eval(li).expression(), xt::xarray<double>{3.}));
    xt::xarray<double> column = {20., 200.};
    column.reshape({2, 1});
    EXPECT_TRUE(xn_test::same_with_nan(xn::eval(ri).expression(), column));

    auto [lf, rf] = xn::align<xn::join_left>(na, nb, -1.0);
    EXPECT_TRUE(xn_test::same_with_nan(xn::eval(lf).expression(), xt::xarray<double>({1., 2., 3.})));
    EXPECT_TRUE(xn_test::same_with_nan(xn::eval(rf).expression(),
                                       xt::xarray<double>({{-1., -1., 20.}, {-1., -1., 200.}})));
}

// Element access
// ==============

TEST(spellings, a_named_expression_reads_and_writes_an_element_by_position)
{
    xt::xarray<double> values = {{1., 2., 3.}, {4., 5., 6.}};
    auto named = xn::name(values, {"y", "x"});
    EXPECT_EQ(named(1, 2), 6.);
    named(0, 1) = 20.;
    EXPECT_EQ(values(0, 1), 20.);
    // A lazy result computes the element.
    const auto sum = named + named;
    EXPECT_EQ(sum(1, 0), 8.);
    const auto reordered = named.transpose();
    EXPECT_EQ(reordered(2, 1), 6.);
}

TEST(spellings, a_result_of_one_element_is_a_number)
{
    const xt::xarray<double> values = {{1., 2., 3.}, {4., 5., 6.}};
    const auto named = xn::name(values, {"y", "x"});
    EXPECT_EQ(xn::sum(named).item(), 21.);
    const double total(xn::eval(xn::sum(named)));
    EXPECT_EQ(total, 21.);
    EXPECT_EQ(static_cast<double>(xn::amax(named)), 6.);
    XN_EXPECT_THROW_MSG(
        named.item(), xn::shape_error,
        "xn::item: the expression (y, x) of shape (2, 3) has 6 elements, and item() takes the "
        "one element of an expression of one");
}

// Views by name on an xn::dims, align_as, "..."
// ==============================================

TEST(spellings, views_by_name_take_the_dims_of_another_expression)
{
    const xt::xarray<double> values = xt::arange<double>(6.).reshape({2, 3});
    const xt::xarray<double> other_values = xt::zeros<double>({3, 1, 2});
    const auto named = xn::name(values, {"y", "x"});
    const auto other = xn::name(other_values, {"x", "c", "y"});

    const auto aligned = named.align_to(other.dims());
    EXPECT_EQ(aligned.dims(), xn::dims({"x", "c", "y"}));
    EXPECT_EQ(aligned.shape(), (std::vector<std::size_t>{3, 1, 2}));
    EXPECT_EQ(aligned(2, 0, 1), values(1, 2));

    const auto as = named.align_as(other);
    EXPECT_EQ(as.dims(), aligned.dims());
    EXPECT_EQ(as(1, 0, 0), values(0, 1));

    const xn::dims order{"x", "y"};
    const auto transposed = named.transpose(order);
    EXPECT_EQ(transposed.dims(), order);
    EXPECT_EQ(transposed(2, 0), values(0, 2));

    const std::vector<std::string> names{"y", "x"};
    EXPECT_EQ(xn::name(values, {"?", "?"}).refine_names(names).dims(), xn::dims({"y", "x"}));
    EXPECT_EQ(xn::name(values, {"?", "x"}).refine_names(named.dims()).dims(), xn::dims({"y", "x"}));
}

TEST(spellings, refine_names_takes_an_ellipsis_for_the_axes_it_does_not_mention)
{
    const xt::xarray<double> values = xt::zeros<double>({2, 3, 4, 5});
    const auto plain = xn::name(values, {"?", "?", "?", "?"});
    EXPECT_EQ(plain.refine_names({"n", "..."}).dims(), xn::dims({"n", "?", "?", "?"}));
    EXPECT_EQ(plain.refine_names({"...", "h", "w"}).dims(), xn::dims({"?", "?", "h", "w"}));
    EXPECT_EQ(plain.refine_names({"n", "...", "w"}).dims(), xn::dims({"n", "?", "?", "w"}));
    EXPECT_EQ(plain.refine_names({"n", "c", "...", "h", "w"}).dims(), xn::dims({"n", "c", "h", "w"}));
    XN_EXPECT_THROW_MSG(plain.refine_names({"...", "n", "..."}), xn::name_error,
                        "xn::refine_names: '...' appears twice, at positions 0 and 2");
    XN_EXPECT_THROW_MSG(plain.refine_names({"a", "b", "...", "c", "d", "e"}), xn::name_error,
                        "xn::refine_names: 5 names and '...' were given for 4 axes");
    EXPECT_EQ(plain.dims(), xn::dims({"?", "?", "?", "?"}));
}

// broadcast_gradient_axes on what users have
// ==========================================

TEST(spellings, broadcast_gradient_axes_takes_xtensor_shapes)
{
    const xt::xarray<double> x = xt::zeros<double>({4, 2, 3});
    const xt::xarray<double> b = xt::zeros<double>({2, 1});
    const auto [dx, db] = xn::broadcast_gradient_axes(x.shape(), b.shape());
    EXPECT_EQ(dx, (std::vector<std::int64_t>{}));
    EXPECT_EQ(db, (std::vector<std::int64_t>{0, 2}));
    const std::vector<long> sizes{3};
    const auto [ds, dt] = xn::broadcast_gradient_axes(sizes, x.shape());
    EXPECT_EQ(ds, (std::vector<std::int64_t>{0, 1}));
    EXPECT_EQ(dt, (std::vector<std::int64_t>{}));
    const std::vector<long> five{5};
    XN_EXPECT_THROW_HAS(xn::broadcast_gradient_axes(x.shape(), five), xn::broadcast_error,
                        {"xn::broadcast_gradient_axes", "(4, 2, 3)", "(5)"});
}

TEST(spellings, broadcast_gradient_axes_takes_named_expressions_under_their_strategy)
{
    const xt::xarray<double> image = xt::zeros<double>({4, 3, 2});
    const xt::xarray<double> label = xt::zeros<double>({4, 2});
    const auto nimage = xn::name(image, {"n", "c", "w"});
    const auto nlabel = xn::name(label, {"n", "w"});
    // numpy's rule would refuse (4, 3, 2) with (4, 2); by name the label's gradient sums over c.
    const auto [dimage, dlabel] = xn::broadcast_gradient_axes(nimage, nlabel);
    const auto result_dims = (nimage + nlabel).dims();
    EXPECT_EQ(dimage, (std::vector<std::int64_t>{}));
    ASSERT_EQ(dlabel.size(), 1u);
    EXPECT_EQ(result_dims[static_cast<std::size_t>(dlabel[0])], "c");
}
