/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xbroadcast_plan.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    using shape = xn::partial_shape;
    constexpr auto u = xn::unknown;
    constexpr auto none = xn::no_axis;

    // User-written strategies
    // =======================

    // Lines axes up from the LEFT, numpy-style: a size-1 axis stretches, the shorter operand lacks the
    // trailing axes, and names unify as under numpy (equal, or the named one wins).
    struct left_aligned
    {
        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
        {
            const auto ra = a.shape.rank();
            const auto rb = b.shape.rank();
            const auto rank = std::max(ra, rb);
            std::vector<std::string> names;
            std::vector<std::int64_t> sizes;
            xn::broadcast_plan result;
            for (std::int64_t i = 0; i < rank; ++i)
            {
                const auto sa = i < ra ? a.shape.size(i) : 1;
                const auto sb = i < rb ? b.shape.size(i) : 1;
                if (sa != sb && sa != 1 && sb != 1)
                {
                    xn::detail::throw_broadcast_error("left_aligned", "sizes ", sa, " and ", sb, " at axis ",
                                                      i);
                }
                sizes.push_back(sa == 1 ? sb : sa);
                const auto na = i < ra ? a.names[static_cast<std::size_t>(i)] : std::string("?");
                const auto nb = i < rb ? b.names[static_cast<std::size_t>(i)] : std::string("?");
                names.push_back(na == "?" ? nb : na);
                result.axes[0].push_back(i < ra ? i : none);
                result.axes[1].push_back(i < rb ? i : none);
            }
            result.names = xn::dims(names);
            result.shape = shape::of(sizes);
            return result;
        }
    };

    // Returns whatever the test put in `next`, and counts its calls: the way to feed xn::plan an
    // inconsistent answer.
    struct scripted
    {
        static inline xn::broadcast_plan next;
        static inline int calls = 0;

        static xn::broadcast_plan plan(const xn::operand&, const xn::operand&)
        {
            ++calls;
            return next;
        }
    };

    xn::broadcast_plan make_plan(xn::dims names, shape result_shape, std::vector<std::int64_t> axes_a,
                                 std::vector<std::int64_t> axes_b)
    {
        xn::broadcast_plan p;
        p.names = std::move(names);
        p.shape = std::move(result_shape);
        p.axes[0] = std::move(axes_a);
        p.axes[1] = std::move(axes_b);
        return p;
    }

    // (x, y) with shape (2, 3) and (y) with shape (3): the operands most tests below plan for.
    const xn::operand xy{shape::of({2, 3}), xn::dims{"x", "y"}};
    const xn::operand y3{shape::of({3}), xn::dims{"y"}};
    const std::string xy_and_y3 =
        "xn::plan: the strategy returned an inconsistent plan for (x, y) with shape (2, 3) "
        "and (y) with shape (3): ";

    // Remembers the operands it was given.
    struct recording
    {
        static inline std::string seen;

        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
        {
            seen = a.to_string() + " | " + b.to_string();
            return make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {none, 0});
        }
    };

    // g++ 12 once failed with an internal compiler error on these two spellings inside a template.
    template <class T>
    xn::broadcast_plan empty_plan_in_a_template()
    {
        return xn::broadcast_plan{};
    }

    template <class T>
    xn::broadcast_plan named_plan_in_a_template(const xn::dims& names, const shape& s)
    {
        return xn::broadcast_plan{names, s};
    }

    // Not strategies
    // ==============

    struct no_plan
    {
    };

    struct plan_returns_the_wrong_type
    {
        static int plan(const xn::operand&, const xn::operand&)
        {
            return 0;
        }
    };

    struct plan_takes_the_wrong_arguments
    {
        static xn::broadcast_plan plan(int, int)
        {
            return {};
        }
    };

    struct plan_takes_one_operand
    {
        static xn::broadcast_plan plan(const xn::operand&)
        {
            return {};
        }
    };

    struct plan_is_not_static
    {
        xn::broadcast_plan plan(const xn::operand&, const xn::operand&)
        {
            return {};
        }
    };

    struct plan_is_a_data_member
    {
        [[maybe_unused]] static inline int plan = 0;
    };

    struct plan_takes_operands_by_value
    {
        static xn::broadcast_plan plan(xn::operand, xn::operand)
        {
            return {};
        }
    };
} // namespace

// is_strategy
// ===========

// A constant expression, usable in a static_assert.
static_assert(xn::is_strategy_v<left_aligned>, "a user-written strategy is a strategy");
static_assert(!xn::is_strategy_v<no_plan>, "a type without plan is no strategy");

TEST(is_strategy, accepts_a_type_with_the_static_plan_function)
{
    EXPECT_TRUE(xn::is_strategy<left_aligned>::value);
    EXPECT_TRUE(xn::is_strategy_v<left_aligned>);
    EXPECT_TRUE(xn::is_strategy_v<scripted>);
    // Callable with two const operands and returning a plan is all that counts.
    EXPECT_TRUE(xn::is_strategy_v<plan_takes_operands_by_value>);
}

TEST(is_strategy, rejects_types_without_that_function)
{
    EXPECT_FALSE(xn::is_strategy_v<int>);
    EXPECT_FALSE(xn::is_strategy_v<void>);
    EXPECT_FALSE(xn::is_strategy_v<no_plan>);
    EXPECT_FALSE(xn::is_strategy_v<plan_returns_the_wrong_type>);
    EXPECT_FALSE(xn::is_strategy_v<plan_takes_the_wrong_arguments>);
    EXPECT_FALSE(xn::is_strategy_v<plan_takes_one_operand>);
    EXPECT_FALSE(xn::is_strategy_v<plan_is_not_static>);
    EXPECT_FALSE(xn::is_strategy_v<plan_is_a_data_member>);
    EXPECT_FALSE(xn::is_strategy_v<xn::operand>);
    EXPECT_FALSE(xn::is_strategy_v<xn::broadcast_plan>);
}

// operand
// =======

TEST(operand, unnamed_gives_every_axis_the_unnamed_marker)
{
    const auto op = xn::operand::unnamed(shape::of({2, u, 4}));
    EXPECT_EQ(op.names, xn::dims::unnamed(3));
    EXPECT_EQ(op.shape, shape::of({2, u, 4}));
    EXPECT_EQ(xn::operand::unnamed(shape::scalar()).names, xn::dims());
}

TEST(operand, unnamed_of_an_unknown_rank_has_no_names)
{
    const auto op = xn::operand::unnamed(shape::unknown());
    EXPECT_TRUE(op.names.empty());
    EXPECT_TRUE(op.shape.is_unknown());
}

TEST(operand, to_string_gives_names_and_shape)
{
    const xn::operand img{shape::of({10, 256, 384}), xn::dims{"?", "h", "w"}};
    EXPECT_EQ(img.to_string(), "(?, h, w) with shape (10, 256, 384)");
    EXPECT_EQ(xn::operand::unnamed(shape::of({u})).to_string(), "(?) with shape (?)");
    EXPECT_EQ(xn::operand::unnamed(shape::scalar()).to_string(), "() with shape ()");
    EXPECT_EQ(xn::operand::unnamed(shape::unknown()).to_string(), "<unknown names> with shape <unknown>");
}

// A valid plan
// ============

TEST(plan, a_user_written_strategy_plans_through_xn_plan)
{
    const xn::operand a{shape::of({2, 3, 4}), xn::dims{"batch", "?", "w"}};
    const xn::operand b{shape::of({1, 3}), xn::dims{"?", "h"}};
    const auto p = xn::plan<left_aligned>(a, b);
    EXPECT_EQ(p.names, (xn::dims{"batch", "h", "w"}));
    EXPECT_EQ(p.shape, shape::of({2, 3, 4}));
    EXPECT_EQ(p.axes[0], (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(p.axes[1], (std::vector<std::int64_t>{0, 1, none}));
}

TEST(plan, a_valid_plan_passes_through_unchanged)
{
    const auto expected = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {none, 0});
    scripted::next = expected;
    const auto p = xn::plan<scripted>(xy, y3);
    EXPECT_EQ(p.names, expected.names);
    EXPECT_EQ(p.shape, expected.shape);
    EXPECT_EQ(p.axes, expected.axes);
}

TEST(plan, the_strategy_sees_the_operands_in_order)
{
    (void)xn::plan<recording>(xy, y3);
    EXPECT_EQ(recording::seen, "(x, y) with shape (2, 3) | (y) with shape (3)");
}

TEST(plan, the_strategys_own_error_reaches_the_caller_unchanged)
{
    const xn::operand a{shape::of({2}), xn::dims{"?"}};
    const xn::operand b{shape::of({3}), xn::dims{"?"}};
    XN_EXPECT_THROW_MSG(xn::plan<left_aligned>(a, b), xn::broadcast_error,
                        "xn::left_aligned: sizes 2 and 3 at axis 0");
}

TEST(plan, a_size_one_axis_may_stretch_and_an_unknown_size_may_become_known)
{
    const xn::operand a{shape::of({1, u}), xn::dims{"x", "?"}};
    const xn::operand b{shape::of({5, 3}), xn::dims{"?", "y"}};
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({5, 3}), {0, 1}, {0, 1});
    EXPECT_NO_THROW(xn::plan<scripted>(a, b));
}

TEST(plan, a_known_size_may_land_on_an_unknown_result_size)
{
    const xn::operand a{shape::of({u}), xn::dims{"x"}};
    const xn::operand b{shape::of({3}), xn::dims{"x"}};
    scripted::next = make_plan(xn::dims{"x"}, shape::of({u}), {0}, {0});
    EXPECT_NO_THROW(xn::plan<scripted>(a, b));
}

TEST(plan, scalar_operands_give_a_scalar_plan)
{
    const auto s = xn::operand::unnamed(shape::scalar());
    scripted::next = make_plan(xn::dims(), shape::scalar(), {}, {});
    const auto p = xn::plan<scripted>(s, s);
    EXPECT_TRUE(p.shape.is_scalar());
    EXPECT_TRUE(p.names.empty());
}

TEST(plan, an_unknown_rank_operand_without_names_is_accepted)
{
    const auto a = xn::operand::unnamed(shape::unknown());
    scripted::next = make_plan(xn::dims(), shape::unknown(), {}, {});
    const auto p = xn::plan<scripted>(a, y3);
    EXPECT_TRUE(p.shape.is_unknown());
}

TEST(plan, an_unknown_rank_operand_may_be_left_out_of_a_known_result)
{
    const auto a = xn::operand::unnamed(shape::unknown());
    scripted::next = make_plan(xn::dims{"y"}, shape::of({3}), {none}, {0});
    EXPECT_NO_THROW(xn::plan<scripted>(a, y3));
}

// Operands are checked before the strategy runs
// =============================================

TEST(plan, an_operand_with_too_few_names_is_a_name_error)
{
    scripted::calls = 0;
    const xn::operand bad{shape::of({2, 3}), xn::dims{"x"}};
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(bad, y3), xn::name_error,
                        "xn::plan: the operand has 1 names (x) for 2 axes (2, 3)");
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(y3, bad), xn::name_error,
                        "xn::plan: the operand has 1 names (x) for 2 axes (2, 3)");
    EXPECT_EQ(scripted::calls, 0);
}

TEST(plan, an_operand_with_too_many_names_is_a_name_error)
{
    scripted::calls = 0;
    const xn::operand bad{shape::of({4}), xn::dims{"a", "b", "?"}};
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(y3, bad), xn::name_error,
                        "xn::plan: the operand has 3 names (a, b, ?) for 1 axes (4)");
    const xn::operand scalar_with_a_name{shape::scalar(), xn::dims{"x"}};
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(scalar_with_a_name, y3), xn::name_error,
                        "xn::plan: the operand has 1 names (x) for 0 axes ()");
    EXPECT_EQ(scripted::calls, 0);
}

TEST(plan, an_unknown_rank_operand_with_names_is_a_name_error)
{
    scripted::calls = 0;
    const xn::operand bad{shape::unknown(), xn::dims{"x", "y"}};
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(bad, y3), xn::name_error,
                        "xn::plan: an operand of unknown rank cannot have axis names, got (x, y)");
    EXPECT_EQ(scripted::calls, 0);
}

// Inconsistent plans are refused
// ==============================

TEST(plan, result_names_of_the_wrong_length_are_refused)
{
    scripted::next = make_plan(xn::dims{"x"}, shape::of({2, 3}), {0, 1}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "result names (x) do not match result shape (2, 3)");
}

TEST(plan, axes_of_the_wrong_length_are_refused)
{
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axes[0] has 1 entries for a result of rank 2");
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {none, 0, none});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axes[1] has 3 entries for a result of rank 2");
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {});
    XN_EXPECT_THROW_HAS(xn::plan<scripted>(xy, y3), xn::broadcast_error, {"axes[1] has 0 entries"});
}

TEST(plan, an_axis_out_of_range_is_refused)
{
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {none, 1});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axes[1][1] = 1 is not a free axis of operand 1");
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, -2}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axes[0][1] = -2 is not a free axis of operand 0");
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, INT64_MAX}, {none, 0});
    XN_EXPECT_THROW_HAS(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        {"axes[0][1] = 9223372036854775807"});
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {INT64_MIN, 1}, {none, 0});
    XN_EXPECT_THROW_HAS(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        {"axes[0][0] = -9223372036854775808"});
}

TEST(plan, an_axis_of_an_unknown_rank_operand_is_refused)
{
    const auto a = xn::operand::unnamed(shape::unknown());
    scripted::next = make_plan(xn::dims{"y"}, shape::of({3}), {0}, {0});
    XN_EXPECT_THROW_HAS(
        xn::plan<scripted>(a, y3), xn::broadcast_error,
        {"<unknown names> with shape <unknown>", "axes[0][0] = 0 is not a free axis of operand 0"});
}

TEST(plan, an_axis_used_twice_is_refused)
{
    const xn::operand aa{shape::of({3, 3}), xn::dims{"?", "?"}};
    scripted::next = make_plan(xn::dims{"?", "?"}, shape::of({3, 3}), {0, 1}, {0, 0});
    XN_EXPECT_THROW_MSG(
        xn::plan<scripted>(aa, aa), xn::broadcast_error,
        "xn::plan: the strategy returned an inconsistent plan for (?, ?) with shape (3, 3) and (?, ?) "
        "with shape (3, 3): axes[1][1] = 0 is not a free axis of operand 1");
}

TEST(plan, an_operand_axis_that_lands_nowhere_is_refused)
{
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {none, 1}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axis 0 'x' of operand 0 lands on no result axis");
}

TEST(plan, a_result_axis_from_neither_operand_is_refused)
{
    const xn::operand y{shape::of({3}), xn::dims{"y"}};
    scripted::next = make_plan(xn::dims{"z", "y"}, shape::of({5, 3}), {none, 0}, {none, 0});
    XN_EXPECT_THROW_MSG(
        xn::plan<scripted>(y, y), xn::broadcast_error,
        "xn::plan: the strategy returned an inconsistent plan for (y) with shape (3) and (y) with "
        "shape (3): result axis 0 'z' comes from neither operand");
}

TEST(plan, a_size_that_is_neither_one_nor_the_result_size_is_refused)
{
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 4}), {0, 1}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 +
                            "axis 1 'y' of operand 0 has size 3 but lands on result axis 1 'y' of size 4");
    // A size 0 does not stretch.
    const xn::operand zero{shape::of({0}), xn::dims{"?"}};
    const xn::operand five{shape::of({5}), xn::dims{"?"}};
    scripted::next = make_plan(xn::dims{"?"}, shape::of({5}), {0}, {0});
    XN_EXPECT_THROW_HAS(xn::plan<scripted>(zero, five), xn::broadcast_error,
                        {"axis 0 '?' of operand 0 has size 0 but lands on result axis 0 '?' of size 5"});
}

TEST(plan, a_named_axis_landing_under_another_name_is_refused)
{
    scripted::next = make_plan(xn::dims{"x", "w"}, shape::of({2, 3}), {0, 1}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axis 1 'y' of operand 0 lands on result axis 1 named 'w'");
    scripted::next = make_plan(xn::dims{"x", "?"}, shape::of({2, 3}), {0, 1}, {none, 0});
    XN_EXPECT_THROW_MSG(xn::plan<scripted>(xy, y3), xn::broadcast_error,
                        xy_and_y3 + "axis 1 'y' of operand 0 lands on result axis 1 named '?'");
}

TEST(plan, an_unnamed_axis_may_land_under_a_name)
{
    const auto a = xn::operand::unnamed(shape::of({2, 3}));
    scripted::next = make_plan(xn::dims{"x", "y"}, shape::of({2, 3}), {0, 1}, {none, 0});
    EXPECT_NO_THROW(xn::plan<scripted>(a, y3));
}

TEST(plan, an_unknown_rank_result_with_names_or_axes_is_refused)
{
    const auto a = xn::operand::unnamed(shape::unknown());
    scripted::next = make_plan(xn::dims{"y"}, shape::unknown(), {}, {});
    XN_EXPECT_THROW_HAS(
        xn::plan<scripted>(a, y3), xn::broadcast_error,
        {"a result of unknown rank has no names and no axes, got names (y) and 0 and 0 axes"});
    scripted::next = make_plan(xn::dims(), shape::unknown(), {}, {0});
    XN_EXPECT_THROW_HAS(xn::plan<scripted>(a, y3), xn::broadcast_error,
                        {"a result of unknown rank has no names and no axes, got names () and 0 and 1 axes"});
}

TEST(plan, a_refused_plan_is_catchable_as_an_xtensor_broadcast_error)
{
    scripted::next = make_plan(xn::dims{"x"}, shape::of({2, 3}), {0, 1}, {none, 0});
    bool caught = false;
    try
    {
        (void)xn::plan<scripted>(xy, y3);
    }
    catch (const xt::broadcast_error&)
    {
        caught = true;
    }
    EXPECT_TRUE(caught);
}

TEST(broadcast_plan, a_value_initialized_plan_is_empty_also_inside_a_template)
{
    const auto p = empty_plan_in_a_template<int>();
    EXPECT_TRUE(p.names.empty());
    EXPECT_TRUE(p.shape.is_scalar());
    EXPECT_TRUE(p.axes[0].empty());
    EXPECT_TRUE(p.axes[1].empty());
}

TEST(broadcast_plan, a_plan_built_from_names_and_shape_has_empty_axes)
{
    const auto p = named_plan_in_a_template<int>(xn::dims{"x"}, shape::of({4}));
    EXPECT_EQ(p.names, xn::dims{"x"});
    EXPECT_EQ(p.shape, shape::of({4}));
    EXPECT_TRUE(p.axes[0].empty());
    EXPECT_TRUE(p.axes[1].empty());
}
