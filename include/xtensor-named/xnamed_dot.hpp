/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_DOT_HPP
#define XTENSOR_NAMED_XNAMED_DOT_HPP

// Named contraction, as xarray's xr.dot and Haliax's dot: xn::dot(a, b, {"k"}) multiplies a and b under
// their broadcasting strategy and sums the product over the named axes. The product is never stored: the
// sum reads it lazily, and the kernels evaluate both in one pass.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xnamed_expression.hpp"
#include "xnamed_operators.hpp"
#include "xnamed_reducers.hpp"

namespace xt
{
    namespace named
    {
        /**
         * The sum over `axes` of a * b (a and b lined up by their strategy): the result keeps the other
         * axes of the product, in its order. An axis may belong to one operand only (it is summed there).
         * @code
         * auto c = xn::dot(a, b, {"k"});   // (i, k) and (k, j) give (i, j)
         * @endcode
         */
        template <class A, class B>
        auto dot(A&& a, B&& b, const std::vector<std::string>& axes);

        /// The sum over one axis: xn::dot(a, b, "k"), as xr.dot(a, b, dims="k").
        template <class A, class B, class N, detail::enable_one_name_t<N> = 0>
        auto dot(A&& a, B&& b, const N& axis);

        /// xr.dot's default: the sum over every named axis that a and b share (none: the outer product).
        template <class A, class B>
        auto dot(A&& a, B&& b);

        /****************************
         * implementation of dot    *
         ****************************/

        namespace detail
        {
            /// The named axes that both dims have, in the order of `first`.
            inline std::vector<std::string> shared_names(const named::dims& first, const named::dims& second)
            {
                std::vector<std::string> shared;
                for (const auto& name : first)
                {
                    if (name != unnamed_axis && second.contains(name))
                    {
                        shared.push_back(name);
                    }
                }
                return shared;
            }
        } // namespace detail

        template <class A, class B>
        inline auto dot(A&& a, B&& b, const std::vector<std::string>& axes)
        {
            constexpr bool named = is_named_expression_v<A> && is_named_expression_v<B>;
            static_assert(named || detail::any_refused_v<A, B>,
                          "xn::dot: both operands must be named expressions (xn::name), so that the axes to "
                          "sum are found by name.");
            if constexpr (named)
            {
                return detail::reduce_by_names("dot", detail::sum_reducer{},
                                               std::forward<A>(a) * std::forward<B>(b),
                                               {axes.data(), axes.size()}, false);
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class A, class B, class N, detail::enable_one_name_t<N>>
        inline auto dot(A&& a, B&& b, const N& axis)
        {
            const std::vector<std::string> axes{std::string(std::string_view(axis))};
            return dot(std::forward<A>(a), std::forward<B>(b), axes);
        }

        template <class A, class B>
        inline auto dot(A&& a, B&& b)
        {
            constexpr bool named = is_named_expression_v<A> && is_named_expression_v<B>;
            static_assert(named || detail::any_refused_v<A, B>,
                          "xn::dot: both operands must be named expressions (xn::name), so that the axes to "
                          "sum are found by name.");
            if constexpr (named)
            {
                const std::vector<std::string> axes = detail::shared_names(a.dims(), b.dims());
                return dot(std::forward<A>(a), std::forward<B>(b), axes);
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }
    } // namespace named
} // namespace xt

#endif
