/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Inputs that the fuzz targets (fuzz/) found, kept as tests once understood: each test names the target
// that found it and says what went wrong.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    xt::xarray<double> empty_gradient()
    {
        return xt::zeros<double>({std::size_t(0), std::size_t(2)});
    }
} // namespace

// fuzz_partial_shape: to_concrete handed back sizes whose product wraps around, while num_elements
// refused the same shape. A container of that shape would be allocated far too small.
TEST(regressions, to_concrete_refuses_the_shape_that_num_elements_refuses)
{
    const auto s = xn::partial_shape::of(
        {std::int64_t(70368744177664), std::int64_t(281474976710656), INT64_MAX, INT64_MAX});
    XN_EXPECT_THROW_HAS(s.num_elements(), xn::shape_error, {"xn::partial_shape::num_elements", "overflows"});
    XN_EXPECT_THROW_HAS(s.to_concrete("eval"), xn::shape_error, {"xn::eval", "overflows"});
}

// fuzz_explicit_broadcast: the adjoint sums of an empty gradient. xtensor 0.24's own reducers offset the
// null data pointer of an empty container (UBSan: "applying non-zero offset to null pointer" in
// xtensor/xiterator.hpp), so `xt::xarray<double> r = xn::sum_to(g, ...)` is undefined behaviour for an
// empty `g` whatever this library does; xn::eval and xn::assign, which run the library's own loops,
// must give the zeros of the right shape, cleanly under the sanitizers.
TEST(regressions, sum_to_of_an_empty_gradient_evaluates_to_zeros)
{
    const auto g = empty_gradient();
    const xt::xarray<double> r = xn::eval(xn::sum_to(g, {2}));
    EXPECT_EQ(r, (xt::xarray<double>{0.0, 0.0}));
}

TEST(regressions, reduce_broadcast_axes_of_an_empty_gradient_evaluates_to_zeros)
{
    const auto g = empty_gradient();
    const xt::xarray<double> r = xn::eval(xn::reduce_broadcast_axes(g, {0}));
    EXPECT_EQ(r, (xt::xarray<double>{0.0, 0.0}));
}

TEST(regressions, sum_in_dim_of_an_empty_gradient_assigns_zeros)
{
    const auto g = empty_gradient();
    xt::xarray<double> out = {7.0};
    xn::assign(out, xn::sum_in_dim(g, {1, 2}, {0, 1}));
    EXPECT_EQ(out, (xt::xarray<double>{{0.0, 0.0}}));
}

TEST(regressions, a_sum_that_keeps_an_empty_axis_evaluates_to_an_empty_array)
{
    const auto g = empty_gradient();
    const xt::xarray<double> r = xn::eval(xn::reduce_broadcast_axes(g, {1}));
    EXPECT_EQ(r.shape().size(), 1u);
    EXPECT_EQ(r.size(), 0u);
}
