/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The kernels (docs/kernels.md), elementwise: bit for bit what xtensor's own assignment gives, and
// for the main cases what a plain loop written here from the documented rules gives; the layouts of operands
// and outputs; what the kernels leave to xtensor. Sums are in test_xkernels_sums.cpp.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <thread>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>
#include <xtensor-named/xadjoint.hpp>
#include <xtensor-named/xevaluate.hpp>

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

/*********************************************
 * the layout: axes as the kernels see them  *
 *********************************************/

TEST(kernel_layout, right_alignment_gives_stride_zero_to_missing_and_size_one_axes)
{
    xn::detail::kernel_layout layout(sizes{4, 3, 5}, 2);
    ASSERT_TRUE(layout.set_right_aligned(1, sizes{3, 1}, std::vector<std::ptrdiff_t>{7, 9}));
    EXPECT_EQ(layout.stride(0, 1), 0);
    EXPECT_EQ(layout.stride(1, 1), 7);
    EXPECT_EQ(layout.stride(2, 1), 0);
}

TEST(kernel_layout, right_alignment_refuses_a_misfit_and_changes_nothing)
{
    xn::detail::kernel_layout layout(sizes{4, 3}, 2);
    layout.stride(0, 1) = 11;
    EXPECT_FALSE(layout.set_right_aligned(1, sizes{2}, std::vector<std::ptrdiff_t>{1}));
    EXPECT_FALSE(layout.set_right_aligned(1, sizes{1, 4, 3}, std::vector<std::ptrdiff_t>{0, 3, 1}));
    EXPECT_EQ(layout.stride(0, 1), 11);
    EXPECT_EQ(layout.stride(1, 1), 0);
}

TEST(kernel_layout, coalesces_axes_every_operand_steps_through_as_one)
{
    // out (2, 3, 4) row-major; a the same; b broadcast along the last axis only.
    xn::detail::kernel_layout layout(sizes{2, 3, 4}, 3);
    layout.set_right_aligned(0, sizes{2, 3, 4}, std::vector<std::ptrdiff_t>{12, 4, 1});
    layout.set_right_aligned(1, sizes{2, 3, 4}, std::vector<std::ptrdiff_t>{12, 4, 1});
    layout.set_right_aligned(2, sizes{2, 3, 1}, std::vector<std::ptrdiff_t>{3, 1, 0});
    layout.coalesce();
    ASSERT_EQ(layout.rank(), 2u);
    EXPECT_EQ(layout.size(0), 6u);
    EXPECT_EQ(layout.size(1), 4u);
    EXPECT_EQ(layout.stride(0, 2), 1);
    EXPECT_EQ(layout.stride(1, 2), 0);
}

TEST(kernel_layout, drops_unit_axes_flips_negative_strides_and_sorts_by_the_output)
{
    xn::detail::kernel_layout layout(sizes{3, 1, 4}, 2);
    layout.set_right_aligned(0, sizes{3, 1, 4}, std::vector<std::ptrdiff_t>{1, 0, -3});
    layout.set_right_aligned(1, sizes{3, 1, 4}, std::vector<std::ptrdiff_t>{4, 0, 1});
    layout.drop_unit_axes();
    ASSERT_EQ(layout.rank(), 2u);
    layout.make_positive(0);
    EXPECT_EQ(layout.offset(0), -9);
    EXPECT_EQ(layout.offset(1), 3);
    EXPECT_EQ(layout.stride(1, 0), 3);
    EXPECT_EQ(layout.stride(1, 1), -1);
    layout.sort_axes_by(0);
    EXPECT_EQ(layout.size(0), 4u);
    EXPECT_EQ(layout.stride(0, 0), 3);
    EXPECT_EQ(layout.stride(1, 0), 1);
    EXPECT_EQ(layout.stride(1, 1), 4);
}

TEST(kernel_layout, working_set_counts_an_operand_read_twice_once)
{
    // out (4, 8) float; leaves x, x again (where(x > 0, x, 0)), a row v (8) broadcast, and a bool mask.
    std::vector<float> x(32);
    std::vector<float> v(8);
    std::vector<char> mask(32);
    xn::detail::kernel_layout layout(sizes{4, 8}, 5);
    const std::vector<std::ptrdiff_t> dense{8, 1};
    layout.set_right_aligned(0, sizes{4, 8}, dense);
    layout.set_right_aligned(1, sizes{4, 8}, dense);
    layout.set_right_aligned(2, sizes{4, 8}, dense);
    layout.set_right_aligned(3, sizes{8}, std::vector<std::ptrdiff_t>{1});
    layout.set_right_aligned(4, sizes{4, 8}, dense);
    xn::detail::kernel_leaves<float, 4> leaves{};
    leaves[0].data = reinterpret_cast<const char*>(x.data());
    leaves[1].data = reinterpret_cast<const char*>(x.data());
    leaves[2].data = reinterpret_cast<const char*>(v.data());
    leaves[3].data = mask.data();
    leaves[3].element_bytes = 1;
    // The output and x: 32 floats each; v: 8 floats; the mask: 32 bytes.
    EXPECT_EQ((xn::detail::working_set_bytes(layout, leaves.data(), 4)), 32u * 4 + 32u * 4 + 8u * 4 + 32u);

    // The same memory through other strides (a transposed read) is another stream.
    layout.stride(0, 2) = 1;
    layout.stride(1, 2) = 4;
    EXPECT_EQ((xn::detail::working_set_bytes(layout, leaves.data(), 4)),
              32u * 4 + 2 * 32u * 4 + 8u * 4 + 32u);
    // And so is the next element of the same buffer.
    layout.stride(0, 2) = 8;
    layout.stride(1, 2) = 1;
    layout.offset(2) = 1;
    EXPECT_EQ((xn::detail::working_set_bytes(layout, leaves.data(), 4)),
              32u * 4 + 2 * 32u * 4 + 8u * 4 + 32u);
}

TEST(scratch_buffer, is_aligned_taken_back_from_the_thread_and_apart_while_in_use)
{
    // On a thread of its own, whose pool starts empty: what the kernels' tiles, sums and blocks take.
    using xn::detail::scratch_buffer;
    std::thread(
        []
        {
            constexpr std::size_t mib = std::size_t(1) << 20;
            const char* outer_memory = nullptr;
            const char* inner_memory = nullptr;
            {
                scratch_buffer outer(5 * mib);
                scratch_buffer inner(5 * mib);
                outer_memory = outer.data();
                inner_memory = inner.data();
                EXPECT_NE(outer_memory, inner_memory);
                EXPECT_EQ(reinterpret_cast<std::uintptr_t>(outer_memory) % 64, 0u);
                EXPECT_EQ(reinterpret_cast<std::uintptr_t>(inner_memory) % 64, 0u);
                EXPECT_EQ(static_cast<const void*>(outer.data_as<double>()),
                          static_cast<const void*>(outer_memory));
            }
            {
                // Given back, the first large enough is taken again, smaller requests too.
                scratch_buffer smaller(mib);
                scratch_buffer same(5 * mib);
                EXPECT_EQ(smaller.data(), inner_memory);
                EXPECT_EQ(same.data(), outer_memory);
            }
            {
                scratch_buffer larger(6 * mib);
                EXPECT_NE(larger.data(), outer_memory);
                EXPECT_NE(larger.data(), inner_memory);
            }
        })
        .join();
    EXPECT_EQ(scratch_buffer::rounded(1), 64u);
    EXPECT_EQ(scratch_buffer::rounded(1000), 1024u);
    EXPECT_EQ(scratch_buffer::rounded(0), 0u);
}

TEST(kernel_layout, memory_spans_cover_negative_strides_and_detect_overlap)
{
    const auto span = xn::detail::span_of(sizes{3, 4}, std::vector<std::ptrdiff_t>{-4, 1});
    EXPECT_FALSE(span.empty);
    EXPECT_EQ(span.low, -8);
    EXPECT_EQ(span.high, 3);
    const auto empty = xn::detail::span_of(sizes{3, 0}, std::vector<std::ptrdiff_t>{1, 1});
    EXPECT_TRUE(empty.empty);

    double buffer[20] = {};
    const xn::detail::memory_span first{0, 4, false};
    EXPECT_TRUE(xn::detail::overlaps(buffer, first, buffer + 4, first));
    EXPECT_FALSE(xn::detail::overlaps(buffer, first, buffer + 5, first));
    EXPECT_FALSE(xn::detail::overlaps(buffer, first, buffer, empty));
}

/******************************************************
 * elementwise: bit for bit what xtensor's gives       *
 ******************************************************/

TYPED_TEST(kernels, same_shape_operations_match_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 1);
            const auto b = random_array<T>({m, n}, 2);
            EXPECT_TRUE(matches_xtensor<T>(a + b));
            EXPECT_TRUE(matches_xtensor<T>(a - b));
            EXPECT_TRUE(matches_xtensor<T>(a * b));
            EXPECT_TRUE(matches_xtensor<T>(a / b));
        }
    }
}

TYPED_TEST(kernels, row_broadcast_matches_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 3);
            const auto v = random_array<T>({n}, 4);
            EXPECT_TRUE(matches_xtensor<T>(a + v));
            EXPECT_TRUE(matches_xtensor<T>(v - a));
            EXPECT_TRUE(matches_xtensor<T>(a * v));
            EXPECT_TRUE(matches_xtensor<T>(v / a));
        }
    }
}

TYPED_TEST(kernels, short_rows_taken_in_tiles_match_xtensor_bitwise)
{
    // An innermost axis of fewer than two batches (points (n, xyz), channels last) is evaluated in tiles
    // of rows, each leaf read in place, splatted or copied into a tile: periodic along the rows (a
    // centre of (xyz)), repeated along the short axis (a weight of (n)), strided (a transposed operand),
    // converted (an integer operand). Rows: less than a tile, a tile, one more, several and a part.
    using T = TypeParam;
    constexpr std::size_t rows = xn::detail::kernel_tile_rows<T>;
    constexpr std::size_t width = xn::detail::simd::batch_size<T>;
    // Runs of one batch or less, and of more (a repeated leaf's row is then two batches).
    for (std::size_t n :
         {std::size_t(2), std::size_t(3), std::size_t(5), std::size_t(7), width + 1, 2 * width - 1})
    {
        if (!xn::detail::kernel_short_run<T>(n))
        {
            continue;
        }
        for (std::size_t m : {rows - 1, rows, rows + 1, 3 * rows + 5})
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto p = random_array<T>({m, n}, 90);
            const auto c = random_array<T>({n}, 91);
            const auto w = random_array<T>({m, 1}, 92);
            const auto t = random_array<T>({n, m}, 93);
            xt::xarray<int> k = xt::xarray<int>::from_shape({m, n});
            for (std::size_t i = 0; i < k.size(); ++i)
            {
                k.flat(i) = static_cast<int>(i % 7) - 3;
            }
            EXPECT_TRUE(matches_xtensor<T>((p - c) * w));
            // A weight every third element of a wider array: repeated along the short axis, strided along
            // the rows.
            const auto wide = random_array<T>({m, 3}, 95);
            EXPECT_TRUE(matches_xtensor<T>(p * xt::strided_view(wide, {xt::all(), xt::range(1, 2)}) + c));
            EXPECT_TRUE(matches_xtensor<T>(xt::transpose(t) + c));
            // Against a plain loop: xtensor's own SIMD conversion of int trips GCC 12's AVX-512 warning.
            xt::xarray<T> converted = xt::xarray<T>::from_shape({m, n});
            for (std::size_t i = 0; i < k.size(); ++i)
            {
                converted.flat(i) = p.flat(i) * static_cast<T>(k.flat(i)) + T(2);
            }
            EXPECT_TRUE(same_bits(kernel_value<T>(p * k + T(2)), converted));
            EXPECT_TRUE(matches_xtensor<T>(xt::maximum(p, c) / w));
            const auto q = random_array<T>({2, m, n}, 94);
            EXPECT_TRUE(matches_xtensor<T>(q - p));
        }
    }
}

TYPED_TEST(kernels, column_broadcast_matches_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto a = random_array<T>({m, n}, 5);
            const auto u = random_array<T>({m, 1}, 6);
            EXPECT_TRUE(matches_xtensor<T>(a + u));
            EXPECT_TRUE(matches_xtensor<T>(u - a));
            EXPECT_TRUE(matches_xtensor<T>(a * u));
            EXPECT_TRUE(matches_xtensor<T>(a / u));
        }
    }
}

TYPED_TEST(kernels, outer_broadcast_matches_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto u = random_array<T>({m, 1}, 7);
            const auto v = random_array<T>({n}, 8);
            EXPECT_TRUE(matches_xtensor<T>(u + v));
            EXPECT_TRUE(matches_xtensor<T>(v - u));
            EXPECT_TRUE(matches_xtensor<T>(u * v));
            EXPECT_TRUE(matches_xtensor<T>(u / v));
        }
    }
}

TYPED_TEST(kernels, materialised_broadcasts_match_xtensor_bitwise)
{
    using T = TypeParam;
    for (std::size_t m : tail_sizes)
    {
        for (std::size_t n : tail_sizes)
        {
            SCOPED_TRACE(shape_text(sizes{m, n}));
            const auto u = random_array<T>({m, 1}, 9);
            const auto v = random_array<T>({n}, 10);
            const auto a = random_array<T>({m, n}, 11);
            EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(v, sizes{m, n})));
            EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(u, sizes{m, n})));
            EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(a, sizes{2, m, n})));
            EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(T(3), sizes{m, n})));
            EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(u + v, sizes{3, m, n})));
        }
    }
}

TYPED_TEST(kernels, broadcast_cases_match_a_plain_loop)
{
    using T = TypeParam;
    const std::size_t m = 7;
    const std::size_t n = 33;
    const auto a = random_array<T>({m, n}, 12);
    const auto u = random_array<T>({m, 1}, 13);
    const auto v = random_array<T>({n}, 14);
    const auto column = kernel_value<T>(a + u);
    const auto outer = kernel_value<T>(u * v);
    const auto materialised = kernel_value<T>(xt::broadcast(v, sizes{m, n}));
    for (std::size_t i = 0; i < m; ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            const T expected_column = a(i, j) + u(i, 0);
            const T expected_outer = u(i, 0) * v(j);
            EXPECT_EQ(std::memcmp(&column(i, j), &expected_column, sizeof(T)), 0) << i << ", " << j;
            EXPECT_EQ(std::memcmp(&outer(i, j), &expected_outer, sizeof(T)), 0) << i << ", " << j;
            EXPECT_EQ(std::memcmp(&materialised(i, j), &v(j), sizeof(T)), 0) << i << ", " << j;
        }
    }
}

TYPED_TEST(kernels, compound_expressions_keep_every_intermediate_rounding)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto a = random_array<T>({5, n}, 15);
        const auto b = random_array<T>({5, n}, 16);
        const auto u = random_array<T>({5, 1}, 17);
        const auto v = random_array<T>({n}, 18);
        // Products followed by sums: a fused multiply-add would round once instead of twice. Built for
        // an FMA target, GCC fuses xtensor's own loops unless -ffp-contract=off (docs/kernels.md).
        EXPECT_TRUE(matches_xtensor<T>(a * b + u));
        EXPECT_TRUE(matches_xtensor<T>(u - a * v));
        EXPECT_TRUE(matches_xtensor<T>((a - u) * v / T(3) + T(1)));
        EXPECT_TRUE(matches_xtensor<T>(-(a * v) + u * u - b));
        EXPECT_TRUE(matches_xtensor<T>(+a * (b + v) * (u + a)));
    }
}

TYPED_TEST(kernels, scalars_of_narrower_or_integer_types_are_converted_as_cpp_does)
{
    using T = TypeParam;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto a = random_array<T>({3, n}, 19);
        EXPECT_TRUE(matches_xtensor<T>(a * T(2.5)));
        EXPECT_TRUE(matches_xtensor<T>(3 - a));
        EXPECT_TRUE(matches_xtensor<T>(a / 7));
        EXPECT_TRUE(matches_xtensor<T>(a + 16777217));
        EXPECT_TRUE(matches_xtensor<T>(a * 1.5f));
        T s = T(0.1);
        EXPECT_TRUE(matches_xtensor<T>(a - s));
        EXPECT_TRUE(matches_xtensor<T>(-a));
    }
}

TYPED_TEST(kernels, special_values_pass_through_bitwise)
{
    using T = TypeParam;
    using limits = std::numeric_limits<T>;
    const std::vector<T> specials = {limits::quiet_NaN(),
                                     -limits::quiet_NaN(),
                                     limits::infinity(),
                                     -limits::infinity(),
                                     T(0),
                                     -T(0),
                                     limits::denorm_min(),
                                     -limits::denorm_min(),
                                     limits::min(),
                                     limits::max(),
                                     -limits::max(),
                                     T(1),
                                     T(-1),
                                     limits::epsilon()};
    const std::size_t n = specials.size();
    xt::xarray<T> a = xt::xarray<T>::from_shape({n, n});
    xt::xarray<T> b = xt::xarray<T>::from_shape({n, n});
    for (std::size_t i = 0; i < n; ++i)
    {
        for (std::size_t j = 0; j < n; ++j)
        {
            a(i, j) = specials[i];
            // IEEE 754 leaves open which NaN an operation on two NaNs returns (compilers swap the
            // operands of + and *), so `b` has none: every NaN below comes from `a` alone.
            b(i, j) = std::isnan(specials[j]) ? T(2) : specials[j];
        }
    }
    const xt::xarray<T> u = xt::view(a, xt::all(), xt::range(0, 1));
    const xt::xarray<T> v = xt::view(b, 0, xt::all());
    EXPECT_TRUE(matches_xtensor<T>(a + b));
    EXPECT_TRUE(matches_xtensor<T>(a - b));
    EXPECT_TRUE(matches_xtensor<T>(a * b));
    EXPECT_TRUE(matches_xtensor<T>(a / b));
    EXPECT_TRUE(matches_xtensor<T>(u * v));
    EXPECT_TRUE(matches_xtensor<T>(u / v - a));
    EXPECT_TRUE(matches_xtensor<T>(-b));
}

TYPED_TEST(kernels, evaluations_large_enough_for_streaming_stores_match_xtensor_bitwise)
{
    // An output and an input of half the streaming threshold each; an odd row length and an output
    // starting one element into its buffer leave unaligned heads and partial tails on every row.
    using T = TypeParam;
    const std::size_t m = 601;
    const std::size_t n = (xn::detail::streaming_min_bytes() / 2 / sizeof(T) / m + 2) | 1;
    ASSERT_GE(2 * m * n * sizeof(T), xn::detail::streaming_min_bytes());
    const auto a = random_array<T>({m, n}, 69);
    const auto u = random_array<T>({m, 1}, 70);
    const auto v = random_array<T>({n}, 71);
    EXPECT_TRUE(matches_xtensor<T>(a + u));
    EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(a, sizes{m, n})));

    xt::xarray<T> big = xt::zeros<T>({m, n + 1});
    xt::xarray<T> expected = big;
    auto shifted = xt::view(big, xt::all(), xt::range(1, n + 1));
    ASSERT_TRUE(xn::detail::try_kernel_assign(shifted, a * v));
    auto expected_shifted = xt::view(expected, xt::all(), xt::range(1, n + 1));
    xt::noalias(expected_shifted) = a * v;
    EXPECT_TRUE(same_bits(big, expected));
}

/*************************************************
 * operands and outputs of every layout           *
 *************************************************/

TYPED_TEST(kernels, strided_views_as_operands_match_xtensor_bitwise)
{
    using T = TypeParam;
    using xt::placeholders::_;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto big = random_array<T>({9, 3 * n + 2}, 20);
        const auto last = static_cast<std::ptrdiff_t>(3 * n + 1);
        const auto v = random_array<T>({n}, 21);
        const auto every_other_row = xt::view(big, xt::range(1, _, 2), xt::range(0, n));
        const auto every_third_column = xt::view(big, xt::range(0, 4), xt::range(1, last, 3));
        const auto column = xt::view(big, xt::range(0, 4), xt::range(2, 3));
        EXPECT_TRUE(matches_xtensor<T>(every_other_row + v));
        EXPECT_TRUE(matches_xtensor<T>(every_third_column * v + every_other_row));
        EXPECT_TRUE(matches_xtensor<T>(every_third_column - column));
        EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(every_third_column, sizes{2, 4, n})));
        EXPECT_TRUE(matches_xtensor<T>(xt::strided_view(big, {xt::range(0, 4), xt::range(0, n)}) / v));
    }
}

TYPED_TEST(kernels, transposed_and_reversed_operands_match_xtensor_bitwise)
{
    using T = TypeParam;
    using xt::placeholders::_;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const auto a = random_array<T>({n, 6}, 22);
        const auto b = random_array<T>({6, n}, 23);
        const auto v = random_array<T>({n}, 24);
        EXPECT_TRUE(matches_xtensor<T>(xt::transpose(a) + b));
        EXPECT_TRUE(matches_xtensor<T>(xt::transpose(a) * v));
        EXPECT_TRUE(matches_xtensor<T>(xt::flip(b, 1) - v));
        EXPECT_TRUE(matches_xtensor<T>(xt::flip(b, 0) / b));
        EXPECT_TRUE(matches_xtensor<T>(xt::view(b, xt::range(_, _, -1), xt::range(_, _, -2)) + T(1)));
        EXPECT_TRUE(matches_xtensor<T>(xt::transpose(a)));
    }
}

TYPED_TEST(kernels, column_major_operands_and_outputs_match_xtensor_bitwise)
{
    using T = TypeParam;
    using column_major = xt::xarray<T, xt::layout_type::column_major>;
    for (std::size_t n : tail_sizes)
    {
        SCOPED_TRACE(n);
        const column_major a = random_array<T>({5, n}, 25);
        const auto b = random_array<T>({5, n}, 26);
        const column_major u = random_array<T>({5, 1}, 27);
        EXPECT_TRUE(matches_xtensor<T>(a + b));
        EXPECT_TRUE(matches_xtensor<T>(a * u));

        column_major expected;
        xt::noalias(expected) = b * u + a;
        auto actual = column_major::from_shape(expected.shape());
        ASSERT_TRUE(xn::detail::try_kernel_assign(actual, b * u + a));
        EXPECT_EQ(actual.strides(), expected.strides());
        EXPECT_TRUE(same_bits(actual, expected));
    }
}

TYPED_TEST(kernels, ranks_zero_to_four_match_xtensor_bitwise)
{
    using T = TypeParam;
    const xt::xarray<T> scalar0 = random_array<T>({}, 28);
    const auto vector1 = random_array<T>({17}, 29);
    const auto matrix2 = random_array<T>({4, 17}, 30);
    const auto cube3 = random_array<T>({3, 1, 17}, 31);
    const auto tensor4 = random_array<T>({2, 3, 4, 17}, 32);
    const auto middle = random_array<T>({3, 1, 1}, 33);
    EXPECT_TRUE(matches_xtensor<T>(scalar0 + scalar0));
    EXPECT_TRUE(matches_xtensor<T>(scalar0 * T(3)));
    EXPECT_TRUE(matches_xtensor<T>(vector1 - scalar0));
    EXPECT_TRUE(matches_xtensor<T>(matrix2 * vector1));
    EXPECT_TRUE(matches_xtensor<T>(cube3 + matrix2));
    EXPECT_TRUE(matches_xtensor<T>(tensor4 / cube3 - middle));
    EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(middle, sizes{2, 3, 4, 17})));
    EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(scalar0, sizes{2, 3, 4, 5})));
}

namespace
{
    /// A shape of `rank` axes ending in `inner`: short and long axes in turn before it (3, 2, 5, 2, 4).
    inline sizes mixed_shape(std::size_t rank, std::size_t inner)
    {
        const sizes outer = {3, 2, 5, 2, 4};
        sizes shape(outer.end() - static_cast<std::ptrdiff_t>(rank - 1), outer.end());
        shape.push_back(inner);
        return shape;
    }
} // namespace

TYPED_TEST(kernels, ranks_one_to_six_with_short_axes_between_long_ones_match_xtensor_bitwise)
{
    // Leaves contiguous or constant along the runs are stepped from run to run along the two axes
    // outside them, a constant one splatted afresh each time (a scale per channel of x (a, b, c, d, e),
    // an offset per e, a mean with a short axis of its own): every rank, runs short (in tiles) and long.
    using T = TypeParam;
    for (std::size_t rank = 1; rank <= 6; ++rank)
    {
        for (std::size_t n : {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 64})
        {
            const sizes shape = mixed_shape(rank, n);
            SCOPED_TRACE(shape_text(shape));
            const auto x = random_array<T>(shape, 60);
            const auto y = random_array<T>(shape, 61);
            EXPECT_TRUE(matches_xtensor<T>(x * T(3) - y));
            if (rank < 2)
            {
                continue;
            }
            const auto g = random_array<T>(only_axes(shape, {rank - 2}), 62);
            const auto k = random_array<T>(only_axes(shape, {0, rank - 1}), 63);
            EXPECT_TRUE(matches_xtensor<T>(x * g + k));
            EXPECT_TRUE(matches_xtensor<T>(k - x / g));
            if (rank < 3)
            {
                continue;
            }
            const auto m = random_array<T>(only_axes(shape, {0, rank - 3, rank - 1}), 64);
            EXPECT_TRUE(matches_xtensor<T>((x - m) * g));
        }
    }
}

TYPED_TEST(kernels, zero_size_shapes_give_empty_results_of_xtensors_shape)
{
    using T = TypeParam;
    const xt::xarray<T> empty_rows = xt::xarray<T>::from_shape({0, 5});
    const xt::xarray<T> empty_columns = xt::xarray<T>::from_shape({4, 0});
    const auto v = random_array<T>({5}, 34);
    const auto u = random_array<T>({4, 1}, 35);
    EXPECT_TRUE(matches_xtensor<T>(empty_rows + v));
    EXPECT_TRUE(matches_xtensor<T>(empty_columns * u));
    EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(v, sizes{0, 5})));
    EXPECT_TRUE(matches_xtensor<T>(xt::broadcast(u, sizes{3, 4, 0})));
}

TYPED_TEST(kernels, outputs_are_resized_as_xtensor_resizes_them)
{
    // evaluate_into sizes the output, the kernels then write it: they take only an output of the
    // expression's shape, and leave any other as it is.
    using T = TypeParam;
    const auto a = random_array<T>({4, 9}, 36);
    const auto u = random_array<T>({4, 1}, 37);

    xt::xarray<T> any_rank = random_array<T>({2, 2, 2}, 38);
    const xt::xarray<T> any_rank_before = any_rank;
    EXPECT_FALSE(xn::detail::try_kernel_assign(any_rank, a + u));
    EXPECT_TRUE(same_bits(any_rank, any_rank_before));
    xn::detail::evaluate_into(any_rank, a + u);
    EXPECT_TRUE(same_bits(any_rank, xtensor_value<T>(a + u)));

    xt::xtensor<T, 2> rank_two = xt::zeros<T>({1, 1});
    EXPECT_FALSE(xn::detail::try_kernel_assign(rank_two, a - u));
    EXPECT_EQ(rank_two(0, 0), T(0));
    xn::detail::evaluate_into(rank_two, a - u);
    EXPECT_TRUE(same_bits(rank_two, xtensor_value<T>(a - u)));
}

TYPED_TEST(kernels, outputs_that_cannot_take_the_shape_are_left_untouched)
{
    using T = TypeParam;
    const auto a = random_array<T>({4, 9}, 39);
    xt::xtensor<T, 3> rank_three = random_array<T>({1, 2, 3}, 40);
    const xt::xtensor<T, 3> before = rank_three;
    EXPECT_FALSE(xn::detail::try_kernel_assign(rank_three, a + a));
    EXPECT_TRUE(same_bits(rank_three, before));

    xt::xtensor_fixed<T, xt::xshape<2, 9>> fixed = xt::zeros<T>({2, 9});
    EXPECT_FALSE(xn::detail::try_kernel_assign(fixed, a * T(2)));
    EXPECT_TRUE(same_bits(fixed, xt::xarray<T>(xt::zeros<T>({2, 9}))));

    xt::xarray<T> big = xt::zeros<T>({6, 9});
    auto window = xt::view(big, xt::range(0, 3), xt::all());
    EXPECT_FALSE(xn::detail::try_kernel_assign(window, a + a));
    EXPECT_TRUE(same_bits(big, xt::xarray<T>(xt::zeros<T>({6, 9}))));
}

TYPED_TEST(kernels, strided_and_reversed_outputs_are_written_in_place)
{
    using T = TypeParam;
    using xt::placeholders::_;
    const auto a = random_array<T>({4, 17}, 41);
    const auto v = random_array<T>({17}, 42);
    xt::xarray<T> big = random_array<T>({8, 40}, 43);
    xt::xarray<T> expected = big;
    auto window = xt::view(big, xt::range(1, _, 2), xt::range(3, 37, 2));
    auto expected_window = xt::view(expected, xt::range(1, _, 2), xt::range(3, 37, 2));
    ASSERT_TRUE(xn::detail::try_kernel_assign(window, a * v));
    xt::noalias(expected_window) = a * v;
    EXPECT_TRUE(same_bits(big, expected));

    auto reversed = xt::flip(big, 1);
    auto expected_reversed = xt::flip(expected, 1);
    const auto b = random_array<T>({8, 40}, 44);
    ASSERT_TRUE(xn::detail::try_kernel_assign(reversed, b - T(1)));
    xt::noalias(expected_reversed) = b - T(1);
    EXPECT_TRUE(same_bits(big, expected));
}

TYPED_TEST(kernels, one_operation_on_operands_of_every_kind_runs_the_same_loops)
{
    // abs((a - u) * k) over containers of rank 2 and 3, an xt::xarray, views with offsets and a broadcast
    // scalar: the runs are compiled for the operations alone, and each gives xtensor's values.
    using T = TypeParam;
    const auto rank2 = random_array<T>({5, 19}, 50);
    const auto u = random_array<T>({19}, 51);
    const xt::xtensor<T, 2> a2 = rank2;
    const xt::xtensor<T, 1> u1 = u;
    const xt::xtensor<T, 3> a3 = random_array<T>({2, 5, 19}, 52);
    const xt::xtensor<T, 2> u2 = random_array<T>({3, 19}, 53);
    const T k = T(0.75);
    const auto on_containers = xt::abs((a2 - u1) * k);
    const auto on_rank3 = xt::abs((a3 - u1) * k);
    const auto on_xarrays = xt::abs((rank2 - u) * k);
    const auto on_views = xt::abs((xt::view(a3, 1) - xt::view(u2, 2)) * xt::broadcast(k, {5, 19}));

    using xn::detail::kernel_node;
    using xn::detail::kernel_run_node_t;
    using runs = kernel_run_node_t<kernel_node<T, decltype(on_containers)>>;
    EXPECT_TRUE((std::is_same<runs, kernel_run_node_t<kernel_node<T, decltype(on_rank3)>>>::value));
    EXPECT_TRUE((std::is_same<runs, kernel_run_node_t<kernel_node<T, decltype(on_xarrays)>>>::value));
    EXPECT_TRUE((std::is_same<runs, kernel_run_node_t<kernel_node<T, decltype(on_views)>>>::value));

    const auto check = [](const auto& e)
    {
        auto through_kernels = xt::xarray<T>::from_shape(e.shape());
        ASSERT_TRUE(xn::detail::try_kernel_assign(through_kernels, e));
        const xt::xarray<T> expected = e;
        EXPECT_TRUE(same_bits(through_kernels, expected));
    };
    check(on_containers);
    check(on_rank3);
    check(on_xarrays);
    check(on_views);
}

TYPED_TEST(kernels, trees_of_many_leaves_scalars_and_temporaries_read_each_leaf_where_it_is)
{
    // The collector keeps its leaves, their scalars and their temporaries in lists sized once for the
    // tree: 3, 15 and 10 leaves (more than it holds inline), scalars among them, the last with a
    // reducer's temporary read by rows in blocks, each against xtensor bit for bit.
    using T = TypeParam;
    const xt::xtensor<T, 2> a = random_array<T>({70, 37}, 60);
    const xt::xtensor<T, 2> b = random_array<T>({70, 37}, 61);
    const xt::xtensor<T, 1> u = random_array<T>({37}, 62);
    const xt::xtensor<T, 2> k = random_array<T>({70, 1}, 63);
    // The sums as the kernels fold them (their order is not xtensor's): the tree around them is checked.
    xt::xtensor<T, 2> row_sums = xt::xtensor<T, 2>::from_shape({70, 1});
    ASSERT_TRUE(xn::detail::try_kernel_assign(row_sums, xt::sum(a, {1}, xt::keep_dims)));
    const auto few = a * T(2) - u;
    const auto many =
        ((a - u) * T(0.5) + (b * k - T(1.5)) * (u + T(2))) / (k + T(3)) - (a * b + u * T(0.25)) + k;
    const auto with_temporary =
        (a - u) * T(0.5) + b * T(2) - xt::sum(a, {1}, xt::keep_dims) * T(1.5) + k * T(0.125) + u;
    const auto expected_with_temporary = (a - u) * T(0.5) + b * T(2) - row_sums * T(1.5) + k * T(0.125) + u;
    EXPECT_EQ((xn::detail::kernel_node<T, decltype(few)>::leaves), 3u);
    EXPECT_EQ((xn::detail::kernel_node<T, decltype(many)>::leaves), 15u);
    EXPECT_EQ((xn::detail::kernel_node<T, decltype(with_temporary)>::leaves), 10u);

    const auto check = [](const auto& e, const auto& reference)
    {
        xt::xtensor<T, 2> through_kernels = xt::xtensor<T, 2>::from_shape({70, 37});
        ASSERT_TRUE(xn::detail::try_kernel_assign(through_kernels, e));
        const xt::xtensor<T, 2> expected = reference;
        EXPECT_TRUE(same_bits(through_kernels, expected));
    };
    check(few, few);
    check(many, many);
    check(with_temporary, expected_with_temporary);
}

TYPED_TEST(kernels, strided_outputs_longer_than_a_chunk_are_written_whole)
{
    // Runs of a strided output are computed a chunk at a time and copied out: several chunks per run, the
    // last one partial, and an output that the expression reads at the same elements.
    using T = TypeParam;
    using xt::placeholders::_;
    const std::size_t n = 2 * xn::detail::kernel_chunk<T> + 37;
    const auto a = random_array<T>({3, n}, 47);
    const auto v = random_array<T>({n}, 48);
    xt::xarray<T> big = random_array<T>({3, 2 * n + 1}, 49);
    xt::xarray<T> expected = big;
    auto window = xt::view(big, xt::all(), xt::range(1, _, 2));
    auto expected_window = xt::view(expected, xt::all(), xt::range(1, _, 2));
    ASSERT_TRUE(xn::detail::try_kernel_assign(window, a * v - T(1)));
    xt::noalias(expected_window) = a * v - T(1);
    EXPECT_TRUE(same_bits(big, expected));

    ASSERT_TRUE(xn::detail::try_kernel_assign(window, window * v + window));
    const xt::xarray<T> updated = expected_window * v + expected_window;
    expected_window = updated;
    EXPECT_TRUE(same_bits(big, expected));
}

TYPED_TEST(kernels, an_output_read_in_place_is_updated_in_place)
{
    using T = TypeParam;
    const auto v = random_array<T>({33}, 45);
    xt::xarray<T> a = random_array<T>({5, 33}, 46);
    xt::xarray<T> expected = a;
    const T* storage = a.data();
    ASSERT_TRUE(xn::detail::try_kernel_assign(a, a * v + a));
    expected = expected * v + expected;
    EXPECT_TRUE(same_bits(a, expected));
    EXPECT_EQ(a.data(), storage);

    ASSERT_TRUE(xn::detail::try_kernel_assign(a, a));
    EXPECT_TRUE(same_bits(a, expected));
    ASSERT_TRUE(xn::detail::try_kernel_assign(a, xt::broadcast(a, sizes{5, 33})));
    EXPECT_TRUE(same_bits(a, expected));
}

TYPED_TEST(kernels, an_output_read_elsewhere_goes_through_a_temporary)
{
    using T = TypeParam;
    xt::xarray<T> square = random_array<T>({17, 17}, 47);
    xt::xarray<T> expected = square;
    ASSERT_TRUE(xn::detail::try_kernel_assign(square, xt::transpose(square) + T(1)));
    // xtensor's assignment without noalias goes through a temporary as well.
    expected = xt::transpose(expected) + T(1);
    EXPECT_TRUE(same_bits(square, expected));

    // An output that takes a new shape is never written while it is read: evaluate_into computes a new
    // container first.
    xt::xarray<T> row = random_array<T>({1, 33}, 48);
    xt::xarray<T> expected_row = row;
    xn::detail::evaluate_into(row, xt::broadcast(row, sizes{6, 33}));
    expected_row = xt::broadcast(expected_row, sizes{6, 33});
    EXPECT_TRUE(same_bits(row, expected_row));

    xt::xarray<T> column = random_array<T>({7, 1}, 49);
    xt::xarray<T> expected_sum = xt::sum(column, {0});
    xn::detail::evaluate_into(column, xt::sum(column, {0}));
    EXPECT_TRUE(same_bits(column, expected_sum));
}

/*************************************************
 * what the kernels leave to xtensor               *
 *************************************************/

TYPED_TEST(kernels, uncovered_expressions_are_refused_without_touching_the_output)
{
    using T = TypeParam;
    const auto a = random_array<T>({3, 5}, 64);
    const xt::xarray<T> before = random_array<T>({2, 2}, 65);
    const xt::xarray<int> integers = xt::ones<int>({3, 5});
    xt::xarray<T> out = before;
    // Functions the kernels do not know, xtensor's own amax (whose NaN handling depends on the order),
    // generators, and integer arithmetic.
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::fmod(a, T(2))));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::erf(a)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::amax(a, {0})));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, xt::sum(xt::fmod(a, T(2)), {0})));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, a + xt::arange<T>(5)));
    EXPECT_FALSE(xn::detail::try_kernel_assign(out, integers + integers));
    EXPECT_TRUE(same_bits(out, before));

    xt::xarray<int> integer_out = xt::zeros<int>({3, 5});
    EXPECT_FALSE(xn::detail::try_kernel_assign(integer_out, integers + integers));
    EXPECT_TRUE(xt::all(xt::equal(integer_out, 0)));
}

TEST(kernels_types, a_wider_scalar_computes_in_double_and_converts_as_xtensor_does)
{
    const xt::xarray<float> a = random_array<float>({3, 5}, 66);
    xt::xarray<float> out = xt::zeros<float>({3, 5});
    // float * double is a double expression: computed in double, rounded to float on the way out.
    EXPECT_TRUE(xn::detail::try_kernel_assign(out, a * 0.1));
    EXPECT_TRUE(same_bits(out, xtensor_value<float>(a * 0.1)));
    auto wide_out = xt::xarray<double>::from_shape({3, 5});
    EXPECT_TRUE(xn::detail::try_kernel_assign(wide_out, a + a));
    EXPECT_TRUE(same_bits(wide_out, xtensor_value<double>(a + a)));
}

TYPED_TEST(kernels, xn_assign_and_eval_give_xtensors_values_with_and_without_kernels)
{
    using T = TypeParam;
    const auto a = random_array<T>({7, 33}, 67);
    const auto u = random_array<T>({7, 1}, 68);
    xt::xarray<T> out;
    xn::assign(out, a * u - a);
    EXPECT_TRUE(same_bits(out, xtensor_value<T>(a * u - a)));
    xn::assign(out, xt::where(a > u, xt::maximum(a, u), -u));
    EXPECT_TRUE(same_bits(out, xtensor_value<T>(xt::where(a > u, xt::maximum(a, u), -u))));
    EXPECT_TRUE(same_bits(xn::eval(xt::sum(a + u, {0})), xtensor_value<T>(xt::sum(a + u, {0}))));
    EXPECT_TRUE(same_bits(xn::eval(xt::broadcast(u, sizes{7, 33})),
                          xtensor_value<T>(xt::broadcast(u, sizes{7, 33}))));
}
