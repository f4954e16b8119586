/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XBROADCAST_ARGUMENTS_HPP
#define XTENSOR_NAMED_DETAIL_XBROADCAST_ARGUMENTS_HPP

// The shape and axes arguments of the explicit broadcasts and their adjoints, and the checks
// they share. An argument keeps what the caller wrote, unchecked, so that every check can name the
// operation that received it; nothing here touches an element.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xbroadcast_plan.hpp"
#include "../../xerrors.hpp"
#include "../../xnamed_expression.hpp"
#include "../../xpartial_shape.hpp"
#include "../expression/xaligned_view.hpp"
#include "../plans/xunify.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Whether `R` is a range of integers (not of bool): a std::vector, a std::array, an xtensor
            /// shape.
            template <class R, class = void>
            struct is_integer_range : std::false_type
            {
            };

            template <class R>
            struct is_integer_range<R, std::void_t<decltype(std::begin(std::declval<const R&>())),
                                                   decltype(std::end(std::declval<const R&>()))>>
                : std::bool_constant<
                      std::is_integral<
                          std::decay_t<decltype(*std::begin(std::declval<const R&>()))>>::value &&
                      !std::is_same<std::decay_t<decltype(*std::begin(std::declval<const R&>()))>,
                                    bool>::value>
            {
            };

            template <class R>
            inline constexpr bool is_integer_range_v = is_integer_range<R>::value;

            /**
             * A list of integers as the caller wrote it: sizes of a target shape, or axes. Values that do
             * not fit in std::int64_t (a size_t that wrapped around) are kept as a note and reported by
             * the check that reads them.
             */
            class integer_list
            {
            public:
                integer_list() = default;

                template <class R>
                static integer_list of(const R& values);

                const std::vector<std::int64_t>& values() const noexcept;
                std::size_t size() const noexcept;

                /// Empty, or why a value could not be read.
                const std::string& invalid() const noexcept;

                /// `(2, ?)`: a shape's form, xn::unknown printed as `?`.
                std::string to_shape_string() const;

                /// `{0, 2}`: an axis set's form.
                std::string to_axes_string() const;

            private:
                /// Value i as the caller wrote it.
                std::string text(std::size_t i) const;

                std::vector<std::int64_t> m_values;
                // As written, once a value does not fit in m_values (it is still printed as the caller
                // gave it); empty while every value fits, the common case, which then allocates no text.
                std::vector<std::string> m_text;
                std::string m_invalid;
            };

            /**
             * The target shape of an explicit broadcast or the shape of an adjoint's result:
             * `{2, 3}`, an xn::partial_shape, or any range of integers.
             */
            class shape_arg
            {
            public:
                shape_arg(std::initializer_list<std::int64_t> sizes);
                shape_arg(const partial_shape& shape);

                template <class R, std::enable_if_t<is_integer_range_v<R>, int> = 0>
                shape_arg(const R& sizes);

                /// The sizes, or xn::shape_error naming `operation` for an unknown rank, an unknown size,
                /// a negative or an oversized size.
                std::vector<std::size_t> concrete(std::string_view operation) const;

                /// `(2, ?)`, `<unknown>` for an unknown rank.
                std::string to_string() const;

            private:
                integer_list m_sizes;
                bool m_known_rank = true;
            };

            /// Axes (broadcast axes, reduced axes) or a mapping from input axes to output axes.
            class axes_arg
            {
            public:
                axes_arg(std::initializer_list<std::int64_t> axes);

                template <class R, std::enable_if_t<is_integer_range_v<R>, int> = 0>
                axes_arg(const R& axes);

                const integer_list& list() const noexcept;

                /// `{0, 2}`.
                std::string to_string() const;

            private:
                integer_list m_axes;
            };

            /// The shape of an xtensor expression, or `()` for a scalar.
            template <class E>
            std::vector<std::size_t> shape_of(const E& e);

            /**
             * Checks an axis set against a shape of rank `rank`: no negative axis, none out of range, none
             * repeated; returns the axes sorted. `role` names the argument ("broadcast axes"), `where()`
             * the shape they index ("the output shape (2, 3)"): called only for a message, as are the
             * descriptions below, so that a call that passes its checks formats no text. Throws
             * xn::shape_error.
             */
            template <class Where>
            std::vector<std::size_t> check_axis_set(std::string_view operation, std::string_view role,
                                                    const axes_arg& axes, std::size_t rank,
                                                    const Where& where);

            /**
             * Checks a mapping from the `input_rank` axes of an input to axes of an output of rank
             * `output_rank`: one entry per input axis, each in range, strictly increasing (XLA's
             * broadcast_in_dim). `context()` names the shapes. Throws xn::shape_error.
             */
            template <class Context>
            std::vector<std::size_t> check_mapping(std::string_view operation, const axes_arg& mapping,
                                                   std::size_t input_rank, std::size_t output_rank,
                                                   const Context& context);

            /// The output axes that `mapping` (sorted, each < `output_rank`) does not reach, in order.
            std::vector<std::size_t> complement(const std::vector<std::size_t>& mapping,
                                                std::size_t output_rank);

            /// The identity mapping that aligns `input_rank` axes with the last axes of `output_rank` ones.
            std::vector<std::size_t> trailing_mapping(std::size_t input_rank, std::size_t output_rank);

            /**
             * The first input axis whose size neither equals the size of the output axis it maps to nor
             * is 1 (the stretching rule of numpy and of broadcast_in_dim); nothing when every axis fits.
             */
            std::optional<std::size_t> first_misfit(const std::vector<std::size_t>& input,
                                                    const std::vector<std::size_t>& output,
                                                    const std::vector<std::size_t>& mapping);

            /// The input axes of size 1 whose output axis (through `mapping`) has another size.
            std::vector<std::size_t> stretched_axes(const std::vector<std::size_t>& input,
                                                    const std::vector<std::size_t>& output,
                                                    const std::vector<std::size_t>& mapping);

            /// For each of `output_rank` axes, the input axis that `mapping` sends there, or xn::unknown.
            axis_map axes_from_mapping(const std::vector<std::size_t>& mapping, std::size_t output_rank);

            /// A named expression as a strategy sees it: its dims and its (concrete) shape.
            template <class E>
            operand operand_of(const E& e);

            /// The target of broadcast_like or unbroadcast, a named expression or an xn::operand: its dims
            /// and shape; xn::shape_error naming `operation` when the shape is not concrete.
            template <class L>
            operand target_operand(std::string_view operation, const L& like);

            /// What the result of broadcast_like or unbroadcast carries of its target's axes.
            template <class L>
            axes_metadata target_metadata(const L& like, const operand& target);

            /**
             * Lines `small` up with `big` under strategy `S`, as if `small` had been broadcast to `big`:
             * for each axis of `big`, the axis of `small` that lands there, or xn::no_axis. Throws
             * xn::broadcast_error, starting with `what()`, unless the strategy keeps `big`'s axes in
             * order, every axis of `small` lands on one of them, and each lands on an axis of its size or
             * has size 1.
             */
            template <class S, class What>
            axis_map place_within(std::string_view operation, const operand& big, const operand& small,
                                  const What& what);

            /******************************
             * implementation of argument *
             ******************************/

            template <class R>
            inline integer_list integer_list::of(const R& values)
            {
                using value_type = std::decay_t<decltype(*std::begin(values))>;
                constexpr auto largest = std::numeric_limits<std::int64_t>::max();
                integer_list result;
                std::size_t position = 0;
                for (const auto& value : values)
                {
                    bool fits = true;
                    if constexpr (std::is_unsigned<value_type>::value)
                    {
                        fits = static_cast<std::uintmax_t>(value) <= static_cast<std::uintmax_t>(largest);
                    }
                    if (!fits && result.m_invalid.empty())
                    {
                        result.m_invalid = concat("the value ", value, " at position ", position,
                                                  " is larger than the largest size or axis, ", largest);
                        for (std::size_t i = 0; i < position; ++i)
                        {
                            result.m_text.push_back(std::to_string(result.m_values[i]));
                        }
                    }
                    result.m_values.push_back(fits ? static_cast<std::int64_t>(value) : largest);
                    if (!result.m_invalid.empty())
                    {
                        result.m_text.push_back(std::to_string(value));
                    }
                    ++position;
                }
                return result;
            }

            inline const std::vector<std::int64_t>& integer_list::values() const noexcept
            {
                return m_values;
            }

            inline std::size_t integer_list::size() const noexcept
            {
                return m_values.size();
            }

            inline const std::string& integer_list::invalid() const noexcept
            {
                return m_invalid;
            }

            inline std::string integer_list::text(std::size_t i) const
            {
                return m_text.empty() ? std::to_string(m_values[i]) : m_text[i];
            }

            inline std::string integer_list::to_shape_string() const
            {
                std::string out = "(";
                for (std::size_t i = 0; i < m_values.size(); ++i)
                {
                    out += i == 0 ? "" : ", ";
                    out += m_values[i] == named::unknown ? std::string("?") : text(i);
                }
                return out + ")";
            }

            inline std::string integer_list::to_axes_string() const
            {
                std::string out = "{";
                for (std::size_t i = 0; i < m_values.size(); ++i)
                {
                    out += i == 0 ? "" : ", ";
                    out += text(i);
                }
                return out + "}";
            }

            inline shape_arg::shape_arg(std::initializer_list<std::int64_t> sizes)
                : m_sizes(integer_list::of(sizes))
            {
            }

            inline shape_arg::shape_arg(const partial_shape& shape) : m_known_rank(!shape.is_unknown())
            {
                if (m_known_rank)
                {
                    m_sizes = integer_list::of(shape.sizes());
                }
            }

            template <class R, std::enable_if_t<is_integer_range_v<R>, int>>
            inline shape_arg::shape_arg(const R& sizes) : m_sizes(integer_list::of(sizes))
            {
            }

            inline std::vector<std::size_t> shape_arg::concrete(std::string_view operation) const
            {
                if (!m_known_rank)
                {
                    throw_shape_error(
                        operation,
                        "the shape <unknown> has an unknown rank where a concrete shape is needed");
                }
                if (!m_sizes.invalid().empty())
                {
                    throw_shape_error(operation, "in the shape ", to_string(), ", ", m_sizes.invalid());
                }
                const auto& sizes = m_sizes.values();
                for (std::size_t i = 0; i < sizes.size(); ++i)
                {
                    if (sizes[i] == named::unknown)
                    {
                        throw_shape_error(operation, "the shape ", to_string(),
                                          " has an unknown size at axis ", i,
                                          " where a concrete shape is needed");
                    }
                    if (sizes[i] < 0)
                    {
                        throw_shape_error(
                            operation, "the shape ", to_string(), " has the negative size ", sizes[i],
                            " at axis ", i,
                            " (only xn::unknown, -1, marks an unknown size, and it is not allowed "
                            "here)");
                    }
                }
                // The element count and strides must fit std::size_t: partial_shape owns that check.
                return partial_shape::of(sizes).to_concrete(operation);
            }

            inline std::string shape_arg::to_string() const
            {
                return m_known_rank ? m_sizes.to_shape_string() : std::string("<unknown>");
            }

            inline axes_arg::axes_arg(std::initializer_list<std::int64_t> axes)
                : m_axes(integer_list::of(axes))
            {
            }

            template <class R, std::enable_if_t<is_integer_range_v<R>, int>>
            inline axes_arg::axes_arg(const R& axes) : m_axes(integer_list::of(axes))
            {
            }

            inline const integer_list& axes_arg::list() const noexcept
            {
                return m_axes;
            }

            inline std::string axes_arg::to_string() const
            {
                return m_axes.to_axes_string();
            }

            /***************************
             * implementation of checks *
             ***************************/

            template <class E>
            inline std::vector<std::size_t> shape_of(const E& e)
            {
                if constexpr (xt::is_xexpression<E>::value)
                {
                    return std::vector<std::size_t>(e.shape().begin(), e.shape().end());
                }
                else
                {
                    return {};
                }
            }

            // Shared by check_axis_set and check_mapping: a readable list must hold axes in [0, rank).
            template <class Where>
            inline void check_axes_in_range(std::string_view operation, std::string_view role,
                                            const axes_arg& axes, std::size_t rank, const Where& where)
            {
                if (!axes.list().invalid().empty())
                {
                    throw_shape_error(operation, "in the ", role, " ", axes.to_string(), ", ",
                                      axes.list().invalid());
                }
                const auto& values = axes.list().values();
                for (std::size_t i = 0; i < values.size(); ++i)
                {
                    if (values[i] < 0)
                    {
                        throw_shape_error(
                            operation, "axis ", values[i], " at position ", i, " of the ", role, " ",
                            axes.to_string(),
                            " is negative: axes count from 0 and negative axes are not accepted");
                    }
                    if (static_cast<std::uint64_t>(values[i]) >= rank)
                    {
                        throw_shape_error(operation, "axis ", values[i], " at position ", i, " of the ", role,
                                          " ", axes.to_string(), " is out of range for ", where(),
                                          " of rank ", rank);
                    }
                }
            }

            template <class Where>
            inline std::vector<std::size_t> check_axis_set(std::string_view operation, std::string_view role,
                                                           const axes_arg& axes, std::size_t rank,
                                                           const Where& where)
            {
                check_axes_in_range(operation, role, axes, rank, where);
                const auto& values = axes.list().values();
                for (std::size_t i = 0; i < values.size(); ++i)
                {
                    for (std::size_t j = 0; j < i; ++j)
                    {
                        if (values[j] == values[i])
                        {
                            throw_shape_error(operation, "axis ", values[i], " appears twice in the ", role,
                                              " ", axes.to_string(), ", at positions ", j, " and ", i);
                        }
                    }
                }
                std::vector<std::size_t> sorted(values.begin(), values.end());
                std::sort(sorted.begin(), sorted.end());
                return sorted;
            }

            template <class Context>
            inline std::vector<std::size_t> check_mapping(std::string_view operation, const axes_arg& mapping,
                                                          std::size_t input_rank, std::size_t output_rank,
                                                          const Context& context)
            {
                if (mapping.list().size() != input_rank)
                {
                    throw_shape_error(operation, "the mapping ", mapping.to_string(), " has length ",
                                      mapping.list().size(), ", but the input has ", input_rank,
                                      " axes: it needs one output axis per input axis (", context(), ")");
                }
                check_axes_in_range(operation, "mapping", mapping, output_rank,
                                    [] { return std::string("the output shape"); });
                const auto& values = mapping.list().values();
                for (std::size_t i = 1; i < values.size(); ++i)
                {
                    if (values[i] <= values[i - 1])
                    {
                        throw_shape_error(operation, "the mapping ", mapping.to_string(),
                                          " is not strictly increasing: input axis ", i,
                                          " goes to output axis ", values[i],
                                          ", which does not come after output axis ", values[i - 1],
                                          " of input axis ", i - 1, " (", context(), ")");
                    }
                }
                return std::vector<std::size_t>(values.begin(), values.end());
            }

            inline std::vector<std::size_t> complement(const std::vector<std::size_t>& mapping,
                                                       std::size_t output_rank)
            {
                std::vector<std::size_t> result;
                std::size_t next = 0;
                for (std::size_t axis = 0; axis < output_rank; ++axis)
                {
                    if (next < mapping.size() && mapping[next] == axis)
                    {
                        ++next;
                    }
                    else
                    {
                        result.push_back(axis);
                    }
                }
                return result;
            }

            inline std::vector<std::size_t> trailing_mapping(std::size_t input_rank, std::size_t output_rank)
            {
                std::vector<std::size_t> result(input_rank);
                for (std::size_t i = 0; i < input_rank; ++i)
                {
                    result[i] = output_rank - input_rank + i;
                }
                return result;
            }

            inline std::optional<std::size_t> first_misfit(const std::vector<std::size_t>& input,
                                                           const std::vector<std::size_t>& output,
                                                           const std::vector<std::size_t>& mapping)
            {
                for (std::size_t i = 0; i < input.size(); ++i)
                {
                    if (input[i] != output[mapping[i]] && input[i] != 1)
                    {
                        return i;
                    }
                }
                return std::nullopt;
            }

            inline std::vector<std::size_t> stretched_axes(const std::vector<std::size_t>& input,
                                                           const std::vector<std::size_t>& output,
                                                           const std::vector<std::size_t>& mapping)
            {
                std::vector<std::size_t> result;
                for (std::size_t i = 0; i < input.size(); ++i)
                {
                    // A size-1 axis stretched to size 0 is summed too: its gradient is 0, of size 1.
                    if (input[i] == 1 && output[mapping[i]] != 1)
                    {
                        result.push_back(i);
                    }
                }
                return result;
            }

            /*************************************
             * implementation of named targets   *
             *************************************/

            inline axis_map axes_from_mapping(const std::vector<std::size_t>& mapping,
                                              std::size_t output_rank)
            {
                axis_map from(output_rank, named::no_axis);
                for (std::size_t i = 0; i < mapping.size(); ++i)
                {
                    from[mapping[i]] = static_cast<std::int64_t>(i);
                }
                return from;
            }

            template <class E>
            inline operand operand_of(const E& e)
            {
                return operand{partial_shape::of(e.shape()), e.dims()};
            }

            template <class L>
            inline operand target_operand(std::string_view operation, const L& like)
            {
                if constexpr (is_named_expression_v<L>)
                {
                    return operand_of(like);
                }
                else
                {
                    check_operand(operation, like);
                    // The shape's one check for concrete sizes, under this operation's name.
                    shape_arg(like.shape).concrete(operation);
                    return like;
                }
            }

            template <class L>
            inline axes_metadata target_metadata(const L& like, const operand& target)
            {
                if constexpr (is_named_expression_v<L>)
                {
                    return select_axes(like.metadata(), identity_map(target.names.size()), target.names);
                }
                else
                {
                    return axes_metadata{target.names};
                }
            }

            template <class S, class What>
            inline axis_map place_within(std::string_view operation, const operand& big, const operand& small,
                                         const What& what)
            {
                const broadcast_plan p = rethrow_within<broadcast_error>(
                    operation, [&] { return plan<S>(big, small); }, [&] { return concat(what(), ": "); });
                // An axis of `small` lands only where `big` has an axis too: elsewhere the broadcast
                // would have added it to `big`.
                std::vector<bool> landed(small.names.size(), false);
                for (std::size_t i = 0; i < p.names.size(); ++i)
                {
                    if (p.axes[1][i] != named::no_axis && p.axes[0][i] != named::no_axis)
                    {
                        landed[static_cast<std::size_t>(p.axes[1][i])] = true;
                    }
                }
                for (std::size_t j = 0; j < landed.size(); ++j)
                {
                    if (!landed[j])
                    {
                        throw_broadcast_error(operation, what(), ": ", describe_axis(small.names, j),
                                              " finds no axis of ", big.names.to_string(),
                                              " to land on (the broadcast would give ", p.names.to_string(),
                                              " with shape ", p.shape.to_string(), ")");
                    }
                }
                const std::size_t rank = big.names.size();
                bool keeps_big = p.names.size() == rank;
                for (std::size_t i = 0; keeps_big && i < rank; ++i)
                {
                    keeps_big = p.axes[0][i] == static_cast<std::int64_t>(i);
                }
                if (!keeps_big)
                {
                    throw_broadcast_error(operation, what(), ": the broadcast gives ", p.names.to_string(),
                                          " with shape ", p.shape.to_string(), ", not the axes of ",
                                          big.names.to_string(), " in their order");
                }
                for (std::size_t i = 0; i < rank; ++i)
                {
                    const auto axis = p.axes[1][i];
                    if (axis == named::no_axis)
                    {
                        continue;
                    }
                    const auto size = small.shape.size(axis);
                    const auto big_size = big.shape.size(static_cast<std::int64_t>(i));
                    if (size != big_size && size != 1)
                    {
                        throw_broadcast_error(operation, what(), ": ",
                                              describe_axis(small.names, static_cast<std::size_t>(axis)),
                                              " has size ", size, " but lands on ",
                                              describe_axis(big.names, i), ", of size ", big_size,
                                              "; a size must be equal or 1");
                    }
                }
                return p.axes[1];
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
