/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XOPERAND_REFS_HPP
#define XTENSOR_NAMED_DETAIL_XOPERAND_REFS_HPP

// What an operation's plan reads of its array operands (sizes, dims, labels), whatever their types, so
// that planning an operation and keeping its plan are compiled once per strategy and number of operands,
// not once per operation of a program.

#include <array>
#include <cstddef>
#include <iterator>
#include <type_traits>

#include "../../xdims.hpp"
#include "../../xnamed_expression.hpp"
#include "../core/xextent.hpp"
#include "../expression/xaligned_view.hpp"
#include "xoperand_kinds.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// One array operand as a plan sees it: its sizes, and its dims and labels (null for a plain
            /// expression, whose axes are all "?"). Points into the operand, which outlives it.
            struct operand_ref
            {
                const std::size_t* sizes = nullptr;
                std::size_t rank = 0;
                const axes_metadata* metadata = nullptr;

                const std::size_t* begin() const noexcept;
                const std::size_t* end() const noexcept;

                /// The operand's dims: "?" throughout for a plain expression.
                named::dims names() const;

                bool labelled() const noexcept;
            };

            template <std::size_t N>
            using operand_refs = std::array<operand_ref, N>;

            template <class A, class = void>
            struct stores_sizes : std::false_type
            {
            };

            /// Whether the shape of `A` is stored as contiguous std::size_t, which a ref points at.
            template <class A>
            struct stores_sizes<A, std::void_t<decltype(std::declval<const A&>().shape())>>
                : stores_size_t<std::decay_t<decltype(std::declval<const A&>().shape())>>
            {
            };

            template <class... A>
            inline constexpr std::size_t copied_shapes_v =
                (std::size_t(is_array_operand_v<A> && !stores_sizes<std::decay_t<A>>::value) + ... + 0);

            /// Room for the sizes of the operands whose shapes are stored otherwise (of other integers).
            template <class... A>
            using shape_copies = std::array<view_shape_type, copied_shapes_v<A...>>;

            /// The array operands among `args`, in order (scalars are skipped); `copies` holds the sizes
            /// that cannot be pointed at.
            template <class... A>
            operand_refs<array_count_v<A...>> refs_of(shape_copies<A...>& copies, const A&... args);

            /// Whether any of `refs` carries labels.
            template <std::size_t N>
            bool any_labelled(const operand_refs<N>& refs) noexcept;

            /*******************************
             * operand_ref implementation  *
             *******************************/

            inline const std::size_t* operand_ref::begin() const noexcept
            {
                return sizes;
            }

            inline const std::size_t* operand_ref::end() const noexcept
            {
                return sizes + rank;
            }

            inline named::dims operand_ref::names() const
            {
                return metadata != nullptr ? metadata->names : named::dims::unnamed(rank);
            }

            inline bool operand_ref::labelled() const noexcept
            {
                return metadata != nullptr && !metadata->coords.empty();
            }

            template <class... A>
            inline operand_refs<array_count_v<A...>> refs_of([[maybe_unused]] shape_copies<A...>& copies,
                                                             const A&... args)
            {
                operand_refs<array_count_v<A...>> refs{};
                std::size_t k = 0;
                [[maybe_unused]] std::size_t copied = 0;
                (
                    [&]
                    {
                        if constexpr (is_array_operand_v<A>)
                        {
                            operand_ref& ref = refs[k++];
                            const auto& shape = args.shape();
                            ref.rank = static_cast<std::size_t>(std::size(shape));
                            if constexpr (stores_sizes<A>::value)
                            {
                                ref.sizes = std::data(shape);
                            }
                            else
                            {
                                view_shape_type& copy = copies[copied++];
                                copy.assign(std::begin(shape), std::end(shape));
                                ref.sizes = copy.data();
                            }
                            if constexpr (is_named_expression_v<A>)
                            {
                                ref.metadata = &args.metadata();
                            }
                        }
                    }(),
                    ...);
                return refs;
            }

            template <std::size_t N>
            inline bool any_labelled(const operand_refs<N>& refs) noexcept
            {
                for (const operand_ref& ref : refs)
                {
                    if (ref.labelled())
                    {
                        return true;
                    }
                }
                return false;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
