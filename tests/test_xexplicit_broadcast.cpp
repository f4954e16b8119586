/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xexplicit_broadcast.hpp>

#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    xt::xarray<double> make_array(const std::vector<std::int64_t>& shape, const std::vector<double>& values)
    {
        const std::vector<std::size_t> sizes(shape.begin(), shape.end());
        xt::xarray<double> result = xt::zeros<double>(sizes);
        EXPECT_EQ(result.size(), values.size());
        std::copy(values.begin(), values.end(), result.begin());
        return result;
    }

    using sizes_t = std::vector<std::size_t>;

    std::vector<std::size_t> sizes_of(const std::vector<std::int64_t>& shape)
    {
        return std::vector<std::size_t>(shape.begin(), shape.end());
    }

    template <class E>
    std::vector<std::size_t> shape_vector(const E& e)
    {
        return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
    }

    template <class E>
    std::vector<double> values_of(const E& e)
    {
        const xt::xarray<double> evaluated = e;
        return std::vector<double>(evaluated.begin(), evaluated.end());
    }

    std::vector<fixtures::fixture_case> cases_of(const std::string& kind)
    {
        std::vector<fixtures::fixture_case> result;
        for (const auto& c : fixtures::read("broadcasts_explicit.txt"))
        {
            if (c.string("kind") == kind)
            {
                result.push_back(c);
            }
        }
        return result;
    }
} // namespace

// nGraph's Broadcast, verbatim
// ============================

TEST(seed_004, broadcast_with_axis_set_0_repeats_the_row)
{
    // Broadcast(arg, Shape{2, 3}, AxisSet{0}) = [[a, b, c], [a, b, c]]
    const xt::xarray<double> arg = {1., 2., 3.};
    const xt::xarray<double> output = xn::broadcast(arg, {2, 3}, {0});
    const xt::xarray<double> expected = {{1., 2., 3.}, {1., 2., 3.}};
    EXPECT_EQ(output, expected);
}

TEST(seed_004, broadcast_with_axis_set_1_repeats_each_element_along_the_row)
{
    // Broadcast(arg, Shape{3, 2}, AxisSet{1}) = [[a, a], [b, b], [c, c]]
    const xt::xarray<double> arg = {1., 2., 3.};
    const xt::xarray<double> output = xn::broadcast(arg, {3, 2}, {1});
    const xt::xarray<double> expected = {{1., 1.}, {2., 2.}, {3., 3.}};
    EXPECT_EQ(output, expected);
}

TEST(seed_004, output_at_c_is_arg_at_c_without_the_broadcast_axes)
{
    // output_C = arg_p(C), with broadcast_axes {1, 3}: p([d0, d1, d2, d3, d4]) = [d0, d2, d4].
    xt::xarray<double> arg = xt::zeros<double>({2, 3, 2});
    for (std::size_t i = 0; i < arg.size(); ++i)
    {
        arg.flat(i) = static_cast<double>(i) + 0.5;
    }
    const auto output = xn::broadcast(arg, {2, 4, 3, 5, 2}, {3, 1});
    ASSERT_EQ(shape_vector(output), (std::vector<std::size_t>{2, 4, 3, 5, 2}));
    for (std::size_t d0 = 0; d0 < 2; ++d0)
    {
        for (std::size_t d1 = 0; d1 < 4; ++d1)
        {
            for (std::size_t d2 = 0; d2 < 3; ++d2)
            {
                for (std::size_t d3 = 0; d3 < 5; ++d3)
                {
                    for (std::size_t d4 = 0; d4 < 2; ++d4)
                    {
                        EXPECT_EQ(output(d0, d1, d2, d3, d4), arg(d0, d2, d4));
                    }
                }
            }
        }
    }
}

// core.matrix's broadcast, verbatim
// =================================

TEST(seed_003, broadcast_a_length_2_vector_to_a_3x2_matrix)
{
    // (broadcast [1 2] [3 2]) => [1 2] [1 2] [1 2]
    const xt::xarray<double> v = {1., 2.};
    const xt::xarray<double> m = xn::broadcast_to(v, {3, 2});
    const xt::xarray<double> expected = {{1., 2.}, {1., 2.}, {1., 2.}};
    EXPECT_EQ(m, expected);
}

TEST(seed_003, broadcast_a_scalar_to_a_3x2_matrix)
{
    // (broadcast 1.0 [3 2]) => [1.0 1.0] [1.0 1.0] [1.0 1.0]
    const xt::xarray<double> m = xn::broadcast_to(1.0, {3, 2});
    const xt::xarray<double> expected = {{1., 1.}, {1., 1.}, {1., 1.}};
    EXPECT_EQ(m, expected);
}

TEST(seed_003, the_result_has_exactly_the_requested_shape)
{
    // xtensor's own xt::broadcast turns a requested size of 1 into the input's size; numpy refuses.
    const xt::xarray<double> v = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, {1}), xn::broadcast_error,
        "xn::broadcast_to: cannot broadcast the input of shape (3) to the shape (1): input axis 0 "
        "(size 3) lines up with output axis 0 (size 1), and numpy's rule needs equal sizes or an "
        "input size of 1");
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, {4, 3})), (std::vector<std::size_t>{4, 3}));
}

// Against numpy
// =============

TEST(broadcast_to, matches_numpy_broadcast_to)
{
    const auto cases = cases_of("broadcast_to");
    ASSERT_GT(cases.size(), 200u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto input = make_array(c.ints("input_shape"), c.doubles("input"));
        const auto shape = c.ints("shape");
        if (c.ints("ok").front() == 1)
        {
            const auto result = xn::broadcast_to(input, shape);
            EXPECT_EQ(shape_vector(result), sizes_of(shape));
            EXPECT_EQ(values_of(result), c.doubles("expected"));
        }
        else
        {
            EXPECT_THROW((void)xn::broadcast_to(input, shape), xn::broadcast_error);
        }
    }
}

TEST(broadcast, matches_numpy_expand_dims_then_broadcast_to)
{
    const auto cases = cases_of("broadcast");
    ASSERT_GT(cases.size(), 100u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto input = make_array(c.ints("input_shape"), c.doubles("input"));
        const auto result = xn::broadcast(input, c.ints("shape"), c.ints("axes"));
        EXPECT_EQ(shape_vector(result), sizes_of(c.ints("shape")));
        EXPECT_EQ(values_of(result), c.doubles("expected"));
    }
}

TEST(broadcast_in_dim, matches_numpy_expand_dims_then_broadcast_to)
{
    const auto cases = cases_of("broadcast_in_dim");
    ASSERT_GT(cases.size(), 200u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto input = make_array(c.ints("input_shape"), c.doubles("input"));
        if (c.ints("ok").front() == 1)
        {
            const auto result = xn::broadcast_in_dim(input, c.ints("shape"), c.ints("mapping"));
            EXPECT_EQ(shape_vector(result), sizes_of(c.ints("shape")));
            EXPECT_EQ(values_of(result), c.doubles("expected"));
        }
        else
        {
            EXPECT_THROW((void)xn::broadcast_in_dim(input, c.ints("shape"), c.ints("mapping")),
                         xn::broadcast_error);
        }
    }
}

TEST(explicit_broadcasts, evaluate_through_xn_eval_and_xn_assign_to_numpys_values)
{
    // xn::eval and xn::assign take the lazy broadcasts (through the library's kernels where they
    // cover them).
    std::size_t checked = 0;
    for (const auto& c : cases_of("broadcast_to"))
    {
        if (c.ints("ok").front() != 1)
        {
            continue;
        }
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto input = make_array(c.ints("input_shape"), c.doubles("input"));
        const auto evaluated = xn::eval(xn::broadcast_to(input, c.ints("shape")));
        EXPECT_EQ(shape_vector(evaluated), sizes_of(c.ints("shape")));
        EXPECT_EQ(values_of(evaluated), c.doubles("expected"));
        xt::xarray<double> out = xt::zeros<double>({5});
        xn::assign(out, xn::broadcast_to(input, c.ints("shape")));
        EXPECT_EQ(shape_vector(out), sizes_of(c.ints("shape")));
        EXPECT_EQ(values_of(out), c.doubles("expected"));
        ++checked;
    }
    for (const auto& c : cases_of("broadcast"))
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto input = make_array(c.ints("input_shape"), c.doubles("input"));
        const auto evaluated = xn::eval(xn::broadcast(input, c.ints("shape"), c.ints("axes")));
        EXPECT_EQ(values_of(evaluated), c.doubles("expected"));
        ++checked;
    }
    EXPECT_GT(checked, 300u);
}

// Laziness and closures
// =====================

TEST(broadcast_to, is_a_view_of_an_lvalue_input)
{
    xt::xarray<double> v = {1., 2.};
    const auto m = xn::broadcast_to(v, {3, 2});
    v(1) = 7.;
    EXPECT_EQ(m(2, 1), 7.);
    EXPECT_EQ(m(0, 1), 7.);
}

TEST(broadcast, is_a_view_of_an_lvalue_input)
{
    xt::xarray<double> v = {1., 2., 3.};
    const auto m = xn::broadcast(v, {3, 2}, {1});
    v(2) = -4.;
    EXPECT_EQ(m(2, 0), -4.);
    EXPECT_EQ(m(2, 1), -4.);
}

TEST(broadcast_in_dim, is_a_view_of_an_lvalue_input)
{
    xt::xarray<double> x = xt::zeros<double>({3, 1});
    const auto y = xn::broadcast_in_dim(x, {3, 4, 5}, {0, 2});
    x(1, 0) = 9.;
    EXPECT_EQ(y(1, 3, 4), 9.);
    EXPECT_EQ(y(0, 3, 4), 0.);
}

TEST(broadcast_to, owns_an_rvalue_input)
{
    auto m = xn::broadcast_to(xt::xarray<double>{5., 6.}, {2, 2});
    // The temporary is gone; the view kept its own copy (ASan checks the reads).
    const xt::xarray<double> expected = {{5., 6.}, {5., 6.}};
    EXPECT_EQ(xt::xarray<double>(m), expected);
}

TEST(broadcast, owns_an_rvalue_input)
{
    auto m = xn::broadcast(xt::xarray<double>{5., 6.}, {2, 2}, {1});
    const xt::xarray<double> expected = {{5., 5.}, {6., 6.}};
    EXPECT_EQ(xt::xarray<double>(m), expected);
}

TEST(broadcast_in_dim, owns_an_rvalue_input)
{
    auto m = xn::broadcast_in_dim(xt::xarray<double>{5., 6.}, {2, 3}, {0});
    const xt::xarray<double> expected = {{5., 5., 5.}, {6., 6., 6.}};
    EXPECT_EQ(xt::xarray<double>(m), expected);
}

TEST(broadcast_in_dim, broadcasts_an_unevaluated_expression)
{
    const xt::xarray<double> x = {1., 2.};
    const xt::xarray<double> y = xn::broadcast_in_dim(x * 10. + 1., {2, 3}, {0});
    const xt::xarray<double> expected = {{11., 11., 11.}, {21., 21., 21.}};
    EXPECT_EQ(y, expected);
}

TEST(broadcast_in_dim, reads_an_unevaluated_input_right_under_xtensor_reducers)
{
    // An input without a data interface is read by index: under xtensor 0.24's reducers a strided view
    // over it would give wrong sums for every axis but the last.
    xt::xarray<double> a = xt::zeros<double>({3, 4});
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        a.flat(i) = static_cast<double>(i * i % 7);
    }
    for (std::size_t axis = 0; axis < 3; ++axis)
    {
        SCOPED_TRACE("axis " + std::to_string(axis));
        const xt::xarray<double> lazy = xt::sum(xn::broadcast_in_dim(a * 2., {3, 2, 4}, {0, 2}), {axis});
        const xt::xarray<double> seed004 = xt::sum(xn::broadcast(a * 2., {3, 2, 4}, {1}), {axis});
        // The reference: the same broadcast of the evaluated input, summed by a plain loop.
        const xt::xarray<double> evaluated = a * 2.;
        sizes_t out_shape{3, 2, 4};
        out_shape.erase(out_shape.begin() + static_cast<std::ptrdiff_t>(axis));
        xt::xarray<double> expected = xt::zeros<double>(out_shape);
        for (std::size_t i = 0; i < 3; ++i)
        {
            for (std::size_t j = 0; j < 2; ++j)
            {
                for (std::size_t k = 0; k < 4; ++k)
                {
                    const std::size_t index[3] = {i, j, k};
                    std::vector<std::size_t> kept;
                    for (std::size_t d = 0; d < 3; ++d)
                    {
                        if (d != axis)
                        {
                            kept.push_back(index[d]);
                        }
                    }
                    expected.element(kept.begin(), kept.end()) += evaluated(i, k);
                }
            }
        }
        EXPECT_EQ(lazy, expected);
        EXPECT_EQ(seed004, expected);
    }
}

TEST(broadcast_to, takes_shapes_as_vectors_arrays_xtensor_shapes_and_partial_shapes)
{
    const xt::xarray<double> v = {1., 2.};
    const xt::xarray<double> target = xt::zeros<double>({3, 2});
    const std::vector<std::size_t> expected{3, 2};
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, std::vector<std::int64_t>{3, 2})), expected);
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, std::vector<std::size_t>{3, 2})), expected);
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, std::array<int, 2>{3, 2})), expected);
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, target.shape())), expected);
    EXPECT_EQ(shape_vector(xn::broadcast_to(v, xn::partial_shape::of({3, 2}))), expected);
}

TEST(explicit_broadcasts, give_read_only_elements_through_a_non_const_view)
{
    // Writing through the view does not compile, with one static_assert sentence
    // (tests/compile_fail/write_through_broadcast_to.cpp and its neighbours): a non-const view gives an
    // element that only converts to the value, a const view xtensor's const reference.
    const xt::xarray<double> v = {1., 2.};
    auto a = xn::broadcast_to(v, {3, 2});
    auto b = xn::broadcast(v, {3, 2}, {0});
    auto c = xn::broadcast_in_dim(v, {2, 3}, {0});
    auto d = xn::broadcast_like(xn::name(v, {"x"}), xn::operand{xn::partial_shape::of({2, 3}), {"x", "y"}});
    using element = xn::detail::xreadonly_element<const double&>;
    const std::vector<std::size_t> index = {1, 1};
    EXPECT_TRUE((std::is_same<decltype(a(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(b(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(c(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(d.expression()(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a[index]), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a[{1, 1}]), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a[0]), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.at(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.unchecked(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.periodic(0, 0)), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.element(index.begin(), index.end())), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.front()), element>::value));
    EXPECT_TRUE((std::is_same<decltype(a.back()), element>::value));
    EXPECT_TRUE((std::is_same<decltype(std::as_const(a)(0, 0)), const double&>::value));
    EXPECT_TRUE((std::is_same<decltype(std::as_const(a)[index]), const double&>::value));
    EXPECT_TRUE((std::is_same<decltype(std::as_const(a).at(0, 0)), const double&>::value));
    EXPECT_TRUE((std::is_same<decltype(std::move(a)(0, 0)), const double&>::value));
    EXPECT_TRUE((std::is_same<decltype(*a.begin()), const double&>::value));
}

TEST(explicit_broadcasts, read_elements_through_a_non_const_view)
{
    const xt::xarray<double> v = {1., 2.};
    auto a = xn::broadcast_to(v, {3, 2});
    auto d = xn::broadcast_like(xn::name(v, {"x"}), xn::operand{xn::partial_shape::of({2, 3}), {"x", "y"}});
    const std::vector<std::size_t> index = {2, 1};
    const double element = a(2, 1);
    EXPECT_EQ(element, 2.);
    EXPECT_EQ(a(1, 0), 1.);
    EXPECT_EQ(a(1, 0) + a(1, 1), 3.);
    EXPECT_EQ(a[index], 2.);
    EXPECT_EQ((a[{0, 1}]), 2.);
    EXPECT_EQ(a[1], 2.);
    EXPECT_EQ(a.at(2, 0), 1.);
    EXPECT_EQ(a.unchecked(1, 1), 2.);
    EXPECT_EQ(a.periodic(4, 3), 2.);
    EXPECT_EQ(a.element(index.begin(), index.end()), 2.);
    EXPECT_EQ(a.front(), 1.);
    EXPECT_EQ(a.back(), 2.);
    EXPECT_EQ(d.expression()(1, 2), 2.);
    EXPECT_THROW(a.at(3, 0), std::out_of_range);
}

TEST(explicit_broadcasts, stay_xtensor_expressions_that_mix_with_xtensor_code)
{
    const xt::xarray<double> v = {1., 2., 3.};
    auto rows = xn::broadcast_to(v, {2, 3});
    const xt::xarray<double> expected = {{1., 2., 3.}, {1., 2., 3.}};
    EXPECT_TRUE(xt::is_xexpression<decltype(rows)>::value);
    using base = typename decltype(rows)::base_type;
    EXPECT_TRUE((std::is_base_of<xt::xexpression<base>, decltype(rows)>::value));
    const xt::xarray<double> offsets = {{10., 20., 30.}, {40., 50., 60.}};
    EXPECT_EQ(xt::xarray<double>(rows + offsets), offsets + expected);
    EXPECT_EQ(xt::xarray<double>(xt::eval(rows)), expected);
    xt::xarray<double> out = xt::zeros<double>({2, 3});
    xt::noalias(out) = rows * 2.;
    EXPECT_EQ(out, expected * 2.);
    // Views over the non-const view read its elements as xtensor's const references.
    auto second_row = xt::view(rows, 1, xt::all());
    EXPECT_EQ(second_row(2), 3.);
    EXPECT_EQ(xt::xarray<double>(xt::transpose(rows)), xt::xarray<double>(xt::transpose(expected)));
    EXPECT_EQ(xt::xarray<double>(xt::strided_view(rows, {1, xt::all()})), (xt::xarray<double>{1., 2., 3.}));
    EXPECT_EQ(xt::xarray<double>(xt::index_view(rows, {{1, 2}, {0, 1}})), (xt::xarray<double>{3., 2.}));
    EXPECT_EQ(xt::sum(rows)(), 12.);
    EXPECT_EQ(xt::xarray<double>(xt::sum(rows, {0})), (xt::xarray<double>{2., 4., 6.}));
    EXPECT_EQ(std::vector<double>(rows.begin(), rows.end()), (std::vector<double>{1., 2., 3., 1., 2., 3.}));
    const auto named = xn::name(rows, {"batch", "feature"});
    EXPECT_EQ(xt::xarray<double>(xn::eval(named).expression()), expected);
    xn::assign(out, rows);
    EXPECT_EQ(out, expected);
}

TEST(explicit_broadcasts, are_evaluated_by_the_librarys_kernels)
{
    // Materialising a broadcast runs in the library's loops, for every explicit broadcast.
    const xt::xarray<double> v = {1., 2., 3.};
    xt::xarray<double> out = xt::zeros<double>({2, 3});
    const xt::xarray<double> expected = {{1., 2., 3.}, {1., 2., 3.}};
    ASSERT_TRUE(xn::detail::try_kernel_assign(out, xn::broadcast_to(v, {2, 3})));
    EXPECT_EQ(out, expected);
    out.fill(0.);
    ASSERT_TRUE(xn::detail::try_kernel_assign(out, xn::broadcast(v, {2, 3}, {0}) + 0.));
    EXPECT_EQ(out, expected);
    out.fill(0.);
    ASSERT_TRUE(xn::detail::try_kernel_assign(out, xn::broadcast_in_dim(v, {2, 3}, {1}) * 1.));
    EXPECT_EQ(out, expected);
    const xn::operand target{xn::partial_shape::of({2, 3}), {"b", "f"}};
    auto like = xn::broadcast_like(xn::name(v, {"f"}), target);
    out.fill(0.);
    ASSERT_TRUE(xn::detail::try_kernel_assign(out, like.expression()));
    EXPECT_EQ(out, expected);
}

TEST(broadcast_to, stretches_a_size_1_axis_to_size_0)
{
    const xt::xarray<double> v = xt::ones<double>({1, 2});
    const auto m = xn::broadcast_to(v, {0, 2});
    EXPECT_EQ(shape_vector(m), (std::vector<std::size_t>{0, 2}));
    EXPECT_EQ(xt::xarray<double>(m).size(), 0u);
}

// Bad input
// =========

TEST(broadcast_to, refuses_a_size_that_neither_matches_nor_is_1)
{
    const xt::xarray<double> v = xt::zeros<double>({3, 2});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, {4, 3}), xn::broadcast_error,
        "xn::broadcast_to: cannot broadcast the input of shape (3, 2) to the shape (4, 3): input "
        "axis 0 (size 3) lines up with output axis 0 (size 4), and numpy's rule needs equal sizes "
        "or an input size of 1");
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, {3, 3}), xn::broadcast_error,
        "xn::broadcast_to: cannot broadcast the input of shape (3, 2) to the shape (3, 3): input "
        "axis 1 (size 2) lines up with output axis 1 (size 3), and numpy's rule needs equal sizes "
        "or an input size of 1");
}

TEST(broadcast_to, refuses_a_target_of_lower_rank)
{
    const xt::xarray<double> v = xt::zeros<double>({2, 3, 4});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, {3, 4}), xn::broadcast_error,
        "xn::broadcast_to: cannot broadcast the input of shape (2, 3, 4) to the shape (3, 4): "
        "the input has rank 3, more than the target's 2");
}

TEST(broadcast_to, its_broadcast_error_is_an_xtensor_broadcast_error)
{
    const xt::xarray<double> v = {1., 2., 3.};
    EXPECT_THROW((void)xn::broadcast_to(v, {2}), xt::broadcast_error);
}

TEST(broadcast_to, refuses_an_unknown_size_where_a_concrete_shape_is_needed)
{
    const xt::xarray<double> v = {1., 2.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, xn::partial_shape::of({3, xn::unknown})), xn::shape_error,
        "xn::broadcast_to: the shape (3, ?) has an unknown size at axis 1 where a concrete shape is "
        "needed");
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, {xn::unknown, 2}), xn::shape_error,
        "xn::broadcast_to: the shape (?, 2) has an unknown size at axis 0 where a concrete shape is "
        "needed");
}

TEST(broadcast_to, refuses_an_unknown_rank)
{
    const xt::xarray<double> v = {1., 2.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, xn::partial_shape::unknown()), xn::shape_error,
        "xn::broadcast_to: the shape <unknown> has an unknown rank where a concrete shape is needed");
}

TEST(broadcast_to, refuses_a_negative_size)
{
    const xt::xarray<double> v = {1., 2.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, std::vector<int>{-3, 2}), xn::shape_error,
        "xn::broadcast_to: the shape (-3, 2) has the negative size -3 at axis 0 (only xn::unknown, "
        "-1, marks an unknown size, and it is not allowed here)");
}

TEST(broadcast_to, refuses_a_size_that_wrapped_around)
{
    const xt::xarray<double> v = {1., 2.};
    const std::vector<std::size_t> shape{std::numeric_limits<std::size_t>::max(), 2};
    XN_EXPECT_THROW_MSG(
        xn::broadcast_to(v, shape), xn::shape_error,
        "xn::broadcast_to: in the shape (18446744073709551615, 2), the value 18446744073709551615 at "
        "position 0 is larger than the largest size or axis, 9223372036854775807");
}

TEST(broadcast, refuses_shapes_that_do_not_fit_naming_all_three)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 4}, {0}), xn::broadcast_error,
        "xn::broadcast: the input of shape (3) does not fit the shape (2, 4) with broadcast axes "
        "{0}: input axis 0 has size 3 but output axis 1 has size 4; without its broadcast axes the "
        "shape is (4), and it must equal the input's shape exactly");
}

TEST(broadcast, refuses_a_size_1_input_axis_it_would_have_to_stretch)
{
    // nGraph's Broadcast matches the shapes exactly: no size-1 stretching (broadcast_in_dim stretches).
    const xt::xarray<double> arg = xt::zeros<double>({1, 3});
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 2, 3}, {0}), xn::broadcast_error,
        "xn::broadcast: the input of shape (1, 3) does not fit the shape (2, 2, 3) with broadcast "
        "axes {0}: input axis 0 has size 1 but output axis 1 has size 2; without its broadcast axes "
        "the shape is (2, 3), and it must equal the input's shape exactly");
}

TEST(broadcast, refuses_a_rank_that_does_not_fit)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 3}, {0, 1}), xn::broadcast_error,
        "xn::broadcast: the input of shape (3) does not fit the shape (2, 3) with broadcast axes "
        "{0, 1}: without its broadcast axes the shape is (), of rank 0, but the input has rank 1; it "
        "must equal the input's shape exactly");
}

TEST(broadcast, refuses_an_axis_out_of_range)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 3}, {2}), xn::shape_error,
        "xn::broadcast: axis 2 at position 0 of the broadcast axes {2} is out of range for the "
        "output shape (2, 3) of rank 2");
}

TEST(broadcast, refuses_a_repeated_axis)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 2, 3}, {1, 0, 1}), xn::shape_error,
        "xn::broadcast: axis 1 appears twice in the broadcast axes {1, 0, 1}, at positions 0 and 2");
}

TEST(broadcast, refuses_a_negative_axis)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, {2, 3}, {-2}), xn::shape_error,
        "xn::broadcast: axis -2 at position 0 of the broadcast axes {-2} is negative: axes count "
        "from 0 and negative axes are not accepted");
}

TEST(broadcast, refuses_an_unknown_size)
{
    const xt::xarray<double> arg = {1., 2., 3.};
    XN_EXPECT_THROW_MSG(
        xn::broadcast(arg, xn::partial_shape::of({xn::unknown, 3}), {0}), xn::shape_error,
        "xn::broadcast: the shape (?, 3) has an unknown size at axis 0 where a concrete shape is "
        "needed");
}

TEST(broadcast_in_dim, refuses_a_size_that_neither_matches_nor_is_1)
{
    const xt::xarray<double> x = xt::zeros<double>({3, 1});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4, 2}, {1, 2}), xn::broadcast_error,
        "xn::broadcast_in_dim: the input of shape (3, 1) does not fit the shape (3, 4, 2) with "
        "mapping {1, 2}: input axis 0 (size 3) goes to output axis 1 (size 4); a size must equal its "
        "output axis' size or be 1");
}

TEST(broadcast_in_dim, refuses_a_mapping_that_is_not_strictly_increasing)
{
    const xt::xarray<double> x = xt::zeros<double>({3, 1});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4, 2}, {2, 0}), xn::shape_error,
        "xn::broadcast_in_dim: the mapping {2, 0} is not strictly increasing: input axis 1 goes to "
        "output axis 0, which does not come after output axis 2 of input axis 0 (input shape (3, 1), "
        "output shape (3, 4, 2))");
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4, 2}, {1, 1}), xn::shape_error,
        "xn::broadcast_in_dim: the mapping {1, 1} is not strictly increasing: input axis 1 goes to "
        "output axis 1, which does not come after output axis 1 of input axis 0 (input shape (3, 1), "
        "output shape (3, 4, 2))");
}

TEST(broadcast_in_dim, refuses_a_mapping_of_the_wrong_length)
{
    const xt::xarray<double> x = xt::zeros<double>({3, 1});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4, 2}, {0}), xn::shape_error,
        "xn::broadcast_in_dim: the mapping {0} has length 1, but the input has 2 axes: it needs one "
        "output axis per input axis (input shape (3, 1), output shape (3, 4, 2))");
}

TEST(broadcast_in_dim, refuses_an_axis_out_of_range_or_negative)
{
    const xt::xarray<double> x = xt::zeros<double>({3, 1});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4}, {0, 2}), xn::shape_error,
        "xn::broadcast_in_dim: axis 2 at position 1 of the mapping {0, 2} is out of range for the "
        "output shape of rank 2");
    XN_EXPECT_THROW_MSG(
        xn::broadcast_in_dim(x, {3, 4}, {-1, 1}), xn::shape_error,
        "xn::broadcast_in_dim: axis -1 at position 0 of the mapping {-1, 1} is negative: axes count "
        "from 0 and negative axes are not accepted");
}

TEST(explicit_broadcasts, leave_the_input_untouched_after_an_error)
{
    xt::xarray<double> x = {{1., 2.}, {3., 4.}};
    const xt::xarray<double> before = x;
    EXPECT_THROW((void)xn::broadcast_to(x, {3, 3}), xn::broadcast_error);
    EXPECT_THROW((void)xn::broadcast(x, {2, 2, 2}, {0, 0}), xn::shape_error);
    EXPECT_THROW((void)xn::broadcast(x, {2, 2, 3}, {0}), xn::broadcast_error);
    EXPECT_THROW((void)xn::broadcast_in_dim(x, {2, 2}, {1, 0}), xn::shape_error);
    EXPECT_THROW((void)xn::broadcast_in_dim(x, {2, 3}, {0, 1}), xn::broadcast_error);
    EXPECT_EQ(x, before);
    EXPECT_EQ(shape_vector(x), (std::vector<std::size_t>{2, 2}));
}

// Named: broadcast_like
// =====================

TEST(broadcast_like, gives_the_targets_dims_and_shape)
{
    const xt::xarray<double> bias_values = {1., 2., 3.};
    const xt::xarray<double> x_values = xt::zeros<double>({4, 3});
    const auto bias = xn::name(bias_values, {"feature"});
    const auto x = xn::name(x_values, {"batch", "feature"});
    const auto b = xn::broadcast_like(bias, x);
    EXPECT_EQ(b.dims(), (xn::dims{"batch", "feature"}));
    EXPECT_EQ(shape_vector(b), (std::vector<std::size_t>{4, 3}));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(b.expression()(i, j), bias_values(j));
        }
    }
}

TEST(broadcast_like, permutes_named_axes_into_the_targets_order)
{
    const xt::xarray<double> values = {{1., 2., 3.}, {4., 5., 6.}};
    const auto a = xn::name(values, {"w", "h"});
    const auto target = xn::name(xt::xarray<double>(xt::zeros<double>({3, 5, 2})), {"h", "c", "w"});
    const auto result = xn::broadcast_like(a, target);
    EXPECT_EQ(result.dims(), (xn::dims{"h", "c", "w"}));
    ASSERT_EQ(shape_vector(result), (std::vector<std::size_t>{3, 5, 2}));
    for (std::size_t h = 0; h < 3; ++h)
    {
        for (std::size_t c = 0; c < 5; ++c)
        {
            for (std::size_t w = 0; w < 2; ++w)
            {
                EXPECT_EQ(result.expression()(h, c, w), values(w, h));
            }
        }
    }
}

TEST(broadcast_like, stretches_size_1_axes_under_a_stretching_strategy)
{
    const xt::xarray<double> values = xt::xtensor<double, 2>{{1.}, {2.}};
    const auto a = xn::name<xn::numpy>(values, {"?", "?"});
    const auto target =
        xn::name<xn::numpy>(xt::xarray<double>(xt::zeros<double>({4, 2, 3})), {"?", "?", "?"});
    const auto result = xn::broadcast_like(a, target);
    ASSERT_EQ(shape_vector(result), (std::vector<std::size_t>{4, 2, 3}));
    EXPECT_EQ(result.expression()(3, 1, 2), 2.);
    EXPECT_EQ(result.expression()(0, 0, 1), 1.);
}

TEST(broadcast_like, follows_the_inputs_strategy_that_stretches_nothing)
{
    // xn::missing_dims, as xarray, does not stretch a shared size-1 axis; basic_missing_dims<true> does.
    const xt::xarray<double> values = xt::ones<double>({1});
    const auto target = xn::name(xt::xarray<double>(xt::zeros<double>({2, 3})), {"x", "y"});
    XN_EXPECT_THROW_HAS(
        xn::broadcast_like(xn::name(values, {"y"}), target), xn::broadcast_error,
        {"xn::broadcast_like: cannot broadcast (y) with shape (1) to (x, y) with shape (2, 3): "
         "xn::missing_dims: ",
         "axis 'y' (axis 1)", "size 1"});
    const auto stretched = xn::broadcast_like(xn::name<xn::basic_missing_dims<true>>(values, {"y"}), target);
    EXPECT_EQ(shape_vector(stretched), (std::vector<std::size_t>{2, 3}));
}

TEST(broadcast_like, takes_an_operand_as_the_target)
{
    const auto a = xn::name(xt::xarray<double>{1., 2.}, {"w"});
    const auto result = xn::broadcast_like(a, xn::operand{xn::partial_shape::of({2, 3}), {"w", "z"}});
    EXPECT_EQ(result.dims(), (xn::dims{"w", "z"}));
    const xt::xarray<double> expected = {{1., 1., 1.}, {2., 2., 2.}};
    EXPECT_EQ(xt::xarray<double>(result.expression()), expected);
}

TEST(broadcast_like, is_a_lazy_view_of_an_lvalue_input)
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"w"});
    const auto result = xn::broadcast_like(a, xn::operand{xn::partial_shape::of({3, 2}), {"z", "w"}});
    values(0) = 8.;
    EXPECT_EQ(result.expression()(2, 0), 8.);
    EXPECT_TRUE((std::is_const<std::remove_reference_t<decltype(result.expression()(0, 0))>>::value));
}

TEST(broadcast_like, owns_an_rvalue_input)
{
    auto result = xn::broadcast_like(xn::name(xt::xarray<double>{1., 2.} * 3., {"w"}),
                                     xn::operand{xn::partial_shape::of({2, 2}), {"z", "w"}});
    const xt::xarray<double> expected = {{3., 6.}, {3., 6.}};
    EXPECT_EQ(xt::xarray<double>(result.expression()), expected);
}

TEST(broadcast_like, refuses_an_input_axis_the_target_lacks)
{
    const auto a = xn::name(xt::xarray<double>(xt::zeros<double>({2, 4})), {"x", "z"});
    const auto target = xn::name(xt::xarray<double>(xt::zeros<double>({2, 3})), {"x", "y"});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_like(a, target), xn::broadcast_error,
        "xn::broadcast_like: cannot broadcast (x, z) with shape (2, 4) to (x, y) with shape (2, 3): "
        "axis 'z' (axis 1) of (x, z) finds no axis of (x, y) to land on (the broadcast would give "
        "(x, y, z) with shape (2, 3, 4))");
}

TEST(broadcast_like, refuses_a_size_that_would_stretch_the_target)
{
    const auto a = xn::name<xn::numpy>(xt::xarray<double>(xt::zeros<double>({3})), {"?"});
    const auto target = xn::name<xn::numpy>(xt::xarray<double>(xt::zeros<double>({2, 1})), {"?", "?"});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_like(a, target), xn::broadcast_error,
        "xn::broadcast_like: cannot broadcast (?) with shape (3) to (?, ?) with shape (2, 1): "
        "unnamed axis 0 of (?) has size 3 but lands on unnamed axis 1 of (?, ?), of size 1; a size "
        "must be equal or 1");
}

TEST(broadcast_like, refuses_a_target_operand_of_unknown_size)
{
    const auto a = xn::name(xt::xarray<double>{1., 2.}, {"w"});
    XN_EXPECT_THROW_MSG(
        xn::broadcast_like(a, xn::operand{xn::partial_shape::of({xn::unknown, 2}), {"z", "w"}}),
        xn::shape_error,
        "xn::broadcast_like: the shape (?, 2) has an unknown size at axis 0 where a concrete shape "
        "is needed");
}

TEST(broadcast_like, leaves_both_operands_untouched_after_an_error)
{
    xt::xarray<double> a_values = {1., 2., 3.};
    xt::xarray<double> t_values = xt::zeros<double>({2, 2});
    const auto a = xn::name(a_values, {"w"});
    const auto target = xn::name(t_values, {"z", "w"});
    EXPECT_THROW((void)xn::broadcast_like(a, target), xn::broadcast_error);
    EXPECT_EQ(a.dims(), (xn::dims{"w"}));
    EXPECT_EQ(target.dims(), (xn::dims{"z", "w"}));
    EXPECT_EQ(a_values, (xt::xarray<double>{1., 2., 3.}));
    EXPECT_EQ(t_values, (xt::xarray<double>(xt::zeros<double>({2, 2}))));
}
