/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XEVALUATE_HPP
#define XTENSOR_NAMED_XEVALUATE_HPP

// Evaluation: xn::eval into a new container, xn::assign into an existing one. Both evaluate
// through detail::evaluate_into, the one place where elements are computed and written.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xcompat_xtensor.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xnamed_expression.hpp"
#include "detail/core/xextent.hpp"
#include "detail/core/xlabel_rules.hpp"
#include "detail/expression/xaligned_view.hpp"
#include "detail/kernels/xevaluate_into.hpp"

namespace xt
{
    namespace named
    {
        /**
         * Evaluates `e` into a new container: a named expression into a named one that owns an
         * xt::xtensor (static rank) or an xt::xarray, with the same dims; a plain xtensor expression into
         * an xt::xtensor or an xt::xarray.
         * @code
         * auto total = xn::eval(img + lbl);  // xn::xnamed<xt::xarray<double>, S>, dims (?, channel, h, w)
         * @endcode
         */
        template <class E>
        auto eval(E&& e);

        /**
         * Evaluates `e` into `out`, an xtensor container or a named expression over one, resized as needed,
         * as `xt::noalias(out) = e`: no temporary where `out` keeps its shape, so `e` must not read
         * elements of `out` that it has already written (as with xt::noalias). A named `out` takes a named
         * `e` by name, its axes permuted to the output's order: an axis that one has and the other lacks
         * (a misspelled name) is an xn::name_error naming both dims. A plain `e` must have the output's
         * rank. An axis that `out` labels takes `e`'s axis of the same name only with the same labels, or
         * without labels and of as many elements: other labels are an xn::shape_error naming both lists
         * (writing by position would leave `out`'s labels on other values; xn::align or `sel` lines them up
         * first). When the dims, the labels, the rank, a fixed shape or a view's shape refuse `e`, `out` is
         * unchanged.
         */
        template <class O, class E>
        void assign(O&& out, E&& e);

        namespace detail
        {
            /// Where each axis of an output of dims `output` comes from among the axes of an expression
            /// of dims `expression`, matched by name (unnamed axes in order); xn::name_error naming both
            /// dims when one has an axis the other lacks.
            inline axis_map assignment_order(const named::dims& output, const named::dims& expression)
            {
                const auto refuse = [&](std::string_view whose, std::size_t axis, const named::dims& in,
                                        std::string_view other, const named::dims& lacking)
                {
                    throw_name_error("assign", whose, " has the ", describe_axis(in, axis), ", which ", other,
                                     " ", lacking.to_string(),
                                     " lacks; a misspelled name, or an axis to reduce or align first");
                };
                for (std::size_t i = 0; i < expression.size(); ++i)
                {
                    if (expression.is_named(i) && output.index_of(expression[i]) < 0)
                    {
                        refuse("the expression", i, expression, "the output", output);
                    }
                }
                axis_map from(output.size(), named::no_axis);
                std::vector<std::size_t> unnamed;
                for (std::size_t j = 0; j < expression.size(); ++j)
                {
                    if (!expression.is_named(j))
                    {
                        unnamed.push_back(j);
                    }
                }
                std::size_t next_unnamed = 0;
                for (std::size_t i = 0; i < output.size(); ++i)
                {
                    if (output.is_named(i))
                    {
                        const auto j = expression.index_of(output[i]);
                        if (j < 0)
                        {
                            refuse("the output", i, output, "the expression", expression);
                        }
                        from[i] = j;
                    }
                    else if (next_unnamed < unnamed.size())
                    {
                        from[i] = static_cast<std::int64_t>(unnamed[next_unnamed++]);
                    }
                    else
                    {
                        throw_name_error("assign", "the output ", output.to_string(),
                                         " has more unnamed axes than the expression ",
                                         expression.to_string());
                    }
                }
                if (next_unnamed != unnamed.size())
                {
                    throw_name_error("assign", "the expression ", expression.to_string(),
                                     " has more unnamed axes than the output ", output.to_string());
                }
                return from;
            }

            /**
             * Throws xn::shape_error unless the labels of the output still name its elements after the
             * assignment: on every axis the output labels, the expression has the same labels (as the
             * default shaping strategy, join_exact, asks of any two operands), or none and as many
             * elements. Writing by position under other labels would leave the output's labels on other
             * values. Labels of the expression on an axis the output does not label are not carried
             * over: the output is a container, and keeps its own metadata.
             */
            template <class Shape>
            void check_assigned_labels(const named::dims& out_names, const named::coords& out_labels,
                                       const named::dims& names, const named::coords& labels,
                                       const Shape& shape)
            {
                // Most outputs have no labels; those that have reach the check through them.
                if (const label_rules* rules = label_rules_of(out_labels))
                {
                    const std::vector<std::size_t> sizes(shape.begin(), shape.end());
                    rules->check_output(out_names, out_labels, names, labels, sizes.data());
                }
            }

            /// Throws xn::shape_error unless a container of type `C` and shape `current` can take `shape`.
            template <class C, class Current, class Shape>
            void check_assignable(const Current& current, const Shape& shape)
            {
                constexpr std::ptrdiff_t rank = xt::static_dimension<typename C::shape_type>::value;
                if (rank >= 0 && static_cast<std::size_t>(rank) != shape.size())
                {
                    throw_shape_error("assign", "the output of shape ", sizes_string(current),
                                      " has the static rank ", rank, ", and the expression has ",
                                      shape.size(), " axes, shape ", sizes_string(shape));
                }
                if constexpr (!xt::detail::is_fixed<typename C::shape_type>::value &&
                              !is_resizable_output_v<C>)
                {
                    // A view, or an adaptor of memory it does not own: xtensor would refuse only after
                    // changing the adaptor's shape, or broadcast into the view.
                    if (!equal_shapes(current, shape))
                    {
                        throw_shape_error("assign", "the output of shape ", sizes_string(current),
                                          " cannot be resized, and the expression has the shape ",
                                          sizes_string(shape));
                    }
                }
                if constexpr (xt::detail::is_fixed<typename C::shape_type>::value)
                {
                    bool same = current.size() == shape.size();
                    for (std::size_t i = 0; same && i < shape.size(); ++i)
                    {
                        same = static_cast<std::size_t>(current[i]) == static_cast<std::size_t>(shape[i]);
                    }
                    if (!same)
                    {
                        throw_shape_error("assign", "the output has the fixed shape ", sizes_string(current),
                                          ", and the expression has the shape ", sizes_string(shape));
                    }
                }
            }

            /**
             * target = values, which have the shape `target` takes, in its axis order: where the shapes
             * differ, written into a new container of the target's type first and then moved in, so that
             * the target keeps its shape and elements if anything throws (xtensor's own resize sets the
             * new shape before it allocates). `small` as for assign_by_xtensor.
             */
            template <class O, class V>
            void take_values(O& target, V&& values, bool small)
            {
                if (equal_shapes(target.shape(), values.shape()))
                {
                    assign_by_xtensor(target, values, small);
                }
                else if constexpr (std::is_same<std::decay_t<V>, O>::value)
                {
                    target = std::forward<V>(values);
                }
                else if constexpr (is_owning_container<O>::value)
                {
                    O written = O::from_shape(values.shape());
                    assign_by_xtensor(written, values, small);
                    target = std::move(written);
                }
                else if constexpr (is_resizable_output_v<O>)
                {
                    // An adaptor over storage that it owns: the kernels' policy for outputs to resize.
                    evaluate_into(target, values);
                }
                else
                {
                    // A view or a fixed shape: check_assignable has made the shapes equal.
                    assign_by_xtensor(target, values, small);
                }
            }

            /**
             * Writes `source` into `target`, whose axis i is the source's axis from[i]. An elementwise
             * tree that the kernels write goes through the target's strides taken in the source's axis
             * order, and so does a reduction that the kernels take: into the target where it has the
             * result's shape, otherwise into a new container (of the target's type, then moved in; of
             * the result's element type where the target's differs or the source reads it, then copied
             * in). Another tree goes through a view of each leaf in the target's order. Anything else (a
             * small reduction, one that the kernels do not write, as integers) is evaluated into a
             * container in its own order, then copied by xtensor's assignment: no deferred temporary
             * and no view of it compiled for each such one, and none of the kernels' elementwise loops,
             * which would otherwise be compiled into every unit that assigns a reduction by name.
             */
            template <class O, class E>
            void assign_in_order(O& target, const E& source, const axis_map& from)
            {
                if constexpr (kernel_writes_elementwise<O, E>::value)
                {
                    check_assignable<O>(target.shape(), aligned_shape(source.shape(), from));
                    evaluate_into(target, source, &from);
                }
                else if constexpr (is_viewable_tree_v<E>)
                {
                    const auto aligned = readonly_aligned_view(source, from);
                    check_assignable<O>(target.shape(), aligned.shape());
                    evaluate_into(target, aligned);
                }
                else
                {
                    using value_type = typename E::value_type;
                    // Every check before the evaluation, in the output's order, which the messages name. A
                    // target of the result's shape already holds it: its extent needs no check.
                    const auto shape = aligned_shape(source.shape(), from);
                    check_assignable<O>(target.shape(), shape);
                    const bool same_shape = equal_shapes(target.shape(), shape);
                    if (same_shape && !takes_short_path(target, source, false) &&
                        try_kernel_assign(target, source, &from))
                    {
                        return;
                    }
                    check_extent("assign", "the result", shape, sizeof(value_type));
                    // Small as a new container of the result's shape would be: one is written below.
                    const bool small = fits_short_path(source, source.size());
                    if constexpr (kernel_reduction<value_type, std::decay_t<E>>::supported)
                    {
                        constexpr bool own_type = is_owning_container<O>::value &&
                                                  std::is_same<typename O::value_type, value_type>::value;
                        // Refused in a new container of the output's type, the reduction is refused in any:
                        // not tried again in one of its own element type.
                        const bool into_own_type = own_type && !same_shape;
                        if constexpr (own_type)
                        {
                            if (!small && into_own_type)
                            {
                                O written = O::from_shape(shape);
                                if (try_kernel_assign(written, source, &from))
                                {
                                    target = std::move(written);
                                    return;
                                }
                            }
                        }
                        if (!small && !into_own_type)
                        {
                            auto written = xt::xarray<value_type>::from_shape(shape);
                            if (try_kernel_assign(written, source, &from))
                            {
                                take_values(target, std::move(written), false);
                                return;
                            }
                        }
                    }
                    const auto evaluated_source = evaluated(source, "assign");
                    take_values(target, readonly_aligned_view(evaluated_source, from), small);
                }
            }
        } // namespace detail

        /********************************
         * implementation of evaluation *
         ********************************/

        template <class E>
        inline auto eval(E&& e)
        {
            static_assert(is_named_expression_v<E> || xt::is_xexpression<std::decay_t<E>>::value ||
                              detail::any_refused_v<E>,
                          "xn::eval: the argument must be a named or an xtensor expression.");
            if constexpr (detail::any_refused_v<E>)
            {
                // Refused where it was made: that sentence is the one reported.
                return detail::invalid_named_expression{};
            }
            else if constexpr (is_named_expression_v<E>)
            {
                using container = detail::container_for_t<typename std::decay_t<E>::expression_type>;
                using strategy = typename std::decay_t<E>::strategy_type;
                // Built in place: moving an xt::xarray swaps its shape and strides element by element.
                return xnamed<container, strategy>(
                    detail::built_in_place, [&] { return detail::evaluated(e.expression()); }, e.metadata());
            }
            else if constexpr (xt::is_xexpression<std::decay_t<E>>::value)
            {
                return detail::evaluated(e);
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        template <class O, class E>
        inline void assign(O&& out, E&& e)
        {
            if constexpr (detail::any_refused_v<E>)
            {
                // Refused where it was made: that sentence is the one reported.
                static_cast<void>(out);
                static_cast<void>(e);
            }
            else
            {
                constexpr bool named_out = is_named_expression_v<O>;
                constexpr bool named_in = is_named_expression_v<E>;
                static_assert(named_in || xt::is_xexpression<std::decay_t<E>>::value,
                              "xn::assign: the expression must be a named or an xtensor expression.");
                decltype(auto) target = [&]() -> decltype(auto)
                {
                    if constexpr (named_out)
                    {
                        return out.expression();
                    }
                    else
                    {
                        return (out);
                    }
                }();
                using target_type = std::remove_reference_t<decltype(target)>;
                static_assert(!std::is_const<target_type>::value &&
                                  xt::is_xexpression<std::decay_t<target_type>>::value &&
                                  xt::has_data_interface<std::decay_t<target_type>>::value,
                              "xn::assign: the output must be a writable xtensor container, or a named "
                              "expression over one.");
                const auto& source = [&]() -> decltype(auto)
                {
                    if constexpr (named_in)
                    {
                        return e.expression();
                    }
                    else
                    {
                        return (e);
                    }
                }();
                // Every check before the first write, so that a refused expression leaves `out` as it was.
                if constexpr (named_out && named_in)
                {
                    detail::check_assigned_labels(out.dims(), out.coords(), e.dims(), e.coords(),
                                                  source.shape());
                    if (out.dims() != e.dims())
                    {
                        // By name: the expression's axes go where the output has them, and an axis that one
                        // has and the other lacks (a misspelled name, under missing_dims a new axis) is
                        // refused.
                        detail::assign_in_order(target, source,
                                                detail::assignment_order(out.dims(), e.dims()));
                        return;
                    }
                }
                const auto& shape = source.shape();
                if constexpr (named_out && !named_in)
                {
                    if (out.dims().size() != shape.size())
                    {
                        detail::throw_shape_error("assign", "the output has the dims ",
                                                  out.dims().to_string(), ", and the expression has ",
                                                  shape.size(), " axes, shape ", detail::sizes_string(shape));
                    }
                    // A plain expression's axes are the output's, by position.
                    detail::check_assigned_labels(out.dims(), out.coords(), out.dims(), named::coords(),
                                                  shape);
                }
                detail::check_assignable<std::decay_t<target_type>>(target.shape(), shape);
                detail::evaluate_into(target, source);
            }
        }
    } // namespace named
} // namespace xt

#endif
