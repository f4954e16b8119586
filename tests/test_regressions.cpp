/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Inputs that the fuzz targets (fuzz/) found, kept as tests once understood: each test names the target
// that found it and says what went wrong.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/expect_error.hpp"
#include "support/observed_new.hpp"

namespace xn = xt::named;

namespace
{
    // While set, operator new of this test program fails (a_failure_while_building_a_message_propagates).
    bool fail_allocations = false;
    // When not negative, the number of allocations that succeed before one fails.
    long long allocations_before_failure = -1;
    // Whether every allocation after that one fails too, until fail_allocations is reset.
    bool fail_from_then_on = false;
} // namespace

bool allow_allocation()
{
    if (allocations_before_failure == 0 && fail_from_then_on)
    {
        fail_allocations = true;
    }
    const bool fail = fail_allocations || allocations_before_failure == 0;
    if (allocations_before_failure >= 0)
    {
        --allocations_before_failure;
    }
    return !fail;
}

namespace
{
    xt::xarray<double> one()
    {
        return xt::xarray<double>(1.0);
    }

    xt::xarray<double> empty_gradient()
    {
        return xt::zeros<double>({std::size_t(0), std::size_t(2)});
    }

    /// Runs `assign(out)` on an output holding `old_values`, with its n-th allocation failing, for n = 0,
    /// 1, ... until it succeeds: each failure must be a std::bad_alloc after which the output has its
    /// shape, each element its old value or its new one; the success gives `new_values`.
    template <class T, class Assign>
    void expect_failures_to_leave_old_or_new_values(const xt::xarray<T>& old_values,
                                                    const xt::xarray<T>& new_values, const Assign& assign)
    {
        bool assigned = false;
        long long failures = 0;
        for (long long n = 0; !assigned && n < 500; ++n)
        {
            xt::xarray<T, xt::layout_type::row_major, std::allocator<T>> out = old_values;
            allocations_before_failure = n;
            try
            {
                assign(out);
                assigned = true;
            }
            catch (const std::bad_alloc&)
            {
                ++failures;
            }
            allocations_before_failure = -1;
            ASSERT_EQ(out.shape(), old_values.shape()) << "failing allocation " << n;
            for (std::size_t i = 0; i < out.size(); ++i)
            {
                const T want = assigned ? new_values.flat(i) : old_values.flat(i);
                EXPECT_TRUE(out.flat(i) == want || out.flat(i) == new_values.flat(i))
                    << "failing allocation " << n << ", element " << i << ": " << out.flat(i);
            }
        }
        EXPECT_TRUE(assigned);
        EXPECT_GT(failures, 0);
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

// fuzz_evaluate: an operation that reads a reduction by rows, with an empty axis besides, moves no byte;
// the size of its blocks of rows divided by that nothing (undefined behaviour, UBSan).
TEST(regressions, an_operation_of_an_empty_reduction_read_by_rows_evaluates_to_an_empty_array)
{
    const xt::xarray<double> x = xt::xarray<double>::from_shape({2, 0, 3});
    const auto nx = xn::name(x, {"a", "b", "c"});
    const auto r = xn::eval(xn::amin(nx, {"c"}) + 1.0);
    EXPECT_EQ(r.dims(), (xn::dims{"a", "b"}));
    EXPECT_EQ(r.shape(), (std::vector<std::size_t>{2, 0}));
}

// fuzz_evaluate: xn::assign refused an expression of another rank than a fixed shape's with a message
// that gave the output's rank, not its shape; every refusal of an output names both shapes.
TEST(regressions, an_assign_refusal_of_another_rank_names_the_fixed_shape)
{
    xt::xtensor_fixed<double, xt::xshape<3>> out = {7., 8., 9.};
    const xt::xarray<double> values = {1., 2.};
    XN_EXPECT_THROW_MSG(
        xn::assign(out, xn::sum(xn::name(values, {"x"}))), xn::shape_error,
        "xn::assign: the output of shape (3) has the static rank 1, and the expression has 0 axes, shape ()");
    EXPECT_EQ(out, (xt::xtensor_fixed<double, xt::xshape<3>>{7., 8., 9.}));
}

// fuzz_evaluate: xn::nanmax and xn::nanmin of int elements started from quiet_NaN(), which is 0 for
// int, so the nanmax of negative values (the nanmin of positive ones) was 0.
TEST(regressions, nanmax_and_nanmin_of_ints_start_from_the_extreme_values)
{
    const xt::xarray<int> negative = {{-9, -3}, {-4, -7}};
    const xt::xarray<int> positive = {{9, 3}, {4, 7}};
    EXPECT_EQ(xn::eval(xn::nanmax(xn::name(negative, {"x", "y"}), {"y"})).expression(),
              (xt::xarray<int>{-3, -4}));
    EXPECT_EQ(xn::eval(xn::nanmin(xn::name(positive, {"x", "y"}), {"y"})).expression(),
              (xt::xarray<int>{3, 4}));
    EXPECT_EQ(xn::eval(xn::nanmax(xn::name(negative, {"x", "y"}))).expression()(), -3);
    EXPECT_EQ(xn::eval(xn::nanmin(xn::name(positive, {"x", "y"}))).expression()(), 3);
    const xt::xarray<int> scalar(-9);
    EXPECT_EQ(xn::eval(xn::nanmax(xn::name(scalar, xn::dims(std::vector<std::string>{})))).expression()(),
              -9);
}

// fuzz_evaluate, with allocations failing: a std::bad_alloc while a message was built was swallowed by
// the string stream, and the error was thrown with its message cut short ("xn::assign: the"). The
// failure to allocate now propagates, as it does everywhere else.
TEST(regressions, a_failure_while_building_a_message_propagates)
{
    // Longer than a string keeps in place: the stream's buffer must grow.
    const std::string details(1000, 'x');
    const auto build = [&]
    {
        fail_allocations = true;
        try
        {
            auto message = xn::detail::concat("xn::assign: ", details);
            fail_allocations = false;
            return message;
        }
        catch (...)
        {
            fail_allocations = false;
            throw;
        }
    };
    EXPECT_THROW(build(), std::bad_alloc);
    EXPECT_EQ(xn::detail::concat("xn::assign: ", 3, " axes"), "xn::assign: 3 axes");
}

// fuzz_evaluate: the result of an operation was checked for strides up to the largest std::size_t, but
// xtensor keeps strides as std::ptrdiff_t: (0, 2, 6148914691236517206) holds no element, and its stride
// 2 * 6148914691236517206 overflowed when a container of that shape was made (UBSan: signed integer
// overflow in xtensor/xstrides.hpp).
TEST(regressions, a_stride_beyond_ptrdiff_max_is_refused_when_the_operation_is_built)
{
    const auto a = xn::name<xn::numpy>(xn::broadcast_to(one(), {std::int64_t(6148914691236517206)}), {"z"});
    const auto b = xn::name<xn::numpy>(xn::broadcast_to(one(), {0, 2, 1}), {"x", "y", "z"});
    XN_EXPECT_THROW_HAS(a + b, xn::shape_error, {"xn::operator+", "(0, 2, 6148914691236517206)", "stride"});
}

// fuzz_evaluate, with allocations failing: an xt::adapt of a std::vector that was to take a new shape
// grew its storage, then took the new shape, and a failure to allocate the strides after it left the
// new shape with the old strides (a rank 2 shape with rank 1 strides), its elements not yet written.
// An adaptor that fails to take a new shape now keeps its shape, strides and elements.
TEST(regressions, an_adaptor_that_fails_to_take_a_new_shape_keeps_its_shape_and_elements)
{
    const xt::xarray<double> a = {{1., 2., 3.}, {4., 5., 6.}};
    bool assigned = false;
    for (long long n = 0; !assigned && n < 100; ++n)
    {
        std::vector<double> storage = {7., 8.};
        auto out = xt::adapt(storage, std::vector<std::size_t>{2});
        allocations_before_failure = n;
        try
        {
            xn::assign(out, xn::name(a, {"x", "y"}) + 1.0);
            assigned = true;
        }
        catch (const std::bad_alloc&)
        {
        }
        allocations_before_failure = -1;
        if (!assigned)
        {
            ASSERT_EQ(out.shape(), (std::vector<std::size_t>{2})) << "failing allocation " << n;
            ASSERT_EQ(out.strides().size(), 1u) << "failing allocation " << n;
            EXPECT_GE(storage.size(), 2u) << "failing allocation " << n;
            EXPECT_EQ(out(0), 7.) << "failing allocation " << n;
            EXPECT_EQ(out(1), 8.) << "failing allocation " << n;
        }
        else
        {
            EXPECT_EQ(out, (xt::xarray<double>{{2., 3., 4.}, {5., 6., 7.}}));
        }
    }
    EXPECT_TRUE(assigned);
}

// fuzz_evaluate, with allocations failing: a deferred temporary (here the nanmean, read through a view
// that puts its axes in the output's order) makes its kernel job the first time it is asked anything,
// and the questions an evaluation asks while it gathers its operands (whether the rows can be computed
// apart, the bytes and memory they read) were noexcept. A failure to allocate that job called
// std::terminate. It now propagates, and the output keeps its shape, each element its old or new value.
TEST(regressions, a_failure_to_allocate_while_a_temporary_prepares_propagates)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // (w, x, y, z) = (2, 3, 2, 2): the nanmean over z has the dims (w, x, y); the output has (w, y, x).
    xt::xarray<double> a = xt::arange<double>(24.0);
    a.reshape({2, 3, 2, 2});
    a(0, 1, 0, 0) = nan;
    a(1, 2, 1, 1) = nan;
    const xt::xarray<double> old_values = -xt::arange<double>(1.0, 13.0).reshape({2, 2, 3});
    // A reference loop: the mean of the z values that are not NaN, at (w, y, x).
    xt::xarray<double> new_values = xt::zeros<double>({2, 2, 3});
    for (std::size_t w = 0; w < 2; ++w)
    {
        for (std::size_t x = 0; x < 3; ++x)
        {
            for (std::size_t y = 0; y < 2; ++y)
            {
                double sum = 0.0;
                int count = 0;
                for (std::size_t z = 0; z < 2; ++z)
                {
                    if (!std::isnan(a(w, x, y, z)))
                    {
                        sum += a(w, x, y, z);
                        ++count;
                    }
                }
                new_values(w, y, x) = sum / count;
            }
        }
    }
    const auto named_a = xn::name(a, {"w", "x", "y", "z"});
    expect_failures_to_leave_old_or_new_values(old_values, new_values,
                                               [&](auto& storage)
                                               {
                                                   auto out = xn::name(storage, {"w", "y", "x"});
                                                   xn::assign(out, xn::nanmean(named_a, {"z"}));
                                               });
}

// Found reading the code after the test above: the memory in which a block's rows are computed is given
// back to its thread's pool when the evaluation ends, and that pool grew in the destructor. Where
// computing the rows failed to allocate and every allocation after it failed too, giving it back while
// the std::bad_alloc unwound called std::terminate. The pool now makes room when the memory is taken.
TEST(regressions, a_failure_to_allocate_inside_a_block_gives_its_memory_back_without_allocating)
{
    // x - amax(x over c), computed a block of rows of n at a time; on a new thread, whose pool is empty.
    xt::xarray<double> x = xt::arange<double>(8.0 * 3 * 16 * 16);
    x.reshape({8, 3, 16, 16});
    xt::xarray<double> new_values = xt::zeros<double>(x.shape());
    for (std::size_t n = 0; n < 8; ++n)
    {
        for (std::size_t c = 0; c < 3; ++c)
        {
            for (std::size_t h = 0; h < 16; ++h)
            {
                for (std::size_t w = 0; w < 16; ++w)
                {
                    new_values(n, c, h, w) = x(n, c, h, w) - x(n, 2, h, w);
                }
            }
        }
    }
    const auto nx = xn::name(x, {"n", "c", "h", "w"});
    bool assigned = false;
    long long failures = 0;
    for (long long k = 0; !assigned && k < 500; ++k)
    {
        xt::xarray<double> storage = -xt::ones<double>(x.shape());
        std::thread evaluation(
            [&]
            {
                auto out = xn::name(storage, {"n", "c", "h", "w"});
                allocations_before_failure = k;
                fail_from_then_on = true;
                try
                {
                    xn::assign(out, nx - xn::amax(nx, {"c"}));
                    assigned = true;
                }
                catch (const std::bad_alloc&)
                {
                    ++failures;
                }
                fail_from_then_on = false;
                fail_allocations = false;
                allocations_before_failure = -1;
            });
        evaluation.join();
        ASSERT_EQ(storage.shape(), x.shape()) << "allocations failing from " << k;
        for (std::size_t i = 0; i < storage.size(); ++i)
        {
            ASSERT_TRUE(storage.flat(i) == -1.0 || storage.flat(i) == new_values.flat(i))
                << "allocations failing from " << k << ", element " << i << ": " << storage.flat(i);
        }
        if (assigned)
        {
            EXPECT_EQ(storage, new_values);
        }
    }
    EXPECT_TRUE(assigned);
    EXPECT_GT(failures, 0);
}

// fuzz_evaluate, with allocations failing: where the kernels do not cover a tree (here the nanmax of
// ints, read through a view that puts its axes in the output's order), xtensor's assignment evaluated it,
// and reached the deferred temporary's storage through a strided view's data_xbegin, which is noexcept:
// computing the temporary there and failing to allocate called std::terminate. The temporaries that
// such a tree reads are now computed before xtensor evaluates it.
TEST(regressions, a_failure_to_allocate_a_temporary_that_xtensor_reads_propagates)
{
    // (w, x, y, z) = (2, 3, 2, 2): the nanmax over z has the dims (w, x, y); the output has (w, y, x).
    xt::xarray<int> a = xt::arange<int>(24);
    a.reshape({2, 3, 2, 2});
    a(0, 1, 0, 1) = -7;
    a(1, 2, 1, 1) = -9;
    const xt::xarray<int> old_values = -xt::arange<int>(1, 13).reshape({2, 2, 3});
    xt::xarray<int> new_values = xt::zeros<int>({2, 2, 3});
    for (std::size_t w = 0; w < 2; ++w)
    {
        for (std::size_t x = 0; x < 3; ++x)
        {
            for (std::size_t y = 0; y < 2; ++y)
            {
                new_values(w, y, x) = std::max(a(w, x, y, 0), a(w, x, y, 1));
            }
        }
    }
    const auto named_a = xn::name(a, {"w", "x", "y", "z"});
    expect_failures_to_leave_old_or_new_values(old_values, new_values,
                                               [&](auto& storage)
                                               {
                                                   auto out = xn::name(storage, {"w", "y", "x"});
                                                   xn::assign(out, xn::nanmax(named_a, {"z"}));
                                               });
}

// Beside the test above: a join by label of a reduction (a deferred temporary, read through a view
// that puts its axes in the result's order) with allocations failing one at a time: each failure is a
// std::bad_alloc, and the join that succeeds has the values of both operands, NaN where one lacks the
// label. (The join reads an operand's memory through data(), which is noexcept; it now computes a
// deferred operand before, although no input here reaches data() with one not computed yet.)
TEST(regressions, a_failure_to_allocate_while_a_reduction_is_joined_by_label_propagates)
{
    const xt::xarray<double> x = {
        {{1., 9.}, {2., 3.}}, {{4., 8.}, {5., 6.}}, {{7., 0.}, {2., 1.}}}; // (w, c, n)
    const xt::xarray<double> y = {{10., 20., 30.}, {40., 50., 60.}};       // (n, w)
    const auto labelled = xn::name(x, {"w", "c", "n"}, {{"w", {0, 1, 2}}});
    const auto shifted = xn::name(y, {"n", "w"}, {{"w", {1, 2, 3}}});
    const auto join = [&]
    {
        return xn::eval(
            xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), shifted, xn::amax(labelled, {"c"})));
    };
    bool evaluated = false;
    long long failures = 0;
    for (long long n = 0; !evaluated && n < 500; ++n)
    {
        allocations_before_failure = n;
        try
        {
            const auto joined = join();
            allocations_before_failure = -1;
            evaluated = true;
            // y at (n, w) is at w = 1, 2, 3; amax over c at (w, n) at w = 0, 1, 2; NaN where one lacks w.
            ASSERT_EQ(joined.dims(), xn::dims({"n", "w"}));
            const auto& r = joined.expression();
            ASSERT_EQ(r.shape(), (std::vector<std::size_t>{2, 4}));
            EXPECT_TRUE(std::isnan(r(0, 0)));
            EXPECT_EQ(r(0, 1), 10. + 5.);
            EXPECT_EQ(r(0, 2), 20. + 7.);
            EXPECT_TRUE(std::isnan(r(0, 3)));
            EXPECT_EQ(r(1, 1), 40. + 8.);
            EXPECT_EQ(r(1, 2), 50. + 1.);
        }
        catch (const std::bad_alloc&)
        {
            ++failures;
        }
        allocations_before_failure = -1;
    }
    EXPECT_TRUE(evaluated);
    EXPECT_GT(failures, 0);
}
