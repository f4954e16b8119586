/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XINDEXED_VIEW_HPP
#define XTENSOR_NAMED_DETAIL_XINDEXED_VIEW_HPP

// Read-only views that permute axes and insert size-1 axes, for the explicit broadcasts and their
// adjoints. An expression with a data interface gets detail::aligned_view, a strided view with its real
// strides. One without (an xfunction, a reducer) is read by index through an xt::xgenerator instead:
// xtensor 0.24.3's flat adaptor, which aligned_view falls back on, reads wrong values under xtensor's
// own reducers (their steppers step one past the end of a reduced axis and back, and the adaptor's
// iterator stops at the end), so xt::sum over such a view is wrong unless the reduced axis is the last.

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "../xcompat_xtensor.hpp"
#include "../xpartial_shape.hpp"
#include "xaligned_view.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /**
             * The element access of a view of `CT` whose axis i shows axis `from[i]` of the expression, or a
             * new size-1 axis where `from[i]` is xn::unknown; the axes that `from` leaves out have size 1.
             * The functor of an xt::xgenerator: every read goes through the expression's element().
             */
            template <class CT>
            class aligned_reader
            {
            public:
                using expression_type = std::decay_t<CT>;
                using value_type = typename expression_type::value_type;

                template <class E>
                aligned_reader(E&& e, axis_map from);

                template <class... Args>
                value_type operator()(Args... args) const;

                template <class It>
                value_type element(It first, It last) const;

            private:
                CT m_expression;
                axis_map m_from;
            };

            /**
             * A read-only view of `e` whose axis i shows axis `from[i]` of `e`, or a new size-1 axis where
             * `from[i]` is xn::unknown (the axes of `e` that `from` leaves out must have size 1): a strided
             * view with real strides when `e` has a data interface, an index-reading generator otherwise.
             * An lvalue `e` is held by const reference, an rvalue owned.
             */
            template <class E>
            auto readonly_aligned_view(E&& e, const axis_map& from);

            /***********************************
             * implementation of aligned_reader *
             ***********************************/

            template <class CT>
            template <class E>
            inline aligned_reader<CT>::aligned_reader(E&& e, axis_map from)
                : m_expression(std::forward<E>(e)), m_from(std::move(from))
            {
            }

            template <class CT>
            template <class... Args>
            inline auto aligned_reader<CT>::operator()(Args... args) const -> value_type
            {
                const std::array<std::size_t, sizeof...(Args)> index{static_cast<std::size_t>(args)...};
                return element(index.cbegin(), index.cend());
            }

            template <class CT>
            template <class It>
            inline auto aligned_reader<CT>::element(It first, It last) const -> value_type
            {
                // As xtensor reads a shorter index: the missing leading indices are 0; extra leading ones
                // are ignored.
                const std::size_t rank = m_from.size();
                xt::svector<std::size_t, 8> index(rank, 0);
                std::size_t count = 0;
                for (It it = first; it != last; ++it)
                {
                    ++count;
                }
                std::size_t skip = count > rank ? count - rank : 0;
                std::size_t position = count < rank ? rank - count : 0;
                for (It it = first; it != last; ++it)
                {
                    if (skip > 0)
                    {
                        --skip;
                        continue;
                    }
                    index[position++] = static_cast<std::size_t>(*it);
                }
                xt::svector<std::size_t, 8> source(m_expression.dimension(), 0);
                for (std::size_t i = 0; i < rank; ++i)
                {
                    if (m_from[i] != named::unknown)
                    {
                        source[static_cast<std::size_t>(m_from[i])] = index[i];
                    }
                }
                return m_expression.element(source.cbegin(), source.cend());
            }

            template <class E>
            inline auto readonly_aligned_view(E&& e, const axis_map& from)
            {
                if constexpr (xt::has_data_interface<std::decay_t<E>>::value)
                {
                    if constexpr (std::is_lvalue_reference<E>::value)
                    {
                        return aligned_view(std::as_const(e), from);
                    }
                    else
                    {
                        return aligned_view(std::move(e), from);
                    }
                }
                else
                {
                    view_shape_type shape(from.size());
                    for (std::size_t i = 0; i < from.size(); ++i)
                    {
                        shape[i] =
                            from[i] == named::unknown
                                ? 1
                                : static_cast<std::size_t>(e.shape()[static_cast<std::size_t>(from[i])]);
                    }
                    using reader_type = aligned_reader<xt::const_xclosure_t<E>>;
                    return xt::detail::make_xgenerator(reader_type(std::forward<E>(e), from),
                                                       std::move(shape));
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
