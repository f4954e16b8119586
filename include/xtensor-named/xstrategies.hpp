/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XSTRATEGIES_HPP
#define XTENSOR_NAMED_XSTRATEGIES_HPP

// The built-in broadcasting strategies (docs/strategies.md). Decisions that hold for all of them:
// - A strategy is a pure function of names and shapes: no element is touched.
// - axes[k][i] is the axis of operand k that lands on result axis i, or xn::no_axis only where operand
//   k lacks that axis. A size-1 axis that is stretched keeps its index: the expression layer lets
//   xtensor stretch it.
// - Partial shapes follow TensorFlow's optimistic rule. Stretching strategies: unknown with 1 gives
//   unknown, unknown with n != 1 gives n. Non-stretching ones: unknown with n gives n. Unknown with
//   unknown stays unknown. An operand of unknown rank is refused: no built-in strategy can line up
//   axes it cannot count.
// - Every refusal is an xn::broadcast_error built by detail::throw_strategy_error: the strategy, the
//   failing axis by name and position, and both operands' dims and shapes. Axes are checked from the
//   first result axis on (name_match: from the first axis of the smaller operand on), a name before
//   a size, so the first failing axis is the one reported.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xbroadcast_plan.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xpartial_shape.hpp"
#include "detail/core/xindex_map.hpp"
#include "detail/plans/xunify.hpp"

namespace xt
{
    namespace named
    {
        /**
         * numpy's rule, with names: axes line up by position from the right, a size-1 axis stretches,
         * and the result has the longer operand's rank. Names unify position by position as in PyTorch's
         * named tensors: equal, or one is `"?"` and the named one wins; a name matched against `"?"` must
         * not appear elsewhere in the other operand. Leading axes of the longer operand keep their names.
         * @code
         * auto p = xn::plan<xn::numpy>({xn::partial_shape::of({8, 1, 5}), {"?", "h", "w"}},
         *                              xn::operand::unnamed(xn::partial_shape::of({4, 1})));
         * // p.names == (?, h, w), p.shape == (8, 4, 5), p.axes == {{0, 1, 2}, {-1, 0, 1}}
         * @endcode
         */
        struct numpy
        {
            static broadcast_plan plan(const operand& a, const operand& b);
        };

        /**
         * core.matrix's implicit broadcasting, by leading axes only: axes line up by position from the right,
         * nothing stretches, and the shorter operand must equal the longer one's trailing part exactly.
         * Names unify as under xn::numpy.
         * @code
         * xn::plan<xn::leading>(xn::operand::unnamed(xn::partial_shape::of({3, 4})),
         *                       xn::operand::unnamed(xn::partial_shape::of({2, 3, 3, 4})));  // (2, 3, 3, 4)
         * xn::plan<xn::leading>(xn::operand::unnamed(xn::partial_shape::of({1, 3})),
         *                       xn::operand::unnamed(xn::partial_shape::of({2, 3, 3, 3})));  // throws
         * @endcode
         */
        struct leading
        {
            static broadcast_plan plan(const operand& a, const operand& b);
        };

        /**
         * Axes line up by name (xarray's arithmetic, tensorics' BroadcastMissingDimensionsStrategy):
         * the result has the left operand's axes, then the right operand's axes that the left lacks, in the
         * right's order. Every axis must be named. A shared name must have the same size in both, unless
         * `Stretch` is true, when a size-1 axis stretches (what xarray users ask for in pydata/xarray#2171).
         * @code
         * auto p = xn::plan<xn::missing_dims>({xn::partial_shape::of({2}), {"X"}},
         *                                     {xn::partial_shape::of({2}), {"Y"}});
         * // p.names == (X, Y), p.shape == (2, 2), p.axes == {{0, -1}, {-1, 0}}
         * @endcode
         */
        template <bool Stretch>
        struct basic_missing_dims
        {
            static broadcast_plan plan(const operand& a, const operand& b);
        };

        /// xarray's and tensorics' rule: missing axes are broadcast, size-1 axes do not stretch.
        using missing_dims = basic_missing_dims<false>;

        /**
         * Matching by name: the result is the operand with more axes (on a tie, the left), in its order
         * and with its names. Every axis of the other operand must find a match: a named axis the axis of
         * the same name (anywhere: the broadcaster permutes), and the unnamed axes the larger operand's
         * unnamed axes, right-aligned, in order. Matched sizes are equal or one of them is 1.
         * @code
         * xn::operand img{xn::partial_shape::of({10, 3, 256, 384}), {"?", "channel", "h", "w"}};
         * xn::operand lbl{xn::partial_shape::of({10, 256, 384}), {"?", "h", "w"}};
         * auto p = xn::plan<xn::name_match>(img, lbl);
         * // p.shape == (10, 3, 256, 384), p.axes == {{0, 1, 2, 3}, {0, -1, 1, 2}}
         * @endcode
         */
        struct name_match
        {
            static broadcast_plan plan(const operand& a, const operand& b);
        };

        /**
         * Strict mode: no broadcasting at all. Both operands have the same rank, the same names position
         * by position, and compatible sizes (an unknown size takes the other's).
         */
        struct exact
        {
            static broadcast_plan plan(const operand& a, const operand& b);
        };

        namespace detail
        {
            // Each built-in rule is a function of its operands' dims and sizes alone.
            template <>
            struct builtin_strategy<numpy> : std::true_type
            {
            };

            template <>
            struct builtin_strategy<leading> : std::true_type
            {
            };

            template <bool Stretch>
            struct builtin_strategy<basic_missing_dims<Stretch>> : std::true_type
            {
            };

            template <>
            struct builtin_strategy<name_match> : std::true_type
            {
            };

            template <>
            struct builtin_strategy<exact> : std::true_type
            {
            };

            /// numpy and core.matrix: right-aligned axes, names unified position by position.
            broadcast_plan plan_right_aligned(std::string_view strategy, const operand& a, const operand& b,
                                              size_rule rule, std::string_view why);
        } // namespace detail

        /******************************
         * implementation of helpers *
         ******************************/

        namespace detail
        {
            inline broadcast_plan plan_right_aligned(std::string_view strategy, const operand& a,
                                                     const operand& b, size_rule rule, std::string_view why)
            {
                check_operands(strategy, a, b);
                const std::size_t rank_a = a.names.size();
                const std::size_t rank_b = b.names.size();
                const std::size_t rank = rank_a > rank_b ? rank_a : rank_b;
                const std::size_t offset_a = rank - rank_a;
                const std::size_t offset_b = rank - rank_b;
                // Result axis i: its name, also checking that the names line up.
                const auto name_at = [&](std::size_t i) -> const std::string&
                {
                    if (i >= offset_a && i >= offset_b)
                    {
                        return unify_axis_names(strategy, a, i - offset_a, b, i - offset_b);
                    }
                    return i >= offset_a ? a.names[i - offset_a] : b.names[i - offset_b];
                };
                std::vector<std::int64_t> sizes(rank);
                broadcast_plan result;
                result.axes[0].assign(rank, named::no_axis);
                result.axes[1].assign(rank, named::no_axis);
                // Mostly the names of one operand, whose dims are then shared.
                bool names_of_a = offset_a == 0;
                bool names_of_b = offset_b == 0;
                for (std::size_t i = 0; i < rank; ++i)
                {
                    const std::string& name = name_at(i);
                    names_of_a = names_of_a && name == a.names[i];
                    names_of_b = names_of_b && name == b.names[i];
                    const bool in_a = i >= offset_a;
                    const bool in_b = i >= offset_b;
                    if (in_a && in_b)
                    {
                        sizes[i] = unify_axis_sizes(strategy, a, i - offset_a, b, i - offset_b, rule, why);
                    }
                    else
                    {
                        sizes[i] = in_a ? a.shape.sizes()[i - offset_a] : b.shape.sizes()[i - offset_b];
                    }
                    if (in_a)
                    {
                        result.axes[0][i] = static_cast<std::int64_t>(i - offset_a);
                    }
                    if (in_b)
                    {
                        result.axes[1][i] = static_cast<std::int64_t>(i - offset_b);
                    }
                }
                if (names_of_a || names_of_b)
                {
                    result.names = names_of_a ? a.names : b.names;
                }
                else
                {
                    std::vector<std::string> names;
                    names.reserve(rank);
                    for (std::size_t i = 0; i < rank; ++i)
                    {
                        names.push_back(name_at(i));
                    }
                    result.names = named::dims(std::move(names));
                }
                result.shape = partial_shape::of(std::move(sizes));
                return result;
            }
        } // namespace detail

        /*******************************
         * implementation of numpy     *
         *******************************/

        inline broadcast_plan numpy::plan(const operand& a, const operand& b)
        {
            return detail::plan_right_aligned("numpy", a, b, detail::size_rule::stretch,
                                              ", and neither is 1");
        }

        /*******************************
         * implementation of leading   *
         *******************************/

        inline broadcast_plan leading::plan(const operand& a, const operand& b)
        {
            // core.matrix's implicit broadcasting only adds leading axes; it never repeats a size-1 axis.
            return detail::plan_right_aligned("leading", a, b, detail::size_rule::equal,
                                              ", and xn::leading only adds leading axes: it stretches none");
        }

        /******************************************
         * implementation of basic_missing_dims   *
         ******************************************/

        template <bool Stretch>
        inline broadcast_plan basic_missing_dims<Stretch>::plan(const operand& a, const operand& b)
        {
            const std::string_view strategy = Stretch ? "basic_missing_dims<true>" : "missing_dims";
            detail::check_operands(strategy, a, b);
            const operand* ops[2] = {&a, &b};
            for (const operand* op : ops)
            {
                for (std::size_t i = 0; i < op->names.size(); ++i)
                {
                    if (!op->names.is_named(i))
                    {
                        // What to write instead: the two ways PyTorch's named tensors offer (name the
                        // axis, refine_names) and xarray's lack of unnamed dims leave, or the strategy
                        // that lines unnamed axes up by position.
                        detail::throw_strategy_error(
                            strategy, a, b, detail::describe_axis(op->names, i),
                            " has no name, and this strategy lines axes up by name: name it "
                            "(e.refine_names({...}), or xn::name(x, dims) for a plain expression), or use "
                            "xn::name_match, which lines unnamed axes up by position "
                            "(xn::name<xn::name_match>(x, dims))");
                    }
                }
            }
            const auto rule = Stretch ? detail::size_rule::stretch : detail::size_rule::equal;
            const std::string_view why = Stretch ? ", and neither is 1"
                                                 : ", and xn::missing_dims stretches no axis "
                                                   "(xn::basic_missing_dims<true> stretches size 1)";
            // The result is a's axes, then b's that a lacks: every list is made at its final size.
            std::size_t added = 0;
            for (std::size_t ib = 0; ib < b.names.size(); ++ib)
            {
                added += a.names.contains(b.names[ib]) ? 0 : 1;
            }
            const std::size_t rank = a.names.size() + added;
            std::vector<std::int64_t> sizes;
            sizes.reserve(rank);
            sizes.assign(a.shape.sizes().begin(), a.shape.sizes().end());
            broadcast_plan result;
            result.axes[0] = detail::identity_map(a.names.size(), added);
            result.axes[1].reserve(rank);
            result.axes[1].assign(a.names.size(), named::no_axis);
            for (std::size_t i = 0; i < a.names.size(); ++i)
            {
                const auto ib = b.names.index_of(a.names[i]);
                if (ib >= 0)
                {
                    sizes[i] =
                        detail::unify_axis_sizes(strategy, a, i, b, static_cast<std::size_t>(ib), rule, why);
                    result.axes[1][i] = ib;
                }
            }
            // a's own dims (shared) when b adds no axis.
            std::vector<std::string> names;
            if (added != 0)
            {
                names.reserve(rank);
                names.assign(a.names.begin(), a.names.end());
            }
            for (std::size_t ib = 0; ib < b.names.size(); ++ib)
            {
                if (!a.names.contains(b.names[ib]))
                {
                    names.push_back(b.names[ib]);
                    sizes.push_back(b.shape.sizes()[ib]);
                    result.axes[0].push_back(named::no_axis);
                    result.axes[1].push_back(static_cast<std::int64_t>(ib));
                }
            }
            result.names = names.empty() ? a.names : named::dims(std::move(names));
            result.shape = partial_shape::of(std::move(sizes));
            return result;
        }

        /*******************************
         * implementation of name_match *
         *******************************/

        inline broadcast_plan name_match::plan(const operand& a, const operand& b)
        {
            const std::string_view strategy = "name_match";
            detail::check_operands(strategy, a, b);
            // The result has as many axes as the operand with more axes.
            const bool left_larger = a.names.size() >= b.names.size();
            const operand& larger = left_larger ? a : b;
            const operand& smaller = left_larger ? b : a;
            const std::size_t larger_k = left_larger ? 0 : 1;

            std::vector<std::size_t> larger_unnamed;
            for (std::size_t i = 0; i < larger.names.size(); ++i)
            {
                if (!larger.names.is_named(i))
                {
                    larger_unnamed.push_back(i);
                }
            }
            std::size_t smaller_unnamed_count = 0;
            for (std::size_t j = 0; j < smaller.names.size(); ++j)
            {
                smaller_unnamed_count += smaller.names.is_named(j) ? 0 : 1;
            }

            std::vector<std::int64_t> sizes(larger.shape.sizes());
            broadcast_plan result;
            result.names = larger.names;
            result.axes[larger_k] = detail::identity_map(larger.names.size());
            result.axes[1 - larger_k].assign(larger.names.size(), named::no_axis);
            std::size_t smaller_unnamed_seen = 0;
            for (std::size_t j = 0; j < smaller.names.size(); ++j)
            {
                std::size_t match = 0;
                if (smaller.names.is_named(j))
                {
                    const auto found = larger.names.index_of(smaller.names[j]);
                    if (found < 0)
                    {
                        detail::throw_strategy_error(strategy, a, b, detail::describe_axis(smaller.names, j),
                                                     " has no match in ", larger.names);
                    }
                    match = static_cast<std::size_t>(found);
                }
                else
                {
                    // Unnamed axes match right-aligned: the last unnamed axis of the smaller operand
                    // meets the last unnamed axis of the larger one, and so on leftwards.
                    const std::size_t from_right = smaller_unnamed_count - 1 - smaller_unnamed_seen;
                    ++smaller_unnamed_seen;
                    if (from_right >= larger_unnamed.size())
                    {
                        detail::throw_strategy_error(
                            strategy, a, b, detail::describe_axis(smaller.names, j), " has no match in ",
                            larger.names, ": unnamed axes match right-aligned, and ", larger.names, " has ",
                            larger_unnamed.size(), " where ", smaller.names, " has ", smaller_unnamed_count);
                    }
                    match = larger_unnamed[larger_unnamed.size() - 1 - from_right];
                }
                const std::size_t ia = left_larger ? match : j;
                const std::size_t ib = left_larger ? j : match;
                sizes[match] = detail::unify_axis_sizes(strategy, a, ia, b, ib, detail::size_rule::stretch,
                                                        ", and neither is 1");
                result.axes[1 - larger_k][match] = static_cast<std::int64_t>(j);
            }
            result.shape = partial_shape::of(std::move(sizes));
            return result;
        }

        /*******************************
         * implementation of exact     *
         *******************************/

        inline broadcast_plan exact::plan(const operand& a, const operand& b)
        {
            const std::string_view strategy = "exact";
            detail::check_operands(strategy, a, b);
            if (a.names.size() != b.names.size())
            {
                detail::throw_strategy_error(strategy, a, b, a.names, " has ", a.names.size(), " axes and ",
                                             b.names, " has ", b.names.size(),
                                             ", and xn::exact broadcasts nothing");
            }
            std::vector<std::int64_t> sizes(a.shape.sizes());
            for (std::size_t i = 0; i < a.names.size(); ++i)
            {
                if (a.names[i] != b.names[i])
                {
                    detail::throw_strategy_error(strategy, a, b, detail::describe_axis(a.names, i), " and ",
                                                 detail::describe_axis(b.names, i), " have different names");
                }
                sizes[i] = detail::unify_axis_sizes(strategy, a, i, b, i, detail::size_rule::equal,
                                                    ", and xn::exact broadcasts nothing");
            }
            broadcast_plan result;
            result.names = a.names;
            result.shape = partial_shape::of(std::move(sizes));
            result.axes[0] = detail::identity_map(a.names.size());
            result.axes[1] = result.axes[0];
            return result;
        }
    } // namespace named
} // namespace xt

#endif
