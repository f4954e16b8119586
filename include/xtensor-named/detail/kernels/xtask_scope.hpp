/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XTASK_SCOPE_HPP
#define XTENSOR_NAMED_DETAIL_XTASK_SCOPE_HPP

// What the task pool (xtask_pool.hpp) and the kernels' threads (xkernel_threads.hpp) both need: how work
// is cut into parts of equal length, and whether this thread runs a part of a job on several threads,
// where whatever it starts stays on it.

#include <algorithm>
#include <cstddef>

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The positions [begin, end) of share `b` of `shares` over `size` positions: equal lengths,
            /// the first ones one longer.
            struct kernel_share
            {
                std::size_t begin;
                std::size_t end;
            };

            inline kernel_share share_of(std::size_t b, std::size_t shares, std::size_t size) noexcept
            {
                const std::size_t length = size / shares;
                const std::size_t longer = size % shares;
                const std::size_t begin = b * length + std::min(b, longer);
                return kernel_share{begin, begin + length + (b < longer ? 1 : 0)};
            }

            /// Whether this thread runs a task of a job on several threads (a task of the pool, a block
            /// shared out): a job or an evaluation it starts runs on this thread alone.
            inline bool& kernel_in_task() noexcept
            {
                thread_local bool in_task = false;
                return in_task;
            }

            /// Marks this thread as running a task while it lives.
            class task_scope
            {
            public:
                task_scope() noexcept
                {
                    kernel_in_task() = true;
                }

                ~task_scope()
                {
                    kernel_in_task() = m_outer;
                }

                task_scope(const task_scope&) = delete;
                task_scope& operator=(const task_scope&) = delete;

            private:
                bool m_outer = kernel_in_task();
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
