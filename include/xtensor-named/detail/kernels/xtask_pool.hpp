/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XTASK_POOL_HPP
#define XTENSOR_NAMED_DETAIL_XTASK_POOL_HPP

// The threads that run the kernels' tasks in OpenMP builds. An OpenMP parallel region ends at a barrier
// that waits for every thread of its team: a thread that shares its core with another process arrives a
// time slice late, however little work it had, and the whole evaluation waits for it. Here the calling
// thread takes every task that no other thread has started, and waits only for those that other threads
// are running; a thread that wakes late finds nothing left and goes back to sleep.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "xtask_scope.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /**
             * A pool of threads that run the tasks [0, count) of one job at a time with the calling
             * thread. The tasks are cut into runs of equal length, one per thread, as an OpenMP static
             * schedule cuts them (the calling thread the first): a thread takes the same part of the data
             * in one job as in the next, which its cache may still hold. A thread done with its run takes
             * the tasks that others have not started. A job sent while another runs (from another thread
             * of the program, or from inside a task) runs on its calling thread alone.
             */
            class task_pool
            {
            public:

                /// The most threads a job runs on.
                static constexpr std::size_t max_threads = 256;

                task_pool() = default;
                ~task_pool();

                task_pool(const task_pool&) = delete;
                task_pool& operator=(const task_pool&) = delete;

                /// Calls `f(i)` for every i in [0, count) on the calling thread and at most `threads - 1`
                /// others; returns when all are done, rethrowing the first exception that a task threw.
                template <class F>
                void run(std::size_t count, std::size_t threads, const F& f);

            private:

                using call_type = void (*)(const void*, std::size_t);

                void start_workers(std::size_t workers);
                void work(std::size_t seat);
                void take_tasks(std::size_t seat, std::uint64_t epoch);
                bool run_one(std::size_t run, std::uint64_t epoch);

                static constexpr std::uint64_t closed = 0xffffffffu;

                // Each run's next task in the low half of its word, the job's epoch in the high half, the
                // low half `closed` once every task of the job is done. A thread runs a task when it moves
                // the low half on from a value it read. The job's fields are written after the job before
                // was closed and before its own epoch is published: a thread that read an older epoch
                // never takes a task of the new job.
                std::array<std::atomic<std::uint64_t>, max_threads> m_runs{};
                std::atomic<std::size_t> m_count{0};
                std::atomic<std::size_t> m_running{0};
                std::atomic<call_type> m_call{nullptr};
                std::atomic<const void*> m_context{nullptr};
                std::atomic<std::size_t> m_done{0};
                std::exception_ptr m_failure;

                std::atomic<bool> m_busy{false};
                std::atomic<std::uint32_t> m_epoch{0};
                std::mutex m_mutex;
                std::condition_variable m_wake;
                std::condition_variable m_finished;
                bool m_stop = false;
                std::vector<std::thread> m_workers;
            };

            /// The program's one task pool, its threads started as the first jobs ask for them.
            inline task_pool& shared_task_pool()
            {
                static task_pool pool;
                return pool;
            }

            /************************
             * task_pool, defined *
             ************************/

            inline task_pool::~task_pool()
            {
                {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    m_stop = true;
                }
                m_wake.notify_all();
                for (auto& worker : m_workers)
                {
                    worker.join();
                }
            }

            template <class F>
            inline void task_pool::run(std::size_t count, std::size_t threads, const F& f)
            {
                const std::size_t running = std::min({threads, count, max_threads});
                if (running <= 1 || count >= closed || kernel_in_task() || m_busy.exchange(true))
                {
                    for (std::size_t i = 0; i < count; ++i)
                    {
                        f(i);
                    }
                    return;
                }
                start_workers(running - 1);
                const std::uint32_t epoch = m_epoch + 1;
                const std::uint64_t high = std::uint64_t(epoch) << 32;
                m_count = count;
                m_running = running;
                m_call = [](const void* context, std::size_t i) { (*static_cast<const F*>(context))(i); };
                m_context = &f;
                m_done = 0;
                m_failure = nullptr;
                for (std::size_t r = 0; r < running; ++r)
                {
                    m_runs[r] = high | share_of(r, running, count).begin;
                }
                {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    m_epoch = epoch;
                }
                m_wake.notify_all();
                take_tasks(0, high);
                // A task that another thread runs is waited for asleep, after a short while (threads that
                // started together end together, and a sleeping thread wakes late): this core, idle, can
                // then take over a thread that another process keeps from its own.
                const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
                while (m_done != count && std::chrono::steady_clock::now() < until)
                {
                }
                if (m_done != count)
                {
                    std::unique_lock<std::mutex> lock(m_mutex);
                    m_finished.wait(lock, [&] { return m_done == count; });
                }
                for (std::size_t r = 0; r < running; ++r)
                {
                    m_runs[r] = high | closed;
                }
                std::exception_ptr failure = m_failure;
                m_busy = false;
                if (failure)
                {
                    std::rethrow_exception(failure);
                }
            }

            inline void task_pool::start_workers(std::size_t workers)
            {
                // Where the system starts no more threads, the calling thread takes the tasks of the
                // missing ones.
                try
                {
                    while (m_workers.size() < workers)
                    {
                        m_workers.emplace_back([this, seat = m_workers.size() + 1] { work(seat); });
                    }
                }
                catch (const std::system_error&)
                {
                }
            }

            /// Runs the tasks of the job of `epoch` (the high half): those of run `seat`, then those that
            /// the other threads have not started.
            inline void task_pool::take_tasks(std::size_t seat, std::uint64_t epoch)
            {
                const std::size_t running = m_running;
                for (std::size_t k = 0; k < running; ++k)
                {
                    while (run_one((seat + k) % running, epoch))
                    {
                    }
                }
            }

            /// Runs the next task of run `run` of the job of `epoch`, where one is left.
            inline bool task_pool::run_one(std::size_t run, std::uint64_t epoch)
            {
                if (run >= max_threads)
                {
                    return false;
                }
                std::uint64_t seen = m_runs[run];
                std::size_t count = 0;
                for (;;)
                {
                    count = m_count;
                    const std::size_t running = m_running;
                    if ((seen >> 32) != (epoch >> 32) || running == 0 ||
                        (seen & closed) >= share_of(run, running, count).end)
                    {
                        return false;
                    }
                    if (m_runs[run].compare_exchange_weak(seen, seen + 1))
                    {
                        break;
                    }
                }
                try
                {
                    const task_scope scope;
                    m_call.load()(m_context, static_cast<std::size_t>(seen & closed));
                }
                catch (...)
                {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    if (!m_failure)
                    {
                        m_failure = std::current_exception();
                    }
                }
                if (m_done.fetch_add(1) + 1 == count)
                {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    m_finished.notify_all();
                }
                return true;
            }

            inline void task_pool::work(std::size_t seat)
            {
                std::uint32_t seen = 0;
                for (;;)
                {
                    // A job that follows soon after the last one (the steps of one evaluation) is seen
                    // without sleeping; a thread yields its core meanwhile, to another process if one waits.
                    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
                    while (m_epoch == seen && std::chrono::steady_clock::now() < until)
                    {
                        std::this_thread::yield();
                    }
                    {
                        std::unique_lock<std::mutex> lock(m_mutex);
                        m_wake.wait(lock, [&] { return m_stop || m_epoch != seen; });
                        if (m_stop)
                        {
                            return;
                        }
                        seen = m_epoch;
                    }
                    if (seat < m_running)
                    {
                        take_tasks(seat, std::uint64_t(seen) << 32);
                    }
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
