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

        /**
         * `value` where `a` is NaN, `a` elsewhere, as xarray's fillna. A number takes the element type of
         * `a` (xarray keeps the dtype); an expression lines up with `a` under their broadcasting strategy,
         * and by label under xn::join_left: the result has `a`'s labels, NaN where `value` lacks one.
         * Lazy, as every elementwise function.
         * @code
         * auto filled = xn::fillna(temperature, 0.0);
         * @endcode
         */
        template <class A, class V>
        auto fillna(A&& a, V&& value);

        /**
         * `a`'s values where they are not NaN, `b`'s elsewhere, on the outer join of their labels
         * (xn::join_outer), as xarray's combine_first: a label that only one operand has takes that
         * operand's value, NaN where neither has a value. Both operands hold floating point numbers (NaN
         * marks what is missing); the result has their common element type. Lazy.
         * @code
         * auto merged = xn::combine_first(station, backup);  // station's readings, gaps from backup
         * @endcode
         */
        template <class A, class B>
        auto combine_first(A&& a, B&& b);

        namespace detail
        {
            /// The xfunction of fill_nan_fun over two xtensor arguments or numbers.
            struct make_fill_nan
            {
                template <class X, class Y>
                auto operator()(X&& x, Y&& y) const
                {
                    return xt::detail::make_xfunction<fill_nan_fun>(std::forward<X>(x), std::forward<Y>(y));
                }
            };

            template <class E, class = void>
            struct element_type_of
            {
                using type = E;
            };

            template <class E>
            struct element_type_of<E, std::void_t<typename E::value_type>>
            {
                using type = typename E::value_type;
            };

            /// The element type of an expression, or the type of a number.
            template <class E>
            using element_type_of_t = typename element_type_of<std::decay_t<E>>::type;
        } // namespace detail

        template <class A, class V>
        inline auto fillna(A&& a, V&& value)
        {
            static_assert(is_named_expression_v<A>,
                          "xn::fillna: the first argument must be a named expression.");
            static_assert(
                detail::all_operands_v<V>,
                "xn::fillna: the value must be a number, a named expression or an xtensor expression.");
            if constexpr (!is_named_expression_v<A> || !detail::all_operands_v<V>)
            {
                return detail::invalid_named_expression{};
            }
            else if constexpr (detail::is_scalar_operand_v<V>)
            {
                using element_type = typename std::decay_t<A>::value_type;
                return detail::elementwise_function("fillna", detail::make_fill_nan{}, std::forward<A>(a),
                                                    static_cast<element_type>(value));
            }
            else
            {
                detail::check_strategies<A, V>();
                return detail::aligned_elementwise<detail::common_strategy_t<A, V>, join_left>(
                    "fillna", detail::no_fill{}, detail::make_fill_nan{}, std::forward<A>(a),
                    std::forward<V>(value));
            }
        }

        template <class A, class B>
        inline auto combine_first(A&& a, B&& b)
        {
            constexpr bool arrays =
                detail::is_array_operand_v<A> && detail::is_array_operand_v<B> && detail::any_named_v<A, B>;
            static_assert(arrays, "xn::combine_first: both operands must be named or xtensor expressions, "
                                  "and one of them at least named.");
            constexpr bool floating = std::is_floating_point<detail::element_type_of_t<A>>::value &&
                                      std::is_floating_point<detail::element_type_of_t<B>>::value;
            static_assert(!arrays || floating,
                          "xn::combine_first: the elements must be floating point numbers: NaN marks what an "
                          "operand lacks (xn::cast<double>(e) converts an integer expression).");
            if constexpr (arrays && floating)
            {
                detail::check_strategies<A, B>();
                return detail::aligned_elementwise<detail::common_strategy_t<A, B>, join_outer>(
                    "combine_first", detail::no_fill{}, detail::make_fill_nan{}, std::forward<A>(a),
                    std::forward<B>(b));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
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
