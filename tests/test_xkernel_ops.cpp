/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The functions the kernels evaluate themselves (detail/kernels/xkernel_ops.hpp): comparisons, logical
// operations, selection, minimum and maximum bit for bit as xtensor's assignment; xsimd's math
// functions within the documented bound of std:: (docs/kernels.md); operands and outputs of other
// element types converted as C++ converts them; reducers inside a tree evaluated first.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>
#include <xtensor-named/xnamed_math.hpp>
#include <xtensor-named/xnamed_reducers.hpp>

#include "support/kernel_oracle.hpp"

namespace xn = xt::named;
using namespace kernel_oracle;

namespace
{
    template <class T>
    class kernel_ops : public ::testing::Test
    {
    };

    using element_types = ::testing::Types<float, double>;
    TYPED_TEST_SUITE(kernel_ops, element_types, );

    /// `count` values spread over [low, high], in an order that puts every kind of value in every
    /// position of a batch.
    template <class T>
    xt::xarray<T> spread(std::size_t count, double low, double high, unsigned seed)
    {
        std::mt19937 engine(seed);
        std::uniform_real_distribution<double> value(low, high);
        xt::xarray<T> result = xt::xarray<T>::from_shape({count});
        for (auto& x : result)
        {
            x = static_cast<T>(value(engine));
        }
        return result;
    }

    /// NaN, infinities, signed zeros, the extremes and subnormals.
    template <class T>
    xt::xarray<T> special_values()
    {
        using limits = std::numeric_limits<T>;
        return xt::xarray<T>{limits::quiet_NaN(),
                             limits::infinity(),
                             -limits::infinity(),
                             T(0),
                             -T(0),
                             limits::max(),
                             limits::lowest(),
                             limits::min(),
                             limits::denorm_min(),
                             -limits::denorm_min(),
                             T(1),
                             T(-1),
                             T(0.5),
                             T(-0.5),
                             T(2),
                             T(-2),
                             T(100),
                             T(-100)};
    }

    /// The kernels' value of `e`, whose elements are T; fails the test when the kernels refuse it.
    template <class T, class E>
    xt::xarray<T> kernel_result(const E& e)
    {
        return kernel_value<T>(e);
    }

    /// std's function applied to every element of `x`: the oracle of the math functions.
    template <class T, class F>
    xt::xarray<T> std_applied(const xt::xarray<T>& x, F f)
    {
        xt::xarray<T> result = xt::xarray<T>::from_shape(x.shape());
        for (std::size_t i = 0; i < x.size(); ++i)
        {
            result.flat(i) = static_cast<T>(f(x.flat(i)));
        }
        return result;
    }
} // namespace

/***************************************************************
 * comparisons, logical operations, selection: xtensor's bits  *
 ***************************************************************/

TYPED_TEST(kernel_ops, comparisons_into_a_bool_output_match_xtensor)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        const auto a = random_array<T>({3, n}, 1);
        auto b = random_array<T>({3, n}, 2);
        b(1, 0) = a(1, 0); // equal elements too
        const auto u = random_array<T>({3, 1}, 3);
        EXPECT_TRUE(same_bits(kernel_value<bool>(a < b), xtensor_value<bool>(a < b)));
        EXPECT_TRUE(same_bits(kernel_value<bool>(a <= b), xtensor_value<bool>(a <= b)));
        EXPECT_TRUE(same_bits(kernel_value<bool>(a > u), xtensor_value<bool>(a > u)));
        EXPECT_TRUE(same_bits(kernel_value<bool>(a >= T(0)), xtensor_value<bool>(a >= T(0))));
        EXPECT_TRUE(same_bits(kernel_value<bool>(xt::equal(a, b)), xtensor_value<bool>(xt::equal(a, b))));
        EXPECT_TRUE(
            same_bits(kernel_value<bool>(xt::not_equal(a, b)), xtensor_value<bool>(xt::not_equal(a, b))));
        EXPECT_TRUE(
            same_bits(kernel_value<bool>((a > b) && (a > u)), xtensor_value<bool>((a > b) && (a > u))));
        EXPECT_TRUE(
            same_bits(kernel_value<bool>((a > b) || !(a > u)), xtensor_value<bool>((a > b) || !(a > u))));
        EXPECT_TRUE(same_bits(kernel_value<bool>(xt::isnan(a / b)), xtensor_value<bool>(xt::isnan(a / b))));
    }
}

TYPED_TEST(kernel_ops, comparisons_of_special_values_match_xtensor)
{
    using T = TypeParam;
    const auto s = special_values<T>();
    const xt::xarray<T> a = xt::view(s, xt::all(), xt::newaxis());
    const xt::xarray<T> b = xt::view(s, xt::newaxis(), xt::all());
    EXPECT_TRUE(same_bits(kernel_value<bool>(a < b), xtensor_value<bool>(a < b)));
    EXPECT_TRUE(same_bits(kernel_value<bool>(xt::equal(a, b)), xtensor_value<bool>(xt::equal(a, b))));
    EXPECT_TRUE(same_bits(kernel_value<bool>(xt::not_equal(a, b)), xtensor_value<bool>(xt::not_equal(a, b))));
    EXPECT_TRUE(same_bits(kernel_value<bool>(xt::isinf(a) || xt::isnan(b)),
                          xtensor_value<bool>(xt::isinf(a) || xt::isnan(b))));
    EXPECT_TRUE(same_bits(kernel_value<bool>(xt::isfinite(a)), xtensor_value<bool>(xt::isfinite(a))));
    // Selections and extrema keep NaN and signed zeros where xtensor's select keeps them.
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::where(a < b, a, b)), xtensor_value<T>(xt::where(a < b, a, b))));
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::maximum(a, b)), xtensor_value<T>(xt::maximum(a, b))));
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::minimum(a, b)), xtensor_value<T>(xt::minimum(a, b))));
    EXPECT_TRUE(
        same_bits(kernel_value<T>(xt::clip(a, T(-1), T(1))), xtensor_value<T>(xt::clip(a, T(-1), T(1)))));
}

TYPED_TEST(kernel_ops, where_maximum_and_clip_in_compound_expressions_match_xtensor)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        const auto a = random_array<T>({4, n}, 4);
        const auto v = random_array<T>({n}, 5);
        const auto u = random_array<T>({4, 1}, 6);
        const auto relu = xt::where(a > T(0), a, T(0));
        EXPECT_TRUE(same_bits(kernel_value<T>(relu), xtensor_value<T>(relu)));
        const auto masked = xt::where(a > u && a < v, (a - u) / v, T(0.5) * a);
        EXPECT_TRUE(same_bits(kernel_value<T>(masked), xtensor_value<T>(masked)));
        const auto extremes = xt::maximum(xt::minimum(a, v), u) * xt::clip(a, -u, u);
        EXPECT_TRUE(same_bits(kernel_value<T>(extremes), xtensor_value<T>(extremes)));
        // A mask used as a number is 1 or 0, a number used as a mask is "not 0", as in C++. (xtensor's
        // own SIMD assignment does not compile these: the oracle is a loop.)
        xt::xarray<T> a_zeroed = a;
        a_zeroed(0, 0) = T(0);
        xt::xarray<T> expected = xt::xarray<T>::from_shape(a.shape());
        for (std::size_t i = 0; i < 4; ++i)
        {
            for (std::size_t j = 0; j < n; ++j)
            {
                const T x = a_zeroed(i, j);
                expected(i, j) = T(x > u(i, 0)) * x + (x ? v(j) : -v(j));
            }
        }
        EXPECT_TRUE(
            same_bits(kernel_value<T>((a_zeroed > u) * a_zeroed + xt::where(a_zeroed, v, -v)), expected));
    }
}

TYPED_TEST(kernel_ops, the_library_powers_match_xtensors_square_cube_and_pow)
{
    using T = TypeParam;
    const auto a = random_array<T>({5, 33}, 7);
    EXPECT_TRUE(same_bits(kernel_value<T>(xn::square(a)), xtensor_value<T>(xt::square(a))));
    EXPECT_TRUE(same_bits(kernel_value<T>(xn::cube(a)), xtensor_value<T>(xt::cube(a))));
    EXPECT_TRUE(same_bits(kernel_value<T>(xn::pow<5>(a)), xtensor_value<T>(xt::pow<5>(a))));
    EXPECT_TRUE(same_bits(kernel_value<T>(xn::pow<1>(a)), a));
    EXPECT_TRUE(same_bits(kernel_value<T>(xn::pow<0>(a)), xt::xarray<T>(xt::ones<T>(a.shape()))));
}

TYPED_TEST(kernel_ops, fillna_and_combine_first_take_the_second_value_on_nan_lanes_only)
{
    using T = TypeParam;
    const auto values = special_values<T>();
    const std::size_t n = values.size();
    // Every special value meets every other, the second operand broadcast along rows or columns.
    xt::xarray<T> a = xt::xarray<T>::from_shape({n, n});
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            a(i, j) = values((i + j) % n);
        }
    }
    const xt::xarray<T> row = xt::view(values, xt::newaxis(), xt::all());
    const xt::xarray<T> column = xt::view(values, xt::all(), xt::newaxis());
    for (const auto* other : {&row, &column})
    {
        const auto e = xt::detail::make_xfunction<xn::detail::fill_nan_fun>(a, *other);
        xt::xarray<T> expected = xt::xarray<T>::from_shape(a.shape());
        for (std::size_t i = 0; i < n; ++i)
        {
            for (std::size_t j = 0; j < n; ++j)
            {
                const T b = other == &row ? row(0, j) : column(i, 0);
                expected(i, j) = std::isnan(a(i, j)) ? b : a(i, j);
            }
        }
        EXPECT_TRUE(same_bits(kernel_value<T>(e), expected));
    }
    const auto filled = xt::detail::make_xfunction<xn::detail::fill_nan_fun>(a, T(-3));
    EXPECT_TRUE(same_bits(kernel_value<T>(filled), xt::xarray<T>(xt::where(xt::isnan(a), T(-3), a))));
}

/*****************************************************
 * math functions: within the bound of docs/kernels  *
 *****************************************************/

namespace
{
    /// One row of the table of docs/kernels.md: a function, the inputs it was measured on, and the
    /// largest distance from std:: in units in the last place.
    template <class T>
    struct math_case
    {
        std::string name;
        std::function<xt::xarray<T>(const xt::xarray<T>&)> kernel;
        std::function<T(T)> reference;
        double low;
        double high;
        long long bound;
    };

#define XN_MATH_CASE(NAME, LOW, HIGH, BOUND)                                                                 \
    math_case<T>                                                                                             \
    {                                                                                                        \
#NAME, [](const xt::xarray <T>& x) { return kernel_result<T>(xt::NAME(x)); }, [](T x)                \
        { return static_cast<T>(std::NAME(x)); }, LOW, HIGH, BOUND                                           \
    }

    template <class T>
    std::vector<math_case<T>> math_cases()
    {
        return {
            XN_MATH_CASE(exp, -80, 80, 4),         XN_MATH_CASE(exp2, -100, 100, 4),
            XN_MATH_CASE(expm1, -30, 30, 4),       XN_MATH_CASE(log, 1e-30, 1e30, 4),
            XN_MATH_CASE(log2, 1e-30, 1e30, 4),    XN_MATH_CASE(log10, 1e-30, 1e30, 4),
            XN_MATH_CASE(log1p, -0.99, 1e6, 4),    XN_MATH_CASE(sqrt, 0, 1e30, 0),
            XN_MATH_CASE(cbrt, -1e6, 1e6, 4),      XN_MATH_CASE(sin, -100, 100, 4),
            XN_MATH_CASE(cos, -100, 100, 4),       XN_MATH_CASE(tan, -1.5, 1.5, 4),
            XN_MATH_CASE(asin, -1, 1, 4),          XN_MATH_CASE(acos, -1, 1, 4),
            XN_MATH_CASE(atan, -1e3, 1e3, 4),      XN_MATH_CASE(sinh, -20, 20, 4),
            XN_MATH_CASE(cosh, -20, 20, 4),        XN_MATH_CASE(tanh, -20, 20, 4),
            XN_MATH_CASE(asinh, -1e3, 1e3, 4),     XN_MATH_CASE(acosh, 1, 1e3, 4),
            XN_MATH_CASE(atanh, -0.99, 0.99, 4),   XN_MATH_CASE(abs, -1e3, 1e3, 0),
            XN_MATH_CASE(fabs, -1e3, 1e3, 0),      XN_MATH_CASE(ceil, -1e3, 1e3, 0),
            XN_MATH_CASE(floor, -1e3, 1e3, 0),     XN_MATH_CASE(trunc, -1e3, 1e3, 0),
            XN_MATH_CASE(round, -1e3, 1e3, 0),     XN_MATH_CASE(rint, -1e3, 1e3, 0),
            XN_MATH_CASE(nearbyint, -1e3, 1e3, 0),
        };
    }

#undef XN_MATH_CASE
} // namespace

TYPED_TEST(kernel_ops, math_functions_stay_within_their_documented_bound_of_std)
{
    using T = TypeParam;
    for (const auto& c : math_cases<T>())
    {
        // 1003 elements: whole batches and every tail, read through the SIMD and the scalar path.
        const xt::xarray<T> x = spread<T>(1003, c.low, c.high, 8);
        const xt::xarray<T> expected = std_applied<T>(x, c.reference);
        EXPECT_TRUE(within_ulps(c.kernel(x), expected, c.bound)) << c.name;
    }
}

TYPED_TEST(kernel_ops, math_functions_of_special_values_give_what_std_gives)
{
    using T = TypeParam;
    const xt::xarray<T> s = special_values<T>();
    for (const auto& c : math_cases<T>())
    {
        // NaN stays NaN, infinities and zeros come out as std's: only finite results may differ, by
        // the documented bound.
        const xt::xarray<T> actual = c.kernel(s);
        const xt::xarray<T> expected = std_applied<T>(s, c.reference);
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            const T a = actual.flat(i);
            const T e = expected.flat(i);
            if (std::isnan(e) || std::isinf(e))
            {
                EXPECT_EQ(std::isnan(a), std::isnan(e))
                    << c.name << "(" << s.flat(i) << "): " << a << " vs " << e;
                EXPECT_EQ(std::isinf(a) && (a > 0), std::isinf(e) && (e > 0))
                    << c.name << "(" << s.flat(i) << ")";
            }
            else if (std::isfinite(a) && std::abs(e) >= std::numeric_limits<T>::min())
            {
                EXPECT_LE(ulp_distance(a, e), c.bound)
                    << c.name << "(" << s.flat(i) << "): " << a << " vs " << e;
            }
        }
    }
}

TYPED_TEST(kernel_ops, binary_math_functions_stay_within_their_bound)
{
    using T = TypeParam;
    const xt::xarray<T> x = spread<T>(1003, 0.001, 1000, 9);
    const xt::xarray<T> y = spread<T>(1003, -3, 3, 10);
    xt::xarray<T> expected = xt::xarray<T>::from_shape(x.shape());
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        expected.flat(i) = static_cast<T>(std::hypot(x.flat(i), y.flat(i)));
    }
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::hypot(x, y)), expected, 4));
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        expected.flat(i) = static_cast<T>(std::atan2(y.flat(i), x.flat(i)));
    }
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::atan2(y, x)), expected, 4));
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        expected.flat(i) = static_cast<T>(std::fdim(x.flat(i), y.flat(i)));
    }
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::fdim(x, y)), expected));
}

namespace
{
    /// The inputs of the sweep: special values, the edges of the functions' domains (1, -1, the limits of
    /// exp), and +-10^k over the whole range of T.
    template <class T>
    std::vector<T> sweep_values()
    {
        const xt::xarray<T> s = special_values<T>();
        std::vector<T> values(s.begin(), s.end());
        for (const double edge :
             {0.99999, 1.00001, 88.7, 89., 709.7, 710., 1e-310, 3.14159265358979, 201.1, 1.7e6})
        {
            values.push_back(static_cast<T>(edge));
            values.push_back(static_cast<T>(-edge));
        }
        const int highest = std::numeric_limits<T>::max_exponent10;
        const int lowest = std::numeric_limits<T>::min_exponent10 - std::numeric_limits<T>::digits10;
        for (int k = lowest; k <= highest; k += sizeof(T) == 4 ? 1 : 11)
        {
            values.push_back(static_cast<T>(std::pow(10., k)));
            values.push_back(static_cast<T>(-std::pow(10., k)));
        }
        return values;
    }

    /// Whether `actual` is std's `expected`: the same NaN, infinity or zero (with its sign where std gives
    /// a zero from a nonzero input too), else within `bound` units in the last place.
    template <class T>
    bool as_std(T actual, T expected, long long bound)
    {
        if (std::isnan(expected) || std::isinf(expected) || expected == T(0))
        {
            return std::isnan(expected)
                       ? std::isnan(actual)
                       : actual == expected && std::signbit(actual) == std::signbit(expected);
        }
        return ulp_distance(actual, expected) <= bound;
    }

    /// 37 elements: on every instruction set, whole batches and a tail, so that every position of a batch
    /// and of the tail is swept.
    constexpr std::size_t sweep_length = 37;

    /// `arguments` with one element replaced by `value`, at each position in turn, and all of them at once:
    /// fails on the first element whose `kernel` value is not `reference`'s, naming its position.
    template <class T, class K, class R>
    ::testing::AssertionResult same_wherever_it_sits(const std::string& name, K kernel, R reference,
                                                     const std::vector<T>& value, long long bound)
    {
        const std::size_t arity = value.size();
        std::vector<xt::xarray<T>> arguments(arity);
        const auto expected = std::apply(reference, std::array<T, 2>{value[0], value[arity - 1]});
        for (std::size_t position = 0; position <= sweep_length; ++position)
        {
            for (std::size_t a = 0; a < arity; ++a)
            {
                // Around the swept lane, ordinary values that every function computes in its batches.
                arguments[a] = xt::xarray<T>::from_shape({sweep_length});
                arguments[a].fill(T(0.75));
                if (position == sweep_length)
                {
                    arguments[a].fill(value[a]);
                }
                else
                {
                    arguments[a](position) = value[a];
                }
            }
            const xt::xarray<T> actual = kernel(arguments);
            for (std::size_t i = 0; i < sweep_length; ++i)
            {
                if ((position == sweep_length || i == position) && !as_std(actual(i), T(expected), bound))
                {
                    auto failure = ::testing::AssertionFailure() << name << "(";
                    for (std::size_t a = 0; a < arity; ++a)
                    {
                        failure << (a == 0 ? "" : ", ") << value[a];
                    }
                    return failure << ") at position " << i << " of " << sweep_length << ": " << actual(i)
                                   << " instead of std's " << expected;
                }
            }
        }
        return ::testing::AssertionSuccess();
    }
} // namespace

TYPED_TEST(kernel_ops, math_functions_give_std_values_wherever_the_element_sits)
{
    using T = TypeParam;
    const std::vector<T> values = sweep_values<T>();
    for (const auto& c : math_cases<T>())
    {
        for (const T v : values)
        {
            EXPECT_TRUE(same_wherever_it_sits<T>(
                c.name, [&](const std::vector<xt::xarray<T>>& x) { return c.kernel(x[0]); },
                [&](T x, T) { return c.reference(x); }, {v}, std::max(c.bound, 4LL)));
        }
    }
}

TYPED_TEST(kernel_ops, binary_math_functions_give_std_values_wherever_the_elements_sit)
{
    using T = TypeParam;
    const xt::xarray<T> s = special_values<T>();
    std::vector<T> values(s.begin(), s.end());
    values.push_back(T(1e-200));
    values.push_back(T(3e19));
    values.push_back(T(4e19));
    values.push_back(T(1e300));
    for (const T y : values)
    {
        for (const T x : values)
        {
            EXPECT_TRUE(same_wherever_it_sits<T>(
                "atan2",
                [](const std::vector<xt::xarray<T>>& a) { return kernel_value<T>(xt::atan2(a[0], a[1])); },
                [](T u, T v) { return static_cast<T>(std::atan2(u, v)); }, {y, x}, 4));
            EXPECT_TRUE(same_wherever_it_sits<T>(
                "hypot",
                [](const std::vector<xt::xarray<T>>& a) { return kernel_value<T>(xt::hypot(a[0], a[1])); },
                [](T u, T v) { return static_cast<T>(std::hypot(u, v)); }, {y, x}, 4));
            EXPECT_TRUE(same_wherever_it_sits<T>(
                "fdim",
                [](const std::vector<xt::xarray<T>>& a) { return kernel_value<T>(xt::fdim(a[0], a[1])); },
                [](T u, T v) { return static_cast<T>(std::fdim(u, v)); }, {y, x}, 0));
        }
    }
}

TYPED_TEST(kernel_ops, exp_and_log_near_the_ends_of_their_range_give_what_std_gives)
{
    using T = TypeParam;
    using limits = std::numeric_limits<T>;
    // Results near underflow (subnormals) and overflow, and logarithms of subnormals, where xsimd 8
    // alone is wrong: those lanes take xtensor's own functor.
    const double low = std::log(static_cast<double>(limits::denorm_min()));
    const double high = std::log(static_cast<double>(limits::max()));
    const xt::xarray<T> near_ends = xt::concatenate(
        xt::xtuple(spread<T>(501, low - 2, low + 40, 17), spread<T>(501, high - 3, high + 1, 18)));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::exp(near_ends)),
                            std_applied<T>(near_ends, [](T v) { return std::exp(v); }), 4));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::expm1(near_ends)),
                            std_applied<T>(near_ends, [](T v) { return std::expm1(v); }), 4));
    xt::xarray<T> subnormals = xt::xarray<T>::from_shape({203});
    for (std::size_t i = 0; i < subnormals.size(); ++i)
    {
        subnormals.flat(i) = limits::denorm_min() * static_cast<T>(1 + 37 * i) * (i % 2 == 0 ? T(1) : T(-1)) +
                             (i % 5 == 0 ? limits::min() : T(0));
    }
    const xt::xarray<T> positive = xt::abs(subnormals);
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::log(positive)),
                            std_applied<T>(positive, [](T v) { return std::log(v); }), 4));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::log2(positive)),
                            std_applied<T>(positive, [](T v) { return std::log2(v); }), 4));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::log10(positive)),
                            std_applied<T>(positive, [](T v) { return std::log10(v); }), 4));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::cbrt(subnormals)),
                            std_applied<T>(subnormals, [](T v) { return std::cbrt(v); }), 4));
}

TYPED_TEST(kernel_ops, exp_inside_its_range_gives_the_bits_of_xsimds_exp)
{
    // Inside exp's range the kernels leave out the two selects of xsimd's exp for underflow and overflow
    // (simd::exp_between_limits): its values must stay those of xsimd::exp, which xtensor's own
    // evaluation calls under XTENSOR_USE_XSIMD. The reach at both ends, zeros and subnormals included.
    using T = TypeParam;
    namespace simd = xn::detail::simd;
    if constexpr (simd::has_batch_v<T>)
    {
        using batch = simd::batch<T>;
        const T reach = static_cast<T>(xn::detail::kernel_exp_range::reach<T>());
        xt::xarray<T> x = spread<T>(64 * simd::batch_size<T>, -reach, reach, 29);
        const std::vector<T> ends{reach,
                                  -reach,
                                  T(0),
                                  -T(0),
                                  std::numeric_limits<T>::denorm_min(),
                                  T(-1e-30),
                                  std::nextafter(reach, T(0)),
                                  -std::nextafter(reach, T(0))};
        std::copy(ends.begin(), ends.end(), x.begin());
        xt::xarray<T> expected = xt::xarray<T>::from_shape(x.shape());
        for (std::size_t i = 0; i < x.size(); i += simd::batch_size<T>)
        {
            xsimd::exp(batch::load_unaligned(x.data() + i)).store_unaligned(expected.data() + i);
        }
        EXPECT_TRUE(same_bits(kernel_value<T>(xt::exp(x)), expected));
    }
}

TYPED_TEST(kernel_ops, exp_lanes_outside_its_range_are_right_in_place_in_reductions_and_streamed)
{
    // Runs of float exp are computed without a per-batch test first, and again with it when a lane
    // was outside exp's range (docs/kernels.md): the second pass must read the input as it was, and
    // fold every element once.
    using T = TypeParam;
    using limits = std::numeric_limits<T>;
    const T tiny = static_cast<T>(std::log(static_cast<double>(limits::denorm_min())) + 3); // subnormal exp
    const T huge = static_cast<T>(std::log(static_cast<double>(limits::max())) - T(0.05));  // near overflow
    const std::size_t rows = 6;
    const std::size_t columns = 301;
    xt::xarray<T> x = spread<T>(rows * columns, -3, 3, 23);
    x.reshape({rows, columns});
    x(1, 5) = tiny;
    x(2, 17) = huge;
    x(4, 300) = limits::quiet_NaN();
    const xt::xarray<T> expected = std_applied<T>(x, [](T v) { return std::exp(v); });
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::exp(x)), expected, 4));

    xt::xarray<T> in_place = x;
    ASSERT_TRUE(xn::detail::try_kernel_assign(in_place, xt::exp(in_place)));
    EXPECT_TRUE(within_ulps(in_place, expected, 4));

    // Minimum and maximum pick one element: a subnormal or a finite maximum shows the lane recomputed.
    xt::xarray<T> finite = x;
    finite(4, 300) = T(0);
    const xt::xarray<T> finite_expected = std_applied<T>(finite, [](T v) { return std::exp(v); });
    const auto exp_finite = xt::exp(finite);
    for (std::size_t axis : {0u, 1u})
    {
        EXPECT_TRUE(within_ulps(kernel_value<T>(xn::detail::fold_reducer<xn::detail::min_fold>(
                                    exp_finite, std::vector<std::size_t>{axis})),
                                xt::eval(xt::amin(finite_expected, {axis})), 4))
            << "axis " << axis;
        EXPECT_TRUE(within_ulps(kernel_value<T>(xn::detail::fold_reducer<xn::detail::max_fold>(
                                    exp_finite, std::vector<std::size_t>{axis})),
                                xt::eval(xt::amax(finite_expected, {axis})), 4))
            << "axis " << axis;
    }
    const auto smallest = kernel_value<T>(
        xn::detail::fold_reducer<xn::detail::min_fold>(exp_finite, std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(smallest(), finite_expected(1, 5));

    // An output large enough for streaming stores.
    const std::size_t long_columns = xn::detail::streaming_min_bytes() / 2 / sizeof(T) / rows + 7;
    xt::xarray<T> large = spread<T>(rows * long_columns, -3, 3, 24);
    large.reshape({rows, long_columns});
    large(3, long_columns - 2) = tiny;
    const xt::xarray<T> large_result = kernel_value<T>(xt::exp(large));
    EXPECT_TRUE(within_ulps(large_result, std_applied<T>(large, [](T v) { return std::exp(v); }), 4));
    EXPECT_GT(large_result(3, long_columns - 2), T(0));
}

TYPED_TEST(kernel_ops, exp_and_exp2_in_one_expression_each_take_their_own_range)
{
    // One test of the arguments' magnitudes serves both functions, against the smaller of their reaches
    // (exp's): exp's arguments below it, whose results are subnormal and need the tested pass, are
    // found even though exp2's reach is wider, and exp2's arguments between the two reaches are right.
    // exp2's term is multiplied by 0 so that exp's smallest results show in the sum.
    using T = TypeParam;
    using limits = std::numeric_limits<T>;
    const std::size_t n = 517;
    const double low = std::log(static_cast<double>(limits::denorm_min())) + 3;
    const xt::xarray<T> small = spread<T>(n, low, 80, 31);
    const xt::xarray<T> wide = spread<T>(n, -120, 120, 32);
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::exp(small) + xt::exp2(wide) * T(0)),
                            std_applied<T>(small, [](T v) { return std::exp(v); }), 4));
    EXPECT_TRUE(within_ulps(kernel_value<T>(xt::exp2(wide) + xt::exp(small) * T(0)),
                            std_applied<T>(wide, [](T v) { return std::exp2(v); }), 4));
}

TYPED_TEST(kernel_ops, a_math_function_inside_arithmetic_keeps_the_rest_exact)
{
    using T = TypeParam;
    const xt::xarray<T> x = spread<T>(257, -5, 5, 11);
    const xt::xarray<T> m = spread<T>(1, -1, 1, 12);
    // exp is within its bound of std::exp; what follows it is exact arithmetic on the kernel's exp.
    const xt::xarray<T> e = kernel_value<T>(xt::exp(x - m));
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::exp(x - m) / T(3) + x), xtensor_value<T>(e / T(3) + x)));
}

/***************************************************
 * element types: converted as C++ converts them   *
 ***************************************************/

TYPED_TEST(kernel_ops, integer_and_bool_operands_are_converted_as_cpp_does)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        const auto a = random_array<T>({3, n}, 13);
        xt::xarray<int> counts = xt::xarray<int>::from_shape({3, n});
        xt::xarray<bool> mask = xt::xarray<bool>::from_shape({3, n});
        for (std::size_t i = 0; i < counts.size(); ++i)
        {
            counts.flat(i) = static_cast<int>(i % 7) - 3;
            mask.flat(i) = i % 3 == 0;
        }
        const xt::xarray<std::int64_t> wide = counts * 1000003;
        const xt::xarray<unsigned char> bytes = xt::abs(counts);
        EXPECT_TRUE(same_bits(kernel_value<T>(a * counts), xtensor_value<T>(a * counts)));
        EXPECT_TRUE(same_bits(kernel_value<T>(a + wide), xtensor_value<T>(a + wide)));
        EXPECT_TRUE(same_bits(kernel_value<T>(a - bytes), xtensor_value<T>(a - bytes)));
        EXPECT_TRUE(
            same_bits(kernel_value<bool>(mask && (a > counts)), xtensor_value<bool>(mask && (a > counts))));
        // bool arrays as numbers and as conditions (xtensor's own SIMD assignment does not compile
        // these: the oracle is a loop).
        xt::xarray<T> times_mask = xt::xarray<T>::from_shape(a.shape());
        xt::xarray<T> selected = xt::xarray<T>::from_shape(a.shape());
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            times_mask.flat(i) = a.flat(i) * T(mask.flat(i));
            selected.flat(i) = mask.flat(i) ? a.flat(i) : T(0);
        }
        EXPECT_TRUE(same_bits(kernel_value<T>(a * mask), times_mask));
        EXPECT_TRUE(same_bits(kernel_value<T>(xt::where(mask, a, T(0))), selected));
        // An integer array on its own in a math function: std::exp(int) is a double.
        EXPECT_TRUE(
            within_ulps(kernel_value<double>(xt::exp(counts)), xtensor_value<double>(xt::exp(counts)), 4));
    }
}

TEST(kernel_ops_types, float_operands_in_double_expressions_and_mixed_outputs_match_xtensor)
{
    const auto f = random_array<float>({5, 17}, 14);
    const auto d = random_array<double>({5, 17}, 15);
    // float converts to double exactly; the double result is rounded into a float output, as xtensor does.
    EXPECT_TRUE(same_bits(kernel_value<double>(f * d + f), xtensor_value<double>(f * d + f)));
    EXPECT_TRUE(same_bits(kernel_value<float>(f * d + f), xtensor_value<float>(f * d + f)));
    EXPECT_TRUE(same_bits(kernel_value<float>(f * 0.1 - 2.5), xtensor_value<float>(f * 0.1 - 2.5)));
    // A comparison computes in the type its operands meet in: 0.1 is not rounded to float first.
    EXPECT_TRUE(same_bits(kernel_value<bool>(f > 0.1), xtensor_value<bool>(f > 0.1)));
    // A number written into a bool output is "not 0".
    EXPECT_TRUE(same_bits(kernel_value<bool>(d - d), xtensor_value<bool>(d - d)));
    EXPECT_TRUE(same_bits(kernel_value<double>(f > 0.f), xtensor_value<double>(f > 0.f)));
    // float arithmetic inside a double tree is refused: computing it in double would round differently.
    auto out = xt::xarray<double>::from_shape(d.shape());
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, (f * f) + d));
    // Functions whose xsimd form is not accurate enough, or does not return for some inputs, stay
    // with xtensor.
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::tgamma(d)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::lgamma(d)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::erfc(d)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::pow(d, d)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::fmax(d, d)));
}

/*********************************************
 * reducers inside an elementwise expression *
 *********************************************/

TYPED_TEST(kernel_ops, reducers_inside_a_tree_are_evaluated_first_with_xtensors_values)
{
    using T = TypeParam;
    const auto a = random_array<T>({6, 9}, 16);
    // Sums over the outer axis keep xtensor's association, so the whole tree matches bit for bit.
    const auto centred = a - xt::sum(a, {0}) / T(6);
    EXPECT_TRUE(same_bits(kernel_value<T>(centred), xtensor_value<T>(centred)));
    const auto both = xt::sum(a, {0}) * xt::prod(a + T(1), {0});
    EXPECT_TRUE(same_bits(kernel_value<T>(both), xtensor_value<T>(both)));
    const auto mean = xt::mean(a, {0});
    EXPECT_TRUE(same_bits(kernel_value<double>(mean), xtensor_value<double>(mean)));
}

TYPED_TEST(kernel_ops, nan_results_sit_where_the_operations_give_nan_whatever_their_sign)
{
    // -(a / b) + 1: the sign of a NaN result is not specified. GCC at -O2 rewrites xtensor's loop as
    // 1 - a / b, Clang the kernels' lanes the same way, and an unrewritten loop negates first
    // (docs/kernels.md); the positions of NaN and every other value are the same everywhere.
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const xt::xarray<T> a = {nan, -nan, T(0), T(1), T(2)};
    const xt::xarray<T> b = {T(1), T(1), T(0), T(0), T(4)};
    const xt::xarray<T> result = kernel_value<T>(-(a / b) + T(1));
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        volatile T quotient = a(i) / b(i);
        volatile T negated = -quotient;
        const T expected = negated + T(1);
        EXPECT_EQ(std::isnan(result(i)), std::isnan(expected)) << i;
        if (!std::isnan(expected))
        {
            EXPECT_EQ(result(i), expected) << i;
        }
    }
}
