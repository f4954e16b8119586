/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_EXPRESSION_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_EXPRESSION_HPP

// Which xtensor expressions the kernels evaluate themselves, and how. An expression is a tree of
// xfunctions of the functors of xkernel_ops.hpp over leaves: operands with a data pointer and strides
// (containers, strided views, adaptors) of any arithmetic element type that converts exactly to the
// evaluation's lane type T, scalars, xt::broadcast of these, and reducers, which are evaluated into a
// temporary first. The tree is walked at compile time; at run time the leaves of a run of elements
// come from a run (see xkernel_run.hpp). Every node gives its lanes as values of T or as masks, as its
// parent asks: a mask used as a value is 1 or 0, a value used as a mask is "not 0", as in C++.

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "xkernel_ops.hpp"
#include "xkernel_run.hpp"
#include "xreadonly_broadcast.hpp"

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The lane types of the kernels.
            template <class T>
            inline constexpr bool is_kernel_lane_v =
                std::is_same<T, float>::value || std::is_same<T, double>::value;

            /// Whether elements of `U` become `T` in an expression computed in `T` exactly as C++ converts
            /// them there: `U` is `T`, or `T` is the common type (an integer, a bool, a float in double).
            template <class T, class U, bool = std::is_arithmetic<U>::value>
            struct kernel_converts : std::false_type
            {
            };

            template <class T, class U>
            struct kernel_converts<T, U, true> : std::is_same<std::common_type_t<T, U>, T>
            {
            };

            template <class T, class U>
            inline constexpr bool kernel_converts_v = kernel_converts<T, U>::value;

            /// The element type of an operand with a data pointer and strides, or void.
            template <class E, class = void>
            struct kernel_data_element
            {
                using type = void;
            };

            template <class E>
            struct kernel_data_element<
                E, std::void_t<decltype(std::declval<const E&>().data()),
                               decltype(std::declval<const E&>().data_offset()),
                               decltype(std::declval<const E&>().strides()),
                               decltype(std::declval<const E&>().shape()), typename E::value_type>>
            {
                using pointer = decltype(std::declval<const E&>().data());
                using element = std::remove_cv_t<std::remove_pointer_t<pointer>>;
                using type = std::conditional_t<std::is_pointer<pointer>::value &&
                                                    std::is_same<element, typename E::value_type>::value,
                                                element, void>;
            };

            template <class E>
            using kernel_data_element_t = typename kernel_data_element<std::decay_t<E>>::type;

            /// Whether `E` is a leaf with a data pointer whose elements convert exactly to `T`.
            template <class T, class E>
            struct is_kernel_leaf : std::bool_constant<kernel_converts_v<T, kernel_data_element_t<E>>>
            {
            };

            template <class T, class E>
            struct kernel_node_select;

            /// The compile-time description of expression `E` evaluated in lanes of type `T`.
            template <class T, class E>
            using kernel_node = typename kernel_node_select<T, std::decay_t<E>>::type;

            /// Anything else: the kernels leave it to xtensor.
            struct kernel_unsupported
            {
                static constexpr bool supported = false;
                static constexpr double noting_reach = std::numeric_limits<double>::infinity();
                static constexpr std::size_t leaves = 0;
            };

            /// The loads of a node whose lanes are values (`Node::load`, `Node::load_scalar`), as masks.
            template <class T, class Node>
            struct kernel_masks_from_values
            {
                template <std::size_t I, class Run>
                static simd::mask<T> load_mask(const Run& run, std::size_t i) noexcept
                {
                    return simd::nonzero<T>(Node::template load<I>(run, i));
                }

                template <std::size_t I, class Run>
                static bool load_mask_scalar(const Run& run, std::size_t i) noexcept
                {
                    return Node::template load_scalar<I>(run, i) != T(0);
                }
            };

            /// A leaf of the run: an operand read from memory, converted to T as it is gathered where its
            /// elements are another type.
            template <class T>
            struct kernel_run_leaf : kernel_masks_from_values<T, kernel_run_leaf<T>>
            {
                using value_type = T;
                static constexpr bool supported = true;
                static constexpr double noting_reach = std::numeric_limits<double>::infinity();
                static constexpr std::size_t leaves = 1;

                template <std::size_t I, class Run>
                static simd::batch<T> load(const Run& run, std::size_t i) noexcept
                {
                    return run.template load<I>(i);
                }

                template <std::size_t I, class Run>
                static T load_scalar(const Run& run, std::size_t i) noexcept
                {
                    return run.template load_scalar<I>(i);
                }
            };

            template <class T, class E>
            struct kernel_leaf : kernel_run_leaf<T>
            {
                using element_type = kernel_data_element_t<E>;

                template <class C>
                static void collect(const E& e, C& collector)
                {
                    collector.template data_leaf<element_type>(e);
                }
            };

            template <class T, class CT>
            struct kernel_scalar : kernel_run_leaf<T>
            {
                using scalar_type = std::decay_t<CT>;

                // C++ converts the scalar to T before the operation, so converting it once gives the
                // same values; a wider scalar would make the operation wider than T, and is refused.
                static constexpr bool supported = kernel_converts_v<T, scalar_type>;

                template <class C>
                static void collect(const xt::xscalar<CT>& e, C& collector)
                {
                    collector.scalar(static_cast<T>(e()));
                }
            };

            /// A reducer inside an elementwise tree: evaluated once into a temporary, then read as a leaf.
            template <class T, class E>
            struct kernel_materialized : kernel_run_leaf<T>
            {
                static constexpr bool supported = kernel_converts_v<T, typename E::value_type>;

                template <class C>
                static void collect(const E& e, C& collector)
                {
                    collector.materialize(e);
                }
            };

            /// The lanes of `Child` as the kind `K` asks.
            template <kernel_kind K, class Child, std::size_t I, class Run>
            inline auto kernel_load(const Run& run, std::size_t i) noexcept
            {
                if constexpr (K == kernel_kind::value)
                {
                    return Child::template load<I>(run, i);
                }
                else
                {
                    return Child::template load_mask<I>(run, i);
                }
            }

            template <kernel_kind K, class Child, std::size_t I, class Run>
            inline auto kernel_load_scalar(const Run& run, std::size_t i) noexcept
            {
                if constexpr (K == kernel_kind::value)
                {
                    return Child::template load_scalar<I>(run, i);
                }
                else
                {
                    return Child::template load_mask_scalar<I>(run, i);
                }
            }

            template <class Op, class T, class = void>
            struct kernel_has_noting_reach : std::false_type
            {
            };

            template <class Op, class T>
            struct kernel_has_noting_reach<Op, T, std::void_t<decltype(Op::template noting_reach<T>)>>
                : std::true_type
            {
            };

            /// The largest magnitude of its argument for which an operation that notes it (`apply_noting`,
            /// kernel_noting_run) computes lanes of `T` accurately; infinity for every other operation.
            template <class Op, class T>
            constexpr double kernel_noting_reach() noexcept
            {
                if constexpr (kernel_has_noting_reach<Op, T>::value)
                {
                    return Op::template noting_reach<T>;
                }
                else
                {
                    return std::numeric_limits<double>::infinity();
                }
            }

            /// Whether an operation or a node of that noting reach notes the largest magnitude of its
            /// argument in a run, instead of testing every batch.
            constexpr bool kernel_notes(double noting_reach) noexcept
            {
                return noting_reach < std::numeric_limits<double>::infinity();
            }

            /**
             * What the runs of an operation compute: `F` over its children's lanes, the children given by
             * what their runs compute (kernel_run_node_t), not by the xtensor types they were made from,
             * so that the loops compiled for it serve every expression of the same operations (a
             * container or a view of it, a tensor of another rank, a temporary or an operand).
             */
            template <class T, class F, class... Child>
            struct kernel_run_function
            {
                using value_type = T;
                using op = kernel_op<F>;

                /// The smallest reach of the operations that note their argument, here and below: one
                /// test for them all (kernel_noting_run), which sends a lane beyond it in any of them to
                /// the tested pass.
                static constexpr double noting_reach =
                    std::min({kernel_noting_reach<op, T>(), Child::noting_reach...});
                static constexpr std::size_t leaves = (Child::leaves + ... + 0);

                // The first leaf index of each child, leaves numbered depth first.
                static constexpr std::array<std::size_t, sizeof...(Child) + 1> starts()
                {
                    std::array<std::size_t, sizeof...(Child) + 1> result{};
                    const std::size_t counts[] = {Child::leaves...};
                    for (std::size_t j = 0; j < sizeof...(Child); ++j)
                    {
                        result[j + 1] = result[j] + counts[j];
                    }
                    return result;
                }

                template <std::size_t I, class Run>
                static simd::batch<T> load(const Run& run, std::size_t i) noexcept
                {
                    if constexpr (op::result == kernel_kind::value)
                    {
                        simd::batch<T> result = apply<I>(run, i, std::index_sequence_for<Child...>{});
                        simd::batch_traits<T>::keep_rounded(result);
                        return result;
                    }
                    else
                    {
                        return simd::from_mask<T>(load_mask<I>(run, i));
                    }
                }

                template <std::size_t I, class Run>
                static simd::mask<T> load_mask(const Run& run, std::size_t i) noexcept
                {
                    if constexpr (op::result == kernel_kind::mask)
                    {
                        return apply<I>(run, i, std::index_sequence_for<Child...>{});
                    }
                    else
                    {
                        return simd::nonzero<T>(load<I>(run, i));
                    }
                }

                template <std::size_t I, class Run>
                static T load_scalar(const Run& run, std::size_t i) noexcept
                {
                    if constexpr (op::result == kernel_kind::value)
                    {
                        T result =
                            static_cast<T>(apply_scalar<I>(run, i, std::index_sequence_for<Child...>{}));
                        simd::keep_rounded_scalar(result);
                        return result;
                    }
                    else
                    {
                        return load_mask_scalar<I>(run, i) ? T(1) : T(0);
                    }
                }

                template <std::size_t I, class Run>
                static bool load_mask_scalar(const Run& run, std::size_t i) noexcept
                {
                    if constexpr (op::result == kernel_kind::mask)
                    {
                        return static_cast<bool>(
                            apply_scalar<I>(run, i, std::index_sequence_for<Child...>{}));
                    }
                    else
                    {
                        return load_scalar<I>(run, i) != T(0);
                    }
                }

            private:
                template <std::size_t I, class Run, std::size_t... J>
                static auto apply(const Run& run, std::size_t i, std::index_sequence<J...>) noexcept
                {
                    constexpr auto first = starts();
                    if constexpr (is_noting_run<Run>::value && kernel_notes(kernel_noting_reach<op, T>()))
                    {
                        return op::apply_noting(run.largest,
                                                kernel_load<op::argument(J), Child, I + first[J]>(run, i)...);
                    }
                    else
                    {
                        return op::apply(kernel_load<op::argument(J), Child, I + first[J]>(run, i)...);
                    }
                }

                template <std::size_t I, class Run, std::size_t... J>
                static auto apply_scalar(const Run& run, std::size_t i, std::index_sequence<J...>) noexcept
                {
                    constexpr auto first = starts();
                    return op::apply(kernel_load_scalar<op::argument(J), Child, I + first[J]>(run, i)...);
                }
            };

            template <class Node>
            struct kernel_run_node_of;

            /// What the runs of `Node` compute: a leaf, a scalar and a reducer's temporary are each read
            /// from the run, a broadcast is its child, an operation a kernel_run_function.
            template <class Node>
            using kernel_run_node_t = typename kernel_run_node_of<Node>::type;

            /// The runs of F over the xtensor expressions CT.
            template <class T, class F, class... CT>
            using kernel_run_function_of =
                kernel_run_function<T, F, kernel_run_node_t<kernel_node<T, CT>>...>;

            /// An operation of the expression: its children as the xtensor types they are (to collect
            /// their leaves and to check that the kernels compute what xtensor does), its runs those of
            /// the kernel_run_function it derives from.
            template <class T, class F, class... CT>
            struct kernel_function : kernel_run_function_of<T, F, CT...>
            {
                using op = kernel_op<F>;
                using expression_type = xt::xfunction<F, CT...>;
                using children = std::tuple<kernel_node<T, CT>...>;

                static constexpr bool fits()
                {
                    if constexpr (op::known)
                    {
                        return op::arity == sizeof...(CT) &&
                               op::template fits<T, typename expression_type::value_type,
                                                 xt::xvalue_type_t<std::decay_t<CT>>...>;
                    }
                    else
                    {
                        return false;
                    }
                }

                static constexpr bool supported = fits() && (kernel_node<T, CT>::supported && ...);

                template <class C>
                static void collect(const expression_type& e, C& collector)
                {
                    collect_impl(e, collector, std::index_sequence_for<CT...>{});
                }

            private:
                template <class C, std::size_t... J>
                static void collect_impl(const expression_type& e, C& collector, std::index_sequence<J...>)
                {
                    (std::tuple_element_t<J, children>::collect(std::get<J>(e.arguments()), collector), ...);
                }
            };

            template <class T, class CT, class X>
            struct kernel_broadcast
            {
                using value_type = T;
                using child = kernel_node<T, CT>;
                using expression_type = xt::xbroadcast<CT, X>;

                static constexpr bool supported = child::supported;
                static constexpr double noting_reach = child::noting_reach;
                static constexpr std::size_t leaves = child::leaves;

                template <class C>
                static void collect(const expression_type& e, C& collector)
                {
                    child::collect(e.expression(), collector);
                }

                template <std::size_t I, class Run>
                static simd::batch<T> load(const Run& run, std::size_t i) noexcept
                {
                    return child::template load<I>(run, i);
                }

                template <std::size_t I, class Run>
                static simd::mask<T> load_mask(const Run& run, std::size_t i) noexcept
                {
                    return child::template load_mask<I>(run, i);
                }

                template <std::size_t I, class Run>
                static T load_scalar(const Run& run, std::size_t i) noexcept
                {
                    return child::template load_scalar<I>(run, i);
                }

                template <std::size_t I, class Run>
                static bool load_mask_scalar(const Run& run, std::size_t i) noexcept
                {
                    return child::template load_mask_scalar<I>(run, i);
                }
            };

            /// Whether `E` is one of xtensor's reducers.
            template <class E>
            struct is_xreducer : std::false_type
            {
            };

            template <class F, class CT, class X, class O>
            struct is_xreducer<xt::xreducer<F, CT, X, O>> : std::true_type
            {
            };

            template <class T, class E>
            struct kernel_node_select
            {
                using type = std::conditional_t<
                    is_kernel_leaf<T, E>::value, kernel_leaf<T, E>,
                    std::conditional_t<is_xreducer<E>::value, kernel_materialized<T, E>, kernel_unsupported>>;
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

            template <class Node>
            struct kernel_run_node_of
            {
                using type = Node;
            };

            template <class T, class E>
            struct kernel_run_node_of<kernel_leaf<T, E>>
            {
                using type = kernel_run_leaf<T>;
            };

            template <class T, class CT>
            struct kernel_run_node_of<kernel_scalar<T, CT>>
            {
                using type = kernel_run_leaf<T>;
            };

            template <class T, class E>
            struct kernel_run_node_of<kernel_materialized<T, E>>
            {
                using type = kernel_run_leaf<T>;
            };

            template <class T, class CT, class X>
            struct kernel_run_node_of<kernel_broadcast<T, CT, X>>
                : kernel_run_node_of<typename kernel_broadcast<T, CT, X>::child>
            {
            };

            template <class T, class F, class... CT>
            struct kernel_run_node_of<kernel_function<T, F, CT...>>
            {
                using type = kernel_run_function_of<T, F, CT...>;
            };

            /// `V` when it is a lane type, else void.
            template <class V>
            using kernel_lane_or_void = std::conditional_t<is_kernel_lane_v<V>, V, void>;

            /// The first of `A...` that is not void, or void.
            template <class... A>
            struct kernel_first_lane
            {
                using type = void;
            };

            template <class A, class... R>
            struct kernel_first_lane<A, R...>
            {
                using type =
                    std::conditional_t<std::is_void<A>::value, typename kernel_first_lane<R...>::type, A>;
            };

            /**
             * The lane type in which the kernels evaluate `E`: its value type when that is float or double;
             * for a comparison, the type its operands meet in; for a logical operation on masks, the lane
             * type of its first operand that has one; void when there is none.
             */
            template <class E>
            struct kernel_lane
            {
                using type = kernel_lane_or_void<typename E::value_type>;
            };

            template <class E>
            using kernel_lane_t = typename kernel_lane<std::decay_t<E>>::type;

            template <class CT>
            struct kernel_lane<xt::xscalar<CT>>
            {
                using type = void;
            };

            template <class B>
            struct kernel_lane<xreadonly_broadcast<B>> : kernel_lane<B>
            {
            };

            template <class F, class... CT>
            struct kernel_lane<xt::xfunction<F, CT...>>
            {
                static auto lane()
                {
                    using own = kernel_lane_or_void<typename xt::xfunction<F, CT...>::value_type>;
                    if constexpr (!std::is_void<own>::value || !kernel_op<F>::known)
                    {
                        return static_cast<own*>(nullptr);
                    }
                    else if constexpr (kernel_op<F>::argument(0) == kernel_kind::value)
                    {
                        using common = std::common_type_t<xt::xvalue_type_t<std::decay_t<CT>>...>;
                        return static_cast<kernel_lane_or_void<common>*>(nullptr);
                    }
                    else
                    {
                        return static_cast<typename kernel_first_lane<kernel_lane_t<CT>...>::type*>(nullptr);
                    }
                }

                using type = std::remove_pointer_t<decltype(lane())>;
            };

            /// Whether the runs of `Node` (a kernel_run_node_t) copy its one leaf: where the loops find it
            /// stored as T and contiguous along the runs (no conversion, stride 1), a run is a plain copy
            /// of memory.
            template <class Node>
            struct kernel_is_copy : std::false_type
            {
            };

            template <class T>
            struct kernel_is_copy<kernel_run_leaf<T>> : std::true_type
            {
            };

            template <class Node>
            inline constexpr bool kernel_is_copy_v = kernel_is_copy<Node>::value;

            /**
             * A lazy reducer with a fold the kernels know (xt::sum, xt::prod, and the library's amax, amin,
             * nanmax and nanmin: kernel_fold) and a constant initial value, over an expression the kernels
             * evaluate, or over such a reducer of the same fold (xn::sum_to nests two sums). For each
             * output element xtensor's reducer folds along the last reduced axis from the initial value
             * one element after the other and merges the results along the other reduced axes in order;
             * the kernels keep that association (see xkernel_loops.hpp).
             */
            template <class T, class E>
            struct kernel_reduction
            {
                static constexpr bool supported = false;
                using fold_type = void;
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

            template <class T, class F, class CT, class X, class O>
            struct kernel_reduction<T,
                                    xt::xreducer<xt::xreducer_functors<F, xt::const_value<T>, F>, CT, X, O>>
            {
                using expression_type =
                    xt::xreducer<xt::xreducer_functors<F, xt::const_value<T>, F>, CT, X, O>;
                using input_type = std::decay_t<CT>;
                using inner = kernel_reduction<T, input_type>;
                using fold_type = F;
                using fold = kernel_fold<F>;
                /// The elementwise expression under every nested reducer.
                using node = typename kernel_reduction_node<T, input_type>::type;

                static constexpr bool supported =
                    fold::known && is_kernel_lane_v<T> &&
                    std::is_same<typename expression_type::value_type, T>::value &&
                    (inner::supported ? std::is_same<typename inner::fold_type, F>::value : node::supported);
                static constexpr bool keep_dims = O::keep_dims::value;
                static constexpr bool has_initial_value = O::has_initial_value;
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
