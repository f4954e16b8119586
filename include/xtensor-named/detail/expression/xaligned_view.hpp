/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XALIGNED_VIEW_HPP
#define XTENSOR_NAMED_DETAIL_XALIGNED_VIEW_HPP

// The name-matching broadcaster: an operand's axes permuted and size-1 axes inserted, so that xtensor's own
// right-aligned broadcasting then lines it up as a plan says. Nothing is copied from an elementwise
// tree: the view of a leaf with a data interface is one xt::xstrided_view with its real strides (stride
// 0 along a stretched or new axis), made on the operand itself where the leaf is already such a view of
// it, and the view of a function is the same function of its arguments' views, so that whatever the
// depth, the evaluation (the kernels, or xtensor's own loops) sees one strided view per leaf. An operand
// that is not such a tree (a reducer, a generator, a view of a function) is evaluated once into a
// temporary, which the view and its copies share, when the view is built (a mean too: the kernels
// divide its sums in place, see docs/named_expressions.md).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xbroadcast_plan.hpp"
#include "../../xcompat_xtensor.hpp"
#include "../../xerrors.hpp"
#include "../../xpartial_shape.hpp"
#include "../kernels/xevaluate_into.hpp"
#include "../kernels/xkernel_expression.hpp"
#include "../core/xextent.hpp"
#include "../core/xindex_map.hpp"
#include "../kernels/xreadonly_broadcast.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            using view_shape_type = xt::dynamic_shape<std::size_t>;
            using view_strides_type = xt::dynamic_shape<std::ptrdiff_t>;

            /// For each axis of a view, the axis of the source that it shows, or xn::no_axis for a new one.
            using axis_map = index_map;

            /**
             * Whether `E` is an elementwise tree that views see through: leaves with a data interface,
             * scalars, and xt::xfunction and xt::broadcast of these.
             */
            template <class E>
            struct is_viewable_tree : std::bool_constant<xt::has_data_interface<E>::value>
            {
            };

            template <class E>
            inline constexpr bool is_viewable_tree_v = is_viewable_tree<std::decay_t<E>>::value;

            template <class CT>
            struct is_viewable_tree<xt::xscalar<CT>> : std::true_type
            {
            };

            template <class F, class... CT>
            struct is_viewable_tree<xt::xfunction<F, CT...>>
                : std::bool_constant<(is_viewable_tree_v<CT> && ...)>
            {
            };

            template <class CT, class X>
            struct is_viewable_tree<xt::xbroadcast<CT, X>> : std::bool_constant<is_viewable_tree_v<CT>>
            {
            };

            template <class B>
            struct is_viewable_tree<xreadonly_broadcast<B>> : is_viewable_tree<B>
            {
            };

            /**
             * `e` itself when it is an elementwise tree, else `e` evaluated into a container that copies
             * share. A function of one reduction and scalars (a mean: a sum over its count) is one such
             * temporary, the function applied to the reduction's rows as the kernels fold them (see
             * kernel_finish, detail/kernels/xkernel_assign.hpp).
             */
            template <class E>
            decltype(auto) as_tree(E&& e);

            /**
             * A view of `e` of shape `shape`: axis i shows axis `from[i]` of `e` (stretched with stride 0
             * where that axis has size 1 and `shape[i]` does not), or is a new axis of stride 0 where
             * `from[i]` is xn::no_axis. Axes of `e` that `from` leaves out must have size 1. `e` must be
             * an elementwise tree (is_viewable_tree); an rvalue is taken over, an lvalue referred to.
             */
            template <class E>
            auto view_as(E&& e, const axis_map& from, const view_shape_type& shape);

            /**
             * A view of `e` whose axis i is axis `from[i]` of `e`, or a new size-1 axis where `from[i]` is
             * xn::no_axis. Axes of `e` that `from` leaves out must have size 1: they are dropped.
             * Callers check `from` first (`check_concrete_plan`, or the named expression's own checks).
             */
            template <class E>
            auto aligned_view(E&& e, const axis_map& from);

            /**
             * A view of `e` of shape `shape`: axis i shows axis `from[i]` of `e`, stretched with stride 0
             * where that axis has size 1 and `shape[i]` does not, or a stride-0 axis where `from[i]` is
             * xn::no_axis. Callers check first that every axis of `e` is `shape[i]` long or 1.
             */
            template <class E>
            auto broadcast_view(E&& e, const axis_map& from, const view_shape_type& shape);

            /// aligned_view of `e` read through a const closure: never writable, whatever `e` is.
            template <class E>
            auto readonly_aligned_view(E&& e, const axis_map& from);

            /**
             * Throws xn::broadcast_error unless a checked plan can be evaluated for operands of concrete
             * shapes: every result size known, and equal to the size xtensor's broadcasting gives the
             * aligned views (the one size other than 1 that lands there, else 1).
             */
            void check_concrete_plan(std::string_view operation, const broadcast_plan& p, const operand& a,
                                     const operand& b);

            /// The concrete shape of a checked plan; xn::shape_error when no array of that shape can exist
            /// (its element count overflows).
            view_shape_type concrete_shape(std::string_view operation, const broadcast_plan& p);

            /// row_major or column_major when `strides` are those of a contiguous array of `shape`.
            xt::layout_type layout_of(const view_shape_type& shape, const view_strides_type& strides);

            /*********************************
             * implementation of the views   *
             *********************************/

            template <std::size_t I, class F>
            decltype(auto) function_argument(F&& f) noexcept;

            template <class E>
            inline decltype(auto) as_tree(E&& e)
            {
                if constexpr (is_viewable_tree_v<E>)
                {
                    return std::forward<E>(e);
                }
                else
                {
                    return shared_deferred(std::forward<E>(e));
                }
            }

            /// The strides of `e`, which has a data interface, as a view sees them.
            template <class E>
            inline view_strides_type source_strides(const E& e)
            {
                view_strides_type strides(e.dimension());
                const auto& own = e.strides();
                for (std::size_t i = 0; i < strides.size(); ++i)
                {
                    strides[i] = static_cast<std::ptrdiff_t>(own[i]);
                }
                return strides;
            }

            /// The offset of element (0, ..., 0) of `e`, which has a data interface, in its storage.
            template <class E>
            inline std::size_t source_offset(const E& e)
            {
                return static_cast<std::size_t>(e.data_offset());
            }

            inline xt::layout_type layout_of(const view_shape_type& shape, const view_strides_type& strides)
            {
                // xtensor's own test, as its strided views make it: a size-1 axis has stride 0 (as the views
                // of this library give it) or the stride it would have in the layout.
                for (const auto layout : {xt::layout_type::row_major, xt::layout_type::column_major})
                {
                    if (xt::do_strides_match(shape, strides, layout, true))
                    {
                        return layout;
                    }
                }
                return xt::layout_type::dynamic;
            }

            /// The map of an argument of rank `rank` inside an expression of rank `outer_rank` (xtensor
            /// lines arguments up from the right): the outer map `from`, shifted, new where the argument
            /// has no such axis.
            inline axis_map argument_map(const axis_map& from, std::size_t outer_rank, std::size_t rank)
            {
                const auto lead = static_cast<std::int64_t>(outer_rank - rank);
                axis_map result(from.size(), named::no_axis);
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    if (from[i] != named::no_axis && from[i] >= lead)
                    {
                        result[i] = from[i] - lead;
                    }
                }
                return result;
            }

            /// Argument I of the xfunction `f`: moved out of an rvalue that owns it, else referred to.
            template <std::size_t I, class F>
            inline decltype(auto) function_argument(F&& f) noexcept
            {
                using tuple_type = typename std::decay_t<F>::tuple_type;
                using closure = std::tuple_element_t<I, tuple_type>;
                if constexpr (!std::is_lvalue_reference<F>::value && !std::is_reference<closure>::value)
                {
                    // xfunction gives its arguments only as const; this rvalue owns them and is not const.
                    return std::move(std::get<I>(const_cast<tuple_type&>(f.arguments())));
                }
                else
                {
                    return std::get<I>(f.arguments());
                }
            }

            /// The expression under the xt::xbroadcast `b`: moved out of an rvalue that owns it.
            template <class CT, class X, class B>
            inline decltype(auto) broadcast_argument(B&& b) noexcept
            {
                using inner_type = std::decay_t<CT>;
                if constexpr (!std::is_lvalue_reference<B>::value && !std::is_reference<CT>::value)
                {
                    // xbroadcast gives its expression only as const; this rvalue owns it and is not const.
                    return std::move(const_cast<inner_type&>(b.expression()));
                }
                else
                {
                    return b.expression();
                }
            }

            /// The xt::xbroadcast that an explicit broadcast's read-only view is.
            template <class B>
            struct broadcast_of
            {
                using type = void;
            };

            template <class CT, class X>
            struct broadcast_of<xt::xbroadcast<CT, X>>
            {
                using type = xt::xbroadcast<CT, X>;
                using closure = CT;
                using shape = X;
            };

            template <class B>
            struct broadcast_of<xreadonly_broadcast<B>> : broadcast_of<B>
            {
            };

            /**
             * Whether `E` is a strided view of an operand that a view of it can be made on directly: an
             * operand it refers to and does not own (a container, or a view with a data interface), or a
             * deferred temporary's adaptor, which it holds by value and whose copies share the temporary.
             * The view is then made on that operand (on a copy of the adaptor), with the same strides and
             * offset, which are given in the operand's storage (a strided view's storage is its
             * operand's): a view of an operation's result is one view deep, not one more per operation,
             * building it copies no view, and it has the type of the leaf it views, so that an operation
             * on a result and that result have no two instantiations of the same loops.
             */
            template <class E>
            struct is_view_of_an_operand : std::false_type
            {
            };

            template <class CT, class S, xt::layout_type L, class FST>
            struct is_view_of_an_operand<xt::xstrided_view<CT, S, L, FST>>
                : std::bool_constant<(std::is_lvalue_reference<CT>::value &&
                                      xt::has_data_interface<std::decay_t<CT>>::value) ||
                                     (!std::is_reference<CT>::value &&
                                      is_deferred_buffer<typename deferred_storage_of<CT>::type>::value)>
            {
                using closure = CT;
            };

            template <class E>
            inline decltype(auto) viewed_leaf(E&& e)
            {
                using view = is_view_of_an_operand<std::decay_t<E>>;
                if constexpr (!view::value)
                {
                    return std::forward<E>(e);
                }
                else if constexpr (!std::is_reference<typename view::closure>::value)
                {
                    // A copy of the deferred temporary's adaptor, held by value as in the leaf.
                    return typename view::closure(std::as_const(e).expression());
                }
                else if constexpr (std::is_const<std::remove_reference_t<typename view::closure>>::value)
                {
                    // The view's own closure: its non-const expression() does not compile on it.
                    return std::as_const(e).expression();
                }
                else
                {
                    return e.expression();
                }
            }

            /// How a view of a leaf reads it: the part of view_leaf that depends on the leaf's shape and
            /// strides types only, not on the leaf.
            struct leaf_geometry
            {
                view_shape_type shape;
                view_strides_type strides;
                std::size_t offset;
                xt::layout_type layout;
            };

            template <class S, class R>
            inline leaf_geometry leaf_view_geometry(const S& source_shape, const R& source_strides,
                                                    std::size_t offset, const axis_map& from,
                                                    const view_shape_type& shape)
            {
                leaf_geometry geometry{shape, view_strides_type(from.size()), offset,
                                       xt::layout_type::dynamic};
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    const bool present = from[i] != named::no_axis;
                    const auto axis = present ? static_cast<std::size_t>(from[i]) : 0;
                    const bool stepped = present && static_cast<std::size_t>(source_shape[axis]) == shape[i];
                    geometry.strides[i] = stepped ? static_cast<std::ptrdiff_t>(source_strides[axis]) : 0;
                }
                geometry.layout = layout_of(geometry.shape, geometry.strides);
                return geometry;
            }

            /// The view of `e` that `geometry` says. Out of line: a leaf and a view of it (an operation on
            /// another's result, viewed again) give the same view type, built by one function.
            template <class E>
            XTENSOR_NAMED_NOINLINE auto make_leaf_view(E&& e, leaf_geometry geometry)
            {
                return xt::strided_view(std::forward<E>(e), std::move(geometry.shape),
                                        std::move(geometry.strides), geometry.offset, geometry.layout);
            }

            template <class E>
            inline auto view_leaf(E&& e, const axis_map& from, const view_shape_type& shape)
            {
                return make_leaf_view(
                    viewed_leaf(std::forward<E>(e)),
                    leaf_view_geometry(e.shape(), e.strides(), source_offset(e), from, shape));
            }

            template <class F, class E, std::size_t... I>
            inline auto view_function(E&& e, const axis_map& from, const view_shape_type& shape,
                                      std::index_sequence<I...>)
            {
                const std::size_t rank = e.dimension();
                const auto argument_view = [&](auto&& argument) -> decltype(auto)
                {
                    using argument_type = decltype(argument);
                    if constexpr (xt::is_xscalar<std::decay_t<argument_type>>::value)
                    {
                        // Held by value, whether the function is viewed or taken over: a view of an lvalue
                        // has the type of the expression it views (xn::assign in another axis order), and
                        // the loops are compiled once for both.
                        return std::decay_t<argument_type>(argument);
                    }
                    else if (argument.dimension() == rank)
                    {
                        // Most arguments have the function's rank: its map, unshifted and not copied.
                        return view_as(std::forward<argument_type>(argument), from, shape);
                    }
                    else
                    {
                        return view_as(std::forward<argument_type>(argument),
                                       argument_map(from, rank, argument.dimension()), shape);
                    }
                };
                using result_type = xt::xfunction<
                    F, xt::xclosure_t<decltype(argument_view(function_argument<I>(std::forward<E>(e))))>...>;
                return result_type(F(e.functor()),
                                   argument_view(function_argument<I>(std::forward<E>(e)))...);
            }

            template <class E>
            inline auto view_as(E&& e, const axis_map& from, const view_shape_type& shape)
            {
                using expression_type = std::decay_t<E>;
                static_assert(is_viewable_tree_v<E>, "view_as takes an elementwise tree: see as_tree.");
                if constexpr (xt::has_data_interface<expression_type>::value)
                {
                    return view_leaf(std::forward<E>(e), from, shape);
                }
                else if constexpr (xt::is_xscalar<expression_type>::value)
                {
                    // A scalar on its own (under xt::broadcast: xt::ones) takes the shape explicitly.
                    return xt::broadcast(std::forward<E>(e), shape);
                }
                else if constexpr (!std::is_void<typename broadcast_of<expression_type>::type>::value)
                {
                    using broadcast = broadcast_of<expression_type>;
                    using base = typename broadcast::type;
                    // An explicit broadcast's read-only view is seen as the xt::xbroadcast it derives from.
                    auto&& as_base = static_cast<
                        std::conditional_t<std::is_lvalue_reference<E>::value, const base&, base&&>>(e);
                    const std::size_t rank = as_base.dimension();
                    decltype(auto) inner =
                        broadcast_argument<typename broadcast::closure, typename broadcast::shape>(
                            std::forward<decltype(as_base)>(as_base));
                    return view_as(std::forward<decltype(inner)>(inner),
                                   argument_map(from, rank, inner.dimension()), shape);
                }
                else
                {
                    return view_function<typename expression_type::functor_type>(
                        std::forward<E>(e), from, shape,
                        std::make_index_sequence<
                            std::tuple_size<typename expression_type::tuple_type>::value>{});
                }
            }

            /// The shape of aligned_view(e, from): e's sizes where `from` names an axis, 1 elsewhere.
            template <class S>
            inline view_shape_type aligned_shape(const S& source_shape, const axis_map& from)
            {
                view_shape_type shape(from.size());
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    shape[i] =
                        from[i] == named::no_axis
                            ? 1
                            : static_cast<std::size_t>(source_shape[static_cast<std::size_t>(from[i])]);
                }
                return shape;
            }

            template <class E>
            inline auto aligned_view(E&& e, const axis_map& from)
            {
                if constexpr (is_viewable_tree_v<E>)
                {
                    using view_type = decltype(view_as(std::forward<E>(e), from, view_shape_type()));
                    if constexpr (std::is_same<view_type, std::decay_t<E>>::value)
                    {
                        // An operation on another's result, its axes in place, would view every leaf of it
                        // again: a tree of views is its own view, and is taken as it is.
                        if (is_identity_map(from, e.dimension()))
                        {
                            return view_type(std::forward<E>(e));
                        }
                    }
                    const view_shape_type shape = aligned_shape(e.shape(), from);
                    return view_as(std::forward<E>(e), from, shape);
                }
                else
                {
                    return aligned_view(as_tree(std::forward<E>(e)), from);
                }
            }

            template <class E>
            inline auto broadcast_view(E&& e, const axis_map& from, const view_shape_type& shape)
            {
                if constexpr (is_viewable_tree_v<E>)
                {
                    return view_as(std::forward<E>(e), from, shape);
                }
                else
                {
                    return view_as(as_tree(std::forward<E>(e)), from, shape);
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
                        if (p.axes[k][i] != named::no_axis)
                        {
                            const auto size = ops[k]->shape.size(p.axes[k][i]);
                            broadcast_size = size != 1 ? size : broadcast_size;
                        }
                    }
                    const auto planned = p.shape.size(static_cast<std::int64_t>(i));
                    if (planned != broadcast_size)
                    {
                        throw_broadcast_error(operation, "the strategy gave the result's ",
                                              describe_axis(p.names, i), " size ", planned,
                                              ", but the operands ", a.to_string(), " and ", b.to_string(),
                                              " give it size ", broadcast_size);
                    }
                }
            }

            inline view_shape_type concrete_shape(std::string_view operation, const broadcast_plan& p)
            {
                const auto& sizes = p.shape.sizes();
                view_shape_type shape(sizes.size());
                for (std::size_t i = 0; i < sizes.size(); ++i)
                {
                    shape[i] = static_cast<std::size_t>(sizes[i]);
                }
                check_extent(
                    operation, [&p] { return concat("the result ", p.names.to_string()); }, shape, 1);
                return shape;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
