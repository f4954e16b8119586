/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The kernels' reductions: sums and products over outer axes bit for bit what xtensor's reducer gives
// (its association kept), along the innermost axis and beyond a part's terms (folds cut into parts)
// within the bound of recursive summation, keeping a short innermost axis in the documented chains; the
// library's max, min, nanmax and nanmin folds exactly numpy's values, NaN wherever it is.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>
#include <xtensor-named/xadjoint.hpp>
#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_reducers.hpp>

#include "support/kernel_oracle.hpp"

namespace xn = xt::named;
using namespace kernel_oracle;

namespace
{
    template <class T>
    class kernels : public ::testing::Test
    {
    };

    using element_types = ::testing::Types<float, double>;
    TYPED_TEST_SUITE(kernels, element_types, );
} // namespace

/*********************************
 * sums                           *
 *********************************/

namespace
{
    /// The fold over axes 0 and 1 of `a` (k, m, n) that docs/kernels.md gives where n is short: row r of
    /// axis 1 folds into chain r mod R (R rows a tile), over every position of axis 0, each chain from the
    /// fold's identity; then the chains in order after `init`. A loop of its own, not the kernels'.
    template <class T, class Fold>
    xt::xarray<T> chains_of_tile_rows(const xt::xarray<T>& a, T init)
    {
        const std::size_t rows = xn::detail::kernel_tile_rows<T>;
        const std::size_t k = a.shape()[0];
        const std::size_t m = a.shape()[1];
        const std::size_t n = a.shape()[2];
        xt::xarray<T> result = xt::xarray<T>::from_shape({n});
        for (std::size_t j = 0; j < n; ++j)
        {
            std::vector<T> chains(std::min(rows, m), Fold::template identity<T>());
            for (std::size_t i = 0; i < k; ++i)
            {
                for (std::size_t r = 0; r < m; ++r)
                {
                    chains[r % rows] = Fold::combine(chains[r % rows], a(i, r, j));
                }
            }
            T total = init;
            for (const T& chain : chains)
            {
                total = Fold::combine(total, chain);
            }
            result(j) = total;
        }
        return result;
    }

    using plus_fold = xn::detail::kernel_fold<xt::detail::plus>;
} // namespace

TYPED_TEST(kernels, sums_over_outer_axes_match_xtensor_bitwise_or_fold_the_documented_chains)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 50);
            const auto c = random_array<T>({3, m, n}, 51);
            const auto d = random_array<T>({2, m, 3, n}, 52);
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(a, {0})));
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(a, {0}, xt::keep_dims)));
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(c, {0})));
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(c, {1})));
            if (!xn::detail::kernel_short_run<T>(n))
            {
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(c, {0, 1})));
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(d, {0, 2})));
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(d, {1, 2}, xt::keep_dims)));
                continue;
            }
            // Over several axes, keeping a short innermost one: the documented chains, within the
            // summation bound of xtensor's association.
            EXPECT_TRUE(
                same_bits(kernel_value<T>(xt::sum(c, {0, 1})), chains_of_tile_rows<T, plus_fold>(c, T(0))));
            const auto expected = xtensor_value<T>(xt::sum(d, {0, 2}));
            const auto actual = kernel_value<T>(xt::sum(d, {0, 2}));
            const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(d)), {0, 2}));
            ASSERT_EQ(actual.shape(), expected.shape());
            for (std::size_t i = 0; i < actual.size(); ++i)
            {
                EXPECT_LE(std::abs(double(actual.flat(i)) - double(expected.flat(i))),
                          summation_bound<T>(6, magnitudes.flat(i)));
            }
        }
    }
}

TYPED_TEST(kernels, sums_over_a_middle_axis_of_leaves_constant_along_the_runs_match_xtensor_bitwise)
{
    // A sum over one axis, keeping the innermost, steps its row from term to term: a leaf constant along
    // the runs (a scale per position of the summed axis) splatted afresh at each term.
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        for (const sizes& shape :
             {sizes{4, 2, n}, sizes{3, 2, 5, n}, sizes{3, 2, 4, 2, n}, sizes{2, 3, 2, 4, 2, n}})
        {
            SCOPED_TRACE(shape_text(shape));
            const std::size_t rank = shape.size();
            const auto x = random_array<T>(shape, 70);
            sizes per_term(rank, 1);
            per_term[rank - 2] = shape[rank - 2];
            const auto g = random_array<T>(per_term, 71);
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(x * g, {rank - 2})));
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(x - g, {rank - 2}, xt::keep_dims)));
            EXPECT_TRUE(matches_xtensor<T>(xt::sum(x * g, {0})));
            EXPECT_TRUE(matches_xtensor<T>(xt::prod(x * g, {rank - 2})));
            const auto max_of =
                xn::detail::fold_reducer<xn::detail::max_fold>(x * g, std::vector<std::size_t>{rank - 2});
            EXPECT_TRUE(matches_xtensor<T>(max_of));
        }
    }
}

TYPED_TEST(kernels, sums_that_keep_a_short_innermost_axis_fold_one_chain_per_row_of_a_tile)
{
    // Points (n, xyz), channels last: the kept axis is shorter than two batches, and the fold runs in
    // tiles of rows, one chain per row of a tile. Up to a tile's rows in one level that is xtensor's
    // association (one term a chain); beyond, and over several levels, the documented one.
    using T = TypeParam;
    using plus = plus_fold;
    using times = xn::detail::kernel_fold<xt::detail::multiplies>;
    constexpr std::size_t rows = xn::detail::kernel_tile_rows<T>;
    for (std::size_t n : {1, 2, 3, 4, 5, 7})
    {
        if (!xn::detail::kernel_short_run<T>(n))
        {
            continue;
        }
        // A whole number of tiles in the inner level, and not: the levels are then taken as one.
        for (std::size_t m : {std::size_t(5), rows - 1, rows, rows + 1, 2 * rows, 3 * rows + 5})
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({1, m, n}, 95);
            const auto b = random_array<T>({3, m, n}, 96);
            const xt::xarray<T> flat = xt::view(a, 0, xt::all(), xt::all());
            EXPECT_TRUE(
                same_bits(kernel_value<T>(xt::sum(flat, {0})), chains_of_tile_rows<T, plus>(a, T(0))));
            EXPECT_TRUE(
                same_bits(kernel_value<T>(xt::sum(b, {0, 1})), chains_of_tile_rows<T, plus>(b, T(0))));
            // A leaf strided along the short axis is copied into its tiles, in the same chains.
            const auto wide = random_array<T>({3, m, 2 * n}, 97);
            const auto strided = xt::view(wide, xt::all(), xt::all(), xt::range(0, 2 * n, 2));
            const xt::xarray<T> every_other = strided;
            EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(strided, {0, 1})),
                                  chains_of_tile_rows<T, plus>(every_other, T(0))));
            // An initial value comes in front of the result, as xtensor's reducer adds it.
            const xt::xarray<T> shifted = T(0.25) + chains_of_tile_rows<T, plus>(b, T(0));
            EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(b, {0, 1}, xt::initial(T(0.25)))), shifted));
            const xt::xarray<T> factors = flat / T(1 << 12) + T(1);
            const xt::xarray<T> factors3 = xt::view(factors, xt::newaxis(), xt::all(), xt::all());
            EXPECT_TRUE(same_bits(kernel_value<T>(xt::prod(factors, {0})),
                                  chains_of_tile_rows<T, times>(factors3, T(1))));
            if (m <= rows)
            {
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(flat, {0})));
            }
            // Within the bound of recursive summation of xtensor's value.
            const auto expected = xtensor_value<T>(xt::sum(b, {0, 1}));
            const auto actual = kernel_value<T>(xt::sum(b, {0, 1}));
            const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(b)), {0, 1}));
            for (std::size_t j = 0; j < n; ++j)
            {
                EXPECT_LE(std::abs(double(actual(j)) - double(expected(j))),
                          summation_bound<T>(3 * m, magnitudes(j)));
            }
            // Folded along the short axis (each row to one value), runs shorter than a batch take one
            // element after the other: xtensor's association.
            if (n < xn::detail::simd::batch_size<T>)
            {
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(b, {2})));
                EXPECT_TRUE(matches_xtensor<T>(xt::sum(flat * T(3) - flat, {1}, xt::initial(T(-1)))));
            }
        }
    }
}

TYPED_TEST(kernels, sums_with_an_initial_value_add_it_in_front_as_xtensor_does)
{
    using T = TypeParam;
    const auto a = random_array<T>({17, 33}, 53);
    const auto c = random_array<T>({3, 7, 40}, 54);
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(a, {0}, xt::initial(T(0.375)))));
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(c, {0, 1}, xt::keep_dims | xt::initial(T(-3)))));
}

TYPED_TEST(kernels, sums_of_expressions_and_strided_operands_match_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto a = random_array<T>({9, n}, 55);
        const auto b = random_array<T>({9, n}, 56);
        const auto u = random_array<T>({9, 1}, 57);
        const auto t = random_array<T>({n, 9}, 58);
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(a * b + u, {0})));
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::transpose(t) - a, {0})));
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::broadcast(u, sizes{9, n}), {0})));
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::flip(a, 1) * T(3), {0}, xt::keep_dims)));
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::view(t, xt::all(), xt::range(1, 8, 3)), {0})));
    }
}

TYPED_TEST(kernels, runs_longer_than_a_buffer_match_xtensor_bitwise)
{
    // Strided leaves and outputs go through buffers of a few thousand elements: runs of 5003 take
    // several chunks and a partial one.
    using T = TypeParam;
    const std::size_t n = 5003;
    const auto t = random_array<T>({n, 3}, 72);
    const auto v = random_array<T>({n}, 73);
    EXPECT_TRUE(matches_xtensor<T>(xt::transpose(t) + v));
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::transpose(t) * v, {0})));
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(xt::transpose(t), {0}, xt::keep_dims | xt::initial(T(1)))));
    EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(xt::transpose(t), {1, static_cast<std::int64_t>(n)})));

    auto column_major_out = xt::xarray<T, xt::layout_type::column_major>::from_shape({1, n});
    ASSERT_TRUE(xn::detail::try_kernel_assign(column_major_out,
                                              xt::sum(xt::broadcast(v, sizes{4, n}), {0}, xt::keep_dims)));
    EXPECT_TRUE(same_bits(column_major_out,
                          xtensor_value<T>(xt::sum(xt::broadcast(v, sizes{4, n}), {0}, xt::keep_dims))));

    const auto expected = xtensor_value<T>(xt::sum(xt::transpose(t), {1}));
    const auto actual = kernel_value<T>(xt::sum(xt::transpose(t), {1}));
    const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(t)), {0}));
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_LE(std::abs(double(actual(i)) - double(expected(i))), summation_bound<T>(n, magnitudes(i)));
    }
}

TYPED_TEST(kernels, sums_over_the_innermost_axis_stay_within_the_summation_bound)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : {1, 7, 33, 100, 1000})
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 59);
            const auto b = random_array<T>({2, m, n}, 60);
            const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(a)), {1}));
            const auto magnitudes3 = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(b)), {0, 2}));
            const auto expected = xtensor_value<T>(xt::sum(a, {1}));
            const auto actual = kernel_value<T>(xt::sum(a, {1}));
            const auto expected3 = xtensor_value<T>(xt::sum(b, {0, 2}));
            const auto actual3 = kernel_value<T>(xt::sum(b, {0, 2}, xt::keep_dims));
            ASSERT_EQ(actual.shape(), expected.shape());
            ASSERT_EQ(actual3.size(), expected3.size());
            for (std::size_t i = 0; i < m; ++i)
            {
                EXPECT_LE(std::abs(double(actual(i)) - double(expected(i))),
                          summation_bound<T>(n, magnitudes(i)));
                EXPECT_LE(std::abs(double(actual3.flat(i)) - double(expected3(i))),
                          summation_bound<T>(2 * n, magnitudes3(i)));
            }
        }
    }
}

// Results of a fold along the innermost axis, each a run's total, are computed in one loop over the
// results (fold_run_totals): each must keep the value its row has when folded on its own, where the
// loop over one result's levels computes it.
TYPED_TEST(kernels, folds_along_the_innermost_axis_give_each_row_its_value_alone)
{
    using T = TypeParam;
    using max_fold = xn::detail::max_fold;
    for (std::size_t m : {1, 3, 40})
    {
        for (std::size_t n : {5, 7, 25, 33, 100})
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 90);
            const auto r = random_array<T>({n}, 91);
            const auto k = random_array<T>({m}, 92);
            const auto t = random_array<T>({n, m}, 93);
            const auto b = random_array<T>({2, m, n}, 94);
            auto holed = a;
            holed(m - 1, n / 2) = std::numeric_limits<T>::quiet_NaN();
            const auto sums = kernel_value<T>(xt::sum(a, {1}));
            const auto started = kernel_value<T>(xt::sum(a, {1}, xt::initial(T(0.375))));
            const auto chained =
                kernel_value<T>(xt::sum((a - r) * xt::view(k, xt::all(), xt::newaxis()), {1}));
            const auto across = kernel_value<T>(xt::sum(xt::transpose(t), {1}));
            const auto deeper = kernel_value<T>(xt::sum(b, {2}));
            const auto maxima = kernel_value<T>(xn::detail::fold_reducer<max_fold>(holed, sizes{1}));
            ASSERT_EQ(sizes(sums.shape().begin(), sums.shape().end()), sizes({m}));
            ASSERT_EQ(sizes(deeper.shape().begin(), deeper.shape().end()), sizes({2, m}));
            const auto alone = [](const auto& e) { return xt::xarray<T>{kernel_value<T>(e)()}; };
            for (std::size_t i = 0; i < m; ++i)
            {
                SCOPED_TRACE(i);
                const xt::xarray<T> row = xt::view(a, i, xt::all());
                const xt::xarray<T> chained_row = (row - r) * k(i);
                const xt::xarray<T> column = xt::view(t, xt::all(), i);
                const xt::xarray<T> holed_row = xt::view(holed, i, xt::all());
                EXPECT_TRUE(same_bits(xt::xarray<T>{sums(i)}, alone(xt::sum(row, {0}))));
                EXPECT_TRUE(
                    same_bits(xt::xarray<T>{started(i)}, alone(xt::sum(row, {0}, xt::initial(T(0.375))))));
                EXPECT_TRUE(same_bits(xt::xarray<T>{chained(i)}, alone(xt::sum(chained_row, {0}))));
                EXPECT_TRUE(same_bits(xt::xarray<T>{across(i)}, alone(xt::sum(column, {0}))));
                EXPECT_TRUE(same_bits(xt::xarray<T>{maxima(i)},
                                      alone(xn::detail::fold_reducer<max_fold>(holed_row, sizes{0}))));
                for (std::size_t j = 0; j < 2; ++j)
                {
                    const xt::xarray<T> inner = xt::view(b, j, i, xt::all());
                    EXPECT_TRUE(same_bits(xt::xarray<T>{deeper(j, i)}, alone(xt::sum(inner, {0}))));
                }
            }
            EXPECT_TRUE(std::isnan(maxima(m - 1)));
        }
    }
}

TYPED_TEST(kernels, a_sum_over_every_axis_stays_within_the_summation_bound)
{
    using T = TypeParam;
    const auto a = random_array<T>({13, 33}, 61);
    const double magnitude = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(a))))();
    const T expected = xtensor_value<T>(xt::sum(a))();
    const auto actual = kernel_value<T>(xt::sum(a));
    ASSERT_EQ(actual.dimension(), 0u);
    EXPECT_LE(std::abs(double(actual()) - double(expected)), summation_bound<T>(a.size(), magnitude));
}

TYPED_TEST(kernels, a_sum_over_no_axis_adds_the_initial_value_in_front)
{
    using T = TypeParam;
    xt::xarray<T> a = random_array<T>({4, 17}, 62);
    a(0, 0) = -T(0);
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(a, sizes{})));
    EXPECT_TRUE(matches_xtensor<T>(xt::sum(a, sizes{}, xt::initial(T(2)))));
    // 0 + -0 is +0: the initial value is added even where nothing is summed.
    const auto result = kernel_value<T>(xt::sum(a, sizes{}));
    EXPECT_FALSE(std::signbit(result(0, 0)));
}

TYPED_TEST(kernels, a_sum_of_an_empty_input_gives_the_initial_value)
{
    // The values xtensor's reducer documents; its own assignment of these sums steps a null pointer
    // (undefined behaviour that UBSan reports), so it cannot be the oracle here.
    using T = TypeParam;
    const xt::xarray<T> empty = xt::xarray<T>::from_shape({0, 5});
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(empty, {0})), xt::xarray<T>(xt::zeros<T>({5}))));
    const xt::xarray<T> fours = xt::xarray<T>(xt::zeros<T>({5})) + T(4);
    EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(empty, {0}, xt::initial(T(4)))), fours));
    EXPECT_EQ(kernel_value<T>(xt::sum(empty, {1})).shape(), (typename xt::xarray<T>::shape_type{0}));
}

TYPED_TEST(kernels, adjoint_sums_match_xtensor_within_their_documented_bounds)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto g = random_array<T>({3, 9, n}, 63);
        const auto n64 = static_cast<std::int64_t>(n);
        // Outer axes only: bit for bit.
        EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(g, {n64})));
        EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(g, {1, n64})));
        EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(g, {9, n64})));
        EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(g, {3, 1, n64})));
        EXPECT_TRUE(matches_xtensor<T>(xn::sum_to(g * T(2), {3, 9, n64})));
        if (xn::detail::kernel_short_run<T>(n))
        {
            // Two outer axes keeping a short innermost one: the documented chains.
            EXPECT_TRUE(same_bits(kernel_value<T>(xn::reduce_broadcast_axes(g, {0, 1})),
                                  chains_of_tile_rows<T, plus_fold>(g, T(0))));
        }
        else
        {
            EXPECT_TRUE(matches_xtensor<T>(xn::reduce_broadcast_axes(g, {0, 1})));
        }

        // Through the innermost axis: within the bound.
        const auto expected = xtensor_value<T>(xn::sum_to(g, {9, 1}));
        const auto actual = kernel_value<T>(xn::sum_to(g, {9, 1}));
        const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(g)), {0, 2}));
        ASSERT_EQ(actual.shape(), expected.shape());
        for (std::size_t i = 0; i < 9; ++i)
        {
            EXPECT_LE(std::abs(double(actual(i, 0)) - double(expected(i, 0))),
                      summation_bound<T>(3 * n, magnitudes(i)));
        }
    }
}

/*********************************
 * other folds                    *
 *********************************/

namespace
{
    /// numpy's fold of `values` for the library's folds: max and min give NaN as soon as one value is
    /// NaN; nanmax and nanmin skip NaN and give NaN only when every value is.
    template <class T, class Fold>
    T reference_fold(const std::vector<T>& values)
    {
        const bool skips_nan = std::is_same<Fold, xn::detail::nanmax_fold>::value ||
                               std::is_same<Fold, xn::detail::nanmin_fold>::value;
        const bool larger = std::is_same<Fold, xn::detail::max_fold>::value ||
                            std::is_same<Fold, xn::detail::nanmax_fold>::value;
        bool any = false;
        T result = T(0);
        for (T x : values)
        {
            if (std::isnan(x))
            {
                if (!skips_nan)
                {
                    return x;
                }
                continue;
            }
            result = !any ? x : (larger ? std::max(result, x) : std::min(result, x));
            any = true;
        }
        return any ? result : std::numeric_limits<T>::quiet_NaN();
    }

    /// The fold over axis `axis` of a rank-2 array, by reference_fold.
    template <class T, class Fold>
    xt::xarray<T> reference_folds(const xt::xarray<T>& a, std::size_t axis)
    {
        const std::size_t kept = 1 - axis;
        xt::xarray<T> result = xt::xarray<T>::from_shape({a.shape()[kept]});
        for (std::size_t k = 0; k < a.shape()[kept]; ++k)
        {
            std::vector<T> values;
            for (std::size_t r = 0; r < a.shape()[axis]; ++r)
            {
                values.push_back(axis == 0 ? a(r, k) : a(k, r));
            }
            result(k) = reference_fold<T, Fold>(values);
        }
        return result;
    }

    template <class T, class Fold>
    void expect_folds_like_numpy(const xt::xarray<T>& a)
    {
        for (std::size_t axis : {0u, 1u})
        {
            const auto reducer = xn::detail::fold_reducer<Fold>(a, std::vector<std::size_t>{axis});
            const xt::xarray<T> expected = reference_folds<T, Fold>(a, axis);
            EXPECT_TRUE(same_bits(kernel_value<T>(reducer), expected)) << "axis " << axis;
            // xtensor's own evaluation of the same reducer folds in another order: the same values.
            EXPECT_TRUE(same_bits(xtensor_value<T>(reducer), expected)) << "axis " << axis;
        }
    }
} // namespace

TYPED_TEST(kernels, products_over_outer_axes_match_xtensor_bitwise_and_inner_ones_within_their_bound)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        // Factors near 1, so that products of many stay finite.
        const auto a = random_array<T>({6, n}, 70) / T(1 << 12) + T(1);
        EXPECT_TRUE(matches_xtensor<T>(xt::prod(a, {0})));
        const auto expected = xtensor_value<T>(xt::prod(a, {1}));
        const auto actual = kernel_value<T>(xt::prod(a, {1}));
        const double u = std::numeric_limits<T>::epsilon() / 2;
        for (std::size_t i = 0; i < 6; ++i)
        {
            // Each association is within (n - 1) u of the exact product: two within twice that.
            EXPECT_LE(std::abs(double(actual(i)) / double(expected(i)) - 1), 2 * double(n) * u * 1.01);
        }
    }
}

TYPED_TEST(kernels, max_min_and_their_nan_skipping_twins_fold_like_numpy)
{
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const T inf = std::numeric_limits<T>::infinity();
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        xt::xarray<T> a = random_array<T>({7, n}, 71);
        // NaN first, last, in the middle of a row and of a column, a row of NaN only, infinities.
        a(0, 0) = nan;
        a(1, n - 1) = nan;
        a(2, n / 2) = nan;
        xt::view(a, 3, xt::all()) = nan;
        a(4, 0) = -inf;
        a(5, n - 1) = inf;
        expect_folds_like_numpy<T, xn::detail::max_fold>(a);
        expect_folds_like_numpy<T, xn::detail::min_fold>(a);
        expect_folds_like_numpy<T, xn::detail::nanmax_fold>(a);
        expect_folds_like_numpy<T, xn::detail::nanmin_fold>(a);
        // Without NaN, max and nanmax agree.
        const auto clean = random_array<T>({7, n}, 72);
        expect_folds_like_numpy<T, xn::detail::max_fold>(clean);
        expect_folds_like_numpy<T, xn::detail::nanmin_fold>(clean);
    }
}

TYPED_TEST(kernels, folds_of_one_tree_share_their_loops_and_each_folds_with_its_own_operations)
{
    // The loops of a fold are compiled once for every fold, which reaches them through its tree
    // (fold_ops): a maximum, a sum, a minimum and a product of the same array, one after the other and
    // again, over the outer axis (results in runs), the innermost (lane chains) and both (one result),
    // each as it folds alone.
    using T = TypeParam;
    using xn::detail::max_fold;
    using xn::detail::min_fold;
    // Factors between 0 and 2, so that products of many stay finite.
    const xt::xarray<T> a = random_array<T>({9, 37}, 74) / T(1 << 12) + T(1);
    const double u = std::numeric_limits<T>::epsilon() / 2;
    for (int round = 0; round < 2; ++round)
    {
        SCOPED_TRACE(round);
        for (std::size_t axis : {0u, 1u})
        {
            SCOPED_TRACE(axis);
            const std::vector<std::size_t> axes{axis};
            EXPECT_TRUE(same_bits(kernel_value<T>(xn::detail::fold_reducer<max_fold>(a, axes)),
                                  reference_folds<T, max_fold>(a, axis)));
            const auto sums = kernel_value<T>(xt::sum(a, axes));
            const auto expected_sums = xtensor_value<T>(xt::sum(a, axes));
            EXPECT_TRUE(same_bits(kernel_value<T>(xn::detail::fold_reducer<min_fold>(a, axes)),
                                  reference_folds<T, min_fold>(a, axis)));
            const auto products = kernel_value<T>(xt::prod(a, axes));
            const auto expected_products = xtensor_value<T>(xt::prod(a, axes));
            if (axis == 0)
            {
                // Over an outer axis, xtensor's association.
                EXPECT_TRUE(same_bits(sums, expected_sums));
                EXPECT_TRUE(same_bits(products, expected_products));
                continue;
            }
            ASSERT_EQ(sums.shape(), expected_sums.shape());
            ASSERT_EQ(products.shape(), expected_products.shape());
            for (std::size_t i = 0; i < a.shape()[0]; ++i)
            {
                // Every term is between 0 and 2: their magnitudes add to at most 74.
                EXPECT_LE(std::abs(double(sums(i)) - double(expected_sums(i))),
                          summation_bound<T>(37, 2 * 37));
                EXPECT_LE(std::abs(double(products(i)) / double(expected_products(i)) - 1),
                          2 * 37 * u * 1.01);
            }
        }
        const auto all = xn::detail::fold_reducer<max_fold>(a, std::vector<std::size_t>{0, 1});
        EXPECT_EQ(kernel_value<T>(all)(), *std::max_element(a.begin(), a.end()));
        const auto total = kernel_value<T>(xt::sum(a, {0, 1}));
        double exact = 0;
        for (const T x : a)
        {
            exact += double(x);
        }
        EXPECT_LE(std::abs(double(total()) - exact), summation_bound<T>(a.size(), 2 * double(a.size())));
    }
    // The folds over more axes and shapes, whole numbers (every sum exact) with a NaN: partial results
    // merged (two folded axes before a kept long one), the short runs of tiles (a folded short innermost
    // axis), and a maximum of maxima along the innermost axis.
    xt::xarray<T> whole = xt::xarray<T>::from_shape({5, 7, 33});
    for (std::size_t i = 0; i < whole.size(); ++i)
    {
        whole.flat(i) = T(static_cast<int>(i % 13) - 6);
    }
    whole(2, 3, 4) = std::numeric_limits<T>::quiet_NaN();
    const xt::xarray<T> clean = xt::nan_to_num(whole);
    const auto expect_folds = [&](auto fold, const xt::xarray<T>& values, std::vector<std::size_t> axes)
    {
        using F = decltype(fold);
        const auto reducer = xn::detail::fold_reducer<F>(values, axes);
        EXPECT_TRUE(same_bits(kernel_value<T>(reducer), xtensor_value<T>(reducer)));
    };
    for (int round = 0; round < 2; ++round)
    {
        expect_folds(xn::detail::nanmax_fold{}, whole, {0, 1});
        expect_folds(xn::detail::min_fold{}, whole, {0, 1});
        expect_folds(xn::detail::nanmin_fold{}, whole, {0, 2});
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(clean, {0, 1})));
        const xt::xarray<T> points = xt::view(clean, xt::all(), xt::all(), xt::range(0, 3));
        expect_folds(max_fold{}, points, {2});
        EXPECT_TRUE(matches_xtensor<T>(xt::sum(points, {2})));
        expect_folds(xn::detail::nanmin_fold{}, points, {2});
        const auto inner = xn::detail::fold_reducer<max_fold>(clean, std::vector<std::size_t>{1});
        const auto outer = xn::detail::fold_reducer<max_fold>(inner, std::vector<std::size_t>{1});
        EXPECT_TRUE(same_bits(kernel_value<T>(outer), xtensor_value<T>(outer)));
    }
}

// The folds are called on AVX-512 batches here, outside the kernels' silenced headers: see
// xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN
TYPED_TEST(kernels, the_max_and_min_folds_of_batches_choose_each_lane_as_their_comparison_does)
{
    // On x86 the folds of amax and amin take the processor's max and min on batches (maxps and
    // minps, which give their second operand where a lane is NaN) and choose a NaN of the first
    // apart: the same bits, lane by lane, as the comparison and choice they make on single elements.
    using T = TypeParam;
    namespace simd = xn::detail::simd;
    using traits = simd::batch_traits<T>;
#if defined(__SSE2__) || defined(_M_X64)
    if constexpr (simd::has_batch_v<T>)
    {
        // The processor's form is the one under test.
        EXPECT_TRUE(simd::has_ordered_extremes<simd::batch<T>>);
    }
#endif
    using limits = std::numeric_limits<T>;
    const std::vector<T> special{limits::quiet_NaN(),
                                 -limits::quiet_NaN(),
                                 limits::infinity(),
                                 -limits::infinity(),
                                 T(0),
                                 -T(0),
                                 T(1),
                                 T(-2.5),
                                 limits::max(),
                                 limits::lowest()};
    // Every pair of special values, padded to whole batches.
    const std::size_t width = traits::size;
    const std::size_t pairs = special.size() * special.size();
    const std::size_t count = (pairs + width - 1) / width * width;
    std::vector<T> a(count, T(3));
    std::vector<T> b(count, T(4));
    for (std::size_t p = 0; p < pairs; ++p)
    {
        a[p] = special[p / special.size()];
        b[p] = special[p % special.size()];
    }
    const auto expect_lanes_of = [&](auto fold, const char* name)
    {
        std::vector<T> folded(count);
        for (std::size_t i = 0; i < count; i += width)
        {
            traits::store(folded.data() + i, fold(traits::load(a.data() + i), traits::load(b.data() + i)));
        }
        for (std::size_t p = 0; p < count; ++p)
        {
            const T expected = fold(a[p], b[p]);
            EXPECT_EQ(0, std::memcmp(&folded[p], &expected, sizeof(T)))
                << name << "(" << a[p] << ", " << b[p] << "): " << folded[p] << " instead of " << expected;
        }
    };
    expect_lanes_of(xn::detail::max_fold{}, "max_fold");
    expect_lanes_of(xn::detail::min_fold{}, "min_fold");
}
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

TYPED_TEST(kernels, folds_over_every_axis_and_with_kept_dims_fold_like_numpy)
{
    using T = TypeParam;
    xt::xarray<T> a = random_array<T>({5, 6, 33}, 73);
    a(4, 5, 32) = std::numeric_limits<T>::quiet_NaN();
    const auto all = xn::detail::fold_reducer<xn::detail::nanmax_fold>(a, std::vector<std::size_t>{0, 1, 2});
    std::vector<T> values(a.begin(), a.end());
    EXPECT_TRUE(
        same_bits(kernel_value<T>(all), xt::xarray<T>(reference_fold<T, xn::detail::nanmax_fold>(values))));
    const auto any_nan = xn::detail::fold_reducer<xn::detail::max_fold>(a, std::vector<std::size_t>{0, 2});
    const xt::xarray<T> maxima = kernel_value<T>(any_nan);
    for (std::size_t j = 0; j < 6; ++j)
    {
        EXPECT_EQ(std::isnan(maxima(j)), j == 5) << j;
    }
}

/*********************************
 * folds cut into parts           *
 *********************************/

TEST(fold_cut, depends_on_the_summed_sizes_only)
{
    using xn::detail::fold_level;
    using xn::detail::fold_stage;
    const auto cut_for = [](std::initializer_list<fold_level> levels)
    {
        std::vector<fold_stage<double>> stages(1);
        stages[0].levels.assign(levels.begin(), levels.end());
        return xn::detail::cut_of(stages);
    };
    constexpr std::size_t part = xn::detail::kernel_fold_part_terms;
    // One level of 100000 terms: parts of `part` terms, the last one shorter.
    const auto whole = cut_for({{0, 100000, false}});
    EXPECT_EQ(whole.length, part);
    EXPECT_EQ(whole.parts, (100000 + part - 1) / part);
    // Two levels: the first is cut, each of its positions bringing the second's terms.
    const auto images = cut_for({{0, 16, false}, {1, 50176, false}});
    EXPECT_EQ(images.length, 1u);
    EXPECT_EQ(images.parts, 16u);
    const auto rows = cut_for({{0, 1000, false}, {1, 64, false}});
    EXPECT_EQ(rows.length, part / 64);
    EXPECT_EQ(rows.parts, (1000 + part / 64 - 1) / (part / 64));
    // Few terms, a first level of phantom size 1, several stages: not cut.
    EXPECT_EQ(cut_for({{0, part, false}}).parts, 1u);
    EXPECT_EQ(cut_for({{0, 1, true}, {1, 100000, false}}).parts, 1u);
    std::vector<fold_stage<double>> nested(2);
    nested[0].levels.push_back({0, 100000, false});
    nested[1].levels.push_back({1, 3, false});
    EXPECT_EQ(xn::detail::cut_of(nested).parts, 1u);
}

namespace
{
    /// The sums of `a` (rank 2) along `axis`, accumulated in long double: within a few units of the
    /// exact sums, the reference for the summation bound.
    template <class T>
    xt::xarray<long double> exact_sums(const xt::xarray<T>& a, std::size_t axis)
    {
        const std::size_t kept = a.shape()[1 - axis];
        xt::xarray<long double> sums = xt::zeros<long double>({kept});
        for (std::size_t i = 0; i < a.shape()[0]; ++i)
        {
            for (std::size_t j = 0; j < a.shape()[1]; ++j)
            {
                sums(axis == 0 ? j : i) += static_cast<long double>(a(i, j));
            }
        }
        return sums;
    }
} // namespace

TYPED_TEST(kernels, sums_cut_into_parts_stay_within_the_summation_bound)
{
    // More terms per result than one part folds: points (n, xyz) summed over n, rows summed whole, a
    // sum of everything, with an initial value in front.
    using T = TypeParam;
    const std::size_t n = 3 * xn::detail::kernel_fold_part_terms + 17;
    for (const sizes& shape : {sizes{n, 3}, sizes{3, n}})
    {
        SCOPED_TRACE(shape_text(shape));
        const auto a = random_array<T>(shape, 74);
        const std::size_t axis = shape[0] == n ? 0 : 1;
        const auto exact = exact_sums<T>(a, axis);
        const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(a)), {axis}));
        const auto actual = kernel_value<T>(xt::sum(a, {axis}));
        const auto with_initial = kernel_value<T>(xt::sum(a, {axis}, xt::initial(T(0.5))));
        ASSERT_EQ(actual.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i)
        {
            const double bound = summation_bound<T>(n, magnitudes(i));
            EXPECT_LE(std::abs(double(actual(i)) - double(exact(i))), bound) << i;
            const double shifted = double(exact(i) + 0.5L);
            // The initial value comes in front once: one more rounding.
            EXPECT_LE(std::abs(double(with_initial(i)) - shifted),
                      bound + std::abs(shifted) * std::numeric_limits<T>::epsilon())
                << i;
        }
        const auto everything = kernel_value<T>(xt::sum(a));
        double total = 0;
        for (std::size_t i = 0; i < 3; ++i)
        {
            total += double(exact(i));
        }
        EXPECT_LE(std::abs(double(everything()) - total), summation_bound<T>(3 * n, xt::sum(magnitudes)()));
    }
}

TYPED_TEST(kernels, a_sum_cut_into_parts_writes_a_strided_output_in_its_own_order)
{
    // The parts fold into results laid out densely; the output here is column-major.
    using T = TypeParam;
    const std::size_t n = 2 * xn::detail::kernel_fold_part_terms + 5;
    const auto a = random_array<T>({n, 4, 3}, 75);
    const auto na = xn::name(a, {"n", "y", "x"});
    const xt::xarray<T> row_major = xn::eval(xn::sum(na, {"n"})).expression();
    xt::xarray<T, xt::layout_type::column_major> out(std::vector<std::size_t>{4, 3});
    xn::assign(out, xn::sum(na, {"n"}));
    EXPECT_TRUE(same_bits(out, row_major));
    const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(a)), {0}));
    const auto expected = xtensor_value<T>(xt::sum(a, {0}));
    for (std::size_t y = 0; y < 4; ++y)
    {
        for (std::size_t x = 0; x < 3; ++x)
        {
            EXPECT_LE(std::abs(double(out(y, x)) - double(expected(y, x))),
                      2 * summation_bound<T>(n, magnitudes(y, x)));
        }
    }
}

TYPED_TEST(kernels, a_reduction_writes_an_output_in_another_axis_order_through_its_strides)
{
    // try_kernel_assign with an order: axis i of the output is axis order[i] of the result. Whole numbers
    // sum exactly in any order of terms, so every element equals xtensor's: a cycle of three axes
    // over the innermost axis and over an outer one. Refused, the output untouched, for an output of the
    // unpermuted shape, one that the reduction reads, and one of another element type (xn::assign takes
    // these through a container: tests/test_xevaluate.cpp).
    using T = TypeParam;
    xt::xtensor<T, 4> a = xt::zeros<T>({4, 5, 6, 3});
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        a.flat(i) = static_cast<T>(static_cast<int>(i % 13) - 6);
    }
    const xn::detail::index_map cycle = {2, 0, 1};

    // Over the innermost axis: the result (4, 5, 6), the output (6, 4, 5).
    xt::xtensor<T, 3> inner = xt::zeros<T>({6, 4, 5});
    ASSERT_TRUE(xn::detail::try_kernel_assign(inner, xt::sum(a, {3}), &cycle));
    // Over an outer axis: the result (4, 6, 3), the output (3, 4, 6).
    xt::xtensor<T, 3> outer = xt::zeros<T>({3, 4, 6});
    ASSERT_TRUE(xn::detail::try_kernel_assign(outer, xt::sum(a, {1}), &cycle));
    // xtensor's own sums, exact on whole numbers, in the output's order.
    const xt::xtensor<T, 3> inner_sums = xt::sum(a, {3});
    const xt::xtensor<T, 3> outer_sums = xt::sum(a, {1});
    EXPECT_EQ(inner, (xt::xtensor<T, 3>(xt::transpose(inner_sums, {2, 0, 1}))));
    EXPECT_EQ(outer, (xt::xtensor<T, 3>(xt::transpose(outer_sums, {2, 0, 1}))));

    // A plane of the array it sums, transposed.
    xt::xtensor<T, 3> cube = xt::zeros<T>({17, 17, 2});
    for (std::size_t i = 0; i < cube.size(); ++i)
    {
        cube.flat(i) = static_cast<T>(i % 11);
    }
    const xt::xtensor<T, 3> before = cube;
    auto plane = xt::view(cube, xt::all(), xt::all(), 0);
    const xn::detail::index_map swap = {1, 0};
    EXPECT_FALSE(xn::detail::try_kernel_assign(plane, xt::sum(cube, {2}), &swap));
    EXPECT_EQ(cube, before);

    xt::xtensor<T, 3> unpermuted = xt::zeros<T>({4, 5, 6});
    EXPECT_FALSE(xn::detail::try_kernel_assign(unpermuted, xt::sum(a, {3}), &cycle));
    using other = std::conditional_t<std::is_same<T, float>::value, double, float>;
    // Square: of the result's shape either way, which the conversion's temporary would copy unpermuted.
    xt::xtensor<other, 2> converted = xt::zeros<other>({17, 17});
    EXPECT_FALSE(xn::detail::try_kernel_assign(converted, xt::sum(before, {2}), &swap));
    EXPECT_EQ(converted, (xt::xtensor<other, 2>(xt::zeros<other>({17, 17}))));
}

TYPED_TEST(kernels, max_and_min_cut_into_parts_fold_like_numpy)
{
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const std::size_t n = 2 * xn::detail::kernel_fold_part_terms + 3;
    xt::xarray<T> a = random_array<T>({n, 3}, 76);
    // A NaN in the last part of column 0, in the first of column 1; column 2 has none.
    a(n - 1, 0) = nan;
    a(5, 1) = nan;
    a(n / 2, 2) = std::numeric_limits<T>::infinity();
    expect_folds_like_numpy<T, xn::detail::max_fold>(a);
    expect_folds_like_numpy<T, xn::detail::min_fold>(a);
    expect_folds_like_numpy<T, xn::detail::nanmax_fold>(a);
    expect_folds_like_numpy<T, xn::detail::nanmin_fold>(a);
    const xt::xarray<T> across = xt::transpose(a);
    expect_folds_like_numpy<T, xn::detail::max_fold>(across);
    expect_folds_like_numpy<T, xn::detail::nanmin_fold>(across);
}
