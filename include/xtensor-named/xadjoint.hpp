/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XADJOINT_HPP
#define XTENSOR_NAMED_XADJOINT_HPP

// The adjoints of the explicit broadcasts: what backpropagation does with a gradient that
// arrives in a broadcast's shape. In nGraph, the backprop of Broadcast is Sum(delta, broadcast_axes).
// Decisions:
// - Every result is a lazy xt::sum (no copy before evaluation). sum_to, sum_in_dim and unbroadcast are
//   one reducer over the axes that broadcasting added, under one reducer that keeps the stretched
//   size-1 axes as size 1: xt::sum(xt::sum(g, added), stretched, keep_dims).
// - A size-1 axis stretched to any other size, 0 included, is summed: the gradient of a size-1 axis
//   has size 1 whatever it was broadcast to.
// - unbroadcast lines `like` up with the gradient under the gradient's strategy, as xn::broadcast_like
//   lines its input up with its target; the gradient's axes are first permuted (by
//   detail::readonly_aligned_view) so that the axes `like` lacks come first and the others follow in
//   `like`'s order.
// - broadcast_gradient_axes follows TensorFlow's BroadcastGradientArgs with numpy's rule, except that
//   an axis where every operand has size 1 is summed by none of them (nothing is stretched there).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xbroadcast_plan.hpp"
#include "xcompat_xtensor.hpp"
#include "xerrors.hpp"
#include "xnamed_expression.hpp"
#include "xpartial_shape.hpp"
#include "xstrategies.hpp"
#include "detail/expression/xaligned_view.hpp"
#include "detail/operations/xbroadcast_arguments.hpp"
#include "detail/operations/xelementwise.hpp"

namespace xt
{
    namespace named
    {
        /**
         * The adjoint of xn::broadcast_to: sums `g` (a gradient in the broadcast's shape) back to `shape`,
         * numpy's rule in reverse. The leading axes that broadcasting added are summed away, the size-1
         * axes it stretched are summed and kept with size 1. The result is a lazy xt::sum.
         * @code
         * xt::xarray<double> dy = xt::ones<double>({4, 3});
         * xt::xarray<double> db = xn::sum_to(dy, {3});  // {4, 4, 4}
         * @endcode
         * Throws xn::shape_error for a shape that is not concrete, xn::broadcast_error when `shape` does not
         * broadcast to `g`'s shape.
         */
        template <class G>
        auto sum_to(G&& g, const detail::shape_arg& shape);

        /**
         * The adjoint of xn::broadcast (nGraph's Sum(delta, broadcast_axes)): sums `g` over `axes` (a set:
         * any order, no repeats), which disappear. The result is a lazy xt::sum.
         * @code
         * xt::xarray<double> dy = xt::ones<double>({2, 3});
         * xt::xarray<double> darg = xn::reduce_broadcast_axes(dy, {0});  // {2, 2, 2}
         * @endcode
         * Throws xn::shape_error for a negative, out-of-range or repeated axis.
         */
        template <class G>
        auto reduce_broadcast_axes(G&& g, const detail::axes_arg& axes);

        /**
         * The adjoint of xn::broadcast_in_dim: sums `g` (in the broadcast's shape) back to `shape`, the
         * input's shape, whose axis `i` went to axis `mapping[i]` of `g`. The other axes of `g` are summed
         * away, the stretched size-1 axes are summed and kept with size 1. The result is a lazy xt::sum.
         * @code
         * xt::xarray<double> dy = xt::ones<double>({3, 4, 5});
         * xt::xarray<double> dx = xn::sum_in_dim(dy, {3, 1}, {0, 2});  // shape (3, 1), each 20
         * @endcode
         * Throws xn::shape_error for a bad mapping or a shape that is not concrete, xn::broadcast_error
         * when a size of `shape` neither equals the size of its axis in `g` nor is 1.
         */
        template <class G>
        auto sum_in_dim(G&& g, const detail::shape_arg& shape, const detail::axes_arg& mapping);

        /**
         * The adjoint of a broadcast of named tensors (xn::broadcast_like, or an operator that broadcast
         * `like`): sums the gradient `g` over the axes that `like` (a named expression, or an xn::operand
         * with a known shape) lacks and over the size-1 axes of `like` that were stretched. Axes line up
         * under `g`'s strategy. The result is a lazy named xt::sum with `like`'s dims and shape and `g`'s
         * strategy.
         * @code
         * auto dy = xn::name(xt::xarray<double>(xt::ones<double>({4, 3})), {"batch", "feature"});
         * auto bias = xn::name(xt::xarray<double>{1., 2., 3.}, {"feature"});
         * auto dbias = xn::unbroadcast(dy, bias);  // (feature), {4, 4, 4}
         * @endcode
         * Throws xn::broadcast_error when `like` cannot have been broadcast to `g`, xn::shape_error for an
         * operand `like` whose shape is not concrete.
         */
        template <class G, class L>
        auto unbroadcast(G&& g, const L& like);

        /**
         * For two operands of shapes `a` and `b` broadcast together by numpy's rule, the axes of the
         * result that each operand's gradient must be summed over (TensorFlow's BroadcastGradientArgs):
         * axes where the operand is missing, and axes where it has size 1 and the result does not.
         * Works on partial shapes as long as the answer is known.
         * @code
         * auto [ra, rb] = xn::broadcast_gradient_axes(xn::partial_shape::of({2, 3, 5}),
         *                                             xn::partial_shape::of({3, 1}));
         * // ra == {}, rb == {0, 2}
         * @endcode
         * Throws xn::broadcast_error for shapes that do not broadcast, xn::shape_error where an unknown
         * rank or size leaves the answer undecided.
         */
        std::array<std::vector<std::int64_t>, 2> broadcast_gradient_axes(const partial_shape& a,
                                                                         const partial_shape& b);

        namespace detail
        {
            /// broadcast_gradient_axes takes two xtensor shapes or two named expressions.
            template <class A, class B>
            using enable_gradient_operands_t =
                std::enable_if_t<(is_integer_range_v<A> && is_integer_range_v<B>) ||
                                     (is_named_expression_v<A> && is_named_expression_v<B>),
                                 int>;
        } // namespace detail

        /**
         * broadcast_gradient_axes of two xtensor shapes (`x.shape()`, a std::vector of sizes), under
         * numpy's rule; or of two named expressions, under their broadcasting strategy: the result axes
         * (positions in the operation's result) that each operand's gradient sums over.
         * @code
         * auto [dx, db] = xn::broadcast_gradient_axes(x.shape(), b.shape());
         * auto [dimg, dlbl] = xn::broadcast_gradient_axes(img, lbl);  // lbl's sums over channel
         * @endcode
         */
        template <class A, class B, detail::enable_gradient_operands_t<A, B> = 0>
        std::array<std::vector<std::int64_t>, 2> broadcast_gradient_axes(const A& a, const B& b);

        namespace detail
        {
            /// Sums the axes `added` of `g` away, then sums the axes `stretched` of what remains keeping
            /// them with size 1: the one form every adjoint sum takes.
            template <class G>
            auto sum_back(G&& g, std::vector<std::size_t> added, std::vector<std::size_t> stretched);
        } // namespace detail

        /*****************************
         * implementation of adjoints *
         *****************************/

        namespace detail
        {
            template <class G>
            inline auto sum_back(G&& g, std::vector<std::size_t> added, std::vector<std::size_t> stretched)
            {
                return xt::sum(xt::sum(std::forward<G>(g), std::move(added), xt::evaluation_strategy::lazy),
                               std::move(stretched), xt::keep_dims | xt::evaluation_strategy::lazy);
            }
        } // namespace detail

        template <class G>
        inline auto sum_to(G&& g, const detail::shape_arg& shape)
        {
            constexpr bool is_input = xt::is_xexpression<std::decay_t<G>>::value;
            static_assert(is_input, "xn::sum_to: the gradient must be an xtensor expression; "
                                    "for a named expression, use xn::unbroadcast.");
            // Only the sentence above is reported for a gradient of the wrong kind.
            if constexpr (is_input)
            {
                const auto target = shape.concrete("sum_to");
                const auto grad = detail::shape_of(g);
                if (target.size() > grad.size())
                {
                    detail::throw_broadcast_error("sum_to", "cannot sum the gradient of shape ",
                                                  detail::sizes_string(grad), " to the shape ",
                                                  detail::sizes_string(target), ": the shape has rank ",
                                                  target.size(), ", more than the gradient's ", grad.size(),
                                                  ", so it does not broadcast to the gradient's shape");
                }
                auto mapping = detail::trailing_mapping(target.size(), grad.size());
                if (const auto axis = detail::first_misfit(target, grad, mapping))
                {
                    detail::throw_broadcast_error(
                        "sum_to", "cannot sum the gradient of shape ", detail::sizes_string(grad),
                        " to the shape ", detail::sizes_string(target),
                        ", which does not broadcast to it: axis ", *axis, " (size ", target[*axis],
                        ") lines up with gradient axis ", mapping[*axis], " (size ", grad[mapping[*axis]],
                        "), and numpy's rule needs equal sizes or a size of 1");
                }
                auto added = detail::complement(mapping, grad.size());
                auto stretched = detail::stretched_axes(target, grad, mapping);
                return detail::sum_back(std::forward<G>(g), std::move(added), std::move(stretched));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class G>
        inline auto reduce_broadcast_axes(G&& g, const detail::axes_arg& axes)
        {
            constexpr bool is_input = xt::is_xexpression<std::decay_t<G>>::value;
            static_assert(is_input, "xn::reduce_broadcast_axes: the gradient must be an xtensor expression; "
                                    "for a named expression, use xn::unbroadcast.");
            if constexpr (is_input)
            {
                const auto grad = detail::shape_of(g);
                auto sorted = detail::check_axis_set(
                    "reduce_broadcast_axes", "broadcast axes", axes, grad.size(),
                    [&] { return detail::concat("the gradient's shape ", detail::sizes_string(grad)); });
                return xt::sum(std::forward<G>(g), std::move(sorted), xt::evaluation_strategy::lazy);
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class G>
        inline auto sum_in_dim(G&& g, const detail::shape_arg& shape, const detail::axes_arg& mapping)
        {
            constexpr bool is_input = xt::is_xexpression<std::decay_t<G>>::value;
            static_assert(is_input, "xn::sum_in_dim: the gradient must be an xtensor expression; "
                                    "for a named expression, use xn::unbroadcast.");
            if constexpr (is_input)
            {
                const auto target = shape.concrete("sum_in_dim");
                const auto grad = detail::shape_of(g);
                auto map = detail::check_mapping("sum_in_dim", mapping, target.size(), grad.size(),
                                                 [&]
                                                 {
                                                     return detail::concat(
                                                         "shape ", detail::sizes_string(target),
                                                         ", gradient shape ", detail::sizes_string(grad));
                                                 });
                if (const auto axis = detail::first_misfit(target, grad, map))
                {
                    detail::throw_broadcast_error(
                        "sum_in_dim", "cannot sum the gradient of shape ", detail::sizes_string(grad),
                        " to the shape ", detail::sizes_string(target), " with mapping ", mapping.to_string(),
                        ": axis ", *axis, " (size ", target[*axis], ") goes to gradient axis ", map[*axis],
                        " (size ", grad[map[*axis]], "); a size must equal its gradient axis' size or be 1");
                }
                auto added = detail::complement(map, grad.size());
                auto stretched = detail::stretched_axes(target, grad, map);
                return detail::sum_back(std::forward<G>(g), std::move(added), std::move(stretched));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class G, class L>
        inline auto unbroadcast(G&& g, const L& like)
        {
            constexpr bool is_input = is_named_expression_v<G>;
            constexpr bool is_target = is_named_expression_v<L> || std::is_same<L, operand>::value;
            static_assert(is_input,
                          "xn::unbroadcast: the gradient must be a named expression (made by xn::name); "
                          "for a plain xtensor expression, use xn::sum_to.");
            static_assert(is_target, "xn::unbroadcast: `like` must be a named expression or an xn::operand.");
            if constexpr (is_input && is_target)
            {
                using strategy = typename std::decay_t<G>::strategy_type;
                const operand target = detail::target_operand("unbroadcast", like);
                const operand grad = detail::operand_of(g);
                const auto from = detail::place_within<strategy>(
                    "unbroadcast", grad, target,
                    [&] {
                        return detail::concat("cannot sum the gradient ", grad.to_string(), " back to ",
                                              target.to_string());
                    });
                // The gradient's axes that `like` lacks first, then its axis for each axis of `like`.
                detail::axis_map order;
                std::vector<std::size_t> source(target.names.size());
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    if (from[i] == named::no_axis)
                    {
                        order.push_back(static_cast<std::int64_t>(i));
                    }
                    else
                    {
                        source[static_cast<std::size_t>(from[i])] = i;
                    }
                }
                std::vector<std::size_t> added(order.size());
                for (std::size_t i = 0; i < added.size(); ++i)
                {
                    added[i] = i;
                }
                for (std::size_t axis : source)
                {
                    order.push_back(static_cast<std::int64_t>(axis));
                }
                auto stretched = detail::stretched_axes(target.shape.to_concrete("unbroadcast"),
                                                        grad.shape.to_concrete("unbroadcast"), source);
                auto metadata = detail::target_metadata(like, target);
                auto permuted = detail::readonly_aligned_view(std::forward<G>(g).expression(), order);
                auto sum = detail::sum_back(std::move(permuted), std::move(added), std::move(stretched));
                return xnamed<decltype(sum), strategy>(std::move(sum), std::move(metadata));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        namespace detail
        {
            /// broadcast_gradient_axes of two operands lined up under strategy S.
            template <class S>
            std::array<std::vector<std::int64_t>, 2> gradient_axes(const operand& first,
                                                                   const operand& second);
        } // namespace detail

        inline std::array<std::vector<std::int64_t>, 2> broadcast_gradient_axes(const partial_shape& a,
                                                                                const partial_shape& b)
        {
            return detail::gradient_axes<numpy>(operand::unnamed(a), operand::unnamed(b));
        }

        template <class A, class B, detail::enable_gradient_operands_t<A, B>>
        inline std::array<std::vector<std::int64_t>, 2> broadcast_gradient_axes(const A& a, const B& b)
        {
            if constexpr (is_named_expression_v<A> && is_named_expression_v<B>)
            {
                static_assert(detail::strategies_agree_v<A, B>,
                              "xn::broadcast_gradient_axes: the two named expressions must have the same "
                              "broadcasting strategy.");
                using strategy = detail::common_strategy_t<A, B>;
                return detail::gradient_axes<strategy>(operand{partial_shape::of(a.shape()), a.dims()},
                                                       operand{partial_shape::of(b.shape()), b.dims()});
            }
            else
            {
                return broadcast_gradient_axes(partial_shape::of(a), partial_shape::of(b));
            }
        }

        template <class S>
        inline std::array<std::vector<std::int64_t>, 2> detail::gradient_axes(const operand& first,
                                                                              const operand& second)
        {
            constexpr std::string_view operation = "broadcast_gradient_axes";
            const partial_shape& a = first.shape;
            const partial_shape& b = second.shape;
            const partial_shape* shapes[2] = {&a, &b};
            for (std::size_t k = 0; k < 2; ++k)
            {
                if (shapes[k]->is_unknown())
                {
                    detail::throw_shape_error(operation, "cannot decide the gradient axes of the shapes ",
                                              a.to_string(), " and ", b.to_string(), ": operand ", k,
                                              " has an unknown rank");
                }
            }
            const broadcast_plan p = detail::rethrow_within<broadcast_error>(
                operation, [&] { return plan<S>(first, second); },
                [&]
                {
                    return detail::concat("the shapes ", a.to_string(), " and ", b.to_string(),
                                          " do not broadcast together: ");
                });
            std::array<std::vector<std::int64_t>, 2> result;
            const auto rank = static_cast<std::int64_t>(p.names.size());
            for (std::int64_t i = 0; i < rank; ++i)
            {
                for (std::size_t k = 0; k < 2; ++k)
                {
                    const auto axis = p.axes[k][static_cast<std::size_t>(i)];
                    const auto other_axis = p.axes[1 - k][static_cast<std::size_t>(i)];
                    if (axis == named::no_axis)
                    {
                        result[k].push_back(i);
                        continue;
                    }
                    const auto size = shapes[k]->size(axis);
                    const auto other = other_axis == named::unknown ? partial_shape::size_type(1)
                                                                    : shapes[1 - k]->size(other_axis);
                    // A missing axis broadcasts like a size-1 one: either way the result takes the other
                    // size, so only the other operand's size decides.
                    if (size != named::unknown && size != 1)
                    {
                        continue;
                    }
                    if (size == 1 && other != named::unknown)
                    {
                        if (other != 1)
                        {
                            result[k].push_back(i);
                        }
                        continue;
                    }
                    if (size == named::unknown && other == 1)
                    {
                        continue;
                    }
                    detail::throw_shape_error(
                        operation, "cannot decide whether the gradient of operand ", k,
                        " sums over result axis ", i, " for the shapes ", a.to_string(), " and ",
                        b.to_string(), ": operand ", k, " has size ",
                        size == named::unknown ? std::string("?") : std::to_string(size), " at its axis ",
                        axis, " and operand ", 1 - k, " has size ",
                        other == named::unknown ? std::string("?") : std::to_string(other),
                        " there; it sums when its size is 1 and the result's is not");
                }
            }
            return result;
        }
    } // namespace named
} // namespace xt

#endif
