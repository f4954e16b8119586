/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XOPERAND_KINDS_HPP
#define XTENSOR_NAMED_DETAIL_XOPERAND_KINDS_HPP

// The kinds of operand an elementwise operation takes: named expressions, plain xtensor expressions
// (all axes "?") and scalars.

#include <cstddef>
#include <type_traits>

#include <xtl/xcomplex.hpp>

#include "../../xcompat_xtensor.hpp"
#include "../../xnamed_expression.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// An xtensor expression that is not named: its axes are all `"?"`.
            template <class T>
            inline constexpr bool is_plain_expression_v = xt::is_xexpression<std::decay_t<T>>::value;

            /// A named or plain expression: an operand that has axes.
            template <class T>
            inline constexpr bool is_array_operand_v = is_named_expression_v<T> || is_plain_expression_v<T>;

            /// A number that xtensor broadcasts as a scalar.
            template <class T>
            inline constexpr bool is_scalar_operand_v =
                std::is_arithmetic<std::decay_t<T>>::value || xtl::is_complex<std::decay_t<T>>::value;

            template <class... A>
            inline constexpr bool any_named_v = (is_named_expression_v<A> || ...);

            template <class... A>
            inline constexpr bool all_operands_v = ((is_array_operand_v<A> || is_scalar_operand_v<A>)&&...);

            template <class... A>
            inline constexpr std::size_t array_count_v = (std::size_t(is_array_operand_v<A>) + ... + 0);
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
