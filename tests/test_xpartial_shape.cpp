/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xcompat_xtensor.hpp>
#include <xtensor-named/xpartial_shape.hpp>

#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    using shape = xn::partial_shape;
    constexpr std::int64_t max_size = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t min_index = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t two_to_the_31 = std::int64_t(1) << 31;
    constexpr std::int64_t two_to_the_62 = std::int64_t(1) << 62;
    constexpr auto u = xn::unknown;
} // namespace

// TensorFlow's Shape, example by example
// ======================================

TEST(partial_shape_seed, unknown_size_is_minus_one)
{
    EXPECT_EQ(xn::unknown, -1);
    EXPECT_EQ(shape::of({2, -1}), shape::of({2, xn::unknown}));
}

TEST(partial_shape_seed, a_two_element_vector)
{
    const auto vector = shape::of({2});
    EXPECT_EQ(vector.rank(), 1);
    EXPECT_TRUE(vector.is_vector());
    EXPECT_FALSE(vector.is_scalar());
    EXPECT_FALSE(vector.is_matrix());
    EXPECT_EQ(vector.size(0), 2);
    EXPECT_EQ(vector.num_elements(), 2);
    EXPECT_EQ(vector.to_string(), "(2)");
}

TEST(partial_shape_seed, a_two_by_three_matrix)
{
    const auto matrix = shape::of({2, 3});
    EXPECT_EQ(matrix.rank(), 2);
    EXPECT_TRUE(matrix.is_matrix());
    EXPECT_FALSE(matrix.is_vector());
    EXPECT_EQ(matrix.size(0), 2);
    EXPECT_EQ(matrix.size(1), 3);
    EXPECT_EQ(matrix.num_elements(), 6);
    EXPECT_FALSE(matrix.has_unknown_dimension());
    EXPECT_TRUE(matrix.is_fully_known());
}

TEST(partial_shape_seed, a_batch_of_four_element_vectors_has_an_unknown_number_of_rows)
{
    const auto batch = shape::of({-1, 4});
    EXPECT_TRUE(batch.is_matrix());
    EXPECT_FALSE(batch.is_unknown());
    EXPECT_TRUE(batch.has_unknown_dimension());
    EXPECT_FALSE(batch.is_fully_known());
    EXPECT_EQ(batch.size(0), xn::unknown);
    EXPECT_EQ(batch.size(1), 4);
    EXPECT_EQ(batch.num_elements(), xn::unknown);
    EXPECT_EQ(batch.to_string(), "(?, 4)");
}

TEST(partial_shape_seed, of_nothing_is_the_scalar_shape)
{
    const auto scalar = shape::of({});
    EXPECT_EQ(scalar, shape::scalar());
    EXPECT_EQ(scalar, shape());
    EXPECT_TRUE(scalar.is_scalar());
    EXPECT_FALSE(scalar.is_vector());
    EXPECT_FALSE(scalar.is_unknown());
    EXPECT_EQ(scalar.rank(), 0);
    EXPECT_EQ(scalar.num_elements(), 1);
    EXPECT_EQ(scalar.to_string(), "()");
    EXPECT_TRUE(known_equal(scalar, shape::scalar()));
}

TEST(partial_shape_seed, num_dimensions_is_minus_one_zero_one_two)
{
    EXPECT_EQ(shape::unknown().rank(), -1);
    EXPECT_EQ(shape::scalar().rank(), 0);
    EXPECT_EQ(shape::of({5}).rank(), 1);
    EXPECT_EQ(shape::of({5, 6}).rank(), 2);
    EXPECT_EQ(shape::of({5, 6, 7}).rank(), 3);
    EXPECT_FALSE(shape::of({5, 6, 7}).is_matrix());
    EXPECT_FALSE(shape::of({5, 6, 7}).is_vector());
    EXPECT_FALSE(shape::of({5, 6, 7}).is_scalar());
}

TEST(partial_shape_seed, unknown_shape_has_no_known_number_of_axes)
{
    const auto s = shape::unknown();
    EXPECT_TRUE(s.is_unknown());
    EXPECT_TRUE(s.has_unknown_dimension());
    EXPECT_FALSE(s.is_fully_known());
    EXPECT_FALSE(s.is_scalar());
    EXPECT_FALSE(s.is_vector());
    EXPECT_FALSE(s.is_matrix());
    EXPECT_EQ(s.num_elements(), xn::unknown);
    EXPECT_EQ(s.to_string(), "<unknown>");
}

TEST(partial_shape_seed, size_of_an_unknown_shape_or_axis_is_unknown)
{
    EXPECT_EQ(shape::unknown().size(0), xn::unknown);
    EXPECT_EQ(shape::unknown().size(5), xn::unknown);
    EXPECT_EQ(shape::unknown().size(-1), xn::unknown);
    EXPECT_EQ(shape::of({3, -1}).size(1), xn::unknown);
}

TEST(partial_shape_seed, negative_index_counts_from_the_end)
{
    const auto s = shape::of({2, 3, 5});
    EXPECT_EQ(s.size(-1), 5);
    EXPECT_EQ(s.size(-2), 3);
    EXPECT_EQ(s.size(-3), 2);
}

TEST(partial_shape_seed, unknown_is_compatible_with_all_shapes)
{
    const auto any = shape::unknown();
    for (const auto& other : {shape::scalar(), shape::of({2}), shape::of({u, u}), shape::of({32, 784}),
                              shape::of({0, 1, 2, 3}), shape::unknown()})
    {
        EXPECT_TRUE(any.is_compatible_with(other)) << other;
        EXPECT_TRUE(other.is_compatible_with(any)) << other;
    }
}

TEST(partial_shape_seed, two_unknown_sizes_are_compatible_with_all_two_dimensional_shapes)
{
    const auto s = shape::of({u, u});
    EXPECT_TRUE(s.is_compatible_with(shape::of({32, 784})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({0, 1})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({u, 3})));
    EXPECT_TRUE(s.is_compatible_with(shape::unknown()));
    EXPECT_FALSE(s.is_compatible_with(shape::of({u})));
    EXPECT_FALSE(s.is_compatible_with(shape::of({u, u, u})));
    EXPECT_FALSE(s.is_compatible_with(shape::scalar()));
}

TEST(partial_shape_seed, thirty_two_by_unknown_is_compatible_with_two_dimensional_shapes_of_thirty_two_rows)
{
    const auto s = shape::of({32, u});
    EXPECT_TRUE(s.is_compatible_with(shape::of({32, 784})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({32, 1})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({u, u})));
    EXPECT_TRUE(s.is_compatible_with(shape::unknown()));
    EXPECT_FALSE(s.is_compatible_with(shape::of({32})));
    EXPECT_FALSE(s.is_compatible_with(shape::of({32, u, 1})));
    EXPECT_FALSE(s.is_compatible_with(shape::of({64, u})));
}

TEST(partial_shape_seed, a_known_shape_is_compatible_with_itself_and_its_partial_forms)
{
    const auto s = shape::of({32, 784});
    EXPECT_TRUE(s.is_compatible_with(s));
    EXPECT_TRUE(s.is_compatible_with(shape::of({32, 784})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({32, u})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({u, 784})));
    EXPECT_TRUE(s.is_compatible_with(shape::of({u, u})));
    EXPECT_TRUE(s.is_compatible_with(shape::unknown()));
    EXPECT_FALSE(s.is_compatible_with(shape::of({32, 1, 784})));
    EXPECT_FALSE(s.is_compatible_with(shape::of({u})));
}

TEST(partial_shape_seed, compatibility_is_not_transitive)
{
    const auto a = shape::of({32, 784});
    const auto middle = shape::unknown();
    const auto c = shape::of({4, 4});
    EXPECT_TRUE(a.is_compatible_with(middle));
    EXPECT_TRUE(middle.is_compatible_with(c));
    EXPECT_FALSE(a.is_compatible_with(c));
}

TEST(partial_shape_seed, compatibility_is_not_broadcasting)
{
    // Broadcasting would accept both; compatibility needs equal ranks and equal or unknown sizes.
    EXPECT_FALSE(shape::of({1, 3}).is_compatible_with(shape::of({4, 3})));
    EXPECT_FALSE(shape::of({3}).is_compatible_with(shape::of({4, 3})));
}

TEST(partial_shape_seed, sizes_are_compatible_when_equal_or_either_is_unknown)
{
    EXPECT_TRUE(shape::is_compatible(3, 3));
    EXPECT_TRUE(shape::is_compatible(u, 3));
    EXPECT_TRUE(shape::is_compatible(3, u));
    EXPECT_TRUE(shape::is_compatible(u, u));
    EXPECT_TRUE(shape::is_compatible(0, 0));
    EXPECT_FALSE(shape::is_compatible(3, 4));
    EXPECT_FALSE(shape::is_compatible(1, 4));
    EXPECT_FALSE(shape::is_compatible(0, 1));
}

TEST(partial_shape_seed, append_a_shape)
{
    EXPECT_EQ(shape::of({3, 4}).append(shape::of({1, 2})), shape::of({3, 4, 1, 2}));
}

TEST(partial_shape_seed, prepend_a_shape)
{
    EXPECT_EQ(shape::of({3, 4}).prepend(shape::of({1, 2})), shape::of({1, 2, 3, 4}));
}

TEST(partial_shape_seed, append_and_prepend_a_size)
{
    EXPECT_EQ(shape::of({3, 4}).append(5), shape::of({3, 4, 5}));
    EXPECT_EQ(shape::of({3, 4}).prepend(5), shape::of({5, 3, 4}));
    EXPECT_EQ(shape::scalar().append(7), shape::of({7}));
    EXPECT_EQ(shape::scalar().prepend(7), shape::of({7}));
    EXPECT_EQ(shape::of({3}).append(xn::unknown), shape::of({3, u}));
    EXPECT_EQ(shape::of({3}).prepend(xn::unknown), shape::of({u, 3}));
    EXPECT_EQ(shape::of({3}).append(0), shape::of({3, 0}));
}

TEST(partial_shape_seed, append_and_prepend_need_known_ranks)
{
    XN_EXPECT_THROW_MSG(shape::unknown().append(2), xn::shape_error,
                        "xn::partial_shape::append: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(shape::unknown().prepend(2), xn::shape_error,
                        "xn::partial_shape::prepend: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(shape::of({2}).append(shape::unknown()), xn::shape_error,
                        "xn::partial_shape::append: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(shape::unknown().append(shape::of({2})), xn::shape_error,
                        "xn::partial_shape::append: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(shape::of({2}).prepend(shape::unknown()), xn::shape_error,
                        "xn::partial_shape::prepend: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(shape::unknown().prepend(shape::of({2})), xn::shape_error,
                        "xn::partial_shape::prepend: the shape <unknown> has no known rank");
}

TEST(partial_shape_seed, equal_known_shapes_are_known_equal)
{
    const auto a = shape::of({2, 3});
    const auto b = shape::of({2, 3});
    EXPECT_TRUE(xn::known_equal(a, b));
    EXPECT_FALSE(xn::known_equal(a, shape::of({3, 2})));
    EXPECT_FALSE(xn::known_equal(a, shape::of({2, 3, 1})));
}

TEST(partial_shape_seed, shapes_with_unknown_sizes_are_never_known_equal_to_another)
{
    const auto a = shape::of({2, u});
    const auto b = shape::of({2, u});
    EXPECT_FALSE(xn::known_equal(a, b));
    EXPECT_FALSE(xn::known_equal(a, shape::of({2, 3})));
    EXPECT_FALSE(xn::known_equal(shape::of({2, 3}), a));
}

TEST(partial_shape_seed, unknown_shapes_are_never_known_equal_to_another)
{
    const auto a = shape::unknown();
    const auto b = shape::unknown();
    EXPECT_FALSE(xn::known_equal(a, b));
    EXPECT_FALSE(xn::known_equal(a, shape::scalar()));
}

TEST(partial_shape_seed, a_shape_always_equals_itself_even_if_unknown)
{
    const auto unknown_rank = shape::unknown();
    const auto unknown_size = shape::of({2, u});
    const auto known = shape::of({2, 3});
    EXPECT_TRUE(xn::known_equal(unknown_rank, unknown_rank));
    EXPECT_TRUE(xn::known_equal(unknown_size, unknown_size));
    EXPECT_TRUE(xn::known_equal(known, known));
}

TEST(partial_shape_seed, structural_equality_treats_unknowns_as_equal)
{
    EXPECT_TRUE(shape::of({2, u}) == shape::of({2, u}));
    EXPECT_TRUE(shape::unknown() == shape::unknown());
    EXPECT_FALSE(shape::of({2, u}) == shape::of({2, 3}));
    EXPECT_TRUE(shape::of({2, u}) != shape::of({2, 3}));
    EXPECT_FALSE(shape::unknown() == shape::scalar());
    EXPECT_FALSE(shape::scalar() == shape::unknown());
    EXPECT_FALSE(shape::of({2}) == shape::of({2, 2}));
    EXPECT_TRUE(shape::scalar() == shape::of({}));
}

TEST(partial_shape_seed, sub_shape_keeps_axes_from_begin_to_end)
{
    const auto s = shape::of({2, 3, 5, 7});
    EXPECT_EQ(s.sub_shape(1, 3), shape::of({3, 5}));
    EXPECT_EQ(s.sub_shape(0, 4), s);
    EXPECT_EQ(s.sub_shape(2, 2), shape::scalar());
    EXPECT_EQ(s.sub_shape(4, 4), shape::scalar());
    EXPECT_EQ(s.sub_shape(3, 4), shape::of({7}));
}

TEST(partial_shape_seed, take_keeps_the_first_n_axes)
{
    const auto s = shape::of({2, u, 5});
    EXPECT_EQ(s.take(0), shape::scalar());
    EXPECT_EQ(s.take(1), shape::of({2}));
    EXPECT_EQ(s.take(2), shape::of({2, u}));
    EXPECT_EQ(s.take(3), s);
}

TEST(partial_shape_seed, take_last_keeps_the_last_n_axes)
{
    const auto s = shape::of({2, u, 5});
    EXPECT_EQ(s.take_last(0), shape::scalar());
    EXPECT_EQ(s.take_last(1), shape::of({5}));
    EXPECT_EQ(s.take_last(2), shape::of({u, 5}));
    EXPECT_EQ(s.take_last(3), s);
}

TEST(partial_shape_seed, head_is_the_first_axis_as_a_vector_shape)
{
    EXPECT_EQ(shape::of({2, 3, 5}).head(), shape::of({2}));
    EXPECT_EQ(shape::of({u, 3}).head(), shape::of({u}));
    EXPECT_EQ(shape::of({4}).head(), shape::of({4}));
}

TEST(partial_shape_seed, tail_removes_the_first_axis)
{
    EXPECT_EQ(shape::of({2, 3, 5}).tail(), shape::of({3, 5}));
    EXPECT_EQ(shape::of({u, 3}).tail(), shape::of({3}));
    EXPECT_EQ(shape::of({4}).tail(), shape::scalar());
}

TEST(partial_shape_seed, sizes_is_a_copy_that_leaves_the_shape_unchanged)
{
    const auto s = shape::of({2, u});
    auto sizes = s.sizes();
    EXPECT_EQ(sizes, (std::vector<std::int64_t>{2, u}));
    sizes[0] = 9;
    EXPECT_EQ(s, shape::of({2, u}));
}

TEST(partial_shape_seed, sizes_of_an_unknown_shape_throws)
{
    XN_EXPECT_THROW_MSG(shape::unknown().sizes(), xn::shape_error,
                        "xn::partial_shape::sizes: the shape <unknown> has no known rank");
}

// Construction
// ============

TEST(partial_shape, is_built_from_a_vector_of_int)
{
    const auto s = shape::of(std::vector<int>{2, -1, 0});
    EXPECT_EQ(s, shape::of({2, u, 0}));
}

TEST(partial_shape, is_built_from_a_vector_of_size_t)
{
    EXPECT_EQ(shape::of(std::vector<std::size_t>{2, 3}), shape::of({2, 3}));
    EXPECT_EQ(shape::of(std::vector<std::size_t>{}), shape::scalar());
}

TEST(partial_shape, is_built_from_a_std_array)
{
    EXPECT_EQ(shape::of(std::array<long, 3>{4, 5, 6}), shape::of({4, 5, 6}));
    EXPECT_EQ(shape::of(std::array<std::size_t, 0>{}), shape::scalar());
    EXPECT_EQ(shape::of(std::array<short, 2>{-1, 7}), shape::of({u, 7}));
}

TEST(partial_shape, is_built_from_other_integer_types)
{
    EXPECT_EQ(shape::of(std::vector<std::int8_t>{-1, 127}), shape::of({u, 127}));
    EXPECT_EQ(shape::of(std::vector<std::uint8_t>{255, 0}), shape::of({255, 0}));
    EXPECT_EQ(shape::of(std::vector<unsigned>{4000000000u}), shape::of({4000000000}));
    EXPECT_EQ(shape::of(std::vector<std::int64_t>{max_size}), shape::of({max_size}));
}

TEST(partial_shape, is_built_from_an_xarray_shape)
{
    const xt::xarray<double> a = xt::zeros<double>({2, 3, 4});
    EXPECT_EQ(shape::of(a.shape()), shape::of({2, 3, 4}));
    const xt::xarray<double> empty = xt::zeros<double>({0, 5});
    EXPECT_EQ(shape::of(empty.shape()), shape::of({0, 5}));
}

TEST(partial_shape, is_built_from_an_xtensor_shape)
{
    const xt::xtensor<float, 2> a = xt::ones<float>({7, 1});
    EXPECT_EQ(shape::of(a.shape()), shape::of({7, 1}));
    const xt::xtensor<float, 0> scalar = 3.f;
    EXPECT_EQ(shape::of(scalar.shape()), shape::scalar());
}

TEST(partial_shape, negative_sizes_other_than_unknown_are_rejected)
{
    XN_EXPECT_THROW_MSG(
        shape::of({2, -2}), xn::shape_error,
        "xn::partial_shape::of: size -2 at axis 1 is negative (only xn::unknown, -1, marks an "
        "unknown size)");
    XN_EXPECT_THROW_HAS(shape::of(std::vector<int>{std::numeric_limits<int>::min()}), xn::shape_error,
                        {"xn::partial_shape::of", "-2147483648", "axis 0"});
    XN_EXPECT_THROW_HAS(shape::of({min_index}), xn::shape_error,
                        {"xn::partial_shape::of", "-9223372036854775808", "axis 0"});
    XN_EXPECT_THROW_HAS(shape::of(std::vector<std::int8_t>{3, -128}), xn::shape_error,
                        {"xn::partial_shape::of", "size -128 at axis 1"});
}

TEST(partial_shape, unsigned_sizes_above_the_largest_signed_size_are_rejected)
{
    const std::uint64_t too_large = static_cast<std::uint64_t>(max_size) + 1;
    XN_EXPECT_THROW_MSG(
        shape::of(std::vector<std::uint64_t>{2, too_large}), xn::shape_error,
        "xn::partial_shape::of: size 9223372036854775808 at axis 1 is larger than the largest "
        "size, 9223372036854775807");
    XN_EXPECT_THROW_HAS(shape::of(std::vector<std::size_t>{std::numeric_limits<std::size_t>::max()}),
                        xn::shape_error, {"18446744073709551615", "axis 0"});
    EXPECT_EQ(shape::of(std::vector<std::uint64_t>{static_cast<std::uint64_t>(max_size)}).size(0), max_size);
}

TEST(partial_shape, appending_a_negative_size_is_rejected)
{
    const auto s = shape::of({2, 3});
    XN_EXPECT_THROW_MSG(
        s.append(-2), xn::shape_error,
        "xn::partial_shape::append: size -2 at axis 2 is negative (only xn::unknown, -1, marks an "
        "unknown size)");
    XN_EXPECT_THROW_MSG(
        s.prepend(-5), xn::shape_error,
        "xn::partial_shape::prepend: size -5 at axis 0 is negative (only xn::unknown, -1, marks "
        "an unknown size)");
    XN_EXPECT_THROW_HAS(s.append(min_index), xn::shape_error, {"-9223372036854775808"});
    EXPECT_EQ(s, shape::of({2, 3}));
}

TEST(partial_shape, default_shape_is_the_scalar)
{
    const shape s;
    EXPECT_TRUE(s.is_scalar());
    EXPECT_FALSE(s.is_unknown());
}

// size(i)
// =======

TEST(partial_shape, size_accepts_every_index_from_minus_rank_to_rank_minus_one)
{
    const auto s = shape::of({2, 3, 5});
    EXPECT_EQ(s.size(0), 2);
    EXPECT_EQ(s.size(1), 3);
    EXPECT_EQ(s.size(2), 5);
    EXPECT_EQ(s.size(-3), 2);
}

TEST(partial_shape, size_out_of_range_throws_with_shape_and_index)
{
    const auto s = shape::of({2, 3, 5});
    XN_EXPECT_THROW_MSG(s.size(3), xn::shape_error,
                        "xn::partial_shape::size: axis 3 is out of range for (2, 3, 5) of rank 3");
    XN_EXPECT_THROW_MSG(s.size(-4), xn::shape_error,
                        "xn::partial_shape::size: axis -4 is out of range for (2, 3, 5) of rank 3");
    XN_EXPECT_THROW_HAS(s.size(max_size), xn::shape_error, {"axis 9223372036854775807", "(2, 3, 5)"});
    XN_EXPECT_THROW_HAS(s.size(min_index), xn::shape_error, {"axis -9223372036854775808", "(2, 3, 5)"});
}

TEST(partial_shape, size_of_a_scalar_is_always_out_of_range)
{
    XN_EXPECT_THROW_MSG(shape::scalar().size(0), xn::shape_error,
                        "xn::partial_shape::size: axis 0 is out of range for () of rank 0");
    XN_EXPECT_THROW_HAS(shape::scalar().size(-1), xn::shape_error, {"axis -1", "()"});
}

TEST(partial_shape, size_of_an_unknown_rank_is_unknown_for_every_index)
{
    EXPECT_EQ(shape::unknown().size(min_index), xn::unknown);
    EXPECT_EQ(shape::unknown().size(max_size), xn::unknown);
}

// num_elements()
// ==============

TEST(partial_shape, num_elements_multiplies_the_sizes)
{
    EXPECT_EQ(shape::of({2, 3, 5}).num_elements(), 30);
    EXPECT_EQ(shape::of({7}).num_elements(), 7);
    EXPECT_EQ(shape::of({1, 1, 1}).num_elements(), 1);
    EXPECT_EQ(shape::scalar().num_elements(), 1);
}

TEST(partial_shape, num_elements_is_zero_when_a_size_is_zero)
{
    EXPECT_EQ(shape::of({0}).num_elements(), 0);
    EXPECT_EQ(shape::of({3, 0, 4}).num_elements(), 0);
}

TEST(partial_shape, a_zero_anywhere_gives_zero_even_when_the_rest_would_overflow)
{
    EXPECT_EQ(shape::of({max_size, max_size, 0}).num_elements(), 0);
    EXPECT_EQ(shape::of({0, max_size, max_size}).num_elements(), 0);
    EXPECT_EQ(shape::of({max_size, 0, max_size}).num_elements(), 0);
}

TEST(partial_shape, num_elements_is_unknown_when_anything_is_unknown)
{
    EXPECT_EQ(shape::of({2, u}).num_elements(), xn::unknown);
    EXPECT_EQ(shape::of({u}).num_elements(), xn::unknown);
    EXPECT_EQ(shape::unknown().num_elements(), xn::unknown);
    // Unknown as soon as anything is unknown, a zero included.
    EXPECT_EQ(shape::of({0, u}).num_elements(), xn::unknown);
    EXPECT_EQ(shape::of({max_size, max_size, u}).num_elements(), xn::unknown);
}

TEST(partial_shape, num_elements_reaches_the_largest_size_without_overflow)
{
    EXPECT_EQ(shape::of({max_size}).num_elements(), max_size);
    EXPECT_EQ(shape::of({max_size, 1, 1}).num_elements(), max_size);
    EXPECT_EQ(shape::of({two_to_the_62, 1}).num_elements(), two_to_the_62);
    EXPECT_EQ(shape::of({two_to_the_31, two_to_the_31}).num_elements(), two_to_the_62);
    // 3037000499 is the largest integer whose square is at most 2^63 - 1;
    // 7 * 7 * 73 * 127 * 337 * 92737 * 649657 is 2^63 - 1 itself.
    EXPECT_EQ(shape::of({3037000499, 3037000499}).num_elements(), std::int64_t(9223372030926249001));
    EXPECT_EQ(shape::of({7, 7, 73, 127, 337, 92737, 649657}).num_elements(), max_size);
}

TEST(partial_shape, num_elements_throws_when_the_product_overflows)
{
    XN_EXPECT_THROW_MSG(
        shape::of({max_size, 2}).num_elements(), xn::shape_error,
        "xn::partial_shape::num_elements: the element count of (9223372036854775807, 2) overflows "
        "a 64-bit integer");
    XN_EXPECT_THROW_HAS(shape::of({3037000500, 3037000500}).num_elements(), xn::shape_error,
                        {"(3037000500, 3037000500)", "overflows"});
    XN_EXPECT_THROW_HAS(shape::of({std::int64_t(1) << 32, std::int64_t(1) << 32}).num_elements(),
                        xn::shape_error, {"overflows"});
    XN_EXPECT_THROW_HAS(shape::of({two_to_the_62, 2}).num_elements(), xn::shape_error, {"overflows"});
    XN_EXPECT_THROW_HAS(shape::of({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                   2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                   2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
                            .num_elements(),
                        xn::shape_error, {"overflows"});
    // One factor fewer is 2^62: fine.
    EXPECT_EQ(shape::of({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                         2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                         2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
                  .num_elements(),
              two_to_the_62);
}

TEST(partial_shape, one_more_factor_of_the_largest_size_overflows)
{
    XN_EXPECT_THROW_HAS(shape::of({7, 7, 73, 127, 337, 92737, 649657, 2}).num_elements(), xn::shape_error,
                        {"overflows"});
}

// sub_shape, take, take_last, head, tail
// ======================================

TEST(partial_shape, sub_shape_rejects_ranges_outside_the_shape)
{
    const auto s = shape::of({2, 3, 5});
    XN_EXPECT_THROW_MSG(s.sub_shape(2, 1), xn::shape_error,
                        "xn::partial_shape::sub_shape: axes [2, 1) are not a range of (2, 3, 5) of rank 3 "
                        "(0 <= begin <= end <= rank)");
    XN_EXPECT_THROW_HAS(s.sub_shape(-1, 2), xn::shape_error, {"axes [-1, 2)", "(2, 3, 5)"});
    XN_EXPECT_THROW_HAS(s.sub_shape(0, 4), xn::shape_error, {"axes [0, 4)", "(2, 3, 5)"});
    XN_EXPECT_THROW_HAS(s.sub_shape(min_index, 0), xn::shape_error, {"[-9223372036854775808, 0)"});
    XN_EXPECT_THROW_HAS(s.sub_shape(0, max_size), xn::shape_error, {"[0, 9223372036854775807)"});
    XN_EXPECT_THROW_HAS(s.sub_shape(max_size, max_size), xn::shape_error, {"(2, 3, 5)"});
    XN_EXPECT_THROW_HAS(shape::scalar().sub_shape(0, 1), xn::shape_error, {"()"});
    EXPECT_EQ(shape::scalar().sub_shape(0, 0), shape::scalar());
}

TEST(partial_shape, take_rejects_counts_outside_zero_to_rank)
{
    const auto s = shape::of({2, 3});
    XN_EXPECT_THROW_MSG(s.take(3), xn::shape_error,
                        "xn::partial_shape::take: cannot take 3 leading axes of (2, 3) of rank 2");
    XN_EXPECT_THROW_MSG(s.take(-1), xn::shape_error,
                        "xn::partial_shape::take: cannot take -1 leading axes of (2, 3) of rank 2");
    XN_EXPECT_THROW_HAS(s.take(min_index), xn::shape_error, {"-9223372036854775808"});
    XN_EXPECT_THROW_HAS(s.take(max_size), xn::shape_error, {"9223372036854775807"});
}

TEST(partial_shape, take_last_rejects_counts_outside_zero_to_rank)
{
    const auto s = shape::of({2, 3});
    XN_EXPECT_THROW_MSG(s.take_last(3), xn::shape_error,
                        "xn::partial_shape::take_last: cannot take 3 trailing axes of (2, 3) of rank 2");
    XN_EXPECT_THROW_MSG(s.take_last(-1), xn::shape_error,
                        "xn::partial_shape::take_last: cannot take -1 trailing axes of (2, 3) of rank 2");
    XN_EXPECT_THROW_HAS(s.take_last(min_index), xn::shape_error, {"-9223372036854775808"});
    XN_EXPECT_THROW_HAS(s.take_last(max_size), xn::shape_error, {"9223372036854775807"});
}

TEST(partial_shape, head_of_a_scalar_throws_and_its_tail_is_the_scalar_as_in_tensorflow)
{
    XN_EXPECT_THROW_MSG(shape::scalar().head(), xn::shape_error,
                        "xn::partial_shape::head: the scalar shape () has no first axis");
    EXPECT_EQ(shape::scalar().tail(), shape::scalar());
    EXPECT_EQ(shape::of({7}).tail(), shape::scalar());
}

TEST(partial_shape, operations_needing_a_rank_throw_on_an_unknown_shape)
{
    const auto s = shape::unknown();
    XN_EXPECT_THROW_MSG(s.sub_shape(0, 0), xn::shape_error,
                        "xn::partial_shape::sub_shape: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(s.take(0), xn::shape_error,
                        "xn::partial_shape::take: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(s.take_last(1), xn::shape_error,
                        "xn::partial_shape::take_last: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(s.head(), xn::shape_error,
                        "xn::partial_shape::head: the shape <unknown> has no known rank");
    XN_EXPECT_THROW_MSG(s.tail(), xn::shape_error,
                        "xn::partial_shape::tail: the shape <unknown> has no known rank");
}

// merge_with and most_specific_compatible_shape
// =============================================

namespace
{
    struct merge_case
    {
        shape a;
        shape b;
        shape expected;
    };
} // namespace

TEST(partial_shape, merge_with_gives_the_most_specific_shape_both_can_be)
{
    const std::vector<merge_case> cases = {
        {shape::of({2, u}), shape::of({u, 3}), shape::of({2, 3})},
        {shape::of({u, u}), shape::of({2, 3}), shape::of({2, 3})},
        {shape::of({2, 3}), shape::of({2, 3}), shape::of({2, 3})},
        {shape::of({u, 3}), shape::of({u, 3}), shape::of({u, 3})},
        {shape::of({0, u}), shape::of({u, 0}), shape::of({0, 0})},
        {shape::unknown(), shape::of({2, u}), shape::of({2, u})},
        {shape::of({2, u}), shape::unknown(), shape::of({2, u})},
        {shape::unknown(), shape::unknown(), shape::unknown()},
        {shape::unknown(), shape::scalar(), shape::scalar()},
        {shape::scalar(), shape::scalar(), shape::scalar()},
        {shape::of({max_size, u}), shape::of({u, max_size}), shape::of({max_size, max_size})},
    };
    for (const auto& c : cases)
    {
        EXPECT_EQ(c.a.merge_with(c.b), c.expected) << c.a << " with " << c.b;
        EXPECT_EQ(c.b.merge_with(c.a), c.expected) << c.b << " with " << c.a;
    }
}

TEST(partial_shape, merge_with_throws_for_different_sizes)
{
    XN_EXPECT_THROW_MSG(
        shape::of({2}).merge_with(shape::of({3})), xn::shape_error,
        "xn::partial_shape::merge_with: cannot merge (2) with (3): axis 0 has size 2 in one and 3 in "
        "the other");
    XN_EXPECT_THROW_MSG(
        shape::of({u, 2, 7}).merge_with(shape::of({4, u, 8})), xn::shape_error,
        "xn::partial_shape::merge_with: cannot merge (?, 2, 7) with (4, ?, 8): axis 2 has size 7 in "
        "one and 8 in the other");
    // No broadcasting: 1 does not stretch.
    XN_EXPECT_THROW_HAS(shape::of({1, 3}).merge_with(shape::of({5, 3})), xn::shape_error,
                        {"axis 0 has size 1 in one and 5 in the other"});
    XN_EXPECT_THROW_HAS(shape::of({0}).merge_with(shape::of({1})), xn::shape_error, {"axis 0"});
}

TEST(partial_shape, merge_with_throws_for_different_ranks)
{
    XN_EXPECT_THROW_MSG(shape::of({2, 3}).merge_with(shape::of({2})), xn::shape_error,
                        "xn::partial_shape::merge_with: cannot merge (2, 3) of rank 2 with (2) of rank 1");
    XN_EXPECT_THROW_MSG(shape::scalar().merge_with(shape::of({u})), xn::shape_error,
                        "xn::partial_shape::merge_with: cannot merge () of rank 0 with (?) of rank 1");
}

TEST(partial_shape, most_specific_compatible_shape_keeps_what_both_agree_on)
{
    const std::vector<merge_case> cases = {
        {shape::of({2, 3}), shape::of({2, 3}), shape::of({2, 3})},
        {shape::of({2, 3}), shape::of({2, 4}), shape::of({2, u})},
        {shape::of({2, u}), shape::of({2, 3}), shape::of({2, u})},
        {shape::of({u, 3}), shape::of({u, 3}), shape::of({u, 3})},
        {shape::of({1}), shape::of({5}), shape::of({u})},
        {shape::of({0, 0}), shape::of({0, 1}), shape::of({0, u})},
        {shape::of({7, 8, 9}), shape::of({1, 2, 3}), shape::of({u, u, u})},
        {shape::of({2}), shape::of({2, 3}), shape::unknown()},
        {shape::scalar(), shape::of({1}), shape::unknown()},
        {shape::unknown(), shape::of({2}), shape::unknown()},
        {shape::of({2}), shape::unknown(), shape::unknown()},
        {shape::unknown(), shape::unknown(), shape::unknown()},
        {shape::scalar(), shape::scalar(), shape::scalar()},
    };
    for (const auto& c : cases)
    {
        EXPECT_EQ(c.a.most_specific_compatible_shape(c.b), c.expected) << c.a << " and " << c.b;
        EXPECT_EQ(c.b.most_specific_compatible_shape(c.a), c.expected) << c.b << " and " << c.a;
        EXPECT_TRUE(c.expected.is_compatible_with(c.a)) << c.expected << " and " << c.a;
        EXPECT_TRUE(c.expected.is_compatible_with(c.b)) << c.expected << " and " << c.b;
    }
}

// == and known_equal
// ==================

TEST(partial_shape, structural_equality_and_known_equal_differ_only_on_unknowns)
{
    struct equality_case
    {
        shape a;
        shape b;
        bool structural;
        bool known;
    };
    const std::vector<equality_case> cases = {
        {shape::of({2, 3}), shape::of({2, 3}), true, true},
        {shape::scalar(), shape::scalar(), true, true},
        {shape::of({2, 3}), shape::of({3, 2}), false, false},
        {shape::of({2, u}), shape::of({2, u}), true, false},
        {shape::of({u}), shape::of({u}), true, false},
        {shape::unknown(), shape::unknown(), true, false},
        {shape::unknown(), shape::scalar(), false, false},
        {shape::of({2, u}), shape::of({2, 3}), false, false},
        {shape::of({0}), shape::scalar(), false, false},
    };
    for (const auto& c : cases)
    {
        EXPECT_EQ(c.a == c.b, c.structural) << c.a << " == " << c.b;
        EXPECT_EQ(c.b == c.a, c.structural) << c.b << " == " << c.a;
        EXPECT_EQ(c.a != c.b, !c.structural) << c.a << " != " << c.b;
        EXPECT_EQ(xn::known_equal(c.a, c.b), c.known) << c.a << " known_equal " << c.b;
        EXPECT_EQ(xn::known_equal(c.b, c.a), c.known) << c.b << " known_equal " << c.a;
    }
}

TEST(partial_shape, a_copy_of_an_unknown_shape_is_not_known_equal_to_it)
{
    const auto a = shape::of({u, 2});
    const auto copy = a;
    EXPECT_TRUE(a == copy);
    EXPECT_FALSE(xn::known_equal(a, copy));
    EXPECT_TRUE(xn::known_equal(copy, copy));
}

// to_string and to_concrete
// =========================

TEST(partial_shape, to_string_writes_unknown_sizes_as_question_marks)
{
    EXPECT_EQ(shape::of({2, u}).to_string(), "(2, ?)");
    EXPECT_EQ(shape::of({u}).to_string(), "(?)");
    EXPECT_EQ(shape::of({0}).to_string(), "(0)");
    EXPECT_EQ(shape::of({1, 2, 3}).to_string(), "(1, 2, 3)");
    EXPECT_EQ(shape::of({max_size}).to_string(), "(9223372036854775807)");
    EXPECT_EQ(shape::scalar().to_string(), "()");
    EXPECT_EQ(shape::unknown().to_string(), "<unknown>");
    EXPECT_EQ(xn::to_string(shape::of({u, u})), "(?, ?)");
}

TEST(partial_shape, stream_output_is_to_string)
{
    std::ostringstream out;
    out << shape::of({2, u}) << ' ' << shape::unknown() << ' ' << shape::scalar();
    EXPECT_EQ(out.str(), "(2, ?) <unknown> ()");
}

TEST(partial_shape, to_concrete_gives_the_sizes_as_an_xtensor_shape)
{
    EXPECT_EQ(shape::of({2, 3, 0}).to_concrete(), (std::vector<std::size_t>{2, 3, 0}));
    EXPECT_EQ(shape::scalar().to_concrete(), std::vector<std::size_t>{});
    EXPECT_EQ(shape::of({max_size}).to_concrete(), (std::vector<std::size_t>{9223372036854775807u}));
    const xt::xarray<int> a(shape::of({2, 4}).to_concrete());
    EXPECT_EQ(a.size(), 8u);
}

TEST(partial_shape, to_concrete_throws_when_anything_is_unknown)
{
    XN_EXPECT_THROW_MSG(
        shape::of({2, u}).to_concrete(), xn::shape_error,
        "xn::partial_shape::to_concrete: the shape (2, ?) has unknown sizes where concrete sizes "
        "are needed");
    XN_EXPECT_THROW_MSG(
        shape::unknown().to_concrete(), xn::shape_error,
        "xn::partial_shape::to_concrete: the shape <unknown> has unknown sizes where concrete "
        "sizes are needed");
}

TEST(partial_shape, to_concrete_throws_when_the_element_count_overflows)
{
    XN_EXPECT_THROW_MSG(
        shape::of({max_size, 2}).to_concrete(), xn::shape_error,
        "xn::partial_shape::to_concrete: the element count of (9223372036854775807, 2) overflows "
        "a 64-bit integer");
    EXPECT_EQ(shape::of({max_size, 2, 0}).to_concrete(),
              (std::vector<std::size_t>{9223372036854775807u, 2, 0}));
}

TEST(partial_shape, to_concrete_throws_when_a_stride_overflows_even_without_elements)
{
    // (0, 2^62, 2^62) holds no element, but the stride of axis 0 would be 2^124.
    XN_EXPECT_THROW_HAS(shape::of({0, two_to_the_62, two_to_the_62}).to_concrete(), xn::shape_error,
                        {"xn::partial_shape::to_concrete", "(0, 4611686018427387904, 4611686018427387904)",
                         "axis 0", "overflows"});
    EXPECT_EQ(shape::of({0, two_to_the_62, two_to_the_62}).num_elements(), 0);
    EXPECT_EQ(shape::of({two_to_the_62, two_to_the_62, 0}).to_concrete(),
              (std::vector<std::size_t>{4611686018427387904u, 4611686018427387904u, 0}));
}

TEST(partial_shape, to_concrete_names_the_calling_operation)
{
    XN_EXPECT_THROW_MSG(shape::of({u}).to_concrete("eval"), xn::shape_error,
                        "xn::eval: the shape (?) has unknown sizes where concrete sizes are needed");
}
