/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XUNIFY_HPP
#define XTENSOR_NAMED_DETAIL_XUNIFY_HPP

// What the broadcasting strategies share: how two sizes that line up combine, how two names that line
// up unify, and the one message builder behind every refusal.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../../xbroadcast_plan.hpp"
#include "../../xdims.hpp"
#include "../../xerrors.hpp"
#include "../../xpartial_shape.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Whether a size-1 axis may stretch to the size it lines up with.
            enum class size_rule
            {
                stretch,
                equal
            };

            /// The size two lined-up sizes give, or nothing when they cannot line up.
            std::optional<std::int64_t> unify_size(std::int64_t lhs, std::int64_t rhs,
                                                   size_rule rule) noexcept;

            /// Every refusal of a strategy: "xn::<strategy>: <details>; operands <a> and <b>".
            template <class... Args>
            [[noreturn]] void throw_strategy_error(std::string_view strategy, const operand& a,
                                                   const operand& b, const Args&... details);

            /// Checks one name per axis (xn::name_error) and known ranks (xn::broadcast_error).
            void check_operands(std::string_view strategy, const operand& a, const operand& b);

            /**
             * The size that axis `ia` of `a` and axis `ib` of `b` give under `rule`; refuses with both axes,
             * both sizes and `why` (", and neither is 1") when they cannot line up.
             */
            std::int64_t unify_axis_sizes(std::string_view strategy, const operand& a, std::size_t ia,
                                          const operand& b, std::size_t ib, size_rule rule,
                                          std::string_view why);

            /**
             * The name that axis `ia` of `a` and axis `ib` of `b` give when they line up by position:
             * equal names, or one is `"?"` and the other's name wins. Refuses different names, and a name
             * matched against `"?"` that the other operand has elsewhere (the result would have it twice).
             */
            const std::string& unify_axis_names(std::string_view strategy, const operand& a, std::size_t ia,
                                                const operand& b, std::size_t ib);

            /*****************************
             * implementation of unify   *
             *****************************/

            inline std::optional<std::int64_t> unify_size(std::int64_t lhs, std::int64_t rhs,
                                                          size_rule rule) noexcept
            {
                if (lhs == rhs)
                {
                    return lhs;
                }
                if (rule == size_rule::stretch)
                {
                    // TensorFlow's optimistic rule: an unknown size lining up with 1 may still be anything,
                    // lining up with n > 1 it can only be 1 or n, and either way the result is n.
                    if (lhs == 1)
                    {
                        return rhs;
                    }
                    if (rhs == 1)
                    {
                        return lhs;
                    }
                }
                if (lhs == named::unknown)
                {
                    return rhs;
                }
                if (rhs == named::unknown)
                {
                    return lhs;
                }
                return std::nullopt;
            }

            template <class... Args>
            [[noreturn]] inline void throw_strategy_error(std::string_view strategy, const operand& a,
                                                          const operand& b, const Args&... details)
            {
                throw_broadcast_error(strategy, details..., "; operands ", a.to_string(), " and ",
                                      b.to_string());
            }

            inline void check_operands(std::string_view strategy, const operand& a, const operand& b)
            {
                check_operand(strategy, a);
                check_operand(strategy, b);
                if (a.shape.is_unknown() || b.shape.is_unknown())
                {
                    throw_strategy_error(strategy, a, b, "the rank of the ",
                                         a.shape.is_unknown() ? "left" : "right",
                                         " operand is unknown, and lining up axes needs it");
                }
            }

            inline std::int64_t unify_axis_sizes(std::string_view strategy, const operand& a, std::size_t ia,
                                                 const operand& b, std::size_t ib, size_rule rule,
                                                 std::string_view why)
            {
                const auto size_a = a.shape.sizes()[ia];
                const auto size_b = b.shape.sizes()[ib];
                const auto size = unify_size(size_a, size_b, rule);
                if (!size)
                {
                    throw_strategy_error(strategy, a, b, describe_axis(a.names, ia), " has size ", size_a,
                                         " but ", describe_axis(b.names, ib), " has size ", size_b, why);
                }
                return *size;
            }

            inline const std::string& unify_axis_names(std::string_view strategy, const operand& a,
                                                       std::size_t ia, const operand& b, std::size_t ib)
            {
                const std::string& name_a = a.names[ia];
                const std::string& name_b = b.names[ib];
                if (name_a == name_b)
                {
                    return name_a;
                }
                if (name_a != unnamed_axis && name_b != unnamed_axis)
                {
                    throw_strategy_error(strategy, a, b, describe_axis(a.names, ia), " lines up with ",
                                         describe_axis(b.names, ib), ", and their names differ");
                }
                // PyTorch's rule for named tensors: a name matched against "?" must not also appear elsewhere
                // in the other operand, else the result would carry that name twice.
                const bool a_named = name_a != unnamed_axis;
                const operand& named_side = a_named ? a : b;
                const operand& unnamed_side = a_named ? b : a;
                const std::size_t named_axis = a_named ? ia : ib;
                const std::size_t unnamed_axis_index = a_named ? ib : ia;
                const std::string& name = a_named ? name_a : name_b;
                const auto elsewhere = unnamed_side.names.index_of(name);
                if (elsewhere >= 0)
                {
                    throw_strategy_error(
                        strategy, a, b, describe_axis(named_side.names, named_axis), " lines up with ",
                        describe_axis(unnamed_side.names, unnamed_axis_index), ", which has ",
                        detail::quoted(name), " elsewhere (axis ", elsewhere, ")");
                }
                return name;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
