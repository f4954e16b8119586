/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The pool of threads that runs the kernels' tasks in OpenMP builds (detail/kernels/xtask_pool.hpp): every
// task once, the calling thread taking what no other thread started, exceptions, jobs sent at once. The
// header needs no thread library, so these run in every build (and under ThreadSanitizer, scripts/tsan).

#include <atomic>
#include <cstddef>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xtask_pool.hpp>

using xt::named::detail::task_pool;

namespace
{
    /// Runs a job of `count` tasks on `threads` threads of `pool`; each task's count of runs, and the
    /// threads that ran them.
    struct job_record
    {
        std::vector<std::atomic<int>> runs;
        std::set<std::thread::id> threads;
        std::mutex mutex;

        explicit job_record(std::size_t count) : runs(count) {}
    };

    void record_job(task_pool& pool, job_record& record, std::size_t threads)
    {
        pool.run(record.runs.size(), threads,
                 [&](std::size_t i)
                 {
                     ++record.runs[i];
                     std::lock_guard<std::mutex> lock(record.mutex);
                     record.threads.insert(std::this_thread::get_id());
                 });
    }
} // namespace

TEST(task_pool, runs_every_task_once_in_many_jobs_one_after_another)
{
    task_pool pool;
    for (std::size_t job = 0; job < 2000; ++job)
    {
        const std::size_t count = 1 + job % 13;
        const std::size_t threads = 1 + job % 4;
        job_record record(count);
        record_job(pool, record, threads);
        for (std::size_t i = 0; i < count; ++i)
        {
            ASSERT_EQ(record.runs[i].load(), 1) << "job " << job << ", task " << i << " of " << count;
        }
        ASSERT_LE(record.threads.size(), std::min(count, threads)) << "job " << job;
    }
}

TEST(task_pool, runs_a_job_of_no_tasks_and_of_one_task_on_the_calling_thread)
{
    task_pool pool;
    job_record none(0);
    record_job(pool, none, 4);
    EXPECT_TRUE(none.threads.empty());
    job_record one(1);
    record_job(pool, one, 4);
    EXPECT_EQ(one.runs[0].load(), 1);
    EXPECT_EQ(one.threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(task_pool, the_calling_thread_takes_every_task_that_no_other_thread_started)
{
    // A task that another thread runs waits until the calling thread has run all the others: it ends
    // only if the calling thread takes them, as it does when other threads are kept from their cores.
    task_pool pool;
    const auto caller = std::this_thread::get_id();
    for (int job = 0; job < 50; ++job)
    {
        const std::size_t count = 8;
        std::atomic<std::size_t> by_caller{0};
        std::atomic<std::size_t> elsewhere{0};
        pool.run(count, 2,
                 [&](std::size_t)
                 {
                     if (std::this_thread::get_id() == caller)
                     {
                         ++by_caller;
                         return;
                     }
                     ++elsewhere;
                     while (by_caller + elsewhere < count)
                     {
                         std::this_thread::yield();
                     }
                 });
        ASSERT_EQ(by_caller + elsewhere, count);
        ASSERT_LE(elsewhere.load(), 1u);
    }
}

TEST(task_pool, rethrows_the_first_exception_after_every_task_ran)
{
    task_pool pool;
    std::vector<std::atomic<int>> runs(6);
    try
    {
        pool.run(runs.size(), 2,
                 [&](std::size_t i)
                 {
                     ++runs[i];
                     if (i % 2 == 1)
                     {
                         throw std::runtime_error("task " + std::to_string(i));
                     }
                 });
        FAIL() << "no exception";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("task ", 0), 0u) << e.what();
    }
    for (const auto& r : runs)
    {
        EXPECT_EQ(r.load(), 1);
    }
    // The pool runs the next job as before.
    job_record record(5);
    record_job(pool, record, 2);
    for (const auto& r : record.runs)
    {
        EXPECT_EQ(r.load(), 1);
    }
}

TEST(task_pool, runs_a_job_sent_from_inside_a_task_on_that_task_s_thread)
{
    task_pool pool;
    std::vector<std::atomic<int>> inner_runs(4 * 5);
    std::atomic<bool> inner_elsewhere{false};
    pool.run(4, 2,
             [&](std::size_t i)
             {
                 const auto here = std::this_thread::get_id();
                 pool.run(5, 2,
                          [&, i, here](std::size_t j)
                          {
                              ++inner_runs[i * 5 + j];
                              if (std::this_thread::get_id() != here)
                              {
                                  inner_elsewhere = true;
                              }
                          });
             });
    for (const auto& r : inner_runs)
    {
        EXPECT_EQ(r.load(), 1);
    }
    EXPECT_FALSE(inner_elsewhere.load());
}

TEST(task_pool, runs_jobs_sent_by_several_threads_at_once)
{
    task_pool pool;
    std::vector<std::thread> senders;
    std::atomic<int> wrong{0};
    for (int s = 0; s < 4; ++s)
    {
        senders.emplace_back(
            [&pool, &wrong, s]
            {
                for (std::size_t job = 0; job < 300; ++job)
                {
                    job_record record(1 + (job + static_cast<std::size_t>(s)) % 9);
                    record_job(pool, record, 3);
                    for (const auto& r : record.runs)
                    {
                        if (r.load() != 1)
                        {
                            ++wrong;
                        }
                    }
                }
            });
    }
    for (auto& sender : senders)
    {
        sender.join();
    }
    EXPECT_EQ(wrong.load(), 0);
}
