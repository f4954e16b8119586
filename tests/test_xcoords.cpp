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
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/coords_fixture.hpp"
#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

// A label is a std::variant of an integer and a string, labels a std::vector of them.
static_assert(std::is_same<xn::label, std::variant<std::int64_t, std::string>>::value);
static_assert(std::is_same<xn::labels, std::vector<xn::label>>::value);

TEST(labels, integer_literals_make_integer_labels)
{
    const xn::labels ls{10, 20, 30};
    ASSERT_EQ(ls.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(ls[0]), 10);
    EXPECT_EQ(std::get<std::int64_t>(ls[2]), 30);
}

TEST(labels, string_literals_make_string_labels)
{
    const xn::labels ls{"x1", "x2"};
    ASSERT_EQ(ls.size(), 2u);
    EXPECT_EQ(std::get<std::string>(ls[0]), "x1");
    EXPECT_EQ(std::get<std::string>(ls[1]), "x2");
}

TEST(labels, one_literal_is_one_label_not_a_size)
{
    const xn::labels zero{0};
    ASSERT_EQ(zero.size(), 1u);
    EXPECT_EQ(std::get<std::int64_t>(zero[0]), 0);
    const xn::labels two{2};
    ASSERT_EQ(two.size(), 1u);
    EXPECT_EQ(std::get<std::int64_t>(two[0]), 2);
    const xn::labels one_string{"a"};
    ASSERT_EQ(one_string.size(), 1u);
    EXPECT_EQ(std::get<std::string>(one_string[0]), "a");
}

TEST(labels, format_quotes_strings_and_shortens_long_lists)
{
    EXPECT_EQ(xn::detail::format_labels({10, -20}), "[10, -20]");
    EXPECT_EQ(xn::detail::format_labels({"x1", "it's"}), "['x1', 'it\\x27s']");
    EXPECT_EQ(xn::detail::format_labels({}), "[]");
    EXPECT_EQ(xn::detail::format_labels({0, 6, 12, 18, 24, 30, 36, 42}), "[0, 6, 12, 18, 24, 30, 36, 42]");
    EXPECT_EQ(xn::detail::format_labels({0, 6, 12, 18, 24, 30, 36, 42, 48, 54}),
              "[0, 6, 12, ..., 42, 48, 54]");
}

TEST(labels, a_long_list_of_integers_or_strings_shows_its_first_and_last_three)
{
    xn::labels times;
    xn::labels names;
    for (std::int64_t i = 0; i < 1000; ++i)
    {
        times.emplace_back(i * 60);
        names.emplace_back("s" + std::to_string(i));
    }
    EXPECT_EQ(xn::detail::format_labels(times), "[0, 60, 120, ..., 59820, 59880, 59940]");
    EXPECT_EQ(xn::detail::format_labels(names), "['s0', 's1', 's2', ..., 's997', 's998', 's999']");
    const xn::labels nine{"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    EXPECT_EQ(xn::detail::format_labels(nine), "['a', 'b', 'c', ..., 'g', 'h', 'i']");
    EXPECT_EQ((xn::coords{{"t", times}}).to_string(), "{t: [0, 60, 120, ..., 59820, 59880, 59940]}");
}

TEST(check_labels, refuses_a_repeated_label_naming_both_positions)
{
    XN_EXPECT_THROW_MSG(
        xn::detail::check_labels("op", "axis 'x'", {10, 20, 30, 20, 10}), xn::shape_error,
        "xn::op: axis 'x': label 20 appears twice, at positions 1 and 3 of [10, 20, 30, 20, 10]: "
        "the labels of one axis are unique");
}

TEST(check_labels, refuses_labels_of_two_types_naming_both)
{
    XN_EXPECT_THROW_MSG(
        xn::detail::check_labels("op", "axis 't'", {"a", "b", 3}), xn::shape_error,
        "xn::op: axis 't': label 3 at position 2 is an integer but label 'a' at position 0 is "
        "a string: the labels of one axis have one type");
}

TEST(check_labels, accepts_unique_labels_of_one_type_and_an_empty_list)
{
    EXPECT_NO_THROW(xn::detail::check_labels("op", "axis 'x'", {3, 1, 2}));
    EXPECT_NO_THROW(xn::detail::check_labels("op", "axis 'x'", {"b", "a"}));
    EXPECT_NO_THROW(xn::detail::check_labels("op", "axis 'x'", {}));
}

TEST(labels, compare_as_std_variant_orders_them)
{
    // label_less and label_equal compare two integers directly: every pair, integers at the ends of
    // their range, strings, and an integer against a string, gives what std::variant's operators give.
    const xn::labels all = {std::int64_t(-9223372036854775807 - 1), -5, -1,  0,    1,   2,    1000,
                            std::int64_t(9223372036854775807),      "", "a", "ab", "b", "10", "2"};
    for (const auto& a : all)
    {
        for (const auto& b : all)
        {
            EXPECT_EQ(xn::detail::label_less(a, b), a < b)
                << xn::detail::format_label(a) << " < " << xn::detail::format_label(b);
            EXPECT_EQ(xn::detail::label_equal(a, b), a == b)
                << xn::detail::format_label(a) << " == " << xn::detail::format_label(b);
        }
    }
    EXPECT_TRUE(xn::detail::strictly_increasing({-3, 0, 7}));
    EXPECT_FALSE(xn::detail::strictly_increasing({0, 0}));
    EXPECT_FALSE(xn::detail::strictly_increasing({"b", "a"}));
}

TEST(label_index, finds_positions_and_reports_absent_labels_as_missing)
{
    const xn::labels ls{"c", "a", "b"};
    const xn::detail::label_index index(ls);
    EXPECT_EQ(index.position_of("c"), 0);
    EXPECT_EQ(index.position_of("b"), 2);
    EXPECT_EQ(index.position_of("z"), xn::missing);
    EXPECT_EQ(index.position_of(0), xn::missing);
    EXPECT_EQ(index.size(), 3u);
}

TEST(coords, builds_from_nested_braces_with_integer_and_string_labels)
{
    const xn::coords c{{"x", {10, 20}}, {"t", {"a", "b", "c"}}};
    EXPECT_EQ(c.size(), 2u);
    EXPECT_TRUE(c.has("x"));
    EXPECT_TRUE(c.has("t"));
    EXPECT_FALSE(c.has("y"));
    EXPECT_EQ(c.at("x"), (xn::labels{10, 20}));
    EXPECT_EQ(c.at("t"), (xn::labels{"a", "b", "c"}));
    EXPECT_EQ(c.names(), (std::vector<std::string>{"x", "t"}));
}

TEST(coords, one_entry_of_string_labels_is_not_mistaken_for_anything_else)
{
    const xn::coords c{{"x", {"a", "b"}}};
    EXPECT_EQ(c.size(), 1u);
    EXPECT_EQ(c.at("x"), (xn::labels{"a", "b"}));
}

TEST(coords, an_empty_coords_has_no_axis)
{
    const xn::coords c;
    EXPECT_TRUE(c.empty());
    EXPECT_FALSE(c.has("x"));
    EXPECT_EQ(c.find("x"), nullptr);
    EXPECT_EQ(c.to_string(), "{}");
}

TEST(coords, at_an_axis_without_labels_is_a_name_error_listing_the_labelled_axes)
{
    const xn::coords c{{"x", {10, 20}}};
    XN_EXPECT_THROW_MSG(c.at("y"), xn::name_error,
                        "xn::coords::at: axis 'y' has no labels; labelled axes: {x: [10, 20]}");
}

TEST(coords, equality_ignores_the_order_of_the_entries)
{
    const xn::coords a{{"x", {10, 20}}, {"t", {"a", "b"}}};
    const xn::coords b{{"t", {"a", "b"}}, {"x", {10, 20}}};
    EXPECT_EQ(a, b);
    EXPECT_FALSE(a != b);
}

TEST(coords, equality_sees_label_order_values_and_axes)
{
    const xn::coords a{{"x", {10, 20}}};
    EXPECT_NE(a, (xn::coords{{"x", {20, 10}}}));
    EXPECT_NE(a, (xn::coords{{"x", {10, 21}}}));
    EXPECT_NE(a, (xn::coords{{"y", {10, 20}}}));
    EXPECT_NE(a, (xn::coords{{"x", {10, 20}}, {"y", {1}}}));
    EXPECT_NE(a, (xn::coords{{"x", {"10", "20"}}}));
    EXPECT_NE(a, xn::coords());
}

TEST(coords, refuses_repeated_labels_of_an_axis)
{
    XN_EXPECT_THROW_MSG(
        (xn::coords{{"x", {"x1", "x2", "x1"}}}), xn::shape_error,
        "xn::coords: axis 'x': label 'x1' appears twice, at positions 0 and 2 of ['x1', 'x2', 'x1']: "
        "the labels of one axis are unique");
}

TEST(coords, refuses_an_axis_with_labels_of_two_types)
{
    XN_EXPECT_THROW_MSG(
        (xn::coords{{"x", {1, "a"}}}), xn::shape_error,
        "xn::coords: axis 'x': label 'a' at position 1 is a string but label 1 at position 0 is an "
        "integer: the labels of one axis have one type");
}

TEST(coords, refuses_an_axis_given_twice)
{
    XN_EXPECT_THROW_MSG((xn::coords{{"x", {1}}, {"y", {2}}, {"x", {3}}}), xn::name_error,
                        "xn::coords: axis 'x' is given labels twice, in entries 0 and 2");
}

TEST(coords, refuses_labels_for_an_unnamed_or_invalid_axis)
{
    XN_EXPECT_THROW_HAS((xn::coords{{"?", {1}}}), xn::name_error, {"xn::coords", "invalid axis name '?'"});
    XN_EXPECT_THROW_HAS((xn::coords{{"1x", {1}}}), xn::name_error, {"xn::coords", "invalid axis name '1x'"});
    XN_EXPECT_THROW_HAS((xn::coords{{"", {1}}}), xn::name_error, {"xn::coords", "invalid axis name ''"});
}

TEST(coords, set_replaces_the_labels_of_an_axis_and_keeps_its_place)
{
    xn::coords c{{"x", {1, 2}}, {"t", {"a"}}};
    c.set("x", {5, 6, 7});
    EXPECT_EQ(c.at("x"), (xn::labels{5, 6, 7}));
    EXPECT_EQ(c.names(), (std::vector<std::string>{"x", "t"}));
    c.set("y", {"p"});
    EXPECT_EQ(c.names(), (std::vector<std::string>{"x", "t", "y"}));
}

TEST(coords, a_refused_set_leaves_the_coords_unchanged)
{
    xn::coords c{{"x", {1, 2}}};
    const xn::coords before = c;
    EXPECT_THROW(c.set("x", {3, 3}), xn::shape_error);
    EXPECT_THROW(c.set("?", {3}), xn::name_error);
    EXPECT_EQ(c, before);
    EXPECT_EQ(c.at("x"), (xn::labels{1, 2}));
}

TEST(coords, set_from_another_coords_shares_the_labels_without_a_copy)
{
    const xn::coords source{{"time", {10, 20, 30}}};
    xn::coords c;
    c.set("t", source, "time");
    EXPECT_EQ(c.at("t"), source.at("time"));
    EXPECT_EQ(c.find("t"), source.find("time"));
    XN_EXPECT_THROW_MSG(
        c.set("u", source, "x"), xn::name_error,
        "xn::coords: axis 'x' has no labels to give to axis 'u'; labelled axes: {time: [10, 20, 30]}");
}

TEST(coords, set_shared_keeps_the_given_list_after_checking_it)
{
    const auto values = std::make_shared<const xn::labels>(xn::labels{10, 20, 30});
    xn::coords c;
    c.set_shared("t", values);
    EXPECT_EQ(c.find("t"), values.get());
    EXPECT_EQ(xn::coords(c).find("t"), values.get());
    XN_EXPECT_THROW_MSG(c.set_shared("u", std::make_shared<const xn::labels>(xn::labels{1, 1})),
                        xn::shape_error,
                        "xn::coords: axis 'u': label 1 appears twice, at positions 0 and 1 of [1, 1]: the "
                        "labels of one axis are unique");
    EXPECT_FALSE(c.has("u"));
}

TEST(coords, copies_share_their_label_lists)
{
    const xn::coords a{{"x", {1, 2, 3}}};
    const xn::coords b = a;
    EXPECT_EQ(a.find("x"), b.find("x"));
}

TEST(coords, erase_removes_an_axis_and_reports_whether_it_had_labels)
{
    xn::coords c{{"x", {1}}, {"y", {2}}};
    EXPECT_TRUE(c.erase("x"));
    EXPECT_FALSE(c.erase("x"));
    EXPECT_FALSE(c.has("x"));
    EXPECT_EQ(c.names(), (std::vector<std::string>{"y"}));
}

TEST(coords, to_string_lists_the_entries_in_the_given_order)
{
    const xn::coords c{{"x", {10, 20}}, {"t", {"a", "b", "c"}}};
    EXPECT_EQ(c.to_string(), "{x: [10, 20], t: ['a', 'b', 'c']}");
    EXPECT_EQ(xn::to_string(c), c.to_string());
}

TEST(check_coords, accepts_labels_whose_lengths_match_their_axes)
{
    const xn::coords c{{"x", {10, 20}}, {"t", {"a", "b", "c"}}};
    EXPECT_NO_THROW(
        xn::detail::check_coords("name", xn::dims{"t", "?", "x"}, std::vector<std::size_t>{3, 7, 2}, c));
}

TEST(check_coords, refuses_labels_of_the_wrong_length_naming_axis_position_and_sizes)
{
    const xn::coords c{{"x", {10, 20, 30}}};
    XN_EXPECT_THROW_MSG(
        xn::detail::check_coords("name", xn::dims{"t", "x"}, std::vector<std::size_t>{4, 2}, c),
        xn::shape_error, "xn::name: axis 'x' (axis 1) of (t, x) has size 2 but 3 labels [10, 20, 30]");
}

TEST(check_coords, refuses_labels_for_an_axis_the_tensor_lacks)
{
    const xn::coords c{{"z", {1}}};
    XN_EXPECT_THROW_MSG(
        xn::detail::check_coords("name", xn::dims{"x", "?"}, std::vector<std::size_t>{1, 1}, c),
        xn::shape_error, "xn::name: axis 'z' has labels [1] but is not an axis of (x, ?)");
}

// Labels of named expressions
// ===========================

namespace
{
    template <class E>
    xt::xarray<double> values_of(const E& e)
    {
        return xt::xarray<double>(e.expression());
    }

    // (sensor, t): 2 sensors, 3 time stamps.
    xt::xarray<double> readings()
    {
        return {{1., 2., 3.}, {4., 5., 6.}};
    }
} // namespace

TEST(named_coords, name_attaches_labels_that_coords_returns)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    EXPECT_TRUE(a.coords().has("t"));
    EXPECT_EQ(a.coords().at("t"), (xn::labels{10, 20, 30}));
    EXPECT_EQ(a.coords().at("sensor"), (xn::labels{"x1", "x2"}));
    auto plain = xn::name(values, {"sensor", "t"});
    EXPECT_TRUE(plain.coords().empty());
}

TEST(named_coords, name_refuses_labels_whose_length_is_not_the_axis_size)
{
    const auto values = readings();
    XN_EXPECT_THROW_MSG(xn::name(values, {"sensor", "t"}, {{"t", {10, 20}}}), xn::shape_error,
                        "xn::name: axis 't' (axis 1) of (sensor, t) has size 3 but 2 labels [10, 20]");
}

TEST(named_coords, name_refuses_labels_for_an_axis_that_is_absent_or_unnamed)
{
    const auto values = readings();
    XN_EXPECT_THROW_MSG(xn::name(values, {"?", "t"}, {{"sensor", {"x1", "x2"}}}), xn::shape_error,
                        "xn::name: axis 'sensor' has labels ['x1', 'x2'] but is not an axis of (?, t)");
}

TEST(named_coords, name_checks_the_names_before_the_labels)
{
    const auto values = readings();
    XN_EXPECT_THROW_HAS(xn::name(values, {"t"}, {{"t", {1, 2, 3}}}), xn::name_error, {"xn::name", "(t)"});
}

TEST(named_coords, with_coords_replaces_the_labels_and_refers_to_the_expression)
{
    auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto relabelled = xn::with_coords(a, {{"sensor", {"p", "q"}}});
    EXPECT_EQ(relabelled.coords(), (xn::coords{{"sensor", {"p", "q"}}}));
    values(0, 0) = 100.;
    EXPECT_EQ(values_of(relabelled)(0, 0), 100.);
    XN_EXPECT_THROW_MSG(xn::with_coords(a, {{"t", {1}}}), xn::shape_error,
                        "xn::with_coords: axis 't' (axis 1) of (sensor, t) has size 3 but 1 labels [1]");
    EXPECT_EQ(a.coords(), (xn::coords{{"t", {10, 20, 30}}}));
}

TEST(named_coords, views_carry_the_labels_of_the_axes_they_keep)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    const xn::coords expected{{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}};
    EXPECT_EQ(a.transpose().coords(), expected);
    EXPECT_EQ(a.transpose({"t", "sensor"}).coords(), expected);
    auto aligned = a.align_to({"t", "channel", "sensor"});
    EXPECT_EQ(aligned.coords(), expected);
    EXPECT_FALSE(aligned.coords().has("channel"));
    auto renamed = a.rename({{"t", "time"}});
    EXPECT_EQ(renamed.coords(), (xn::coords{{"sensor", {"x1", "x2"}}, {"time", {10, 20, 30}}}));
    // Labels belong to named axes: an axis renamed "?" leaves its labels behind.
    EXPECT_EQ(a.rename({{"t", "?"}}).coords(), (xn::coords{{"sensor", {"x1", "x2"}}}));
}

TEST(named_coords, reductions_keep_the_labels_of_the_remaining_axes)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto per_sensor = xn::sum(a, {"t"});
    EXPECT_EQ(per_sensor.coords(), (xn::coords{{"sensor", {"x1", "x2"}}}));
    EXPECT_EQ(values_of(per_sensor), (xt::xarray<double>{6., 15.}));
    EXPECT_TRUE(xn::mean(a).coords().empty());
}

TEST(named_coords, operations_carry_the_labels_of_every_operand)
{
    const auto values = readings();
    const xt::xarray<double> scale = {10., 100.};
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto s = xn::name(scale, {"unit"}, {{"unit", {"da", "h"}}});
    auto scaled = a * s;
    EXPECT_EQ(scaled.dims(), xn::dims({"sensor", "t", "unit"}));
    EXPECT_EQ(scaled.coords(), (xn::coords{{"t", {10, 20, 30}}, {"unit", {"da", "h"}}}));
    EXPECT_EQ((a + 1.).coords(), a.coords());
    EXPECT_EQ((-a).coords(), a.coords());
    EXPECT_EQ(xn::exp(a).coords(), a.coords());
    EXPECT_EQ(xn::eval(scaled).coords(), scaled.coords());
}

TEST(named_coords, labels_of_an_operation_are_shared_not_copied)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto b = a * 2.;
    auto c = b + a;
    EXPECT_EQ(c.coords().find("t"), a.coords().find("t"));
}

// Operations reach their label rules through the labels (detail/core/xlabel_rules.hpp): labels made by
// each way of giving them are checked, carried into results and views and kept by assignments alike.
TEST(named_coords, labels_given_in_every_way_are_checked_carried_and_kept)
{
    const auto values = readings();
    const xn::coords source{{"t", {10, 20, 31}}};
    std::vector<xn::coords> ways(4);
    ways[0] = xn::coords{{"t", {10, 20, 31}}};
    ways[1].set("t", {10, 20, 31});
    ways[2].set_shared("t", std::make_shared<const xn::labels>(xn::labels{10, 20, 31}));
    ways[3].set("t", source, "t");
    const auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    for (const auto& labels : ways)
    {
        const auto b = xn::name(values, {"sensor", "t"}, labels);
        XN_EXPECT_THROW_HAS(a + b, xn::shape_error,
                            {"axis 't' (axis 1 of the left operand, axis 1 of the right operand)",
                             "the left labels [10, 20, 30] (3 labels) and the right labels [10, 20, 31]"});
        EXPECT_EQ((b * 2.).coords(), source);
        EXPECT_EQ((xn::name(values, {"sensor", "t"}) - b).coords(), source);
        EXPECT_EQ(b.transpose().coords(), source);
        EXPECT_EQ(xn::sum(b, {"sensor"}).coords(), source);
        xt::xarray<double> out = xt::zeros<double>({2, 3});
        auto named_out = xn::name(out, {"sensor", "t"}, labels);
        XN_EXPECT_THROW_HAS(xn::assign(named_out, a), xn::shape_error,
                            {"assign: ", "the output's axis 't'", "has the labels [10, 20, 31]"});
        EXPECT_EQ(out, (xt::xarray<double>(xt::zeros<double>({2, 3}))));
        xn::assign(named_out, b * 2.);
        EXPECT_EQ(out, values * 2.);
    }
}

TEST(sel, one_label_drops_the_axis)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto at_20 = a.sel({{"t", 20}});
    EXPECT_EQ(at_20.dims(), xn::dims({"sensor"}));
    EXPECT_EQ(at_20.coords(), (xn::coords{{"sensor", {"x1", "x2"}}}));
    EXPECT_EQ(values_of(at_20), (xt::xarray<double>{2., 5.}));
    auto one = a.sel({{"t", 30}, {"sensor", "x1"}});
    EXPECT_EQ(one.dims(), xn::dims());
    EXPECT_EQ(values_of(one)(), 3.);
}

TEST(sel, a_list_keeps_the_axis_with_those_labels_in_that_order)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto picked = a.sel({{"t", xn::labels{30, 10}}});
    EXPECT_EQ(picked.dims(), xn::dims({"sensor", "t"}));
    EXPECT_EQ(picked.coords(), (xn::coords{{"sensor", {"x1", "x2"}}, {"t", {30, 10}}}));
    EXPECT_EQ(values_of(picked), (xt::xarray<double>{{3., 1.}, {6., 4.}}));
    auto none = a.sel({{"t", xn::labels{}}});
    EXPECT_EQ(values_of(none).shape(), (std::vector<std::size_t>{2, 0}));
    EXPECT_EQ(none.coords().at("t"), xn::labels{});
}

TEST(sel, is_a_view_of_the_expression)
{
    auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto at_10 = a.sel({{"t", 10}});
    values(1, 0) = -4.;
    EXPECT_EQ(values_of(at_10), (xt::xarray<double>{1., -4.}));
    auto owned = xn::name(readings(), {"sensor", "t"}, {{"t", {10, 20, 30}}}).sel({{"t", 30}});
    EXPECT_EQ(values_of(owned), (xt::xarray<double>{3., 6.}));
}

TEST(sel, refuses_a_missing_label_naming_it_and_the_axis)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    XN_EXPECT_THROW_MSG(
        a.sel({{"t", 25}}), xn::shape_error,
        "xn::sel: label 25 is not a label of axis 't' (axis 1) of (sensor, t), whose labels are "
        "[10, 20, 30]");
    XN_EXPECT_THROW_MSG(
        a.sel({{"sensor", xn::labels{"x2", "x3"}}}), xn::shape_error,
        "xn::sel: label 'x3' is not a label of axis 'sensor' (axis 0) of (sensor, t), whose labels "
        "are ['x1', 'x2']");
    XN_EXPECT_THROW_HAS(a.sel({{"t", "10"}}), xn::shape_error, {"label '10' is not a label of axis 't'"});
}

TEST(sel, refuses_an_axis_without_labels_an_unknown_axis_and_an_axis_twice)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    XN_EXPECT_THROW_MSG(
        a.sel({{"sensor", "x1"}}), xn::shape_error,
        "xn::sel: axis 'sensor' (axis 0) of (sensor, t) has no labels to select by; isel selects by "
        "position");
    XN_EXPECT_THROW_HAS(a.sel({{"time", 10}}), xn::name_error, {"xn::sel", "'time'", "(sensor, t)"});
    XN_EXPECT_THROW_MSG(a.sel({{"t", 10}, {"t", 20}}), xn::name_error,
                        "xn::sel: axis 't' (axis 1) of (sensor, t) is selected twice");
}

TEST(sel, refuses_a_list_that_repeats_a_label)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    XN_EXPECT_THROW_MSG(
        a.sel({{"t", xn::labels{20, 10, 20}}}), xn::shape_error,
        "xn::sel: the labels selected along axis 't' (axis 1) of (sensor, t): label 20 appears twice, "
        "at positions 0 and 2 of [20, 10, 20]: the labels of one axis are unique");
}

TEST(isel, selects_by_position_from_either_end)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto last = a.isel({{"t", -1}});
    EXPECT_EQ(last.dims(), xn::dims({"sensor"}));
    EXPECT_EQ(values_of(last), (xt::xarray<double>{3., 6.}));
    auto picked = a.isel({{"t", xn::index_list{2, 0}}, {"sensor", xn::index_list{1}}});
    EXPECT_EQ(picked.coords(), (xn::coords{{"sensor", {"x2"}}, {"t", {30, 10}}}));
    EXPECT_EQ(values_of(picked), (xt::xarray<double>{{6., 4.}}));
}

TEST(isel, repeats_positions_only_along_an_axis_without_labels)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto twice = a.isel({{"sensor", xn::index_list{0, 0}}});
    EXPECT_EQ(values_of(twice), (xt::xarray<double>{{1., 2., 3.}, {1., 2., 3.}}));
    XN_EXPECT_THROW_HAS(a.isel({{"t", xn::index_list{1, 1}}}), xn::shape_error, {"label 20 appears twice"});
}

TEST(isel, refuses_a_position_out_of_range_naming_axis_and_size)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"});
    XN_EXPECT_THROW_MSG(
        a.isel({{"t", 3}}), xn::shape_error,
        "xn::isel: position 3 is out of range for axis 't' (axis 1) of (sensor, t) of size 3");
    XN_EXPECT_THROW_MSG(
        a.isel({{"sensor", xn::index_list{0, -3}}}), xn::shape_error,
        "xn::isel: position -3 is out of range for axis 'sensor' (axis 0) of (sensor, t) of size 2");
}

TEST(isel, a_range_keeps_the_axis_end_excluded_with_the_labels_of_its_positions)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto first_two = a.isel({{"t", xt::range(0, 2)}});
    EXPECT_EQ(first_two.dims(), xn::dims({"sensor", "t"}));
    EXPECT_EQ(first_two.coords(), (xn::coords{{"sensor", {"x1", "x2"}}, {"t", {10, 20}}}));
    EXPECT_EQ(values_of(first_two), (xt::xarray<double>{{1., 2.}, {4., 5.}}));
    auto whole = a.isel({{"t", xt::all()}, {"sensor", 1}});
    EXPECT_EQ(whole.dims(), xn::dims({"t"}));
    EXPECT_EQ(whole.coords(), (xn::coords{{"t", {10, 20, 30}}}));
    EXPECT_EQ(values_of(whole), (xt::xarray<double>{4., 5., 6.}));
    auto none = a.isel({{"t", xt::range(2, 1)}});
    EXPECT_EQ(values_of(none).shape(), (std::vector<std::size_t>{2, 0}));
    EXPECT_EQ(none.coords().at("t"), xn::labels{});
}

TEST(isel, a_range_counts_negative_positions_from_the_end_clips_and_steps_either_way)
{
    using namespace xt::placeholders;
    const xt::xarray<double> values = {0., 1., 2., 3., 4., 5., 6.};
    auto a = xn::name(values, {"t"}, {{"t", {0, 10, 20, 30, 40, 50, 60}}});
    const auto labels_of = [](const auto& e) { return e.coords().at("t"); };
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(-2, _)}})), (xn::labels{50, 60}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(-100, 2)}})), (xn::labels{0, 10}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(5, 100)}})), (xn::labels{50, 60}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(1, _, 2)}})), (xn::labels{10, 30, 50}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(_, _, -1)}})), (xn::labels{60, 50, 40, 30, 20, 10, 0}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(4, _, -2)}})), (xn::labels{40, 20, 0}));
    EXPECT_EQ(labels_of(a.isel({{"t", xt::range(-1, 2, -3)}})), (xn::labels{60, 30}));
    EXPECT_EQ(values_of(a.isel({{"t", xt::range(4, _, -2)}})), (xt::xarray<double>{4., 2., 0.}));
    constexpr auto most = std::numeric_limits<std::int64_t>::max();
    constexpr auto least = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(labels_of(a.isel({{"t", xn::index_range(1, most, most)}})), (xn::labels{10}));
    EXPECT_EQ(labels_of(a.isel({{"t", xn::index_range(-1, least, least)}})), (xn::labels{60}));
    EXPECT_EQ(labels_of(a.isel({{"t", xn::index_range(least, most, 3)}})), (xn::labels{0, 30, 60}));
    EXPECT_EQ(values_of(a.isel({{"t", xn::index_range(std::nullopt, -4, 1)}})),
              (xt::xarray<double>{0., 1., 2.}));
}

TEST(isel, refuses_a_range_of_step_zero_naming_the_axis)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"});
    XN_EXPECT_THROW_MSG(a.isel({{"t", xt::range(0, 2, 0)}}), xn::shape_error,
                        "xn::isel: the range of axis 't' (axis 1) of (sensor, t) has step 0");
}

TEST(sel, a_label_range_includes_both_ends)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
    auto middle = a.sel({{"t", xn::slice(20, 30)}});
    EXPECT_EQ(middle.dims(), xn::dims({"sensor", "t"}));
    EXPECT_EQ(middle.coords(), (xn::coords{{"sensor", {"x1", "x2"}}, {"t", {20, 30}}}));
    EXPECT_EQ(values_of(middle), (xt::xarray<double>{{2., 3.}, {5., 6.}}));
    auto second = a.sel({{"sensor", xn::slice("x2", "x2")}});
    EXPECT_EQ(second.coords(), (xn::coords{{"sensor", {"x2"}}, {"t", {10, 20, 30}}}));
    EXPECT_EQ(values_of(second), (xt::xarray<double>{{4., 5., 6.}}));
    EXPECT_EQ(a.sel({{"t", xn::slice(std::nullopt, 20)}}).coords().at("t"), (xn::labels{10, 20}));
    EXPECT_EQ(a.sel({{"t", xn::slice(20, std::nullopt)}}).coords().at("t"), (xn::labels{20, 30}));
}

TEST(sel, a_label_range_whose_bounds_are_not_labels_covers_the_labels_between)
{
    const xt::xarray<double> values = {0., 1., 2., 3.};
    auto a = xn::name(values, {"t"}, {{"t", {10, 20, 30, 40}}});
    auto inside = a.sel({{"t", xn::slice(15, 35)}});
    EXPECT_EQ(inside.coords().at("t"), (xn::labels{20, 30}));
    EXPECT_EQ(values_of(inside), (xt::xarray<double>{1., 2.}));
    EXPECT_EQ(a.sel({{"t", xn::slice(-5, 10)}}).coords().at("t"), (xn::labels{10}));
    EXPECT_EQ(a.sel({{"t", xn::slice(41, 50)}}).coords().at("t"), xn::labels{});
    EXPECT_EQ(a.sel({{"t", xn::slice(30, 10)}}).coords().at("t"), xn::labels{});
    EXPECT_EQ(values_of(a.sel({{"t", xn::slice(30, 10)}})).size(), 0u);
    auto words = xn::name(values, {"w"}, {{"w", {"a", "b", "c", "d"}}});
    EXPECT_EQ(words.sel({{"w", xn::slice("aa", "c")}}).coords().at("w"), (xn::labels{"b", "c"}));
}

TEST(sel, a_label_range_on_decreasing_labels_walks_down_from_the_larger_bound)
{
    const xt::xarray<double> values = {0., 1., 2., 3.};
    auto a = xn::name(values, {"t"}, {{"t", {40, 30, 20, 10}}});
    auto down = a.sel({{"t", xn::slice(35, 10)}});
    EXPECT_EQ(down.coords().at("t"), (xn::labels{30, 20, 10}));
    EXPECT_EQ(values_of(down), (xt::xarray<double>{1., 2., 3.}));
    EXPECT_EQ(a.sel({{"t", xn::slice(10, 35)}}).coords().at("t"), xn::labels{});
    EXPECT_EQ(a.sel({{"t", xn::slice(std::nullopt, 30)}}).coords().at("t"), (xn::labels{40, 30}));
}

TEST(sel, refuses_a_label_range_on_unsorted_labels_naming_the_axis_and_its_labels)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {20, 10, 30}}});
    XN_EXPECT_THROW_MSG(a.sel({{"t", xn::slice(10, 30)}}), xn::shape_error,
                        "xn::sel: a range of labels needs sorted labels, but the labels of axis 't' (axis 1) "
                        "of (sensor, t) are not sorted: [20, 10, 30]");
}

TEST(sel, refuses_a_range_bound_of_the_other_label_type_and_an_axis_without_labels)
{
    const auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    XN_EXPECT_THROW_MSG(a.sel({{"t", xn::slice(10, "b")}}), xn::shape_error,
                        "xn::sel: the range bound 'b' is a string but the labels of axis 't' (axis 1) of "
                        "(sensor, t) are [10, 20, 30]");
    XN_EXPECT_THROW_HAS(a.sel({{"sensor", xn::slice(0, 1)}}), xn::shape_error,
                        {"axis 'sensor' (axis 0) of (sensor, t) has no labels to select by"});
}

TEST(sel, ranges_are_views_that_write_through_to_the_container)
{
    auto values = readings();
    auto a = xn::name(values, {"sensor", "t"}, {{"t", {10, 20, 30}}});
    auto late = a.sel({{"t", xn::slice(20, 30)}});
    late.expression() = xt::xarray<double>{{-2., -3.}, {-5., -6.}};
    EXPECT_EQ(values, (xt::xarray<double>{{1., -2., -3.}, {4., -5., -6.}}));
    auto every_other = a.isel({{"t", xt::range(0, 3, 2)}, {"sensor", 1}});
    every_other.expression() = xt::xarray<double>{40., 60.};
    EXPECT_EQ(values, (xt::xarray<double>{{1., -2., -3.}, {40., -5., 60.}}));
    values(0, 2) = 7.;
    EXPECT_EQ(values_of(late), (xt::xarray<double>{{-2., 7.}, {-5., 60.}}));
}

TEST(sel, ranges_mix_with_single_labels_and_lists_in_one_call)
{
    const xt::xarray<double> values = {{0., 1., 2., 3.}, {4., 5., 6., 7.}, {8., 9., 10., 11.}};
    auto a = xn::name(values, {"x", "t"}, {{"x", {"a", "b", "c"}}, {"t", {10, 20, 30, 40}}});
    auto picked = a.sel({{"x", xn::labels{"c", "a"}}, {"t", xn::slice(20, 35)}});
    EXPECT_EQ(picked.coords(), (xn::coords{{"x", {"c", "a"}}, {"t", {20, 30}}}));
    EXPECT_EQ(values_of(picked), (xt::xarray<double>{{9., 10.}, {1., 2.}}));
    auto row = a.sel({{"t", xn::slice(15, 40)}, {"x", "b"}});
    EXPECT_EQ(row.dims(), xn::dims({"t"}));
    EXPECT_EQ(values_of(row), (xt::xarray<double>{5., 6., 7.}));
    auto positions = a.isel({{"x", xn::index_list{2, 0}}, {"t", xt::range(-1, 0, -2)}});
    EXPECT_EQ(positions.coords(), (xn::coords{{"x", {"c", "a"}}, {"t", {40, 20}}}));
    EXPECT_EQ(values_of(positions), (xt::xarray<double>{{11., 9.}, {3., 1.}}));
}

// Against xarray: DataArray.sel with slices of labels and DataArray.isel with slices of positions.
TEST(sel, matches_xarray_on_ranges_of_labels_and_positions)
{
    const auto cases = fixtures::read("coords_slice.txt");
    ASSERT_GE(cases.size(), 2000u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("coords_slice.txt case at line " + std::to_string(c.line));
        const xn::dims names(c.strings("dims"));
        const auto values = xn_test::fixture_array<double>(c, "values", xn_test::fixture_shape(c, "shape"));
        const auto a = xn::name(values, names, xn_test::fixture_coords(c, "", names));
        const bool by_label = c.string("mode") == "sel";
        std::vector<std::pair<std::string, xn::label_selector>> labels_wanted;
        std::vector<std::pair<std::string, xn::index_selector>> positions_wanted;
        for (const auto& [key, tokens] : c.fields)
        {
            const std::string prefix = by_label ? "sel_" : "isel_";
            if (key.rfind(prefix, 0) != 0)
            {
                continue;
            }
            const std::string axis = key.substr(prefix.size());
            const std::string& how = tokens.front();
            const auto bound = [&](const std::string& token) -> std::optional<xn::label>
            {
                if (token == "~")
                {
                    return std::nullopt;
                }
                return xn_test::fixture_label(c, token, axis);
            };
            const auto position = [](const std::string& token) -> std::optional<std::int64_t>
            {
                if (token == "~")
                {
                    return std::nullopt;
                }
                return std::stoll(token);
            };
            if (by_label && how == "range")
            {
                labels_wanted.emplace_back(axis, xn::slice(bound(tokens[1]), bound(tokens[2])));
            }
            else if (by_label && how == "one")
            {
                labels_wanted.emplace_back(axis, xn_test::fixture_label(c, tokens[1], axis));
            }
            else if (by_label)
            {
                xn::labels list;
                for (std::size_t i = 1; i < tokens.size(); ++i)
                {
                    list.push_back(xn_test::fixture_label(c, tokens[i], axis));
                }
                labels_wanted.emplace_back(axis, list);
            }
            else if (how == "range")
            {
                const auto step = position(tokens[3]);
                positions_wanted.emplace_back(
                    axis, xn::index_range(position(tokens[1]), position(tokens[2]), step.value_or(1)));
            }
            else if (how == "one")
            {
                positions_wanted.emplace_back(axis, static_cast<std::int64_t>(std::stoll(tokens[1])));
            }
            else
            {
                xn::index_list list;
                for (std::size_t i = 1; i < tokens.size(); ++i)
                {
                    list.push_back(std::stoll(tokens[i]));
                }
                positions_wanted.emplace_back(axis, list);
            }
        }
        const auto check = [&](const auto& result)
        {
            const xn::dims r_dims(c.strings("r_dims"));
            EXPECT_EQ(result.dims(), r_dims);
            EXPECT_EQ(result.coords(), xn_test::fixture_coords(c, "r_", r_dims));
            const auto r_shape = xn_test::fixture_shape(c, "r_shape");
            const xt::xarray<double> got = result.expression();
            ASSERT_EQ(std::vector<std::size_t>(got.shape().begin(), got.shape().end()), r_shape);
            xn_test::expect_same_values(got, xn_test::fixture_array<double>(c, "r_values", r_shape));
        };
        if (by_label)
        {
            check(a.sel(labels_wanted));
        }
        else
        {
            check(a.isel(positions_wanted));
        }
        if (HasFailure())
        {
            break;
        }
    }
}

// Against xarray: DataArray.sel and DataArray.isel on random labelled arrays.
TEST(sel, matches_xarray_sel_and_isel_on_random_labelled_arrays)
{
    const auto cases = fixtures::read("coords_sel.txt");
    ASSERT_GE(cases.size(), 3000u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("coords_sel.txt case at line " + std::to_string(c.line));
        const xn::dims names(c.strings("dims"));
        const auto values = xn_test::fixture_array<double>(c, "values", xn_test::fixture_shape(c, "shape"));
        const auto a = xn::name(values, names, xn_test::fixture_coords(c, "", names));
        const bool by_label = c.string("mode") == "sel";
        std::vector<std::pair<std::string, xn::label_selector>> labels_wanted;
        std::vector<std::pair<std::string, xn::index_selector>> positions_wanted;
        // The order of the selected axes does not matter: a case breaks at most one rule.
        for (const auto& [key, tokens] : c.fields)
        {
            const std::string prefix = by_label ? "sel_" : "isel_";
            if (key.rfind(prefix, 0) != 0)
            {
                continue;
            }
            const std::string axis = key.substr(prefix.size());
            const bool one = tokens.front() == "one";
            if (by_label && one)
            {
                labels_wanted.emplace_back(axis, xn_test::fixture_label(c, tokens[1], axis));
            }
            else if (by_label)
            {
                xn::labels list;
                for (std::size_t i = 1; i < tokens.size(); ++i)
                {
                    list.push_back(xn_test::fixture_label(c, tokens[i], axis));
                }
                labels_wanted.emplace_back(axis, list);
            }
            else if (one)
            {
                positions_wanted.emplace_back(axis, static_cast<std::int64_t>(std::stoll(tokens[1])));
            }
            else
            {
                xn::index_list list;
                for (std::size_t i = 1; i < tokens.size(); ++i)
                {
                    list.push_back(std::stoll(tokens[i]));
                }
                positions_wanted.emplace_back(axis, list);
            }
        }
        const auto check = [&](const auto& select)
        {
            if (c.has("error"))
            {
                const std::string what = by_label ? xn::detail::format_label(xn_test::fixture_label(
                                                        c, c.string("error_what"), c.string("error_axis")))
                                                  : c.string("error_what");
                XN_EXPECT_THROW_HAS(select(), xn::shape_error, {"'" + c.string("error_axis") + "'", what});
                return;
            }
            const auto result = select();
            const xn::dims r_dims(c.strings("r_dims"));
            EXPECT_EQ(result.dims(), r_dims);
            EXPECT_EQ(result.coords(), xn_test::fixture_coords(c, "r_", r_dims));
            const auto r_shape = xn_test::fixture_shape(c, "r_shape");
            const xt::xarray<double> got = result.expression();
            ASSERT_EQ(std::vector<std::size_t>(got.shape().begin(), got.shape().end()), r_shape);
            xn_test::expect_same_values(got, xn_test::fixture_array<double>(c, "r_values", r_shape));
        };
        if (by_label)
        {
            check([&] { return a.sel(labels_wanted); });
        }
        else
        {
            check([&] { return a.isel(positions_wanted); });
        }
        if (HasFailure())
        {
            break;
        }
    }
}
