/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xnamed_expression.hpp>
#include <xtensor-named/xnamed_reducers.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    // 0, 1, 2, ... in row-major order, so that every element tells where it came from.
    xt::xarray<double> iota(std::vector<std::size_t> shape)
    {
        xt::xarray<double> a = xt::zeros<double>(shape);
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.data()[i] = static_cast<double>(i);
        }
        return a;
    }

    std::vector<std::size_t> shape_of(const xn::xnamed<xt::xarray<double>, xn::missing_dims>& e)
    {
        return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
    }

    template <class E>
    std::vector<std::size_t> shape_vector(const E& e)
    {
        return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
    }
} // namespace

// Type-level promises: xtensor's closure rule and the trait.
static_assert(std::is_same<decltype(xn::name(std::declval<xt::xarray<double>&>(), {"x"}))::closure_type,
                           xt::xarray<double>&>::value);
static_assert(std::is_same<decltype(xn::name(std::declval<const xt::xarray<double>&>(), {"x"}))::closure_type,
                           const xt::xarray<double>&>::value);
static_assert(std::is_same<decltype(xn::name(std::declval<xt::xarray<double>>(), {"x"}))::closure_type,
                           xt::xarray<double>>::value);
static_assert(std::is_same<decltype(xn::name(std::declval<xt::xarray<double>&>(), {"x"}))::strategy_type,
                           xn::missing_dims>::value);
static_assert(
    std::is_same<decltype(xn::name<xn::numpy>(std::declval<xt::xarray<double>&>(), {"x"}))::strategy_type,
                 xn::numpy>::value);
static_assert(xn::is_named_expression_v<xn::xnamed<xt::xarray<double>, xn::numpy>>);
static_assert(xn::is_named_expression_v<const xn::xnamed<xt::xarray<double>&, xn::numpy>&>);
static_assert(!xn::is_named_expression_v<xt::xarray<double>>);
static_assert(!xn::is_named_expression_v<double>);

TEST(xnamed_expression, name_refers_to_an_lvalue)
{
    xt::xarray<double> source = {{1., 2., 3.}, {4., 5., 6.}};
    auto named = xn::name(source, {"h", "w"});
    EXPECT_EQ(&named.expression(), &source);
    source(1, 2) = 60.;
    EXPECT_EQ(named.expression()(1, 2), 60.);
}

TEST(xnamed_expression, name_owns_an_rvalue)
{
    auto make = []
    {
        xt::xarray<double> local = {{1., 2.}, {3., 4.}};
        return xn::name(std::move(local), {"h", "w"});
    };
    auto named = make();
    // Read after the source's scope ended: ASan reports a dangling reference here.
    EXPECT_EQ(named.expression()(1, 0), 3.);
    EXPECT_EQ(named.dims(), xn::dims({"h", "w"}));
}

TEST(xnamed_expression, name_keeps_a_lazy_expression_by_value)
{
    xt::xarray<double> a = {1., 2., 3.};
    auto named = xn::name(a * 2.0, {"x"});
    a(0) = 10.;
    EXPECT_EQ(named.expression()(0), 20.);
    EXPECT_EQ(named.expression()(2), 6.);
}

TEST(xnamed_expression, dims_shape_and_dimension_describe_the_axes)
{
    auto named = xn::name(iota({10, 3, 4, 5}), {"?", "channel", "h", "w"});
    EXPECT_EQ(named.dims().to_string(), "(?, channel, h, w)");
    EXPECT_EQ(shape_of(named), (std::vector<std::size_t>{10, 3, 4, 5}));
    EXPECT_EQ(named.dimension(), 4u);
}

TEST(xnamed_expression, expression_is_usable_by_xtensor)
{
    auto named = xn::name(iota({2, 3}), {"h", "w"});
    xt::xarray<double> column_sums = xt::sum(named.expression(), {0});
    EXPECT_EQ(column_sums, (xt::xarray<double>{3., 5., 7.}));
    named.expression()(0, 0) = 42.;
    EXPECT_EQ(named.expression()(0, 0), 42.);
}

TEST(xnamed_expression, name_refuses_a_rank_that_differs_from_the_names)
{
    xt::xarray<double> a = iota({2, 3, 4});
    XN_EXPECT_THROW_MSG(
        xn::name(a, {"h", "w"}), xn::name_error,
        "xn::name: the expression has 3 axes, shape (2, 3, 4), but 2 names were given, (h, w)");
}

TEST(xnamed_expression, name_refuses_an_invalid_axis_name)
{
    xt::xarray<double> a = iota({2});
    XN_EXPECT_THROW_HAS(xn::name(a, {"1x"}), xn::name_error, {"'1x'", "identifier"});
}

TEST(xnamed_expression, axis_and_size_find_an_axis_by_name)
{
    auto named = xn::name(iota({10, 3, 4, 5}), {"?", "channel", "h", "w"});
    EXPECT_EQ(named.axis("h"), 2u);
    EXPECT_EQ(named.size("h"), 4u);
    EXPECT_EQ(named.size("channel"), 3u);
}

TEST(xnamed_expression, axis_of_an_unknown_name_lists_the_dims)
{
    auto named = xn::name(iota({10, 4, 5}), {"?", "h", "w"});
    XN_EXPECT_THROW_MSG(named.axis("x"), xn::name_error, "xn::axis: no axis 'x' in (?, h, w)");
    XN_EXPECT_THROW_MSG(named.size("x"), xn::name_error, "xn::size: no axis 'x' in (?, h, w)");
    XN_EXPECT_THROW_HAS(named.axis("?"), xn::name_error, {"xn::axis", "(?, h, w)", "unnamed"});
}

TEST(xnamed_expression, rename_gives_new_names_to_the_same_elements)
{
    xt::xarray<double> a = iota({2, 3});
    auto named = xn::name(a, {"h", "w"});
    auto renamed = named.rename({{"h", "height"}});
    EXPECT_EQ(renamed.dims(), xn::dims({"height", "w"}));
    EXPECT_EQ(named.dims(), xn::dims({"h", "w"}));
    EXPECT_EQ(&renamed.expression(), &a);
}

TEST(xnamed_expression, rename_applies_all_pairs_at_once)
{
    auto named = xn::name(iota({2, 3}), {"h", "w"});
    auto swapped = named.rename({{"h", "w"}, {"w", "h"}});
    EXPECT_EQ(swapped.dims(), xn::dims({"w", "h"}));
}

TEST(xnamed_expression, rename_refuses_unknown_repeated_and_clashing_names)
{
    auto named = xn::name(iota({2, 3}), {"h", "w"});
    XN_EXPECT_THROW_MSG(named.rename({{"x", "y"}}), xn::name_error, "xn::rename: no axis 'x' in (h, w)");
    XN_EXPECT_THROW_MSG(named.rename({{"h", "a"}, {"h", "b"}}), xn::name_error,
                        "xn::rename: axis 'h' (axis 0) of (h, w) is renamed twice");
    XN_EXPECT_THROW_HAS(named.rename({{"h", "w"}}), xn::name_error, {"xn::rename", "'w'", "twice", "(w, w)"});
    XN_EXPECT_THROW_HAS(named.rename({{"h", "a b"}}), xn::name_error, {"xn::rename", "'a b'"});
    EXPECT_EQ(named.dims(), xn::dims({"h", "w"}));
}

TEST(xnamed_expression, refine_names_fills_unnamed_axes_and_keeps_names)
{
    auto named = xn::name(iota({10, 3, 4}), {"?", "channel", "?"});
    auto refined = named.refine_names({"batch", "?", "h"});
    EXPECT_EQ(refined.dims(), xn::dims({"batch", "channel", "h"}));
    auto same = named.refine_names({"batch", "channel", "h"});
    EXPECT_EQ(same.dims(), xn::dims({"batch", "channel", "h"}));
}

TEST(xnamed_expression, refine_names_refuses_a_conflict)
{
    auto named = xn::name(iota({10, 3}), {"?", "channel"});
    XN_EXPECT_THROW_MSG(named.refine_names({"batch", "class"}), xn::name_error,
                        "xn::refine_names: axis 'channel' (axis 1) of (?, channel) already has a name and "
                        "cannot become 'class'");
    XN_EXPECT_THROW_MSG(named.refine_names({"batch"}), xn::name_error,
                        "xn::refine_names: (?, channel) has 2 axes, but 1 names were given");
    XN_EXPECT_THROW_HAS(named.refine_names({"channel", "?"}), xn::name_error,
                        {"xn::refine_names", "'channel'"});
    EXPECT_EQ(named.dims(), xn::dims({"?", "channel"}));
}

TEST(xnamed_expression, transpose_permutes_axes_by_name)
{
    xt::xarray<double> a = iota({2, 3, 4});
    auto named = xn::name(a, {"c", "h", "w"});
    auto t = named.transpose({"w", "c", "h"});
    EXPECT_EQ(t.dims(), xn::dims({"w", "c", "h"}));
    EXPECT_EQ(shape_vector(t), (std::vector<std::size_t>{4, 2, 3}));
    for (std::size_t c = 0; c < 2; ++c)
    {
        for (std::size_t h = 0; h < 3; ++h)
        {
            for (std::size_t w = 0; w < 4; ++w)
            {
                EXPECT_EQ(t.expression()(w, c, h), a(c, h, w));
            }
        }
    }
}

TEST(xnamed_expression, transpose_without_names_reverses_the_axes)
{
    xt::xarray<double> a = iota({2, 3});
    auto t = xn::name(a, {"h", "w"}).transpose();
    EXPECT_EQ(t.dims(), xn::dims({"w", "h"}));
    EXPECT_EQ(t.expression()(2, 1), a(1, 2));
}

TEST(xnamed_expression, transpose_matches_unnamed_axes_in_order_and_takes_ellipsis)
{
    xt::xarray<double> a = iota({2, 3, 4});
    auto named = xn::name(a, {"?", "h", "?"});
    auto t = named.transpose({"?", "?", "h"});
    EXPECT_EQ(t.dims(), xn::dims({"?", "?", "h"}));
    EXPECT_EQ(t.expression()(1, 3, 2), a(1, 2, 3));
    auto u = named.transpose({"h", "..."});
    EXPECT_EQ(u.dims(), xn::dims({"h", "?", "?"}));
    EXPECT_EQ(u.expression()(2, 1, 3), a(1, 2, 3));
}

TEST(xnamed_expression, transpose_refuses_anything_but_a_permutation)
{
    auto named = xn::name(iota({2, 3}), {"h", "w"});
    XN_EXPECT_THROW_MSG(named.transpose({"w", "x"}), xn::name_error, "xn::transpose: no axis 'x' in (h, w)");
    XN_EXPECT_THROW_MSG(
        named.transpose({"w"}), xn::name_error,
        "xn::transpose: axis 'h' (axis 0) of (h, w) is not in the list and the list has no '...' "
        "for it");
    XN_EXPECT_THROW_MSG(named.transpose({"w", "w"}), xn::name_error,
                        "xn::transpose: name 'w' appears twice in the list, at positions 0 and 1");
    XN_EXPECT_THROW_HAS(named.transpose({"h", "?"}), xn::name_error,
                        {"xn::transpose", "no unnamed axis left"});
}

TEST(xnamed_expression, align_to_permutes_and_inserts_size_one_axes)
{
    xt::xarray<double> a = iota({3, 4});
    auto named = xn::name(a, {"h", "w"});
    auto aligned = named.align_to({"w", "channel", "h"});
    EXPECT_EQ(aligned.dims(), xn::dims({"w", "channel", "h"}));
    EXPECT_EQ(shape_vector(aligned), (std::vector<std::size_t>{4, 1, 3}));
    for (std::size_t h = 0; h < 3; ++h)
    {
        for (std::size_t w = 0; w < 4; ++w)
        {
            EXPECT_EQ(aligned.expression()(w, 0, h), a(h, w));
        }
    }
}

TEST(xnamed_expression, align_to_expands_ellipsis_to_the_axes_not_mentioned)
{
    // A batch of images img: (?, channel, h, w).
    xt::xarray<double> a = iota({2, 3, 4, 5});
    auto img = xn::name(a, {"?", "channel", "h", "w"});
    auto last = img.align_to({"...", "channel"});
    EXPECT_EQ(last.dims(), xn::dims({"?", "h", "w", "channel"}));
    EXPECT_EQ(shape_vector(last), (std::vector<std::size_t>{2, 4, 5, 3}));
    EXPECT_EQ(last.expression()(1, 2, 3, 1), a(1, 1, 2, 3));
    auto middle = img.align_to({"w", "...", "scale", "h"});
    EXPECT_EQ(middle.dims(), xn::dims({"w", "?", "channel", "scale", "h"}));
    EXPECT_EQ(shape_vector(middle), (std::vector<std::size_t>{5, 2, 3, 1, 4}));
    EXPECT_EQ(middle.expression()(3, 1, 2, 0, 1), a(1, 2, 1, 3));
}

TEST(xnamed_expression, align_to_refuses_an_axis_it_would_lose)
{
    auto img = xn::name(iota({2, 3, 4}), {"?", "h", "w"});
    XN_EXPECT_THROW_MSG(img.align_to({"h", "w"}), xn::name_error,
                        "xn::align_to: unnamed axis 0 of (?, h, w) is not in the list and the list has no "
                        "'...' for it");
    XN_EXPECT_THROW_MSG(img.align_to({"...", "h", "..."}), xn::name_error,
                        "xn::align_to: '...' appears twice, at positions 0 and 2");
    XN_EXPECT_THROW_HAS(img.align_to({"...", "h h"}), xn::name_error, {"xn::align_to", "'h h'"});
    EXPECT_EQ(img.dims(), xn::dims({"?", "h", "w"}));
}

TEST(xnamed_expression, views_are_lazy_and_see_their_source_change)
{
    xt::xarray<double> a = iota({2, 3});
    auto named = xn::name(a, {"h", "w"});
    auto t = named.transpose({"w", "h"});
    auto aligned = named.align_to({"c", "h", "w"});
    a(1, 2) = -1.;
    EXPECT_EQ(t.expression()(2, 1), -1.);
    EXPECT_EQ(aligned.expression()(0, 1, 2), -1.);
}

TEST(xnamed_expression, views_of_a_container_have_its_strides)
{
    xt::xarray<double> a = iota({2, 3, 4});
    auto t = xn::name(a, {"c", "h", "w"}).align_to({"w", "new", "c", "h"});
    const auto& strides = t.expression().strides();
    EXPECT_EQ(strides[0], 1);
    EXPECT_EQ(strides[1], 0);
    EXPECT_EQ(strides[2], 12);
    EXPECT_EQ(strides[3], 4);
    EXPECT_EQ(t.expression().data(), a.data());
}

TEST(xnamed_expression, writing_through_a_view_writes_the_source)
{
    xt::xarray<double> a = iota({2, 3});
    auto named = xn::name(a, {"h", "w"});
    auto t = named.transpose({"w", "h"});
    t.expression()(2, 0) = 99.;
    EXPECT_EQ(a(0, 2), 99.);
}

TEST(xnamed_expression, views_of_an_rvalue_own_it)
{
    auto make = [] { return xn::name(iota({2, 3}), {"h", "w"}).transpose({"w", "h"}).rename({{"w", "x"}}); };
    auto view = make();
    static_assert(!std::is_reference<decltype(view)::closure_type>::value);
    EXPECT_EQ(view.dims(), xn::dims({"x", "h"}));
    EXPECT_EQ(view.expression()(2, 1), 5.);
}

TEST(xnamed_expression, views_of_a_lazy_expression_read_it_without_strides)
{
    xt::xarray<double> a = iota({2, 3});
    auto named = xn::name(a + 100.0, {"h", "w"});
    auto aligned = named.align_to({"w", "batch", "h"});
    for (std::size_t h = 0; h < 2; ++h)
    {
        for (std::size_t w = 0; w < 3; ++w)
        {
            EXPECT_EQ(aligned.expression()(w, 0, h), a(h, w) + 100.);
        }
    }
}

TEST(xnamed_expression, prints_the_axes_with_their_sizes_then_the_values_then_the_labels)
{
    std::ostringstream out;
    out << xn::name(xt::xarray<int>{1, 2}, {"x"});
    EXPECT_EQ(out.str(), "(x: 2)\n{1, 2}");

    std::ostringstream labelled;
    const xt::xarray<double> values = {{1., 2., 3.}, {4., 5., 6.}};
    labelled << xn::name(values, {"sensor", "t"}, {{"sensor", {"p", "q"}}, {"t", {10, 20, 30}}});
    EXPECT_EQ(
        labelled.str(),
        "(sensor: 2, t: 3)\n{{ 1.,  2.,  3.},\n { 4.,  5.,  6.}}\n  sensor: ['p', 'q']\n  t: [10, 20, 30]");

    std::ostringstream partly;
    partly << xn::name(values, {"?", "t"}, {{"t", {10, 20, 30}}}).transpose();
    EXPECT_EQ(partly.str(), "(t: 3, ?: 2)\n{{ 1.,  4.},\n { 2.,  5.},\n { 3.,  6.}}\n  t: [10, 20, 30]");
}

TEST(xnamed_expression, prints_the_first_and_last_labels_and_values_of_a_long_axis)
{
    xn::labels times;
    xn::labels sensors;
    for (std::int64_t i = 0; i < 2000; ++i)
    {
        times.emplace_back(i * 6);
    }
    for (int i = 0; i < 12; ++i)
    {
        sensors.emplace_back("x" + std::to_string(i));
    }
    const xt::xarray<int> values = xt::arange<int>(2000);
    std::ostringstream out;
    out << xn::name(values, {"t"}, {{"t", times}});
    // The values as xtensor prints them, summarised past 1000 elements as numpy's repr is.
    EXPECT_EQ(
        out.str(),
        "(t: 2000)\n{   0,    1,    2, ..., 1997, 1998, 1999}\n  t: [0, 6, 12, ..., 11982, 11988, 11994]");
    const xt::xarray<double> table = xt::zeros<double>({12, 1});
    std::ostringstream labelled;
    labelled << xn::name(table, {"sensor", "?"}, {{"sensor", sensors}});
    EXPECT_EQ(labelled.str().substr(labelled.str().rfind('\n')),
              "\n  sensor: ['x0', 'x1', 'x2', ..., 'x9', 'x10', 'x11']");
}

TEST(xnamed_expression, prints_shapes_and_sizes_by_name)
{
    const xt::xarray<double> values = xt::zeros<double>({2, 3, 4});
    const auto named = xn::name(values, {"n", "?", "w"});
    EXPECT_EQ(xn::shape_to_string(values.shape()), "(2, 3, 4)");
    EXPECT_EQ(xn::shape_to_string(std::vector<std::size_t>{}), "()");
    EXPECT_EQ(xn::sizes_to_string(named), "(n: 2, ?: 3, w: 4)");
    EXPECT_EQ(xn::sizes_to_string(xn::sum(named, {"w"})), "(n: 2, ?: 3)");
}
