/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XBROADCAST_PLAN_HPP
#define XTENSOR_NAMED_XBROADCAST_PLAN_HPP

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "xdims.hpp"
#include "xerrors.hpp"
#include "xpartial_shape.hpp"
#include "detail/core/xindex_map.hpp"

namespace xt
{
    namespace named
    {
        /**
         * In an axis map (a plan's `axes`, an axis view's source axes): no axis of the operand lands
         * here, it is broadcast along this result axis. The same -1 as xn::unknown, whose name is for a
         * size: a strategy written with either works.
         */
        inline constexpr std::int64_t no_axis = -1;

        /**
         * What a broadcasting strategy sees of one operand: its shape and its axis names.
         * A plain xtensor expression is an operand whose axes are all `"?"`.
         */
        struct operand
        {
            partial_shape shape;
            named::dims names;

            /// An operand whose axes are all unnamed.
            static operand unnamed(partial_shape shape);

            /// `(?, h, w) with shape (10, 256, 384)`, the form every message uses.
            std::string to_string() const;
        };

        /**
         * How two operands line up: the result's names and shape, and for each result axis the operand
         * axis that lands there, or xn::no_axis where that operand is broadcast along it.
         */
        struct broadcast_plan
        {
            named::dims names;
            partial_shape shape;
            // The explicit initializer keeps g++ 12 from an internal compiler error on `broadcast_plan{}`
            // and `broadcast_plan{names, shape}` inside templates (the array of vectors is then never
            // value-initialized from an empty brace). `broadcast_plan{names, shape, {}}` still triggers it.
            std::array<std::vector<std::int64_t>, 2> axes = std::array<std::vector<std::int64_t>, 2>();
        };

        /// Whether `S` is a broadcasting strategy: it has
        /// `static broadcast_plan plan(const operand&, const operand&)`.
        template <class S, class = void>
        struct is_strategy : std::false_type
        {
        };

        template <class S>
        struct is_strategy<S, std::enable_if_t<std::is_same<decltype(S::plan(std::declval<const operand&>(),
                                                                             std::declval<const operand&>())),
                                                            broadcast_plan>::value>> : std::true_type
        {
        };

        template <class S>
        inline constexpr bool is_strategy_v = is_strategy<S>::value;

        namespace detail
        {
            /// Whether `S` has a static `align`: a shaping strategy (xshaping.hpp), told apart from a
            /// broadcasting one without knowing the label types.
            template <class S, class = void>
            struct has_static_align : std::false_type
            {
            };

            template <class S>
            struct has_static_align<S, std::void_t<decltype(&S::align)>> : std::true_type
            {
            };
        } // namespace detail

// The sentences of the requirement on a broadcasting strategy, after the operation that asks: for a
// shaping strategy (a join, which another place takes), what to write instead.
#define XTENSOR_NAMED_SHAPING_IS_NO_STRATEGY                                                                 \
    ": this is a shaping strategy (how labels join: xn::join_inner, xn::join_outer, ...), where a "          \
    "broadcasting strategy belongs; give it to xn::apply<J>(f, a, b) or xn::align<J>(a, b), or attach it: "  \
    "xn::with_shaping<xn::missing_dims, J>."
#define XTENSOR_NAMED_STRATEGY_REQUIREMENT                                                                   \
    ": a broadcasting strategy must be a type with static xn::broadcast_plan plan(const xn::operand&, "      \
    "const "                                                                                                 \
    "xn::operand&)."

// The requirement on a broadcasting strategy `S` at a public entry point OPERATION ("xn::plan"), in one
// sentence.
#define XTENSOR_NAMED_REQUIRE_STRATEGY(S, OPERATION)                                                         \
    static_assert(::xt::named::is_strategy_v<S> || !::xt::named::detail::has_static_align<S>::value,         \
                  OPERATION XTENSOR_NAMED_SHAPING_IS_NO_STRATEGY);                                           \
    static_assert(::xt::named::is_strategy_v<S> || ::xt::named::detail::has_static_align<S>::value,          \
                  OPERATION XTENSOR_NAMED_STRATEGY_REQUIREMENT)

        namespace detail
        {
            /**
             * Whether `S` is a built-in strategy (see xstrategies.hpp). Its plan depends on nothing but the
             * dims and sizes of its operands, so that an operation may reuse the plan it made for operands
             * of the same dims and sizes (detail/operations/xplan_cache.hpp); and its plans are tested
             * against numpy's and xarray's (tests/test_xstrategies_oracles.cpp), so that an operation takes
             * them without detail::check_plan. Both are costs per operation that count for small arrays. A
             * user's strategy is always asked (it may count its calls, or depend on state of its own), and
             * its answer checked.
             */
            template <class S>
            struct builtin_strategy : std::false_type
            {
            };
        } // namespace detail

        /**
         * Plans the broadcast of `a` and `b` under strategy `S`, touching no element.
         * Checks the operands first (one name per axis) and the strategy's answer after.
         */
        template <class S>
        broadcast_plan plan(const operand& a, const operand& b);

        namespace detail
        {
            /// Throws xn::name_error unless the operand has one name per axis (or no names and an unknown
            /// rank).
            void check_operand(std::string_view operation, const operand& op);

            /// Throws xn::broadcast_error unless `p` is a consistent plan for `a` and `b`: names and axes
            /// as many as the result has axes (none for an unknown rank); every operand axis lands on
            /// exactly one result axis, of its name if it has one and of its size unless it is 1; every
            /// result axis comes from an operand.
            void check_plan(std::string_view operation, const broadcast_plan& p, const operand& a,
                            const operand& b);
        } // namespace detail

        /******************************
         * implementation of operand *
         ******************************/

        inline operand operand::unnamed(partial_shape shape)
        {
            const auto rank = shape.rank();
            operand result{std::move(shape), named::dims()};
            if (rank != named::unknown)
            {
                result.names = named::dims::unnamed(static_cast<std::size_t>(rank));
            }
            return result;
        }

        inline std::string operand::to_string() const
        {
            return detail::concat(shape.is_unknown() ? std::string("<unknown names>") : names.to_string(),
                                  " with shape ", shape.to_string());
        }

        namespace detail
        {
            inline void check_operand(std::string_view operation, const operand& op)
            {
                if (op.shape.is_unknown())
                {
                    if (!op.names.empty())
                    {
                        throw_name_error(operation, "an operand of unknown rank cannot have axis names, got ",
                                         op.names.to_string());
                    }
                    return;
                }
                if (static_cast<std::int64_t>(op.names.size()) != op.shape.rank())
                {
                    throw_name_error(operation, "the operand has ", op.names.size(), " names ",
                                     op.names.to_string(), " for ", op.shape.rank(), " axes ",
                                     op.shape.to_string());
                }
            }

            inline void check_plan(std::string_view operation, const broadcast_plan& p, const operand& a,
                                   const operand& b)
            {
                const auto fail = [&](const auto&... why)
                {
                    throw_broadcast_error(operation, "the strategy returned an inconsistent plan for ",
                                          a.to_string(), " and ", b.to_string(), ": ", why...);
                };
                if (p.shape.is_unknown())
                {
                    // No axis can land on a result whose axes cannot be counted.
                    if (!p.names.empty() || !p.axes[0].empty() || !p.axes[1].empty())
                    {
                        fail("a result of unknown rank has no names and no axes, got names ",
                             p.names.to_string(), " and ", p.axes[0].size(), " and ", p.axes[1].size(),
                             " axes");
                    }
                    return;
                }
                const auto rank = static_cast<std::size_t>(p.shape.rank());
                if (p.names.size() != rank)
                {
                    fail("result names ", p.names.to_string(), " do not match result shape ",
                         p.shape.to_string());
                }
                const operand* ops[2] = {&a, &b};
                for (std::size_t k = 0; k < 2; ++k)
                {
                    if (p.axes[k].size() != rank)
                    {
                        fail("axes[", k, "] has ", p.axes[k].size(), " entries for a result of rank ", rank);
                    }
                }
                for (std::size_t k = 0; k < 2; ++k)
                {
                    const operand& op = *ops[k];
                    const auto op_rank = op.shape.rank();
                    const auto not_free = [&](std::size_t i) {
                        fail("axes[", k, "][", i, "] = ", p.axes[k][i], " is not a free axis of operand ", k);
                    };
                    const std::vector<bool> seen =
                        check_index_map(p.axes[k], op_rank > 0 ? static_cast<std::size_t>(op_rank) : 0,
                                        named::no_axis, not_free, not_free);
                    for (std::size_t i = 0; i < rank; ++i)
                    {
                        const auto axis = p.axes[k][i];
                        if (axis == named::no_axis)
                        {
                            continue;
                        }
                        const auto from = static_cast<std::size_t>(axis);
                        const auto op_size = op.shape.size(axis);
                        const auto result_size = p.shape.size(static_cast<std::int64_t>(i));
                        // A size-1 axis may stretch to any size; any other size must be the result's.
                        if (op_size != 1 && !partial_shape::is_compatible(op_size, result_size))
                        {
                            fail("axis ", axis, " ", detail::quoted(op.names[from]), " of operand ", k,
                                 " has size ", op_size, " but lands on result axis ", i, " ",
                                 detail::quoted(p.names[i]), " of size ", result_size);
                        }
                        if (op.names.is_named(from) && op.names[from] != p.names[i])
                        {
                            fail("axis ", axis, " ", detail::quoted(op.names[from]), " of operand ", k,
                                 " lands on result axis ", i, " named ", detail::quoted(p.names[i]));
                        }
                    }
                    for (std::size_t j = 0; j < seen.size(); ++j)
                    {
                        if (!seen[j])
                        {
                            fail("axis ", j, " ", detail::quoted(op.names[j]), " of operand ", k,
                                 " lands on no result axis");
                        }
                    }
                }
                for (std::size_t i = 0; i < rank; ++i)
                {
                    if (p.axes[0][i] == named::no_axis && p.axes[1][i] == named::no_axis)
                    {
                        fail("result axis ", i, " ", detail::quoted(p.names[i]),
                             " comes from neither operand");
                    }
                }
            }
        } // namespace detail

        template <class S>
        inline broadcast_plan plan(const operand& a, const operand& b)
        {
            XTENSOR_NAMED_REQUIRE_STRATEGY(S, "xn::plan");
            // Only the sentence above is reported for a type that is no strategy.
            if constexpr (is_strategy_v<S>)
            {
                detail::check_operand("plan", a);
                detail::check_operand("plan", b);
                broadcast_plan result = S::plan(a, b);
                detail::check_plan("plan", result, a, b);
                return result;
            }
            else
            {
                return broadcast_plan{};
            }
        }
    } // namespace named
} // namespace xt

#endif
