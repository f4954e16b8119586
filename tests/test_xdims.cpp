/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cstddef>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xdims.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    // How every invalid-name message ends.
    const std::string rule = ": a name is an identifier [A-Za-z_][A-Za-z0-9_]*, or \"?\" for an unnamed axis";

    // The naming rule `[A-Za-z_][A-Za-z0-9_]*`, or "?", spelled with character sets: the oracle for the
    // randomized test.
    bool reference_is_valid_name(const std::string& name)
    {
        const std::string first = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";
        const std::string rest = first + "0123456789";
        if (name == "?")
        {
            return true;
        }
        return !name.empty() && first.find(name.front()) != std::string::npos &&
               name.find_first_not_of(rest) == std::string::npos;
    }

    bool is_printable_ascii(const std::string& text)
    {
        for (char c : text)
        {
            const auto byte = static_cast<unsigned char>(c);
            if (byte < 0x20 || byte >= 0x7f)
            {
                return false;
            }
        }
        return true;
    }
} // namespace

// Name validation
// ===============

TEST(dims_names, identifiers_are_valid_names)
{
    for (const char* name : {"x", "_", "__", "_x1", "channel", "H_2", "abcXYZ_0123456789", "Z", "a9"})
    {
        EXPECT_TRUE(xn::is_identifier(name)) << name;
        EXPECT_TRUE(xn::is_valid_axis_name(name)) << name;
    }
    const std::string long_name(1000, 'a');
    EXPECT_TRUE(xn::is_valid_axis_name(long_name));
}

TEST(dims_names, question_mark_is_a_valid_name_but_not_an_identifier)
{
    EXPECT_TRUE(xn::is_valid_axis_name("?"));
    EXPECT_FALSE(xn::is_identifier("?"));
    EXPECT_EQ(xn::unnamed_axis, "?");
}

TEST(dims_names, anything_else_is_invalid)
{
    const std::vector<std::string> invalid = {"",          " ",    "a b",       " x",
                                              "x ",        "1x",   "9",         "x-y",
                                              "??",        "?x",   "x?",        "x.y",
                                              "$x",        "\t",   "x\n",       "\xc3\xa9",
                                              "a\xff",     "\x7f", "x\xc3\xa9", std::string("a\0b", 3),
                                              "\xc3\xa4_x"};
    for (const auto& name : invalid)
    {
        EXPECT_FALSE(xn::is_valid_axis_name(name)) << xn::detail::quoted(name);
        EXPECT_FALSE(xn::is_identifier(name)) << xn::detail::quoted(name);
    }
}

TEST(dims_names, validity_matches_the_identifier_rule_on_random_strings)
{
    // Characters around every boundary of the rule, plus bytes outside ASCII.
    const std::string alphabet = std::string("aAzZ_09?/:@[`{ .-\t\n\x7f\x80\xff") + std::string(1, '\0');
    std::mt19937 random(20240601);
    std::uniform_int_distribution<std::size_t> length(0, 4);
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::size_t valid = 0;
    for (int trial = 0; trial < 20000; ++trial)
    {
        std::string name;
        const auto n = length(random);
        for (std::size_t i = 0; i < n; ++i)
        {
            name += alphabet[pick(random)];
        }
        const bool expected = reference_is_valid_name(name);
        valid += expected ? 1 : 0;
        ASSERT_EQ(xn::is_valid_axis_name(name), expected) << xn::detail::quoted(name);
        ASSERT_EQ(xn::is_identifier(name), expected && name != "?") << xn::detail::quoted(name);
        if (expected)
        {
            EXPECT_NO_THROW(xn::detail::check_axis_name("op", name));
        }
        else
        {
            XN_EXPECT_THROW_MSG(xn::detail::check_axis_name("op", name), xn::name_error,
                                "xn::op: invalid axis name " + xn::detail::quoted(name) + rule);
        }
    }
    // Both outcomes must be common, or the comparison above proves little.
    EXPECT_GT(valid, 1000u);
    EXPECT_LT(valid, 19000u);
}

TEST(dims_names, check_axis_name_names_the_operation)
{
    XN_EXPECT_THROW_MSG(xn::detail::check_axis_name("rename", "1x"), xn::name_error,
                        "xn::rename: invalid axis name '1x'" + rule);
    EXPECT_NO_THROW(xn::detail::check_axis_name("rename", "?"));
    EXPECT_NO_THROW(xn::detail::check_axis_name("rename", "h"));
}

TEST(dims_names, quoted_escapes_control_characters_quotes_backslashes_and_non_ascii_bytes)
{
    EXPECT_EQ(xn::detail::quoted("h"), "'h'");
    EXPECT_EQ(xn::detail::quoted(""), "''");
    EXPECT_EQ(xn::detail::quoted("a b"), "'a b'");
    EXPECT_EQ(xn::detail::quoted("a\nb"), "'a\\x0ab'");
    EXPECT_EQ(xn::detail::quoted("\t"), "'\\x09'");
    EXPECT_EQ(xn::detail::quoted(std::string("a\0b", 3)), "'a\\x00b'");
    EXPECT_EQ(xn::detail::quoted("\x1f\x7f"), "'\\x1f\\x7f'");
    EXPECT_EQ(xn::detail::quoted("\xc3\xa9"), "'\\xc3\\xa9'");
    EXPECT_EQ(xn::detail::quoted("\xff"), "'\\xff'");
    EXPECT_EQ(xn::detail::quoted("it's"), "'it\\x27s'");
    EXPECT_EQ(xn::detail::quoted("a\\b"), "'a\\x5cb'");
    EXPECT_EQ(xn::detail::quoted(" ~"), "' ~'");
}

// Construction
// ============

TEST(dims, is_built_from_an_initializer_list)
{
    const xn::dims d{"?", "channel", "h", "w"};
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0], "?");
    EXPECT_EQ(d[1], "channel");
    EXPECT_EQ(d[2], "h");
    EXPECT_EQ(d[3], "w");
}

TEST(dims, is_built_from_a_vector_of_strings)
{
    const std::vector<std::string> names = {"?", "channel", "h", "w"};
    const xn::dims d(names);
    EXPECT_EQ(d.names(), names);
    EXPECT_EQ(d, (xn::dims{"?", "channel", "h", "w"}));
    const xn::dims moved(std::vector<std::string>{"a", "b"});
    EXPECT_EQ(moved, (xn::dims{"a", "b"}));
}

TEST(dims, default_and_empty_dims_are_the_scalar_dims)
{
    const xn::dims d;
    EXPECT_EQ(d.size(), 0u);
    EXPECT_TRUE(d.empty());
    EXPECT_EQ(d, xn::dims(std::vector<std::string>{}));
    EXPECT_EQ(d, xn::dims{});
    EXPECT_FALSE((xn::dims{"x"}).empty());
}

TEST(dims, invalid_name_in_an_initializer_list_throws_with_its_position)
{
    XN_EXPECT_THROW_MSG((xn::dims{"x", "1x"}), xn::name_error,
                        "xn::dims: invalid axis name '1x' at axis 1" + rule);
    XN_EXPECT_THROW_MSG((xn::dims{""}), xn::name_error, "xn::dims: invalid axis name '' at axis 0" + rule);
    XN_EXPECT_THROW_MSG((xn::dims{"a", "b", "c d"}), xn::name_error,
                        "xn::dims: invalid axis name 'c d' at axis 2" + rule);
}

TEST(dims, invalid_name_in_a_vector_throws_with_its_position)
{
    XN_EXPECT_THROW_MSG(xn::dims(std::vector<std::string>{"h", " "}), xn::name_error,
                        "xn::dims: invalid axis name ' ' at axis 1" + rule);
}

TEST(dims, control_characters_and_non_ascii_bytes_are_escaped_in_messages)
{
    XN_EXPECT_THROW_MSG((xn::dims{"h", "a\nb"}), xn::name_error,
                        "xn::dims: invalid axis name 'a\\x0ab' at axis 1" + rule);
    XN_EXPECT_THROW_MSG((xn::dims{"\xc3\xa9t\xc3\xa9"}), xn::name_error,
                        "xn::dims: invalid axis name '\\xc3\\xa9t\\xc3\\xa9' at axis 0" + rule);
    XN_EXPECT_THROW_MSG((xn::dims{"\x1b[31m"}), xn::name_error,
                        "xn::dims: invalid axis name '\\x1b[31m' at axis 0" + rule);
}

TEST(dims, an_invalid_name_after_a_duplicate_is_reported_escaped)
{
    // The duplicate message prints the whole list: it must never see a raw control character.
    const auto message = xn_test::thrown_message<xn::name_error>([] { xn::dims d{"x", "x", "a\rb"}; });
    EXPECT_EQ(message, "xn::dims: invalid axis name 'a\\x0db' at axis 2" + rule);
    EXPECT_TRUE(is_printable_ascii(message)) << message;
}

TEST(dims, a_duplicate_name_throws_naming_both_positions)
{
    XN_EXPECT_THROW_MSG((xn::dims{"x", "x"}), xn::name_error,
                        "xn::dims: name 'x' appears twice, at axes 0 and 1 of (x, x)");
    XN_EXPECT_THROW_MSG((xn::dims{"a", "b", "c", "b"}), xn::name_error,
                        "xn::dims: name 'b' appears twice, at axes 1 and 3 of (a, b, c, b)");
    XN_EXPECT_THROW_MSG(xn::dims(std::vector<std::string>{"?", "h", "?", "h"}), xn::name_error,
                        "xn::dims: name 'h' appears twice, at axes 1 and 3 of (?, h, ?, h)");
}

TEST(dims, the_first_duplicate_is_the_one_reported)
{
    XN_EXPECT_THROW_MSG((xn::dims{"a", "b", "b", "a"}), xn::name_error,
                        "xn::dims: name 'b' appears twice, at axes 1 and 2 of (a, b, b, a)");
}

TEST(dims, names_differing_in_case_are_distinct)
{
    const xn::dims d{"h", "H"};
    EXPECT_EQ(d.index_of("h"), 0);
    EXPECT_EQ(d.index_of("H"), 1);
}

TEST(dims, unnamed_marker_may_repeat)
{
    const xn::dims d{"?", "?", "x", "?"};
    EXPECT_EQ(d.size(), 4u);
    EXPECT_EQ(d.to_string(), "(?, ?, x, ?)");
}

// Access
// ======

TEST(dims, an_element_in_range_compares_equal_to_a_string)
{
    const xn::dims d{"?", "channel", "h", "w"};
    EXPECT_TRUE(d[1] == "channel");
    EXPECT_TRUE("channel" == d[1]);
    EXPECT_TRUE(d[2] == std::string("h"));
    EXPECT_FALSE(d[2] == "w");
    EXPECT_TRUE(d[0] == xn::unnamed_axis);
}

TEST(dims, an_index_out_of_range_throws_a_name_error)
{
    const xn::dims d{"?", "channel", "h", "w"};
    XN_EXPECT_THROW_MSG(d[4], xn::name_error,
                        "xn::dims: axis 4 is out of range for (?, channel, h, w) of rank 4");
    XN_EXPECT_THROW_MSG(
        d[std::numeric_limits<std::size_t>::max()], xn::name_error,
        "xn::dims: axis 18446744073709551615 is out of range for (?, channel, h, w) of rank 4");
    XN_EXPECT_THROW_MSG(xn::dims()[0], xn::name_error, "xn::dims: axis 0 is out of range for () of rank 0");
}

TEST(dims, equality_compares_names_in_order)
{
    const xn::dims d{"?", "h", "w"};
    EXPECT_TRUE(d == (xn::dims{"?", "h", "w"}));
    EXPECT_FALSE(d != (xn::dims{"?", "h", "w"}));
    EXPECT_FALSE(d == (xn::dims{"?", "w", "h"}));
    EXPECT_TRUE(d != (xn::dims{"?", "w", "h"}));
    EXPECT_FALSE(d == (xn::dims{"?", "h"}));
    EXPECT_FALSE(d == (xn::dims{"?", "h", "w", "?"}));
    EXPECT_FALSE(d == (xn::dims{"c", "h", "w"}));
    EXPECT_TRUE(xn::dims() == xn::dims());
    EXPECT_FALSE(xn::dims() == xn::dims{"?"});
}

TEST(dims, size_counts_the_axes)
{
    EXPECT_EQ((xn::dims{"a"}).size(), 1u);
    EXPECT_EQ((xn::dims{"a", "?", "?"}).size(), 3u);
    EXPECT_EQ(xn::dims().size(), 0u);
}

TEST(dims, index_of_gives_the_position_or_minus_one)
{
    const xn::dims d{"?", "channel", "h", "w"};
    EXPECT_EQ(d.index_of("channel"), 1);
    EXPECT_EQ(d.index_of("h"), 2);
    EXPECT_EQ(d.index_of("w"), 3);
    EXPECT_EQ(d.index_of("x"), -1);
    EXPECT_EQ(d.index_of("H"), -1);
    EXPECT_EQ(d.index_of(""), -1);
    EXPECT_EQ(d.index_of("chan"), -1);
    EXPECT_EQ(d.index_of("channel "), -1);
    EXPECT_EQ(d.index_of("channeL"), -1);
    EXPECT_EQ(d.index_of(std::string_view("h\0", 2)), -1);
    EXPECT_EQ(d.index_of(std::string("channel")), 1);
    EXPECT_EQ(xn::dims().index_of("h"), -1);
}

TEST(dims, index_of_the_unnamed_marker_gives_the_first_unnamed_axis)
{
    EXPECT_EQ((xn::dims{"a", "?", "b", "?"}).index_of("?"), 1);
    EXPECT_EQ((xn::dims{"a", "b"}).index_of("?"), -1);
}

TEST(dims, contains_tells_whether_a_name_is_present)
{
    const xn::dims d{"?", "h"};
    EXPECT_TRUE(d.contains("h"));
    EXPECT_TRUE(d.contains("?"));
    EXPECT_FALSE(d.contains("w"));
    EXPECT_FALSE(xn::dims().contains("h"));
}

TEST(dims, is_named_is_false_only_for_the_unnamed_marker)
{
    const xn::dims d{"?", "channel", "?", "w"};
    EXPECT_FALSE(d.is_named(0));
    EXPECT_TRUE(d.is_named(1));
    EXPECT_FALSE(d.is_named(2));
    EXPECT_TRUE(d.is_named(3));
}

TEST(dims, is_named_out_of_range_throws_a_name_error)
{
    const xn::dims d{"?", "w"};
    // Read at run time: with a constant index, g++ 12 -O3 warns (-Warray-bounds) about the element access
    // that the throw makes unreachable.
    volatile std::size_t past_the_end = 2;
    XN_EXPECT_THROW_MSG(d.is_named(past_the_end), xn::name_error,
                        "xn::dims: axis 2 is out of range for (?, w) of rank 2");
}

TEST(dims, all_named_is_true_when_no_axis_is_unnamed)
{
    EXPECT_TRUE((xn::dims{"a", "b"}).all_named());
    EXPECT_FALSE((xn::dims{"a", "?"}).all_named());
    EXPECT_FALSE((xn::dims{"?"}).all_named());
    // A scalar has no unnamed axis.
    EXPECT_TRUE(xn::dims().all_named());
}

TEST(dims, unnamed_gives_n_unnamed_axes)
{
    EXPECT_EQ(xn::dims::unnamed(3), (xn::dims{"?", "?", "?"}));
    EXPECT_EQ(xn::dims::unnamed(3).to_string(), "(?, ?, ?)");
    EXPECT_EQ(xn::dims::unnamed(1), (xn::dims{"?"}));
    EXPECT_EQ(xn::dims::unnamed(0), xn::dims());
    EXPECT_FALSE(xn::dims::unnamed(2).all_named());
    EXPECT_FALSE(xn::dims::unnamed(2).is_named(1));
}

TEST(dims, iteration_visits_the_names_in_order)
{
    const xn::dims d{"?", "channel", "h"};
    std::vector<std::string> seen(d.begin(), d.end());
    EXPECT_EQ(seen, (std::vector<std::string>{"?", "channel", "h"}));
    std::vector<std::string> by_range;
    for (const auto& name : d)
    {
        by_range.push_back(name);
    }
    EXPECT_EQ(by_range, seen);
}

TEST(dims, copies_are_equal_and_independent)
{
    xn::dims d{"a", "b"};
    const xn::dims copy = d;
    d = xn::dims{"c"};
    EXPECT_EQ(copy, (xn::dims{"a", "b"}));
    EXPECT_EQ(d, (xn::dims{"c"}));
}

TEST(dims, without_keeps_the_unflagged_axes_in_their_order)
{
    const xn::dims d{"batch", "?", "h", "w"};
    const std::vector<bool> drop_h{false, false, true, false};
    const xn::dims kept = d.without(drop_h);
    EXPECT_EQ(kept, xn::dims({"batch", "?", "w"}));
    EXPECT_EQ(&kept[2], &d[3]);
    EXPECT_EQ(d.without(std::vector<bool>(4, true)), xn::dims());
    EXPECT_EQ(d.without(std::vector<bool>(4, false)), d);
    // Beyond the names held in place, and back within them.
    std::vector<std::string> names;
    std::vector<bool> every_other;
    for (int k = 0; k < 12; ++k)
    {
        names.push_back("axis" + std::to_string(k));
        every_other.push_back(k % 2 == 1);
    }
    const xn::dims wide(names);
    EXPECT_EQ(wide.without(every_other), xn::dims({"axis0", "axis2", "axis4", "axis6", "axis8", "axis10"}));
    std::vector<bool> three(12, false);
    three[0] = three[5] = three[11] = true;
    const xn::dims most = wide.without(three);
    EXPECT_EQ(most.to_string(), "(axis1, axis2, axis3, axis4, axis6, axis7, axis8, axis9, axis10)");
    EXPECT_EQ(&most[8], &wide[10]);
    XN_EXPECT_THROW_MSG(
        d.without(std::vector<bool>(3, false)), xn::name_error,
        "xn::dims: without takes one flag per axis, and has 3 for the 4 axes of (batch, ?, h, w)");
}

// Printing
// ========

TEST(dims, to_string_lists_the_names_in_parentheses)
{
    EXPECT_EQ((xn::dims{"?", "channel", "h", "w"}).to_string(), "(?, channel, h, w)");
    EXPECT_EQ((xn::dims{"x"}).to_string(), "(x)");
    EXPECT_EQ(xn::dims().to_string(), "()");
    EXPECT_EQ(xn::to_string(xn::dims{"a", "b"}), "(a, b)");
}

TEST(dims, stream_output_is_to_string)
{
    std::ostringstream out;
    out << xn::dims{"?", "channel", "h", "w"} << ' ' << xn::dims();
    EXPECT_EQ(out.str(), "(?, channel, h, w) ()");
}

TEST(dims, describe_axis_gives_name_position_and_every_name_or_says_unnamed)
{
    const xn::dims names{"n", "?", "h"};
    EXPECT_EQ(xn::detail::describe_axis(names, 0), "axis 'n' (axis 0) of (n, ?, h)");
    EXPECT_EQ(xn::detail::describe_axis(names, 1), "unnamed axis 1 of (n, ?, h)");
    EXPECT_EQ(xn::detail::describe_axis(names, 2), "axis 'h' (axis 2) of (n, ?, h)");
}

// Names are interned (detail/core/xname_table.hpp): equal names are one string, wherever and whenever
// they were made.

TEST(interned_names, equal_names_are_one_string_and_copies_hold_it)
{
    const xn::dims a{"batch", "?", "channel"};
    const xn::dims b(std::vector<std::string>{"channel", "batch", "?"});
    EXPECT_EQ(&a[0], &b[1]);
    EXPECT_EQ(&a[2], &b[0]);
    EXPECT_EQ(&a[1], &b[2]);
    EXPECT_EQ(&xn::dims::unnamed(2)[1], &a[1]);
    const xn::dims copy = a;
    EXPECT_EQ(&copy[2], &a[2]);
    EXPECT_EQ(copy, a);
    EXPECT_NE(a, b);
}

TEST(interned_names, names_made_after_others_leave_them_in_place)
{
    const xn::dims first{"made_first", "other"};
    const std::string* const where = &first[0];
    // Enough new names that the table grows many times.
    std::vector<xn::dims> later;
    for (int k = 0; k < 5000; ++k)
    {
        later.push_back(xn::dims{"later_" + std::to_string(k)});
    }
    EXPECT_EQ(&first[0], where);
    EXPECT_EQ(first[0], "made_first");
    EXPECT_EQ(&xn::dims{"made_first"}[0], where);
    EXPECT_EQ(later[1234][0], "later_1234");
    EXPECT_EQ(&xn::dims{"later_1234"}[0], &later[1234][0]);
}

TEST(interned_names, many_distinct_names_compare_by_name)
{
    // More names than a thread keeps at hand: most are looked up in the table again.
    std::vector<std::string> names;
    for (int k = 0; k < 1000; ++k)
    {
        names.push_back("n" + std::to_string(k * 7919 % 1000));
    }
    for (std::size_t k = 0; k + 1 < names.size(); ++k)
    {
        const xn::dims d{names[k], names[k + 1]};
        EXPECT_EQ(d, xn::dims(std::vector<std::string>{names[k], names[k + 1]}));
        EXPECT_NE(d, (xn::dims{names[k + 1], names[k]}));
        EXPECT_EQ(d.index_of(names[k + 1]), 1);
        EXPECT_EQ(d.to_string(), "(" + names[k] + ", " + names[k + 1] + ")");
    }
}

TEST(interned_names, an_invalid_name_is_refused_every_time)
{
    for (int attempt = 0; attempt < 2; ++attempt)
    {
        XN_EXPECT_THROW_MSG((xn::dims{"x", "1x"}), xn::name_error,
                            "xn::dims: invalid axis name '1x' at axis 1" + rule);
    }
}

TEST(interned_names, dims_of_more_axes_than_are_held_in_place)
{
    std::vector<std::string> names;
    for (int k = 0; k < 11; ++k)
    {
        names.push_back(k == 4 ? "?" : "axis" + std::to_string(k));
    }
    const xn::dims d(names);
    ASSERT_EQ(d.size(), 11u);
    EXPECT_EQ(d.names(), names);
    EXPECT_EQ(std::vector<std::string>(d.begin(), d.end()), names);
    EXPECT_EQ(d[10], "axis10");
    EXPECT_FALSE(d.is_named(4));
    EXPECT_EQ(d.index_of("axis9"), 9);
    const xn::dims copy = d;
    EXPECT_EQ(copy, d);
    EXPECT_EQ(&copy[10], &d[10]);
    EXPECT_EQ(xn::dims::unnamed(12).to_string(), "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    names[9] = "axis2";
    XN_EXPECT_THROW_MSG(xn::dims{names}, xn::name_error,
                        "xn::dims: name 'axis2' appears twice, at axes 2 and 9 of (axis0, axis1, axis2, "
                        "axis3, ?, axis5, axis6, axis7, axis8, axis2, axis10)");
}

// Run under ThreadSanitizer by scripts/tsan.
TEST(interned_names, threads_that_name_axes_at_once_agree)
{
    constexpr int threads = 4;
    constexpr int count = 256;
    // Each thread names the same axes in its own order (an odd step modulo a power of two), new names
    // and ones met before mixed.
    std::vector<std::vector<const std::string*>> seen(threads, std::vector<const std::string*>(count));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
    {
        workers.emplace_back(
            [t, &seen]
            {
                for (int i = 0; i < count; ++i)
                {
                    const int k = (i * (2 * t + 1) + 17 * t) % count;
                    const xn::dims d{"shared_" + std::to_string(k), "?"};
                    seen[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)] = &d[0];
                }
            });
    }
    for (auto& worker : workers)
    {
        worker.join();
    }
    for (int k = 0; k < count; ++k)
    {
        const xn::dims here{"shared_" + std::to_string(k)};
        for (int t = 0; t < threads; ++t)
        {
            ASSERT_EQ(seen[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)], &here[0]) << k;
        }
        EXPECT_EQ(here[0], "shared_" + std::to_string(k));
    }
}
