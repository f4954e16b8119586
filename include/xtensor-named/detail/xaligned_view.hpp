/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XALIGNED_VIEW_HPP
#define XTENSOR_NAMED_DETAIL_XALIGNED_VIEW_HPP

// Seed 001's broadcaster: an operand's axes permuted and size-1 axes inserted, so that xtensor's own
// right-aligned broadcasting then lines it up as a plan says. Nothing is copied. An operand with a data
// interface gets one xt::xstrided_view with its real strides, so the evaluation code sees them. One
// without (an xfunction, a reducer) is read by index through an xt::xgenerator instead: xtensor 0.24's
// flat adaptor, which a strided view would fall back on, reads wrong values under xtensor's reducers
// (their steppers step one past the end of a reduced axis and back, and the adaptor's iterator stops at
// the end), so xt::sum over such a view is wrong unless the reduced axis is the last.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../xbroadcast_plan.hpp"
#include "../xcompat_xtensor.hpp"
#include "../xerrors.hpp"
#include "../xpartial_shape.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            using view_shape_type = xt::dynamic_shape<std::size_t>;
            using view_strides_type = xt::dynamic_shape<std::ptrdiff_t>;

            /// For each axis of a view, the axis of the source that it shows, or xn::unknown for a new one.
            using axis_map = std::vector<std::int64_t>;

            /**
             * A view of `e` whose axis i is axis `from[i]` of `e`, or a new size-1 axis where `from[i]` is
             * xn::unknown. Axes of `e` that `from` leaves out must have size 1: they are dropped.
             * Callers check `from` first (`check_concrete_plan`, or the named expression's own checks).
             */
            template <class E>
            auto aligned_view(E&& e, const axis_map& from);

            /**
             * A view of `e` of shape `shape`: axis i shows axis `from[i]` of `e`, stretched with stride 0
             * where that axis has size 1 and `shape[i]` does not, or a stride-0 axis where `from[i]` is
             * xn::unknown. Callers check first that every axis of `e` is `shape[i]` long or 1.
             */
            template <class E>
            auto broadcast_view(E&& e, const axis_map& from, const view_shape_type& shape);

            /// aligned_view of `e` read through a const closure: never writable, whatever `e` is.
            template <class E>
            auto readonly_aligned_view(E&& e, const axis_map& from);

            /**
             * The element access of a view whose axis i shows axis `from[i]` of the expression (index 0
             * where that axis has size 1), or ignores the index where `from[i]` is xn::unknown.
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
             * Throws xn::broadcast_error unless a checked plan can be evaluated for operands of concrete
             * shapes: every result size known, and equal to the size xtensor's broadcasting gives the
             * aligned views (the one size other than 1 that lands there, else 1).
             */
            void check_concrete_plan(std::string_view operation, const broadcast_plan& p, const operand& a,
                                     const operand& b);

            /// The concrete shape of a checked plan.
            view_shape_type concrete_shape(const broadcast_plan& p);

            /// row_major or column_major when `strides` are those of a contiguous array of `shape`.
            xt::layout_type layout_of(const view_shape_type& shape, const view_strides_type& strides);

            /*********************************
             * implementation of the views   *
             *********************************/

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
                const auto count = static_cast<std::size_t>(std::distance(first, last));
                if (count > rank)
                {
                    std::advance(first, count - rank);
                }
                xt::svector<std::size_t, 8> index(rank, 0);
                std::copy(first, last,
                          index.begin() + static_cast<std::ptrdiff_t>(rank - std::min(count, rank)));
                const auto& source_shape = m_expression.shape();
                xt::svector<std::size_t, 8> source(m_expression.dimension(), 0);
                for (std::size_t i = 0; i < rank; ++i)
                {
                    if (m_from[i] != named::unknown)
                    {
                        const auto axis = static_cast<std::size_t>(m_from[i]);
                        source[axis] = source_shape[axis] == 1 ? 0 : index[i];
                    }
                }
                return m_expression.element(source.cbegin(), source.cend());
            }

            /// A read-only view of `e` of shape `shape` through aligned_reader.
            template <class E>
            inline auto indexed_view(E&& e, const axis_map& from, view_shape_type shape)
            {
                using reader_type = aligned_reader<xt::const_xclosure_t<E>>;
                return xt::detail::make_xgenerator(reader_type(std::forward<E>(e), from), std::move(shape));
            }

            /// The strides of `e` as a view sees them: its own, or row-major ones for an expression without
            /// a data interface.
            template <class E>
            inline view_strides_type source_strides(const E& e)
            {
                view_strides_type strides(e.dimension());
                if constexpr (xt::has_data_interface<std::decay_t<E>>::value)
                {
                    const auto& own = e.strides();
                    for (std::size_t i = 0; i < strides.size(); ++i)
                    {
                        strides[i] = static_cast<std::ptrdiff_t>(own[i]);
                    }
                }
                else
                {
                    xt::compute_strides(e.shape(), XTENSOR_DEFAULT_TRAVERSAL, strides);
                }
                return strides;
            }

            template <class E>
            inline std::size_t source_offset(const E& e)
            {
                if constexpr (xt::has_data_interface<std::decay_t<E>>::value)
                {
                    return static_cast<std::size_t>(e.data_offset());
                }
                else
                {
                    return 0;
                }
            }

            inline xt::layout_type layout_of(const view_shape_type& shape, const view_strides_type& strides)
            {
                // Contiguous in `layout` when each axis steps over all the elements of the axes inside it;
                // the stride of a size-1 axis is never used to step.
                const auto matches = [&](xt::layout_type layout)
                {
                    const std::size_t rank = shape.size();
                    std::ptrdiff_t inner_elements = 1;
                    for (std::size_t k = 0; k < rank; ++k)
                    {
                        const std::size_t i = layout == xt::layout_type::row_major ? rank - 1 - k : k;
                        if (shape[i] != 1 && strides[i] != inner_elements)
                        {
                            return false;
                        }
                        inner_elements *= static_cast<std::ptrdiff_t>(shape[i]);
                    }
                    return true;
                };
                if (matches(xt::layout_type::row_major))
                {
                    return xt::layout_type::row_major;
                }
                if (matches(xt::layout_type::column_major))
                {
                    return xt::layout_type::column_major;
                }
                return xt::layout_type::dynamic;
            }

            template <class E>
            inline auto aligned_view(E&& e, const axis_map& from)
            {
                const auto& source_shape = e.shape();
                view_shape_type shape(from.size());
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    shape[i] =
                        from[i] == named::unknown
                            ? 1
                            : static_cast<std::size_t>(source_shape[static_cast<std::size_t>(from[i])]);
                }
                if constexpr (xt::has_data_interface<std::decay_t<E>>::value)
                {
                    const auto source = source_strides(e);
                    view_strides_type strides(from.size());
                    for (std::size_t i = 0; i < from.size(); ++i)
                    {
                        strides[i] =
                            from[i] == named::unknown ? 0 : source[static_cast<std::size_t>(from[i])];
                    }
                    const std::size_t offset = source_offset(e);
                    const xt::layout_type layout = layout_of(shape, strides);
                    return xt::strided_view(std::forward<E>(e), std::move(shape), std::move(strides), offset,
                                            layout);
                }
                else
                {
                    return indexed_view(std::forward<E>(e), from, std::move(shape));
                }
            }

            template <class E>
            inline auto broadcast_view(E&& e, const axis_map& from, const view_shape_type& shape)
            {
                if constexpr (xt::has_data_interface<std::decay_t<E>>::value)
                {
                    const auto source = source_strides(e);
                    const auto& source_shape = e.shape();
                    view_strides_type strides(from.size());
                    for (std::size_t i = 0; i < from.size(); ++i)
                    {
                        const bool present = from[i] != named::unknown;
                        const auto axis = present ? static_cast<std::size_t>(from[i]) : 0;
                        const bool stepped =
                            present && static_cast<std::size_t>(source_shape[axis]) == shape[i];
                        strides[i] = stepped ? source[axis] : 0;
                    }
                    const std::size_t offset = source_offset(e);
                    view_shape_type view_shape = shape;
                    const xt::layout_type layout = layout_of(view_shape, strides);
                    return xt::strided_view(std::forward<E>(e), std::move(view_shape), std::move(strides),
                                            offset, layout);
                }
                else
                {
                    return indexed_view(std::forward<E>(e), from, shape);
                }
            }

            template <class E>
            inline auto readonly_aligned_view(E&& e, const axis_map& from)
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

            /*****************************************
             * implementation of the concrete checks *
             *****************************************/

            inline void check_concrete_plan(std::string_view operation, const broadcast_plan& p,
                                            const operand& a, const operand& b)
            {
                if (p.shape.is_unknown() || p.shape.has_unknown_dimension())
                {
                    throw_broadcast_error(operation, "the strategy gave the result shape ",
                                          p.shape.to_string(), " for ", a.to_string(), " and ", b.to_string(),
                                          ", but operands of known shapes need a known result shape");
                }
                const operand* ops[2] = {&a, &b};
                for (std::size_t i = 0; i < p.names.size(); ++i)
                {
                    // xtensor's broadcasting gives the one size other than 1 that lands here, else 1.
                    std::int64_t broadcast_size = 1;
                    for (std::size_t k = 0; k < 2; ++k)
                    {
                        if (p.axes[k][i] != named::unknown)
                        {
                            const auto size = ops[k]->shape.size(p.axes[k][i]);
                            broadcast_size = size != 1 ? size : broadcast_size;
                        }
                    }
                    const auto planned = p.shape.size(static_cast<std::int64_t>(i));
                    if (planned != broadcast_size)
                    {
                        throw_broadcast_error(operation, "the strategy gave result axis ",
                                              detail::quoted(p.names[i]), " (axis ", i, ") of ",
                                              p.names.to_string(), " size ", planned, ", but the operands ",
                                              a.to_string(), " and ", b.to_string(), " give it size ",
                                              broadcast_size);
                    }
                }
            }

            inline view_shape_type concrete_shape(const broadcast_plan& p)
            {
                const auto& sizes = p.shape.sizes();
                view_shape_type shape(sizes.size());
                for (std::size_t i = 0; i < sizes.size(); ++i)
                {
                    shape[i] = static_cast<std::size_t>(sizes[i]);
                }
                return shape;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
