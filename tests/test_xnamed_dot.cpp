/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/
//
// xn::dot against xarray's xr.dot (tests/fixtures/dot.txt, tests/fixtures/generate_dot.py), and what it
// refuses.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_dot.hpp>

#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    // The fixture's lists start with "." so that an empty list still has a token.
    std::vector<std::string> list_of(const fixtures::fixture_case& c, const std::string& key)
    {
        const auto& all = c.strings(key);
        return {all.begin() + 1, all.end()};
    }

    std::vector<std::size_t> sizes_of(const fixtures::fixture_case& c, const std::string& key)
    {
        std::vector<std::size_t> sizes;
        for (const auto& token : list_of(c, key))
        {
            sizes.push_back(static_cast<std::size_t>(std::stoull(token)));
        }
        return sizes;
    }

    std::vector<double> values_of(const fixtures::fixture_case& c, const std::string& key)
    {
        std::vector<double> values;
        for (const auto& token : list_of(c, key))
        {
            values.push_back(std::strtod(token.c_str(), nullptr));
        }
        return values;
    }

    xt::xarray<double> array_of(const fixtures::fixture_case& c, const std::string& prefix)
    {
        const auto all = values_of(c, prefix + "_values");
        xt::xarray<double> values = xt::xarray<double>::from_shape(sizes_of(c, prefix + "_shape"));
        std::copy(all.begin(), all.end(), values.begin());
        return values;
    }
} // namespace

TEST(dot, matches_xarray_dot)
{
    const auto cases = fixtures::read("dot.txt");
    ASSERT_GE(cases.size(), 300u);
    std::size_t with_default_axes = 0;
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto a_values = array_of(c, "a");
        const auto b_values = array_of(c, "b");
        const auto a = xn::name(a_values, xn::dims(list_of(c, "a_dims")));
        const auto b = xn::name(b_values, xn::dims(list_of(c, "b_dims")));
        const xn::xnamed<xt::xarray<double>, xn::missing_dims> result =
            c.has("axes") ? xn::eval(xn::dot(a, b, list_of(c, "axes"))) : xn::eval(xn::dot(a, b));
        with_default_axes += c.has("axes") ? 0 : 1;
        EXPECT_EQ(result.dims(), xn::dims(list_of(c, "out_dims")));
        ASSERT_EQ(std::vector<std::size_t>(result.shape().begin(), result.shape().end()),
                  sizes_of(c, "out_shape"));
        const auto expected = values_of(c, "out_values");
        ASSERT_EQ(result.expression().size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            EXPECT_NEAR(result.expression().flat(i), expected[i], 1e-9 * (1. + std::abs(expected[i])))
                << "at " << i;
        }
    }
    EXPECT_GT(with_default_axes, 30u);
}

TEST(dot, contracts_a_matrix_product_by_name_whatever_the_axis_order)
{
    const xt::xarray<double> left = {{1., 2., 3.}, {4., 5., 6.}};
    const xt::xarray<double> right = {{1., 0.}, {0., 1.}, {1., 1.}};
    const auto a = xn::name(left, {"i", "k"});
    const auto b = xn::name(right, {"k", "j"});
    const auto product = xn::eval(xn::dot(a, b, {"k"}));
    EXPECT_EQ(product.dims(), xn::dims({"i", "j"}));
    EXPECT_EQ(product.expression(), (xt::xarray<double>{{4., 5.}, {10., 11.}}));
    // The same with b's axes the other way round: by name, not by position.
    const xt::xarray<double> right_transposed = xt::transpose(right);
    const auto bt = xn::name(right_transposed, {"j", "k"});
    EXPECT_EQ(xn::eval(xn::dot(a, bt, {"k"})).expression(), product.expression());
    // Without axes: every shared name.
    EXPECT_EQ(xn::eval(xn::dot(a, b)).expression(), product.expression());
}

TEST(dot, refuses_an_axis_neither_operand_has)
{
    const xt::xarray<double> left = {{1., 2.}, {3., 4.}};
    const auto a = xn::name(left, {"i", "k"});
    const auto b = xn::name(left, {"k", "j"});
    XN_EXPECT_THROW_HAS(xn::dot(a, b, {"kk"}), xn::name_error, {"xn::dot", "'kk'", "(i, k, j)"});
    XN_EXPECT_THROW_HAS(xn::dot(a, b, {"k", "k"}), xn::name_error, {"xn::dot", "listed twice"});
}

TEST(dot, takes_one_axis_name_as_a_list_of_it)
{
    const xt::xarray<double> left = {{1., 2., 3.}, {4., 5., 6.}};
    const xt::xarray<double> right = {{1., 0.}, {0., 1.}, {1., 1.}};
    const auto a = xn::name(left, {"i", "k"});
    const auto b = xn::name(right, {"k", "j"});
    const auto product = xn::eval(xn::dot(a, b, "k"));
    EXPECT_EQ(product.dims(), xn::dims({"i", "j"}));
    EXPECT_EQ(product.expression(), (xt::xarray<double>{{4., 5.}, {10., 11.}}));
    const std::string axis = "i";
    const auto over_i = xn::eval(xn::dot(a, b, axis));
    EXPECT_EQ(over_i.dims(), xn::dims({"k", "j"}));
    // sum over i of left(i, k) * right(k, j)
    EXPECT_EQ(over_i.expression(), (xt::xarray<double>{{5., 0.}, {0., 7.}, {9., 9.}}));
    XN_EXPECT_THROW_HAS(xn::dot(a, b, "kk"), xn::name_error, {"xn::dot", "'kk'", "(i, k, j)"});
}
