/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XSHORT_PATH_HPP
#define XTENSOR_NAMED_DETAIL_XSHORT_PATH_HPP

// The short path: an evaluation that touches few elements skips the kernels' plan (layout, blocks,
// temporaries, threads). An elementwise tree goes to a loop of its own (short_loop): its runs over at
// most three axes in one call, nothing allocated. What that loop does not take goes straight to
// xtensor's own assignment, whose loop is done before the kernels have made their plan. Below the sizes
// here, both were the faster on every case measured (benchmarks/README.md, Small arrays).

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "xdeferred.hpp"
#include "xkernel_expression.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_loops.hpp"
#include "xkernel_ops.hpp"
#include "xkernel_run.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The most elements an elementwise evaluation writes on the short path.
            inline constexpr std::size_t short_path_written = 32;

            /// The most elements a reduction reads on the short path: xtensor's reducer has no set-up
            /// to speak of, the kernels' has the most.
            inline constexpr std::size_t short_path_read = 256;

            /// Whether `E` is an xt::broadcast, or the library's read-only view of one.
            template <class E>
            struct is_broadcast_node : std::false_type
            {
            };

            template <class CT, class X>
            struct is_broadcast_node<xt::xbroadcast<CT, X>> : std::true_type
            {
            };

            template <class B>
            struct is_broadcast_node<xreadonly_broadcast<B>> : std::true_type
            {
            };

            /// Whether xtensor's loops compute `F` as the kernels do, bit for bit: its arithmetic,
            /// comparisons, logical operations and `where`, and the library's own functors. Not its math
            /// functions (the kernels compute special inputs with std::, xtensor's SIMD loop with xsimd),
            /// nor `!=` (xsimd's is ordered, false on NaN).
            template <class F>
            struct is_short_path_op
                : std::bool_constant<std::is_base_of<kernel_functor<F>, kernel_op<F>>::value ||
                                     std::is_base_of<kernel_own_op<F>, kernel_op<F>>::value ||
                                     std::is_same<F, xt::detail::conditional_ternary>::value>
            {
            };

            /**
             * Whether xtensor's assignment of `e`, to write `written` elements, gives the kernels' values
             * (is_short_path_op) and reads each element of its operands about once, its reducers reading at
             * most `read` elements in all (taken from `read`). A reducer must have the shape of what reads
             * it: xtensor computes an element of a reducer each time it is read, so that a broadcast one
             * would be computed again and again (the kernels compute it once, into a temporary). Other nodes
             * than functions, broadcasts, reducers, scalars and operands with data are not known, and
             * refused.
             */
            template <class E>
            bool short_path_fits(const E& e, std::size_t written, std::size_t& read)
            {
                if constexpr (xt::is_xscalar<E>::value)
                {
                    return true;
                }
                else if constexpr (!std::is_void<kernel_data_element_t<E>>::value)
                {
                    // A deferred temporary not computed yet is the kernels' to compute, whole or by rows
                    // (which they do not keep), as for any evaluation of its size.
                    const auto* deferred = deferred_state_of(e);
                    return deferred == nullptr || deferred->ready();
                }
                else if constexpr (has_arguments<E>::value)
                {
                    if constexpr (is_short_path_op<typename E::functor_type>::value)
                    {
                        return std::apply([&](const auto&... argument)
                                          { return (short_path_fits(argument, written, read) && ...); },
                                          e.arguments());
                    }
                    else
                    {
                        static_cast<void>(e);
                        static_cast<void>(written);
                        static_cast<void>(read);
                        return false;
                    }
                }
                else if constexpr (is_broadcast_node<E>::value)
                {
                    return short_path_fits(e.expression(), written, read);
                }
                else if constexpr (is_xreducer<E>::value)
                {
                    // xtensor's reducer offsets a null pointer over an empty input: left to the kernels.
                    const std::size_t input = e.expression().size();
                    if (e.size() != written || input == 0 || input > read)
                    {
                        return false;
                    }
                    read -= input;
                    return short_path_fits(e.expression(), input, read);
                }
                else
                {
                    static_cast<void>(e);
                    static_cast<void>(written);
                    static_cast<void>(read);
                    return false;
                }
            }

            /// Whether `e` may read memory that `[data + span.low, data + span.high]` (elements of
            /// `bytes`) shares: false only where no operand with data overlaps it. For what
            /// short_path_fits accepts.
            template <class E>
            bool may_read(const E& e, const void* data, std::size_t bytes, const memory_span& span)
            {
                if constexpr (xt::is_xscalar<E>::value)
                {
                    return false;
                }
                else if constexpr (!std::is_void<kernel_data_element_t<E>>::value)
                {
                    return overlaps(static_cast<const void*>(e.data() + e.data_offset()),
                                    sizeof(kernel_data_element_t<E>), span_of(e.shape(), e.strides()), data,
                                    bytes, span);
                }
                else if constexpr (has_arguments<E>::value)
                {
                    return std::apply([&](const auto&... argument)
                                      { return (may_read(argument, data, bytes, span) || ...); },
                                      e.arguments());
                }
                else if constexpr (has_inner_expression<E>::value)
                {
                    return may_read(e.expression(), data, bytes, span);
                }
                else
                {
                    return true;
                }
            }

            /// Whether the reduction `e` is on the short path. Wherever a reduction is evaluated whole
            /// (alone, inside an operation, as a deferred temporary) it asks this, so that its value
            /// (xtensor's order of summation or the kernels') does not depend on where it is evaluated.
            template <class E>
            bool is_short_reduction(const E& e)
            {
                if constexpr (is_xreducer<E>::value)
                {
                    std::size_t read = short_path_read;
                    return short_path_fits(e, e.size(), read);
                }
                else
                {
                    static_cast<void>(e);
                    return false;
                }
            }

            /// Whether `e`, written as `written` elements, is small enough for the short path.
            template <class E>
            bool fits_short_path(const E& e, std::size_t written)
            {
                std::size_t read = short_path_read;
                return (is_xreducer<E>::value || written <= short_path_written) &&
                       short_path_fits(e, written, read);
            }

            /**
             * Whether `e`, evaluated into `out` of its shape, takes the short path: it is small enough,
             * and `out` shares no memory with an operand (else the kernels decide whether a temporary is
             * needed). `fresh`: `out` is memory that no operand can read, a result just made.
             */
            template <class O, class E>
            bool takes_short_path(const O& out, const E& e, bool fresh)
            {
                if (!fits_short_path(e, out.size()))
                {
                    return false;
                }
                if constexpr (std::is_void<kernel_data_element_t<O>>::value)
                {
                    return fresh;
                }
                else
                {
                    return fresh ||
                           !may_read(e, static_cast<const void*>(out.data() + out.data_offset()),
                                     sizeof(kernel_data_element_t<O>), span_of(out.shape(), out.strides()));
                }
            }

            /**
             * The leaves of a tree on the short loop: where each starts and how far it steps along each
             * axis of the output, lined up from the right as xtensor broadcasts. A temporary not computed
             * yet, or a reducer in the tree, is left to the kernels' plan (ok() false).
             */
            template <class T, std::size_t L>
            class short_collector
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                static constexpr std::size_t max_rank = 8;

                struct leaf
                {
                    const char* data = nullptr;
                    kernel_index element_bytes = static_cast<kernel_index>(sizeof(T));
                    /// Null when the elements are T.
                    kernel_convert_fn<T> convert = nullptr;
                    /// A scalar, held by the collector: no operand's memory.
                    bool constant = false;
                    std::array<kernel_index, max_rank> stride{};
                };

                template <class S>
                explicit short_collector(const S& shape)
                    : m_rank(shape.size()), m_ok(shape.size() <= max_rank)
                {
                    for (std::size_t d = 0; m_ok && d < m_rank; ++d)
                    {
                        m_shape[d] = static_cast<std::size_t>(shape[d]);
                    }
                }

                short_collector(const short_collector&) = delete;
                short_collector& operator=(const short_collector&) = delete;

                template <class U, class E>
                void data_leaf(const E& e)
                {
                    const auto* deferred = deferred_state_of(e);
                    if (deferred != nullptr && !deferred->ready())
                    {
                        m_ok = false;
                        return;
                    }
                    leaf* added = next();
                    if (added == nullptr || e.dimension() > m_rank)
                    {
                        m_ok = false;
                        return;
                    }
                    added->data = reinterpret_cast<const char*>(e.data() + e.data_offset());
                    added->element_bytes = static_cast<kernel_index>(sizeof(U));
                    added->convert = std::is_same<U, T>::value ? nullptr : &kernel_convert<T, U>;
                    const auto& shape = e.shape();
                    const auto& strides = e.strides();
                    const std::size_t lead = m_rank - e.dimension();
                    for (std::size_t d = 0; d < e.dimension(); ++d)
                    {
                        const auto size = static_cast<std::size_t>(shape[d]);
                        m_ok = m_ok && (size == 1 || size == m_shape[lead + d]);
                        added->stride[lead + d] = size == 1 ? 0 : static_cast<kernel_index>(strides[d]);
                    }
                }

                void scalar(T value)
                {
                    leaf* added = next();
                    if (added == nullptr)
                    {
                        m_ok = false;
                        return;
                    }
                    T& kept = m_scalar[static_cast<std::size_t>(added - m_leaves.data())];
                    kept = value;
                    added->data = reinterpret_cast<const char*>(&kept);
                    added->constant = true;
                }

                template <class E>
                void materialize(const E&) noexcept
                {
                    m_ok = false;
                }

                /// The leaves collected: the tree's, fewer than the slots where the loops are compiled for
                /// more (kernel_slots). The others stay empty: the tree never reads them, and short_loop
                /// passes over them.
                std::size_t count() const noexcept
                {
                    return m_leaf;
                }

                bool ok() const noexcept
                {
                    return m_ok;
                }

                std::size_t rank() const noexcept
                {
                    return m_rank;
                }

                std::size_t size(std::size_t axis) const noexcept
                {
                    return m_shape[axis];
                }

                const leaf& at(std::size_t k) const noexcept
                {
                    return m_leaves[k];
                }

            private:
                leaf* next() noexcept
                {
                    return m_leaf < slots ? &m_leaves[m_leaf++] : nullptr;
                }

                std::size_t m_rank;
                bool m_ok;
                std::size_t m_leaf = 0;
                std::array<std::size_t, max_rank> m_shape{};
                std::array<leaf, slots> m_leaves{};
                std::array<T, slots> m_scalar{};
            };

            /**
             * out = the tree of `runs` over the leaves of `leaves`, at most short_path_written elements, by
             * one call of its runs (eval_runs): the output's axes longer than 1, those that the output and
             * every leaf step through as one merged, the one along which the output is contiguous as the
             * run and at most two others around it. A leaf of another type, or of another stride than 0 or
             * 1 along the run, is gathered into the output's order first (at most short_gathered of them).
             * False, with nothing written, where the axes do not fit, or where a leaf that is read as the
             * output is written shares memory with it and does not read the element being written.
             */
            template <class T, std::size_t L>
            bool short_loop(const tree_runs<T, L, T>& runs, const short_collector<T, L>& leaves, T* out,
                            const std::array<kernel_index, short_collector<T, L>::max_rank>& out_stride);

            /// The most leaves that short_loop gathers.
            inline constexpr std::size_t short_gathered = 4;

            template <class T, std::size_t L>
            XTENSOR_NAMED_NOINLINE inline bool
            short_loop(const tree_runs<T, L, T>& runs, const short_collector<T, L>& leaves, T* out,
                       const std::array<kernel_index, short_collector<T, L>::max_rank>& out_stride)
            {
                constexpr std::size_t slots = short_collector<T, L>::slots;
                constexpr std::size_t max_rank = short_collector<T, L>::max_rank;
                const std::size_t collected = leaves.count();
                // The axes longer than 1, in the output's order; stride[0] is the output's, stride[k + 1]
                // leaf k's.
                std::size_t axes = 0;
                std::array<std::size_t, max_rank> size{};
                std::array<std::array<kernel_index, slots + 1>, max_rank> stride{};
                for (std::size_t d = 0; d < leaves.rank(); ++d)
                {
                    if (leaves.size(d) == 0)
                    {
                        return true;
                    }
                    if (leaves.size(d) == 1)
                    {
                        continue;
                    }
                    const bool merged = axes > 0 && [&]
                    {
                        const auto& outer = stride[axes - 1];
                        if (outer[0] != out_stride[d] * static_cast<kernel_index>(leaves.size(d)))
                        {
                            return false;
                        }
                        for (std::size_t k = 0; k < collected; ++k)
                        {
                            if (outer[k + 1] !=
                                leaves.at(k).stride[d] * static_cast<kernel_index>(leaves.size(d)))
                            {
                                return false;
                            }
                        }
                        return true;
                    }();
                    const std::size_t a = merged ? axes - 1 : axes++;
                    size[a] = merged ? size[a] * leaves.size(d) : leaves.size(d);
                    stride[a][0] = out_stride[d];
                    for (std::size_t k = 0; k < collected; ++k)
                    {
                        stride[a][k + 1] = leaves.at(k).stride[d];
                    }
                }
                // The run: the last axis along which the output is contiguous.
                std::size_t run = axes;
                for (std::size_t a = axes; a-- > 0;)
                {
                    if (stride[a][0] == 1)
                    {
                        run = a;
                        break;
                    }
                }
                if (axes > 3 || (axes > 0 && run == axes))
                {
                    return false;
                }
                // Each leaf's step along the run, and whether it is gathered first.
                std::array<kernel_index, slots> along{};
                std::array<bool, slots> gather{};
                for (std::size_t k = 0; k < collected; ++k)
                {
                    along[k] = axes == 0 ? 0 : stride[run][k + 1];
                    gather[k] = leaves.at(k).convert != nullptr || (along[k] != 0 && along[k] != 1);
                }
                // A leaf that shares memory with the output is read by runs as the output is written: it
                // must read the element being written, else the kernels' plan takes a temporary.
                // Gathered leaves are read before anything is written; a constant is the collector's.
                const auto span_of_operand = [&](std::size_t operand)
                {
                    memory_span span{0, 0, false};
                    for (std::size_t a = 0; a < axes; ++a)
                    {
                        const kernel_index reach =
                            stride[a][operand] * static_cast<kernel_index>(size[a] - 1);
                        span.low += reach < 0 ? reach : 0;
                        span.high += reach > 0 ? reach : 0;
                    }
                    return span;
                };
                const memory_span out_span = span_of_operand(0);
                for (std::size_t k = 0; k < collected; ++k)
                {
                    const auto& leaf = leaves.at(k);
                    if (leaf.constant || gather[k])
                    {
                        continue;
                    }
                    bool same = static_cast<const void*>(leaf.data) == static_cast<const void*>(out);
                    for (std::size_t a = 0; same && a < axes; ++a)
                    {
                        same = stride[a][0] == stride[a][k + 1];
                    }
                    if (!same &&
                        overlaps(static_cast<const void*>(leaf.data), sizeof(T), span_of_operand(k + 1),
                                 static_cast<const void*>(out), sizeof(T), out_span))
                    {
                        return false;
                    }
                }
                const std::size_t count = axes == 0 ? 1 : size[run];
                // The other axes, outer first, and where each is in a gathered leaf (its elements in the
                // output's order, the run's contiguous).
                std::array<std::size_t, 2> other{};
                std::size_t others = 0;
                for (std::size_t a = 0; a < axes; ++a)
                {
                    if (a != run)
                    {
                        other[others++] = a;
                    }
                }
                std::array<kernel_index, 2> dense{};
                kernel_index step = static_cast<kernel_index>(count);
                for (std::size_t o = others; o-- > 0;)
                {
                    dense[o] = step;
                    step *= static_cast<kernel_index>(size[other[o]]);
                }
                std::array<std::array<T, short_path_written>, short_gathered> gathered;
                std::size_t used = 0;
                std::array<run_axis<L>, 2> around{};
                kernel_run<T, L> first{};
                for (std::size_t k = 0; k < collected; ++k)
                {
                    const auto& leaf = leaves.at(k);
                    const T* start = reinterpret_cast<const T*>(leaf.data);
                    if (gather[k])
                    {
                        if (used == short_gathered)
                        {
                            return false;
                        }
                        T* into = gathered[used++].data();
                        const kernel_convert_fn<T> convert =
                            leaf.convert != nullptr ? leaf.convert : &kernel_convert<T, T>;
                        const std::size_t outer = others > 0 ? size[other[0]] : 1;
                        const std::size_t inner = others > 1 ? size[other[1]] : 1;
                        for (std::size_t i = 0; i < outer; ++i)
                        {
                            for (std::size_t j = 0; j < inner; ++j)
                            {
                                kernel_index from = 0;
                                kernel_index to = 0;
                                if (others > 0)
                                {
                                    from += static_cast<kernel_index>(i) * stride[other[0]][k + 1];
                                    to += static_cast<kernel_index>(i) * dense[0];
                                }
                                if (others > 1)
                                {
                                    from += static_cast<kernel_index>(j) * stride[other[1]][k + 1];
                                    to += static_cast<kernel_index>(j) * dense[1];
                                }
                                convert(leaf.data + from * leaf.element_bytes, along[k], count, into + to);
                            }
                        }
                        start = into;
                    }
                    if (gather[k] || along[k] == 1)
                    {
                        first.set_contiguous(k, start);
                    }
                    else
                    {
                        first.set_constant(k, start);
                    }
                    for (std::size_t o = 0; o < others; ++o)
                    {
                        around[o + 2 - others].leaf_step[k] = gather[k] ? dense[o] : stride[other[o]][k + 1];
                    }
                }
                for (std::size_t o = 0; o < others; ++o)
                {
                    around[o + 2 - others].runs = size[other[o]];
                    around[o + 2 - others].out_step = stride[other[o]][0];
                }
                runs.ordinary_runs(first, count, around, out);
                return true;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
