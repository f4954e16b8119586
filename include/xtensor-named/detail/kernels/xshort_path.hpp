/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XSHORT_PATH_HPP
#define XTENSOR_NAMED_DETAIL_XSHORT_PATH_HPP

// The short path: an evaluation that touches few elements goes straight to xtensor's own assignment,
// whose loop is done before the kernels have made their plan (layout, blocks, temporaries, threads).
// Below the sizes here, xtensor's assignment was the faster on every case measured, its slowest loop
// (a broadcast read with steppers) included (benchmarks/README.md, Small arrays).

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "../../xcompat_xtensor.hpp"
#include "xdeferred.hpp"
#include "xkernel_expression.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_ops.hpp"

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

            /**
             * Whether `e`, evaluated into `out` of its shape, takes the short path: it is small enough,
             * and `out` shares no memory with an operand (else the kernels decide whether a temporary is
             * needed). `fresh`: `out` is memory that no operand can read, a result just made.
             */
            template <class O, class E>
            bool takes_short_path(const O& out, const E& e, bool fresh)
            {
                const std::size_t written = out.size();
                std::size_t read = short_path_read;
                if ((!is_xreducer<E>::value && written > short_path_written) ||
                    !short_path_fits(e, written, read))
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
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
