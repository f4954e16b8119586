/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The kernels on several threads: how an evaluation is cut into shares, and that the values do not
// depend on the thread count. Built three times: as it is (one thread), with XTENSOR_USE_TBB
// (test_xkernel_threads_tbb) and with XTENSOR_USE_OPENMP (test_xkernel_threads_openmp), the last two with
// XTENSOR_NAMED_PARALLEL_MIN_BYTES=0 so that every evaluation is cut.

#include <atomic>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/kernel_oracle.hpp"
#include "support/observed_new.hpp"

#if defined(XTENSOR_USE_TBB)
#include <tbb/global_control.h>
#elif defined(XTENSOR_USE_OPENMP)
#include <omp.h>
#endif

namespace xn = xt::named;
using kernel_oracle::same_bits;

namespace
{
    /// Limits the kernels to `threads` threads while it lives.
    class thread_limit
    {
    public:
        explicit thread_limit(std::size_t threads)
#if defined(XTENSOR_USE_TBB)
            : m_control(tbb::global_control::max_allowed_parallelism, threads)
#endif
        {
#if defined(XTENSOR_USE_OPENMP) && !defined(XTENSOR_USE_TBB)
            m_previous = omp_get_max_threads();
            omp_set_num_threads(static_cast<int>(threads));
#else
            static_cast<void>(threads);
#endif
        }

        ~thread_limit()
        {
#if defined(XTENSOR_USE_OPENMP) && !defined(XTENSOR_USE_TBB)
            omp_set_num_threads(m_previous);
#endif
        }

        thread_limit(const thread_limit&) = delete;
        thread_limit& operator=(const thread_limit&) = delete;

    private:
#if defined(XTENSOR_USE_TBB)
        tbb::global_control m_control;
#elif defined(XTENSOR_USE_OPENMP)
        int m_previous = 1;
#endif
    };

    /// While set, operator new refuses every allocation on a thread other than the one that set it.
    std::atomic<bool> refusing_workers{false};
    std::thread::id refusing_from;

    /// Refuses allocations on the other threads while it lives.
    class refusal_on_workers
    {
    public:
        refusal_on_workers()
        {
            refusing_from = std::this_thread::get_id();
            refusing_workers = true;
        }

        ~refusal_on_workers()
        {
            refusing_workers = false;
        }

        refusal_on_workers(const refusal_on_workers&) = delete;
        refusal_on_workers& operator=(const refusal_on_workers&) = delete;
    };

    /// x + y, throwing for x above 900: a user's functor with no SIMD form, which xtensor assigns.
    struct throwing_sum
    {
        double operator()(double x, double y) const
        {
            if (x > 900.)
            {
                throw std::domain_error("throwing_sum: x above 900");
            }
            return x + y;
        }
    };
} // namespace

bool allow_allocation()
{
    return !refusing_workers || std::this_thread::get_id() == refusing_from;
}

TEST(kernel_threads, shares_cover_the_outer_axis_in_order_with_lengths_one_apart)
{
    for (std::size_t size = 1; size <= 40; ++size)
    {
        for (std::size_t shares = 1; shares <= size && shares <= 9; ++shares)
        {
            std::size_t next = 0;
            for (std::size_t b = 0; b < shares; ++b)
            {
                const auto range = xn::detail::share_of(b, shares, size);
                EXPECT_EQ(range.begin, next) << size << " in " << shares;
                const std::size_t length = range.end - range.begin;
                EXPECT_TRUE(length == size / shares || length == size / shares + 1)
                    << size << " in " << shares;
                next = range.end;
            }
            EXPECT_EQ(next, size);
        }
    }
}

TEST(kernel_threads, small_evaluations_and_builds_without_threads_stay_in_one_share)
{
    if (xn::detail::kernel_parallel_min_bytes > 0)
    {
        EXPECT_EQ(xn::detail::kernel_shares(xn::detail::kernel_parallel_min_bytes - 1, 100), 1u);
    }
    if (!xn::detail::kernel_threads_enabled)
    {
        EXPECT_EQ(xn::detail::kernel_thread_count(), 1u);
        EXPECT_EQ(xn::detail::kernel_shares(std::size_t(1) << 40, 100), 1u);
        return;
    }
    const thread_limit two(2);
    const std::size_t threads = xn::detail::kernel_thread_count();
    ASSERT_GE(threads, 1u);
    EXPECT_LE(threads, 2u);
    // Never more shares than positions along the outer axis, nor than threads.
    EXPECT_EQ(xn::detail::kernel_shares(std::size_t(1) << 40, 1), 1u);
    EXPECT_EQ(xn::detail::kernel_shares(std::size_t(1) << 40, 100), threads);
}

TEST(kernel_threads, a_large_evaluation_on_threads_is_cut_into_several_tasks_per_thread)
{
    if (!xn::detail::kernel_threads_enabled)
    {
        EXPECT_EQ(xn::detail::kernel_tasks(std::size_t(1) << 40, 100), 1u);
        return;
    }
    const thread_limit two(2);
    const std::size_t threads = xn::detail::kernel_thread_count();
    if (threads < 2)
    {
        GTEST_SKIP() << "one thread here";
    }
    constexpr std::size_t per_thread = xn::detail::kernel_tasks_per_thread;
    constexpr std::size_t min_bytes = xn::detail::kernel_task_min_bytes;
    EXPECT_EQ(xn::detail::kernel_tasks(std::size_t(1) << 40, 100), threads * per_thread);
    // No more tasks than positions along the outer axis, nor than the bytes allow; a share each at least.
    EXPECT_EQ(xn::detail::kernel_tasks(std::size_t(1) << 40, 5), 5u);
    EXPECT_EQ(xn::detail::kernel_tasks(3 * min_bytes, 100), 3u);
    EXPECT_EQ(xn::detail::kernel_tasks(min_bytes, 100), threads);
    EXPECT_EQ(xn::detail::kernel_tasks(std::size_t(1) << 40, 1), 1u);
}

TEST(kernel_threads, a_part_moves_every_offset_to_its_first_position)
{
    const std::vector<std::size_t> shape = {6, 4};
    xn::detail::kernel_layout layout(shape, 2);
    layout.stride(0, 0) = 4;
    layout.stride(1, 0) = 1;
    layout.stride(0, 1) = 0; // a row broadcast along axis 0
    layout.stride(1, 1) = 1;
    layout.offset(1) = 3;
    const auto part = layout.part(0, 2, 5);
    EXPECT_EQ(part.rank(), 2u);
    EXPECT_EQ(part.size(0), 3u);
    EXPECT_EQ(part.size(1), 4u);
    EXPECT_EQ(part.offset(0), 8);
    EXPECT_EQ(part.offset(1), 3);
    EXPECT_EQ(part.stride(0, 0), 4);
    EXPECT_EQ(part.stride(1, 1), 1);
}

TEST(kernel_threads, values_are_the_same_bit_for_bit_on_one_two_and_five_threads)
{
    // Above any threshold: (32, 3, 64, 64) doubles, 3 MiB an operand.
    const std::vector<std::size_t> shape = {32, 3, 64, 64};
    const auto x = kernel_oracle::random_array<double>(shape, 7);
    const auto m = kernel_oracle::random_array<double>({3}, 8);
    const auto s = kernel_oracle::random_array<double>({3}, 9);
    const auto nx = xn::name(x, {"n", "c", "h", "w"});
    const auto nm = xn::name(m, {"c"});
    const auto ns = xn::name(s, {"c"});
    const auto points = kernel_oracle::random_array<double>({200000, 3}, 10);
    const auto np = xn::name(points, {"n", "xyz"});
    // Channels last, and rows a thread's half of which is short where the whole is not (tiled_fold_of).
    const auto image = kernel_oracle::random_array<double>({8, 64, 64, 3}, 11);
    const auto ni = xn::name(image, {"n", "h", "w", "c"});
    const std::size_t length = 2 * xn::detail::simd::batch_size<double> + 2;
    const auto wide = kernel_oracle::random_array<double>({40000, length}, 12);
    const auto nwide = xn::name(wide, {"n", "k"});
    const auto narrow = kernel_oracle::random_array<double>({20000, length}, 13);
    const auto nnarrow = xn::name(narrow, {"n", "k"});
    const auto five = kernel_oracle::random_array<double>({16, 5, 4096}, 14);
    const auto nfive = xn::name(five, {"n", "c", "w"});
    const auto two_images = kernel_oracle::random_array<double>({2, 3, 128, 128}, 15);
    const auto ntwo = xn::name(two_images, {"n", "c", "h", "w"});
    const auto evaluate_on = [&](std::size_t threads)
    {
        const thread_limit limit(threads);
        std::vector<xt::xarray<double>> results;
        results.push_back(xn::eval((nx - nm) / ns).expression());
        results.push_back(xn::eval(xn::exp(nx * 1e-3) + nx).expression());
        results.push_back(xn::eval(xn::where(nx > nm, nx, nm * 2.)).expression());
        // Transposed in memory: the output's outer axis is another axis of the operand.
        results.push_back(xn::eval(nx.transpose({"w", "h", "c", "n"}) * 2.).expression());
        // Reductions: the results are shared out, each summed as on one thread; a fold of many terms
        // to few results is cut into parts of fixed length, folded together in order.
        results.push_back(xn::eval(xn::sum(nx, {"c"})).expression());
        results.push_back(xn::eval(xn::mean(nx, {"n", "h", "w"})).expression());
        results.push_back(xn::eval(xn::amax(nx, {"n", "h", "w"})).expression());
        results.push_back(xn::eval(xn::sum(np, {"n"})).expression());
        results.push_back(xn::eval(xn::sum(xn::sqrt(np * np), {"xyz"})).expression());
        results.push_back(xn::eval(xn::amax(nx, {"h"})).expression());
        results.push_back(xn::eval(xn::nanmean(nx, {"w"})).expression());
        results.push_back(xn::eval(xn::sum(nx)).expression());
        const auto e = xn::exp(nx - xn::amax(nx, {"c"}));
        results.push_back(xn::eval(e / xn::sum(e, {"c"})).expression());
        results.push_back(xn::eval(xn::amax(ni, {"n", "h", "w"})).expression());
        results.push_back(xn::eval(xn::mean(ni, {"n", "h", "w"})).expression());
        results.push_back(xn::eval(xn::sum(ni, {"c"})).expression());
        const auto f = xn::exp(ni - xn::amax(ni, {"c"}));
        results.push_back(xn::eval(f / xn::sum(f, {"c"})).expression());
        // Softmaxes whose blocks are shared out (one parallel region for the evaluation), reading a
        // reduction computed whole, in the tree and inside the sum: the calling thread computes it
        // first, for a block of no rows.
        results.push_back(xn::eval(e / xn::sum(e, {"c"}) - xn::mean(nx)).expression());
        const auto g = xn::exp(nx - xn::amax(nx, {"c"}) - xn::mean(nx, {"n", "c"}));
        results.push_back(xn::eval(g / xn::sum(g, {"c"})).expression());
        // Two images, a block each: as many blocks as threads, every one shared out.
        const auto e2 = xn::exp(ntwo - xn::amax(ntwo, {"c"}));
        results.push_back(xn::eval(e2 / xn::sum(e2, {"c"})).expression());
        // A mean read by the operation, its sums divided in place in each block (kernel_finish).
        results.push_back(xn::eval(nx - xn::mean(nx, {"c"})).expression());
        results.push_back(xn::eval(ntwo * xn::mean(ntwo, {"c", "w"})).expression());
        results.push_back(xn::eval(xn::sum(nwide, {"n"})).expression());
        results.push_back(xn::eval(xn::sum(nnarrow * 2. - nnarrow, {"n"})).expression());
        // Five results of a cut fold on two threads: shares of 3 and 2, taken part after part.
        results.push_back(xn::eval(xn::sum(nfive, {"n", "w"})).expression());
        return results;
    };
    const auto one = evaluate_on(1);
    const auto two = evaluate_on(2);
    // An odd count, more threads than this machine may have cores (OpenMP's pool takes them all; TBB's
    // arena stays at its own limit): shares of unequal length, parts cut as on one thread.
    const auto on_five = evaluate_on(5);
    ASSERT_EQ(one.size(), two.size());
    ASSERT_EQ(one.size(), on_five.size());
    for (std::size_t i = 0; i < one.size(); ++i)
    {
        SCOPED_TRACE(i);
        EXPECT_TRUE(same_bits(two[i], one[i]));
        EXPECT_TRUE(same_bits(on_five[i], one[i]));
    }
    // And against xtensor's own evaluation where the kernels' arithmetic is exact.
    const xt::xarray<double> expected =
        (x - xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis())) /
        xt::view(s, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    EXPECT_TRUE(same_bits(two[0], expected));
    // A sum over c by a plain loop, in the order the kernels add the three terms.
    xt::xarray<double> by_loop = xt::zeros<double>({shape[0], shape[2], shape[3]});
    for (std::size_t n = 0; n < shape[0]; ++n)
    {
        for (std::size_t h = 0; h < shape[2]; ++h)
        {
            for (std::size_t w = 0; w < shape[3]; ++w)
            {
                by_loop(n, h, w) = (x(n, 0, h, w) + x(n, 1, h, w)) + x(n, 2, h, w);
            }
        }
    }
    EXPECT_TRUE(kernel_oracle::within_ulps(two[4], by_loop, 1));
}

TEST(kernel_threads, evaluations_inside_a_share_stay_on_its_thread)
{
    const thread_limit two(2);
    const std::size_t outside = xn::detail::kernel_thread_count();
    EXPECT_EQ(outside, xn::detail::kernel_threads_enabled ? 2u : 1u);
    std::vector<std::size_t> inside(3, 0);
    xn::detail::share_out_blocks(3, 2,
                                 [&inside](std::size_t s) { inside[s] = xn::detail::kernel_thread_count(); });
    EXPECT_EQ(inside, (std::vector<std::size_t>{1, 1, 1}));
    EXPECT_EQ(xn::detail::kernel_thread_count(), outside);
    // An exception from a share leaves it as it came.
    EXPECT_THROW(xn::detail::share_out_blocks(2, 2, [](std::size_t) { throw std::runtime_error("share"); }),
                 std::runtime_error);
    EXPECT_EQ(xn::detail::kernel_thread_count(), outside);
}

#if defined(XTENSOR_USE_OPENMP) && !defined(XTENSOR_USE_TBB)
TEST(kernel_threads,
     evaluations_inside_a_task_of_the_pool_or_the_programs_own_parallel_region_stay_on_its_thread)
{
    const thread_limit two(2);
    std::vector<std::size_t> in_tasks(4, 0);
    xn::detail::for_each_task(4, [&in_tasks](std::size_t t)
                              { in_tasks[t] = xn::detail::kernel_thread_count(); });
    EXPECT_EQ(in_tasks, (std::vector<std::size_t>{1, 1, 1, 1}));

    // Each thread of the program's own region evaluates on its own, with the values of one thread.
    const auto a = kernel_oracle::random_array<double>({64, 1000}, 7);
    const auto u = kernel_oracle::random_array<double>({64, 1}, 8);
    const xt::xarray<double> expected = kernel_oracle::xtensor_value<double>((a - u) * u + a);
    std::vector<std::size_t> in_region(2, 0);
    std::vector<int> taken(2, 0);
    std::vector<xt::xarray<double>> values(2, xt::xarray<double>::from_shape({64, 1000}));
#pragma omp parallel num_threads(2)
    {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        in_region[t] = xn::detail::kernel_thread_count();
        taken[t] = xn::detail::try_kernel_assign(values[t], (a - u) * u + a);
    }
    EXPECT_EQ(in_region, (std::vector<std::size_t>{1, 1}));
    EXPECT_EQ(taken, (std::vector<int>{1, 1}));
    for (const auto& value : values)
    {
        EXPECT_TRUE(same_bits(value, expected));
    }
    EXPECT_EQ(xn::detail::kernel_thread_count(), 2u);
}
#endif

TEST(kernel_threads, an_exception_from_a_users_functor_reaches_the_caller)
{
    // 64 x 1000 elements, xtensor's assignment: under OpenMP its loop over elements without SIMD form
    // runs in a parallel region, which the exception must not leave.
    const thread_limit two(2);
    // Operands of one shape, contiguous: xtensor's linear loop.
    const xt::xarray<double> a = xt::arange<double>(64000.).reshape({64, 1000}) / 64.;
    const xt::xarray<double> b = xt::ones<double>({64, 1000});
    const auto na = xn::name(a, {"n", "x"});
    const auto nb = xn::name(b, {"n", "x"});
    const auto sum = xn::apply<xn::missing_dims>(throwing_sum{}, na, nb);
    EXPECT_THROW(xn::eval(sum), std::domain_error);
    xt::xarray<double> out = xt::zeros<double>({2, 2});
    EXPECT_THROW(xn::assign(out, sum), std::domain_error);
    EXPECT_EQ(out, (xt::xarray<double>{{0., 0.}, {0., 0.}}));
    // The same functor on values below 900 is evaluated.
    const xt::xarray<double> small = a / 100.;
    const auto fine = xn::eval(xn::apply<xn::missing_dims>(throwing_sum{}, xn::name(small, {"n", "x"}), nb));
    EXPECT_EQ(fine.expression(), xt::xarray<double>(small + 1.));
}

TEST(kernel_threads, an_exception_while_a_lazy_operand_is_evaluated_for_a_label_join_reaches_the_caller)
{
    const thread_limit two(2);
    const xt::xarray<double> a = xt::arange<double>(64000.).reshape({64, 1000}) / 64.;
    const xt::xarray<double> b = xt::ones<double>({64, 1000});
    xn::labels times(64);
    xn::labels shifted(64);
    for (std::size_t i = 0; i < 64; ++i)
    {
        times[i] = static_cast<std::int64_t>(i);
        shifted[i] = static_cast<std::int64_t>(i + 3);
    }
    const auto na = xn::name(a, {"t", "x"}, xn::coords{{"t", times}});
    const auto nb = xn::name(b, {"t", "x"}, xn::coords{{"t", times}});
    const auto lazy = xn::apply<xn::missing_dims>(throwing_sum{}, na, nb);
    const auto other = xn::name(a, {"t", "x"}, xn::coords{{"t", shifted}});
    EXPECT_THROW(xn::eval(xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), lazy, other)),
                 std::domain_error);
}

TEST(kernel_threads, a_failure_to_allocate_on_a_worker_thread_reaches_the_caller)
{
    // A sum's blocks take buffers on the threads that run them: refused there, the std::bad_alloc must
    // come out of the parallel region to the caller. In a build without threads every block runs here,
    // where nothing is refused, and the sums are computed.
    const thread_limit two(2);
    const xt::xarray<double> a = xt::arange<double>(800000.).reshape({200, 4000}) / 1000.;
    const auto na = xn::name(a, {"n", "x"});
    xt::xarray<double> out = xt::zeros<double>({2});
    bool refused = false;
    {
        const refusal_on_workers refusal;
        try
        {
            xn::assign(out, xn::sum(na, {"x"}));
        }
        catch (const std::bad_alloc&)
        {
            refused = true;
        }
    }
    if (refused)
    {
        // A new shape: the output is unchanged.
        EXPECT_EQ(out, (xt::xarray<double>{0., 0.}));
        EXPECT_TRUE(xn::detail::kernel_threads_enabled);
    }
    else
    {
        EXPECT_TRUE(kernel_oracle::within_ulps(out, xt::xarray<double>(xt::sum(a, {1})), 4));
    }
    // Evaluations go on once allocations are allowed again.
    const auto sums = xn::eval(xn::sum(na, {"x"}));
    EXPECT_TRUE(kernel_oracle::within_ulps(sums.expression(), xt::xarray<double>(xt::sum(a, {1})), 4));
}
