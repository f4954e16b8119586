/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Every message names the operation, the axes (by name and position) and the sizes
// involved, in every build type. One test per kind of error across the public API; each checks the
// exact error type and that the message holds each of those parts, so that a user reading one line
// knows what to fix.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    // The operands of the image and label-map example.
    const xn::operand img{xn::partial_shape::of({10, 3, 256, 384}), xn::dims{"?", "channel", "h", "w"}};
    const xn::operand wide_lbl{xn::partial_shape::of({10, 256, 385}), xn::dims{"?", "h", "w"}};

    xn::operand operand(std::initializer_list<std::int64_t> shape, xn::dims names)
    {
        return xn::operand{xn::partial_shape::of(shape), std::move(names)};
    }

    xt::xarray<double> zeros(std::vector<std::size_t> shape)
    {
        return xt::zeros<double>(shape);
    }
} // namespace

// Names
// =====

TEST(error_messages, an_invalid_axis_name_is_named_with_its_position_and_the_rule)
{
    XN_EXPECT_THROW_HAS(xn::dims({"x", "1x"}), xn::name_error,
                        {"xn::dims", "'1x'", "axis 1", "[A-Za-z_][A-Za-z0-9_]*"});
}

TEST(error_messages, an_invalid_name_with_control_characters_is_printed_escaped)
{
    XN_EXPECT_THROW_HAS(xn::dims({"a\nb"}), xn::name_error, {"xn::dims", "'a\\x0ab'", "axis 0"});
}

TEST(error_messages, a_duplicate_axis_name_gives_both_positions_and_the_dims)
{
    XN_EXPECT_THROW_HAS(xn::dims({"x", "y", "x"}), xn::name_error,
                        {"xn::dims", "'x'", "axes 0 and 2", "(x, y, x)"});
}

TEST(error_messages, a_dims_position_out_of_range_gives_the_position_the_dims_and_the_rank)
{
    XN_EXPECT_THROW_HAS((xn::dims{"x", "y"})[5], xn::name_error, {"xn::dims", "axis 5", "(x, y)", "rank 2"});
}

// Partial shapes
// ==============

TEST(error_messages, a_negative_size_gives_the_size_and_its_axis)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, -3}), xn::shape_error,
                        {"xn::partial_shape::of", "-3", "axis 1", "xn::unknown"});
}

TEST(error_messages, an_index_out_of_range_gives_the_index_the_shape_and_the_rank)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, 3}).size(-3), xn::shape_error,
                        {"xn::partial_shape::size", "axis -3", "(2, 3)", "rank 2"});
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, 3}).sub_shape(1, 5), xn::shape_error,
                        {"xn::partial_shape::sub_shape", "[1, 5)", "(2, 3)", "rank 2"});
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, 3}).take(4), xn::shape_error,
                        {"xn::partial_shape::take", "4", "(2, 3)", "rank 2"});
}

TEST(error_messages, an_unknown_rank_where_a_rank_is_needed_names_the_operation)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::unknown().append(2), xn::shape_error,
                        {"xn::partial_shape::append", "<unknown>", "rank"});
}

TEST(error_messages, an_impossible_merge_gives_the_axis_and_both_sizes)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, 3}).merge_with(xn::partial_shape::of({2, 4})),
                        xn::shape_error,
                        {"xn::partial_shape::merge_with", "(2, 3)", "(2, 4)", "axis 1", "size 3", "4"});
}

TEST(error_messages, an_unknown_size_where_a_concrete_one_is_needed_names_the_caller_and_the_shape)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({2, xn::unknown}).to_concrete("eval"), xn::shape_error,
                        {"xn::eval", "(2, ?)", "unknown"});
    XN_EXPECT_THROW_HAS(xn::broadcast_to(1.0, {2, xn::unknown}), xn::shape_error,
                        {"xn::broadcast_to", "(2, ?)", "axis 1"});
}

TEST(error_messages, an_overflowing_element_count_gives_the_shape)
{
    XN_EXPECT_THROW_HAS(xn::partial_shape::of({std::int64_t(1) << 62, 4}).num_elements(), xn::shape_error,
                        {"xn::partial_shape::num_elements", "(4611686018427387904, 4)", "overflows"});
}

// Strategies and plans
// ====================

TEST(error_messages, an_operand_with_as_many_names_as_axes_is_required_by_plan)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::numpy>(operand({2}, {"x", "y"}), img), xn::name_error,
                        {"xn::plan", "2 names", "(x, y)", "1 axes", "(2)"});
}

TEST(error_messages, an_operand_of_unknown_rank_is_refused_naming_the_strategy_and_the_side)
{
    XN_EXPECT_THROW_HAS(
        xn::plan<xn::numpy>(xn::operand::unnamed(xn::partial_shape::unknown()), img), xn::broadcast_error,
        {"xn::numpy", "left operand", "unknown", "(?, channel, h, w) with shape (10, 3, 256, 384)"});
}

TEST(error_messages, a_numpy_size_refusal_gives_both_axes_by_name_and_position_both_sizes_and_both_operands)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::numpy>(img, wide_lbl), xn::broadcast_error,
                        {"xn::numpy", "axis 'channel' (axis 1) of (?, channel, h, w) has size 3",
                         "unnamed axis 0 of (?, h, w) has size 10", "neither is 1",
                         "(?, channel, h, w) with shape (10, 3, 256, 384)",
                         "(?, h, w) with shape (10, 256, 385)"});
}

TEST(error_messages, a_numpy_name_refusal_gives_both_axes_and_both_names)
{
    XN_EXPECT_THROW_HAS(
        xn::plan<xn::numpy>(operand({2, 3}, {"x", "y"}), operand({2, 3}, {"x", "z"})), xn::broadcast_error,
        {"xn::numpy", "axis 'y' (axis 1) of (x, y)", "axis 'z' (axis 1) of (x, z)", "names differ"});
}

TEST(error_messages, a_leading_refusal_says_that_nothing_stretches)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::leading>(xn::operand::unnamed(xn::partial_shape::of({1, 3})),
                                              xn::operand::unnamed(xn::partial_shape::of({2, 3, 3, 3}))),
                        xn::broadcast_error,
                        {"xn::leading", "unnamed axis 0", "has size 1", "has size 3", "stretches none"});
}

TEST(error_messages, a_missing_dims_size_refusal_gives_the_shared_axis_both_positions_and_sizes)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::missing_dims>(operand({2, 3}, {"x", "y"}), operand({1}, {"y"})),
                        xn::broadcast_error,
                        {"xn::missing_dims", "axis 'y' (axis 1) of (x, y) has size 3",
                         "axis 'y' (axis 0) of (y) has size 1", "basic_missing_dims<true>"});
}

TEST(error_messages, a_stretching_missing_dims_refusal_names_its_own_strategy)
{
    XN_EXPECT_THROW_HAS(
        xn::plan<xn::basic_missing_dims<true>>(operand({2, 3}, {"x", "y"}), operand({4}, {"y"})),
        xn::broadcast_error,
        {"xn::basic_missing_dims<true>", "axis 'y' (axis 1)", "size 3", "axis 'y' (axis 0)", "size 4"});
}

TEST(error_messages, a_missing_dims_refusal_of_an_unnamed_axis_gives_its_position_and_the_fix)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::missing_dims>(img, wide_lbl), xn::broadcast_error,
        "xn::missing_dims: unnamed axis 0 of (?, channel, h, w) has no name, and this strategy lines axes "
        "up by name: name it (e.refine_names({...}), or xn::name(x, dims) for a plain expression), or use "
        "xn::name_match, which lines unnamed axes up by position (xn::name<xn::name_match>(x, dims)); "
        "operands (?, channel, h, w) with shape (10, 3, 256, 384) and (?, h, w) with shape (10, 256, 385)");
}

TEST(error_messages, a_name_match_refusal_gives_the_unmatched_axis_and_the_other_dims)
{
    // (?, class, h, w) against (?, scale1, scale2, scale3, h, w) is an error under name_match.
    XN_EXPECT_THROW_HAS(
        xn::plan<xn::name_match>(operand({2, 3, 4, 5}, {"?", "class", "h", "w"}),
                                 operand({2, 3, 3, 3, 4, 5}, {"?", "scale1", "scale2", "scale3", "h", "w"})),
        xn::broadcast_error,
        {"xn::name_match", "axis 'class' (axis 1) of (?, class, h, w)",
         "no match in (?, scale1, scale2, scale3, h, w)"});
}

TEST(error_messages, a_name_match_size_refusal_gives_both_axes_and_sizes)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::name_match>(img, wide_lbl), xn::broadcast_error,
                        {"xn::name_match", "axis 'w' (axis 3)", "size 384", "axis 'w' (axis 2)", "size 385"});
}

TEST(error_messages, an_exact_refusal_gives_both_ranks)
{
    XN_EXPECT_THROW_HAS(
        xn::plan<xn::exact>(img, wide_lbl), xn::broadcast_error,
        {"xn::exact", "(?, channel, h, w) has 4 axes", "(?, h, w) has 3", "broadcasts nothing"});
}

TEST(error_messages, an_inconsistent_user_plan_names_the_faulty_entry)
{
    struct drops_an_axis
    {
        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand&)
        {
            xn::broadcast_plan p;
            p.names = a.names;
            p.shape = a.shape;
            p.axes[0] = {0};
            p.axes[1] = {xn::no_axis};
            return p;
        }
    };
    XN_EXPECT_THROW_HAS(
        xn::plan<drops_an_axis>(operand({2}, {"x"}), operand({2}, {"y"})), xn::broadcast_error,
        {"xn::plan", "inconsistent plan", "axis 0 'y' of operand 1", "lands on no result axis"});
}

// Named expressions
// =================

TEST(error_messages, naming_with_the_wrong_number_of_names_gives_the_shape_and_the_names)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(xn::name(values, {"x"}), xn::name_error,
                        {"xn::name", "2 axes", "(2, 3)", "1 names", "(x)"});
}

TEST(error_messages, an_absent_axis_name_is_named_with_the_dims_that_lack_it)
{
    const auto values = zeros({2, 3});
    const auto a = xn::name(values, {"x", "y"});
    XN_EXPECT_THROW_HAS(a.axis("z"), xn::name_error, {"xn::axis", "'z'", "(x, y)"});
    XN_EXPECT_THROW_HAS(a.rename({{"z", "q"}}), xn::name_error, {"xn::rename", "'z'", "(x, y)"});
    XN_EXPECT_THROW_HAS(a.transpose({"x", "z"}), xn::name_error, {"xn::transpose", "'z'", "(x, y)"});
    XN_EXPECT_THROW_HAS(xn::sum(a, {"z"}), xn::name_error, {"xn::sum", "'z'", "(x, y)"});
}

TEST(error_messages, a_refine_conflict_gives_the_axis_by_name_and_position_and_the_new_name)
{
    const auto values = zeros({2, 3});
    const auto a = xn::name(values, {"x", "?"});
    XN_EXPECT_THROW_HAS(a.refine_names({"q", "r"}), xn::name_error,
                        {"xn::refine_names", "axis 'x' (axis 0) of (x, ?)", "'q'"});
}

TEST(error_messages, a_repeated_name_in_align_to_gives_both_positions)
{
    const auto values = zeros({2, 3});
    const auto a = xn::name(values, {"x", "y"});
    XN_EXPECT_THROW_HAS(a.align_to({"y", "y"}), xn::name_error, {"xn::align_to", "'y'", "positions 0 and 1"});
}

TEST(error_messages, an_operator_refusal_names_the_operator_the_strategy_the_axes_and_the_sizes)
{
    const auto left = zeros({2, 3});
    const auto right = zeros({4, 3});
    const auto a = xn::name(left, {"x", "y"});
    const auto b = xn::name(right, {"x", "y"});
    XN_EXPECT_THROW_HAS(a + b, xn::broadcast_error,
                        {"operator+", "missing_dims", "axis 'x' (axis 0)", "size 2", "size 4",
                         "(x, y) with shape (2, 3)", "(x, y) with shape (4, 3)"});
}

// Coordinates
// ===========

TEST(error_messages, a_label_count_that_differs_from_the_size_gives_the_axis_the_size_and_the_labels)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(xn::name(values, {"x", "t"}, {{"t", {10, 20}}}), xn::shape_error,
                        {"xn::name", "axis 't' (axis 1) of (x, t)", "size 3", "2 labels", "[10, 20]"});
}

TEST(error_messages, a_missing_label_gives_the_label_the_axis_and_its_labels)
{
    const auto values = zeros({2, 3});
    const auto a = xn::name(values, {"x", "t"}, {{"t", {10, 20, 30}}});
    XN_EXPECT_THROW_HAS(a.sel({{"t", 40}}), xn::shape_error,
                        {"xn::sel", "40", "axis 't' (axis 1", "[10, 20, 30]"});
    XN_EXPECT_THROW_HAS(a.isel({{"t", 5}}), xn::shape_error, {"xn::isel", "5", "axis 't' (axis 1", "size 3"});
}

TEST(error_messages, labels_that_differ_under_join_exact_give_the_axis_and_both_label_lists)
{
    const auto left = zeros({2, 3});
    const auto right = zeros({2, 3});
    const auto a = xn::name(left, {"x", "t"}, {{"t", {10, 20, 30}}});
    const auto b = xn::name(right, {"x", "t"}, {{"t", {10, 21, 30}}});
    XN_EXPECT_THROW_HAS(a + b, xn::shape_error,
                        {"xn::operator+", "axis 't' (axis 1", "[10, 20, 30]", "[10, 21, 30]", "join_exact"});
}

TEST(error_messages, malformed_labels_name_the_axis_and_the_positions)
{
    XN_EXPECT_THROW_HAS(xn::coords({{"x", {1, 1}}}), xn::shape_error,
                        {"xn::coords", "'x'", "positions 0 and 1"});
    XN_EXPECT_THROW_HAS(xn::coords({{"x", xn::labels{1, "a"}}}), xn::shape_error,
                        {"xn::coords", "'x'", "position 1", "position 0"});
}

// Explicit broadcasts and adjoints
// ================================

TEST(error_messages, a_broadcast_to_refusal_gives_both_shapes_the_axes_and_their_sizes)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(
        xn::broadcast_to(values, {4, 4}), xn::broadcast_error,
        {"xn::broadcast_to", "(2, 3)", "(4, 4)", "input axis 0 (size 2)", "output axis 0 (size 4)"});
}

TEST(error_messages, a_negative_target_size_gives_the_size_and_its_axis)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(xn::broadcast_to(values, {2, -3}), xn::shape_error,
                        {"xn::broadcast_to", "(2, -3)", "-3", "axis 1"});
}

TEST(error_messages, a_broadcast_refusal_names_the_input_the_shape_and_the_axes)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(xn::broadcast(values, {2, 5, 3}, {0}), xn::broadcast_error,
                        {"xn::broadcast", "(2, 3)", "(2, 5, 3)", "{0}", "input axis 0 has size 2",
                         "output axis 1 has size 5"});
    XN_EXPECT_THROW_HAS(xn::broadcast(values, {2, 5, 3}, {1, 1}), xn::shape_error,
                        {"xn::broadcast", "axis 1", "{1, 1}", "positions 0 and 1"});
}

TEST(error_messages, a_broadcast_in_dim_refusal_gives_the_mapping_and_the_sizes)
{
    const auto values = zeros({2, 3});
    XN_EXPECT_THROW_HAS(
        xn::broadcast_in_dim(values, {2, 5, 4}, {0, 2}), xn::broadcast_error,
        {"xn::broadcast_in_dim", "{0, 2}", "input axis 1 (size 3)", "output axis 2 (size 4)"});
    XN_EXPECT_THROW_HAS(
        xn::broadcast_in_dim(values, {2, 5, 3}, {2, 0}), xn::shape_error,
        {"xn::broadcast_in_dim", "{2, 0}", "strictly increasing", "input axis 1", "output axis 0"});
}

TEST(error_messages, an_adjoint_refusal_gives_the_gradient_the_shape_and_the_axes)
{
    const auto g = zeros({2, 3});
    XN_EXPECT_THROW_HAS(xn::sum_to(g, {4}), xn::broadcast_error,
                        {"xn::sum_to", "(2, 3)", "(4)", "axis 0 (size 4)", "gradient axis 1 (size 3)"});
    XN_EXPECT_THROW_HAS(xn::reduce_broadcast_axes(g, {7}), xn::shape_error,
                        {"xn::reduce_broadcast_axes", "axis 7", "position 0", "(2, 3)", "rank 2"});
    XN_EXPECT_THROW_HAS(
        xn::sum_in_dim(g, {5}, {1}), xn::broadcast_error,
        {"xn::sum_in_dim", "(2, 3)", "(5)", "{1}", "axis 0 (size 5)", "gradient axis 1 (size 3)"});
}

TEST(error_messages, a_named_broadcast_refusal_names_the_operation_the_strategy_and_both_operands)
{
    const auto values = zeros({2, 3});
    const auto bias_values = zeros({2});
    const auto a = xn::name(values, {"x", "y"});
    const auto bias = xn::name(bias_values, {"y"});
    XN_EXPECT_THROW_HAS(xn::broadcast_like(bias, a), xn::broadcast_error,
                        {"xn::broadcast_like", "(y) with shape (2)", "(x, y) with shape (2, 3)",
                         "xn::missing_dims", "axis 'y' (axis 1)", "size 3", "axis 'y' (axis 0)", "size 2"});
    XN_EXPECT_THROW_HAS(
        xn::unbroadcast(a, bias), xn::broadcast_error,
        {"xn::unbroadcast", "(x, y) with shape (2, 3)", "(y) with shape (2)", "axis 'y' (axis 1)", "size 3"});
}

TEST(error_messages, a_gradient_axes_refusal_gives_both_shapes)
{
    XN_EXPECT_THROW_HAS(
        xn::broadcast_gradient_axes(xn::partial_shape::of({2, 3}), xn::partial_shape::of({4})),
        xn::broadcast_error, {"xn::broadcast_gradient_axes", "(2, 3)", "(4)", "size 3", "size 4"});
}

// Evaluation
// ==========

TEST(error_messages, an_assign_refusal_gives_the_output_and_the_expression)
{
    xt::xtensor<double, 2> out;
    XN_EXPECT_THROW_HAS(xn::assign(out, zeros({2, 2, 2})), xn::shape_error,
                        {"xn::assign", "static rank 2", "3 axes", "(2, 2, 2)"});
    const auto values = zeros({2, 3});
    const auto a = xn::name(values, {"x", "y"});
    auto named_out = xn::eval(a);
    const auto other_values = zeros({2, 3});
    const auto other = xn::name(other_values, {"x", "z"});
    XN_EXPECT_THROW_HAS(xn::assign(named_out, other), xn::name_error,
                        {"xn::assign", "'z'", "(x, y)", "(x, z)"});
}
