/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XEXPLICIT_BROADCAST_HPP
#define XTENSOR_NAMED_XEXPLICIT_BROADCAST_HPP

// Explicit broadcasting (docs/explicit_broadcasting.md): the caller says which shape, and which axes are new.
// Decisions:
// - Every result is a lazy, read-only xtensor expression: an xt::xbroadcast, as the
//   detail::xreadonly_broadcast that makes a write through it one static_assert sentence
//   (detail/kernels/xreadonly_broadcast.hpp says how), over the input itself (broadcast_to) or over a view
//   that inserts size-1 axes at the new positions and permutes named axes (broadcast, broadcast_in_dim,
//   broadcast_like): the strided view of detail::aligned_view for an input with a data interface, an
//   index-reading one for any other (detail/expression/xaligned_view.hpp says why). Nothing is copied before
//   evaluation.
// - broadcast_like lines the input up with the target under the input's strategy, as the operators
//   would, and requires the broadcast to give exactly the target's axes: the result has the target's
//   dims and shape (unlike xarray's broadcast_like, which keeps the input's order and adds the
//   target's other axes in front).
// - An lvalue input is held by const reference, an rvalue one is owned, as xtensor's closures do.
// - Everything is checked before the expression is built: shapes must be concrete, axes non-negative,
//   in range and not repeated, a mapping strictly increasing; xtensor's own xt::broadcast would
//   silently turn a target size of 1 into the input's size, which numpy refuses.

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xbroadcast_plan.hpp"
#include "xcompat_xtensor.hpp"
#include "xerrors.hpp"
#include "xnamed_expression.hpp"
#include "detail/expression/xaligned_view.hpp"
#include "detail/operations/xbroadcast_arguments.hpp"
#include "detail/kernels/xreadonly_broadcast.hpp"

namespace xt
{
    namespace named
    {
        /**
         * Broadcasts `e` to exactly `shape` by numpy's rule (core.matrix's explicit broadcast): axes line up
         * from the right, a size-1 axis stretches, leading axes are added. The result is a lazy,
         * read-only view.
         * @code
         * xt::xarray<double> v = {1., 2.};
         * auto m = xn::broadcast_to(v, {3, 2});  // {{1, 2}, {1, 2}, {1, 2}}
         * auto s = xn::broadcast_to(1.0, {3, 2});
         * @endcode
         * Throws xn::shape_error for a shape that is not concrete, xn::broadcast_error when `e`'s shape
         * does not broadcast to `shape`.
         */
        template <class E>
        auto broadcast_to(E&& e, const detail::shape_arg& shape);

        /**
         * nGraph's Broadcast: `axes` are the axes of `shape` that `e` lacks (a set: any order, no
         * repeats); `shape` without them must equal `e`'s shape exactly. Output element `C` is `e`'s
         * element at `C` with the broadcast axes removed. The result is a lazy, read-only view.
         * @code
         * xt::xarray<double> arg = {1., 2., 3.};
         * auto rows = xn::broadcast(arg, {2, 3}, {0});  // {{1, 2, 3}, {1, 2, 3}}
         * auto cols = xn::broadcast(arg, {3, 2}, {1});  // {{1, 1}, {2, 2}, {3, 3}}
         * @endcode
         * Throws xn::shape_error for bad axes or a shape that is not concrete, xn::broadcast_error
         * (naming `e`'s shape, `shape` and `axes`) when the shapes do not fit.
         */
        template <class E>
        auto broadcast(E&& e, const detail::shape_arg& shape, const detail::axes_arg& axes);

        /**
         * XLA's BroadcastInDim: input axis `i` becomes output axis `mapping[i]` (strictly increasing),
         * the other output axes are new, and a size-1 input axis may stretch. The result is a lazy,
         * read-only view.
         * @code
         * xt::xarray<double> x = xt::ones<double>({3, 1});
         * auto y = xn::broadcast_in_dim(x, {3, 4, 5}, {0, 2});  // x(i, 0) at y(i, j, k)
         * @endcode
         * Throws xn::shape_error for a bad mapping or a shape that is not concrete, xn::broadcast_error
         * when a size neither fits its output axis nor is 1.
         */
        template <class E>
        auto broadcast_in_dim(E&& e, const detail::shape_arg& shape, const detail::axes_arg& mapping);

        /**
         * Broadcasts the named expression `a` to the dims and shape of `b` (a named expression, or an
         * xn::operand with a known shape). Axes line up under `a`'s strategy, as its operators would line
         * them up (so named axes may be permuted), and every axis of `a` must land on an axis of `b` of
         * the same size or have size 1. The result is a lazy, read-only named view with `b`'s dims and
         * shape and `a`'s strategy.
         * @code
         * auto bias = xn::name(xt::xarray<double>{1., 2., 3.}, {"feature"});
         * auto x = xn::name(xt::xarray<double>(xt::zeros<double>({4, 3})), {"batch", "feature"});
         * auto b = xn::broadcast_like(bias, x);  // (batch, feature), shape (4, 3)
         * @endcode
         * Throws xn::broadcast_error when `a` cannot be broadcast to `b`, xn::shape_error for an operand
         * `b` whose shape is not concrete.
         */
        template <class A, class B>
        auto broadcast_like(A&& a, const B& b);

        namespace detail
        {
            /// The view of `e` whose axis i shows axis `from[i]` of `e` or a new size-1 axis (xn::unknown),
            /// broadcast to `shape`; `e` is held const.
            template <class E>
            auto broadcast_aligned(E&& e, const axis_map& from, std::vector<std::size_t> shape);

            /// "the input of shape (3) and the shape (2, 4) with broadcast axes {0}": the three names of a
            /// misfit, as every broadcast_error message gives them.
            std::string describe_explicit(const std::vector<std::size_t>& input,
                                          const std::vector<std::size_t>& shape, std::string_view role,
                                          const std::string& axes);
        } // namespace detail

        /*****************************************
         * implementation of explicit broadcasts *
         *****************************************/

        namespace detail
        {
            template <class E>
            inline auto broadcast_aligned(E&& e, const axis_map& from, std::vector<std::size_t> shape)
            {
                return readonly_broadcast(readonly_aligned_view(std::forward<E>(e), from), std::move(shape));
            }

            inline std::string describe_explicit(const std::vector<std::size_t>& input,
                                                 const std::vector<std::size_t>& shape, std::string_view role,
                                                 const std::string& axes)
            {
                return concat("the input of shape ", sizes_string(input), " does not fit the shape ",
                              sizes_string(shape), " with ", role, " ", axes);
            }
        } // namespace detail

        template <class E>
        inline auto broadcast_to(E&& e, const detail::shape_arg& shape)
        {
            constexpr bool is_input =
                xt::is_xexpression<std::decay_t<E>>::value || std::is_arithmetic<std::decay_t<E>>::value;
            static_assert(is_input, "xn::broadcast_to: the input must be an xtensor expression or a number; "
                                    "for a named expression, use xn::broadcast_like.");
            // Only the sentence above is reported for an input of the wrong kind.
            if constexpr (is_input)
            {
                auto target = shape.concrete("broadcast_to");
                const auto input = detail::shape_of(e);
                if (input.size() > target.size())
                {
                    detail::throw_broadcast_error("broadcast_to", "cannot broadcast the input of shape ",
                                                  detail::sizes_string(input), " to the shape ",
                                                  detail::sizes_string(target), ": the input has rank ",
                                                  input.size(), ", more than the target's ", target.size());
                }
                const auto mapping = detail::trailing_mapping(input.size(), target.size());
                if (const auto axis = detail::first_misfit(input, target, mapping))
                {
                    detail::throw_broadcast_error(
                        "broadcast_to", "cannot broadcast the input of shape ", detail::sizes_string(input),
                        " to the shape ", detail::sizes_string(target), ": input axis ", *axis, " (size ",
                        input[*axis], ") lines up with output axis ", mapping[*axis], " (size ",
                        target[mapping[*axis]],
                        "), and numpy's rule needs equal sizes or an input size of 1");
                }
                return detail::readonly_broadcast(std::forward<E>(e), std::move(target));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class E>
        inline auto broadcast(E&& e, const detail::shape_arg& shape, const detail::axes_arg& axes)
        {
            constexpr bool is_input = xt::is_xexpression<std::decay_t<E>>::value;
            static_assert(is_input, "xn::broadcast: the input must be an xtensor expression; "
                                    "for a named expression, use xn::broadcast_like.");
            if constexpr (is_input)
            {
                auto target = shape.concrete("broadcast");
                const auto input = detail::shape_of(e);
                const auto new_axes = detail::check_axis_set(
                    "broadcast", "broadcast axes", axes, target.size(),
                    [&] { return detail::concat("the output shape ", detail::sizes_string(target)); });
                // nGraph: the shape of arg must match shape with the broadcast axes removed, exactly.
                const auto kept = detail::complement(new_axes, target.size());
                std::vector<std::size_t> remaining;
                for (std::size_t axis : kept)
                {
                    remaining.push_back(target[axis]);
                }
                const auto what = [&]
                { return detail::describe_explicit(input, target, "broadcast axes", axes.to_string()); };
                if (kept.size() != input.size())
                {
                    detail::throw_broadcast_error("broadcast", what(),
                                                  ": without its broadcast axes the shape is ",
                                                  detail::sizes_string(remaining), ", of rank ",
                                                  remaining.size(), ", but the input has rank ", input.size(),
                                                  "; it must equal the input's shape exactly");
                }
                for (std::size_t i = 0; i < input.size(); ++i)
                {
                    if (input[i] != remaining[i])
                    {
                        detail::throw_broadcast_error(
                            "broadcast", what(), ": input axis ", i, " has size ", input[i],
                            " but output axis ", kept[i], " has size ", remaining[i],
                            "; without its broadcast axes the shape is ", detail::sizes_string(remaining),
                            ", and it must equal the input's shape exactly");
                    }
                }
                const auto from = detail::axes_from_mapping(kept, target.size());
                return detail::broadcast_aligned(std::forward<E>(e), from, std::move(target));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class E>
        inline auto broadcast_in_dim(E&& e, const detail::shape_arg& shape, const detail::axes_arg& mapping)
        {
            constexpr bool is_input = xt::is_xexpression<std::decay_t<E>>::value;
            static_assert(is_input, "xn::broadcast_in_dim: the input must be an xtensor expression; "
                                    "for a named expression, use xn::broadcast_like.");
            if constexpr (is_input)
            {
                auto target = shape.concrete("broadcast_in_dim");
                const auto input = detail::shape_of(e);
                const auto map = detail::check_mapping(
                    "broadcast_in_dim", mapping, input.size(), target.size(),
                    [&]
                    {
                        return detail::concat("input shape ", detail::sizes_string(input), ", output shape ",
                                              detail::sizes_string(target));
                    });
                if (const auto axis = detail::first_misfit(input, target, map))
                {
                    detail::throw_broadcast_error(
                        "broadcast_in_dim",
                        detail::describe_explicit(input, target, "mapping", mapping.to_string()),
                        ": input axis ", *axis, " (size ", input[*axis], ") goes to output axis ", map[*axis],
                        " (size ", target[map[*axis]], "); a size must equal its output axis' size or be 1");
                }
                const auto from = detail::axes_from_mapping(map, target.size());
                return detail::broadcast_aligned(std::forward<E>(e), from, std::move(target));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class A, class B>
        inline auto broadcast_like(A&& a, const B& b)
        {
            constexpr bool is_input = is_named_expression_v<A>;
            constexpr bool is_target = is_named_expression_v<B> || std::is_same<B, operand>::value;
            static_assert(is_input,
                          "xn::broadcast_like: the input must be a named expression (made by xn::name); "
                          "for a plain xtensor expression, use xn::broadcast_to.");
            static_assert(is_target,
                          "xn::broadcast_like: the target must be a named expression or an xn::operand.");
            if constexpr (is_input && is_target)
            {
                using strategy = typename std::decay_t<A>::strategy_type;
                const operand target = detail::target_operand("broadcast_like", b);
                const operand input = detail::operand_of(a);
                const auto from = detail::place_within<strategy>(
                    "broadcast_like", target, input,
                    [&] {
                        return detail::concat("cannot broadcast ", input.to_string(), " to ",
                                              target.to_string());
                    });
                auto shape = target.shape.to_concrete("broadcast_like");
                auto metadata = detail::target_metadata(b, target);
                auto view =
                    detail::broadcast_aligned(std::forward<A>(a).expression(), from, std::move(shape));
                return xnamed<decltype(view), strategy>(std::move(view), std::move(metadata));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }
    } // namespace named
} // namespace xt

#endif
