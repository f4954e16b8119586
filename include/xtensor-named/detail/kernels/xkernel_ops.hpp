/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_OPS_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_OPS_HPP

// The functions the kernels evaluate themselves, and the folds of the reductions they run. Each known
// functor of xtensor (and of detail/kernels/xfunctors.hpp) is called as xtensor's own loops call it: on
// SIMD batches its `simd_apply` (xsimd's function of the same name, or the operator on batches); on single
// numbers (the elements after the last whole batch) its call operator. What the kernels add is what
// xtensor does not say: the kind of each argument and of the result, and where a function needs its
// lanes checked. Arithmetic,
// comparisons, selection, minimum and maximum are exact, so both forms agree bit for bit; xsimd's
// transcendental functions differ from std:: by a few units in the last place (docs/kernels.md gives
// the bound of each). Where xsimd 8 is inaccurate on part of a function's domain (exp near underflow
// and overflow, log and cbrt of subnormals), those lanes are computed by xtensor's functor. erf, erfc,
// lgamma, pow, fmax and fmin are left to xtensor: xsimd 8's erf, erfc, lgamma and pow differ from std::
// by thousands of units in the last place on some inputs, its fmax and fmin do not skip NaN, and its
// tgamma does not return for infinities.
//
// A function of the tree computes in one element type T, the lane type of the whole evaluation. Its
// kind says what its lanes hold: values of T, or masks (the result of a comparison).

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "xfunctors.hpp"

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// What the lanes of a node of the tree hold.
            enum class kernel_kind
            {
                value,
                mask
            };

            /// A functor the kernels do not know: its expression goes to xtensor.
            template <class F>
            struct kernel_op
            {
                static constexpr bool known = false;
                static constexpr std::size_t arity = 0;
            };

            /// Values of T in, a value of T out: the function's own value type must be T.
            struct kernel_arithmetic_op
            {
                static constexpr bool known = true;
                static constexpr kernel_kind result = kernel_kind::value;

                static constexpr kernel_kind argument(std::size_t) noexcept
                {
                    return kernel_kind::value;
                }

                template <class T, class V, class... A>
                static constexpr bool fits = std::is_same<V, T>::value;
            };

            /// Values in, a mask out: the arguments must meet in T, as C++ converts them before comparing.
            struct kernel_predicate_op
            {
                static constexpr bool known = true;
                static constexpr kernel_kind result = kernel_kind::mask;

                static constexpr kernel_kind argument(std::size_t) noexcept
                {
                    return kernel_kind::value;
                }

                template <class T, class V, class... A>
                static constexpr bool fits = std::is_same<std::common_type_t<A...>, T>::value;
            };

            /// Masks in, a mask out.
            struct kernel_logical_op
            {
                static constexpr bool known = true;
                static constexpr kernel_kind result = kernel_kind::mask;

                static constexpr kernel_kind argument(std::size_t) noexcept
                {
                    return kernel_kind::mask;
                }

                template <class T, class V, class... A>
                static constexpr bool fits = true;
            };

            /// xtensor's functor F as xtensor's loops call it: `simd_apply` on batches, the call operator on
            /// numbers.
            template <class F>
            struct kernel_functor
            {
                template <class V, class... R>
                static auto apply(const V& x, const R&... rest) noexcept
                {
                    if constexpr (std::is_arithmetic<V>::value)
                    {
                        return F{}(x, rest...);
                    }
                    else
                    {
                        return F{}.simd_apply(x, rest...);
                    }
                }
            };

// A functor of xtensor that the kernels call as it is, with the kinds of BASE.
#define XTENSOR_NAMED_KERNEL_FUNCTOR(FUNCTOR, BASE, ARITY)                                                   \
    template <>                                                                                              \
    struct kernel_op<FUNCTOR> : BASE, kernel_functor<FUNCTOR>                                                \
    {                                                                                                        \
        static constexpr std::size_t arity = ARITY;                                                          \
    };

            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::identity, kernel_arithmetic_op, 1)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::negate, kernel_arithmetic_op, 1)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::plus, kernel_arithmetic_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::minus, kernel_arithmetic_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::multiplies, kernel_arithmetic_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::divides, kernel_arithmetic_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::less, kernel_predicate_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::less_equal, kernel_predicate_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::greater, kernel_predicate_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::greater_equal, kernel_predicate_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::equal_to, kernel_predicate_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::logical_and, kernel_logical_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::logical_or, kernel_logical_op, 2)
            XTENSOR_NAMED_KERNEL_FUNCTOR(xt::detail::logical_not, kernel_logical_op, 1)

            /// `!=` is true on NaN lanes, which xsimd's AVX `!=` (an ordered comparison) gets wrong.
            template <>
            struct kernel_op<xt::detail::not_equal_to> : kernel_predicate_op
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static auto apply(const V& a, const V& b) noexcept
                {
                    return simd::not_equal(a, b);
                }
            };

            /// xt::where: a mask and two values of T.
            template <>
            struct kernel_op<xt::detail::conditional_ternary>
            {
                static constexpr bool known = true;
                static constexpr std::size_t arity = 3;
                static constexpr kernel_kind result = kernel_kind::value;

                static constexpr kernel_kind argument(std::size_t i) noexcept
                {
                    return i == 0 ? kernel_kind::mask : kernel_kind::value;
                }

                template <class T, class V, class... A>
                static constexpr bool fits = std::is_same<V, T>::value;

                template <class M, class V>
                static V apply(const M& condition, const V& a, const V& b) noexcept
                {
                    return pick(condition, a, b);
                }
            };

            /**
             * The lanes of a function outside the interval where xsimd computes it well, NaN included:
             * `Bounds::template of<T>()` gives the interval for lanes of T. `inside` is set on the lanes
             * in it, never on NaN (ordered comparisons are false on NaN; `x != x` would not find it:
             * xsimd's AVX `!=` is ordered too). Integer lanes are never outside.
             */
            template <class Bounds>
            struct kernel_interval
            {
                /// The bound nearer to 0: one comparison of |x| where there would be two, which leaves the
                /// few lanes between it and the farther bound to the exact path.
                template <class T>
                static constexpr double reach() noexcept
                {
                    constexpr auto bounds = Bounds::template of<T>();
                    return -bounds.first < bounds.second ? -bounds.first : bounds.second;
                }

                template <class B>
                static auto inside(const B& x) noexcept
                {
                    using T = typename B::value_type;
                    return xsimd::abs(x) <= B(T(reach<T>()));
                }

                /// Outside, or NaN (the lanes are float or double: no integer reaches a guarded function).
                template <class B>
                static auto outside(const B& x) noexcept
                {
                    return !inside(x);
                }
            };

            /// exp and expm1, where xsimd 8 is right: below, it gives 0 instead of a subnormal; above, it
            /// overflows early. NaN would overflow its conversion to integers (undefined behaviour).
            struct kernel_exp_bounds
            {
                template <class T>
                static constexpr std::pair<double, double> of() noexcept
                {
                    return sizeof(T) == 4 ? std::pair<double, double>(-87.3, 88.0)
                                          : std::pair<double, double>(-708.3, 709.0);
                }
            };
            using kernel_exp_range = kernel_interval<kernel_exp_bounds>;

            /// exp2, where its results are normal: xsimd's exp2 converts the input to integers, which a
            /// NaN, an infinity or a huge value overflows (undefined behaviour).
            struct kernel_exp2_bounds
            {
                template <class T>
                static constexpr std::pair<double, double> of() noexcept
                {
                    return sizeof(T) == 4 ? std::pair<double, double>(-126, 127)
                                          : std::pair<double, double>(-1022, 1023);
                }
            };
            using kernel_exp2_range = kernel_interval<kernel_exp2_bounds>;

            /// Up to 2^52 in magnitude (beyond, every double is an integer): xsimd's functions convert their
            /// argument to integers on the way (range reductions, exponents), which NaN, infinite and huge
            /// values overflow (undefined behaviour). xtensor's functor computes those.
            struct kernel_moderate_bounds
            {
                template <class T>
                static constexpr std::pair<double, double> of() noexcept
                {
                    return {-4503599627370496., 4503599627370496.};
                }
            };
            using kernel_moderate = kernel_interval<kernel_moderate_bounds>;

            /// sin, cos and tan up to xsimd's "medium" range (64 pi in float, 2^18 pi in double), where its
            /// reduction is vectorised: beyond, xsimd reduces each lane with a scalar copy of fdlibm's
            /// __ieee754_rem_pio2, which shifts negative values left (undefined behaviour). std:: computes
            /// those lanes, as fast.
            struct kernel_trigonometric_bounds
            {
                template <class T>
                static constexpr std::pair<double, double> of() noexcept
                {
                    return sizeof(T) == 4 ? std::pair<double, double>(-201., 201.)
                                          : std::pair<double, double>(-823549., 823549.);
                }
            };
            using kernel_trigonometric = kernel_interval<kernel_trigonometric_bounds>;

            /// The lanes of log, log2 and log10 that xsimd 8 gets wrong in double: positive subnormals.
            struct kernel_normal_positive
            {
                template <class B>
                static auto outside(const B& x) noexcept
                {
                    using T = typename B::value_type;
                    return (x > B(T(0))) && (x < B(std::numeric_limits<T>::min()));
                }
            };

            /// The lanes of cbrt that xsimd 8 gets wrong in double: subnormals of either sign.
            struct kernel_normal_magnitude
            {
                template <class B>
                static auto outside(const B& x) noexcept
                {
                    using T = typename B::value_type;
                    return simd::not_equal(x, B(T(0))) && (xsimd::abs(x) < B(std::numeric_limits<T>::min()));
                }
            };

            /// acosh, defined from 1 on: xsimd 8 gives 0 or -infinity below 1 where std::acosh gives NaN, and
            /// converts huge values to integers on the way (as kernel_moderate).
            struct kernel_acosh_domain
            {
                template <class B>
                static auto outside(const B& x) noexcept
                {
                    using T = typename B::value_type;
                    return !((x >= B(T(1))) & (x <= B(T(4503599627370496.))));
                }
            };

            /// atan2(y, x) where both are zeros or both infinities: xsimd 8 gives NaN there, std::atan2 the
            /// angle of the quadrant (0, pi, pi/4, 3 pi/4 with their signs).
            struct kernel_atan2_domain
            {
                template <class B>
                static auto outside(const B& y, const B& x) noexcept
                {
                    using T = typename B::value_type;
                    const B ay = xsimd::abs(y);
                    const B ax = xsimd::abs(x);
                    const B infinity(std::numeric_limits<T>::infinity());
                    return ((ay == B(T(0))) & (ax == B(T(0)))) | ((ay == infinity) & (ax == infinity));
                }
            };

            /// hypot(x, y), which xsimd computes as sqrt(x * x + y * y): the squares overflow above the
            /// square root of the largest number and lose their digits below that of the smallest normal
            /// one, and an infinity with a NaN gives NaN where std::hypot gives infinity. Inside: the
            /// larger magnitude 0 or between 2^-60 and 2^60 (float), 2^-500 and 2^500 (double).
            struct kernel_hypot_domain
            {
                template <class B>
                static auto outside(const B& x, const B& y) noexcept
                {
                    using T = typename B::value_type;
                    constexpr T small = sizeof(T) == 4 ? T(0x1p-60) : T(0x1p-500);
                    constexpr T large = sizeof(T) == 4 ? T(0x1p60) : T(0x1p500);
                    const B larger = xsimd::max(xsimd::abs(x), xsimd::abs(y));
                    return !((larger <= B(large)) & ((larger >= B(small)) | (larger == B(T(0)))));
                }
            };

            /// A guarded function F on a batch whose lanes are inside F's domain, or whose other lanes
            /// are computed again: xsimd's function.
            template <class F>
            struct kernel_inside
            {
                template <class V>
                static V apply(const V& x) noexcept
                {
                    return F{}.simd_apply(x);
                }
            };

            /// exp's domain lies between the limits at which xsimd's exp selects 0 and infinity: those
            /// selects change no lane there.
            template <>
            struct kernel_inside<xt::math::exp_fun>
            {
                template <class V>
                static V apply(const V& x) noexcept
                {
                    return simd::exp_between_limits(x);
                }
            };

            /// expm1 and log1p keep the sign of a zero, as std:: does: xsimd gives +0 for -0.
            template <class F>
            struct kernel_keeping_zeros
            {
                template <class V>
                static V apply(const V& x) noexcept
                {
                    return pick(x == V(0), x, F{}.simd_apply(x));
                }
            };

            template <>
            struct kernel_inside<xt::math::expm1_fun> : kernel_keeping_zeros<xt::math::expm1_fun>
            {
            };

            template <>
            struct kernel_inside<xt::math::log1p_fun> : kernel_keeping_zeros<xt::math::log1p_fun>
            {
            };

            /// The rounding functions give a result of their argument's sign (-0 from -0.5), as std:: does:
            /// xsimd's SSE2 forms, which round through integers, give +0 there.
            template <class F>
            struct kernel_keeping_sign
            {
                template <class V>
                static V apply(const V& x) noexcept
                {
                    return xsimd::copysign(F{}.simd_apply(x), x);
                }
            };

            // clang-format off
            template <> struct kernel_inside<xt::math::ceil_fun> : kernel_keeping_sign<xt::math::ceil_fun> {};
            template <> struct kernel_inside<xt::math::floor_fun> : kernel_keeping_sign<xt::math::floor_fun> {};
            template <> struct kernel_inside<xt::math::trunc_fun> : kernel_keeping_sign<xt::math::trunc_fun> {};
            template <> struct kernel_inside<xt::math::round_fun> : kernel_keeping_sign<xt::math::round_fun> {};
            template <> struct kernel_inside<xt::math::rint_fun> : kernel_keeping_sign<xt::math::rint_fun> {};
            template <> struct kernel_inside<xt::math::nearbyint_fun> : kernel_keeping_sign<xt::math::nearbyint_fun> {};
            // clang-format on

/// Where xsimd 8's function leaves the accuracy of the rest of its domain, the lanes are computed with
/// xtensor's functor instead: `Domain::outside(x)` marks them (rarely any, so one test per batch).
#define XTENSOR_NAMED_KERNEL_GUARDED(NAME, DOMAIN)                                                           \
    XTENSOR_NAMED_KERNEL_GUARDED_BEGIN(NAME, DOMAIN)                                                         \
    }                                                                                                        \
    ;

// The kernel_op of a guarded function, left open for more members.
#define XTENSOR_NAMED_KERNEL_GUARDED_BEGIN(NAME, DOMAIN)                                                     \
    template <>                                                                                              \
    struct kernel_op<xt::math::NAME##_fun> : kernel_arithmetic_op                                            \
    {                                                                                                        \
        static constexpr std::size_t arity = 1;                                                              \
        template <class V>                                                                                   \
        static V apply(const V& x) noexcept                                                                  \
        {                                                                                                    \
            if constexpr (std::is_arithmetic<V>::value)                                                      \
            {                                                                                                \
                return xt::math::NAME##_fun{}(x);                                                            \
            }                                                                                                \
            else                                                                                             \
            {                                                                                                \
                return simd::with_scalar_lanes(                                                              \
                    DOMAIN::outside(x),                                                                      \
                    [](const V& v) { return kernel_inside<xt::math::NAME##_fun>::apply(v); },                \
                    [](auto v) { return xt::math::NAME##_fun{}(v); }, x);                                    \
            }                                                                                                \
        }

/// A guarded function whose float form xsimd computes with the processor's conversions, defined on every
/// input (a lane outside gives a wrong number, not undefined behaviour): in a float run it can skip the
/// branch, note the largest magnitude of its argument in `largest`, and leave the run to a second pass
/// when that is beyond `noting_reach` (kernel_noting_run). Two operations a batch, with no comparison.
#define XTENSOR_NAMED_KERNEL_NOTING(NAME, DOMAIN)                                                            \
    XTENSOR_NAMED_KERNEL_GUARDED_BEGIN(NAME, DOMAIN)                                                         \
    template <class T>                                                                                       \
    static constexpr double noting_reach =                                                                   \
        std::is_same<T, float>::value ? DOMAIN::template reach<T>()                                          \
                                      : std::numeric_limits<double>::infinity();                             \
    template <class V, class M>                                                                              \
    XTENSOR_NAMED_INLINE_CALLEES static V apply_noting(M& largest, const V& x) noexcept                      \
    {                                                                                                        \
        largest = simd::larger_magnitudes(largest, x);                                                       \
        return kernel_inside<xt::math::NAME##_fun>::apply(x);                                                \
    }                                                                                                        \
    }                                                                                                        \
    ;

/// A binary function whose lanes outside `DOMAIN::outside(a, b)` are computed with xtensor's functor.
#define XTENSOR_NAMED_KERNEL_GUARDED_BINARY(NAME, DOMAIN)                                                    \
    template <>                                                                                              \
    struct kernel_op<xt::math::NAME##_fun> : kernel_arithmetic_op                                            \
    {                                                                                                        \
        static constexpr std::size_t arity = 2;                                                              \
        template <class V>                                                                                   \
        static V apply(const V& a, const V& b) noexcept                                                      \
        {                                                                                                    \
            if constexpr (std::is_arithmetic<V>::value)                                                      \
            {                                                                                                \
                return xt::math::NAME##_fun{}(a, b);                                                         \
            }                                                                                                \
            else                                                                                             \
            {                                                                                                \
                return simd::with_scalar_lanes(                                                              \
                    DOMAIN::outside(a, b),                                                                   \
                    [](const V& u, const V& v) { return xt::math::NAME##_fun{}.simd_apply(u, v); },          \
                    [](auto u, auto v) { return xt::math::NAME##_fun{}(u, v); }, a, b);                      \
            }                                                                                                \
        }                                                                                                    \
    };

#define XTENSOR_NAMED_KERNEL_UNARY(NAME) XTENSOR_NAMED_KERNEL_GUARDED(NAME, kernel_moderate)
#define XTENSOR_NAMED_KERNEL_PREDICATE(NAME)                                                                 \
    XTENSOR_NAMED_KERNEL_FUNCTOR(xt::math::NAME##_fun, kernel_predicate_op, 1)

            XTENSOR_NAMED_KERNEL_UNARY(abs)
            XTENSOR_NAMED_KERNEL_UNARY(fabs)
            XTENSOR_NAMED_KERNEL_NOTING(exp, kernel_exp_range)
            XTENSOR_NAMED_KERNEL_NOTING(exp2, kernel_exp2_range)
            XTENSOR_NAMED_KERNEL_NOTING(expm1, kernel_exp_range)
            XTENSOR_NAMED_KERNEL_GUARDED(log, kernel_normal_positive)
            XTENSOR_NAMED_KERNEL_GUARDED(log10, kernel_normal_positive)
            XTENSOR_NAMED_KERNEL_GUARDED(log2, kernel_normal_positive)
            XTENSOR_NAMED_KERNEL_UNARY(log1p)
            XTENSOR_NAMED_KERNEL_UNARY(sqrt)
            XTENSOR_NAMED_KERNEL_GUARDED(cbrt, kernel_normal_magnitude)
            XTENSOR_NAMED_KERNEL_GUARDED_BINARY(hypot, kernel_hypot_domain)
            XTENSOR_NAMED_KERNEL_GUARDED(sin, kernel_trigonometric)
            XTENSOR_NAMED_KERNEL_GUARDED(cos, kernel_trigonometric)
            XTENSOR_NAMED_KERNEL_GUARDED(tan, kernel_trigonometric)
            XTENSOR_NAMED_KERNEL_UNARY(asin)
            XTENSOR_NAMED_KERNEL_UNARY(acos)
            XTENSOR_NAMED_KERNEL_UNARY(atan)
            XTENSOR_NAMED_KERNEL_GUARDED_BINARY(atan2, kernel_atan2_domain)
            XTENSOR_NAMED_KERNEL_GUARDED(sinh, kernel_exp_range)
            XTENSOR_NAMED_KERNEL_GUARDED(cosh, kernel_exp_range)
            XTENSOR_NAMED_KERNEL_UNARY(tanh)
            XTENSOR_NAMED_KERNEL_UNARY(asinh)
            XTENSOR_NAMED_KERNEL_GUARDED(acosh, kernel_acosh_domain)
            XTENSOR_NAMED_KERNEL_UNARY(atanh)
            XTENSOR_NAMED_KERNEL_UNARY(ceil)
            XTENSOR_NAMED_KERNEL_UNARY(floor)
            XTENSOR_NAMED_KERNEL_UNARY(trunc)
            XTENSOR_NAMED_KERNEL_UNARY(round)
            XTENSOR_NAMED_KERNEL_UNARY(nearbyint)
            XTENSOR_NAMED_KERNEL_UNARY(rint)
            XTENSOR_NAMED_KERNEL_PREDICATE(isfinite)
            XTENSOR_NAMED_KERNEL_PREDICATE(isinf)
            XTENSOR_NAMED_KERNEL_PREDICATE(isnan)

#undef XTENSOR_NAMED_KERNEL_UNARY
#undef XTENSOR_NAMED_KERNEL_GUARDED_BINARY
#undef XTENSOR_NAMED_KERNEL_PREDICATE
#undef XTENSOR_NAMED_KERNEL_FUNCTOR

            /// xt::maximum, xt::minimum and xt::clip select with comparisons: exact on both forms. Their
            /// `simd_apply` selects with xtensor's xt_simd::select, which takes batches only under
            /// XTENSOR_USE_XSIMD; the kernels run without it too.
            template <>
            struct kernel_op<xt::math::maximum<void>> : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return pick(a > b, a, b);
                }
            };

            template <>
            struct kernel_op<xt::math::minimum<void>> : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& a, const V& b) noexcept
                {
                    return pick(a < b, a, b);
                }
            };

            template <>
            struct kernel_op<xt::math::clamp_fun> : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 3;

                template <class V>
                static V apply(const V& v, const V& lo, const V& hi) noexcept
                {
                    return pick(v < lo, lo, pick(hi < v, hi, v));
                }
            };

            /// std::fdim's cases: x - y where x > y, +0 where x <= y (equal infinities, zeros of either
            /// sign), NaN where either is NaN. xsimd's max(x - y, 0) gives NaN for equal infinities and keeps
            /// -0.
            template <>
            struct kernel_op<xt::math::fdim_fun> : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 2;

                template <class V>
                static V apply(const V& x, const V& y) noexcept
                {
                    return pick(x > y, x - y, pick(x <= y, V(0), x + y));
                }
            };

            /// The library's own functors (detail/kernels/xfunctors.hpp) take numbers and batches alike.
            template <class F>
            struct kernel_own_op : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 1;

                template <class V>
                static V apply(const V& x) noexcept
                {
                    return F{}(x);
                }
            };

            template <>
            struct kernel_op<square_fun> : kernel_own_op<square_fun>
            {
            };

            template <>
            struct kernel_op<cube_fun> : kernel_own_op<cube_fun>
            {
            };

            template <std::size_t N>
            struct kernel_op<pow_fun<N>> : kernel_own_op<pow_fun<N>>
            {
            };

            template <>
            struct kernel_op<nan_to_zero_fun> : kernel_own_op<nan_to_zero_fun>
            {
            };

            template <>
            struct kernel_op<not_nan_fun> : kernel_own_op<not_nan_fun>
            {
            };

            template <>
            struct kernel_op<fill_nan_fun> : kernel_arithmetic_op
            {
                static constexpr std::size_t arity = 2;

                // Integers have no NaN (and xsimd 8 no isnan of their batches): xtensor computes them.
                template <class T, class V, class... A>
                static constexpr bool fits = std::is_same<V, T>::value&& std::is_floating_point<T>::value;

                template <class V>
                static V apply(const V& x, const V& y) noexcept
                {
                    return fill_nan_fun{}(x, y);
                }
            };

            /**
             * The fold of a reduction the kernels run: `combine` adds one value to a partial result and
             * merges two partial results (the same function for every fold here), `identity` starts a
             * partial result that holds nothing yet.
             */
            template <class F>
            struct kernel_fold
            {
                static constexpr bool known = false;
            };

            template <class F>
            struct kernel_own_fold
            {
                static constexpr bool known = true;

                template <class V>
                static V combine(const V& a, const V& b) noexcept
                {
                    return F{}(a, b);
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return F::template identity<T>();
                }
            };

            template <>
            struct kernel_fold<xt::detail::plus>
            {
                static constexpr bool known = true;

                template <class V>
                static V combine(const V& a, const V& b) noexcept
                {
                    return a + b;
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return T(0);
                }
            };

            template <>
            struct kernel_fold<xt::detail::multiplies>
            {
                static constexpr bool known = true;

                template <class V>
                static V combine(const V& a, const V& b) noexcept
                {
                    return a * b;
                }

                template <class T>
                static constexpr T identity() noexcept
                {
                    return T(1);
                }
            };

            template <>
            struct kernel_fold<max_fold> : kernel_own_fold<max_fold>
            {
            };

            template <>
            struct kernel_fold<min_fold> : kernel_own_fold<min_fold>
            {
            };

            template <>
            struct kernel_fold<nanmax_fold> : kernel_own_fold<nanmax_fold>
            {
            };

            template <>
            struct kernel_fold<nanmin_fold> : kernel_own_fold<nanmin_fold>
            {
            };
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
