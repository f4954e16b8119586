/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Index maps, the form that a plan's axes and a label alignment's positions share.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/core/xindex_map.hpp>

namespace xn = xt::named;
using xn::detail::index_map;

namespace
{
    constexpr std::int64_t none = -1;

    /// Runs check_index_map; "out i" or "repeated i..." for what it reported, "ok" otherwise.
    std::string fault_of(const index_map& map, std::size_t size)
    {
        std::string repeats;
        try
        {
            xn::detail::check_index_map(
                map, size, none, [](std::size_t i) { throw std::out_of_range(std::to_string(i)); },
                [&](std::size_t i) { repeats += " " + std::to_string(i); });
        }
        catch (const std::out_of_range& e)
        {
            return std::string("out ") + e.what();
        }
        return repeats.empty() ? "ok" : "repeated" + repeats;
    }
} // namespace

TEST(index_map, identity_takes_every_position_in_order)
{
    EXPECT_EQ(xn::detail::identity_map(0), index_map{});
    EXPECT_EQ(xn::detail::identity_map(3), (index_map{0, 1, 2}));
    EXPECT_TRUE(xn::detail::is_identity_map(xn::detail::identity_map(5), 5));
    EXPECT_TRUE(xn::detail::is_identity_map({}, 0));
    EXPECT_TRUE(xn::detail::is_identity_map({0, 1, 2}, 3));
    EXPECT_FALSE(xn::detail::is_identity_map({0, 1, 2}, 4));
    EXPECT_FALSE(xn::detail::is_identity_map({0, 2, 1}, 3));
    EXPECT_FALSE(xn::detail::is_identity_map({0, none, 2}, 3));
}

TEST(index_map, composition_reads_the_inner_map_through_the_outer_and_keeps_absent_entries)
{
    // inner: an intermediate result from a source; outer: the final result from the intermediate one.
    const index_map inner{2, none, 0};
    const index_map outer{1, none, 2, 0};
    EXPECT_EQ(xn::detail::compose_index_maps(outer, inner, none), (index_map{none, none, 0, 2}));
    EXPECT_EQ(xn::detail::compose_index_maps({}, inner, none), index_map{});
}

TEST(index_map, check_reports_the_first_entry_outside_and_every_repeat_and_lists_what_is_taken)
{
    EXPECT_EQ(fault_of({0, none, 1}, 2), "ok");
    EXPECT_EQ(fault_of({0, 2, 1}, 2), "out 1");
    EXPECT_EQ(fault_of({0, -2, 1}, 2), "out 1");
    EXPECT_EQ(fault_of({1, 0, 1, 0}, 2), "repeated 2 3");
    EXPECT_EQ(fault_of({1, 1, 5}, 2), "out 2");
    const auto taken = xn::detail::check_index_map(
        {2, none, 0}, 4, none, [](std::size_t) { throw std::out_of_range(""); }, [](std::size_t) {});
    EXPECT_EQ(taken, (std::vector<bool>{true, false, true, false}));
}
