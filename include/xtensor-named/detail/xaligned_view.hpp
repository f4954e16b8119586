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
// right-aligned broadcasting then lines it up as a plan says. Every view here is one xt::xstrided_view
// over the operand's closure: nothing is copied, and the evaluation code sees real strides. An operand
// without a data interface (an xfunction, a reducer) gets xtensor's flat adaptor under the same view,
// with the row-major strides that adaptor reads it with.

#include <cstddef>
#include <cstdint>
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

            /**
             * Throws xn::broadcast_error unless a checked plan can be evaluated for operands of concrete
             * shapes: every result size known, and equal to the size xtensor's broadcasting gives the
             * aligned views (the one size other than 1 that lands there, else 1).
             */
            void check_concrete_plan(std::string_view operation,
                                     const broadcast_plan& p,
                                     const operand& a,
                                     const operand& b);

            /// The concrete shape of a checked plan.
            view_shape_type concrete_shape(const broadcast_plan& p);

            /// row_major or column_major when `strides` are those of a contiguous array of `shape`.
            xt::layout_type layout_of(const view_shape_type& shape, const view_strides_type& strides);

            /*********************************
             * implementation of the views   *
             *********************************/

            /// The strides xtensor's strided views read `e` with: its own, or row-major ones for the
            /// flat adaptor of an expression without a data interface (the choice of flat_storage_getter).
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
                const auto matches = [&](xt::layout_type layout)
                {
                    view_strides_type contiguous(shape.size());
                    xt::compute_strides(shape, layout, contiguous);
                    for (std::size_t i = 0; i < shape.size(); ++i)
                    {
                        // The stride of a size-1 axis is never used to step.
                        if (shape[i] != 1 && strides[i] != contiguous[i])
                        {
                            return false;
                        }
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
                const auto source = source_strides(e);
                const auto& source_shape = e.shape();
                view_shape_type shape(from.size());
                view_strides_type strides(from.size());
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    if (from[i] == named::unknown)
                    {
                        shape[i] = 1;
                        strides[i] = 0;
                    }
                    else
                    {
                        const auto axis = static_cast<std::size_t>(from[i]);
                        shape[i] = static_cast<std::size_t>(source_shape[axis]);
                        strides[i] = source[axis];
                    }
                }
                const std::size_t offset = source_offset(e);
                const xt::layout_type layout = layout_of(shape, strides);
                return xt::strided_view(std::forward<E>(e),
                                        std::move(shape),
                                        std::move(strides),
                                        offset,
                                        layout);
            }

            template <class E>
            inline auto broadcast_view(E&& e, const axis_map& from, const view_shape_type& shape)
            {
                const auto source = source_strides(e);
                const auto& source_shape = e.shape();
                view_strides_type strides(from.size());
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    const bool present = from[i] != named::unknown;
                    const auto axis = present ? static_cast<std::size_t>(from[i]) : 0;
                    const bool stepped = present && static_cast<std::size_t>(source_shape[axis]) == shape[i];
                    strides[i] = stepped ? source[axis] : 0;
                }
                const std::size_t offset = source_offset(e);
                view_shape_type view_shape = shape;
                const xt::layout_type layout = layout_of(view_shape, strides);
                return xt::strided_view(std::forward<E>(e),
                                        std::move(view_shape),
                                        std::move(strides),
                                        offset,
                                        layout);
            }

            /*****************************************
             * implementation of the concrete checks *
             *****************************************/

            inline void check_concrete_plan(std::string_view operation,
                                            const broadcast_plan& p,
                                            const operand& a,
                                            const operand& b)
            {
                if (p.shape.is_unknown() || p.shape.has_unknown_dimension())
                {
                    throw_broadcast_error(operation,
                                          "the strategy gave the result shape ",
                                          p.shape.to_string(),
                                          " for ",
                                          a.to_string(),
                                          " and ",
                                          b.to_string(),
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
                        throw_broadcast_error(operation,
                                              "the strategy gave result axis ",
                                              detail::quoted(p.names[i]),
                                              " (axis ",
                                              i,
                                              ") of ",
                                              p.names.to_string(),
                                              " size ",
                                              planned,
                                              ", but the operands ",
                                              a.to_string(),
                                              " and ",
                                              b.to_string(),
                                              " give it size ",
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
        }
    }
}

#endif
