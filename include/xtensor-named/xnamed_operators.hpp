/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_OPERATORS_HPP
#define XTENSOR_NAMED_XNAMED_OPERATORS_HPP

// Operators on named expressions, xn::apply and xn::broadcast. Every operand may be a named
// expression, a plain xtensor expression (all axes "?") or a number, and at least one is named; the
// operands line up under the strategy of the named ones, and the result is a lazy named expression.
// == and != compare elementwise, as in numpy, xarray and PyTorch (not xtensor's whole-array test, which
// is xn::array_equal).

#include <cstddef>
#include <functional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "xcompat_xtensor.hpp"
#include "xnamed_expression.hpp"
#include "xshaping.hpp"
#include "detail/operations/xelementwise.hpp"

namespace xt
{
    namespace named
    {
        /**
         * Applies the binary functor `f` elementwise to `a` and `b` lined up under strategy `S` (by default
         * the strategy of the named operands); `f` may be any callable of two elements. Axes whose labels
         * differ are aligned under shaping strategy `Shaping` (by default the one attached to the
         * strategy, xn::join_exact unless xn::with_shaping); what an operand lacks is NaN. A shaping
         * strategy alone, `xn::apply<xn::join_outer>(f, a, b)`, joins under the operands' strategy.
         * @code
         * auto hyp = xn::apply<xn::numpy>([](double x, double y) { return std::hypot(x, y); }, a, b);
         * auto sum = xn::apply<xn::join_outer>(std::plus<>(), a, b);   // xarray's join="outer"
         * @endcode
         */
        template <class S = void, class Shaping = void, class F, class A, class B>
        auto apply(F&& f, A&& a, B&& b);

        /// xn::apply, with `fill` for what an operand lacks after alignment by label (xn::join_outer,
        /// xn::join_left, xn::join_right), converted to the operand's element type.
        template <class S = void, class Shaping = void, class F, class A, class B, class V>
        auto apply(F&& f, A&& a, B&& b, const V& fill);

        /**
         * Both operands as views of the shape and dims of their broadcast under `S` (by default the
         * strategy of the named operands), without copying: stride 0 along the axes an operand is
         * broadcast on. Lvalue operands are seen read-only.
         * @code
         * auto [l, r] = xn::broadcast<xn::name_match>(img, lbl);  // both (?, channel, h, w)
         * @endcode
         */
        template <class S = void, class A, class B>
        auto broadcast(A&& a, B&& b);

        /**
         * Both operands on the joined labels of every labelled axis they share, as xarray's `align`:
         * under shaping strategy `Shaping` (xn::join_inner, xn::join_outer, ...), each operand takes the
         * joined labels, what it lacks filled with NaN (or `fill`, converted to its element type). Nothing
         * is broadcast: each keeps its own axes.
         * @code
         * auto [l, r] = xn::align<xn::join_outer>(temperature, pressure);
         * @endcode
         */
        template <class Shaping, class A, class B>
        auto align(A&& a, B&& b);

        template <class Shaping, class A, class B, class V>
        auto align(A&& a, B&& b, const V& fill);

        namespace detail
        {
            /// The functor of xtensor's operator for a transparent functor of <functional>
            /// (std::plus<>: the same `a + b`), void for any other.
            template <class F>
            struct xtensor_functor_of
            {
                using type = void;
            };

#define XTENSOR_NAMED_SAME_FUNCTOR(STD, XT)                                                                  \
    template <>                                                                                              \
    struct xtensor_functor_of<STD<>>                                                                         \
    {                                                                                                        \
        using type = XT;                                                                                     \
    };

            XTENSOR_NAMED_SAME_FUNCTOR(std::plus, xt::detail::plus)
            XTENSOR_NAMED_SAME_FUNCTOR(std::minus, xt::detail::minus)
            XTENSOR_NAMED_SAME_FUNCTOR(std::multiplies, xt::detail::multiplies)
            XTENSOR_NAMED_SAME_FUNCTOR(std::divides, xt::detail::divides)
            XTENSOR_NAMED_SAME_FUNCTOR(std::less, xt::detail::less)
            XTENSOR_NAMED_SAME_FUNCTOR(std::less_equal, xt::detail::less_equal)
            XTENSOR_NAMED_SAME_FUNCTOR(std::greater, xt::detail::greater)
            XTENSOR_NAMED_SAME_FUNCTOR(std::greater_equal, xt::detail::greater_equal)
            XTENSOR_NAMED_SAME_FUNCTOR(std::equal_to, xt::detail::equal_to)
            XTENSOR_NAMED_SAME_FUNCTOR(std::not_equal_to, xt::detail::not_equal_to)
            XTENSOR_NAMED_SAME_FUNCTOR(std::logical_and, xt::detail::logical_and)
            XTENSOR_NAMED_SAME_FUNCTOR(std::logical_or, xt::detail::logical_or)

#undef XTENSOR_NAMED_SAME_FUNCTOR

            /// The one sentence for operands of different strategies.
            template <class... A>
            constexpr void check_strategies() noexcept
            {
                static_assert(strategies_agree_v<A...>,
                              "xn: the named operands of one operation must have the same broadcasting "
                              "strategy; rename one with xn::name<S>(e.expression(), e.dims()), or choose "
                              "one with xn::apply<S>.");
            }

            /// An elementwise operator or function of xtensor on named operands.
            template <class F, class... A>
            inline auto named_operation(std::string_view operation, F&& make, A&&... args)
            {
                check_strategies<A...>();
                return elementwise<common_strategy_t<A...>>(operation, std::forward<F>(make),
                                                            std::forward<A>(args)...);
            }

            /// Named with named or with a number: no xtensor operator competes for these.
            template <class A, class B>
            using enable_named_or_scalar_t =
                std::enable_if_t<any_named_v<A, B> && all_operands_v<A, B> && !is_plain_expression_v<A> &&
                                     !is_plain_expression_v<B>,
                                 int>;

            template <class E>
            using enable_plain_t = std::enable_if_t<is_plain_expression_v<E>, int>;

            /// A named expression with what is neither an expression nor a number (a std::string, a
            /// std::vector): taken only to refuse it in one sentence instead of every candidate's failure.
            template <class A, class B>
            using enable_misused_t =
                std::enable_if_t<any_named_v<A, B> && !all_operands_v<A, B> && !any_refused_v<A, B>, int>;

            // Deduced, so that the sentence is reported where the operator is used, before whatever the
            // next lines do with the result (a declared return type defers it to the end of the file).
            template <class A, class B>
            inline auto refuse_operands()
            {
                static_assert(
                    all_operands_v<A, B>,
                    "xn: an operator on a named expression takes named expressions, xtensor expressions "
                    "and numbers; xt::adapt makes an xtensor expression of a std::vector.");
                return invalid_named_expression{};
            }

            template <class E>
            using enable_refused_t = std::enable_if_t<!any_refused_v<E>, int>;

            template <class E>
            using enable_named_t = std::enable_if_t<is_named_expression_v<E>, int>;
        } // namespace detail

// xtensor's operators take any (E1&&, E2&&) with one xtensor expression, and would take a named expression
// beside a plain one as a scalar. A named operand is therefore taken by each reference kind, which partial
// ordering prefers to xtensor's forwarding references; named with named or with a number needs one template.
// EXPRESSION computes the result from `l` and `r`, xtensor's operands.
#define XTENSOR_NAMED_BINARY_OPERATOR_AS(OP, NAME, EXPRESSION)                                               \
    namespace detail                                                                                         \
    {                                                                                                        \
        struct NAME##_operator                                                                               \
        {                                                                                                    \
            template <class L, class R>                                                                      \
            auto operator()(L&& l, R&& r) const                                                              \
            {                                                                                                \
                return EXPRESSION;                                                                           \
            }                                                                                                \
        };                                                                                                   \
    }                                                                                                        \
    template <class A, class B, detail::enable_named_or_scalar_t<A, B> = 0>                                  \
    inline auto operator OP(A&& a, B&& b)                                                                    \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::forward<A>(a),        \
                                       std::forward<B>(b));                                                  \
    }                                                                                                        \
    template <class CT, class S, class B, detail::enable_plain_t<B> = 0>                                     \
    inline auto operator OP(xnamed<CT, S>& a, B&& b)                                                         \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, a, std::forward<B>(b));    \
    }                                                                                                        \
    template <class CT, class S, class B, detail::enable_plain_t<B> = 0>                                     \
    inline auto operator OP(const xnamed<CT, S>& a, B&& b)                                                   \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, a, std::forward<B>(b));    \
    }                                                                                                        \
    template <class CT, class S, class B, detail::enable_plain_t<B> = 0>                                     \
    inline auto operator OP(xnamed<CT, S>&& a, B&& b)                                                        \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::move(a),              \
                                       std::forward<B>(b));                                                  \
    }                                                                                                        \
    template <class A, class CT, class S, detail::enable_plain_t<A> = 0>                                     \
    inline auto operator OP(A&& a, xnamed<CT, S>& b)                                                         \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::forward<A>(a), b);    \
    }                                                                                                        \
    template <class A, class CT, class S, detail::enable_plain_t<A> = 0>                                     \
    inline auto operator OP(A&& a, const xnamed<CT, S>& b)                                                   \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::forward<A>(a), b);    \
    }                                                                                                        \
    template <class A, class CT, class S, detail::enable_plain_t<A> = 0>                                     \
    inline auto operator OP(A&& a, xnamed<CT, S>&& b)                                                        \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::forward<A>(a),        \
                                       std::move(b));                                                        \
    }                                                                                                        \
    template <class A, class B, detail::enable_misused_t<A, B> = 0>                                          \
    inline auto operator OP(A&&, B&&)                                                                        \
    {                                                                                                        \
        return detail::refuse_operands<A, B>();                                                              \
    }                                                                                                        \
    namespace detail                                                                                         \
    {                                                                                                        \
        template <class B>                                                                                   \
        inline invalid_named_expression operator OP(const invalid_named_expression&, B&&)                    \
        {                                                                                                    \
            return {};                                                                                       \
        }                                                                                                    \
        template <class A, enable_refused_t<A> = 0>                                                          \
        inline invalid_named_expression operator OP(A&&, const invalid_named_expression&)                    \
        {                                                                                                    \
            return {};                                                                                       \
        }                                                                                                    \
    }

#define XTENSOR_NAMED_BINARY_OPERATOR(OP, NAME)                                                              \
    XTENSOR_NAMED_BINARY_OPERATOR_AS(OP, NAME, std::forward<L>(l) OP std::forward<R>(r))

#define XTENSOR_NAMED_UNARY_OPERATOR(OP, NAME)                                                               \
    namespace detail                                                                                         \
    {                                                                                                        \
        struct NAME##_operator                                                                               \
        {                                                                                                    \
            template <class E>                                                                               \
            auto operator()(E&& e) const                                                                     \
            {                                                                                                \
                return OP std::forward<E>(e);                                                                \
            }                                                                                                \
        };                                                                                                   \
    }                                                                                                        \
    template <class E, detail::enable_named_t<E> = 0>                                                        \
    inline auto operator OP(E&& e)                                                                           \
    {                                                                                                        \
        return detail::named_operation("operator" #OP, detail::NAME##_operator{}, std::forward<E>(e));       \
    }                                                                                                        \
    namespace detail                                                                                         \
    {                                                                                                        \
        inline invalid_named_expression operator OP(const invalid_named_expression&)                         \
        {                                                                                                    \
            return {};                                                                                       \
        }                                                                                                    \
    }

        XTENSOR_NAMED_BINARY_OPERATOR(+, plus)
        XTENSOR_NAMED_BINARY_OPERATOR(-, minus)
        XTENSOR_NAMED_BINARY_OPERATOR(*, multiplies)
        XTENSOR_NAMED_BINARY_OPERATOR(/, divides)
        XTENSOR_NAMED_BINARY_OPERATOR(%, modulus)
        XTENSOR_NAMED_BINARY_OPERATOR(<, less)
        XTENSOR_NAMED_BINARY_OPERATOR(<=, less_equal)
        XTENSOR_NAMED_BINARY_OPERATOR(>, greater)
        XTENSOR_NAMED_BINARY_OPERATOR(>=, greater_equal)
        // Elementwise, as in numpy, xarray and PyTorch (xtensor's == compares whole expressions).
        XTENSOR_NAMED_BINARY_OPERATOR_AS(==, equal_to, xt::equal(std::forward<L>(l), std::forward<R>(r)))
        XTENSOR_NAMED_BINARY_OPERATOR_AS(!=, not_equal_to,
                                         xt::not_equal(std::forward<L>(l), std::forward<R>(r)))
        XTENSOR_NAMED_BINARY_OPERATOR(&&, logical_and)
        XTENSOR_NAMED_BINARY_OPERATOR(||, logical_or)
        XTENSOR_NAMED_BINARY_OPERATOR(&, bitwise_and)
        XTENSOR_NAMED_BINARY_OPERATOR(|, bitwise_or)
        XTENSOR_NAMED_BINARY_OPERATOR(^, bitwise_xor)

        XTENSOR_NAMED_UNARY_OPERATOR(+, identity)
        XTENSOR_NAMED_UNARY_OPERATOR(-, negate)
        XTENSOR_NAMED_UNARY_OPERATOR(!, logical_not)
        XTENSOR_NAMED_UNARY_OPERATOR(~, bitwise_not)

#undef XTENSOR_NAMED_BINARY_OPERATOR
#undef XTENSOR_NAMED_BINARY_OPERATOR_AS
#undef XTENSOR_NAMED_UNARY_OPERATOR

        /**
         * Whole-expression equality, as xtensor's `==` and numpy's `array_equal`: the same dims (a plain
         * expression's are all `"?"`), the same shape and equal elements. (`==` on named expressions is
         * elementwise.)
         */
        template <class A, class B,
                  std::enable_if_t<detail::any_named_v<A, B> && detail::is_array_operand_v<A> &&
                                       detail::is_array_operand_v<B>,
                                   int> = 0>
        inline bool array_equal(const A& a, const B& b)
        {
            return detail::dims_of(a) == detail::dims_of(b) && detail::unwrap(a) == detail::unwrap(b);
        }

        /*************************************
         * implementation of apply, broadcast *
         *************************************/

        template <class S, class Shaping, class F, class A, class B>
        inline auto apply(F&& f, A&& a, B&& b)
        {
            return apply<S, Shaping>(std::forward<F>(f), std::forward<A>(a), std::forward<B>(b),
                                     detail::no_fill{});
        }

        namespace detail
        {
            /// The strategies of xn::apply<S, Shaping>: `S` may itself be a shaping strategy (a join),
            /// which then joins labels under the operands' broadcasting strategy.
            template <class S, class Shaping, class A, class B>
            struct apply_strategies
            {
                static constexpr bool join_first =
                    !std::is_void<S>::value && !is_strategy_v<S> && is_shaping_v<S>;
                using given_strategy = std::conditional_t<join_first, void, S>;
                using given_shaping = std::conditional_t<join_first, S, Shaping>;
                using strategy = std::conditional_t<std::is_void<given_strategy>::value,
                                                    common_strategy_t<A, B>, given_strategy>;
            };
        } // namespace detail

        template <class S, class Shaping, class F, class A, class B, class V>
        inline auto apply(F&& f, A&& a, B&& b, const V& fill)
        {
            static_assert(std::is_same<V, detail::no_fill>::value || detail::is_scalar_operand_v<V>,
                          "xn::apply: a fill value must be a number.");
            static_assert(
                detail::all_operands_v<A, B> && detail::array_count_v<A, B> >= 1,
                "xn::apply: the operands must be named expressions, xtensor expressions or numbers, "
                "and one of them at least must have axes.");
            using strategies = detail::apply_strategies<S, Shaping, A, B>;
            using given_shaping = typename strategies::given_shaping;
            // Without one, the operands' own shaping strategies apply (checked where they were attached).
            using checked_shaping =
                std::conditional_t<std::is_void<given_shaping>::value, join_exact, given_shaping>;
            XTENSOR_NAMED_REQUIRE_SHAPING(checked_shaping, "xn::apply");
            if constexpr (std::is_void<typename strategies::given_strategy>::value)
            {
                detail::check_strategies<A, B>();
            }
            using strategy = typename strategies::strategy;
            XTENSOR_NAMED_REQUIRE_STRATEGY(strategy, "xn::apply");
            constexpr bool valid =
                (std::is_same<V, detail::no_fill>::value ||
                 detail::is_scalar_operand_v<V>)&&detail::all_operands_v<A, B> &&
                detail::array_count_v<A, B> >= 1 &&
                (std::is_void<given_shaping>::value || is_shaping_v<given_shaping>)&&is_strategy_v<strategy>;
            if constexpr (valid)
            {
                using functor_type = std::decay_t<F>;
                using xtensor_functor = typename detail::xtensor_functor_of<functor_type>::type;
                auto make = [&f](auto&& l, auto&& r)
                {
                    if constexpr (std::is_void<xtensor_functor>::value)
                    {
                        return xt::make_lambda_xfunction(functor_type(std::forward<F>(f)),
                                                         std::forward<decltype(l)>(l),
                                                         std::forward<decltype(r)>(r));
                    }
                    else
                    {
                        // The operator's own xfunction, which the kernels evaluate; a transparent functor
                        // holds nothing.
                        static_cast<void>(f);
                        return xt::detail::make_xfunction<xtensor_functor>(std::forward<decltype(l)>(l),
                                                                           std::forward<decltype(r)>(r));
                    }
                };
                using shaping = std::conditional_t<std::is_void<given_shaping>::value, shaping_of_t<strategy>,
                                                   given_shaping>;
                return detail::aligned_elementwise<strategy, shaping>("apply", fill, make, std::forward<A>(a),
                                                                      std::forward<B>(b));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class Shaping, class A, class B, class V>
        inline auto align(A&& a, B&& b, const V& fill)
        {
            static_assert(is_named_expression_v<A> && is_named_expression_v<B>,
                          "xn::align: both operands must be named expressions (labels are on named axes).");
            static_assert(
                is_shaping_v<Shaping>,
                "xn::align: the strategy must be a shaping strategy (how labels join): xn::join_inner, "
                "xn::join_outer, xn::join_left, xn::join_right or xn::join_exact.");
            static_assert(std::is_same<V, detail::no_fill>::value || detail::is_scalar_operand_v<V>,
                          "xn::align: a fill value must be a number.");
            if constexpr (is_named_expression_v<A> && is_named_expression_v<B> && is_shaping_v<Shaping>)
            {
                auto aligned =
                    detail::align_operands<Shaping>("align", fill, std::forward<A>(a), std::forward<B>(b));
                using left = std::decay_t<std::tuple_element_t<0, decltype(aligned)>>;
                using right = std::decay_t<std::tuple_element_t<1, decltype(aligned)>>;
                return std::pair<left, right>(std::get<0>(std::move(aligned)),
                                              std::get<1>(std::move(aligned)));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class Shaping, class A, class B>
        inline auto align(A&& a, B&& b)
        {
            return align<Shaping>(std::forward<A>(a), std::forward<B>(b), detail::no_fill{});
        }

        template <class S, class A, class B>
        inline auto broadcast(A&& a, B&& b)
        {
            static_assert(detail::is_array_operand_v<A> && detail::is_array_operand_v<B>,
                          "xn::broadcast: both operands must be named or xtensor expressions.");
            if constexpr (std::is_void<S>::value)
            {
                detail::check_strategies<A, B>();
            }
            using strategy = std::conditional_t<std::is_void<S>::value, detail::common_strategy_t<A, B>, S>;
            XTENSOR_NAMED_REQUIRE_STRATEGY(strategy, "xn::broadcast");
            if constexpr (is_strategy_v<strategy> && detail::is_array_operand_v<A> &&
                          detail::is_array_operand_v<B>)
            {
                return detail::broadcast_pair<strategy>("broadcast", std::forward<A>(a), std::forward<B>(b));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }
    } // namespace named
} // namespace xt

#endif
