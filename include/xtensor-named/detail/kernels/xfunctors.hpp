/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XFUNCTORS_HPP
#define XTENSOR_NAMED_DETAIL_XFUNCTORS_HPP

// The functors of the library's own functions and reductions, where xtensor has none the kernels can
// recognise (its square, cube and pow<N> are lambdas) or none with the meaning numpy gives
// (xt::amax keeps a NaN only when it comes last). Each takes numbers, as xtensor's loops call it, and
// xsimd batches, as the kernels call it, and gives the same value either way.

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// `a` where `c`, `b` elsewhere, for numbers and for batches alike.
            template <class C, class V>
            inline V pick(const C& c, const V& a, const V& b) noexcept
            {
                if constexpr (std::is_arithmetic<V>::value)
                {
                    return c ? a : b;
                }
                else
                {
                    return xsimd::select(c, a, b);
                }
            }

            /// The elementwise function F of the library on the xtensor expression e.
            template <class F, class E>
            inline auto own_function(E&& e)
            {
                return xt::xfunction<F, xt::const_xclosure_t<E>>(F{}, std::forward<E>(e));
            }

            /// x * x, as xt::square computes it.
            struct square_fun
            {
                template <class V>
                V operator()(const V& x) const noexcept
                {
                    return x * x;
                }
            };

            /// x * x * x, as xt::cube computes it.
            struct cube_fun
            {
                template <class V>
                V operator()(const V& x) const noexcept
                {
                    return x * x * x;
                }
            };

            /// x to the power N by repeated squaring, in the order of xt::pow<N>.
            template <std::size_t N>
            struct pow_fun
            {
                template <class V>
                V operator()(const V& x) const noexcept
                {
                    if constexpr (N == 0)
                    {
                        return V(1);
                    }
                    else if constexpr (N == 1)
                    {
                        return x;
                    }
                    else
                    {
                        const V half = pow_fun<N / 2>{}(x);
                        return half * half * pow_fun<N & 1>{}(x);
                    }
                }
            };

            /// 0 where x is NaN, x elsewhere: what xn::nansum and xn::nanmean add up.
            struct nan_to_zero_fun
            {
                template <class V>
                V operator()(const V& x) const noexcept
                {
                    return pick(simd::is_nan(x), V(0), x);
                }
            };

            /// 0 where x is NaN, 1 elsewhere: what xn::nanmean counts.
            struct not_nan_fun
            {
                template <class V>
                V operator()(const V& x) const noexcept
                {
                    return pick(simd::is_nan(x), V(0), V(1));
                }
            };

            /// y where x is NaN, x elsewhere: what xn::fillna and xn::combine_first compute (xarray's
            /// fillna, a where over isnull). Numbers of two types meet in their common type.
            struct fill_nan_fun
            {
                template <class X, class Y>
                auto operator()(const X& x, const Y& y) const noexcept
                {
                    if constexpr (std::is_arithmetic<X>::value && std::is_arithmetic<Y>::value)
                    {
                        using R = std::common_type_t<X, Y>;
                        return simd::is_nan(x) ? static_cast<R>(y) : static_cast<R>(x);
                    }
                    else
                    {
                        return pick(simd::is_nan(x), y, x);
                    }
                }
            };

            /**
             * The larger of two values, NaN as soon as either is NaN (numpy's max, PyTorch's amax): the
             * fold of xn::amax. Equal values of different signs of zero give either one.
             */
            struct max_fold
            {
                template <class V>
                V operator()(const V& a, const V& b) const noexcept
                {
                    if constexpr (simd::has_ordered_extremes<V>)
                    {
                        // A NaN in b comes out of ordered_max: one comparison and one choice fewer.
                        return pick(simd::is_nan(a), a, simd::ordered_max(a, b));
                    }
                    else
                    {
                        return pick((a > b) || simd::is_nan(a), a, b);
                    }
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                                : std::numeric_limits<T>::lowest();
                }
            };

            /// The smaller of two values, NaN as soon as either is NaN: the fold of xn::amin.
            struct min_fold
            {
                template <class V>
                V operator()(const V& a, const V& b) const noexcept
                {
                    if constexpr (simd::has_ordered_extremes<V>)
                    {
                        return pick(simd::is_nan(a), a, simd::ordered_min(a, b));
                    }
                    else
                    {
                        return pick((a < b) || simd::is_nan(a), a, b);
                    }
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                : std::numeric_limits<T>::max();
                }
            };

            /// The larger of two values, skipping NaN: NaN only when both are (numpy's nanmax).
            struct nanmax_fold
            {
                template <class V>
                V operator()(const V& a, const V& b) const noexcept
                {
                    const V larger = pick(a > b, a, b);
                    return pick(simd::is_nan(a), b, pick(simd::is_nan(b), a, larger));
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    // A type without NaN (int) starts from its lowest value, as max_fold does: its
                    // quiet_NaN() is 0, which would be the result of any all-negative reduction.
                    return std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN()
                                                                 : std::numeric_limits<T>::lowest();
                }
            };

            /// The smaller of two values, skipping NaN (numpy's nanmin).
            struct nanmin_fold
            {
                template <class V>
                V operator()(const V& a, const V& b) const noexcept
                {
                    const V smaller = pick(a < b, a, b);
                    return pick(simd::is_nan(a), b, pick(simd::is_nan(b), a, smaller));
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN()
                                                                 : std::numeric_limits<T>::max();
                }
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
