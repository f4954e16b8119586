/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The built-in strategies case by case: the sources' examples, each rule, partial shapes, every
// kind of refusal with its exact message, and a strategy written outside the library.
// tests/test_xstrategies_oracles.cpp compares them with numpy, xarray and a reference over many cases.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xstrategies.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    using axes_type = std::vector<std::int64_t>;
    constexpr std::int64_t U = xn::unknown;

    xn::operand named(std::initializer_list<std::int64_t> shape, xn::dims names)
    {
        return xn::operand{xn::partial_shape::of(shape), std::move(names)};
    }

    xn::operand unnamed(std::initializer_list<std::int64_t> shape)
    {
        return xn::operand::unnamed(xn::partial_shape::of(shape));
    }

    void expect_plan(const xn::broadcast_plan& p, const xn::dims& names,
                     std::initializer_list<std::int64_t> shape, const axes_type& axes_a,
                     const axes_type& axes_b)
    {
        EXPECT_EQ(p.names, names);
        EXPECT_EQ(p.shape, xn::partial_shape::of(shape));
        EXPECT_EQ(p.axes[0], axes_a);
        EXPECT_EQ(p.axes[1], axes_b);
    }

    // A user-written strategy: axes line up by position from the LEFT, a size-1 axis stretches, the
    // result has the longer operand's rank and takes a name where one operand has it.
    struct left_aligned
    {
        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
        {
            if (a.shape.is_unknown() || b.shape.is_unknown())
            {
                throw xn::broadcast_error("left_aligned: the ranks must be known");
            }
            const auto& longer = a.names.size() >= b.names.size() ? a : b;
            std::vector<std::string> names;
            std::vector<std::int64_t> sizes;
            xn::broadcast_plan result;
            for (std::size_t i = 0; i < longer.names.size(); ++i)
            {
                const bool in_a = i < a.names.size();
                const bool in_b = i < b.names.size();
                const auto size_a = in_a ? a.shape.sizes()[i] : 1;
                const auto size_b = in_b ? b.shape.sizes()[i] : 1;
                if (size_a != size_b && size_a != 1 && size_b != 1)
                {
                    throw xn::broadcast_error("left_aligned: axis " + std::to_string(i) + " has sizes " +
                                              std::to_string(size_a) + " and " + std::to_string(size_b));
                }
                names.push_back(in_a && a.names.is_named(i) ? a.names[i] : longer.names[i]);
                sizes.push_back(size_a == 1 ? size_b : size_a);
                // Written with xn::unknown, as strategies were before xn::no_axis had a name: the same
                // -1, so such a strategy keeps working.
                result.axes[0].push_back(in_a ? static_cast<std::int64_t>(i) : xn::unknown);
                result.axes[1].push_back(in_b ? static_cast<std::int64_t>(i) : xn::unknown);
            }
            result.names = xn::dims(names);
            result.shape = xn::partial_shape::of(sizes);
            return result;
        }
    };

    // Runs one strategy on operands of which one has an unknown rank; returns the refusal message.
    template <class S>
    std::string unknown_rank_message()
    {
        return xn_test::thrown_message<xn::broadcast_error>(
            [] { xn::plan<S>(xn::operand::unnamed(xn::partial_shape::unknown()), unnamed({2})); });
    }
} // namespace

// Every built-in strategy is what xn::plan accepts; a type without `plan` is not.
static_assert(xn::is_strategy_v<xn::numpy>);
static_assert(xn::is_strategy_v<xn::leading>);
static_assert(xn::is_strategy_v<xn::missing_dims>);
static_assert(xn::is_strategy_v<xn::basic_missing_dims<true>>);
static_assert(xn::is_strategy_v<xn::name_match>);
static_assert(xn::is_strategy_v<xn::exact>);
static_assert(xn::is_strategy_v<left_aligned>);
static_assert(!xn::is_strategy_v<int>);
static_assert(std::is_same<xn::missing_dims, xn::basic_missing_dims<false>>::value);

/*************************
 * the sources' examples *
 *************************/

TEST(name_match, seed_001_matches_img_and_lbl)
{
    const auto img = named({10, 3, 256, 384}, {"?", "channel", "h", "w"});
    const auto lbl = named({10, 256, 384}, {"?", "h", "w"});
    // (img axis, lbl axis): (0, 0) (2, 1) (3, 2), output (10, 3, 256, 384).
    expect_plan(xn::plan<xn::name_match>(img, lbl), {"?", "channel", "h", "w"}, {10, 3, 256, 384},
                {0, 1, 2, 3}, {0, U, 1, 2});
}

TEST(name_match, seed_001_refuses_class_against_the_scales)
{
    const auto lbl_prob = named({20, 3, 512, 512}, {"?", "class", "h", "w"});
    const auto lbl_pred = named({20, 1, 17, 15, 512, 512}, {"?", "scale1", "scale2", "scale3", "h", "w"});
    XN_EXPECT_THROW_MSG(xn::plan<xn::name_match>(lbl_prob, lbl_pred), xn::broadcast_error,
                        "xn::name_match: axis 'class' (axis 1) of (?, class, h, w) has no match in "
                        "(?, scale1, scale2, scale3, h, w); operands (?, class, h, w) with shape "
                        "(20, 3, 512, 512) and (?, scale1, scale2, scale3, h, w) with shape "
                        "(20, 1, 17, 15, 512, 512)");
}

TEST(missing_dims, seed_001_second_example_is_an_outer_product)
{
    // missing_dims lines axes up by name only, so the example's "?" batch axis is given a name here.
    const auto lbl_prob = named({20, 3, 512, 512}, {"batch", "class", "h", "w"});
    const auto lbl_pred = named({20, 1, 17, 15, 512, 512}, {"batch", "scale1", "scale2", "scale3", "h", "w"});
    expect_plan(xn::plan<xn::missing_dims>(lbl_prob, lbl_pred),
                {"batch", "class", "h", "w", "scale1", "scale2", "scale3"}, {20, 3, 512, 512, 1, 17, 15},
                {0, 1, 2, 3, U, U, U}, {0, U, 4, 5, 1, 2, 3});
}

TEST(missing_dims, seed_000_broadcasts_x_against_y)
{
    const auto left = named({2}, {"X"});
    const auto right = named({2}, {"Y"});
    expect_plan(xn::plan<xn::missing_dims>(left, right), {"X", "Y"}, {2, 2}, {0, U}, {U, 0});
}

/**********************
 * numpy              *
 **********************/

TEST(numpy, right_aligns_and_stretches_size_one_axes)
{
    // A stretched size-1 axis keeps its index: only a missing axis is xn::unknown.
    expect_plan(xn::plan<xn::numpy>(unnamed({8, 1, 6, 1}), unnamed({7, 1, 5})), xn::dims::unnamed(4),
                {8, 7, 6, 5}, {0, 1, 2, 3}, {U, 0, 1, 2});
}

TEST(numpy, broadcasts_a_scalar_along_every_axis)
{
    expect_plan(xn::plan<xn::numpy>(xn::operand::unnamed(xn::partial_shape::scalar()), unnamed({2, 3})),
                xn::dims::unnamed(2), {2, 3}, {U, U}, {0, 1});
}

TEST(numpy, named_axis_wins_over_an_unnamed_one)
{
    expect_plan(xn::plan<xn::numpy>(named({4, 2, 3}, {"?", "h", "w"}), named({4, 1, 3}, {"c", "?", "w"})),
                {"c", "h", "w"}, {4, 2, 3}, {0, 1, 2}, {0, 1, 2});
}

TEST(numpy, leading_axes_of_the_longer_operand_keep_their_names)
{
    expect_plan(xn::plan<xn::numpy>(named({3}, {"?"}), named({5, 2, 3}, {"batch", "?", "w"})),
                {"batch", "?", "w"}, {5, 2, 3}, {U, U, 0}, {0, 1, 2});
}

TEST(numpy, refuses_different_names_at_one_position)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::numpy>(named({2, 3}, {"x", "y"}), named({3}, {"z"})), xn::broadcast_error,
        "xn::numpy: axis 'y' (axis 1) of (x, y) lines up with axis 'z' (axis 0) of (z), and their "
        "names differ; operands (x, y) with shape (2, 3) and (z) with shape (3)");
}

TEST(numpy, refuses_a_name_matched_against_unnamed_that_the_other_has_elsewhere)
{
    // The result would have 'x' twice.
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::numpy>(named({2, 2}, {"x", "?"}), named({2, 2}, {"?", "x"})), xn::broadcast_error,
        "xn::numpy: axis 'x' (axis 0) of (x, ?) lines up with unnamed axis 0 of (?, x), which has "
        "'x' elsewhere (axis 1); operands (x, ?) with shape (2, 2) and (?, x) with shape (2, 2)");
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::numpy>(named({2, 2}, {"?", "x"}), named({2, 2}, {"x", "?"})), xn::broadcast_error,
        "xn::numpy: axis 'x' (axis 0) of (x, ?) lines up with unnamed axis 0 of (?, x), which has "
        "'x' elsewhere (axis 1); operands (?, x) with shape (2, 2) and (x, ?) with shape (2, 2)");
}

TEST(numpy, refuses_sizes_that_differ_where_neither_is_one)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::numpy>(named({5, 3}, {"?", "w"}), unnamed({5, 2})), xn::broadcast_error,
        "xn::numpy: axis 'w' (axis 1) of (?, w) has size 3 but unnamed axis 1 of (?, ?) has size 2, "
        "and neither is 1; operands (?, w) with shape (5, 3) and (?, ?) with shape (5, 2)");
}

TEST(numpy, unknown_sizes_follow_the_optimistic_rule)
{
    // unknown with 1 stays unknown, unknown with n > 1 gives n, unknown with unknown stays unknown.
    const auto p = xn::plan<xn::numpy>(unnamed({U, U, U, 1, 0}), unnamed({1, 4, U, U, U}));
    EXPECT_EQ(p.shape, xn::partial_shape::of({U, 4, U, U, 0}));
    EXPECT_EQ(p.axes[0], (axes_type{0, 1, 2, 3, 4}));
    EXPECT_EQ(p.axes[1], (axes_type{0, 1, 2, 3, 4}));
}

/**********************
 * leading            *
 **********************/

TEST(leading, adds_leading_axes_to_the_shorter_operand)
{
    // core.matrix: [3 4] and [2 3 3 4] are compatible.
    expect_plan(xn::plan<xn::leading>(unnamed({3, 4}), unnamed({2, 3, 3, 4})), xn::dims::unnamed(4),
                {2, 3, 3, 4}, {U, U, 0, 1}, {0, 1, 2, 3});
}

TEST(leading, refuses_a_trailing_axis_that_differs)
{
    // core.matrix: [3 3] and [2 3 3 4] are not compatible.
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::leading>(unnamed({3, 3}), unnamed({2, 3, 3, 4})), xn::broadcast_error,
        "xn::leading: unnamed axis 1 of (?, ?) has size 3 but unnamed axis 3 of (?, ?, ?, ?) has "
        "size 4, and xn::leading only adds leading axes: it stretches none; operands (?, ?) with "
        "shape (3, 3) and (?, ?, ?, ?) with shape (2, 3, 3, 4)");
}

TEST(leading, refuses_to_stretch_a_size_one_axis)
{
    // core.matrix: implicit broadcasting does not replicate the length 1 dimension of [1 3].
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::leading>(unnamed({2, 3, 3, 3}), named({1, 3}, {"r", "c"})), xn::broadcast_error,
        "xn::leading: unnamed axis 2 of (?, ?, ?, ?) has size 3 but axis 'r' (axis 0) of (r, c) has "
        "size 1, and xn::leading only adds leading axes: it stretches none; operands (?, ?, ?, ?) "
        "with shape (2, 3, 3, 3) and (r, c) with shape (1, 3)");
}

TEST(leading, unifies_names_as_numpy_does)
{
    expect_plan(xn::plan<xn::leading>(named({2, 3}, {"?", "w"}), named({5, 2, 3}, {"b", "h", "?"})),
                {"b", "h", "w"}, {5, 2, 3}, {U, 0, 1}, {0, 1, 2});
    XN_EXPECT_THROW_HAS(xn::plan<xn::leading>(named({3}, {"w"}), named({2, 3}, {"h", "x"})),
                        xn::broadcast_error,
                        {"xn::leading: axis 'w' (axis 0) of (w) lines up with axis 'x' (axis 1) of (h, x)"});
}

TEST(leading, unknown_sizes_take_the_known_size_without_stretching)
{
    const auto p = xn::plan<xn::leading>(unnamed({U, U, 3}), unnamed({7, 1, U, U}));
    EXPECT_EQ(p.shape, xn::partial_shape::of({7, 1, U, 3}));
    EXPECT_EQ(p.axes[0], (axes_type{U, 0, 1, 2}));
}

/**********************
 * missing_dims       *
 **********************/

TEST(missing_dims, appends_the_right_axes_that_the_left_lacks_in_the_right_order)
{
    expect_plan(xn::plan<xn::missing_dims>(named({2, 3}, {"x", "y"}), named({5, 3, 4}, {"t", "y", "z"})),
                {"x", "y", "t", "z"}, {2, 3, 5, 4}, {0, 1, U, U}, {U, 1, 0, 2});
}

TEST(missing_dims, lines_up_shared_names_in_any_order)
{
    expect_plan(xn::plan<xn::missing_dims>(named({2, 3}, {"x", "y"}), named({3, 2}, {"y", "x"})), {"x", "y"},
                {2, 3}, {0, 1}, {1, 0});
}

TEST(missing_dims, refuses_to_stretch_a_size_one_axis)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::missing_dims>(named({1, 3}, {"x", "y"}), named({4}, {"x"})), xn::broadcast_error,
        "xn::missing_dims: axis 'x' (axis 0) of (x, y) has size 1 but axis 'x' (axis 0) of (x) has "
        "size 4, and xn::missing_dims stretches no axis (xn::basic_missing_dims<true> stretches "
        "size 1); operands (x, y) with shape (1, 3) and (x) with shape (4)");
}

TEST(missing_dims, refuses_an_unnamed_axis)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::missing_dims>(named({2}, {"x"}), named({2, 3}, {"x", "?"})), xn::broadcast_error,
        "xn::missing_dims: unnamed axis 1 of (x, ?) has no name, and this strategy lines axes up by "
        "name: name it (e.refine_names({...}), or xn::name(x, dims) for a plain expression), or use "
        "xn::name_match, which lines unnamed axes up by position (xn::name<xn::name_match>(x, dims)); "
        "operands (x) with shape (2) and (x, ?) with shape (2, 3)");
}

TEST(missing_dims, unknown_sizes_take_the_known_size_without_stretching)
{
    const auto p =
        xn::plan<xn::missing_dims>(named({U, U, 2}, {"x", "y", "z"}), named({1, 5, U}, {"y", "x", "z"}));
    EXPECT_EQ(p.shape, xn::partial_shape::of({5, 1, 2}));
}

TEST(basic_missing_dims, stretches_size_one_axes_when_asked)
{
    expect_plan(xn::plan<xn::basic_missing_dims<true>>(named({1, 3}, {"x", "y"}), named({3, 4}, {"y", "x"})),
                {"x", "y"}, {4, 3}, {0, 1}, {1, 0});
    const auto p =
        xn::plan<xn::basic_missing_dims<true>>(named({U, U}, {"x", "y"}), named({1, 4}, {"x", "y"}));
    EXPECT_EQ(p.shape, xn::partial_shape::of({U, 4}));
}

TEST(basic_missing_dims, refuses_sizes_where_neither_is_one)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::basic_missing_dims<true>>(named({2}, {"x"}), named({3}, {"x"})), xn::broadcast_error,
        "xn::basic_missing_dims<true>: axis 'x' (axis 0) of (x) has size 2 but axis 'x' (axis 0) of "
        "(x) has size 3, and neither is 1; operands (x) with shape (2) and (x) with shape (3)");
}

/**********************
 * name_match         *
 **********************/

TEST(name_match, permutes_named_axes_of_the_smaller_operand)
{
    expect_plan(xn::plan<xn::name_match>(named({4, 5, 3}, {"h", "w", "c"}), named({5, 4}, {"w", "h"})),
                {"h", "w", "c"}, {4, 5, 3}, {0, 1, 2}, {1, 0, U});
}

TEST(name_match, takes_the_right_operand_when_it_has_more_axes)
{
    expect_plan(xn::plan<xn::name_match>(named({10, 256, 384}, {"?", "h", "w"}),
                                         named({10, 3, 256, 384}, {"?", "channel", "h", "w"})),
                {"?", "channel", "h", "w"}, {10, 3, 256, 384}, {0, U, 1, 2}, {0, 1, 2, 3});
}

TEST(name_match, takes_the_left_operand_on_a_tie)
{
    expect_plan(xn::plan<xn::name_match>(named({2, 3}, {"x", "y"}), named({3, 2}, {"y", "x"})), {"x", "y"},
                {2, 3}, {0, 1}, {1, 0});
}

TEST(name_match, matches_unnamed_axes_right_aligned)
{
    expect_plan(xn::plan<xn::name_match>(named({6, 5, 2, 4}, {"?", "?", "h", "?"}),
                                         named({2, 5, 4}, {"h", "?", "?"})),
                {"?", "?", "h", "?"}, {6, 5, 2, 4}, {0, 1, 2, 3}, {U, 1, 0, 2});
}

TEST(name_match, stretches_size_one_on_either_side)
{
    expect_plan(
        xn::plan<xn::name_match>(named({1, 5, 3}, {"a", "b", "c"}), named({3, 1, 4}, {"c", "b", "a"})),
        {"a", "b", "c"}, {4, 5, 3}, {0, 1, 2}, {2, 1, 0});
}

TEST(name_match, refuses_more_unnamed_axes_than_the_larger_operand_has)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::name_match>(named({2, 3, 4}, {"?", "h", "w"}), named({2, 3}, {"?", "?"})),
        xn::broadcast_error,
        "xn::name_match: unnamed axis 0 of (?, ?) has no match in (?, h, w): unnamed axes match "
        "right-aligned, and (?, h, w) has 1 where (?, ?) has 2; operands (?, h, w) with shape "
        "(2, 3, 4) and (?, ?) with shape (2, 3)");
}

TEST(name_match, refuses_a_named_axis_against_unnamed_axes_only)
{
    XN_EXPECT_THROW_HAS(xn::plan<xn::name_match>(unnamed({2, 3}), named({3}, {"x"})), xn::broadcast_error,
                        {"xn::name_match: axis 'x' (axis 0) of (x) has no match in (?, ?);"});
}

TEST(name_match, refuses_matched_sizes_where_neither_is_one)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::name_match>(named({3, 2}, {"h", "w"}), named({4, 2, 5}, {"w", "c", "h"})),
        xn::broadcast_error,
        "xn::name_match: axis 'h' (axis 0) of (h, w) has size 3 but axis 'h' (axis 2) of (w, c, h) "
        "has size 5, and neither is 1; operands (h, w) with shape (3, 2) and (w, c, h) with shape "
        "(4, 2, 5)");
}

TEST(name_match, unknown_sizes_follow_the_optimistic_rule)
{
    const auto p = xn::plan<xn::name_match>(named({U, U, U, 3}, {"a", "b", "c", "d"}),
                                            named({1, 4, U}, {"b", "a", "c"}));
    EXPECT_EQ(p.shape, xn::partial_shape::of({4, U, U, 3}));
    EXPECT_EQ(p.axes[1], (axes_type{1, 0, 2, U}));
}

/**********************
 * exact              *
 **********************/

TEST(exact, keeps_equal_operands_and_merges_unknown_sizes)
{
    expect_plan(xn::plan<xn::exact>(named({2, U, U}, {"x", "?", "z"}), named({U, 3, U}, {"x", "?", "z"})),
                {"x", "?", "z"}, {2, 3, U}, {0, 1, 2}, {0, 1, 2});
}

TEST(exact, refuses_different_ranks)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::exact>(named({2, 3}, {"x", "y"}), named({3}, {"y"})), xn::broadcast_error,
        "xn::exact: (x, y) has 2 axes and (y) has 1, and xn::exact broadcasts nothing; operands "
        "(x, y) with shape (2, 3) and (y) with shape (3)");
}

TEST(exact, refuses_different_names)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::exact>(named({2, 2}, {"x", "y"}), named({2, 2}, {"x", "?"})), xn::broadcast_error,
        "xn::exact: axis 'y' (axis 1) of (x, y) and unnamed axis 1 of (x, ?) have different names; "
        "operands (x, y) with shape (2, 2) and (x, ?) with shape (2, 2)");
}

TEST(exact, refuses_to_stretch_a_size_one_axis)
{
    XN_EXPECT_THROW_MSG(
        xn::plan<xn::exact>(named({2, 1}, {"x", "y"}), named({2, 3}, {"x", "y"})), xn::broadcast_error,
        "xn::exact: axis 'y' (axis 1) of (x, y) has size 1 but axis 'y' (axis 1) of (x, y) has size "
        "3, and xn::exact broadcasts nothing; operands (x, y) with shape (2, 1) and (x, y) with "
        "shape (2, 3)");
}

/**********************
 * all strategies     *
 **********************/

TEST(strategies, refuse_an_operand_of_unknown_rank)
{
    const std::string operands = "; operands <unknown names> with shape <unknown> and (?) with shape (2)";
    const std::string why = ": the rank of the left operand is unknown, and lining up axes needs it";
    EXPECT_EQ(unknown_rank_message<xn::numpy>(), "xn::numpy" + why + operands);
    EXPECT_EQ(unknown_rank_message<xn::leading>(), "xn::leading" + why + operands);
    EXPECT_EQ(unknown_rank_message<xn::missing_dims>(), "xn::missing_dims" + why + operands);
    EXPECT_EQ(unknown_rank_message<xn::basic_missing_dims<true>>(),
              "xn::basic_missing_dims<true>" + why + operands);
    EXPECT_EQ(unknown_rank_message<xn::name_match>(), "xn::name_match" + why + operands);
    EXPECT_EQ(unknown_rank_message<xn::exact>(), "xn::exact" + why + operands);
    XN_EXPECT_THROW_MSG(xn::numpy::plan(unnamed({2}), xn::operand::unnamed(xn::partial_shape::unknown())),
                        xn::broadcast_error,
                        "xn::numpy: the rank of the right operand is unknown, and lining up axes needs it; "
                        "operands (?) with shape (2) and <unknown names> with shape <unknown>");
}

TEST(strategies, refuse_an_operand_whose_names_do_not_fit_its_rank_when_called_directly)
{
    const xn::operand bad{xn::partial_shape::of({2, 3}), {"x"}};
    XN_EXPECT_THROW_HAS(xn::numpy::plan(bad, unnamed({3})), xn::name_error, {"xn::numpy:", "(x)", "(2, 3)"});
    XN_EXPECT_THROW_HAS(xn::leading::plan(unnamed({3}), bad), xn::name_error, {"xn::leading:"});
    XN_EXPECT_THROW_HAS(xn::missing_dims::plan(bad, unnamed({3})), xn::name_error, {"xn::missing_dims:"});
    XN_EXPECT_THROW_HAS(xn::name_match::plan(bad, unnamed({3})), xn::name_error, {"xn::name_match:"});
    XN_EXPECT_THROW_HAS(xn::exact::plan(bad, unnamed({3})), xn::name_error, {"xn::exact:"});
}

TEST(strategies, plan_two_scalars_as_a_scalar)
{
    const auto scalar = xn::operand::unnamed(xn::partial_shape::scalar());
    expect_plan(xn::plan<xn::numpy>(scalar, scalar), {}, {}, {}, {});
    expect_plan(xn::plan<xn::leading>(scalar, scalar), {}, {}, {}, {});
    expect_plan(xn::plan<xn::missing_dims>(scalar, scalar), {}, {}, {}, {});
    expect_plan(xn::plan<xn::name_match>(scalar, scalar), {}, {}, {}, {});
    expect_plan(xn::plan<xn::exact>(scalar, scalar), {}, {}, {}, {});
}

/**********************
 * a user strategy    *
 **********************/

TEST(user_strategy, aligns_from_the_left_through_plan)
{
    expect_plan(xn::plan<left_aligned>(named({2, 1}, {"batch", "?"}), unnamed({2, 3, 4})),
                {"batch", "?", "?"}, {2, 3, 4}, {0, 1, U}, {0, 1, 2});
    // numpy would refuse this pair: right-aligned, 3 meets 2.
    EXPECT_THROW(xn::plan<xn::numpy>(unnamed({2, 3}), unnamed({2, 3, 4})), xn::broadcast_error);
    expect_plan(xn::plan<left_aligned>(unnamed({2, 3}), unnamed({2, 3, 4})), xn::dims::unnamed(3), {2, 3, 4},
                {0, 1, U}, {0, 1, 2});
}

TEST(user_strategy, refusals_reach_the_caller)
{
    XN_EXPECT_THROW_MSG(xn::plan<left_aligned>(unnamed({2, 3}), unnamed({3, 3})), xn::broadcast_error,
                        "left_aligned: axis 0 has sizes 2 and 3");
}
