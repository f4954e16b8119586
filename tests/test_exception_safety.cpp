/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Bad input never corrupts an operand. Every throwing operation reachable from the
// public API is called here with input it refuses; each test records its operands' full state (names,
// labels, shape, every value, and for containers the address of their buffer) before the call and
// checks it after. xn::assign into an existing container gives the strong guarantee: a refused
// expression leaves the container as it was, buffer included.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    /// Everything observable of an xtensor expression: shape, values, and for a container where its
    /// buffer lives.
    template <class E, class = std::enable_if_t<xt::is_xexpression<E>::value>>
    std::string state_of(const E& a)
    {
        std::ostringstream out;
        out << "shape " << xn::detail::sizes_string(a.shape()) << " values";
        for (const auto& v : a)
        {
            out << " " << v;
        }
        if constexpr (xt::has_data_interface<E>::value)
        {
            out << " at " << static_cast<const void*>(a.data());
        }
        return out.str();
    }

    std::string state_of(const xn::partial_shape& s)
    {
        return s.to_string();
    }

    std::string state_of(const xn::dims& d)
    {
        return d.to_string();
    }

    std::string state_of(const xn::operand& op)
    {
        return op.to_string();
    }

    std::string state_of(const xn::coords& c)
    {
        return c.to_string();
    }

    /// A named expression: its dims, its labels, and the state of what it wraps.
    template <class E, class = std::enable_if_t<xn::is_named_expression_v<E>>, class = void>
    std::string state_of(const E& e)
    {
        return e.dims().to_string() + " " + e.coords().to_string() + " " + state_of(e.expression());
    }

    /// Expects `f` to throw exactly `E`, and every object of `objects` to be as it was before.
    template <class E, class F, class... Objects>
    void expect_refused_and_unchanged(F&& f, const Objects&... objects)
    {
        const std::vector<std::string> before = {state_of(objects)...};
        xn_test::thrown_message<E>(std::forward<F>(f));
        const std::vector<std::string> after = {state_of(objects)...};
        EXPECT_EQ(before, after);
    }

    xt::xarray<double> iota(std::vector<std::size_t> shape)
    {
        xt::xarray<double> a = xt::zeros<double>(shape);
        double v = 1.0;
        for (auto& x : a)
        {
            x = v;
            v += 1.0;
        }
        return a;
    }
} // namespace

// Foundation: dims, partial_shape, plans
// =====================================

TEST(exception_safety, dims_lookups_out_of_range_leave_the_dims_unchanged)
{
    const xn::dims d{"?", "h", "w"};
    expect_refused_and_unchanged<xn::name_error>([&] { return d[3]; }, d);
    expect_refused_and_unchanged<xn::name_error>([&] { return d.is_named(99); }, d);
}

TEST(exception_safety, every_refused_partial_shape_operation_leaves_both_shapes_unchanged)
{
    const auto s = xn::partial_shape::of({2, xn::unknown, 4});
    const auto other = xn::partial_shape::of({3, 3});
    const auto unknown = xn::partial_shape::unknown();
    const auto scalar = xn::partial_shape::scalar();
    const auto huge = xn::partial_shape::of({std::int64_t(1) << 40, std::int64_t(1) << 40});
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.size(3); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.size(-4); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.append(-2); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.prepend(-7); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.append(unknown); }, s, unknown);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.prepend(unknown); }, s, unknown);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.sub_shape(2, 1); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.take(4); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.take_last(-1); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return scalar.head(); }, scalar);
    expect_refused_and_unchanged<xn::shape_error>([&] { return unknown.take(0); }, unknown);
    expect_refused_and_unchanged<xn::shape_error>([&] { return unknown.sizes(); }, unknown);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.merge_with(other); }, s, other);
    expect_refused_and_unchanged<xn::shape_error>([&] { return s.to_concrete(); }, s);
    expect_refused_and_unchanged<xn::shape_error>([&] { return huge.num_elements(); }, huge);
    expect_refused_and_unchanged<xn::shape_error>([&] { return huge.to_concrete(); }, huge);
}

TEST(exception_safety, refused_plans_leave_both_operands_unchanged)
{
    const xn::operand a{xn::partial_shape::of({2, 3}), xn::dims{"x", "y"}};
    const xn::operand b{xn::partial_shape::of({4, 3}), xn::dims{"x", "y"}};
    const xn::operand unnamed = xn::operand::unnamed(xn::partial_shape::of({5}));
    const xn::operand malformed{xn::partial_shape::of({2}), xn::dims{"x", "y"}};
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::numpy>(a, b); }, a, b);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::leading>(a, b); }, a, b);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::missing_dims>(a, b); }, a, b);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::missing_dims>(a, unnamed); },
                                                      a, unnamed);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::name_match>(a, b); }, a, b);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::plan<xn::exact>(a, b); }, a, b);
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::plan<xn::numpy>(a, malformed); }, a,
                                                 malformed);
}

// Named expressions
// =================

TEST(exception_safety, naming_with_the_wrong_number_of_names_leaves_the_array_unchanged)
{
    const xt::xarray<double> values = iota({2, 3});
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::name(values, {"x"}); }, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::name(values, {"x", "y", "z"}); }, values);
}

TEST(exception_safety, naming_with_bad_labels_leaves_the_array_and_the_labels_unchanged)
{
    const xt::xarray<double> values = iota({2, 3});
    const xn::coords too_short{{"y", {10, 20}}};
    const xn::coords on_a_missing_axis{{"z", {1, 2}}};
    expect_refused_and_unchanged<xn::shape_error>(
        [&] {
            return xn::name(values, {"x", "y"}, too_short);
        },
        values, too_short);
    expect_refused_and_unchanged<xn::shape_error>(
        [&] {
            return xn::name(values, {"x", "y"}, on_a_missing_axis);
        },
        values, on_a_missing_axis);
}

TEST(exception_safety, refused_views_leave_the_named_expression_and_its_array_unchanged)
{
    xt::xarray<double> values = iota({2, 3, 4});
    auto a = xn::name(values, {"?", "h", "w"});
    expect_refused_and_unchanged<xn::name_error>([&] { return a.axis("c"); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.size("c"); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.rename({{"c", "d"}}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.rename({{"h", "w"}}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>(
        [&] {
            return a.refine_names({"n", "height", "w"});
        },
        a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.align_to({"w", "w"}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.transpose({"w", "c", "h"}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return a.transpose({"...", "w", "..."}); }, a, values);
}

TEST(exception_safety, refused_selections_leave_the_labelled_expression_unchanged)
{
    xt::xarray<double> values = iota({2, 3});
    auto a = xn::name(values, {"x", "t"}, {{"t", {10, 20, 30}}});
    expect_refused_and_unchanged<xn::shape_error>([&] { return a.sel({{"t", 40}}); }, a, values);
    expect_refused_and_unchanged<xn::shape_error>(
        [&] {
            return a.sel({{"t", xn::labels{20, 99}}});
        },
        a, values);
    expect_refused_and_unchanged<xn::shape_error>([&] { return a.isel({{"t", 3}}); }, a, values);
}

TEST(exception_safety, refused_operators_leave_both_operands_unchanged)
{
    xt::xarray<double> left = iota({2, 3});
    xt::xarray<double> right = iota({4, 3});
    auto a = xn::name(left, {"x", "y"});
    auto b = xn::name(right, {"x", "y"});
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return a + b; }, a, b, left, right);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return a * b; }, a, b, left, right);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return a < b; }, a, b, left, right);
    expect_refused_and_unchanged<xn::broadcast_error>(
        [&] { return xn::apply<xn::exact>(std::plus<>(), a, b); }, a, b, left, right);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::broadcast<xn::numpy>(a, b); }, a, b,
                                                      left, right);
}

TEST(exception_safety, refused_reductions_leave_the_operand_unchanged)
{
    xt::xarray<double> values = iota({2, 3});
    auto a = xn::name(values, {"x", "y"});
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::sum(a, {"z"}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::mean(a, {"x", "x"}); }, a, values);
    expect_refused_and_unchanged<xn::name_error>([&] { return xn::amax(a, {"?"}); }, a, values);
}

// Explicit broadcasts and adjoints
// ================================

TEST(exception_safety, refused_explicit_broadcasts_leave_the_input_unchanged)
{
    const xt::xarray<double> x = iota({3, 1});
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::broadcast_to(x, {4, 2}); }, x);
    expect_refused_and_unchanged<xn::shape_error>([&] { return xn::broadcast_to(x, {3, -2}); }, x);
    expect_refused_and_unchanged<xn::shape_error>(
        [&] { return xn::broadcast_to(x, xn::partial_shape::unknown()); }, x);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::broadcast(x, {3, 2, 5}, {0}); }, x);
    expect_refused_and_unchanged<xn::shape_error>([&] { return xn::broadcast(x, {3, 1, 5}, {2, 2}); }, x);
    expect_refused_and_unchanged<xn::shape_error>(
        [&] {
            return xn::broadcast_in_dim(x, {3, 4, 5}, {2, 0});
        },
        x);
    expect_refused_and_unchanged<xn::broadcast_error>(
        [&] {
            return xn::broadcast_in_dim(x, {4, 5}, {0, 1});
        },
        x);
}

TEST(exception_safety, refused_adjoints_leave_the_gradient_unchanged)
{
    const xt::xarray<double> g = iota({2, 3});
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::sum_to(g, {4}); }, g);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::sum_to(g, {1, 2, 3}); }, g);
    expect_refused_and_unchanged<xn::shape_error>([&] { return xn::reduce_broadcast_axes(g, {2}); }, g);
    expect_refused_and_unchanged<xn::shape_error>([&] { return xn::reduce_broadcast_axes(g, {-1}); }, g);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::sum_in_dim(g, {5}, {1}); }, g);
    expect_refused_and_unchanged<xn::shape_error>([&] { return xn::sum_in_dim(g, {3, 1}, {1, 0}); }, g);
}

TEST(exception_safety, refused_named_broadcasts_and_unbroadcasts_leave_both_operands_unchanged)
{
    xt::xarray<double> bias_values = {1.0, 2.0, 3.0};
    xt::xarray<double> grad_values = iota({4, 2});
    auto bias = xn::name(bias_values, {"feature"});
    auto grad = xn::name(grad_values, {"batch", "feature"});
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::broadcast_like(bias, grad); }, bias,
                                                      grad, bias_values, grad_values);
    expect_refused_and_unchanged<xn::broadcast_error>([&] { return xn::unbroadcast(grad, bias); }, bias, grad,
                                                      bias_values, grad_values);
}

// xn::assign: the strong guarantee
// ================================

TEST(exception_safety, assign_into_a_static_rank_container_of_another_rank_leaves_it_unchanged)
{
    xt::xtensor<double, 2> out = {{1.0, 2.0}, {3.0, 4.0}};
    const xt::xarray<double> e = iota({2, 2, 2});
    expect_refused_and_unchanged<xn::shape_error>([&] { xn::assign(out, e); }, out, e);
    expect_refused_and_unchanged<xn::shape_error>([&] { xn::assign(out, e + 1.0); }, out, e);
}

TEST(exception_safety, assign_into_a_fixed_shape_container_of_another_shape_leaves_it_unchanged)
{
    xt::xtensor_fixed<double, xt::xshape<2, 2>> out = {{1.0, 2.0}, {3.0, 4.0}};
    const xt::xarray<double> before = out;
    const auto* buffer = out.data();
    const xt::xarray<double> e = iota({3, 2});
    xn_test::thrown_message<xn::shape_error>([&] { xn::assign(out, e); });
    EXPECT_EQ(xt::xarray<double>(out), before);
    EXPECT_EQ(out.data(), buffer);
}

TEST(exception_safety, assign_of_other_dims_into_a_named_container_leaves_it_unchanged)
{
    auto out = xn::eval(xn::name(iota({2, 3}), {"x", "y"}));
    xt::xarray<double> values = iota({3, 2});
    auto other_axes = xn::name(values, {"y", "z"});
    expect_refused_and_unchanged<xn::name_error>([&] { xn::assign(out, other_axes); }, out, other_axes,
                                                 values);
    // A plain expression of another rank cannot take the named container's dims.
    const xt::xarray<double> plain = iota({6});
    expect_refused_and_unchanged<xn::shape_error>([&] { xn::assign(out, plain); }, out, plain);
}

TEST(exception_safety, assign_of_a_refused_named_operation_never_reaches_the_container)
{
    // The operation refuses its operands before xn::assign sees it: the container is untouched.
    xt::xarray<double> out = iota({2, 3});
    xt::xarray<double> left = iota({2, 3});
    xt::xarray<double> right = iota({4, 3});
    auto a = xn::name(left, {"x", "y"});
    auto b = xn::name(right, {"x", "y"});
    expect_refused_and_unchanged<xn::broadcast_error>([&] { xn::assign(out, a + b); }, out, left, right);
}

TEST(exception_safety,
     assign_of_a_plain_expression_whose_shapes_do_not_broadcast_leaves_the_container_unchanged)
{
    // xtensor itself refuses the shapes, with its own error type, when xn::assign asks for the shape.
    xt::xarray<double> out = iota({2, 3});
    const xt::xarray<double> left = iota({2, 3});
    const xt::xarray<double> right = iota({4, 3});
    const std::string before = state_of(out);
    EXPECT_THROW(xn::assign(out, left + right), xt::broadcast_error);
    EXPECT_EQ(state_of(out), before);
}

TEST(exception_safety, assign_that_succeeds_resizes_and_writes_the_container)
{
    // The other side of the guarantee: an accepted expression does change the container, so the tests
    // above can tell a refusal from nothing happening.
    xt::xarray<double> out = iota({2, 2});
    const std::string before = state_of(out);
    xn::assign(out, xn::broadcast_to(xt::xarray<double>{7.0, 8.0, 9.0}, {2, 3}));
    EXPECT_NE(state_of(out), before);
    EXPECT_EQ(out, (xt::xarray<double>{{7.0, 8.0, 9.0}, {7.0, 8.0, 9.0}}));
}
