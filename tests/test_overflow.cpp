/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Element counts and strides computed from users' shapes are checked. Wherever the library turns
// a user's shape into the shape of a container or of a view, a shape whose element count or whose
// row-major strides (the products of the sizes after each axis) overflow is an xn::shape_error, never a
// wrap-around: xtensor itself computes both without checking, and a wrapped count makes a container too
// small for its shape. (partial_shape's own overflow checks are tested in test_xpartial_shape.cpp.)

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    constexpr std::int64_t two_to_the_32 = std::int64_t(1) << 32;
    constexpr std::int64_t two_to_the_62 = std::int64_t(1) << 62;

    // 2^32 * 2^32 is 2^64: as a std::size_t product it wraps around to exactly 0.
    const std::vector<std::int64_t> wraps_to_zero = {two_to_the_32, two_to_the_32};
} // namespace

TEST(overflow, to_concrete_refuses_an_element_count_that_wraps_to_zero)
{
    XN_EXPECT_THROW_MSG(xn::partial_shape::of(wraps_to_zero).to_concrete("eval"), xn::shape_error,
                        "xn::eval: the element count of (4294967296, 4294967296) overflows a 64-bit integer");
}

TEST(overflow, broadcast_to_refuses_a_target_whose_element_count_overflows)
{
    const xt::xarray<double> row = {1.0, 2.0};
    XN_EXPECT_THROW_HAS(xn::broadcast_to(row, {two_to_the_32, two_to_the_32, 2}), xn::shape_error,
                        {"xn::broadcast_to", "(4294967296, 4294967296, 2)", "overflows"});
}

TEST(overflow, broadcast_to_refuses_a_number_broadcast_to_an_overflowing_shape)
{
    XN_EXPECT_THROW_HAS(xn::broadcast_to(1.0, wraps_to_zero), xn::shape_error,
                        {"xn::broadcast_to", "(4294967296, 4294967296)", "overflows"});
}

TEST(overflow, broadcast_refuses_a_target_whose_element_count_overflows)
{
    const xt::xarray<double> column = {1.0, 2.0, 3.0};
    XN_EXPECT_THROW_HAS(xn::broadcast(column, {3, two_to_the_62, 4}, {1, 2}), xn::shape_error,
                        {"xn::broadcast", "(3, 4611686018427387904, 4)", "overflows"});
}

TEST(overflow, broadcast_in_dim_refuses_a_target_whose_element_count_overflows)
{
    const xt::xarray<double> column = {1.0, 2.0, 3.0};
    XN_EXPECT_THROW_HAS(xn::broadcast_in_dim(column, {3, two_to_the_32, two_to_the_32}, {0}), xn::shape_error,
                        {"xn::broadcast_in_dim", "(3, 4294967296, 4294967296)", "overflows"});
}

TEST(overflow, broadcast_like_refuses_an_operand_target_whose_element_count_overflows)
{
    const xt::xarray<double> values = {1.0, 2.0};
    const auto bias = xn::name(values, {"x"});
    const xn::operand target{xn::partial_shape::of({two_to_the_32, two_to_the_32, 2}),
                             xn::dims{"a", "b", "x"}};
    XN_EXPECT_THROW_HAS(xn::broadcast_like(bias, target), xn::shape_error,
                        {"xn::broadcast_like", "(4294967296, 4294967296, 2)", "overflows"});
}

TEST(overflow, plans_infer_large_shapes_without_building_anything)
{
    // A plan is shape inference: it builds no container, so a shape too large for memory is no error
    // until something is evaluated.
    const auto p = xn::plan<xn::numpy>(xn::operand::unnamed(xn::partial_shape::of({two_to_the_32, 1})),
                                       xn::operand::unnamed(xn::partial_shape::of({two_to_the_32})));
    EXPECT_EQ(p.shape, xn::partial_shape::of({two_to_the_32, two_to_the_32}));
    XN_EXPECT_THROW_HAS(p.shape.num_elements(), xn::shape_error,
                        {"xn::partial_shape::num_elements", "overflows"});
}
