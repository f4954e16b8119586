/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XELEMENTWISE_HPP
#define XTENSOR_NAMED_DETAIL_XELEMENTWISE_HPP

// The one path of every elementwise operation on named expressions (operators, math functions,
// xn::apply, xn::broadcast): the operands' shapes and names go to the strategy, its plan is checked
// against the real sizes, and each operand becomes an aligned view (detail/expression/xaligned_view.hpp)
// before xtensor builds its own lazy xfunction over them. Nothing is evaluated, nothing copied.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xbroadcast_plan.hpp"
#include "../../xcompat_xtensor.hpp"
#include "../../xnamed_expression.hpp"
#include "../../xpartial_shape.hpp"
#include "../../xshaping.hpp"
#include "../expression/xaligned_view.hpp"
#include "xlabel_alignment.hpp"
#include "xoperand_kinds.hpp"
#include "xoperand_refs.hpp"
#include "xplan_cache.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            template <class T, class = void>
            struct strategy_of
            {
                using type = void;
            };

            template <class T>
            struct strategy_of<T, std::enable_if_t<is_named_expression_v<T>>>
            {
                using type = typename std::decay_t<T>::strategy_type;
            };

            /**
             * The strategy of the named operands among `A...` (`Default` when there is none), and whether
             * they all have the same one.
             */
            template <class Default, class... A>
            struct common_strategy
            {
                using type = Default;
                static constexpr bool any_named = false;
                static constexpr bool agree = true;
            };

            template <class Default, class A, class... R>
            struct common_strategy<Default, A, R...>
            {
                using rest = common_strategy<Default, R...>;
                using own = typename strategy_of<A>::type;
                using type = std::conditional_t<std::is_void<own>::value, typename rest::type, own>;
                static constexpr bool any_named = !std::is_void<own>::value || rest::any_named;
                static constexpr bool agree = rest::agree && (std::is_void<own>::value || !rest::any_named ||
                                                              std::is_same<own, typename rest::type>::value);
            };

            template <class... A>
            inline constexpr bool strategies_agree_v = common_strategy<void, A...>::agree;

            /// The strategy of an operation on `A...`: that of its named operands, else xn::missing_dims.
            template <class... A>
            using common_strategy_t = typename common_strategy<missing_dims, A...>::type;

            /// How the `N` array operands of one operation line up: the result, and for each operand (in
            /// order) where its axes land.
            template <std::size_t N>
            struct elementwise_plan
            {
                named::dims names;
                view_shape_type shape;
                std::array<axis_map, N> from;
            };

            /// An operation's plan, and the dims and labels of its result.
            template <std::size_t N>
            struct planned_operation
            {
                elementwise_plan<N> how;
                axes_metadata metadata;
            };

            /// Plans an operation on `operands` (two or more with axes) under `S`, and combines their dims
            /// and labels into the result's.
            template <class S, std::size_t N>
            planned_operation<N> plan_operation(std::string_view operation, const operand_refs<N>& operands);

            /// plan_operation under a built-in `S`, for unlabelled operands: the plan this thread keeps
            /// for their dims and sizes, made and kept the first time.
            template <class S, std::size_t N>
            const planned_operation<N>& kept_plan(std::string_view operation,
                                                  const operand_refs<N>& operands);

            /// Plans two or more operands under `S`, left to right, each plan checked against real sizes.
            template <class S, std::size_t N>
            elementwise_plan<N> plan_operands(std::string_view operation,
                                              const std::array<operand, N>& operands);

            /// The dims of a named expression, or those of a plain one: "?" throughout.
            template <class A>
            named::dims dims_of(const A& a);

            /// Plans the operands of `refs` under `S` (plan_operands).
            template <class S, std::size_t N>
            elementwise_plan<N> plan_refs(std::string_view operation, const operand_refs<N>& refs);

            /// The xtensor expression of a named operand (forwarded), or the operand itself.
            template <class A>
            decltype(auto) unwrap(A&& a) noexcept;

            /**
             * `make(x...)` over the operands made xtensor arguments: aligned views when two or more have
             * axes, the expressions themselves when one does; scalars as they are. The result is named,
             * with strategy `S`.
             */
            template <class S, class F, class... A>
            auto elementwise(std::string_view operation, F&& make, A&&... args);

            /// elementwise, with the operands aligned by label under `Shaping` first and what
            /// they lack filled with `fill` (or no_fill).
            template <class S, class Shaping, class Fill, class F, class... A>
            auto aligned_elementwise(std::string_view operation, const Fill& fill, F&& make, A&&... args);

            /**
             * Both operands as views of the result's shape and dims (stride 0 where they are broadcast).
             */
            template <class S, class A, class B>
            auto broadcast_pair(std::string_view operation, A&& a, B&& b);

            /****************************************
             * implementation of the elementwise path *
             ****************************************/

            // A strategy names itself in its refusals; the user also needs the operation that asked.
            template <class S>
            inline broadcast_plan plan_for(std::string_view operation, const operand& a, const operand& b)
            {
                return rethrow_within<named::broadcast_error>(
                    operation,
                    [&]
                    {
                        // The operands come from expressions, one name per axis; a built-in strategy's
                        // answer is trusted (builtin_strategy), a user's is checked.
                        if constexpr (builtin_strategy<S>::value)
                        {
                            return S::plan(a, b);
                        }
                        else
                        {
                            return named::plan<S>(a, b);
                        }
                    },
                    [] { return "the operands do not line up: "; });
            }

            template <class S, std::size_t N>
            inline elementwise_plan<N> plan_operands(std::string_view operation,
                                                     const std::array<operand, N>& operands)
            {
                static_assert(N >= 2, "plan_operands: an operation of one operand with axes needs no plan");
                broadcast_plan p = plan_for<S>(operation, operands[0], operands[1]);
                check_concrete_plan(operation, p, operands[0], operands[1]);
                elementwise_plan<N> result;
                result.from[0] = std::move(p.axes[0]);
                result.from[1] = std::move(p.axes[1]);
                for (std::size_t k = 2; k < N; ++k)
                {
                    // A third operand lines up with the result of the first two, and so on.
                    const operand so_far{std::move(p.shape), std::move(p.names)};
                    broadcast_plan next = plan_for<S>(operation, so_far, operands[k]);
                    check_concrete_plan(operation, next, so_far, operands[k]);
                    for (std::size_t done = 0; done < k; ++done)
                    {
                        result.from[done] =
                            compose_index_maps(next.axes[0], result.from[done], named::no_axis);
                    }
                    result.from[k] = std::move(next.axes[1]);
                    p = std::move(next);
                }
                result.shape = concrete_shape(operation, p);
                result.names = std::move(p.names);
                return result;
            }

            template <class A>
            inline named::dims dims_of(const A& a)
            {
                if constexpr (is_named_expression_v<A>)
                {
                    return a.dims();
                }
                else
                {
                    return named::dims::unnamed(a.dimension());
                }
            }

            /// Describes the operands of `refs` in `into`, in order: shape and dims ("?" throughout for a
            /// plain expression). The shapes are written into the storage `into` has.
            template <std::size_t N>
            inline void describe_operands(std::array<operand, N>& into, const operand_refs<N>& refs)
            {
                for (std::size_t k = 0; k < N; ++k)
                {
                    overwrite_sizes(into[k].shape, refs[k]);
                    into[k].names = refs[k].names();
                }
            }

            /// The operands that built-in strategies see on this thread, kept from one plan to the next so
            /// that describing operands of new shapes allocates nothing once ranks have been seen. A built-in
            /// strategy plans no operation of its own while it plans, so that one set per thread is enough.
            template <std::size_t N>
            inline std::array<operand, N>& thread_operands()
            {
                thread_local std::array<operand, N> operands;
                return operands;
            }

            template <class S, std::size_t N>
            inline elementwise_plan<N> plan_refs(std::string_view operation, const operand_refs<N>& refs)
            {
                if constexpr (builtin_strategy<S>::value)
                {
                    std::array<operand, N>& operands = thread_operands<N>();
                    describe_operands(operands, refs);
                    auto how = plan_operands<S>(operation, operands);
                    // The names go with the operation; the shapes' storage stays for the next one.
                    for (operand& described : operands)
                    {
                        described.names = named::dims();
                    }
                    return how;
                }
                else
                {
                    // A user's strategy may plan operations of its own from inside its plan.
                    std::array<operand, N> operands;
                    describe_operands(operands, refs);
                    return plan_operands<S>(operation, operands);
                }
            }

            template <class A>
            inline decltype(auto) unwrap(A&& a) noexcept
            {
                if constexpr (is_named_expression_v<A>)
                {
                    return std::forward<A>(a).expression();
                }
                else
                {
                    return std::forward<A>(a);
                }
            }

            /// An lvalue as a const lvalue; an rvalue, that the view takes over, as it is. An operation
            /// reads its operands through it, so that a mutable and a const operand give one expression
            /// type (one set of loops compiled), which xn::assign's view by name gives back.
            template <class T>
            inline decltype(auto) read_only(T&& t) noexcept
            {
                if constexpr (std::is_lvalue_reference<T>::value)
                {
                    return std::as_const(t);
                }
                else
                {
                    return std::forward<T>(t);
                }
            }

            /// The xtensor expression of an operand with axes as an elementwise tree (evaluated into a
            /// temporary if it is none, see as_tree); a scalar as it is.
            template <class A>
            inline decltype(auto) operand_tree(A&& a)
            {
                if constexpr (is_array_operand_v<A>)
                {
                    return as_tree(read_only(detail::unwrap(std::forward<A>(a))));
                }
                else
                {
                    return std::forward<A>(a);
                }
            }

            /// The position of each operand among the array operands (meaningless for a scalar).
            template <class... A>
            constexpr std::array<std::size_t, sizeof...(A)> array_positions() noexcept
            {
                constexpr bool is_array[] = {is_array_operand_v<A>..., false};
                std::array<std::size_t, sizeof...(A)> positions{};
                std::size_t next = 0;
                for (std::size_t i = 0; i < sizeof...(A); ++i)
                {
                    positions[i] = next;
                    next += is_array[i] ? 1 : 0;
                }
                return positions;
            }

            template <class A, std::size_t N>
            inline decltype(auto) aligned_argument(A&& a, const elementwise_plan<N>& how,
                                                   std::size_t position)
            {
                if constexpr (is_array_operand_v<A>)
                {
                    return aligned_view(read_only(detail::unwrap(std::forward<A>(a))), how.from[position]);
                }
                else
                {
                    return std::forward<A>(a);
                }
            }

            template <class F, std::size_t N, class Tuple, std::size_t... I>
            inline auto call_aligned(F&& make, const elementwise_plan<N>& how, Tuple&& args,
                                     std::index_sequence<I...>)
            {
                constexpr auto positions = array_positions<std::tuple_element_t<I, std::decay_t<Tuple>>...>();
                return make(aligned_argument(std::get<I>(std::move(args)), how, positions[I])...);
            }

            /// The metadata of each operand of `refs`, in order (nullptr for a plain expression).
            template <std::size_t N>
            inline std::array<const axes_metadata*, N> metadata_list(const operand_refs<N>& refs) noexcept
            {
                std::array<const axes_metadata*, N> result{};
                for (std::size_t k = 0; k < N; ++k)
                {
                    result[k] = refs[k].metadata;
                }
                return result;
            }

            /// The metadata of the one array operand of an operation that needs no plan.
            template <class A, class... R>
            inline axes_metadata single_metadata(const A& a, const R&... rest)
            {
                if constexpr (is_named_expression_v<A>)
                {
                    return a.metadata();
                }
                else if constexpr (is_plain_expression_v<A>)
                {
                    return axes_metadata{named::dims::unnamed(a.dimension()), named::coords()};
                }
                else
                {
                    return single_metadata(rest...);
                }
            }

            template <class S, std::size_t N>
            inline planned_operation<N> plan_operation(std::string_view operation,
                                                       const operand_refs<N>& operands)
            {
                auto how = plan_refs<S>(operation, operands);
                axes_metadata metadata =
                    combine_axes(operation, how.names, how.shape, metadata_list(operands), how.from);
                return planned_operation<N>{std::move(how), std::move(metadata)};
            }

            template <class S, std::size_t N>
            inline const planned_operation<N>& kept_plan(std::string_view operation,
                                                         const operand_refs<N>& operands)
            {
                auto& cache = thread_plan_cache<S, planned_operation<N>, N>();
                const planned_operation<N>* plan = cache.find(operands);
                if (plan == nullptr)
                {
                    plan = &cache.keep(plan_operation<S>(operation, operands), operands);
                }
                return *plan;
            }

            template <class S, class F, class... A>
            inline auto elementwise(std::string_view operation, F&& make, A&&... args)
            {
                return aligned_elementwise<S, shaping_of_t<S>>(operation, no_fill{}, std::forward<F>(make),
                                                               std::forward<A>(args)...);
            }

            template <class S, class Shaping, class Fill, class F, class... A>
            inline auto aligned_elementwise(std::string_view operation, const Fill& fill, F&& make,
                                            A&&... args)
            {
                using tensor_type = tensor_element_t<A...>;
                if constexpr ((takes_weak_type_v<tensor_type, A> || ...))
                {
                    // The numbers take the tensors' element type first (weak scalars, as numpy 2's): each
                    // stays an xtensor scalar, which the kernels splat into a register.
                    return aligned_elementwise<S, Shaping>(
                        operation, fill, std::forward<F>(make),
                        weak_operand<tensor_type>(std::forward<A>(args))...);
                }
                else if constexpr (array_count_v<A...> <= 1)
                {
                    // One operand with axes lines up with nothing: it keeps its axes, unviewed.
                    auto metadata = single_metadata(args...);
                    const auto expression = [&] { return make(operand_tree(std::forward<A>(args))...); };
                    return xnamed<decltype(expression()), S>(built_in_place, expression, std::move(metadata));
                }
                else
                {
                    // The operands aligned by label go the way unlabelled operands go.
                    const auto planned = [&](auto&&... operands)
                    {
                        const auto build = [&](const auto& how, axes_metadata metadata)
                        {
                            const auto expression = [&]
                            {
                                return call_aligned(
                                    std::forward<F>(make), how,
                                    std::forward_as_tuple(std::forward<decltype(operands)>(operands)...),
                                    std::index_sequence_for<decltype(operands)...>{});
                            };
                            return xnamed<decltype(expression()), S>(built_in_place, expression,
                                                                     std::move(metadata));
                        };
                        shape_copies<std::decay_t<decltype(operands)>...> copies;
                        const auto refs = refs_of(copies, operands...);
                        // A loop body builds the same operation again and again: its plan is kept.
                        if constexpr (builtin_strategy<S>::value)
                        {
                            if (!any_labelled(refs))
                            {
                                const planned_operation<array_count_v<A...>>& plan =
                                    kept_plan<S>(operation, refs);
                                return build(plan.how, plan.metadata);
                            }
                        }
                        auto plan = plan_operation<S>(operation, refs);
                        return build(plan.how, std::move(plan.metadata));
                    };
                    return std::apply(planned,
                                      align_operands<Shaping, F>(operation, fill, std::forward<A>(args)...));
                }
            }

            template <class S, class A, class B>
            inline auto broadcast_pair(std::string_view operation, A&& a, B&& b)
            {
                const auto planned = [&](auto&& aligned_a, auto&& aligned_b)
                {
                    using AA = decltype(aligned_a);
                    using AB = decltype(aligned_b);
                    shape_copies<std::decay_t<AA>, std::decay_t<AB>> copies;
                    const auto refs = refs_of(copies, aligned_a, aligned_b);
                    const auto how = plan_refs<S>(operation, refs);
                    // Both views show the result's axes, and so the labels both operands bring to them.
                    const auto both = metadata_list(refs);
                    auto metadata_a = combine_axes(operation, how.names, how.shape, both, how.from);
                    auto metadata_b = metadata_a;
                    // An lvalue is seen through a read-only view: its elements appear more than once.
                    auto view_a = broadcast_view(read_only(detail::unwrap(std::forward<AA>(aligned_a))),
                                                 how.from[0], how.shape);
                    auto view_b = broadcast_view(read_only(detail::unwrap(std::forward<AB>(aligned_b))),
                                                 how.from[1], how.shape);
                    return std::make_pair(
                        xnamed<decltype(view_a), S>(std::move(view_a), std::move(metadata_a)),
                        xnamed<decltype(view_b), S>(std::move(view_b), std::move(metadata_b)));
                };
                using shaping = shaping_of_t<S>;
                return std::apply(planned, align_operands<shaping>(operation, no_fill{}, std::forward<A>(a),
                                                                   std::forward<B>(b)));
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
