/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_THREADS_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_THREADS_HPP

// Threads for the elementwise kernels, switched on as xtensor's own parallel assignment is: with
// XTENSOR_USE_TBB (TBB's scheduler and its thread count) or XTENSOR_USE_OPENMP (OpenMP's thread count,
// the work run by the calling thread and a pool of its own, xtask_pool.hpp). Without either, everything
// runs on the calling thread and this header includes no thread library.
//
// An evaluation is split into tasks along its outermost axis, a few per thread, each task evaluated as
// a whole evaluation of its own: every element is computed by the same instructions as on one thread, so
// the values are the same bit for bit. An evaluation by blocks of rows (kernel_collector::run_blocks)
// shares out its blocks instead (share_out_blocks), and what runs there stays on its thread. Evaluations that
// move fewer than XTENSOR_NAMED_PARALLEL_MIN_BYTES (the output and each operand read once) stay on one
// thread, where starting threads costs more than it saves.

#include <algorithm>
#include <cstddef>

#if defined(XTENSOR_USE_TBB)
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#elif defined(XTENSOR_USE_OPENMP)
#include <omp.h>

#include "xtask_pool.hpp"
#endif

#include "../../xcompat_xtensor.hpp"
#include "xtask_scope.hpp"

#ifndef XTENSOR_NAMED_PARALLEL_MIN_BYTES
#define XTENSOR_NAMED_PARALLEL_MIN_BYTES (std::size_t(256) << 10)
#endif

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Evaluations that move fewer bytes stay on one thread.
            constexpr std::size_t kernel_parallel_min_bytes = XTENSOR_NAMED_PARALLEL_MIN_BYTES;

            /// Whether the kernels were built with a thread library.
            constexpr bool kernel_threads_enabled =
#if defined(XTENSOR_USE_TBB) || defined(XTENSOR_USE_OPENMP)
                true;
#else
                false;
#endif

            /// The number of threads an evaluation may use now: TBB's or OpenMP's limit, or 1 inside a
            /// task (of the pool, or a block shared out: see share_out_blocks).
            inline std::size_t kernel_thread_count() noexcept
            {
                if (kernel_in_task())
                {
                    return 1;
                }
#if defined(XTENSOR_USE_TBB)
                return static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
#elif defined(XTENSOR_USE_OPENMP)
                // Inside a parallel region of the program's own, one thread, as a region nested there
                // would have.
                if (omp_get_active_level() >= omp_get_max_active_levels())
                {
                    return 1;
                }
                return static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
#else
                return 1;
#endif
            }

            /**
             * How many shares an evaluation of `bytes` moved, along an outermost axis of `outer` positions,
             * is split into: 1 below XTENSOR_NAMED_PARALLEL_MIN_BYTES or on one thread, else one per
             * thread (at most one per position).
             */
            inline std::size_t kernel_shares(std::size_t bytes, std::size_t outer) noexcept
            {
                if (!kernel_threads_enabled || bytes < kernel_parallel_min_bytes)
                {
                    return 1;
                }
                return std::max<std::size_t>(1, std::min(kernel_thread_count(), outer));
            }

            /// Tasks per thread that an evaluation on several threads is cut into: a thread whose core
            /// another process takes runs late, and the others take the tasks it has not started.
            constexpr std::size_t kernel_tasks_per_thread = 4;

            /// Each task moves this many bytes at least: each is an evaluation with a set-up of its own.
            constexpr std::size_t kernel_task_min_bytes = std::size_t(64) << 10;

            /**
             * How many tasks an evaluation of `bytes` moved, along an outermost axis of `outer` positions,
             * is cut into: one per share (kernel_shares), or up to kernel_tasks_per_thread per share where
             * the axis and the bytes allow it.
             */
            inline std::size_t kernel_tasks(std::size_t bytes, std::size_t outer) noexcept
            {
                const std::size_t shares = kernel_shares(bytes, outer);
                if (shares <= 1)
                {
                    return 1;
                }
                return std::max(shares, std::min({shares * kernel_tasks_per_thread, outer,
                                                  bytes / kernel_task_min_bytes}));
            }

            /// Calls `f(t)` for every task t in [0, tasks) on the threads there are (under OpenMP each
            /// thread takes a run of them first, under TBB each task goes to the next thread free: a
            /// thread whose core another process takes leaves its tasks to the others); returns when all
            /// are done.
            template <class F>
            inline void for_each_task(std::size_t tasks, const F& f)
            {
                if (tasks <= 1)
                {
                    f(std::size_t(0));
                    return;
                }
#if defined(XTENSOR_USE_TBB)
                tbb::parallel_for(
                    std::size_t(0), tasks, [&f](std::size_t t) { f(t); }, tbb::simple_partitioner());
#elif defined(XTENSOR_USE_OPENMP)
                shared_task_pool().run(tasks, kernel_thread_count(), f);
#else
                for (std::size_t t = 0; t < tasks; ++t)
                {
                    f(t);
                }
#endif
            }

            /**
             * Calls `f(i)` for every i in [0, count) on at most `threads` threads, at once (each i taken
             * by the next thread free under TBB, as a task of the pool under OpenMP); every evaluation
             * that `f` starts stays on its thread. An evaluation shared out so starts its threads once,
             * where each of its steps starting them would wait for every thread (on a busy core, a time
             * slice each), and a thread that shares its core with another process takes fewer of the
             * parts.
             */
            template <class F>
            inline void share_out_blocks(std::size_t count, std::size_t threads, const F& f)
            {
                const auto run = [&f](std::size_t i)
                {
                    const task_scope scope;
                    f(i);
                };
                if (threads <= 1 || count <= 1)
                {
                    for (std::size_t i = 0; i < count; ++i)
                    {
                        run(i);
                    }
                    return;
                }
#if defined(XTENSOR_USE_TBB)
                tbb::parallel_for(std::size_t(0), count, run, tbb::simple_partitioner());
#elif defined(XTENSOR_USE_OPENMP)
                shared_task_pool().run(count, threads, run);
#else
                for (std::size_t i = 0; i < count; ++i)
                {
                    run(i);
                }
#endif
            }

            /**
             * `xt::noalias(out) = e` for an `out` of `e`'s shape: xtensor's assignment, where the kernels
             * do not cover `e`, or where it is `small` (the short path, xshort_path.hpp). With threads,
             * xtensor's loops over contiguous elements run in a parallel region whatever the size (its
             * thresholds are 0): a small expression is assigned by its loop over steppers instead, on
             * the calling thread. So is, under OpenMP, an expression without a SIMD form (one that calls
             * a user's functor, through xn::apply), whose exceptions could not leave the parallel region
             * without ending the program; here they reach the caller. TBB delivers them itself.
             */
            template <class O, class E>
            inline void assign_by_xtensor(O& out, const E& e, bool small)
            {
#if defined(XTENSOR_USE_OPENMP) || defined(XTENSOR_USE_TBB)
                bool calling_thread = small;
#if defined(XTENSOR_USE_OPENMP)
                calling_thread = calling_thread || !xt::xassign_traits<O, E>::simd_assign();
#endif
                if (calling_thread &&
                    std::equal(out.shape().begin(), out.shape().end(), e.shape().begin(), e.shape().end()))
                {
                    xt::assign_data(out, e, false);
                    return;
                }
#else
                static_cast<void>(small);
#endif
                xt::noalias(out) = e;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
