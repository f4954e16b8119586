/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_MATH_HPP
#define XTENSOR_NAMED_XNAMED_MATH_HPP

// The elementwise functions of xtensor's xmath and xoperation on named expressions: xn::exp,
// xn::pow, xn::where, ... Each forwards to the xtensor function of the same name through the path of the
// operators (detail/operations/xelementwise.hpp): operands may be named, plain or numbers; the named ones
// line up under their strategy and the result is a lazy named expression. Without a named operand, the result
// is xtensor's own.

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "xcompat_xtensor.hpp"
#include "xnamed_expression.hpp"
#include "xnamed_operators.hpp"
#include "detail/operations/xelementwise.hpp"
#include "detail/kernels/xfunctors.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// An elementwise function of xtensor, `make`, on the arguments of xn::<name>.
            template <class F, class... A>
            inline auto elementwise_function(std::string_view operation, F&& make, A&&... args)
            {
                constexpr bool valid = all_operands_v<A...> && array_count_v<A...> >= 1;
                static_assert(
                    valid || any_refused_v<A...>,
                    "xn: the arguments of an elementwise function must be named expressions, xtensor "
                    "expressions or numbers, and one of them at least must have axes (xt::adapt "
                    "makes an xtensor expression of a std::vector).");
                if constexpr (!valid)
                {
                    return invalid_named_expression{};
                }
                else if constexpr (any_named_v<A...>)
                {
                    return named_operation(operation, std::forward<F>(make), std::forward<A>(args)...);
                }
                else
                {
                    return make(std::forward<A>(args)...);
                }
            }
        } // namespace detail

// xn::NAME(args...) is xtensor's NAME on named expressions, plain expressions and numbers.
#define XTENSOR_NAMED_ELEMENTWISE_FUNCTION(NAME, ARITY)                                                      \
    template <class... A>                                                                                    \
    inline auto NAME(A&&... args)                                                                            \
    {                                                                                                        \
        static_assert(sizeof...(A) == ARITY, "xn::" #NAME " takes " #ARITY " argument(s).");                 \
        return detail::elementwise_function(                                                                 \
            #NAME, [](auto&&... x) { return xt::NAME(std::forward<decltype(x)>(x)...); },                    \
            std::forward<A>(args)...);                                                                       \
    }

        // Basic functions, powers, exponentials and logarithms (xmath.hpp).
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(abs, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fabs, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fmod, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(remainder, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fma, 3)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fmax, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fmin, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(fdim, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(maximum, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(minimum, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(clip, 3)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(sign, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(deg2rad, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(radians, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(rad2deg, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(degrees, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(exp, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(exp2, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(expm1, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(log, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(log10, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(log2, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(log1p, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(pow, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(sqrt, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(cbrt, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(hypot, 2)
        // Trigonometric and hyperbolic functions.
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(sin, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(cos, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(tan, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(asin, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(acos, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(atan, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(atan2, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(sinh, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(cosh, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(tanh, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(asinh, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(acosh, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(atanh, 1)
        // Error and gamma functions, rounding, classification.
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(erf, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(erfc, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(tgamma, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(lgamma, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(ceil, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(floor, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(trunc, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(round, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(nearbyint, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(rint, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(isfinite, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(isinf, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(isnan, 1)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(nan_to_num, 1)
        // Elementwise comparisons, selection and shifts (xoperation.hpp).
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(equal, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(not_equal, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(less, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(less_equal, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(greater, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(greater_equal, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(where, 3)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(left_shift, 2)
        XTENSOR_NAMED_ELEMENTWISE_FUNCTION(right_shift, 2)

#undef XTENSOR_NAMED_ELEMENTWISE_FUNCTION

        /// The elementwise N-th power by repeated multiplication, with xt::pow<N>'s values.
        template <std::size_t N, class E>
        inline auto pow(E&& e)
        {
            return detail::elementwise_function(
                "pow",
                [](auto&& x)
                { return detail::own_function<detail::pow_fun<N>>(std::forward<decltype(x)>(x)); },
                std::forward<E>(e));
        }

        /// x * x, with xt::square's values.
        template <class E>
        inline auto square(E&& e)
        {
            return detail::elementwise_function(
                "square",
                [](auto&& x)
                { return detail::own_function<detail::square_fun>(std::forward<decltype(x)>(x)); },
                std::forward<E>(e));
        }

        /// x * x * x, with xt::cube's values.
        template <class E>
        inline auto cube(E&& e)
        {
            return detail::elementwise_function(
                "cube",
                [](auto&& x) { return detail::own_function<detail::cube_fun>(std::forward<decltype(x)>(x)); },
                std::forward<E>(e));
        }

        /// xtensor's cast<R>: the elements converted to R.
        template <class R, class E>
        inline auto cast(E&& e)
        {
            return detail::elementwise_function(
                "cast", [](auto&& x) { return xt::cast<R>(std::forward<decltype(x)>(x)); },
                std::forward<E>(e));
        }

        /// xtensor's isclose: elementwise |a - b| <= atol + rtol * |b|.
        template <class A, class B>
        inline auto isclose(A&& a, B&& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false)
        {
            return detail::elementwise_function(
                "isclose",
                [=](auto&& x, auto&& y) {
                    return xt::isclose(std::forward<decltype(x)>(x), std::forward<decltype(y)>(y), rtol, atol,
                                       equal_nan);
                },
                std::forward<A>(a), std::forward<B>(b));
        }
    } // namespace named
} // namespace xt

#endif
