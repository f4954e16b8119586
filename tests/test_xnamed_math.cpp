/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>
#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_math.hpp>

#include "support/coords_fixture.hpp"
#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    constexpr double pi = 3.14159265358979323846;

    // Values inside every function's domain: (0.05, 0.95).
    xt::xarray<double> fractions(std::size_t rows, std::size_t cols)
    {
        xt::xarray<double> a = xt::zeros<double>({rows, cols});
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.data()[i] = 0.05 + 0.9 * static_cast<double>(i) / static_cast<double>(a.size());
        }
        return a;
    }

    /// Checks xn::NAME(named) elementwise against the std function, through a plain loop.
    template <class Named, class F>
    void expect_unary(const Named& result, const xt::xarray<double>& input, F reference)
    {
        auto evaluated = xn::eval(result);
        EXPECT_EQ(evaluated.dims(), xn::dims({"h", "w"}));
        ASSERT_EQ(evaluated.expression().size(), input.size());
        for (std::size_t i = 0; i < input.size(); ++i)
        {
            const auto expected = static_cast<double>(reference(input.data()[i]));
            // xsimd's approximations (erf, exp, ...) may differ from the C library by a few units in the
            // last place; a wrong function differs by far more.
            EXPECT_NEAR(static_cast<double>(evaluated.expression().data()[i]), expected,
                        1e-13 * std::max(1., std::abs(expected)))
                << "at element " << i;
        }
    }
} // namespace

#define XN_EXPECT_UNARY(NAME, REFERENCE)                                                                     \
    expect_unary(xn::NAME(xn::name(input, {"h", "w"})), input, [](double x) { return REFERENCE; })

TEST(xnamed_math, unary_functions_match_the_standard_library_elementwise)
{
    const xt::xarray<double> input = fractions(3, 4);
    XN_EXPECT_UNARY(abs, std::abs(x));
    XN_EXPECT_UNARY(fabs, std::fabs(x));
    XN_EXPECT_UNARY(exp, std::exp(x));
    XN_EXPECT_UNARY(exp2, std::exp2(x));
    XN_EXPECT_UNARY(expm1, std::expm1(x));
    XN_EXPECT_UNARY(log, std::log(x));
    XN_EXPECT_UNARY(log10, std::log10(x));
    XN_EXPECT_UNARY(log2, std::log2(x));
    XN_EXPECT_UNARY(log1p, std::log1p(x));
    XN_EXPECT_UNARY(sqrt, std::sqrt(x));
    XN_EXPECT_UNARY(cbrt, std::cbrt(x));
    XN_EXPECT_UNARY(square, x * x);
    XN_EXPECT_UNARY(cube, x * x * x);
    XN_EXPECT_UNARY(sin, std::sin(x));
    XN_EXPECT_UNARY(cos, std::cos(x));
    XN_EXPECT_UNARY(tan, std::tan(x));
    XN_EXPECT_UNARY(asin, std::asin(x));
    XN_EXPECT_UNARY(acos, std::acos(x));
    XN_EXPECT_UNARY(atan, std::atan(x));
    XN_EXPECT_UNARY(sinh, std::sinh(x));
    XN_EXPECT_UNARY(cosh, std::cosh(x));
    XN_EXPECT_UNARY(tanh, std::tanh(x));
    XN_EXPECT_UNARY(asinh, std::asinh(x));
    XN_EXPECT_UNARY(atanh, std::atanh(x));
    XN_EXPECT_UNARY(erf, std::erf(x));
    XN_EXPECT_UNARY(erfc, std::erfc(x));
    XN_EXPECT_UNARY(tgamma, std::tgamma(x));
    XN_EXPECT_UNARY(lgamma, std::lgamma(x));
    XN_EXPECT_UNARY(deg2rad, x * pi / 180.);
    XN_EXPECT_UNARY(radians, x * pi / 180.);
    XN_EXPECT_UNARY(rad2deg, x * 180. / pi);
    XN_EXPECT_UNARY(degrees, x * 180. / pi);
    XN_EXPECT_UNARY(sign, x > 0 ? 1. : (x < 0 ? -1. : 0.));
    XN_EXPECT_UNARY(nan_to_num, x);
    const xt::xarray<double> above_one = input + 1.;
    expect_unary(xn::acosh(xn::name(above_one, {"h", "w"})), above_one,
                 [](double x) { return std::acosh(x); });
}

TEST(xnamed_math, rounding_and_classification_match_the_standard_library)
{
    xt::xarray<double> input = fractions(2, 5) * 10. - 4.;
    XN_EXPECT_UNARY(ceil, std::ceil(x));
    XN_EXPECT_UNARY(floor, std::floor(x));
    XN_EXPECT_UNARY(trunc, std::trunc(x));
    XN_EXPECT_UNARY(round, std::round(x));
    XN_EXPECT_UNARY(nearbyint, std::nearbyint(x));
    XN_EXPECT_UNARY(rint, std::rint(x));
    input(0, 0) = std::nan("");
    input(1, 1) = INFINITY;
    XN_EXPECT_UNARY(isnan, std::isnan(x) ? 1. : 0.);
    XN_EXPECT_UNARY(isinf, std::isinf(x) ? 1. : 0.);
    XN_EXPECT_UNARY(isfinite, std::isfinite(x) ? 1. : 0.);
}

TEST(xnamed_math, binary_functions_broadcast_by_name)
{
    const xt::xarray<double> a = fractions(2, 3) + 1.;
    const xt::xarray<double> b = {0.5, 2.5};
    auto na = xn::name(a, {"h", "w"});
    auto nb = xn::name(b, {"h"});
    auto check = [&](const auto& named, auto reference)
    {
        auto result = xn::eval(named);
        EXPECT_EQ(result.dims(), xn::dims({"h", "w"}));
        for (std::size_t h = 0; h < 2; ++h)
        {
            for (std::size_t w = 0; w < 3; ++w)
            {
                const auto expected = static_cast<double>(reference(a(h, w), b(h)));
                EXPECT_NEAR(static_cast<double>(result.expression()(h, w)), expected,
                            1e-13 * std::max(1., std::abs(expected)));
            }
        }
    };
    check(xn::pow(na, nb), [](double x, double y) { return std::pow(x, y); });
    check(xn::hypot(na, nb), [](double x, double y) { return std::hypot(x, y); });
    check(xn::atan2(na, nb), [](double x, double y) { return std::atan2(x, y); });
    check(xn::fmod(na, nb), [](double x, double y) { return std::fmod(x, y); });
    check(xn::remainder(na, nb), [](double x, double y) { return std::remainder(x, y); });
    check(xn::fmax(na, nb), [](double x, double y) { return std::fmax(x, y); });
    check(xn::fmin(na, nb), [](double x, double y) { return std::fmin(x, y); });
    check(xn::fdim(na, nb), [](double x, double y) { return std::fdim(x, y); });
    check(xn::maximum(na, nb), [](double x, double y) { return x > y ? x : y; });
    check(xn::minimum(na, nb), [](double x, double y) { return x < y ? x : y; });
    check(xn::equal(na, nb), [](double x, double y) { return x == y; });
    check(xn::not_equal(na, nb), [](double x, double y) { return x != y; });
    check(xn::less(na, nb), [](double x, double y) { return x < y; });
    check(xn::less_equal(na, nb), [](double x, double y) { return x <= y; });
    check(xn::greater(na, nb), [](double x, double y) { return x > y; });
    check(xn::greater_equal(na, nb), [](double x, double y) { return x >= y; });
    check(xn::isclose(na, nb, 0.5),
          [](double x, double y) { return std::abs(x - y) <= 1e-08 + 0.5 * std::abs(y); });
}

TEST(xnamed_math, binary_functions_take_plain_expressions_and_numbers)
{
    const xt::xarray<double> a = {{1., 2.}, {3., 4.}};
    const xt::xarray<double> plain = {2., 3.};
    auto na = xn::name<xn::numpy>(a, {"h", "w"});
    auto with_plain = xn::eval(xn::pow(plain, na));
    auto with_number = xn::eval(xn::pow(na, 2.));
    EXPECT_EQ(with_plain.dims(), xn::dims({"h", "w"}));
    EXPECT_TRUE(xt::allclose(with_plain.expression(), xt::xarray<double>{{2., 9.}, {8., 81.}}, 1e-14));
    EXPECT_TRUE(xt::allclose(with_number.expression(), xt::xarray<double>{{1., 4.}, {9., 16.}}, 1e-14));
    EXPECT_EQ(xn::eval(xn::pow<3>(na)).expression(), (xt::xarray<double>{{1., 8.}, {27., 64.}}));
}

TEST(xnamed_math, ternary_functions_line_up_three_operands)
{
    const xt::xarray<double> a = {{-1., 2., 5.}, {7., -3., 0.5}};
    const xt::xarray<double> low = {0., 1.};
    const xt::xarray<double> weights = {10., 20., 30.};
    auto na = xn::name(a, {"h", "w"});
    auto nlow = xn::name(low, {"h"});
    auto nweights = xn::name(weights, {"w"});
    auto selected = xn::eval(xn::where(na > nlow, na, nweights));
    auto clipped = xn::eval(xn::clip(na, 0., 4.));
    auto fused = xn::eval(xn::fma(nlow, nweights, na));
    EXPECT_EQ(selected.dims(), xn::dims({"h", "w"}));
    EXPECT_EQ(fused.dims(), xn::dims({"h", "w"}));
    for (std::size_t h = 0; h < 2; ++h)
    {
        for (std::size_t w = 0; w < 3; ++w)
        {
            EXPECT_EQ(selected.expression()(h, w), a(h, w) > low(h) ? a(h, w) : weights(w));
            EXPECT_EQ(clipped.expression()(h, w), std::min(std::max(a(h, w), 0.), 4.));
            EXPECT_DOUBLE_EQ(fused.expression()(h, w), std::fma(low(h), weights(w), a(h, w)));
        }
    }
}

TEST(xnamed_math, ternary_result_orders_axes_as_the_strategy_left_to_right)
{
    const xt::xarray<double> x = {1., 2.};
    const xt::xarray<double> y = {10., 20., 30.};
    const xt::xarray<double> z = {100., 200., 300., 400.};
    auto result = xn::eval(xn::fma(xn::name(x, {"x"}), xn::name(y, {"y"}), xn::name(z, {"z"})));
    EXPECT_EQ(result.dims(), xn::dims({"x", "y", "z"}));
    EXPECT_EQ(result.expression()(1, 2, 3), 2. * 30. + 400.);
}

TEST(xnamed_math, integer_functions_shift_and_cast)
{
    const xt::xarray<int> a = {1, 2, 3};
    const xt::xarray<int> s = {1, 2};
    auto shifted = xn::eval(xn::left_shift(xn::name(a, {"x"}), xn::name(s, {"s"})));
    EXPECT_EQ(shifted.dims(), xn::dims({"x", "s"}));
    EXPECT_EQ(shifted.expression(), (xt::xarray<int>{{2, 4}, {4, 8}, {6, 12}}));
    auto back = xn::eval(xn::right_shift(xn::name(a, {"x"}), 1));
    EXPECT_EQ(back.expression(), (xt::xarray<int>{0, 1, 1}));
    auto halves = xn::eval(xn::cast<double>(xn::name(a, {"x"})) / 2.);
    EXPECT_EQ(halves.expression(), (xt::xarray<double>{0.5, 1., 1.5}));
}

TEST(xnamed_math, functions_refuse_what_the_strategy_refuses_and_leave_operands_intact)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {1., 2., 3.};
    XN_EXPECT_THROW_HAS(xn::pow(xn::name(a, {"x"}), xn::name(b, {"x"})), xn::broadcast_error,
                        {"xn::missing_dims", "'x' (axis 0)", "(2)", "(3)"});
    XN_EXPECT_THROW_HAS(xn::where(xn::name(a, {"x"}) > 0., xn::name(a, {"x"}), xn::name(b, {"x"})),
                        xn::broadcast_error, {"xn::missing_dims", "(3)"});
    EXPECT_EQ(a, (xt::xarray<double>{1., 2.}));
    EXPECT_EQ(b, (xt::xarray<double>{1., 2., 3.}));
}

TEST(xnamed_math, functions_of_plain_expressions_are_xtensors_own)
{
    const xt::xarray<double> a = {1., 4.};
    auto root = xn::sqrt(a);
    static_assert(!xn::is_named_expression_v<decltype(root)>);
    static_assert(xt::is_xexpression<decltype(root)>::value);
    EXPECT_EQ(xt::xarray<double>(root), (xt::xarray<double>{1., 2.}));
}

TEST(xnamed_math, results_are_lazy)
{
    xt::xarray<double> a = {1., 4.};
    auto root = xn::sqrt(xn::name(a, {"x"}));
    a(1) = 9.;
    EXPECT_EQ(root.expression()(1), 3.);
}

// fillna and combine_first
// ========================

namespace
{
    const double not_a_number = std::numeric_limits<double>::quiet_NaN();

    /// NaN equal to NaN, exactly otherwise.
    ::testing::AssertionResult same_or_both_nan(const xt::xarray<double>& actual,
                                                const xt::xarray<double>& expected)
    {
        if (actual.shape() != expected.shape())
        {
            return ::testing::AssertionFailure() << "shapes differ";
        }
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            const double x = actual.data()[i];
            const double y = expected.data()[i];
            if (!(x == y || (std::isnan(x) && std::isnan(y))))
            {
                return ::testing::AssertionFailure() << "element " << i << ": " << x << " against " << y;
            }
        }
        return ::testing::AssertionSuccess();
    }
} // namespace

TEST(fillna, a_number_replaces_nan_and_takes_the_element_type_of_the_array)
{
    const xt::xarray<float> values = {{1.f, std::nanf("")}, {-0.f, std::nanf("")}};
    auto a = xn::name(values, {"x", "t"}, {{"t", {10, 20}}});
    auto filled = xn::eval(xn::fillna(a, 0.5));
    static_assert(std::is_same<decltype(filled)::value_type, float>::value);
    EXPECT_EQ(filled.dims(), xn::dims({"x", "t"}));
    EXPECT_EQ(filled.coords(), (xn::coords{{"t", {10, 20}}}));
    EXPECT_EQ(filled.expression(), (xt::xarray<float>{{1.f, 0.5f}, {-0.f, 0.5f}}));
    const xt::xarray<int> counts = {1, 2};
    EXPECT_EQ(xn::eval(xn::fillna(xn::name(counts, {"t"}), 7)).expression(), counts);
}

TEST(fillna, is_lazy_and_reads_the_array_when_evaluated)
{
    xt::xarray<double> values = {1., 2.};
    auto filled = xn::fillna(xn::name(values, {"t"}), -1.);
    values(0) = not_a_number;
    EXPECT_EQ(xn::eval(filled).expression(), (xt::xarray<double>{-1., 2.}));
}

TEST(fillna, an_array_value_fills_from_its_labels_and_keeps_those_of_the_first_operand)
{
    const xt::xarray<double> a_values = {not_a_number, 1., not_a_number, not_a_number};
    const xt::xarray<double> b_values = {30., 20., 0.};
    auto a = xn::name(a_values, {"t"}, {{"t", {0, 10, 20, 30}}});
    auto b = xn::name(b_values, {"t"}, {{"t", {30, 20, 5}}});
    auto filled = xn::eval(xn::fillna(a, b));
    EXPECT_EQ(filled.coords(), (xn::coords{{"t", {0, 10, 20, 30}}}));
    EXPECT_TRUE(same_or_both_nan(filled.expression(), xt::xarray<double>{not_a_number, 1., 20., 30.}));
}

TEST(combine_first, takes_the_first_operand_where_not_nan_else_the_second_on_the_outer_join)
{
    // t = 0 only in a, 40 and 50 only in b; a is NaN at 10 (b lacks 10) and 30 (b has 30); both are
    // NaN at 20.
    const xt::xarray<double> a_values = {1., not_a_number, not_a_number, not_a_number};
    const xt::xarray<double> b_values = {not_a_number, 30., 40., not_a_number};
    auto a = xn::name(a_values, {"t"}, {{"t", {0, 10, 20, 30}}});
    auto b = xn::name(b_values, {"t"}, {{"t", {20, 30, 40, 50}}});
    auto merged = xn::eval(xn::combine_first(a, b));
    EXPECT_EQ(merged.dims(), xn::dims({"t"}));
    EXPECT_EQ(merged.coords(), (xn::coords{{"t", {0, 10, 20, 30, 40, 50}}}));
    EXPECT_TRUE(same_or_both_nan(merged.expression(),
                                 xt::xarray<double>{1., not_a_number, not_a_number, 30., 40., not_a_number}));
    // The other way round, b's values come first.
    auto reversed = xn::eval(xn::combine_first(b, a));
    EXPECT_TRUE(same_or_both_nan(reversed.expression(),
                                 xt::xarray<double>{1., not_a_number, not_a_number, 30., 40., not_a_number}));
    const xt::xarray<double> c_values = {5., 6., 7., 8.};
    auto c = xn::name(c_values, {"t"}, {{"t", {20, 30, 40, 50}}});
    auto b_then_c = xn::eval(xn::combine_first(b, c));
    EXPECT_EQ(b_then_c.expression(), (xt::xarray<double>{5., 30., 40., 8.}));
}

TEST(combine_first, broadcasts_as_the_strategy_does_and_promotes_the_element_type)
{
    const xt::xarray<float> a_values = {{1.f, std::nanf("")}, {std::nanf(""), 4.f}};
    const xt::xarray<double> b_values = {{10., 20., 30.}};
    auto a = xn::name(a_values, {"x", "t"}, {{"t", {1, 2}}});
    auto b = xn::name(b_values, {"x", "t"}, {{"t", {1, 2, 3}}});
    auto merged = xn::eval(xn::combine_first(a, b.isel({{"x", 0}})));
    static_assert(std::is_same<decltype(merged)::value_type, double>::value);
    EXPECT_EQ(merged.dims(), xn::dims({"x", "t"}));
    EXPECT_EQ(merged.coords(), (xn::coords{{"t", {1, 2, 3}}}));
    EXPECT_EQ(merged.expression(), (xt::xarray<double>{{1., 20., 30.}, {10., 4., 30.}}));
}

TEST(combine_first, is_evaluated_by_the_kernels_with_a_loops_values)
{
    xt::xarray<double> a_values = xt::xarray<double>::from_shape({3, 37});
    xt::xarray<double> b_values = xt::xarray<double>::from_shape({3, 37});
    for (std::size_t i = 0; i < a_values.size(); ++i)
    {
        a_values.data()[i] = i % 3 == 0 ? not_a_number : static_cast<double>(i);
        b_values.data()[i] = i % 5 == 0 ? not_a_number : -static_cast<double>(i);
    }
    auto a = xn::name(a_values, {"x", "t"});
    auto b = xn::name(b_values, {"x", "t"});
    const auto e = xn::combine_first(a, b);
    auto by_kernels = xt::xarray<double>::from_shape(e.shape());
    ASSERT_TRUE(xn::detail::try_kernel_assign(by_kernels, e.expression()));
    xt::xarray<double> expected = a_values;
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        expected.data()[i] = std::isnan(a_values.data()[i]) ? b_values.data()[i] : a_values.data()[i];
    }
    EXPECT_TRUE(same_or_both_nan(by_kernels, expected));
    auto filled = xt::xarray<double>::from_shape(a.shape());
    ASSERT_TRUE(xn::detail::try_kernel_assign(filled, xn::fillna(a, 0.25).expression()));
    EXPECT_TRUE(same_or_both_nan(filled, xt::where(xt::isnan(a_values), 0.25, a_values)));
}

TEST(combine_first, refuses_labels_of_two_types_naming_the_operation)
{
    const xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"t"}, {{"t", {1, 2}}});
    auto b = xn::name(values, {"t"}, {{"t", {"a", "b"}}});
    XN_EXPECT_THROW_HAS(xn::combine_first(a, b), xn::shape_error, {"xn::combine_first", "'t'"});
}

// Against xarray: DataArray.fillna (a number; a DataArray, join='left') and DataArray.combine_first.
TEST(combine_first, matches_xarray_fillna_and_combine_first)
{
    const auto cases = fixtures::read("coords_fill.txt");
    ASSERT_GE(cases.size(), 1500u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("coords_fill.txt case at line " + std::to_string(c.line));
        const xn::dims a_dims(c.strings("a_dims"));
        const xn::dims b_dims(c.strings("b_dims"));
        const auto a_shape = xn_test::fixture_shape(c, "a_shape");
        const auto a_values = xn_test::fixture_array<double>(c, "a_values", a_shape);
        const auto b_values =
            xn_test::fixture_array<double>(c, "b_values", xn_test::fixture_shape(c, "b_shape"));
        const auto a = xn::name(a_values, a_dims, xn_test::fixture_coords(c, "a_", a_dims));
        const auto b = xn::name(b_values, b_dims, xn_test::fixture_coords(c, "b_", b_dims));
        const auto by_number = xn::eval(xn::fillna(a, c.doubles("value").front()));
        EXPECT_EQ(by_number.dims(), a_dims);
        EXPECT_EQ(by_number.coords(), a.coords());
        EXPECT_TRUE(same_or_both_nan(by_number.expression(),
                                     xn_test::fixture_array<double>(c, "fillna_values", a_shape)));
        const auto by_array = xn::eval(xn::fillna(a, b));
        EXPECT_EQ(by_array.dims(), a_dims);
        EXPECT_EQ(by_array.coords(), a.coords());
        EXPECT_TRUE(same_or_both_nan(by_array.expression(),
                                     xn_test::fixture_array<double>(c, "fillna_b_values", a_shape)));
        const auto merged = xn::eval(xn::combine_first(a, b));
        const xn::dims r_dims(c.strings("r_dims"));
        EXPECT_EQ(merged.dims(), r_dims);
        EXPECT_EQ(merged.coords(), xn_test::fixture_coords(c, "r_", r_dims));
        const auto r_shape = xn_test::fixture_shape(c, "r_shape");
        EXPECT_TRUE(
            same_or_both_nan(merged.expression(), xn_test::fixture_array<double>(c, "r_values", r_shape)));
        if (HasFailure())
        {
            break;
        }
    }
}

TEST(xnamed_math, numbers_take_the_tensors_element_type_in_functions)
{
    const xt::xarray<float> values = {-1.5f, 0.25f, 2.f};
    const auto x = xn::name(values, {"t"});
    const auto kept = xn::eval(xn::where(x > 0.5f, x, 0.0));
    static_assert(std::is_same<decltype(kept)::value_type, float>::value,
                  "where(x > 0.5f, x, 0.0) stays float");
    EXPECT_EQ(kept.expression(), (xt::xarray<float>{0.f, 0.f, 2.f}));
    const auto clipped = xn::eval(xn::minimum(xn::maximum(x, 0.0), 1.0));
    static_assert(std::is_same<decltype(clipped)::value_type, float>::value);
    EXPECT_EQ(clipped.expression(), (xt::xarray<float>{0.f, 0.25f, 1.f}));
    const auto squared = xn::eval(xn::pow(x, 2.0));
    static_assert(std::is_same<decltype(squared)::value_type, float>::value);
    EXPECT_EQ(squared.expression(), (xt::xarray<float>{2.25f, 0.0625f, 4.f}));
    const auto rest = xn::eval(xn::fmod(x, 0.75));
    static_assert(std::is_same<decltype(rest)::value_type, float>::value);
    EXPECT_EQ(rest.expression(),
              (xt::xarray<float>{std::fmod(-1.5f, 0.75f), std::fmod(0.25f, 0.75f), std::fmod(2.f, 0.75f)}));
    const auto angles = xn::eval(xn::atan2(x, 1.0));
    static_assert(std::is_same<decltype(angles)::value_type, float>::value);
    EXPECT_EQ(angles.expression(),
              (xt::xarray<float>{std::atan2(-1.5f, 1.f), std::atan2(0.25f, 1.f), std::atan2(2.f, 1.f)}));
    // A mask chooses between two numbers: bool with floating numbers gives double, as numpy.
    const auto chosen = xn::eval(xn::where(x > 0.f, 1.0f, -1.0f));
    static_assert(std::is_same<decltype(chosen)::value_type, double>::value);
    EXPECT_EQ(chosen.expression(), (xt::xarray<double>{-1., 1., 1.}));
    // An integer tensor with a floating number becomes double.
    const xt::xarray<int> ints = {-2, 3};
    const auto floored = xn::eval(xn::where(xn::name(ints, {"t"}) > 0, xn::name(ints, {"t"}), 0.5));
    static_assert(std::is_same<decltype(floored)::value_type, double>::value);
    EXPECT_EQ(floored.expression(), (xt::xarray<double>{0.5, 3.}));
}
