/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/coords_fixture.hpp"
#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    using index_map = std::vector<std::int64_t>;
    constexpr std::int64_t m = xn::missing;

    // A strategy that gives every label of the left operand to position 0 of the right one.
    struct inconsistent_shaping
    {
        static std::optional<xn::label_alignment> align(const xn::labels& a, const xn::labels&)
        {
            return xn::label_alignment{a, {xn::detail::identity_map(a.size()), index_map(a.size(), 0)}};
        }
    };

    // A strategy that never aligns different labels.
    struct refusing_shaping
    {
        static std::optional<xn::label_alignment> align(const xn::labels&, const xn::labels&)
        {
            return std::nullopt;
        }
    };

    struct not_a_shaping
    {
        static int align(const xn::labels&, const xn::labels&)
        {
            return 0;
        }
    };
} // namespace

static_assert(xn::is_shaping_v<xn::join_exact>);
static_assert(xn::is_shaping_v<xn::join_inner>);
static_assert(xn::is_shaping_v<xn::join_outer>);
static_assert(xn::is_shaping_v<xn::join_left>);
static_assert(xn::is_shaping_v<xn::join_right>);
static_assert(xn::is_shaping_v<refusing_shaping>);
static_assert(!xn::is_shaping_v<not_a_shaping>);
static_assert(!xn::is_shaping_v<int>);

TEST(join_exact, keeps_equal_labels_as_they_are)
{
    const auto r = xn::align_labels<xn::join_exact>({"b", "a"}, {"b", "a"});
    EXPECT_EQ(r.result, (xn::labels{"b", "a"}));
    EXPECT_EQ(r.index[0], (index_map{0, 1}));
    EXPECT_EQ(r.index[1], (index_map{0, 1}));
}

TEST(join_exact, refuses_different_labels_naming_both_lists)
{
    XN_EXPECT_THROW_MSG(
        xn::align_labels<xn::join_exact>({10, 20}, {10, 30, 40}), xn::shape_error,
        "xn::align_labels: the left labels [10, 20] (2 labels) and the right labels [10, 30, 40] "
        "(3 labels) differ, and the shaping strategy does not align them (xn::join_exact, the "
        "default, needs equal labels: choose xn::join_inner, xn::join_outer, "
        "xn::join_left or xn::join_right)");
}

TEST(join_exact, refuses_a_permutation)
{
    EXPECT_THROW(xn::align_labels<xn::join_exact>({1, 2}, {2, 1}), xn::shape_error);
}

TEST(join_inner, keeps_the_shared_labels_in_the_left_order)
{
    const auto r = xn::align_labels<xn::join_inner>({30, 10, 20}, {20, 40, 30});
    EXPECT_EQ(r.result, (xn::labels{30, 20}));
    EXPECT_EQ(r.index[0], (index_map{0, 2}));
    EXPECT_EQ(r.index[1], (index_map{2, 0}));
    EXPECT_FALSE(r.has_missing(0));
    EXPECT_FALSE(r.has_missing(1));
}

TEST(join_inner, of_disjoint_labels_is_empty)
{
    const auto r = xn::align_labels<xn::join_inner>({"a"}, {"b"});
    EXPECT_TRUE(r.result.empty());
    EXPECT_TRUE(r.index[0].empty());
    EXPECT_TRUE(r.index[1].empty());
}

TEST(join_outer, sorts_integers_numerically_when_the_lists_differ)
{
    const auto r = xn::align_labels<xn::join_outer>({30, 10, -5}, {9, 10, 100});
    EXPECT_EQ(r.result, (xn::labels{-5, 9, 10, 30, 100}));
    EXPECT_EQ(r.index[0], (index_map{2, m, 1, 0, m}));
    EXPECT_EQ(r.index[1], (index_map{m, 0, 1, m, 2}));
    EXPECT_TRUE(r.has_missing(0));
    EXPECT_TRUE(r.has_missing(1));
}

TEST(join_outer, sorts_strings_by_their_bytes)
{
    // Upper case before lower case, "x10" before "x2": the order Python (so pandas) gives.
    const auto r = xn::align_labels<xn::join_outer>({"x2", "a"}, {"x10", "B", "_z"});
    EXPECT_EQ(r.result, (xn::labels{"B", "_z", "a", "x10", "x2"}));
    EXPECT_EQ(r.index[0], (index_map{m, m, 1, m, 0}));
    EXPECT_EQ(r.index[1], (index_map{1, 2, m, 0, m}));
}

TEST(join_outer, sorts_a_permutation)
{
    const auto r = xn::align_labels<xn::join_outer>({"b", "a", "c"}, {"c", "b", "a"});
    EXPECT_EQ(r.result, (xn::labels{"a", "b", "c"}));
    EXPECT_EQ(r.index[0], (index_map{1, 0, 2}));
    EXPECT_EQ(r.index[1], (index_map{2, 1, 0}));
}

TEST(join_outer, keeps_the_order_of_equal_lists)
{
    const auto r = xn::align_labels<xn::join_outer>({3, 1, 2}, {3, 1, 2});
    EXPECT_EQ(r.result, (xn::labels{3, 1, 2}));
    EXPECT_TRUE(r.is_identity(0, 3));
    EXPECT_TRUE(r.is_identity(1, 3));
}

TEST(join_outer, keeps_the_order_of_a_list_meeting_an_empty_one)
{
    const auto left = xn::align_labels<xn::join_outer>({3, 1}, {});
    EXPECT_EQ(left.result, (xn::labels{3, 1}));
    EXPECT_EQ(left.index[0], (index_map{0, 1}));
    EXPECT_EQ(left.index[1], (index_map{m, m}));
    const auto right = xn::align_labels<xn::join_outer>({}, {"b", "a"});
    EXPECT_EQ(right.result, (xn::labels{"b", "a"}));
    EXPECT_EQ(right.index[0], (index_map{m, m}));
    EXPECT_EQ(right.index[1], (index_map{0, 1}));
}

TEST(join_left, keeps_the_left_labels_and_gathers_or_fills_the_right)
{
    const auto r = xn::align_labels<xn::join_left>({30, 10, 20}, {20, 40});
    EXPECT_EQ(r.result, (xn::labels{30, 10, 20}));
    EXPECT_TRUE(r.is_identity(0, 3));
    EXPECT_EQ(r.index[1], (index_map{m, m, 0}));
}

TEST(join_right, keeps_the_right_labels_and_gathers_or_fills_the_left)
{
    const auto r = xn::align_labels<xn::join_right>({30, 10, 20}, {20, 40});
    EXPECT_EQ(r.result, (xn::labels{20, 40}));
    EXPECT_EQ(r.index[0], (index_map{2, m}));
    EXPECT_TRUE(r.is_identity(1, 2));
}

TEST(label_alignment, is_identity_needs_every_position_of_the_operand_in_order)
{
    const xn::label_alignment a{{1, 2}, {index_map{0, 1}, index_map{1, 0}}};
    EXPECT_TRUE(a.is_identity(0, 2));
    EXPECT_FALSE(a.is_identity(0, 3));
    EXPECT_FALSE(a.is_identity(1, 2));
}

TEST(align_labels, equal_lists_are_aligned_as_they_are_whatever_the_strategy)
{
    const xn::labels ls{"x1", "x2"};
    const auto r = xn::align_labels<refusing_shaping>(ls, ls);
    EXPECT_EQ(r.result, ls);
    EXPECT_TRUE(r.is_identity(0, 2));
    EXPECT_TRUE(r.is_identity(1, 2));
}

TEST(align_labels, refuses_lists_of_different_types)
{
    XN_EXPECT_THROW_MSG(
        xn::align_labels<xn::join_outer>({1, 2}, {"a"}), xn::shape_error,
        "xn::align_labels: the left labels [1, 2] and the right labels ['a'] have different types "
        "(left label 1 at position 0 is an integer, right label 'a' at position 0 is a string): "
        "the labels of one axis have one type");
}

TEST(align_labels, refuses_a_list_with_repeated_labels)
{
    XN_EXPECT_THROW_MSG(xn::align_labels<xn::join_outer>({1, 2}, {3, 4, 3}), xn::shape_error,
                        "xn::align_labels: the right labels: label 3 appears twice, at positions 0 and 2 of "
                        "[3, 4, 3]: the labels of one axis are unique");
}

TEST(align_labels, refuses_a_sorted_list_with_a_repeated_label)
{
    // Sorted lists are checked and aligned by a walk; a repeat stops being sorted strictly and is found.
    XN_EXPECT_THROW_MSG(xn::align_labels<xn::join_outer>({1, 2, 2, 5}, {3, 4}), xn::shape_error,
                        "xn::align_labels: the left labels: label 2 appears twice, at positions 1 and 2 of "
                        "[1, 2, 2, 5]: the labels of one axis are unique");
    XN_EXPECT_THROW_MSG(xn::align_labels<xn::join_left>({"a", "b"}, {"a", "c", "c"}), xn::shape_error,
                        "xn::align_labels: the right labels: label 'c' appears twice, at positions 1 and 2 "
                        "of ['a', 'c', 'c']: the labels of one axis are unique");
}

TEST(join_outer, of_two_sorted_time_ranges_is_their_merge)
{
    xn::labels a;
    xn::labels b;
    for (std::int64_t t = 0; t < 4000; ++t)
    {
        a.emplace_back(t);
        b.emplace_back(t + 1000);
    }
    const auto r = xn::align_labels<xn::join_outer>(a, b);
    ASSERT_EQ(r.result.size(), 5000u);
    for (std::int64_t t = 0; t < 5000; ++t)
    {
        const auto i = static_cast<std::size_t>(t);
        ASSERT_EQ(r.result[i], xn::label(t)) << t;
        ASSERT_EQ(r.index[0][i], t < 4000 ? t : xn::missing) << t;
        ASSERT_EQ(r.index[1][i], t >= 1000 ? t - 1000 : xn::missing) << t;
    }
}

TEST(align_labels, refuses_an_inconsistent_answer_of_a_user_strategy)
{
    XN_EXPECT_THROW_MSG(
        xn::align_labels<inconsistent_shaping>({1, 2}, {1, 3}), xn::shape_error,
        "xn::align_labels: the shaping strategy returned an inconsistent alignment of [1, 2] and "
        "[1, 3]: index[1][1] = 0 points at label 1 for result label 2");
}

TEST(align_labels, names_the_axis_in_messages_of_an_operation)
{
    XN_EXPECT_THROW_HAS(
        xn::detail::align_checked<xn::join_exact>("add",
                                                  "axis 'x' (axis 0 of the left operand, axis 1 of "
                                                  "the right operand)",
                                                  {1, 2}, {2, 1}),
        xn::shape_error,
        {"xn::add: axis 'x' (axis 0 of the left operand, axis 1 of the right operand): the left "
         "labels [1, 2]",
         "[2, 1]"});
}

// Shaping against xarray: xr.align(a, b, join=...) of two 1-d arrays whose values are their positions.
TEST(align_labels, matches_xarray_align_on_random_label_lists)
{
    const auto cases = fixtures::read("coords_align.txt");
    ASSERT_GE(cases.size(), 4000u);
    const auto to_labels = [](const fixtures::fixture_case& c, const std::string& key)
    {
        xn::labels out;
        if (c.string("kind") == "int")
        {
            for (const auto i : c.ints(key))
            {
                out.emplace_back(i);
            }
        }
        else
        {
            for (const auto& s : c.strings(key))
            {
                out.emplace_back(s);
            }
        }
        return out;
    };
    const auto expect_join =
        [&](const fixtures::fixture_case& c, const std::string& join, const xn::label_alignment& r)
    {
        EXPECT_EQ(r.result, to_labels(c, join)) << join;
        EXPECT_EQ(r.index[0], c.ints(join + "_a")) << join;
        EXPECT_EQ(r.index[1], c.ints(join + "_b")) << join;
    };
    for (const auto& c : cases)
    {
        SCOPED_TRACE("coords_align.txt case at line " + std::to_string(c.line));
        const auto a = to_labels(c, "a");
        const auto b = to_labels(c, "b");
        if (c.string("exact") == "1")
        {
            expect_join(c, "left", xn::align_labels<xn::join_exact>(a, b));
        }
        else
        {
            EXPECT_THROW(xn::align_labels<xn::join_exact>(a, b), xn::shape_error);
        }
        expect_join(c, "inner", xn::align_labels<xn::join_inner>(a, b));
        expect_join(c, "outer", xn::align_labels<xn::join_outer>(a, b));
        expect_join(c, "left", xn::align_labels<xn::join_left>(a, b));
        expect_join(c, "right", xn::align_labels<xn::join_right>(a, b));
        if (HasFailure())
        {
            break;
        }
    }
}

// Alignment inside operations
// ===========================

namespace
{
    using union_dims = xn::with_shaping<xn::missing_dims, xn::join_outer>;
    using inner_dims = xn::with_shaping<xn::missing_dims, xn::join_inner>;

    template <class E>
    xt::xarray<double> values_of(const E& e)
    {
        return xt::xarray<double>(e.expression());
    }

    bool same_with_nan(const xt::xarray<double>& a, const xt::xarray<double>& b)
    {
        if (a.shape() != b.shape())
        {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            const bool both_nan = std::isnan(a.data()[i]) && std::isnan(b.data()[i]);
            if (!both_nan && a.data()[i] != b.data()[i])
            {
                return false;
            }
        }
        return true;
    }

    constexpr double na = std::numeric_limits<double>::quiet_NaN();
} // namespace

TEST(aligned_operations, refuse_different_labels_under_the_default_shaping_naming_the_axis)
{
    const xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {1., 2., 3.};
    auto a = xn::name(x, {"t"}, {{"t", {10, 20, 30}}});
    auto b = xn::name(y, {"t"}, {{"t", {10, 20, 40}}});
    XN_EXPECT_THROW_MSG(
        a + b, xn::shape_error,
        "xn::operator+: axis 't' (axis 0 of the left operand, axis 0 of the right operand): the left "
        "labels [10, 20, 30] (3 labels) and the right labels [10, 20, 40] (3 labels) differ, and the "
        "shaping strategy does not align them (xn::join_exact, the default, needs equal labels: "
        "choose xn::join_inner, xn::join_outer, xn::join_left or xn::join_right)");
}

TEST(aligned_operations, with_equal_labels_under_the_default_shaping_stay_xtensor_functions_of_the_operands)
{
    xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {10., 20., 30.};
    auto a = xn::name(x, {"t"}, {{"t", {10, 20, 30}}});
    auto b = xn::name(y, {"t"}, {{"t", {10, 20, 30}}});
    auto sum = a + b;
    EXPECT_EQ(sum.coords(), (xn::coords{{"t", {10, 20, 30}}}));
    x(0) = 100.;
    EXPECT_EQ(values_of(sum), (xt::xarray<double>{110., 22., 33.}));
}

TEST(aligned_operations, union_tag_sorts_the_labels_and_fills_with_nan)
{
    const xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {10., 20.};
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {30, 10, 20}}});
    auto b = xn::name<union_dims>(y, {"t"}, {{"t", {20, 40}}});
    auto sum = a + b;
    EXPECT_EQ(sum.dims(), xn::dims({"t"}));
    EXPECT_EQ(sum.coords(), (xn::coords{{"t", {10, 20, 30, 40}}}));
    EXPECT_TRUE(same_with_nan(values_of(sum), xt::xarray<double>{na, 13., na, na}));
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(sum)), xt::xarray<double>{na, 13., na, na}));
}

TEST(aligned_operations, intersection_tag_keeps_the_left_order)
{
    const xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {10., 20., 30.};
    auto a = xn::name<inner_dims>(x, {"s"}, {{"s", {"c", "a", "b"}}});
    auto b = xn::name<inner_dims>(y, {"s"}, {{"s", {"a", "b", "d"}}});
    auto product = a * b;
    EXPECT_EQ(product.coords(), (xn::coords{{"s", {"a", "b"}}}));
    EXPECT_EQ(values_of(product), (xt::xarray<double>{20., 60.}));
}

TEST(aligned_operations, apply_chooses_the_shaping_for_one_operation)
{
    const xt::xarray<double> x = {1., 2.};
    const xt::xarray<double> y = {10., 20.};
    auto a = xn::name(x, {"t"}, {{"t", {1, 2}}});
    auto b = xn::name(y, {"t"}, {{"t", {2, 3}}});
    auto left = xn::apply<xn::missing_dims, xn::join_left>(std::minus<>(), a, b);
    EXPECT_EQ(left.coords(), (xn::coords{{"t", {1, 2}}}));
    EXPECT_TRUE(same_with_nan(values_of(left), xt::xarray<double>{na, -8.}));
    auto right = xn::apply<xn::missing_dims, xn::join_right>(std::minus<>(), a, b);
    EXPECT_EQ(right.coords(), (xn::coords{{"t", {2, 3}}}));
    EXPECT_TRUE(same_with_nan(values_of(right), xt::xarray<double>{-8., na}));
    // The result keeps the operands' strategy: it meets them again without a static_assert.
    auto again = left + a;
    EXPECT_EQ(values_of(again).size(), 2u);
}

TEST(aligned_operations, integer_operands_are_filled_with_the_given_value)
{
    const xt::xarray<int> x = {1, 2, 3};
    const xt::xarray<int> y = {10, 20};
    auto a = xn::name(x, {"t"}, {{"t", {10, 20, 30}}});
    auto b = xn::name(y, {"t"}, {{"t", {20, 40}}});
    auto sum = xn::eval(xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), a, b, -100));
    EXPECT_EQ(sum.coords(), (xn::coords{{"t", {10, 20, 30, 40}}}));
    EXPECT_EQ(sum.expression(), (xt::xarray<int>{-99, 12, -97, -80}));
}

TEST(aligned_operations, an_outer_join_is_nan_where_an_operand_lacks_the_label_whatever_the_other_holds)
{
    // Where an operand lacks a time and is filled with NaN, x + NaN, x - NaN, x * NaN and x / NaN are NaN
    // for every x, infinities and zeros included: the join reads none of the other operand there. With a
    // finite fill, the other operand's elements are computed with it.
    const double inf = std::numeric_limits<double>::infinity();
    const xt::xarray<double> x = {{inf, 0., 2., 3.}, {-inf, na, 4., 0.}};
    const xt::xarray<double> y = {{10., 20., 0., inf}, {30., 40., na, -inf}};
    const auto a = xn::name(x, {"s", "t"}, {{"t", {0, 1, 2, 3}}});
    const auto b = xn::name(y, {"s", "t"}, {{"t", {2, 3, 4, 5}}});
    const auto check = [&](auto f, const char* name)
    {
        // A reference loop over the joined times 0 to 5: x holds 0 to 3, y 2 to 5.
        const auto expected_with = [&](double fill)
        {
            xt::xarray<double> expected = xt::xarray<double>::from_shape({2, 6});
            for (std::size_t s = 0; s < 2; ++s)
            {
                for (std::size_t t = 0; t < 6; ++t)
                {
                    expected(s, t) = f(t < 4 ? x(s, t) : fill, t >= 2 ? y(s, t - 2) : fill);
                }
            }
            return expected;
        };
        const auto joined = xn::apply<xn::missing_dims, xn::join_outer>(f, a, b);
        EXPECT_EQ(joined.coords(), (xn::coords{{"t", {0, 1, 2, 3, 4, 5}}})) << name;
        EXPECT_TRUE(same_with_nan(values_of(xn::eval(joined)), expected_with(na))) << name;
        EXPECT_TRUE(same_with_nan(values_of(joined), expected_with(na))) << name;
        const auto filled = xn::apply<xn::missing_dims, xn::join_outer>(f, a, b, 0.);
        EXPECT_TRUE(same_with_nan(values_of(xn::eval(filled)), expected_with(0.))) << name;
    };
    check(std::plus<>(), "+");
    check(std::minus<>(), "-");
    check(std::multiplies<>(), "*");
    check(std::divides<>(), "/");
}

TEST(aligned_operations, integer_operands_without_a_fill_value_are_refused_when_they_lack_labels)
{
    const xt::xarray<int> x = {1, 2, 3};
    const xt::xarray<int> y = {10, 20};
    auto a = xn::name(x, {"t"}, {{"t", {10, 20, 30}}});
    auto b = xn::name(y, {"t"}, {{"t", {20, 40}}});
    XN_EXPECT_THROW_MSG(
        (xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), a, b)), xn::shape_error,
        "xn::apply: the left operand lacks 1 of the 4 aligned labels [10, 20, 30, 40] of axis 't' (its "
        "axis 0), and its element type has no NaN to fill them with: give a fill value, as in "
        "xn::apply<S, Shaping>(f, a, b, fill)");
    // Without anything to fill, integers need no fill value.
    auto inner = xn::apply<xn::missing_dims, xn::join_inner>(std::plus<>(), a, b);
    EXPECT_EQ(xt::xarray<int>(inner.expression()), (xt::xarray<int>{12}));
}

TEST(aligned_operations, labels_of_different_types_do_not_meet)
{
    const xt::xarray<double> x = {1., 2.};
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {1, 2}}});
    auto b = xn::name<union_dims>(x, {"t"}, {{"t", {"1", "2"}}});
    XN_EXPECT_THROW_MSG(
        a + b, xn::shape_error,
        "xn::operator+: axis 't' (axis 0 of the left operand, axis 0 of the right operand): the left "
        "labels [1, 2] and the right labels ['1', '2'] have different types (left label 1 at position "
        "0 is an integer, right label '1' at position 0 is a string): the labels of one axis have one "
        "type");
}

TEST(aligned_operations, an_axis_without_labels_must_have_the_size_of_the_labels_it_meets)
{
    const xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {1., 2.};
    auto a = xn::name(x, {"t"}, {{"t", {10, 20, 30}}});
    auto b = xn::name(y, {"t"});
    XN_EXPECT_THROW_MSG(
        a + b, xn::shape_error,
        "xn::operator+: axis 't' (axis 0 of the left operand, axis 0 of the right operand): the axis "
        "has 3 labels [10, 20, 30] but size 2 where it has no labels: an axis without labels takes the "
        "labels it meets only at their size");
    auto c = xn::name(x, {"t"});
    auto sum = c + a;
    EXPECT_EQ(sum.coords(), (xn::coords{{"t", {10, 20, 30}}}));
}

TEST(aligned_operations, a_labelled_axis_is_not_stretched)
{
    xt::xarray<double> x = {1., 2.};
    x.reshape({2, 1});
    const xt::xarray<double> y = {1., 2., 3.};
    auto a = xn::name<xn::numpy>(x, {"s", "t"}, {{"t", {7}}});
    auto b = xn::name<xn::numpy>(y, {"?"});
    XN_EXPECT_THROW_MSG(
        a + b, xn::shape_error,
        "xn::operator+: axis 't' (axis 1) of (s, t) of the result has size 3 but operand 0 brings 1 "
        "labels [7]: a labelled axis is not stretched");
}

TEST(aligned_operations, a_gathered_operand_is_copied_when_the_operation_is_first_read)
{
    xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {10., 20., 30.};
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {1, 2, 3}}});
    auto same = xn::name<union_dims>(y, {"t"}, {{"t", {1, 2, 3}}});
    auto shifted = xn::name<union_dims>(y, {"t"}, {{"t", {2, 3, 4}}});
    auto lazy = a + same;
    auto joined = a + shifted;
    // A function that is not joined in one pass: each operand reindexed on its own, the lazy one evaluated.
    const auto difference = [](double l, double r) { return l - r; };
    auto reindexed = xn::apply<union_dims, xn::join_outer>(difference, xn::exp(a) * 0. + a, shifted);
    // Before anything reads them, nothing was reindexed: a write reaches every operation.
    x(1) = 200.;
    EXPECT_EQ(values_of(lazy), (xt::xarray<double>{11., 220., 33.}));
    EXPECT_TRUE(same_with_nan(values_of(joined), xt::xarray<double>{na, 210., 23., na}));
    EXPECT_TRUE(same_with_nan(values_of(reindexed), xt::xarray<double>{na, 190., -17., na}));
    // Once read, the reindexed values are kept, as a reduction inside an operation is: equal labels, the
    // view still refers to x; different labels, x was reindexed before this change.
    x(1) = 300.;
    EXPECT_EQ(values_of(lazy), (xt::xarray<double>{11., 320., 33.}));
    EXPECT_TRUE(same_with_nan(values_of(joined), xt::xarray<double>{na, 210., 23., na}));
    EXPECT_TRUE(same_with_nan(values_of(reindexed), xt::xarray<double>{na, 190., -17., na}));
}

TEST(aligned_operations, take_over_rvalue_operands)
{
    const auto make = [](double first, xn::labels labels)
    {
        xt::xarray<double> values = {first, first + 1.};
        return xn::name<union_dims>(std::move(values), {"t"}, {{"t", std::move(labels)}});
    };
    auto sum = make(1., {1, 2}) + make(10., {1, 2});
    auto joined = make(1., {1, 2}) + make(10., {2, 3});
    EXPECT_EQ(values_of(sum), (xt::xarray<double>{11., 13.}));
    EXPECT_TRUE(same_with_nan(values_of(joined), xt::xarray<double>{na, 12., na}));
}

TEST(aligned_operations, evaluate_a_lazy_named_operand_once)
{
    const xt::xarray<double> x = {1., 2.};
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {1, 2}}});
    auto doubled = a * 2.;
    EXPECT_EQ(doubled.coords(), a.coords());
    auto b = xn::name<union_dims>(x, {"t"}, {{"t", {2, 5}}});
    EXPECT_TRUE(same_with_nan(values_of(doubled + b), xt::xarray<double>{na, 5., na}));
}

namespace
{
    // The values of `e` element by element through xtensor's own access, bit for bit.
    bool same_bits(const xt::xarray<double>& a, const xt::xarray<double>& b)
    {
        if (a.shape() != b.shape())
        {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            const bool both_nan = std::isnan(a.data()[i]) && std::isnan(b.data()[i]);
            if (!both_nan &&
                (a.data()[i] != b.data()[i] || std::signbit(a.data()[i]) != std::signbit(b.data()[i])))
            {
                return false;
            }
        }
        return true;
    }

    // f(a, b) under xn::join_outer computed through xn::align, which reindexes each operand on its own.
    template <class F, class A, class B>
    xt::xarray<double> through_align(F f, const A& a, const B& b)
    {
        auto [l, r] = xn::align<xn::join_outer>(a, b);
        return xt::xarray<double>(f(l, r).expression());
    }
} // namespace

TEST(aligned_operations, arithmetic_joined_in_one_pass_equals_each_operand_gathered_on_its_own)
{
    // Two labelled axes, both joined; the right operand transposed in memory, and lazy.
    const xt::xarray<double> x = {{1., -0., 3., 4.}, {5., 6., -7., 8.}, {9., 10., 11., -0.}};
    const xt::xarray<double> y_t = {{-0., 2.5, 4.}, {0.5, -0., 8.}, {-1.5, 3., 0.}, {2., 6., -0.}};
    const auto a = xn::name<union_dims>(x, {"s", "t"}, {{"s", {"p", "q", "r"}}, {"t", {0, 1, 2, 3}}});
    const auto b =
        xn::name<union_dims>(xt::transpose(y_t), {"s", "t"}, {{"s", {"q", "r", "z"}}, {"t", {2, 3, 4, 5}}});
    const auto lazy_b = b * 1.;
    const auto plus = [](const auto& l, const auto& r) { return l + r; };
    const auto minus = [](const auto& l, const auto& r) { return l - r; };
    const auto times = [](const auto& l, const auto& r) { return l * r; };
    const auto divided = [](const auto& l, const auto& r) { return l / r; };
    const auto check = [&](auto f, const char* what)
    {
        SCOPED_TRACE(what);
        const auto joined = f(a, b);
        EXPECT_EQ(joined.coords(), (xn::coords{{"s", {"p", "q", "r", "z"}}, {"t", {0, 1, 2, 3, 4, 5}}}));
        const auto expected = through_align(f, a, b);
        EXPECT_EQ(expected.shape()[0], 4u);
        EXPECT_TRUE(same_bits(values_of(joined), expected));
        EXPECT_TRUE(same_bits(values_of(xn::eval(joined)), expected));
        EXPECT_TRUE(same_bits(values_of(f(a, lazy_b)), expected));
        // The sum of what each operand has, a reduction that reads the joined result.
        EXPECT_TRUE(
            same_bits(values_of(xn::nansum(joined, {"t"})), xt::xarray<double>(xt::nansum(expected, {1}))));
    };
    check(plus, "+");
    check(minus, "-");
    check(times, "*");
    check(divided, "/");
    // A sign stays: (q, 2) is -7 + -0 and (r, 3) is -0 + -0.
    const auto sum = values_of(a + b);
    EXPECT_EQ(sum(1, 2), -7.);
    EXPECT_EQ(sum(2, 3), 0.);
    EXPECT_TRUE(std::signbit(sum(2, 3)));
}

TEST(aligned_operations, a_join_read_with_a_reduction_of_it_is_computed_block_by_block_as_a_whole)
{
    // The anomaly after an outer join, large enough for many blocks of rows: each block of the joined
    // values, of their mean over t and of the difference is computed in turn, and gives the bits of the
    // join and the mean computed whole (through xtensor's assignment, which reads them whole first).
    const std::size_t stations = 96;
    xt::xarray<double> x = xt::xarray<double>::from_shape({stations, 3000});
    xt::xarray<double> y = xt::xarray<double>::from_shape({stations, 2500});
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        x.flat(i) = std::sin(0.001 * static_cast<double>(i)) * 10.;
    }
    for (std::size_t i = 0; i < y.size(); ++i)
    {
        y.flat(i) = std::cos(0.002 * static_cast<double>(i));
    }
    xn::labels x_times(3000);
    xn::labels y_times(2500);
    for (std::int64_t t = 0; t < 3000; ++t)
    {
        x_times[static_cast<std::size_t>(t)] = t;
    }
    for (std::int64_t t = 0; t < 2500; ++t)
    {
        y_times[static_cast<std::size_t>(t)] = 1000 + t;
    }
    const auto a = xn::name<union_dims>(x, {"s", "t"}, {{"t", x_times}});
    const auto b = xn::name<union_dims>(y, {"s", "t"}, {{"t", y_times}});
    const auto through_kernels = [&]
    {
        const auto j = a + b;
        return xt::xarray<double>(xn::eval(j - xn::nanmean(j, {"t"})).expression());
    };
    const auto through_xtensor = [&]
    {
        const auto j = a + b;
        const auto anomaly = j - xn::nanmean(j, {"t"});
        return xt::xarray<double>(anomaly.expression());
    };
    const xt::xarray<double> blocks = through_kernels();
    const xt::xarray<double> whole = through_xtensor();
    ASSERT_EQ(blocks.shape(), (std::vector<std::size_t>{stations, 3500}));
    EXPECT_TRUE(same_with_nan(blocks, whole));
    // One station against a reference loop: the times both series have are summed, the others are NaN.
    const std::size_t s = 50;
    double total = 0;
    for (std::size_t t = 0; t < 3500; ++t)
    {
        const bool in_x = t < 3000;
        const bool in_y = t >= 1000;
        total += in_x && in_y ? x(s, t) + y(s, t - 1000) : 0.;
    }
    const double mean = total / 2000.;
    EXPECT_TRUE(std::isnan(blocks(s, 10)));
    EXPECT_NEAR(blocks(s, 1500), x(s, 1500) + y(s, 500) - mean, 1e-12);
}

TEST(aligned_operations, a_join_that_the_kernels_read_by_rows_is_computed_for_each_evaluation)
{
    // Rows of a join that an evaluation reads at its own rows are computed for that evaluation, in the
    // cache, and not kept: the next evaluation joins the operands as they are then. A reader of the join
    // whole (here an element read) fills it and keeps it, and later evaluations read what it kept.
    xt::xarray<double> x = {{1., 2., 3.}, {4., 5., 6.}};
    const xt::xarray<double> y = {{10., 20., 30.}, {40., 50., 60.}};
    const auto a = xn::name<union_dims>(x, {"s", "t"}, {{"t", {0, 1, 2}}});
    const auto b = xn::name<union_dims>(y, {"s", "t"}, {{"t", {1, 2, 3}}});
    const auto j = a + b;
    const auto doubled = j * 2.;
    const xt::xarray<double> first = {{na, 24., 46., na}, {na, 90., 112., na}};
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(doubled)), first));
    x(0, 1) = 100.;
    const xt::xarray<double> second = {{na, 220., 46., na}, {na, 90., 112., na}};
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(doubled)), second));
    EXPECT_EQ(j.expression()(0, 1), 110.);
    x(0, 1) = 1000.;
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(doubled)), second));
    // A rank-1 join is one row: it is read whole, and kept from its first read.
    xt::xarray<double> u = {1., 2.};
    const xt::xarray<double> v = {10., 20.};
    const auto joined_row =
        xn::name<union_dims>(u, {"t"}, {{"t", {0, 1}}}) + xn::name<union_dims>(v, {"t"}, {{"t", {1, 2}}});
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(joined_row * 2.)), xt::xarray<double>{na, 24., na}));
    u(1) = 5.;
    EXPECT_TRUE(same_with_nan(values_of(xn::eval(joined_row * 2.)), xt::xarray<double>{na, 24., na}));
}

TEST(aligned_operations, a_join_is_computed_in_the_output_only_where_nothing_else_reads_the_output)
{
    // A join's rows are computed straight into an output of its shape, type and row-major order, which
    // the operation then reads and writes in place. An output that the tree or the join reads, of
    // another type or order, or wider than the join, is written as before: the values are the same.
    const std::size_t stations = 6;
    xt::xarray<double> x = xt::xarray<double>::from_shape({stations, 5});
    xt::xarray<double> y = xt::xarray<double>::from_shape({stations, 4});
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        x.flat(i) = 1. + static_cast<double>(i);
    }
    for (std::size_t i = 0; i < y.size(); ++i)
    {
        y.flat(i) = 100. * static_cast<double>(i + 1);
    }
    x(2, 3) = na;
    // x at times 0 to 4, y at 3 to 6: the union has 0 to 6, and both have 3 and 4.
    const auto a = xn::name<union_dims>(x, {"s", "t"}, {{"t", {0, 1, 2, 3, 4}}});
    const auto b = xn::name<union_dims>(y, {"s", "t"}, {{"t", {3, 4, 5, 6}}});
    xt::xarray<double> joined = xt::xarray<double>::from_shape({stations, 7});
    xt::xarray<double> anomaly = joined;
    for (std::size_t s = 0; s < stations; ++s)
    {
        double total = 0;
        double count = 0;
        for (std::size_t t = 0; t < 7; ++t)
        {
            joined(s, t) = t >= 3 && t <= 4 ? x(s, t) + y(s, t - 3) : na;
            total += std::isnan(joined(s, t)) ? 0. : joined(s, t);
            count += std::isnan(joined(s, t)) ? 0. : 1.;
        }
        for (std::size_t t = 0; t < 7; ++t)
        {
            anomaly(s, t) = joined(s, t) - total / count;
        }
    }
    const auto j = a + b;
    const auto centred = j - xn::nanmean(j, {"t"});

    // Into the output: a preallocated array, a named one, and one that assignment resizes.
    xt::xarray<double> out = xt::xarray<double>::from_shape({stations, 7});
    xn::assign(out, j);
    EXPECT_TRUE(same_with_nan(out, joined));
    xn::assign(out, centred);
    EXPECT_TRUE(same_with_nan(out, anomaly));
    xt::xtensor<double, 2> named_storage = xt::xtensor<double, 2>::from_shape({stations, 7});
    auto named_out = xn::name(named_storage, {"s", "t"});
    xn::assign(named_out, centred);
    EXPECT_TRUE(same_with_nan(named_storage, anomaly));
    xt::xarray<double> resized;
    xn::assign(resized, centred);
    EXPECT_TRUE(same_with_nan(resized, anomaly));

    // An output that the tree reads as well: its old values, not the join's, are subtracted.
    xt::xarray<double> read_too = xt::ones<double>({stations, std::size_t(7)}) * 2.;
    xn::assign(read_too, j - xn::name<union_dims>(read_too, {"s", "t"}));
    EXPECT_TRUE(same_with_nan(read_too, xt::xarray<double>(joined - 2.)));

    // An output that the join reads: x itself, where the union is x's times and y is reindexed.
    xt::xarray<double> x_out = x;
    const auto left = xn::name<union_dims>(x_out, {"s", "t"}, {{"t", {0, 1, 2, 3, 4}}});
    const auto inside = xn::name<union_dims>(xt::xarray<double>(xt::view(y, xt::all(), xt::range(0, 2))),
                                             {"s", "t"}, {{"t", {3, 4}}});
    xn::assign(x_out, left + inside);
    for (std::size_t s = 0; s < stations; ++s)
    {
        for (std::size_t t = 0; t < 5; ++t)
        {
            const double expected = t >= 3 ? x(s, t) + y(s, t - 3) : na;
            EXPECT_TRUE(std::isnan(expected) ? std::isnan(x_out(s, t)) : x_out(s, t) == expected)
                << "station " << s << ", time " << t;
        }
    }

    // An output of another type, one of the other axis order, a view with rows apart, and an output
    // wider than the join (a new axis c after the join's).
    xt::xarray<float> single = xt::xarray<float>::from_shape({stations, 7});
    xn::assign(single, centred);
    EXPECT_TRUE(same_with_nan(xt::xarray<double>(single), xt::xarray<double>(xt::cast<float>(anomaly))));
    xt::xtensor<double, 2> transposed_storage = xt::xtensor<double, 2>::from_shape({7, stations});
    auto transposed = xn::name(transposed_storage, {"t", "s"});
    xn::assign(transposed, centred);
    EXPECT_TRUE(same_with_nan(xt::xarray<double>(xt::transpose(transposed_storage)), anomaly));
    xt::xarray<double> wide = xt::zeros<double>({stations, std::size_t(9)});
    auto rows_apart = xt::view(wide, xt::all(), xt::range(1, 8));
    xn::assign(rows_apart, centred);
    EXPECT_TRUE(same_with_nan(xt::xarray<double>(rows_apart), anomaly));
    EXPECT_EQ(wide(0, 0), 0.);
    EXPECT_EQ(wide(stations - 1, 8), 0.);
    const auto per_channel = xn::name<union_dims>(xt::xarray<double>{1., 2., 3.}, {"c"});
    xt::xarray<double> with_channels = xt::xarray<double>::from_shape({stations, 7, 3});
    xn::assign(with_channels, j * per_channel);
    for (std::size_t c = 0; c < 3; ++c)
    {
        EXPECT_TRUE(same_with_nan(xt::xarray<double>(xt::view(with_channels, xt::all(), xt::all(), c)),
                                  xt::xarray<double>(joined * static_cast<double>(c + 1))))
            << "channel " << c;
    }
}

TEST(aligned_operations, arithmetic_of_operands_that_do_not_join_in_one_pass_is_gathered_operand_by_operand)
{
    // Different axis orders, a broadcast, an element type that + promotes: each reindexed on its own.
    const xt::xarray<double> x = {{1., 2.}, {3., 4.}};
    const auto a = xn::name<union_dims>(x, {"s", "t"}, {{"t", {0, 1}}});
    const auto b = xn::name<union_dims>(x, {"t", "s"}, {{"t", {1, 2}}});
    EXPECT_TRUE(same_with_nan(values_of(a + b), xt::xarray<double>{{na, 3., na}, {na, 6., na}}));
    const auto row = xn::name<union_dims>(xt::xarray<double>{10., 20.}, {"t"}, {{"t", {1, 2}}});
    EXPECT_TRUE(same_with_nan(values_of(a + row), xt::xarray<double>{{na, 12., na}, {na, 14., na}}));
    const xt::xarray<std::int8_t> small = {100, 100};
    const auto c = xn::name(small, {"t"}, {{"t", {0, 1}}});
    const auto d = xn::name(small, {"t"}, {{"t", {1, 2}}});
    const auto widened = xn::eval(xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), c, d, 0));
    EXPECT_EQ(widened.expression(), (xt::xarray<int>{100, 200, 100}));
}

TEST(aligned_operations, align_every_operand_of_a_ternary_function)
{
    const xt::xarray<bool> c = {true, false, true, false};
    const xt::xarray<double> x = {1., 2., 3.};
    const xt::xarray<double> y = {10., 20.};
    auto cond = xn::name<union_dims>(c, {"t"}, {{"t", {1, 2, 3, 4}}});
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {2, 3, 4}}});
    auto b = xn::name<union_dims>(y, {"t"}, {{"t", {4, 1}}});
    auto chosen = xn::where(cond, a, b);
    EXPECT_EQ(chosen.coords(), (xn::coords{{"t", {1, 2, 3, 4}}}));
    // a at 1..4: [nan, 1, 2, 3]; b: [20, nan, nan, 10].
    EXPECT_TRUE(same_with_nan(values_of(chosen), xt::xarray<double>{na, na, 2., 10.}));
    // A condition that lacks labels has nothing to fill them with.
    auto short_cond = xn::name<union_dims>(xt::xarray<bool>{true}, {"t"}, {{"t", {1}}});
    XN_EXPECT_THROW_HAS(xn::where(short_cond, a, b), xn::shape_error,
                        {"xn::where: operand 0 lacks 3 of the 4 aligned labels [1, 2, 3, 4] of axis 't'"});
}

TEST(aligned_operations, explicit_broadcast_aligns_the_labels_first)
{
    const xt::xarray<double> x = {1., 2.};
    const xt::xarray<double> y = {10., 20.};
    auto a = xn::name<union_dims>(x, {"t"}, {{"t", {1, 2}}});
    auto b = xn::name<union_dims>(y, {"s"}, {{"s", {"p", "q"}}});
    auto [l, r] = xn::broadcast(a, b);
    EXPECT_EQ(l.dims(), xn::dims({"t", "s"}));
    EXPECT_EQ(l.coords(), (xn::coords{{"t", {1, 2}}, {"s", {"p", "q"}}}));
    EXPECT_EQ(r.coords(), l.coords());
    EXPECT_EQ(values_of(r), (xt::xarray<double>{{10., 20.}, {10., 20.}}));
}

TEST(aligned_operations, a_refused_alignment_leaves_the_operands_as_they_were)
{
    xt::xarray<int> x = {1, 2};
    auto a = xn::name(x, {"t"}, {{"t", {1, 2}}});
    auto b = xn::name(x, {"t"}, {{"t", {2, 3}}});
    EXPECT_THROW((xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), a, b)), xn::shape_error);
    EXPECT_EQ(x, (xt::xarray<int>{1, 2}));
    EXPECT_EQ(a.coords(), (xn::coords{{"t", {1, 2}}}));
    EXPECT_EQ(b.coords(), (xn::coords{{"t", {2, 3}}}));
}

// tensorics' example verbatim: X with {x1, x2}, Y with {y1, y2}, broadcast to (X, Y).
TEST(aligned_operations, seed_000_broadcasts_x_against_y_by_label)
{
    const xt::xarray<double> left = {1.0, 2.0};
    const xt::xarray<double> right = {0.1, 0.2};
    auto l = xn::name(left, {"X"}, {{"X", {"x1", "x2"}}});
    auto r = xn::name(right, {"Y"}, {{"Y", {"y1", "y2"}}});
    auto [bl, br] = xn::broadcast(l, r);
    EXPECT_EQ(bl.dims(), xn::dims({"X", "Y"}));
    EXPECT_EQ(bl.coords(), (xn::coords{{"X", {"x1", "x2"}}, {"Y", {"y1", "y2"}}}));
    const auto at = [](const auto& e, const char* x, const char* y) {
        return xt::xarray<double>(e.sel({{"X", x}, {"Y", y}}).expression())();
    };
    // broadcasted left: {[x1,y1]=1.0, [x1,y2]=1.0, [x2,y1]=2.0, [x2,y2]=2.0}
    EXPECT_EQ(at(bl, "x1", "y1"), 1.0);
    EXPECT_EQ(at(bl, "x1", "y2"), 1.0);
    EXPECT_EQ(at(bl, "x2", "y1"), 2.0);
    EXPECT_EQ(at(bl, "x2", "y2"), 2.0);
    // broadcasted right: {[x1,y1]=0.1, [x1,y2]=0.2, [x2,y1]=0.1, [x2,y2]=0.2}
    EXPECT_EQ(at(br, "x1", "y1"), 0.1);
    EXPECT_EQ(at(br, "x1", "y2"), 0.2);
    EXPECT_EQ(at(br, "x2", "y1"), 0.1);
    EXPECT_EQ(at(br, "x2", "y2"), 0.2);
}

// Against xarray: xr.align(a, b, join=...) then arithmetic, on thousands of random labelled operands.
namespace
{
    template <class Shaping, class T>
    void check_arith_case(const fixtures::fixture_case& c)
    {
        using strategy = xn::with_shaping<xn::missing_dims, Shaping>;
        const xn::dims a_dims(c.strings("a_dims"));
        const xn::dims b_dims(c.strings("b_dims"));
        const auto a_values = xn_test::fixture_array<T>(c, "a_values", xn_test::fixture_shape(c, "a_shape"));
        const auto b_values = xn_test::fixture_array<T>(c, "b_values", xn_test::fixture_shape(c, "b_shape"));
        const auto a = xn::name<strategy>(a_values, a_dims, xn_test::fixture_coords(c, "a_", a_dims));
        const auto b = xn::name<strategy>(b_values, b_dims, xn_test::fixture_coords(c, "b_", b_dims));
        const std::string op = c.string("op");

        // Floats through the operators of the tagged expressions, integers through apply and a fill value.
        const auto check = [&](const auto& compute)
        {
            if (c.has("error"))
            {
                const auto what = "'" + c.string("error_axis") + "'";
                if (c.string("error") == "shape_error")
                {
                    XN_EXPECT_THROW_HAS(compute(), xn::shape_error, {what});
                }
                else
                {
                    XN_EXPECT_THROW_HAS(compute(), xn::broadcast_error, {what});
                }
                return;
            }
            const auto result = compute();
            const xn::dims r_dims(c.strings("r_dims"));
            const auto r_shape = xn_test::fixture_shape(c, "r_shape");
            EXPECT_EQ(result.dims(), r_dims);
            EXPECT_EQ(result.coords(), xn_test::fixture_coords(c, "r_", r_dims));
            const auto expected = xn_test::fixture_array<T>(c, "r_values", r_shape);
            const auto evaluated = xn::eval(result);
            ASSERT_EQ(std::vector<std::size_t>(evaluated.shape().begin(), evaluated.shape().end()), r_shape);
            xn_test::expect_same_values(evaluated.expression(), expected);
            EXPECT_EQ(evaluated.coords(), result.coords());
            const xt::xarray<T> through_xtensor = result.expression();
            xn_test::expect_same_values(through_xtensor, expected);
        };
        const auto with = [&](auto functor)
        {
            if constexpr (std::is_floating_point<T>::value)
            {
                check([&] { return functor(a, b); });
            }
            else if (c.has("fill"))
            {
                const auto fill = c.ints("fill").front();
                check([&] { return xn::apply<xn::missing_dims, Shaping>(functor, a, b, fill); });
            }
            else
            {
                check([&] { return xn::apply<xn::missing_dims, Shaping>(functor, a, b); });
            }
        };
        if (op == "add")
        {
            with([](const auto& l, const auto& r) { return l + r; });
        }
        else if (op == "sub")
        {
            with([](const auto& l, const auto& r) { return l - r; });
        }
        else if (op == "mul")
        {
            with([](const auto& l, const auto& r) { return l * r; });
        }
        else
        {
            with([](const auto& l, const auto& r) { return l / r; });
        }
    }

    template <class T>
    void check_arith_case_of(const fixtures::fixture_case& c)
    {
        const std::string join = c.string("join");
        if (join == "exact")
        {
            check_arith_case<xn::join_exact, T>(c);
        }
        else if (join == "inner")
        {
            check_arith_case<xn::join_inner, T>(c);
        }
        else if (join == "outer")
        {
            check_arith_case<xn::join_outer, T>(c);
        }
        else if (join == "left")
        {
            check_arith_case<xn::join_left, T>(c);
        }
        else
        {
            check_arith_case<xn::join_right, T>(c);
        }
    }
} // namespace

TEST(aligned_operations, match_xarray_align_then_arithmetic_on_random_labelled_operands)
{
    const auto cases = fixtures::read("coords_arith.txt");
    ASSERT_GE(cases.size(), 3000u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("coords_arith.txt case at line " + std::to_string(c.line));
        if (c.string("dtype") == "float")
        {
            check_arith_case_of<double>(c);
        }
        else
        {
            check_arith_case_of<std::int64_t>(c);
        }
        if (HasFailure())
        {
            break;
        }
    }
}
