/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_SAME_VALUES_HPP
#define XTENSOR_NAMED_TESTS_SAME_VALUES_HPP

#include <cmath>
#include <cstddef>

#include <gtest/gtest.h>
#include <xtensor-named/xcompat_xtensor.hpp>

namespace xn_test
{
    /// Same shape and values, NaN where the other has NaN.
    inline ::testing::AssertionResult same_with_nan(const xt::xarray<double>& actual,
                                                    const xt::xarray<double>& expected)
    {
        if (actual.shape() != expected.shape())
        {
            return ::testing::AssertionFailure() << "shapes differ";
        }
        for (std::size_t i = 0; i < actual.size(); ++i)
        {
            const double a = actual.flat(i);
            const double e = expected.flat(i);
            if (!(a == e || (std::isnan(a) && std::isnan(e))))
            {
                return ::testing::AssertionFailure() << "element " << i << ": " << a << " instead of " << e;
            }
        }
        return ::testing::AssertionSuccess();
    }
} // namespace xn_test

#endif
