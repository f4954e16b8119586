/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <gtest/gtest.h>

#include <xtensor-named/xerrors.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

// One type per kind, every one a std::runtime_error; broadcast_error is also xtensor's.
static_assert(std::is_base_of<std::runtime_error, xn::name_error>::value);
static_assert(std::is_base_of<std::runtime_error, xn::shape_error>::value);
static_assert(std::is_base_of<std::runtime_error, xn::broadcast_error>::value);
static_assert(std::is_base_of<xt::broadcast_error, xn::broadcast_error>::value);
static_assert(!std::is_base_of<xn::name_error, xn::shape_error>::value);
static_assert(!std::is_base_of<xn::shape_error, xn::name_error>::value);
static_assert(!std::is_base_of<xn::name_error, xn::broadcast_error>::value);
static_assert(!std::is_base_of<xn::shape_error, xn::broadcast_error>::value);
static_assert(!std::is_base_of<xt::broadcast_error, xn::shape_error>::value);
static_assert(!std::is_base_of<xt::broadcast_error, xn::name_error>::value);

TEST(xerrors, name_error_is_caught_as_runtime_error)
{
    std::string message;
    try
    {
        xn::detail::throw_name_error("dims", "a bad name");
    }
    catch (const std::runtime_error& e)
    {
        message = e.what();
    }
    EXPECT_EQ(message, "xn::dims: a bad name");
}

TEST(xerrors, shape_error_is_caught_as_runtime_error)
{
    std::string message;
    try
    {
        xn::detail::throw_shape_error("partial_shape::size", "axis ", 3, " is out of range");
    }
    catch (const std::runtime_error& e)
    {
        message = e.what();
    }
    EXPECT_EQ(message, "xn::partial_shape::size: axis 3 is out of range");
}

TEST(xerrors, broadcast_error_is_caught_by_an_xtensor_catch_block)
{
    std::string message;
    try
    {
        xn::detail::throw_broadcast_error("numpy", "sizes 2 and 3 differ");
    }
    catch (const xt::broadcast_error& e)
    {
        message = e.what();
    }
    EXPECT_EQ(message, "xn::numpy: sizes 2 and 3 differ");
}

TEST(xerrors, broadcast_error_is_caught_as_runtime_error)
{
    std::string message;
    try
    {
        xn::detail::throw_broadcast_error("plan", "inconsistent");
    }
    catch (const std::runtime_error& e)
    {
        message = e.what();
    }
    EXPECT_EQ(message, "xn::plan: inconsistent");
}

TEST(xerrors, each_helper_throws_exactly_its_own_type)
{
    XN_EXPECT_THROW_MSG(xn::detail::throw_name_error("op", "x"), xn::name_error, "xn::op: x");
    XN_EXPECT_THROW_MSG(xn::detail::throw_shape_error("op", "x"), xn::shape_error, "xn::op: x");
    XN_EXPECT_THROW_MSG(xn::detail::throw_broadcast_error("op", "x"), xn::broadcast_error, "xn::op: x");
}

TEST(xerrors, a_name_error_is_not_caught_by_a_shape_error_block)
{
    bool caught_as_shape_error = false;
    bool caught_as_name_error = false;
    try
    {
        try
        {
            xn::detail::throw_name_error("op", "x");
        }
        catch (const xn::shape_error&)
        {
            caught_as_shape_error = true;
        }
    }
    catch (const xn::name_error&)
    {
        caught_as_name_error = true;
    }
    EXPECT_FALSE(caught_as_shape_error);
    EXPECT_TRUE(caught_as_name_error);
}

TEST(xerrors, message_streams_every_detail_after_the_operation)
{
    const std::string name = "h";
    const std::string_view view = "(?, h, w)";
    const std::size_t axis = 1;
    const std::int64_t size = -2;
    XN_EXPECT_THROW_MSG(xn::detail::throw_shape_error("op", "axis '", name, "' (axis ", axis, ") of ", view,
                                                      " has size ", size),
                        xn::shape_error, "xn::op: axis 'h' (axis 1) of (?, h, w) has size -2");
}

TEST(xerrors, message_without_details_is_the_operation_and_a_colon)
{
    XN_EXPECT_THROW_MSG(xn::detail::throw_name_error("dims"), xn::name_error, "xn::dims: ");
}

TEST(xerrors, operation_given_as_a_string_view_is_not_cut)
{
    const std::string text = "partial_shape::merge_with and more";
    const std::string_view operation(text.data(), 25);
    XN_EXPECT_THROW_MSG(xn::detail::throw_shape_error(operation, "x"), xn::shape_error,
                        "xn::partial_shape::merge_with: x");
}

TEST(xerrors, concat_streams_numbers_strings_and_characters)
{
    EXPECT_EQ(xn::detail::concat(), "");
    EXPECT_EQ(xn::detail::concat("a", 1, 'b', std::string("c"), std::string_view("d"), -3, 2.5),
              "a1bcd-32.5");
    EXPECT_EQ(xn::detail::concat(std::int64_t(-9223372036854775807 - 1)), "-9223372036854775808");
    EXPECT_EQ(xn::detail::concat(std::size_t(18446744073709551615u)), "18446744073709551615");
}

TEST(xerrors, errors_are_copyable_with_their_message)
{
    const xn::broadcast_error original("xn::numpy: x");
    const xn::broadcast_error copy = original;
    EXPECT_STREQ(copy.what(), "xn::numpy: x");
    const xn::name_error name("xn::dims: y");
    const xn::name_error name_copy = name;
    EXPECT_STREQ(name_copy.what(), "xn::dims: y");
}

TEST(xerrors, rethrow_within_names_the_operation_in_front_of_the_inner_message)
{
    const auto refuse = []() -> int { throw xn::broadcast_error("xn::numpy: sizes 2 and 3"); };
    XN_EXPECT_THROW_MSG(xn::detail::rethrow_within<xn::broadcast_error>(
                            "operator+", refuse, [] { return "the operands do not line up: "; }),
                        xn::broadcast_error,
                        "xn::operator+: the operands do not line up: xn::numpy: sizes 2 and 3");
    XN_EXPECT_THROW_MSG(xn::detail::rethrow_within<xn::broadcast_error>("plan", refuse), xn::broadcast_error,
                        "xn::plan: xn::numpy: sizes 2 and 3");
}

TEST(xerrors, rethrow_within_passes_a_value_and_other_errors_through_and_describes_only_on_failure)
{
    int described = 0;
    const auto describe = [&]
    {
        ++described;
        return "";
    };
    EXPECT_EQ(xn::detail::rethrow_within<xn::name_error>(
                  "f", [] { return 7; }, describe),
              7);
    EXPECT_EQ(described, 0);
    // Another type of error is not this helper's to reword.
    XN_EXPECT_THROW_MSG(xn::detail::rethrow_within<xn::name_error>(
                            "f", []() -> int { throw xn::shape_error("xn::g: inner"); }, describe),
                        xn::shape_error, "xn::g: inner");
    EXPECT_EQ(described, 0);
}
