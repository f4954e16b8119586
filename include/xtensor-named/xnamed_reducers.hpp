/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_REDUCERS_HPP
#define XTENSOR_NAMED_XNAMED_REDUCERS_HPP

// Reductions by name (SPEC §4): xn::sum(a, {"h", "w"}) reduces the named axes and keeps the others, in
// their order and with their names; xn::sum(a) reduces every axis into a named expression of rank 0.
// Each is xtensor's lazy reducer of the same name over the wrapped expression.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xcompat_xtensor.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xnamed_expression.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The axes to reduce, in increasing order, and the metadata of the axes that stay.
            struct reduction
            {
                std::vector<std::size_t> axes;
                axes_metadata kept;
            };

            /**
             * Finds `names` in `source` (every axis when `names` is nullptr): xn::name_error for an unknown,
             * unnamed or repeated name; and, when the reduction has no value for no elements (amax, amin),
             * xn::shape_error for an empty axis.
             */
            template <class Shape>
            reduction plan_reduction(std::string_view operation,
                                     const axes_metadata& source,
                                     const Shape& shape,
                                     const std::vector<std::string>* names,
                                     bool needs_elements);

            template <class F, class E>
            auto reduce_by_names(std::string_view operation,
                                 F&& make,
                                 E&& e,
                                 const std::vector<std::string>* names,
                                 bool needs_elements);

            /******************************************
             * implementation of the reduction plans *
             ******************************************/

            template <class Shape>
            inline reduction plan_reduction(std::string_view operation,
                                            const axes_metadata& source,
                                            const Shape& shape,
                                            const std::vector<std::string>* names,
                                            bool needs_elements)
            {
                const named::dims& dims = source.names;
                std::vector<bool> reduced(dims.size(), false);
                reduction result;
                const std::size_t count = names != nullptr ? names->size() : dims.size();
                for (std::size_t n = 0; n < count; ++n)
                {
                    const std::size_t axis = names != nullptr ? axis_of(operation, dims, (*names)[n]) : n;
                    if (reduced[axis])
                    {
                        throw_name_error(operation,
                                         "axis ",
                                         detail::quoted(dims[axis]),
                                         " (axis ",
                                         axis,
                                         ") of ",
                                         dims.to_string(),
                                         " is listed twice");
                    }
                    if (needs_elements && shape[axis] == 0)
                    {
                        throw_shape_error(operation,
                                          dims.is_named(axis) ? "axis " + detail::quoted(dims[axis])
                                                              : "unnamed axis",
                                          " (axis ",
                                          axis,
                                          ") of ",
                                          dims.to_string(),
                                          " with shape ",
                                          shape_string(shape),
                                          " has no elements, and ",
                                          operation,
                                          " of no elements has no value");
                    }
                    reduced[axis] = true;
                    result.axes.push_back(axis);
                }
                std::sort(result.axes.begin(), result.axes.end());
                axis_map from;
                std::vector<std::string> kept_names;
                for (std::size_t i = 0; i < dims.size(); ++i)
                {
                    if (!reduced[i])
                    {
                        from.push_back(static_cast<std::int64_t>(i));
                        kept_names.push_back(dims[i]);
                    }
                }
                result.kept = select_axes(source, from, named::dims(std::move(kept_names)));
                return result;
            }

            template <class F, class E>
            inline auto reduce_by_names(std::string_view operation,
                                        F&& make,
                                        E&& e,
                                        const std::vector<std::string>* names,
                                        bool needs_elements)
            {
                static_assert(
                    is_named_expression_v<E>,
                    "xn: a reduction by names takes a named expression; for a plain xtensor expression "
                    "use xtensor's reducer of the same name.");
                if constexpr (is_named_expression_v<E>)
                {
                    auto how = plan_reduction(operation, e.metadata(), e.shape(), names, needs_elements);
                    using strategy = typename std::decay_t<E>::strategy_type;
                    auto reducer = make(std::forward<E>(e).expression(), std::move(how.axes));
                    return xnamed<decltype(reducer), strategy>(std::move(reducer), std::move(how.kept));
                }
                else
                {
                    return invalid_named_expression{};
                }
            }
        }

// xn::NAME(e, {"h", "w"}) and xn::NAME(e): xtensor's lazy reducer NAME over the named axes, or over all.
#define XTENSOR_NAMED_REDUCER(NAME, NEEDS_ELEMENTS)                                                          \
    namespace detail                                                                                         \
    {                                                                                                        \
        struct NAME##_reducer                                                                                \
        {                                                                                                    \
            template <class E>                                                                               \
            auto operator()(E&& e, std::vector<std::size_t>&& axes) const                                    \
            {                                                                                                \
                return xt::NAME(std::forward<E>(e), std::move(axes));                                        \
            }                                                                                                \
        };                                                                                                   \
    }                                                                                                        \
    template <class E>                                                                                       \
    inline auto NAME(E&& e, const std::vector<std::string>& axes)                                            \
    {                                                                                                        \
        return detail::reduce_by_names(#NAME,                                                                \
                                       detail::NAME##_reducer{},                                             \
                                       std::forward<E>(e),                                                   \
                                       &axes,                                                                \
                                       NEEDS_ELEMENTS);                                                      \
    }                                                                                                        \
    template <class E>                                                                                       \
    inline auto NAME(E&& e)                                                                                  \
    {                                                                                                        \
        return detail::reduce_by_names(#NAME,                                                                \
                                       detail::NAME##_reducer{},                                             \
                                       std::forward<E>(e),                                                   \
                                       nullptr,                                                              \
                                       NEEDS_ELEMENTS);                                                      \
    }

        XTENSOR_NAMED_REDUCER(sum, false)
        XTENSOR_NAMED_REDUCER(prod, false)
        XTENSOR_NAMED_REDUCER(mean, false)
        XTENSOR_NAMED_REDUCER(amax, true)
        XTENSOR_NAMED_REDUCER(amin, true)

#undef XTENSOR_NAMED_REDUCER
    }
}

#endif
