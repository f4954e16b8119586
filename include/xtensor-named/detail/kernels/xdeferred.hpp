/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XDEFERRED_HPP
#define XTENSOR_NAMED_DETAIL_XDEFERRED_HPP

// A deferred temporary: the elements of a reduction inside an operation (`x - xn::nanmean(x, {"t"})`),
// in memory of their own that is filled the first time anything reads it, not when the operation is
// built. The kernels fill it a block of rows at a time, just before the rows of the operation that
// read them (kernel_collector::run_by_blocks), so that a loop over rows reads the reduction's input
// once, as a loop written by hand does; every other reader (xtensor's assignment, `.expression()`,
// label alignment, element access) goes through deferred_buffer's accessors, which fill it whole first.
// Copies of the operation share it, so it is filled once.

#include <atomic>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xcompat_xtensor.hpp"
#include "xkernel_layout.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            class deferred_state_base;

            /**
             * How the elements of a temporary are computed, whole or rows of its first axis, whatever its
             * element type: a deferred one's (deferred_state), or a reducer's that the kernels fill in an
             * evaluation of their own (kernel_fold_job). An implementation may make what computing needs
             * the first time it is asked anything, so that any question may throw std::bad_alloc.
             */
            class deferred_evaluation_base
            {
            public:
                virtual ~deferred_evaluation_base() = default;

                /// Writes rows [first, last) of the first axis (everything for a scalar) at `rows`,
                /// row-major: row `first` at `rows`, wherever the caller keeps them.
                virtual void compute_at(char* rows, std::size_t first, std::size_t last) const = 0;

                /// Whether rows can be computed apart, each as it is in a whole computation.
                virtual bool by_rows() const = 0;

                /**
                 * Whether rows that the kernels compute for a block of an evaluation are kept in the
                 * temporary (true), or computed into memory that stays in the cache, read there by the
                 * block, and computed again by the next evaluation (false): where computing them costs no
                 * more than reading a kept copy from memory would, as a reindex or a join reads its operands
                 * once. The temporary is then not filled by that evaluation; any reader of it whole (the
                 * storage's accessors) fills and keeps it.
                 */
                virtual bool keeps_rows() const noexcept
                {
                    return true;
                }

                /// The bytes that computing everything reads.
                virtual std::size_t input_bytes() const = 0;

                /// Whether computing reads memory of `[data + span.low, data + span.high]`.
                virtual bool reads(const void* data, std::size_t element_bytes,
                                   const memory_span& span) const = 0;

                /// Calls `visit(state)` on every deferred temporary that computing reads, and on those
                /// that theirs read.
                virtual void
                visit_deferred(const std::function<void(const deferred_state_base&)>& visit) const
                {
                    static_cast<void>(visit);
                }
            };

            /// A deferred_evaluation_base of elements of type T.
            template <class T>
            class deferred_evaluation : public deferred_evaluation_base
            {
            public:
                /// compute_at, for rows of T.
                virtual void compute(T* rows, std::size_t first, std::size_t last) const = 0;

                void compute_at(char* rows, std::size_t first, std::size_t last) const final
                {
                    compute(reinterpret_cast<T*>(rows), first, last);
                }
            };

            /// What the kernels need of a deferred temporary whatever its element type: whether it is
            /// computed, its rows, and the lock held while they compute it.
            class deferred_state_base
            {
            public:
                deferred_state_base(const deferred_state_base&) = delete;
                deferred_state_base& operator=(const deferred_state_base&) = delete;

                bool ready() const noexcept
                {
                    return m_ready.load(std::memory_order_acquire);
                }

                /// Says that every row has been computed (by the kernels, block by block).
                void set_ready() const noexcept
                {
                    m_ready.store(true, std::memory_order_release);
                }

                /// Computes every row where they are not yet, under the lock: what a reader of it whole
                /// does.
                void compute_whole() const
                {
                    if (!ready())
                    {
                        const std::lock_guard<std::recursive_mutex> lock(m_mutex);
                        if (!ready())
                        {
                            m_computed_by->compute_at(m_memory, 0, m_rows);
                            set_ready();
                        }
                    }
                }

                /// What computes the rows.
                const deferred_evaluation_base& evaluation() const noexcept
                {
                    return *m_computed_by;
                }

                /// Where row 0 goes, whether computed or not: for the kernels, which compute it first.
                char* memory_bytes() const noexcept
                {
                    return m_memory;
                }

                /// Held while the kernels compute the rows block by block, so that another thread that
                /// reads meanwhile waits for them, then finds every row computed.
                std::recursive_mutex& mutex() const noexcept
                {
                    return m_mutex;
                }

                /// The size of the first axis (1 for a scalar).
                std::size_t rows() const noexcept
                {
                    return m_rows;
                }

                std::size_t rank() const noexcept
                {
                    return m_rank;
                }

                std::size_t size() const noexcept
                {
                    return m_size;
                }

                /// The elements of one row of the first axis.
                std::size_t row_elements() const noexcept
                {
                    return m_rows == 0 ? 0 : m_size / m_rows;
                }

                /// The bytes of one row of the first axis.
                std::size_t row_bytes() const noexcept
                {
                    return row_elements() * m_element_bytes;
                }

            protected:
                template <class S>
                deferred_state_base(const S& shape, std::size_t element_bytes)
                    : m_rows(shape.size() == 0 ? 1 : static_cast<std::size_t>(shape[0])),
                      m_rank(shape.size()), m_element_bytes(element_bytes)
                {
                    for (auto n : shape)
                    {
                        m_size *= static_cast<std::size_t>(n);
                    }
                }

                ~deferred_state_base() = default;

                /// Set by the derived state once its evaluation and memory are made.
                const deferred_evaluation_base* m_computed_by = nullptr;
                char* m_memory = nullptr;

            private:
                std::size_t m_rows;
                std::size_t m_rank;
                std::size_t m_element_bytes;
                std::size_t m_size = 1;
                mutable std::recursive_mutex m_mutex;
                mutable std::atomic<bool> m_ready{false};
            };

            /// The elements of a deferred temporary of row-major shape `shape`, with what computes them.
            template <class T>
            class deferred_state : public deferred_state_base
            {
            public:
                template <class S>
                deferred_state(const S& shape, std::unique_ptr<const deferred_evaluation<T>> evaluation)
                    : deferred_state_base(shape, sizeof(T)), m_evaluation(std::move(evaluation)),
                      m_elements(size()), m_data(m_elements.data())
                {
                    m_computed_by = m_evaluation.get();
                    m_memory = reinterpret_cast<char*>(m_elements.data());
                }

                /// Elements computed already, at `data`, kept alive by `owner` (empty for memory that the
                /// caller keeps alive).
                template <class S>
                deferred_state(const S& shape, const T* data, std::shared_ptr<const void> owner)
                    : deferred_state_base(shape, sizeof(T)), m_owner(std::move(owner)), m_data(data)
                {
                    set_ready();
                }

                /// The elements, computed first where they are not yet.
                const T* data() const
                {
                    compute_whole();
                    return m_data;
                }

                /// The elements, whether computed or not: for the kernels, which compute them first.
                T* memory() const noexcept
                {
                    return const_cast<T*>(m_data);
                }

            private:
                std::unique_ptr<const deferred_evaluation<T>> m_evaluation;
                xt::uvector<T> m_elements;
                std::shared_ptr<const void> m_owner;
                const T* m_data;
            };

            /**
             * The read-only storage of a deferred temporary for an xtensor adaptor: a buffer whose every
             * accessor computes the elements first. The kernels take `state()` instead.
             */
            template <class T>
            class deferred_buffer
            {
            public:
                using value_type = T;
                using allocator_type = std::allocator<T>;
                using reference = const T&;
                using const_reference = const T&;
                using pointer = const T*;
                using const_pointer = const T*;
                using size_type = std::size_t;
                using difference_type = std::ptrdiff_t;
                using iterator = const T*;
                using const_iterator = const T*;
                using reverse_iterator = std::reverse_iterator<const T*>;
                using const_reverse_iterator = std::reverse_iterator<const T*>;

                explicit deferred_buffer(std::shared_ptr<const deferred_state<T>> state) noexcept
                    : m_state(std::move(state))
                {
                }

                const T* data() const
                {
                    return m_state->data();
                }

                size_type size() const noexcept
                {
                    return m_state->size();
                }

                bool empty() const noexcept
                {
                    return size() == 0;
                }

                /// The storage cannot take another size.
                void resize(size_type n) const
                {
                    if (n != size())
                    {
                        XTENSOR_THROW(std::runtime_error, "xn: a deferred temporary cannot be resized");
                    }
                }

                const T& operator[](size_type i) const
                {
                    return data()[i];
                }

                const T& front() const
                {
                    return data()[0];
                }

                const T& back() const
                {
                    return data()[size() - 1];
                }

                const T* begin() const
                {
                    return data();
                }

                const T* end() const
                {
                    return data() + size();
                }

                const T* cbegin() const
                {
                    return begin();
                }

                const T* cend() const
                {
                    return end();
                }

                const_reverse_iterator rbegin() const
                {
                    return const_reverse_iterator(end());
                }

                const_reverse_iterator rend() const
                {
                    return const_reverse_iterator(begin());
                }

                const_reverse_iterator crbegin() const
                {
                    return rbegin();
                }

                const_reverse_iterator crend() const
                {
                    return rend();
                }

                void swap(deferred_buffer& other) noexcept
                {
                    m_state.swap(other.m_state);
                }

                const deferred_state<T>& state() const noexcept
                {
                    return *m_state;
                }

            private:
                std::shared_ptr<const deferred_state<T>> m_state;
            };

            /// Rows [first, last) of a deferred temporary, computed by the kernels for the block of rows
            /// they evaluate now: in the temporary's memory, or at `at` (the block's scratch memory, which
            /// stays in the cache) where `at` is not null.
            struct deferred_rows
            {
                const deferred_state_base* state;
                std::size_t first;
                std::size_t last;
                const char* at = nullptr;
            };

            /// The rows computed for the block this thread evaluates now: what a reduction inside the
            /// block reads of them is there already.
            inline std::vector<deferred_rows>& rows_of_this_block() noexcept
            {
                static thread_local std::vector<deferred_rows> rows;
                return rows;
            }

            /// Rows [first, last) of `state` if they were computed for the block this thread evaluates,
            /// else nullptr.
            inline const deferred_rows* rows_in_this_block(const deferred_state_base* state,
                                                           std::size_t first, std::size_t last) noexcept
            {
                // The newest first: an evaluation inside another's block adds its rows last.
                const auto& rows = rows_of_this_block();
                for (auto r = rows.rbegin(); r != rows.rend(); ++r)
                {
                    if (r->state == state && r->first == first && r->last == last)
                    {
                        return &*r;
                    }
                }
                return nullptr;
            }

            template <class S>
            struct is_deferred_buffer : std::false_type
            {
            };

            template <class T>
            struct is_deferred_buffer<deferred_buffer<T>> : std::true_type
            {
            };

            template <class E, class = void>
            struct deferred_storage_of
            {
                using type = void;
            };

            template <class E>
            struct deferred_storage_of<E, std::void_t<decltype(std::declval<const E&>().storage())>>
            {
                using type = std::decay_t<decltype(std::declval<const E&>().storage())>;
            };

            /// The deferred state under a leaf with a data interface (the adaptor, or a strided view of
            /// it), or nullptr.
            template <class E>
            inline const deferred_state<typename E::value_type>* deferred_state_of(const E& e) noexcept
            {
                if constexpr (is_deferred_buffer<typename deferred_storage_of<E>::type>::value)
                {
                    return &e.storage().state();
                }
                else
                {
                    static_cast<void>(e);
                    return nullptr;
                }
            }

            template <class E, class = void>
            struct has_inner_expression : std::false_type
            {
            };

            template <class E>
            struct has_inner_expression<E, std::void_t<decltype(std::declval<const E&>().expression())>>
                : std::true_type
            {
            };

            template <class E, class = void>
            struct has_arguments : std::false_type
            {
            };

            template <class E>
            struct has_arguments<E, std::void_t<decltype(std::declval<const E&>().arguments())>>
                : std::true_type
            {
            };

            /**
             * Computes every deferred temporary that the xtensor expression `e` reads, however deep, that
             * is not computed yet. xtensor's assignment reaches a container's storage through accessors
             * that are noexcept (a strided view's data_xbegin, a container's data), where computing a
             * temporary could not report a failure to allocate: std::terminate. Called before xtensor
             * evaluates a tree that may read one, so that it only reads memory.
             */
            template <class E>
            inline void compute_deferred_operands(const E& e)
            {
                if constexpr (is_deferred_buffer<typename deferred_storage_of<E>::type>::value)
                {
                    static_cast<void>(deferred_state_of(e)->data());
                }
                else if constexpr (has_arguments<E>::value)
                {
                    std::apply([](const auto&... argument) { (compute_deferred_operands(argument), ...); },
                               e.arguments());
                }
                else if constexpr (has_inner_expression<E>::value)
                {
                    compute_deferred_operands(e.expression());
                }
                else
                {
                    static_cast<void>(e);
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
