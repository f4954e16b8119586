/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_EXPRESSION_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_EXPRESSION_HPP

// Which xtensor expressions the kernels evaluate themselves, and how: an expression is a tree of
// xfunctions of + - * / and unary -/+, over leaves that have a data pointer and strides (containers,
// strided views, adaptors), scalars, and xt::broadcast of any of these. The tree is walked at compile
// time; at run time the leaves of a run of elements come from a row (see xkernel_row.hpp).

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../xcompat_xsimd.hpp"
#include "../xcompat_xtensor.hpp"
#include "xkernel_row.hpp"
#include "xreadonly_broadcast.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The arithmetic the kernels evaluate themselves: exact in IEEE arithmetic in any order of
            /// elements, so that a SIMD lane gives what xtensor's scalar loop gives.
            template <class F>
            struct kernel_op
            {
                static constexpr std::size_t arity = 0;
            };

            template <>
            struct kernel_op<xt::detail::plus>
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return a + b;
                }
            };

            template <>
            struct kernel_op<xt::detail::minus>
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return a - b;
                }
            };

            template <>
            struct kernel_op<xt::detail::multiplies>
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return a * b;
                }
            };

            template <>
            struct kernel_op<xt::detail::divides>
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return a / b;
                }
            };

            template <>
            struct kernel_op<xt::detail::negate>
            {
                static constexpr std::size_t arity = 1;

                template <class V>
                static V apply(const V& a) noexcept
                {
                    return -a;
                }
            };

            template <>
            struct kernel_op<xt::detail::identity>
            {
                static constexpr std::size_t arity = 1;

                template <class V>
                static V apply(const V& a) noexcept
                {
                    return a;
                }
            };

            /// Whether `E` is an operand with a data pointer and strides whose elements are `T`.
            template <class T, class E, class = void>
            struct is_kernel_leaf : std::false_type
            {
            };

            template <class T, class E>
            struct is_kernel_leaf<
                T, E,
                std::void_t<decltype(std::declval<const E&>().data()),
                            decltype(std::declval<const E&>().data_offset()),
                            decltype(std::declval<const E&>().strides()),
                            decltype(std::declval<const E&>().shape()), typename E::value_type>>
                : std::bool_constant<
                      std::is_pointer<decltype(std::declval<const E&>().data())>::value &&
                      std::is_same<
                          std::remove_cv_t<std::remove_pointer_t<decltype(std::declval<const E&>().data())>>,
                          T>::value &&
                      std::is_same<typename E::value_type, T>::value>
            {
            };

            template <class T, class E>
            struct kernel_node_select;

            /// The compile-time description of expression `E` evaluated with elements of type `T`.
            template <class T, class E>
            using kernel_node = typename kernel_node_select<T, std::decay_t<E>>::type;

            /// Anything else: the kernels leave it to xtensor.
            struct kernel_unsupported
            {
                static constexpr bool supported = false;
                static constexpr std::size_t leaves = 0;
            };

            template <class T, class E>
            struct kernel_leaf
            {
                using value_type = T;
                static constexpr bool supported = true;
                static constexpr std::size_t leaves = 1;

                template <class C>
                static void collect(const E& e, C& collector)
                {
                    collector.strided(e.data() + e.data_offset(), e.shape(), e.strides());
                }

                template <std::size_t I, class Row>
                static simd::batch<T> load(const Row& row, std::size_t i) noexcept
                {
                    return row.template load<I>(i);
                }

                template <std::size_t I, class Row>
                static T load_scalar(const Row& row, std::size_t i) noexcept
                {
                    return row.template load_scalar<I>(i);
                }
            };

            template <class T, class CT>
            struct kernel_scalar : kernel_leaf<T, xt::xscalar<CT>>
            {
                using scalar_type = std::decay_t<CT>;

                // C++ converts an integer (or a narrower floating point) scalar to T before the
                // operation, so converting it once gives the same values; a wider scalar does not.
                static constexpr bool supported = std::is_arithmetic<scalar_type>::value &&
                                                  !std::is_same<scalar_type, bool>::value &&
                                                  std::is_same<std::common_type_t<T, scalar_type>, T>::value;

                template <class C>
                static void collect(const xt::xscalar<CT>& e, C& collector)
                {
                    collector.scalar(static_cast<T>(e()));
                }
            };

            template <class T, class F, class... CT>
            struct kernel_function
            {
                using value_type = T;
                using op = kernel_op<F>;
                using expression_type = xt::xfunction<F, CT...>;
                using children = std::tuple<kernel_node<T, CT>...>;

                static constexpr bool supported =
                    op::arity == sizeof...(CT) &&
                    std::is_same<typename expression_type::value_type, T>::value &&
                    (kernel_node<T, CT>::supported && ...);
                static constexpr std::size_t leaves = (kernel_node<T, CT>::leaves + ... + 0);

                // The first leaf index of each child, leaves numbered depth first.
                static constexpr std::array<std::size_t, sizeof...(CT) + 1> starts()
                {
                    std::array<std::size_t, sizeof...(CT) + 1> result{};
                    const std::size_t counts[] = {kernel_node<T, CT>::leaves...};
                    for (std::size_t j = 0; j < sizeof...(CT); ++j)
                    {
                        result[j + 1] = result[j] + counts[j];
                    }
                    return result;
                }

                template <class C>
                static void collect(const expression_type& e, C& collector)
                {
                    collect_impl(e, collector, std::index_sequence_for<CT...>{});
                }

                template <std::size_t I, class Row>
                static simd::batch<T> load(const Row& row, std::size_t i) noexcept
                {
                    return load_impl<I>(row, i, std::index_sequence_for<CT...>{});
                }

                template <std::size_t I, class Row>
                static T load_scalar(const Row& row, std::size_t i) noexcept
                {
                    return load_scalar_impl<I>(row, i, std::index_sequence_for<CT...>{});
                }

            private:
                template <class C, std::size_t... J>
                static void collect_impl(const expression_type& e, C& collector, std::index_sequence<J...>)
                {
                    (std::tuple_element_t<J, children>::collect(std::get<J>(e.arguments()), collector), ...);
                }

                template <std::size_t I, class Row, std::size_t... J>
                static simd::batch<T> load_impl(const Row& row, std::size_t i,
                                                std::index_sequence<J...>) noexcept
                {
                    constexpr auto first = starts();
                    simd::batch<T> result =
                        op::apply(std::tuple_element_t<J, children>::template load<I + first[J]>(row, i)...);
                    simd::batch_traits<T>::keep_rounded(result);
                    return result;
                }

                template <std::size_t I, class Row, std::size_t... J>
                static T load_scalar_impl(const Row& row, std::size_t i, std::index_sequence<J...>) noexcept
                {
                    constexpr auto first = starts();
                    T result = op::apply(
                        std::tuple_element_t<J, children>::template load_scalar<I + first[J]>(row, i)...);
                    simd::keep_rounded_scalar(result);
                    return result;
                }
            };

            template <class T, class CT, class X>
            struct kernel_broadcast
            {
                using value_type = T;
                using child = kernel_node<T, CT>;
                using expression_type = xt::xbroadcast<CT, X>;

                static constexpr bool supported =
                    child::supported && std::is_same<typename expression_type::value_type, T>::value;
                static constexpr std::size_t leaves = child::leaves;

                template <class C>
                static void collect(const expression_type& e, C& collector)
                {
                    child::collect(e.expression(), collector);
                }

                template <std::size_t I, class Row>
                static simd::batch<T> load(const Row& row, std::size_t i) noexcept
                {
                    return child::template load<I>(row, i);
                }

                template <std::size_t I, class Row>
                static T load_scalar(const Row& row, std::size_t i) noexcept
                {
                    return child::template load_scalar<I>(row, i);
                }
            };

            template <class T, class E>
            struct kernel_node_select
            {
                using type =
                    std::conditional_t<is_kernel_leaf<T, E>::value, kernel_leaf<T, E>, kernel_unsupported>;
            };

            template <class T, class CT>
            struct kernel_node_select<T, xt::xscalar<CT>>
            {
                using type = kernel_scalar<T, CT>;
            };

            template <class T, class F, class... CT>
            struct kernel_node_select<T, xt::xfunction<F, CT...>>
            {
                using type = kernel_function<T, F, CT...>;
            };

            template <class T, class CT, class X>
            struct kernel_node_select<T, xt::xbroadcast<CT, X>>
            {
                using type = kernel_broadcast<T, CT, X>;
            };

            // The read-only view of an explicit broadcast is evaluated as the xt::xbroadcast it is.
            template <class T, class B>
            struct kernel_node_select<T, xreadonly_broadcast<B>> : kernel_node_select<T, B>
            {
            };

            /// Whether `Node` only copies its one leaf (a container, a view, an xt::broadcast of one):
            /// where that leaf is contiguous along a run, the run is a plain copy of memory.
            template <class Node>
            struct kernel_is_copy : std::false_type
            {
            };

            template <class T, class E>
            struct kernel_is_copy<kernel_leaf<T, E>> : std::true_type
            {
            };

            template <class T, class CT, class X>
            struct kernel_is_copy<kernel_broadcast<T, CT, X>>
                : kernel_is_copy<typename kernel_broadcast<T, CT, X>::child>
            {
            };

            template <class Node>
            inline constexpr bool kernel_is_copy_v = kernel_is_copy<Node>::value;

            /**
             * A lazy xt::sum (any reducer of + with a constant initial value and + as merge) over an
             * expression the kernels evaluate, or over such a sum (xn::sum_to nests two). For each output
             * element xtensor's reducer sums along the last reduced axis from the initial value one
             * element after the other and merges the sums along the other reduced axes with + in
             * order; the kernels keep that association (see xkernel_loops.hpp).
             */
            template <class T, class E>
            struct kernel_reduction
            {
                static constexpr bool supported = false;
                static constexpr std::size_t stages = 0;
            };

            template <class T, class E, bool = kernel_reduction<T, E>::supported>
            struct kernel_reduction_node
            {
                using type = kernel_node<T, E>;
            };

            template <class T, class E>
            struct kernel_reduction_node<T, E, true>
            {
                using type = typename kernel_reduction<T, E>::node;
            };

            template <class T, class CT, class X, class O>
            struct kernel_reduction<
                T, xt::xreducer<xt::xreducer_functors<xt::detail::plus, xt::const_value<T>, xt::detail::plus>,
                                CT, X, O>>
            {
                using expression_type = xt::xreducer<
                    xt::xreducer_functors<xt::detail::plus, xt::const_value<T>, xt::detail::plus>, CT, X, O>;
                using input_type = std::decay_t<CT>;
                using inner = kernel_reduction<T, input_type>;
                /// The elementwise expression under every nested sum.
                using node = typename kernel_reduction_node<T, input_type>::type;

                static constexpr bool supported =
                    (inner::supported || node::supported) &&
                    std::is_same<typename expression_type::value_type, T>::value &&
                    std::is_same<typename input_type::value_type, T>::value;
                /// The number of nested sums, this one included.
                static constexpr std::size_t stages = inner::stages + 1;
                static constexpr bool keep_dims = O::keep_dims::value;
                static constexpr bool has_initial_value = O::has_initial_value;
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
