/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_LAYOUT_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_LAYOUT_HPP

// What the kernels see of the operands of one evaluation: a shape, and for each operand (operand 0 is
// the output) one stride per axis and the offset of its element (0, ..., 0). Nothing here knows about
// element types or expressions, so that the axis transformations are testable on their own.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <utility>

#include "../../xcompat_xtensor.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Sizes and axis lists of the kernels: on the stack up to rank 8, as xtensor's own shapes.
            using kernel_sizes = xt::svector<std::size_t, 8>;

            /**
             * The strides of every operand of one evaluation in the output's index space: 0 along an axis
             * that an operand is broadcast along. Offsets and strides count elements.
             */
            class kernel_layout
            {
            public:
                using size_type = std::size_t;
                using index_type = std::ptrdiff_t;

                kernel_layout() = default;
                template <class S>
                kernel_layout(const S& shape, size_type operands);

                size_type rank() const noexcept;
                size_type size(size_type axis) const noexcept;
                const kernel_sizes& shape() const noexcept;
                /// The number of elements: 1 for rank 0, 0 as soon as one axis is empty.
                size_type element_count() const noexcept;

                index_type& stride(size_type axis, size_type operand) noexcept;
                index_type stride(size_type axis, size_type operand) const noexcept;
                index_type& offset(size_type operand) noexcept;
                index_type offset(size_type operand) const noexcept;

                /**
                 * Sets the strides of `operand` from an operand of shape `shape` and strides `strides`
                 * aligned to the right of this layout's shape (numpy's rule): leading axes and size-1
                 * axes get stride 0. Returns false, and changes nothing, unless every size is 1 or the
                 * layout's size along the same axis.
                 */
                template <class S, class St>
                bool set_right_aligned(size_type operand, const S& shape, const St& strides);

                /// Removes the axes of size 1: they move no operand.
                void drop_unit_axes();
                /// Reverses the axes along which `operand` has a negative stride (the order of
                /// evaluation of independent elements does not matter).
                void make_positive(size_type operand);
                /// Orders the axes from the largest stride of `operand` to the smallest (stable), so that
                /// the innermost axis is the one `operand` is densest along.
                void sort_axes_by(size_type operand);
                /// Merges axis i into axis i + 1 wherever every operand steps through both as through one
                /// axis: stride(i) == stride(i + 1) * size(i + 1).
                void coalesce();
                /// Merges axis `outer` into axis `outer + 1` when every operand steps through both as
                /// through one axis, and says whether it did.
                bool merge_with_inner(size_type outer);
                /// Positions [begin, end) of `axis` as a layout of their own: each operand's offset moves
                /// to position `begin`: a thread's share, a block of rows, a part of a fold.
                kernel_layout part(size_type axis, size_type begin, size_type end) const;

            private:
                void remove_axis(size_type axis);
                void permute_axes(const kernel_sizes& order);

                kernel_sizes m_shape;
                // Axis-major: the strides of axis `a` are m_strides[a * m_operands + k].
                xt::svector<index_type, 32> m_strides;
                xt::svector<index_type, 8> m_offsets;
                size_type m_operands = 0;
            };

            /// The lowest and highest element offsets (inclusive) an operand of this shape and these
            /// strides reaches from its element (0, ..., 0); `empty` is true when it reaches none.
            struct memory_span
            {
                std::ptrdiff_t low = 0;
                std::ptrdiff_t high = 0;
                bool empty = true;
            };

            template <class S, class St>
            memory_span span_of(const S& shape, const St& strides);

            /// Whether two spans of memory, given by their first element and spans, share an element.
            template <class T>
            bool overlaps(const T* a, const memory_span& sa, const T* b, const memory_span& sb) noexcept;

            /// overlaps for spans of elements of different sizes (in bytes).
            bool overlaps(const void* a, std::size_t a_bytes, const memory_span& sa, const void* b,
                          std::size_t b_bytes, const memory_span& sb) noexcept;

            /************************************
             * kernel_layout implementation      *
             ************************************/

            template <class S>
            inline kernel_layout::kernel_layout(const S& shape, size_type operands)
                : m_shape(shape.begin(), shape.end()), m_strides(m_shape.size() * operands, 0),
                  m_offsets(operands, 0), m_operands(operands)
            {
            }

            inline auto kernel_layout::rank() const noexcept -> size_type
            {
                return m_shape.size();
            }

            inline auto kernel_layout::size(size_type axis) const noexcept -> size_type
            {
                return m_shape[axis];
            }

            inline auto kernel_layout::shape() const noexcept -> const kernel_sizes&
            {
                return m_shape;
            }

            inline auto kernel_layout::element_count() const noexcept -> size_type
            {
                return std::accumulate(m_shape.begin(), m_shape.end(), size_type(1),
                                       std::multiplies<size_type>());
            }

            inline auto kernel_layout::stride(size_type axis, size_type operand) noexcept -> index_type&
            {
                return m_strides[axis * m_operands + operand];
            }

            inline auto kernel_layout::stride(size_type axis, size_type operand) const noexcept -> index_type
            {
                return m_strides[axis * m_operands + operand];
            }

            inline auto kernel_layout::offset(size_type operand) noexcept -> index_type&
            {
                return m_offsets[operand];
            }

            inline auto kernel_layout::offset(size_type operand) const noexcept -> index_type
            {
                return m_offsets[operand];
            }

            template <class S, class St>
            inline bool kernel_layout::set_right_aligned(size_type operand, const S& shape, const St& strides)
            {
                const size_type operand_rank = static_cast<size_type>(shape.size());
                if (operand_rank > rank() || static_cast<size_type>(strides.size()) != operand_rank)
                {
                    return false;
                }
                const size_type lead = rank() - operand_rank;
                for (size_type i = 0; i < operand_rank; ++i)
                {
                    const auto n = static_cast<size_type>(shape[i]);
                    if (n != 1 && n != m_shape[lead + i])
                    {
                        return false;
                    }
                }
                for (size_type a = 0; a < lead; ++a)
                {
                    stride(a, operand) = 0;
                }
                for (size_type i = 0; i < operand_rank; ++i)
                {
                    // xtensor views may keep a non-zero stride on a size-1 axis; broadcasting needs 0.
                    stride(lead + i, operand) =
                        static_cast<size_type>(shape[i]) == 1 ? 0 : static_cast<index_type>(strides[i]);
                }
                return true;
            }

            inline void kernel_layout::remove_axis(size_type axis)
            {
                m_shape.erase(m_shape.begin() + static_cast<index_type>(axis));
                const auto first = m_strides.begin() + static_cast<index_type>(axis * m_operands);
                m_strides.erase(first, first + static_cast<index_type>(m_operands));
            }

            inline void kernel_layout::drop_unit_axes()
            {
                for (size_type a = rank(); a > 0; --a)
                {
                    if (m_shape[a - 1] == 1)
                    {
                        remove_axis(a - 1);
                    }
                }
            }

            inline void kernel_layout::make_positive(size_type operand)
            {
                for (size_type a = 0; a < rank(); ++a)
                {
                    if (stride(a, operand) < 0 && m_shape[a] > 0)
                    {
                        const auto last = static_cast<index_type>(m_shape[a] - 1);
                        for (size_type k = 0; k < m_operands; ++k)
                        {
                            m_offsets[k] += last * stride(a, k);
                            stride(a, k) = -stride(a, k);
                        }
                    }
                }
            }

            inline void kernel_layout::permute_axes(const kernel_sizes& order)
            {
                kernel_sizes shape(rank());
                xt::svector<index_type, 32> strides(m_strides.size());
                for (size_type a = 0; a < rank(); ++a)
                {
                    shape[a] = m_shape[order[a]];
                    for (size_type k = 0; k < m_operands; ++k)
                    {
                        strides[a * m_operands + k] = stride(order[a], k);
                    }
                }
                m_shape = std::move(shape);
                m_strides = std::move(strides);
            }

            inline void kernel_layout::sort_axes_by(size_type operand)
            {
                kernel_sizes order(rank());
                std::iota(order.begin(), order.end(), size_type(0));
                const auto magnitude = [&](size_type a)
                {
                    const auto s = stride(a, operand);
                    return s < 0 ? -s : s;
                };
                // Insertion sort, stable: a handful of axes, often already in order, and no buffer to
                // allocate as std::stable_sort would on every evaluation.
                bool sorted = true;
                for (size_type i = 1; i < order.size(); ++i)
                {
                    const size_type axis = order[i];
                    size_type j = i;
                    for (; j > 0 && magnitude(order[j - 1]) < magnitude(axis); --j)
                    {
                        order[j] = order[j - 1];
                        sorted = false;
                    }
                    order[j] = axis;
                }
                if (!sorted)
                {
                    permute_axes(order);
                }
            }

            inline bool kernel_layout::merge_with_inner(size_type outer)
            {
                const size_type inner = outer + 1;
                for (size_type k = 0; k < m_operands; ++k)
                {
                    if (stride(outer, k) != stride(inner, k) * static_cast<index_type>(m_shape[inner]))
                    {
                        return false;
                    }
                }
                m_shape[inner] *= m_shape[outer];
                remove_axis(outer);
                return true;
            }

            inline void kernel_layout::coalesce()
            {
                // From the inside out, so that a run of mergeable axes collapses into the innermost one.
                for (size_type a = rank(); a > 1; --a)
                {
                    merge_with_inner(a - 2);
                }
            }

            /******************************
             * memory_span implementation *
             ******************************/

            inline kernel_layout kernel_layout::part(size_type axis, size_type begin, size_type end) const
            {
                kernel_layout result = *this;
                result.m_shape[axis] = end - begin;
                for (size_type k = 0; k < m_operands; ++k)
                {
                    result.m_offsets[k] += static_cast<index_type>(begin) * stride(axis, k);
                }
                return result;
            }

            template <class S, class St>
            inline memory_span span_of(const S& shape, const St& strides)
            {
                memory_span result;
                for (std::size_t i = 0; i < shape.size(); ++i)
                {
                    if (shape[i] == 0)
                    {
                        return result;
                    }
                }
                result.empty = false;
                for (std::size_t i = 0; i < shape.size(); ++i)
                {
                    const auto reach =
                        static_cast<std::ptrdiff_t>(shape[i] - 1) * static_cast<std::ptrdiff_t>(strides[i]);
                    (reach < 0 ? result.low : result.high) += reach;
                }
                return result;
            }

            inline bool overlaps(const void* a, std::size_t a_bytes, const memory_span& sa, const void* b,
                                 std::size_t b_bytes, const memory_span& sb) noexcept
            {
                if (sa.empty || sb.empty)
                {
                    return false;
                }
                // Compared as byte addresses: the two operands may live in unrelated arrays.
                const auto a_base = reinterpret_cast<std::uintptr_t>(a);
                const auto b_base = reinterpret_cast<std::uintptr_t>(b);
                const auto a_step = static_cast<std::intptr_t>(a_bytes);
                const auto b_step = static_cast<std::intptr_t>(b_bytes);
                const auto a_low = a_base + static_cast<std::uintptr_t>(sa.low * a_step);
                const auto a_end = a_base + static_cast<std::uintptr_t>(sa.high * a_step) + a_bytes;
                const auto b_low = b_base + static_cast<std::uintptr_t>(sb.low * b_step);
                const auto b_end = b_base + static_cast<std::uintptr_t>(sb.high * b_step) + b_bytes;
                return a_low < b_end && b_low < a_end;
            }

            template <class T>
            inline bool overlaps(const T* a, const memory_span& sa, const T* b,
                                 const memory_span& sb) noexcept
            {
                return overlaps(static_cast<const void*>(a), sizeof(T), sa, static_cast<const void*>(b),
                                sizeof(T), sb);
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
