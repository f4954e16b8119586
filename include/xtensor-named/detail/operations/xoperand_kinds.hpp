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
// (all axes "?") and scalars, and the type a scalar takes beside the others (weak_operand).

#include <complex>
#include <cstddef>
#include <type_traits>
#include <utility>

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

            /**
             * Weak scalars, as numpy 2 (NEP 50), PyTorch and JAX have them: a number takes the element type
             * of the tensors it meets unless it is of a higher kind (bool < integer < floating < complex).
             * A floating number with integer or bool tensors takes the default floating type, double (numpy's
             * float64); an integer with bool tensors, or with integer tensors narrower than int (which C++
             * computes in int), keeps its type; a complex number takes the complex type of the tensors'
             * floating type; a real number with complex tensors takes their real type.
             */
            template <class V>
            inline constexpr int number_kind_v = std::is_same<V, bool>::value       ? 0
                                                 : std::is_integral<V>::value       ? 1
                                                 : std::is_floating_point<V>::value ? 2
                                                 : xtl::is_complex<V>::value        ? 3
                                                                                    : -1;

            template <class T, class V, int TK = number_kind_v<T>, int VK = number_kind_v<V>>
            struct weak_scalar
            {
                // A tensor or number of a kind not listed (a user's type) leaves the number as it is.
                using type = V;
            };

            template <class T, class V, int K>
            struct weak_scalar<T, V, K, K>
            {
                using type = T;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 3, 3>
            {
                using type = T;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 1, 1>
            {
                // C++ computes integers narrower than int in int: converting the number to such a type
                // would change no result type, only wrap a number beyond its range (uint8 == 300).
                using type = std::conditional_t<(sizeof(T) < sizeof(int)), V, T>;
            };

            template <class T, class V, int VK>
            struct weak_scalar<T, V, 3, VK>
            {
                using type = std::conditional_t<(VK >= 0), typename T::value_type, V>;
            };

            template <class T, class V, int TK>
            struct weak_scalar<T, V, TK, 3>
            {
                using type = std::conditional_t<TK == 2, std::complex<T>,
                                                std::conditional_t<(TK >= 0), std::complex<double>, V>>;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 2, 0>
            {
                using type = T;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 2, 1>
            {
                using type = T;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 1, 0>
            {
                using type = T;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 1, 2>
            {
                using type = double;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 0, 2>
            {
                using type = double;
            };

            template <class T, class V>
            struct weak_scalar<T, V, 0, 1>
            {
                using type = V;
            };

            /// The type that a number of type V takes beside tensors of element type T (void: no tensor).
            template <class T, class V>
            using weak_scalar_t = typename weak_scalar<T, V>::type;

            /// The element type of an operand with axes; void for a number.
            template <class A, bool = is_array_operand_v<A>>
            struct operand_element
            {
                using type = void;
            };

            template <class A>
            struct operand_element<A, true>
            {
                using type = typename std::decay_t<A>::value_type;
            };

            template <class T, class U, class = void>
            struct common_element
            {
                // Element types without a common type (a user's types): the numbers are left as they are.
                using type = void;
            };

            template <class T, class U>
            struct common_element<T, U, std::void_t<std::common_type_t<T, U>>>
            {
                using type = std::common_type_t<T, U>;
            };

            template <class U>
            struct common_element<void, U, void>
            {
                using type = U;
            };

            /// The common element type of the operands with axes among A (void when there is none).
            template <class... A>
            struct tensor_element
            {
                using type = void;
            };

            template <class A, class... R>
            struct tensor_element<A, R...>
            {
                using own = typename operand_element<A>::type;
                using rest = typename tensor_element<R...>::type;
                using type = typename std::conditional_t<std::is_void<own>::value, tensor_element<R...>,
                                                         common_element<rest, own>>::type;
            };

            template <class... A>
            using tensor_element_t = typename tensor_element<A...>::type;

            /// Whether the operand A, among operands whose tensors have element type T, is a number that
            /// takes another type.
            template <class T, class A>
            inline constexpr bool takes_weak_type_v =
                is_scalar_operand_v<A> && !std::is_void<T>::value &&
                !std::is_same<weak_scalar_t<T, std::decay_t<A>>, std::decay_t<A>>::value;

            /// A number converted to the type it takes beside tensors of element type T (a prvalue, which
            /// xtensor's scalar then owns); any other operand forwarded as it is.
            template <class T, class A>
            inline decltype(auto) weak_operand(A&& a)
            {
                if constexpr (takes_weak_type_v<T, A>)
                {
                    return static_cast<weak_scalar_t<T, std::decay_t<A>>>(a);
                }
                else
                {
                    return std::forward<A>(a);
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
