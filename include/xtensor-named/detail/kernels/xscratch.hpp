/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XSCRATCH_HPP
#define XTENSOR_NAMED_DETAIL_XSCRATCH_HPP

// The kernels' one pool of scratch memory: tiles, runs of partial results, and the rows of deferred
// temporaries that a block computes without keeping them.

#include <cstddef>
#include <memory>
#include <vector>

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /**
             * Uninitialised memory of at least `bytes` bytes, aligned to a cache line (and so for any SIMD
             * batch), taken from this thread's pool and given back when it goes. Evaluations made one
             * after another (a block of rows, a fold runner per block, a series of small evaluations) then
             * allocate and fault in no new memory: allocating tens of kilobytes each time made glibc's
             * malloc consolidate its free lists each time, which cost more than summing a small block.
             * An evaluation inside another's block takes memory of its own.
             */
            class scratch_buffer
            {
            public:

                explicit scratch_buffer(std::size_t bytes)
                {
                    auto& pool = free_buffers();
                    // The destructor gives the buffer back without allocating: it may run while an
                    // exception (a failed allocation) unwinds.
                    pool.reserve(pooled);
                    for (auto it = pool.begin(); it != pool.end(); ++it)
                    {
                        if (it->bytes >= bytes)
                        {
                            m_buffer = std::move(*it);
                            pool.erase(it);
                            return;
                        }
                    }
                    // Not value-initialised: every element is written before it is read.
                    m_buffer.lines.reset(new cache_line[lines_for(bytes)]);
                    m_buffer.bytes = lines_for(bytes) * sizeof(cache_line);
                }

                scratch_buffer(const scratch_buffer&) = delete;
                scratch_buffer& operator=(const scratch_buffer&) = delete;

                ~scratch_buffer()
                {
                    auto& pool = free_buffers();
                    if (pool.size() < pooled)
                    {
                        pool.push_back(std::move(m_buffer));
                    }
                }

                char* data() noexcept
                {
                    return reinterpret_cast<char*>(m_buffer.lines.get());
                }

                /// The memory as elements of T.
                template <class T>
                T* data_as() noexcept
                {
                    return reinterpret_cast<T*>(data());
                }

                /// `bytes` rounded up to whole cache lines: where the next part of a scratch starts.
                static std::size_t rounded(std::size_t bytes) noexcept
                {
                    return lines_for(bytes) * sizeof(cache_line);
                }

            private:

                struct alignas(64) cache_line
                {
                    unsigned char bytes[64];
                };

                struct buffer
                {
                    std::unique_ptr<cache_line[]> lines;
                    std::size_t bytes = 0;
                };

                // As many as are in use at once on a thread: a block's scratch, a tile or a fold runner's
                // buffers inside it, and the partial results of a fold cut into parts.
                static constexpr std::size_t pooled = 4;

                static std::size_t lines_for(std::size_t bytes) noexcept
                {
                    return (bytes + sizeof(cache_line) - 1) / sizeof(cache_line);
                }

                static std::vector<buffer>& free_buffers() noexcept
                {
                    static thread_local std::vector<buffer> pool;
                    return pool;
                }

                buffer m_buffer;
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
