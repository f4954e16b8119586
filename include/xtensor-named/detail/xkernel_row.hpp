/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_ROW_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_ROW_HPP

// Where the leaves of an expression are for one run of consecutive elements along the innermost axis,
// and how the kernels load them: a leaf constant along the run (stride 0) is one splatted register, a
// contiguous one is loaded batch by batch, any other stride is first gathered into a buffer.

#include <array>
#include <cstddef>
#include <vector>

#include "../xcompat_xsimd.hpp"
#include "xkernel_layout.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            using kernel_index = kernel_layout::index_type;

            /// Elements per chunk of a run that goes through a buffer (a gathered leaf, a strided
            /// output, a row of partial sums): small enough for the buffers to stay in the L1 cache.
            template <class T>
            inline constexpr std::size_t kernel_chunk = (8192 / sizeof(T) / simd::batch_size<T> > 0
                                                             ? 8192 / sizeof(T) / simd::batch_size<T>
                                                             : 1) *
                                                        simd::batch_size<T>;

            /// Elements per chunk of a row of partial sums: the row of one chunk and the input rows
            /// added to it stay in the L1 and L2 caches, and a row of 2000 doubles is one chunk, read as
            /// one stream.
            template <class T>
            inline constexpr std::size_t kernel_sum_chunk = (16384 / sizeof(T) / simd::batch_size<T> > 0
                                                                 ? 16384 / sizeof(T) / simd::batch_size<T>
                                                                 : 1) *
                                                            simd::batch_size<T>;

            /**
             * A run for any strides: element `i` of leaf k is `ptr[k][i & mask[k]]`. The mask is all ones
             * for a leaf stored contiguously (or gathered) along the run and 0 for a leaf constant along
             * it, whose `ptr[k]` then points to a batch of copies of its value: loading needs no branch.
             */
            template <class T, std::size_t L>
            struct kernel_row
            {
                static constexpr std::size_t slots = L == 0 ? 1 : L;

                std::array<const T*, slots> ptr;
                std::array<std::size_t, slots> mask;

                template <std::size_t I>
                simd::batch<T> load(std::size_t i) const noexcept
                {
                    return simd::batch_traits<T>::load(ptr[I] + (i & mask[I]));
                }

                template <std::size_t I>
                T load_scalar(std::size_t i) const noexcept
                {
                    return ptr[I][i & mask[I]];
                }
            };

            /**
             * A run whose leaves are each contiguous or constant, known when the loop is compiled: bit k
             * of `Constant` is set for a leaf constant along the run, whose value is then a register.
             */
            template <class T, std::size_t L, unsigned Constant>
            struct kernel_fixed_row
            {
                static constexpr std::size_t slots = L == 0 ? 1 : L;

                std::array<const T*, slots> ptr;
                std::array<simd::batch<T>, slots> value;

                template <std::size_t I>
                simd::batch<T> load(std::size_t i) const noexcept
                {
                    if constexpr (((Constant >> I) & 1u) != 0)
                    {
                        return value[I];
                    }
                    else
                    {
                        return simd::batch_traits<T>::load(ptr[I] + i);
                    }
                }

                template <std::size_t I>
                T load_scalar(std::size_t i) const noexcept
                {
                    if constexpr (((Constant >> I) & 1u) != 0)
                    {
                        return ptr[I][0];
                    }
                    else
                    {
                        return ptr[I][i];
                    }
                }
            };

            /**
             * Prepares a kernel_row for chunks of runs whose leaves have any strides along the run: the
             * strides are fixed, the start of each leaf changes from run to run.
             */
            template <class T, std::size_t L>
            class kernel_any_source
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using row_type = kernel_row<T, L>;

                explicit kernel_any_source(const std::array<kernel_index, slots>& strides);

                /// The largest chunk prepare accepts: a whole run unless a leaf is gathered.
                std::size_t chunk() const noexcept;

                /// Points `row` at elements [first, first + count) of the run whose leaf k starts at
                /// `start[k]`.
                void prepare(const std::array<const T*, slots>& start, std::size_t first, std::size_t count,
                             row_type& row);

            private:
                std::array<kernel_index, slots> m_stride;
                std::size_t m_chunk;
                // A batch of copies for each constant leaf, then a chunk for each gathered leaf.
                std::vector<T> m_buffer;
            };

            /// Prepares a kernel_fixed_row: every leaf contiguous or constant along the run.
            template <class T, std::size_t L, unsigned Constant>
            class kernel_fixed_source
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using row_type = kernel_fixed_row<T, L, Constant>;

                std::size_t chunk() const noexcept
                {
                    return static_cast<std::size_t>(-1);
                }

                void prepare(const std::array<const T*, slots>& start, std::size_t first, std::size_t,
                             row_type& row) const noexcept
                {
                    for (std::size_t k = 0; k < L; ++k)
                    {
                        if (((Constant >> k) & 1u) != 0)
                        {
                            row.ptr[k] = start[k];
                            row.value[k] = simd::batch_traits<T>::splat(*start[k]);
                        }
                        else
                        {
                            row.ptr[k] = start[k] + first;
                        }
                    }
                }
            };

            /// The most leaves for which the loops are compiled for every combination of constant and
            /// contiguous leaves (2^L versions); beyond, kernel_any_source serves.
            inline constexpr std::size_t kernel_fixed_leaves = 2;

            /**
             * Calls `f(source)` with the source that suits leaves of these strides along the run: a
             * kernel_fixed_source when they are all 0 or 1 (and few), a kernel_any_source otherwise.
             */
            template <class T, std::size_t L, class F>
            void with_kernel_source(const std::array<kernel_index, (L == 0 ? 1 : L)>& strides, F&& f);

            /**************************************
             * kernel_any_source implementation   *
             **************************************/

            template <class T, std::size_t L>
            inline kernel_any_source<T, L>::kernel_any_source(const std::array<kernel_index, slots>& strides)
                : m_stride(strides), m_chunk(0)
            {
                bool gathers = false;
                for (std::size_t k = 0; k < L; ++k)
                {
                    gathers = gathers || (m_stride[k] != 0 && m_stride[k] != 1);
                }
                m_chunk = gathers ? kernel_chunk<T> : static_cast<std::size_t>(-1);
                m_buffer.resize(slots * simd::batch_size<T> + (gathers ? slots * kernel_chunk<T> : 0));
            }

            template <class T, std::size_t L>
            inline std::size_t kernel_any_source<T, L>::chunk() const noexcept
            {
                return m_chunk;
            }

            template <class T, std::size_t L>
            inline void kernel_any_source<T, L>::prepare(const std::array<const T*, slots>& start,
                                                         std::size_t first, std::size_t count, row_type& row)
            {
                constexpr std::size_t width = simd::batch_size<T>;
                for (std::size_t k = 0; k < L; ++k)
                {
                    const kernel_index stride = m_stride[k];
                    if (stride == 1)
                    {
                        row.ptr[k] = start[k] + first;
                        row.mask[k] = ~std::size_t(0);
                    }
                    else if (stride == 0)
                    {
                        T* copies = m_buffer.data() + k * width;
                        simd::batch_traits<T>::store(copies, simd::batch_traits<T>::splat(*start[k]));
                        row.ptr[k] = copies;
                        row.mask[k] = 0;
                    }
                    else
                    {
                        T* gathered = m_buffer.data() + slots * width + k * kernel_chunk<T>;
                        const T* src = start[k] + static_cast<kernel_index>(first) * stride;
                        for (std::size_t j = 0; j < count; ++j)
                        {
                            gathered[j] = src[static_cast<kernel_index>(j) * stride];
                        }
                        row.ptr[k] = gathered;
                        row.mask[k] = ~std::size_t(0);
                    }
                }
            }

            template <std::size_t L, unsigned Constant, class F>
            inline void dispatch_constant_leaves(unsigned constant, F&& f)
            {
                if constexpr (Constant + 1 < (1u << L))
                {
                    if (constant != Constant)
                    {
                        dispatch_constant_leaves<L, Constant + 1>(constant, f);
                        return;
                    }
                }
                f(std::integral_constant<unsigned, Constant>{});
            }

            template <class T, std::size_t L, class F>
            inline void with_kernel_source(const std::array<kernel_index, (L == 0 ? 1 : L)>& strides, F&& f)
            {
                if constexpr (L > 0 && L <= kernel_fixed_leaves)
                {
                    bool fixed = true;
                    unsigned constant = 0;
                    for (std::size_t k = 0; k < L; ++k)
                    {
                        fixed = fixed && (strides[k] == 0 || strides[k] == 1);
                        constant |= strides[k] == 0 ? (1u << k) : 0u;
                    }
                    if (fixed)
                    {
                        dispatch_constant_leaves<L, 0>(
                            constant,
                            [&](auto c)
                            {
                                kernel_fixed_source<T, L, decltype(c)::value> source;
                                f(source);
                            });
                        return;
                    }
                }
                kernel_any_source<T, L> source(strides);
                f(source);
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
