/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_KERNEL_ORACLE_HPP
#define XTENSOR_NAMED_TESTS_KERNEL_ORACLE_HPP

// The oracle of the kernel tests (test_xkernels*.cpp): xtensor's own assignment, `xt::noalias(r) = e`,
// compared bit for bit (raw bytes, so that NaN payloads and signed zeros count), and the bound of
// recursive summation for sums associated differently.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>

namespace kernel_oracle
{
    namespace xn = xt::named;

    using sizes = std::vector<std::size_t>;

    // Lengths that leave every possible tail after the SIMD batches (1 to 16 lanes), and runs shorter
    // than one batch.
    const sizes tail_sizes = {1, 3, 7, 17, 33};

    /// Values of many magnitudes and both signs, so that every operation rounds.
    template <class T>
    xt::xarray<T> random_array(const sizes& shape, unsigned seed)
    {
        std::mt19937 engine(seed);
        std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
        std::uniform_int_distribution<int> exponent(-12, 12);
        xt::xarray<T> result = xt::xarray<T>::from_shape(shape);
        for (auto& x : result)
        {
            x = static_cast<T>(std::ldexp(mantissa(engine), exponent(engine)));
        }
        return result;
    }

    /// `shape` with every axis but those in `keep` of size 1: an operand broadcast along the others.
    inline sizes only_axes(const sizes& shape, const sizes& keep)
    {
        sizes result(shape.size(), 1);
        for (std::size_t axis : keep)
        {
            result[axis] = shape[axis];
        }
        return result;
    }

    /// xtensor's own assignment: the oracle.
    template <class T, class E>
    xt::xarray<T> xtensor_value(const E& e)
    {
        xt::xarray<T> result;
        xt::noalias(result) = e;
        return result;
    }

    /// The kernels' value; fails the test when the kernels leave `e` to xtensor.
    template <class T, class E>
    xt::xarray<T> kernel_value(const E& e)
    {
        auto result = xt::xarray<T>::from_shape(e.shape());
        EXPECT_TRUE(xn::detail::try_kernel_assign(result, e)) << "the kernels did not take the expression";
        return result;
    }

    template <class S>
    std::string shape_text(const S& shape)
    {
        std::ostringstream out;
        out << "(";
        for (std::size_t i = 0; i < shape.size(); ++i)
        {
            out << (i ? ", " : "") << shape[i];
        }
        out << ")";
        return out.str();
    }

    /// Same shape and the same bytes in every element, compared in row-major order.
    template <class A, class B>
    ::testing::AssertionResult same_bits(const A& actual, const B& expected)
    {
        using T = typename A::value_type;
        if (!(sizes(actual.shape().begin(), actual.shape().end()) ==
              sizes(expected.shape().begin(), expected.shape().end())))
        {
            return ::testing::AssertionFailure() << "shape " << shape_text(actual.shape()) << " instead of "
                                                 << shape_text(expected.shape());
        }
        xt::xarray<T> a = actual;
        xt::xarray<T> b = expected;
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            const T x = a.flat(i);
            const T y = b.flat(i);
            if (std::memcmp(&x, &y, sizeof(T)) != 0)
            {
                return ::testing::AssertionFailure() << "element " << i << " of " << shape_text(a.shape())
                                                     << ": " << x << " instead of " << y;
            }
        }
        return ::testing::AssertionSuccess();
    }

    /// The kernels give xtensor's bits for `e`.
    template <class T, class E>
    ::testing::AssertionResult matches_xtensor(const E& e)
    {
        const xt::xarray<T> expected = xtensor_value<T>(e);
        const xt::xarray<T> actual = kernel_value<T>(e);
        return same_bits(actual, expected);
    }

    /// The bound of recursive summation of n terms in any order: gamma(n - 1) * sum |x|, so that two
    /// orders differ by at most twice that (Higham, Accuracy and Stability, 4.2).
    template <class T>
    double summation_bound(std::size_t n, double sum_of_magnitudes)
    {
        const double u = std::numeric_limits<T>::epsilon() / 2;
        const double nu = static_cast<double>(n) * u;
        return 2 * nu / (1 - nu) * sum_of_magnitudes;
    }

    /// The distance between two values in units in the last place: 0 for equal values and for two NaN,
    /// the largest value when only one is NaN.
    template <class T>
    long long ulp_distance(T a, T b)
    {
        if (std::isnan(a) || std::isnan(b))
        {
            return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<long long>::max();
        }
        if (a == b)
        {
            return 0;
        }
        using bits_type = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
        const auto ordered = [](T x)
        {
            bits_type bits;
            std::memcpy(&bits, &x, sizeof(T));
            // Negative values count down from the largest one, so that neighbours differ by 1.
            return bits < 0 ? static_cast<long long>(std::numeric_limits<bits_type>::min()) - bits
                            : static_cast<long long>(bits);
        };
        const long long distance = ordered(a) - ordered(b);
        return distance < 0 ? -distance : distance;
    }

    /// Same shape and every element within `bound` units in the last place of `expected`'s.
    template <class A, class B>
    ::testing::AssertionResult within_ulps(const A& actual, const B& expected, long long bound)
    {
        using T = typename A::value_type;
        if (!(sizes(actual.shape().begin(), actual.shape().end()) ==
              sizes(expected.shape().begin(), expected.shape().end())))
        {
            return ::testing::AssertionFailure() << "shape " << shape_text(actual.shape()) << " instead of "
                                                 << shape_text(expected.shape());
        }
        xt::xarray<T> a = actual;
        xt::xarray<T> b = expected;
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            const long long distance = ulp_distance(a.flat(i), b.flat(i));
            if (distance > bound)
            {
                return ::testing::AssertionFailure()
                       << "element " << i << ": " << a.flat(i) << " instead of " << b.flat(i) << ", "
                       << distance << " units in the last place apart (bound " << bound << ")";
            }
        }
        return ::testing::AssertionSuccess();
    }

} // namespace kernel_oracle

#endif
