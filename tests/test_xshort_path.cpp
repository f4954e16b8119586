/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The short path (detail/kernels/xshort_path.hpp): the short loop, which evaluates small elementwise
// trees with no plan, on every layout it takes, against reference loops and the kernels' own values;
// which other evaluations go straight to xtensor's assignment, that they give its values, and that an
// output an operand reads is left to the kernels.

#include <array>
#include <cmath>
#include <cstddef>

#include <gtest/gtest.h>

// xtensor's headers come through the library's, which include them where each version has them.
#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    /// An (m, n) array of distinct values.
    xt::xtensor<double, 2> grid(std::size_t m, std::size_t n)
    {
        auto a = xt::xtensor<double, 2>::from_shape({m, n});
        for (std::size_t e = 0; e < a.size(); ++e)
        {
            a.flat(e) = 0.5 + static_cast<double>(e % 7) - 0.25 * static_cast<double>(e);
        }
        return a;
    }

    /// An array of `shape` whose every element is `value`: an output to see untouched.
    xt::xtensor<double, 2> filled(std::size_t m, std::size_t n, double value)
    {
        xt::xtensor<double, 2> out = xt::xtensor<double, 2>::from_shape({m, n});
        out.fill(value);
        return out;
    }

    /// `rows` rows of 1e16, seven 1s and -1e16: summed one element after the other each 1 is lost
    /// against 1e16 until -1e16 cancels it (0); folded in lanes, some 1s are added apart (not 0).
    xt::xtensor<double, 2> cancelling_rows(std::size_t rows)
    {
        xt::xtensor<double, 2> a = xt::zeros<double>({rows, std::size_t(9)});
        for (std::size_t i = 0; i < rows; ++i)
        {
            a(i, 0) = 1e16;
            for (std::size_t j = 1; j < 8; ++j)
            {
                a(i, j) = 1.;
            }
            a(i, 8) = -1e16;
        }
        return a;
    }

    /// `e` evaluated by the kernels' plan, the short loop left out: the values of a larger evaluation.
    template <class E>
    xt::xarray<double> by_plan(const E& e)
    {
        auto out = xt::xarray<double>::from_shape(e.shape());
        EXPECT_TRUE(xn::detail::try_kernel_assign(out, e));
        return out;
    }

    /// Whether `e` takes the short path into `out`, evaluated there where it does.
    template <class O, class E>
    bool short_path(O& out, const E& e, bool fresh = true)
    {
        if (!xn::detail::takes_short_path(out, e, fresh))
        {
            return false;
        }
        xn::detail::evaluate_in_place(out, e, fresh);
        return true;
    }
} // namespace

TEST(short_loop, computes_broadcast_rows_and_columns_as_a_reference_loop)
{
    const auto a = grid(4, 3);
    const xt::xtensor<double, 1> r = {0.25, -1.5, 2.};
    const xt::xtensor<double, 1> k = {1., 2., -3., 0.5};
    auto out = filled(4, 3, 9.);
    EXPECT_TRUE(xn::detail::try_short_loop(out, (a - r) * xt::view(k, xt::all(), xt::newaxis()) + 2.));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(out(i, j), (a(i, j) - r(j)) * k(i) + 2.) << i << ", " << j;
        }
    }
}

TEST(short_loop, gathers_transposed_reversed_and_integer_leaves)
{
    const auto a = grid(4, 3);
    const auto b = grid(3, 4);
    const xt::xtensor<int, 2> n = {{1, -2, 3}, {4, 5, -6}, {7, 8, 9}, {-1, 0, 2}};
    auto out = filled(4, 3, 9.);
    EXPECT_TRUE(xn::detail::try_short_loop(
        out, a * xt::transpose(b) - xt::view(a, xt::range(3, xt::placeholders::_, -1), xt::all()) + n));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(out(i, j), a(i, j) * b(j, i) - a(3 - i, j) + n(i, j)) << i << ", " << j;
        }
    }
}

TEST(short_loop, writes_a_column_major_output_and_skips_unit_axes)
{
    const auto a = grid(4, 3);
    xt::xtensor<double, 2, xt::layout_type::column_major> column_major =
        xt::xtensor<double, 2, xt::layout_type::column_major>::from_shape({4, 3});
    EXPECT_TRUE(xn::detail::try_short_loop(column_major, a * 2. - 1.));
    // Rank 4 with two axes of size 1, rank 0, and no element.
    const std::array<std::size_t, 4> unit_shape = {1, 4, 1, 3};
    const auto u = xt::adapt(a.data(), a.size(), xt::no_ownership(), unit_shape);
    xt::xtensor<double, 4> unit = xt::zeros<double>({1, 4, 1, 3});
    EXPECT_TRUE(xn::detail::try_short_loop(unit, u + 1.));
    xt::xtensor<double, 0> single = xt::zeros<double>(std::array<std::size_t, 0>{});
    xt::xtensor<double, 0> three = xt::zeros<double>(std::array<std::size_t, 0>{});
    three() = 3.;
    EXPECT_TRUE(xn::detail::try_short_loop(single, three * 2.));
    xt::xtensor<double, 2> none = xt::zeros<double>({0, 3});
    const xt::xtensor<double, 2> empty = xt::zeros<double>({0, 3});
    EXPECT_TRUE(xn::detail::try_short_loop(none, empty + 1.));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(column_major(i, j), a(i, j) * 2. - 1.);
            EXPECT_EQ(unit(0, i, 0, j), a(i, j) + 1.);
        }
    }
    EXPECT_EQ(single(), 6.);
}

TEST(short_loop, gives_the_values_of_the_kernels_plan_for_math_functions)
{
    // The kernels' values wherever the element sits: a special input (a huge exponent, a NaN) in a small
    // evaluation is computed as in a large one.
    xt::xtensor<double, 2> a = grid(4, 3);
    a(0, 0) = 1000.;
    a(1, 1) = std::nan("");
    a(2, 2) = -1000.;
    const auto e = xt::exp(a) + xt::where(xt::not_equal(a, 0.5), xt::sqrt(xt::abs(a)), a);
    auto out = filled(4, 3, 9.);
    EXPECT_TRUE(xn::detail::try_short_loop(out, e));
    const auto expected = by_plan(e);
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            if (std::isnan(expected(i, j)))
            {
                EXPECT_TRUE(std::isnan(out(i, j))) << i << ", " << j;
            }
            else
            {
                EXPECT_EQ(out(i, j), expected(i, j)) << i << ", " << j;
            }
        }
    }
    EXPECT_TRUE(std::isinf(out(0, 0)));
}

TEST(short_loop, reads_an_output_in_place_element_by_element_or_gathered_first)
{
    auto a = grid(4, 3);
    const auto original = a;
    const xt::xtensor<double, 1> r = {0.25, -1.5, 2.};
    EXPECT_TRUE(xn::detail::try_short_loop(a, a * 2. + r));
    EXPECT_EQ(a, original * 2. + r);
    // A transposed operand is gathered before anything is written.
    auto square = grid(3, 3);
    const auto before = square;
    EXPECT_TRUE(xn::detail::try_short_loop(square, xt::transpose(square) + 0.));
    EXPECT_EQ(square, xt::transpose(before));
}

TEST(short_loop, leaves_what_it_does_not_fit_to_the_plan_untouched)
{
    // An operand that reads the output one row ahead of where it is written (a temporary is needed).
    auto a = grid(3, 3);
    const auto original = a;
    auto top = xt::view(a, xt::range(0, 2), xt::all());
    const auto below = xt::view(a, xt::range(1, 3), xt::all()) + 0.;
    EXPECT_FALSE(xn::detail::try_short_loop(top, below));
    EXPECT_EQ(a, original);
    // Four axes longer than 1 that do not merge.
    xt::xtensor<double, 4> four = xt::zeros<double>({2, 2, 2, 2});
    const auto values = grid(2, 8);
    const std::array<std::size_t, 4> four_shape = {2, 2, 2, 2};
    const auto source = xt::adapt(values.data(), values.size(), xt::no_ownership(), four_shape);
    EXPECT_FALSE(xn::detail::try_short_loop(four, source + xt::transpose(source)));
    EXPECT_EQ(four, (xt::xtensor<double, 4>(xt::zeros<double>({2, 2, 2, 2}))));
    // More than four leaves to gather.
    const auto b = grid(3, 4);
    const auto t = xt::transpose(b);
    auto out = filled(4, 3, 9.);
    EXPECT_FALSE(xn::detail::try_short_loop(out, t + t * t - t / (t + 1.)));
    EXPECT_EQ(out, filled(4, 3, 9.));
    // Evaluated, each gives the reference values through the plan.
    EXPECT_TRUE(xn::detail::try_kernel_assign(top, below));
    EXPECT_EQ(xt::view(a, xt::range(0, 2), xt::all()), xt::view(original, xt::range(1, 3), xt::all()));
    EXPECT_EQ(xt::view(a, 2, xt::all()), xt::view(original, 2, xt::all()));
    xn::assign(four, source + xt::transpose(source));
    for (std::size_t i = 0; i < 2; ++i)
    {
        for (std::size_t j = 0; j < 2; ++j)
        {
            for (std::size_t k = 0; k < 2; ++k)
            {
                for (std::size_t l = 0; l < 2; ++l)
                {
                    EXPECT_EQ(four(i, j, k, l), source(i, j, k, l) + source(l, k, j, i));
                }
            }
        }
    }
    xn::assign(out, t + t * t - t / (t + 1.));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(out(i, j), b(j, i) + b(j, i) * b(j, i) - b(j, i) / (b(j, i) + 1.));
        }
    }
}

TEST(short_path, takes_a_small_tree_of_arithmetic_and_gives_xtensors_values)
{
    const auto a = grid(4, 3);
    const xt::xtensor<double, 1> r = {0.25, -1.5, 2.};
    const xt::xtensor<double, 1> k = {1., 2., -3., 0.5};
    const auto e = (a - r) * xt::view(k, xt::all(), xt::newaxis());
    auto out = filled(4, 3, 9.);
    EXPECT_TRUE(short_path(out, e));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(out(i, j), (a(i, j) - r(j)) * k(i)) << i << ", " << j;
        }
    }
    // Comparisons, logical operations and where too.
    auto picked = filled(4, 3, 9.);
    EXPECT_TRUE(short_path(picked, xt::where(a < r && !(a > 1.), a, r + 0.5)));
    for (std::size_t i = 0; i < 4; ++i)
    {
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_EQ(picked(i, j), a(i, j) < r(j) && !(a(i, j) > 1.) ? a(i, j) : r(j) + 0.5);
        }
    }
}

TEST(short_path, leaves_more_than_32_elements_written_to_the_kernels)
{
    const auto small = grid(4, 8);
    auto out = filled(4, 8, 9.);
    EXPECT_TRUE(short_path(out, small + 1.));
    EXPECT_EQ(out(3, 7), small(3, 7) + 1.);
    const auto large = grid(3, 11);
    auto untouched = filled(3, 11, 9.);
    EXPECT_FALSE(short_path(untouched, large + 1.));
    EXPECT_EQ(untouched, filled(3, 11, 9.));
}

TEST(short_path, leaves_math_functions_and_not_equal_to_the_kernels)
{
    // Where xtensor's SIMD loop would take xsimd's value of a special input, and xsimd's ordered !=
    // would be false on NaN, the kernels' values differ from xtensor's own.
    const auto a = grid(2, 3);
    auto out = filled(2, 3, 9.);
    EXPECT_FALSE(short_path(out, xt::exp(a)));
    EXPECT_FALSE(short_path(out, xt::where(xt::not_equal(a, 0.5), a, 0.)));
    EXPECT_FALSE(short_path(out, xt::sqrt(a * a) + 1.));
    EXPECT_EQ(out, filled(2, 3, 9.));
}

TEST(short_path, takes_a_reduction_that_reads_at_most_256_elements)
{
    const auto a = grid(16, 16);
    xt::xtensor<double, 1> out = xt::zeros<double>({16});
    EXPECT_TRUE(short_path(out, xt::sum(a, {1})));
    xt::xtensor<double, 1> expected = xt::zeros<double>({16});
    for (std::size_t i = 0; i < 16; ++i)
    {
        // xtensor's order, one element after the other.
        for (std::size_t j = 0; j < 16; ++j)
        {
            expected(i) += a(i, j);
        }
    }
    EXPECT_EQ(out, expected);
    const auto larger = grid(16, 17);
    xt::xtensor<double, 1> untouched = xt::zeros<double>({17});
    EXPECT_FALSE(short_path(untouched, xt::sum(larger, {0})));
    EXPECT_EQ(untouched, (xt::xtensor<double, 1>(xt::zeros<double>({17}))));
    // A reduction over nothing is left to the kernels (xtensor's reducer would read a null pointer).
    const xt::xtensor<double, 2> empty = xt::zeros<double>({0, 3});
    xt::xtensor<double, 1> over_nothing = xt::ones<double>({3});
    EXPECT_FALSE(short_path(over_nothing, xt::sum(empty, {0})));
}

TEST(short_path, sums_the_innermost_axis_in_xtensors_order)
{
    const auto a = cancelling_rows(2);
    xt::xtensor<double, 1> expected = xt::zeros<double>({2});
    xt::noalias(expected) = xt::sum(a, {1});
    const auto na = xn::name(a, {"i", "j"});
    const auto s = xn::eval(xn::sum(na, "j"));
    EXPECT_EQ(s.dims(), xn::dims({"i"}));
    EXPECT_EQ(s.expression(), expected);
}

TEST(short_path, takes_a_reduction_read_as_often_as_it_has_elements)
{
    const auto a = grid(4, 3);
    xt::xtensor<double, 1> out = xt::zeros<double>({4});
    EXPECT_TRUE(short_path(out, xt::sum(a, {1}) * 2.));
    for (std::size_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(out(i), (a(i, 0) + a(i, 1) + a(i, 2)) * 2.);
    }
    // Broadcast, xtensor would compute each of its elements again for each element that reads it.
    auto untouched = filled(4, 3, 9.);
    const std::array<std::size_t, 2> shape = {4, 3};
    EXPECT_FALSE(short_path(untouched, a - xt::broadcast(xt::sum(a, {0}), shape)));
    EXPECT_EQ(untouched, filled(4, 3, 9.));
}

TEST(short_path, leaves_an_output_that_an_operand_reads_to_the_kernels)
{
    auto a = grid(3, 3);
    const auto original = a;
    EXPECT_FALSE(short_path(a, xt::transpose(a) + 0., false));
    EXPECT_EQ(a, original);
    auto fresh = filled(3, 3, 9.);
    EXPECT_TRUE(short_path(fresh, xt::transpose(a) + 0., false));
    // Through xn::assign: the kernels read the transpose through a temporary.
    xn::assign(a, xt::transpose(a) + 0.);
    EXPECT_EQ(a, xt::transpose(original));
    xn::assign(a, a * 2.);
    EXPECT_EQ(a, xt::transpose(original) * 2.);
}

TEST(short_path, leaves_a_deferred_temporary_to_the_kernels_until_it_is_computed)
{
    // The kernels compute it whole, or by rows that they do not keep (a join, evaluated afresh each time).
    const auto a = grid(4, 3);
    const auto na = xn::name(a, {"i", "j"});
    const auto centred = na - xn::mean(na, "j");
    auto out = filled(4, 3, 9.);
    EXPECT_FALSE(short_path(out, centred.expression()));
    EXPECT_FALSE(xn::detail::try_short_loop(out, centred.expression()));
    EXPECT_EQ(out, filled(4, 3, 9.));
    const auto evaluated = xn::eval(centred);
    EXPECT_EQ(evaluated.dims(), xn::dims({"i", "j"}));
    for (std::size_t i = 0; i < 4; ++i)
    {
        const double mean = (a(i, 0) + a(i, 1) + a(i, 2)) / 3.;
        for (std::size_t j = 0; j < 3; ++j)
        {
            EXPECT_DOUBLE_EQ(evaluated.expression()(i, j), a(i, j) - mean) << i << ", " << j;
        }
    }
    // Kept once computed: then read as any operand.
    EXPECT_TRUE(short_path(out, centred.expression()));
    EXPECT_EQ(out, evaluated.expression());
    auto looped = filled(4, 3, 9.);
    EXPECT_TRUE(xn::detail::try_short_loop(looped, centred.expression()));
    EXPECT_EQ(looped, evaluated.expression());
}

TEST(short_path, evaluates_a_reduction_alike_alone_and_inside_an_operation)
{
    // Summed one element after the other wherever it is evaluated whole: alone, as a temporary of the
    // kernels inside a larger operation, and as a deferred temporary.
    const auto a = cancelling_rows(4);
    xt::xtensor<double, 2> kept = xt::zeros<double>({4, 1});
    xt::noalias(kept) = xt::sum(a, {1}, xt::keep_dims);
    EXPECT_EQ(kept(0, 0), 0.);
    xt::xtensor<double, 2> inside = xt::zeros<double>({4, 9});
    xn::assign(inside, a - xt::sum(a, {1}, xt::keep_dims));
    EXPECT_EQ(inside, a - kept);
    const auto na = xn::name(a, {"i", "j"});
    const auto deferred = xn::eval(na - xn::sum(na, "j"));
    EXPECT_EQ(deferred.expression(), a - kept);
}
