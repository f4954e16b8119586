/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_COORDS_FIXTURE_HPP
#define XTENSOR_NAMED_TESTS_COORDS_FIXTURE_HPP

// Reading the labelled arrays of tests/fixtures/coords_*.txt (written by generate_coords.py): for an
// array with prefix p, the keys p_dims, p_shape, p_values and p_labels_<axis>; the label type of each
// axis is kind_<axis> ("int" or "str").

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "fixture_reader.hpp"

namespace xn_test
{
    namespace xn = xt::named;

    /// The labels under `key`, of the type that `kind_<axis>` gives.
    inline xn::labels fixture_labels(const fixtures::fixture_case& c, const std::string& key,
                                     const std::string& axis)
    {
        xn::labels out;
        if (c.string("kind_" + axis) == "int")
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
    }

    /// One label written as a fixture token, of the type of axis `axis`.
    inline xn::label fixture_label(const fixtures::fixture_case& c, const std::string& token,
                                   const std::string& axis)
    {
        if (c.string("kind_" + axis) == "int")
        {
            return xn::label(static_cast<std::int64_t>(std::stoll(token)));
        }
        return xn::label(token);
    }

    inline std::vector<std::size_t> fixture_shape(const fixtures::fixture_case& c, const std::string& key)
    {
        std::vector<std::size_t> shape;
        for (const auto s : c.ints(key))
        {
            shape.push_back(static_cast<std::size_t>(s));
        }
        return shape;
    }

    /// The values under `key` in an array of `shape` (row-major, as numpy writes them).
    template <class T>
    xt::xarray<T> fixture_array(const fixtures::fixture_case& c, const std::string& key,
                                const std::vector<std::size_t>& shape)
    {
        xt::xarray<T> out(shape);
        const auto values = c.doubles(key);
        EXPECT_EQ(values.size(), out.size()) << key;
        for (std::size_t i = 0; i < out.size() && i < values.size(); ++i)
        {
            out.data()[i] = static_cast<T>(values[i]);
        }
        return out;
    }

    /// The coords of the array with prefix `prefix` ("a_", "r_" or "").
    inline xn::coords fixture_coords(const fixtures::fixture_case& c, const std::string& prefix,
                                     const xn::dims& names)
    {
        xn::coords out;
        for (const auto& axis : names)
        {
            if (c.has(prefix + "labels_" + axis))
            {
                out.set(axis, fixture_labels(c, prefix + "labels_" + axis, axis));
            }
        }
        return out;
    }

    /// Element by element, NaN equal to NaN, exactly otherwise.
    template <class E, class T>
    void expect_same_values(const E& actual, const xt::xarray<T>& expected)
    {
        ASSERT_EQ(actual.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            const auto a = static_cast<double>(actual.data()[i]);
            const auto e = static_cast<double>(expected.data()[i]);
            if (std::isnan(e))
            {
                EXPECT_TRUE(std::isnan(a)) << "at element " << i << ": " << a;
            }
            else
            {
                EXPECT_EQ(a, e) << "at element " << i;
            }
        }
    }
} // namespace xn_test

#endif
