/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XCOMPAT_XSIMD_HPP
#define XTENSOR_NAMED_XCOMPAT_XSIMD_HPP

// The one place that includes xsimd and knows how its API moved between versions. Every other header
// of this library reaches SIMD registers through the few functions below.
//
// xsimd 8.x: `hadd` sums the lanes of a batch; xsimd 9 renamed it `reduce_add`, with no `hadd` left
// (docs/compatibility.md). All of 8 to 13 spell the batch `xsimd::batch<T, A>`, its
// architecture `xsimd::default_arch` (the best one the compiler flags enable) and keep
// `xsimd::types::has_simd_register<T, A>`. xsimd 7 and older had another batch type altogether and are
// not supported.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <xsimd/xsimd.hpp>

// immintrin.h declares every x86 extension, AVX-512 included, and is among the costliest headers a unit
// parses; where AVX is off, the SSE2 header holds all that is used here.
#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#endif

#if !defined(XSIMD_VERSION_MAJOR) || XSIMD_VERSION_MAJOR < 8
#error "xtensor-named needs xsimd 8 or newer."
#endif

// Whether the compiler may fuse a multiplication and an addition into one FMA instruction: only when the
// target has FMA. The kernels must give the values of separate IEEE operations, so where
// fusing is possible they put an empty asm statement on every intermediate result, which makes the
// compiler keep it rounded; GCC's -ffp-contract=fast (its default for C++) otherwise fuses
// `_mm256_add_pd(_mm256_mul_pd(a, b), c)` as it fuses `a * b + c`.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && (defined(__FMA__) || defined(__FMA4__))
#define XTENSOR_NAMED_CONTRACT_BARRIER(value) asm("" : "+x"(value))
#elif defined(__GNUC__) && (defined(__aarch64__) || defined(__arm__)) && defined(__ARM_FEATURE_FMA)
#define XTENSOR_NAMED_CONTRACT_BARRIER(value) asm("" : "+w"(value))
#else
#define XTENSOR_NAMED_CONTRACT_BARRIER(value) static_cast<void>(value)
#endif

// A function called rarely from a loop, kept out of it; a function kept out of its callers, so that
// it is compiled once, not into each; a condition rarely true; one rarely false; a function whose
// callees are all inlined into it (GCC leaves xsimd's AVX-512 exp out of line in the
// kernels' loops and reloads its constants at every batch; benchmarks/README.md, Instruction sets).
#if defined(__GNUC__)
#define XTENSOR_NAMED_COLD __attribute__((noinline, cold))
#define XTENSOR_NAMED_NOINLINE __attribute__((noinline))
#define XTENSOR_NAMED_UNLIKELY(condition) __builtin_expect(static_cast<bool>(condition), 0)
#define XTENSOR_NAMED_LIKELY(condition) __builtin_expect(static_cast<bool>(condition), 1)
#define XTENSOR_NAMED_INLINE_CALLEES __attribute__((flatten))
#elif defined(_MSC_VER)
#define XTENSOR_NAMED_COLD __declspec(noinline)
#define XTENSOR_NAMED_NOINLINE __declspec(noinline)
#define XTENSOR_NAMED_UNLIKELY(condition) (condition)
#define XTENSOR_NAMED_LIKELY(condition) (condition)
#define XTENSOR_NAMED_INLINE_CALLEES
#else
#define XTENSOR_NAMED_COLD
#define XTENSOR_NAMED_NOINLINE
#define XTENSOR_NAMED_UNLIKELY(condition) (condition)
#define XTENSOR_NAMED_LIKELY(condition) (condition)
#define XTENSOR_NAMED_INLINE_CALLEES
#endif

// GCC before 12.3 warns that the undefined registers of its own AVX-512 intrinsics (`__m256d __Y = __Y;` in
// _mm256_undefined_pd, reached from _mm512_reduce_add_pd, xsimd's AVX-512 lane sums and math functions)
// are used uninitialized (GCC bug 105593): a false positive in GCC's header that -Werror turns into an
// error wherever AVX-512 is enabled. GCC 12.3 silences it in the header itself. The kernel headers sit
// between these two macros, so that the warnings stay off for the kernels' code on those versions only.
#if defined(__GNUC__) && !defined(__clang__) && (__GNUC__ < 12 || (__GNUC__ == 12 && __GNUC_MINOR__ < 3))
#define XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN                                                           \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")                     \
        _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END _Pragma("GCC diagnostic pop")
#else
#define XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN
#define XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END
#endif

namespace xt
{
    namespace named
    {
        namespace detail
        {
            namespace simd
            {
                // Streaming (non-temporal) stores write around the caches. xsimd 8 offers none, so they
                // come from the x86 intrinsics, one overload per register type; elsewhere streaming
                // falls back to ordinary stores.
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
                inline void stream_register(double* dst, __m128d value) noexcept
                {
                    _mm_stream_pd(dst, value);
                }

                inline void stream_register(float* dst, __m128 value) noexcept
                {
                    _mm_stream_ps(dst, value);
                }
#if defined(__AVX__)
                inline void stream_register(double* dst, __m256d value) noexcept
                {
                    _mm256_stream_pd(dst, value);
                }

                inline void stream_register(float* dst, __m256 value) noexcept
                {
                    _mm256_stream_ps(dst, value);
                }
#endif
#if defined(__AVX512F__)
                inline void stream_register(double* dst, __m512d value) noexcept
                {
                    _mm512_stream_pd(dst, value);
                }

                inline void stream_register(float* dst, __m512 value) noexcept
                {
                    _mm512_stream_ps(dst, value);
                }
#endif
                /// Orders the streaming stores before whatever follows.
                inline void stream_fence() noexcept
                {
                    _mm_sfence();
                }

                /// Asks for the cache line at `p` ahead of its use: a load that waits on memory holds back
                /// the loads behind it where the processor cannot see far enough ahead.
                inline void prefetch_line(const void* p) noexcept
                {
                    _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
                }

                // `a > b ? a : b` and `a < b ? a : b` lane by lane, so `b` where either lane is NaN: the
                // processor's maxps and minps. xsimd's max and min are those too, but their operands
                // change places across versions (xsimd 14 passes them swapped), and with them the NaN
                // that comes out; elsewhere they may skip NaN (IEEE's maxNum), so no form is assumed.
#define XTENSOR_NAMED_ORDERED_EXTREMES(REGISTER, MAX, MIN)                                                   \
    inline REGISTER ordered_max_register(REGISTER a, REGISTER b) noexcept                                    \
    {                                                                                                        \
        return MAX(a, b);                                                                                    \
    }                                                                                                        \
    inline REGISTER ordered_min_register(REGISTER a, REGISTER b) noexcept                                    \
    {                                                                                                        \
        return MIN(a, b);                                                                                    \
    }
                XTENSOR_NAMED_ORDERED_EXTREMES(__m128, _mm_max_ps, _mm_min_ps)
                XTENSOR_NAMED_ORDERED_EXTREMES(__m128d, _mm_max_pd, _mm_min_pd)
#if defined(__AVX__)
                XTENSOR_NAMED_ORDERED_EXTREMES(__m256, _mm256_max_ps, _mm256_min_ps)
                XTENSOR_NAMED_ORDERED_EXTREMES(__m256d, _mm256_max_pd, _mm256_min_pd)
#endif
#if defined(__AVX512F__)
                XTENSOR_NAMED_ORDERED_EXTREMES(__m512, _mm512_max_ps, _mm512_min_ps)
                XTENSOR_NAMED_ORDERED_EXTREMES(__m512d, _mm512_max_pd, _mm512_min_pd)
#endif
#undef XTENSOR_NAMED_ORDERED_EXTREMES
#else
                inline void stream_fence() noexcept {}

                inline void prefetch_line([[maybe_unused]] const void* p) noexcept
                {
#if defined(__GNUC__)
                    __builtin_prefetch(p);
#endif
                }
#endif

                // The register type appears in casts only: as a template argument (of declval or void_t)
                // it would lose its attributes, which GCC warns of.
                template <class V>
                auto ordered_extremes_probe(int)
                    -> decltype(static_cast<void>(ordered_max_register(
                                    static_cast<typename V::register_type>(std::declval<const V&>()),
                                    static_cast<typename V::register_type>(std::declval<const V&>()))),
                                std::true_type{});

                template <class V>
                std::false_type ordered_extremes_probe(...);

                /// Whether batches of V have ordered_max and ordered_min.
                template <class V>
                inline constexpr bool has_ordered_extremes = decltype(ordered_extremes_probe<V>(0))::value;

                /// `a > b ? a : b` lane by lane: `b` where either lane is NaN.
                template <class V>
                inline V ordered_max(const V& a, const V& b) noexcept
                {
                    using R = typename V::register_type;
                    return V(ordered_max_register(static_cast<R>(a), static_cast<R>(b)));
                }

                /// `a < b ? a : b` lane by lane: `b` where either lane is NaN.
                template <class V>
                inline V ordered_min(const V& a, const V& b) noexcept
                {
                    using R = typename V::register_type;
                    return V(ordered_min_register(static_cast<R>(a), static_cast<R>(b)));
                }

                template <class T, class R, class = void>
                struct has_stream_register : std::false_type
                {
                };

                template <class T, class R>
                struct has_stream_register<
                    T, R, std::void_t<decltype(stream_register(std::declval<T*>(), std::declval<R>()))>>
                    : std::true_type
                {
                };

                /// The instruction set the kernels use: xsimd's default, set by the compiler flags.
                using arch_type = xsimd::default_arch;

                /// The name of that instruction set as xsimd spells it ("avx2", "fma3+avx2", "sse2", ...).
                inline const char* arch_name() noexcept
                {
                    return arch_type::name();
                }

                /// Whether `T` has a SIMD register on `arch_type`; without one the kernels run one element at
                /// a time.
                template <class T>
                inline constexpr bool has_batch_v =
                    arch_type::supported() && xsimd::types::has_simd_register<T, arch_type>::value;

                template <class T, bool = has_batch_v<T>>
                struct batch_traits
                {
                    using type = xsimd::batch<T, arch_type>;
                    static constexpr std::size_t size = type::size;

                    static type load(const T* src) noexcept
                    {
                        return type::load_unaligned(src);
                    }

                    static void store(T* dst, const type& value) noexcept
                    {
                        value.store_unaligned(dst);
                    }

                    static type splat(T value) noexcept
                    {
                        return type(value);
                    }

                    XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN
                    static T sum_lanes(const type& value) noexcept
                    {
#if XSIMD_VERSION_MAJOR >= 9
                        return xsimd::reduce_add(value);
#else
                        return xsimd::hadd(value);
#endif
                    }
                    XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

                    static void keep_rounded(type& value) noexcept
                    {
                        XTENSOR_NAMED_CONTRACT_BARRIER(value.data);
                    }

                    /// Whether `stream` writes around the caches; else it is an ordinary store.
                    static constexpr bool can_stream =
                        has_stream_register<T, typename type::register_type>::value;

                    /// Stores to `dst`, aligned to sizeof(type), around the caches where can_stream.
                    static void stream(T* dst, const type& value) noexcept
                    {
                        if constexpr (can_stream)
                        {
                            stream_register(dst, static_cast<typename type::register_type>(value));
                        }
                        else
                        {
                            value.store_unaligned(dst);
                        }
                    }
                };

                // No SIMD register for T: a batch is one element.
                template <class T>
                struct batch_traits<T, false>
                {
                    using type = T;
                    static constexpr std::size_t size = 1;

                    static type load(const T* src) noexcept
                    {
                        return *src;
                    }

                    static void store(T* dst, const type& value) noexcept
                    {
                        *dst = value;
                    }

                    static type splat(T value) noexcept
                    {
                        return value;
                    }

                    static T sum_lanes(const type& value) noexcept
                    {
                        return value;
                    }

                    static void keep_rounded(type& value) noexcept
                    {
                        XTENSOR_NAMED_CONTRACT_BARRIER(value);
                    }

                    static constexpr bool can_stream = false;

                    static void stream(T* dst, const type& value) noexcept
                    {
                        *dst = value;
                    }
                };

                /// The register type holding `batch_size<T>` elements of `T` (`T` itself without SIMD).
                template <class T>
                using batch = typename batch_traits<T>::type;

                template <class T>
                inline constexpr std::size_t batch_size = batch_traits<T>::size;

                /// What comparing two batches of `T` gives: xsimd's batch_bool, or bool without SIMD.
                template <class T, bool = has_batch_v<T>>
                struct mask_traits
                {
                    using type = xsimd::batch_bool<T, arch_type>;
                };

                template <class T>
                struct mask_traits<T, false>
                {
                    using type = bool;
                };

                template <class T>
                using mask = typename mask_traits<T>::type;

                /// `a` where `m` is set, `b` elsewhere.
                template <class T>
                inline batch<T> choose(const mask<T>& m, const batch<T>& a, const batch<T>& b) noexcept
                {
                    if constexpr (has_batch_v<T>)
                    {
                        return xsimd::select(m, a, b);
                    }
                    else
                    {
                        return m ? a : b;
                    }
                }

                /**
                 * Set where `a` and `b` differ, NaN included: IEEE's `!=`. xsimd 8's `!=` on AVX and
                 * AVX-512 batches of float and double is an ordered comparison, false where either
                 * lane is NaN; the negated `==` is right on every version and architecture.
                 */
                template <class V>
                inline auto not_equal(const V& a, const V& b) noexcept
                {
                    if constexpr (std::is_arithmetic<V>::value)
                    {
                        return a != b;
                    }
                    else
                    {
                        return !(a == b);
                    }
                }

                /// Set where `value` is NaN, for numbers and batches alike.
                template <class V>
                inline auto is_nan(const V& value) noexcept
                {
                    if constexpr (std::is_arithmetic<V>::value)
                    {
                        return value != value;
                    }
                    else
                    {
                        return xsimd::isnan(value);
                    }
                }

                /// Set where `value` is not 0, NaN included: what C++ makes of a number used as a bool.
                template <class T>
                inline mask<T> nonzero(const batch<T>& value) noexcept
                {
                    return not_equal(value, batch_traits<T>::splat(T(0)));
                }

                /// 1 where `m` is set, 0 elsewhere: what C++ makes of a bool used as a number.
                template <class T>
                inline batch<T> from_mask(const mask<T>& m) noexcept
                {
                    return choose<T>(m, batch_traits<T>::splat(T(1)), batch_traits<T>::splat(T(0)));
                }

                /// The lanes of `simd_result` where `outside` is set, replaced by `scalar` of the lanes of
                /// the arguments `xs`: out of line, so that the loops that rarely need it keep their
                /// registers.
                template <class B, class M, class F, std::size_t... I, class... X>
                XTENSOR_NAMED_COLD B replace_lanes(B simd_result, M outside, F scalar,
                                                   std::index_sequence<I...>, X... xs) noexcept
                {
                    using T = typename B::value_type;
                    alignas(sizeof(B)) T result[B::size];
                    alignas(sizeof(B)) T input[sizeof...(X)][B::size];
                    alignas(sizeof(B)) T marked[B::size];
                    simd_result.store_aligned(result);
                    (xs.store_aligned(input[I]), ...);
                    xsimd::select(outside, B(T(1)), B(T(0))).store_aligned(marked);
                    for (std::size_t i = 0; i < B::size; ++i)
                    {
                        if (marked[i] != T(0))
                        {
                            result[i] = scalar(input[I][i]...);
                        }
                    }
                    return B::load_aligned(result);
                }

                /**
                 * `simd(x)`, with the lanes where `outside` is set computed by `scalar` instead: for a
                 * function whose xsimd form is inaccurate or undefined on part of its domain. Those lanes
                 * reach `simd` as 1, so that it never converts a NaN or an infinity to an integer
                 * (undefined behaviour); the common batch, with none of them, pays one test. Any number of
                 * arguments, all batches of one type.
                 */
                template <class B, class M, class S, class F, class... R>
                inline B with_scalar_lanes(const M& outside, S&& simd, F&& scalar, const B& x,
                                           const R&... rest) noexcept
                {
                    if (XTENSOR_NAMED_UNLIKELY(xsimd::any(outside)))
                    {
                        using T = typename B::value_type;
                        const B one(T(1));
                        return replace_lanes(
                            simd(xsimd::select(outside, one, x), xsimd::select(outside, one, rest)...),
                            outside, scalar, std::make_index_sequence<1 + sizeof...(R)>(), x, rest...);
                    }
                    return simd(x, rest...);
                }

                /**
                 * The magnitude of each lane of `x` as an unsigned integer that orders as the magnitudes
                 * do, NaN above infinity: its bits shifted left by one, which drops the sign. One
                 * operation, whose largest over a run an unsigned maximum keeps (kernel_noting_run).
                 */
                template <class A>
                inline xsimd::batch<std::uint32_t, A>
                magnitude_order(const xsimd::batch<float, A>& x) noexcept
                {
#if XSIMD_VERSION_MAJOR >= 9
                    return xsimd::bitwise_cast<std::uint32_t>(x) << 1;
#else
                    return xsimd::bitwise_cast<xsimd::batch<std::uint32_t, A>>(x) << 1;
#endif
                }

                /// magnitude_order of one float.
                inline std::uint32_t magnitude_order(float x) noexcept
                {
                    std::uint32_t bits = 0;
                    std::memcpy(&bits, &x, sizeof(bits));
                    return bits << 1;
                }

                /// Whether float batches of A keep their largest magnitudes as floats, with AVX-512 DQ's
                /// vrangeps (one instruction a batch), rather than as magnitude_order (two).
                template <class A>
                inline constexpr bool ranges_magnitudes =
#if defined(__AVX512DQ__)
                    sizeof(xsimd::batch<float, A>) == 64;
#else
                    false;
#endif

                /// The largest magnitudes of float lanes seen so far, lane by lane (kernel_noting_run).
                template <class A>
                using magnitudes = std::conditional_t<ranges_magnitudes<A>, xsimd::batch<float, A>,
                                                      xsimd::batch<std::uint32_t, A>>;

                /// `largest` with the magnitudes of `x` taken in; a NaN lane makes its lane NaN or above
                /// every other, so that magnitudes_within is false from then on.
                template <class A>
                inline magnitudes<A> larger_magnitudes(const magnitudes<A>& largest,
                                                       const xsimd::batch<float, A>& x) noexcept
                {
#if defined(__AVX512DQ__)
                    if constexpr (ranges_magnitudes<A>)
                    {
                        // imm 0b10'11: the larger magnitude, its sign cleared; a NaN operand comes out.
                        return magnitudes<A>(
                            _mm512_range_ps(static_cast<__m512>(largest), static_cast<__m512>(x), 0x0B));
                    }
                    else
#endif
                    {
                        return xsimd::max(largest, magnitude_order(x));
                    }
                }

                /// Whether every magnitude kept in `largest` is at most `reach` (none NaN).
                template <class A>
                inline bool magnitudes_within(const magnitudes<A>& largest, float reach) noexcept
                {
                    if constexpr (ranges_magnitudes<A>)
                    {
                        return xsimd::all(largest <= magnitudes<A>(reach));
                    }
                    else
                    {
                        return xsimd::all(largest <= magnitudes<A>(magnitude_order(reach)));
                    }
                }

                /**
                 * xsimd's exp without its last two selects (0 at and below its minlog, infinity at and
                 * above its maxlog, about -88.4 and 88.4 in float, -708.4 and 709.8 in double): for
                 * arguments known to lie between them, the same bits as xsimd::exp with four
                 * operations a batch fewer. Lanes outside come out wrong: the kernels pass lanes inside,
                 * or float lanes that they compute again (whose conversions are the processor's, defined
                 * on every input). xsimd 8, 13 and 14 compute exp so; other versions call xsimd::exp.
                 */
                template <class T, class A>
                inline xsimd::batch<T, A> exp_between_limits(const xsimd::batch<T, A>& x) noexcept
                {
#if XSIMD_VERSION_MAJOR == 8 || XSIMD_VERSION_MAJOR == 13 || XSIMD_VERSION_MAJOR == 14
                    using batch = xsimd::batch<T, A>;
                    using reduction =
                        xsimd::kernel::detail::exp_reduction<T, A, xsimd::kernel::detail::exp_tag>;
                    if constexpr (std::is_same<T, float>::value)
                    {
                        batch reduced;
                        const batch k = reduction::reduce(x, reduced);
                        return xsimd::ldexp(reduction::approx(reduced), xsimd::to_int(k));
                    }
                    else
                    {
                        batch hi, lo, reduced;
                        const batch k = reduction::reduce(x, hi, lo, reduced);
                        const batch c = reduction::approx(reduced);
                        return xsimd::ldexp(reduction::finalize(reduced, c, hi, lo), xsimd::to_int(k));
                    }
#else
                    return xsimd::exp(x);
#endif
                }

                /// Keeps a scalar intermediate result rounded to `T`, as keep_rounded does for a batch.
                template <class T>
                inline void keep_rounded_scalar(T& value) noexcept
                {
                    XTENSOR_NAMED_CONTRACT_BARRIER(value);
                }
            } // namespace simd
        }     // namespace detail
    }         // namespace named
} // namespace xt

#endif
