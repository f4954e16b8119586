/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Bad input never writes out of bounds: the element count of a result is checked before any memory is
// sized by it; an output that must take a new shape gets it all at once or not at all; an output that
// cannot take a new shape is refused before it is touched; a reduction over no elements has a value on
// every path. Run under AddressSanitizer and UndefinedBehaviorSanitizer in the clang-sanitize preset.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XN_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(XN_TEST_ASAN)
#define XN_TEST_ASAN 1
#endif

#if defined(XN_TEST_ASAN)
// An allocation of terabytes fails with std::bad_alloc, as it does without the sanitizer, instead of
// stopping the program with a report.
extern "C" const char* __asan_default_options()
{
    return "allocator_may_return_null=1";
}
#endif

namespace xn = xt::named;

namespace
{
    /// An allocator that throws std::bad_alloc for an allocation of more than `limit` elements.
    template <class T>
    struct limited_allocator
    {
        using value_type = T;
        static inline std::size_t limit = std::numeric_limits<std::size_t>::max();

        limited_allocator() = default;

        template <class U>
        limited_allocator(const limited_allocator<U>&) noexcept
        {
        }

        T* allocate(std::size_t n)
        {
            if (n > limit)
            {
                throw std::bad_alloc();
            }
            return std::allocator<T>().allocate(n);
        }

        void deallocate(T* p, std::size_t n) noexcept
        {
            std::allocator<T>().deallocate(p, n);
        }

        template <class U>
        bool operator==(const limited_allocator<U>&) const noexcept
        {
            return true;
        }

        template <class U>
        bool operator!=(const limited_allocator<U>&) const noexcept
        {
            return false;
        }
    };

    using limited_array = xt::xarray_container<xt::uvector<double, limited_allocator<double>>,
                                               xt::layout_type::row_major, xt::svector<std::size_t, 4>>;

    /// Restores the allocator's limit at the end of a test.
    struct limit_guard
    {
        explicit limit_guard(std::size_t limit)
        {
            limited_allocator<double>::limit = limit;
        }

        ~limit_guard()
        {
            limited_allocator<double>::limit = std::numeric_limits<std::size_t>::max();
        }
    };

    template <class E>
    std::vector<std::size_t> shape_of(const E& e)
    {
        return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
    }
} // namespace

/*************************************************************
 * the element count of a result is checked before any sizing *
 *************************************************************/

TEST(bounds, an_outer_product_whose_element_count_overflows_is_refused_when_built)
{
    // (3) x (6148914691236517206) wraps to 2 elements: the output was resized to 2 and written far past.
    const xt::xarray<double> one = {1.};
    const xt::xarray<double> three = {1., 2., 3.};
    const auto huge = xn::name(xn::broadcast_to(one, {6148914691236517206LL}), {"y"});
    XN_EXPECT_THROW_MSG(xn::name(three, {"x"}) * huge, xn::shape_error,
                        "xn::operator*: the result (x, y) of shape (3, 6148914691236517206) has more "
                        "elements than a 64-bit size can count");
}

TEST(bounds, a_product_that_wraps_to_zero_is_refused_too)
{
    const xt::xarray<double> one = {1.};
    const auto wide = std::int64_t(1) << 32;
    const auto x = xn::name(xn::broadcast_to(one, {wide}), {"x"});
    const auto y = xn::name(xn::broadcast_to(one, {wide}), {"y"});
    XN_EXPECT_THROW_HAS(x + y, xn::shape_error,
                        {"xn::operator+", "(x, y)", "(4294967296, 4294967296)", "64-bit size"});
    // The stride to the left of an empty axis overflows too, though nothing is stored.
    const auto empty = xn::name(xt::xarray<double>::from_shape({0}), {"z"});
    XN_EXPECT_THROW_HAS((empty + x) * y, xn::shape_error,
                        {"(z, x, y)", "(0, 4294967296, 4294967296)", "stride"});
}

TEST(bounds, a_result_larger_than_any_object_is_refused_before_it_is_allocated)
{
    // 2^61 doubles count in 64 bits but take 2^64 bytes.
    const xt::xarray<double> one = {1.};
    const auto x = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 31}), {"x"});
    const auto y = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 30}), {"y"});
    const auto product = x * y;
    xt::xarray<double> out = {5.};
    XN_EXPECT_THROW_HAS(xn::assign(out, product), xn::shape_error, {"xn::assign", "bytes", "largest object"});
    EXPECT_EQ(out, (xt::xarray<double>{5.}));
}

TEST(bounds, a_result_too_large_for_a_named_output_is_named_in_the_output_order)
{
    // The output (y, x) would take the result's sizes in its own order: the message names that shape.
    const xt::xarray<double> one = {1.};
    const auto x = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 31}), {"x"});
    const auto y = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 30}), {"y"});
    xt::xarray<double> values = xt::xarray<double>::from_shape({1, 1});
    values(0, 0) = 5.;
    auto out = xn::name(values, {"y", "x"});
    XN_EXPECT_THROW_MSG(xn::assign(out, x * y), xn::shape_error,
                        "xn::assign: the result of shape (1073741824, 2147483648) holds 2305843009213693952 "
                        "elements of 8 bytes: more than the largest object, 9223372036854775807 bytes");
    EXPECT_EQ(shape_of(values), (std::vector<std::size_t>{1, 1}));
    EXPECT_EQ(values(0, 0), 5.);
}

TEST(bounds, a_reduction_too_large_for_a_named_output_is_named_in_the_output_order)
{
    // A reduction in another order than the output's is evaluated in its own order first: refused
    // before, with the shape the output would take.
    const xt::xarray<double> one = {1.};
    const auto x = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 31}), {"x"});
    const auto y = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 30}), {"y"});
    const auto z = xn::name(xn::broadcast_to(one, {std::int64_t(2)}), {"z"});
    xt::xarray<double> values = xt::xarray<double>::from_shape({1, 1});
    values(0, 0) = 5.;
    auto out = xn::name(values, {"y", "x"});
    XN_EXPECT_THROW_MSG(xn::assign(out, xn::sum(x * y * z, {"z"})), xn::shape_error,
                        "xn::assign: the result of shape (1073741824, 2147483648) holds 2305843009213693952 "
                        "elements of 8 bytes: more than the largest object, 9223372036854775807 bytes");
    EXPECT_EQ(shape_of(values), (std::vector<std::size_t>{1, 1}));
    EXPECT_EQ(values(0, 0), 5.);
}

/******************************************************
 * an output takes a new shape all at once, or not at all *
 ******************************************************/

TEST(bounds, a_failed_allocation_while_resizing_leaves_the_output_as_it_was)
{
    limited_array out = limited_array::from_shape({2, 2});
    std::fill(out.begin(), out.end(), 4.);
    const xt::xarray<double> values = xt::ones<double>({3, 3});
    const limit_guard guard(4);
    // xtensor sets the new shape before it allocates: after std::bad_alloc the output had the shape
    // (3, 3) and its old buffer of 4 elements.
    EXPECT_THROW(xn::assign(out, xn::name(values, {"x", "y"}) * 2.), std::bad_alloc);
    EXPECT_EQ(shape_of(out), (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(out.storage().size(), 4u);
    EXPECT_TRUE(xt::all(xt::equal(out, 4.)));
    EXPECT_THROW(xn::assign(out, values), std::bad_alloc);
    EXPECT_EQ(shape_of(out), (std::vector<std::size_t>{2, 2}));
}

TEST(bounds, a_failed_allocation_of_a_reduction_written_in_another_order_leaves_the_output_as_it_was)
{
    // The sums are written into a new container in the output's order, then moved in: the output keeps
    // its shape and elements when that container cannot be allocated.
    xt::xarray<double> values = xt::xarray<double>::from_shape({40, 30, 2});
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        values.flat(i) = double(i % 7);
    }
    const auto sums = xn::sum(xn::name(values, {"x", "y", "z"}), {"z"});
    limited_array out = limited_array::from_shape({2, 2});
    std::fill(out.begin(), out.end(), 4.);
    {
        const limit_guard guard(1000);
        auto named_out = xn::name(out, {"y", "x"});
        EXPECT_THROW(xn::assign(named_out, sums), std::bad_alloc);
    }
    EXPECT_EQ(shape_of(out), (std::vector<std::size_t>{2, 2}));
    EXPECT_TRUE(xt::all(xt::equal(out, 4.)));
    const limit_guard guard(1200);
    auto named_out = xn::name(out, {"y", "x"});
    xn::assign(named_out, sums);
    ASSERT_EQ(shape_of(out), (std::vector<std::size_t>{30, 40}));
    for (std::size_t x = 0; x < 40; ++x)
    {
        for (std::size_t y = 0; y < 30; ++y)
        {
            EXPECT_EQ(out(y, x), values(x, y, 0) + values(x, y, 1)) << x << ", " << y;
        }
    }
}

TEST(bounds, an_allocation_that_the_system_refuses_leaves_the_output_as_it_was)
{
    // 2^40 doubles: 8 TiB, which posix_memalign refuses.
    const xt::xarray<double> one = {1.};
    const auto big = xn::name(xn::broadcast_to(one, {std::int64_t(1) << 40}), {"x"});
    xt::xarray<double> out = {1., 2.};
    EXPECT_THROW(xn::assign(out, big + 1.), std::bad_alloc);
    EXPECT_EQ(out, (xt::xarray<double>{1., 2.}));
}

namespace
{
    /// A number whose addition throws when it meets `poison`.
    struct touchy
    {
        double value = 0;
        static constexpr double poison = 13.;

        friend touchy operator+(const touchy& a, const touchy& b)
        {
            if (a.value == poison || b.value == poison)
            {
                throw std::domain_error("touchy: poisoned addition");
            }
            return touchy{a.value + b.value};
        }
    };
} // namespace

TEST(bounds, an_element_operation_that_throws_midway_leaves_a_resized_output_as_it_was)
{
    xt::xarray<touchy> a = xt::xarray<touchy>::from_shape({4});
    for (std::size_t i = 0; i < 4; ++i)
    {
        a(i).value = i == 2 ? touchy::poison : double(i);
    }
    auto na = xn::name(a, {"x"});
    // A new shape: evaluated into a new container first, so the output keeps its shape and elements.
    xt::xarray<touchy> resized = xt::xarray<touchy>::from_shape({1});
    resized(0).value = 7.;
    EXPECT_THROW(xn::assign(resized, na + na), std::domain_error);
    ASSERT_EQ(resized.size(), 1u);
    EXPECT_EQ(resized(0).value, 7.);
    // The same shape: written in place, so the elements before the throw are written (the basic
    // guarantee, as xtensor's own assignment gives).
    xt::xarray<touchy> in_place = xt::xarray<touchy>::from_shape({4});
    for (auto& t : in_place)
    {
        t.value = -1.;
    }
    EXPECT_THROW(xn::assign(in_place, na + na), std::domain_error);
    EXPECT_EQ(in_place(0).value, 0.);
    EXPECT_EQ(in_place(3).value, -1.);
}

/*******************************************************
 * an output that cannot take a new shape is refused *
 *******************************************************/

TEST(bounds, a_view_of_another_shape_is_refused_before_it_is_touched)
{
    xt::xarray<double> backing = {1., 2., 3., 4., 5.};
    auto view = xt::view(backing, xt::range(0, 3));
    const xt::xarray<double> four = {10., 20., 30., 40.};
    XN_EXPECT_THROW_MSG(xn::assign(view, xn::name(four, {"x"}) + 1.), xn::shape_error,
                        "xn::assign: the output of shape (3) cannot be resized, and the expression has the "
                        "shape (4)");
    EXPECT_EQ(backing, (xt::xarray<double>{1., 2., 3., 4., 5.}));
    // Of the same shape, it is written.
    xn::assign(view, xn::name(xt::xarray<double>{7., 8., 9.}, {"x"}) * 2.);
    EXPECT_EQ(backing, (xt::xarray<double>{14., 16., 18., 4., 5.}));
}

TEST(bounds, an_adaptor_of_memory_it_does_not_own_is_refused_before_it_is_touched)
{
    std::vector<double> memory = {1., 2., 3., 4., 5.};
    auto adaptor = xt::adapt(memory.data(), memory.size(), xt::no_ownership(), std::vector<std::size_t>{5});
    const xt::xarray<double> four = {10., 20., 30., 40.};
    XN_EXPECT_THROW_MSG(xn::assign(adaptor, xn::name(four, {"x"})), xn::shape_error,
                        "xn::assign: the output of shape (5) cannot be resized, and the expression has the "
                        "shape (4)");
    // xtensor changed the adaptor's shape to (4) and kept its 5 elements.
    EXPECT_EQ(shape_of(adaptor), (std::vector<std::size_t>{5}));
    EXPECT_EQ(memory, (std::vector<double>{1., 2., 3., 4., 5.}));
}

TEST(bounds, an_adaptor_of_a_vector_takes_the_new_shape)
{
    std::vector<double> memory = {1., 2.};
    auto adaptor = xt::adapt(memory, std::vector<std::size_t>{2});
    xn::assign(adaptor, xn::name(xt::xarray<double>{1., 2., 3.}, {"x"}) * 3.);
    EXPECT_EQ(shape_of(adaptor), (std::vector<std::size_t>{3}));
    EXPECT_EQ(memory, (std::vector<double>{3., 6., 9.}));
}

/*****************************************************
 * reductions over no elements, on every path        *
 *****************************************************/

TEST(bounds, reductions_over_an_empty_axis_have_numpys_values_on_every_path)
{
    const xt::xarray<double> empty = xt::zeros<double>({0, 3});
    auto named = xn::name(empty, {"x", "y"});
    EXPECT_EQ(xn::eval(xn::prod(named, {"x"})).expression(), (xt::xarray<double>{1., 1., 1.}));
    const auto mean = xn::eval(xn::mean(named, {"x"}));
    EXPECT_TRUE(xt::all(xt::isnan(mean.expression())));
    // Integers and lazy operands: paths the kernels did not take before.
    const xt::xarray<int> empty_ints = xt::zeros<int>({0, 3});
    auto ints = xn::name(empty_ints, {"x", "y"});
    EXPECT_EQ(xn::eval(xn::sum(ints, {"x"})).expression(), (xt::xarray<int>{0, 0, 0}));
    EXPECT_EQ(xn::eval(xn::prod(ints, {"x"})).expression(), (xt::xarray<int>{1, 1, 1}));
    EXPECT_TRUE(xt::all(xt::isnan(xn::eval(xn::mean(ints, {"x"})).expression())));
    EXPECT_EQ(xn::eval(xn::sum(xn::exp(named), {"x"})).expression(), (xt::xarray<double>{0., 0., 0.}));
    EXPECT_EQ(xn::eval(xn::sum(xn::erf(named), {"x"})).expression(), (xt::xarray<double>{0., 0., 0.}));
    XN_EXPECT_THROW_HAS(xn::amax(named, {"x"}), xn::shape_error, {"xn::amax", "no elements"});
    XN_EXPECT_THROW_HAS(xn::nanmin(ints, {"x"}), xn::shape_error, {"xn::nanmin", "no elements"});
}
