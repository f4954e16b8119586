/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_REDUCERS_HPP
#define XTENSOR_NAMED_XNAMED_REDUCERS_HPP

// Reductions by name: xn::sum(a, {"h", "w"}) reduces the named axes and keeps the others, in
// their order and with their names; xn::sum(a) reduces every axis into a named expression of rank 0.
// Each is a lazy xtensor reducer over the wrapped expression, which the kernels evaluate:
// - sum and prod are xt::sum and xt::prod;
// - amax and amin give NaN as soon as a reduced element is NaN (numpy's max, PyTorch's amax; xt::amax
//   keeps a NaN only when it comes last); nanmax and nanmin skip NaN and give NaN only when every
//   reduced element is NaN (numpy's nanmax); the four refuse an empty axis (no value to give);
// - mean is the sum divided by the number of reduced elements, in the element type for floating point
//   (numpy's rule: the mean of floats is a float), in double for integers; the mean over no elements
//   is NaN (0 / 0);
// - nansum adds the elements that are not NaN; nanmean divides that by their count.
// An operand that is not an elementwise tree (a reduction, a generator) is evaluated into a temporary
// first, as the operations do (detail/expression/xaligned_view.hpp).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xcompat_xtensor.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xnamed_expression.hpp"
#include "detail/expression/xaligned_view.hpp"
#include "detail/kernels/xfunctors.hpp"
#include "detail/operations/xoperand_refs.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The axes a reducer reduces, in increasing order: held in place up to four, so that the reducer
            /// and the kernels' copies of it allocate nothing for them.
            using reduced_axes = xt::dynamic_shape<std::size_t>;

            /**
             * The axes of a reduction by `N` names spelled in the call (one name, a braced list of string
             * literals): a static count, so that the reducer's shape and the container xn::eval makes have
             * a static rank where the operand has one, as xt::sum(a, {1}) has, and cost no more than
             * xtensor's to build and evaluate. More names than a static rank are refused by name at run
             * time, as a list's are: their axes stay a run-time list.
             */
            template <std::size_t N, class E>
            using static_reduced_axes = std::conditional_t<
                (xt::static_dimension<typename std::decay_t<E>::shape_type>::value < 0 ||
                 N <= static_cast<std::size_t>(
                          xt::static_dimension<typename std::decay_t<E>::shape_type>::value)),
                std::array<std::size_t, N>, reduced_axes>;

            /// The axes to reduce, and the metadata of the axes that stay.
            struct reduction
            {
                reduced_axes axes;
                axes_metadata kept;
            };

            /// The names of the axes a reduction takes: `count` names from `first` (or from `views`), or
            /// every axis.
            struct reduced_names
            {
                const std::string* first = nullptr;
                std::size_t count = 0;
                bool every_axis = false;
                const std::string_view* views = nullptr;

                std::string_view operator[](std::size_t n) const
                {
                    return views != nullptr ? views[n] : std::string_view(first[n]);
                }
            };

            /**
             * Finds `names` in the named operand `source`: xn::name_error for an unknown, unnamed or
             * repeated name; and, when the reduction has no value for no elements (amax, amin),
             * xn::shape_error for an empty axis. One function for every shape type.
             */
            reduction plan_reduction(std::string_view operation, const operand_ref& source,
                                     reduced_names names, bool needs_elements);

            template <class Axes = reduced_axes, class F, class E>
            auto reduce_by_names(std::string_view operation, F&& make, E&& e, reduced_names names,
                                 bool needs_elements);

            /// reduce_by_names over the `N` names spelled in the call, with static_reduced_axes.
            template <std::size_t N, class F, class E>
            auto reduce_by_spelled_names(std::string_view operation, F&& make, E&& e,
                                         const std::array<std::string_view, N>& names, bool needs_elements);

            /// One axis name, as xarray's a.sum("h") and PyTorch's t.sum("h") take it: a string literal, a
            /// std::string or a std::string_view. (A braced list is deduced as none, and goes to the list.)
            template <class N>
            using enable_one_name_t =
                std::enable_if_t<std::is_convertible<const N&, std::string_view>::value, int>;

            /******************************************
             * implementation of the reduction plans *
             ******************************************/

            /// A reduction's axes (sorted) as one flag per axis of a rank, for dims::without.
            struct reduced_flags
            {
                const reduced_axes& axes;
                std::size_t rank;

                std::size_t size() const noexcept
                {
                    return rank;
                }

                bool operator[](std::size_t axis) const noexcept
                {
                    return std::binary_search(axes.begin(), axes.end(), axis);
                }
            };

            inline reduction plan_reduction(std::string_view operation, const operand_ref& source,
                                            reduced_names names, bool needs_elements)
            {
                const axes_metadata& metadata = *source.metadata;
                const named::dims& dims = metadata.names;
                reduction result;
                const std::size_t count = names.every_axis ? dims.size() : names.count;
                result.axes.reserve(count);
                for (std::size_t n = 0; n < count; ++n)
                {
                    const std::size_t axis = names.every_axis ? n : axis_of(operation, dims, names[n]);
                    // Kept sorted as they come: the reducer takes its axes in order.
                    const auto at = static_cast<std::size_t>(
                        std::lower_bound(result.axes.begin(), result.axes.end(), axis) - result.axes.begin());
                    if (at < result.axes.size() && result.axes[at] == axis)
                    {
                        throw_name_error(operation, describe_axis(dims, axis), " is listed twice");
                    }
                    if (needs_elements && source.sizes[axis] == 0)
                    {
                        throw_shape_error(operation, describe_axis(dims, axis), " with shape ",
                                          sizes_string(source.sizes, source.rank), " has no elements, and ",
                                          operation, " of no elements has no value");
                    }
                    // Not svector::insert, whose check for an element of its own GCC reads out of bounds.
                    result.axes.push_back(axis);
                    std::rotate(result.axes.begin() + static_cast<std::ptrdiff_t>(at), result.axes.end() - 1,
                                result.axes.end());
                }
                const reduced_flags reduced{result.axes, dims.size()};
                if (metadata.coords.empty())
                {
                    // Names only: no labels to carry.
                    result.kept.names = dims.without(reduced);
                    return result;
                }
                named::dims kept = dims.without(reduced);
                axis_map from;
                for (std::size_t i = 0; i < dims.size(); ++i)
                {
                    if (!reduced[i])
                    {
                        from.push_back(static_cast<std::int64_t>(i));
                    }
                }
                result.kept = select_axes(metadata, from, std::move(kept));
                return result;
            }

            /// The axes of `axes` as the reducer takes them: `Axes`, with as many.
            template <class Axes>
            inline Axes axes_as(reduced_axes&& axes)
            {
                if constexpr (std::is_same<Axes, reduced_axes>::value)
                {
                    return std::move(axes);
                }
                else
                {
                    Axes result{};
                    std::copy(axes.begin(), axes.end(), result.begin());
                    return result;
                }
            }

            template <class Axes, class F, class E>
            inline auto reduce_by_names(std::string_view operation, F&& make, E&& e, reduced_names names,
                                        bool needs_elements)
            {
                static_assert(
                    is_named_expression_v<E> || any_refused_v<E>,
                    "xn: a reduction by names takes a named expression; for a plain xtensor expression "
                    "use xtensor's reducer of the same name.");
                if constexpr (is_named_expression_v<E>)
                {
                    shape_copies<std::decay_t<E>> copies;
                    auto how = plan_reduction(operation, refs_of(copies, e)[0], names, needs_elements);
                    using strategy = typename std::decay_t<E>::strategy_type;
                    const auto reducer = [&] {
                        return make(as_tree(std::forward<E>(e).expression()),
                                    axes_as<Axes>(std::move(how.axes)));
                    };
                    return xnamed<decltype(reducer()), strategy>(built_in_place, reducer,
                                                                 std::move(how.kept));
                }
                else
                {
                    return invalid_named_expression{};
                }
            }

            template <std::size_t N, class F, class E>
            inline auto reduce_by_spelled_names(std::string_view operation, F&& make, E&& e,
                                                const std::array<std::string_view, N>& names,
                                                bool needs_elements)
            {
                if constexpr (is_named_expression_v<E>)
                {
                    using axes_type = static_reduced_axes<N, decltype(e.expression())>;
                    return reduce_by_names<axes_type>(operation, std::forward<F>(make), std::forward<E>(e),
                                                      {nullptr, N, false, names.data()}, needs_elements);
                }
                else
                {
                    return reduce_by_names(operation, std::forward<F>(make), std::forward<E>(e),
                                           {nullptr, N, false, names.data()}, needs_elements);
                }
            }
        } // namespace detail

        namespace detail
        {
            /// The reducer of fold F over `axes` of e, starting from F's identity element.
            template <class F, class E, class A>
            inline auto fold_reducer(E&& e, A&& axes)
            {
                using value_type = typename std::decay_t<E>::value_type;
                return xt::reduce(xt::make_xreducer_functor(
                                      F{}, xt::const_value<value_type>(F::template identity<value_type>())),
                                  std::forward<E>(e), std::forward<A>(axes));
            }

            /// The number of elements that a reduction over `axes` of `shape` takes into each result.
            template <class S, class A>
            inline std::size_t reduced_count(const S& shape, const A& axes)
            {
                std::size_t count = 1;
                for (std::size_t axis : axes)
                {
                    count *= static_cast<std::size_t>(shape[axis]);
                }
                return count;
            }

            /// The type of a mean of elements of type V: V for floating point, double for integers.
            template <class V>
            using mean_type = std::conditional_t<std::is_floating_point<V>::value, V, double>;

            struct sum_reducer
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    return xt::sum(std::forward<E>(e), std::forward<A>(axes));
                }
            };

            struct prod_reducer
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    return xt::prod(std::forward<E>(e), std::forward<A>(axes));
                }
            };

            template <class F>
            struct fold_reducer_of
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    return fold_reducer<F>(std::forward<E>(e), std::forward<A>(axes));
                }
            };

            using amax_reducer = fold_reducer_of<max_fold>;
            using amin_reducer = fold_reducer_of<min_fold>;
            using nanmax_reducer = fold_reducer_of<nanmax_fold>;
            using nanmin_reducer = fold_reducer_of<nanmin_fold>;

            struct mean_reducer
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    using result_type = mean_type<typename std::decay_t<E>::value_type>;
                    // A prvalue: the xfunction owns it (an lvalue would be held by reference).
                    auto count = static_cast<result_type>(reduced_count(e.shape(), axes));
                    return xt::sum<result_type>(std::forward<E>(e), std::forward<A>(axes)) / std::move(count);
                }
            };

            struct nansum_reducer
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    return xt::sum(own_function<nan_to_zero_fun>(std::forward<E>(e)), std::forward<A>(axes));
                }
            };

            struct nanmean_reducer
            {
                template <class E, class A>
                auto operator()(E&& e, A&& axes) const
                {
                    using value_type = typename std::decay_t<E>::value_type;
                    if constexpr (std::is_floating_point<value_type>::value)
                    {
                        // The tree is read twice: an lvalue by reference both times, an rvalue (which
                        // refers to its containers, or owns a temporary) moved once and copied once.
                        const auto build = [&](auto&& summed, auto&& counted)
                        {
                            auto count_axes = axes;
                            return xt::sum(
                                       own_function<nan_to_zero_fun>(std::forward<decltype(summed)>(summed)),
                                       std::forward<A>(axes)) /
                                   xt::sum(
                                       own_function<not_nan_fun>(std::forward<decltype(counted)>(counted)),
                                       std::move(count_axes));
                        };
                        if constexpr (std::is_lvalue_reference<E>::value)
                        {
                            return build(e, e);
                        }
                        else
                        {
                            std::decay_t<E> copy = e;
                            return build(std::move(e), std::move(copy));
                        }
                    }
                    else
                    {
                        // Integers have no NaN.
                        return mean_reducer{}(std::forward<E>(e), std::forward<A>(axes));
                    }
                }
            };
        } // namespace detail

// xn::NAME(e, names), xn::NAME(e, {"h", "w"}), xn::NAME(e, "h") and xn::NAME(e): the reducer of
// detail::NAME##_reducer over the named axes (a list of run-time length, a braced list of string literals
// or one name, whose count is static), or all.
#define XTENSOR_NAMED_REDUCER(NAME, NEEDS_ELEMENTS)                                                          \
    template <class E>                                                                                       \
    inline auto NAME(E&& e, const std::vector<std::string>& axes)                                            \
    {                                                                                                        \
        return detail::reduce_by_names(#NAME, detail::NAME##_reducer{}, std::forward<E>(e),                  \
                                       {axes.data(), axes.size()}, NEEDS_ELEMENTS);                          \
    }                                                                                                        \
    template <class E, std::size_t N>                                                                        \
    inline auto NAME(E&& e, const char* const(&axes)[N])                                                     \
    {                                                                                                        \
        std::array<std::string_view, N> names;                                                               \
        std::copy(axes, axes + N, names.begin());                                                            \
        return detail::reduce_by_spelled_names(#NAME, detail::NAME##_reducer{}, std::forward<E>(e), names,   \
                                               NEEDS_ELEMENTS);                                              \
    }                                                                                                        \
    template <class E, class N, detail::enable_one_name_t<N> = 0>                                            \
    inline auto NAME(E&& e, const N& axis)                                                                   \
    {                                                                                                        \
        return detail::reduce_by_spelled_names<1>(#NAME, detail::NAME##_reducer{}, std::forward<E>(e),       \
                                                  {std::string_view(axis)}, NEEDS_ELEMENTS);                 \
    }                                                                                                        \
    template <class E>                                                                                       \
    inline auto NAME(E&& e)                                                                                  \
    {                                                                                                        \
        return detail::reduce_by_names(#NAME, detail::NAME##_reducer{}, std::forward<E>(e),                  \
                                       {nullptr, 0, true}, NEEDS_ELEMENTS);                                  \
    }

        XTENSOR_NAMED_REDUCER(sum, false)
        XTENSOR_NAMED_REDUCER(prod, false)
        XTENSOR_NAMED_REDUCER(mean, false)
        XTENSOR_NAMED_REDUCER(amax, true)
        XTENSOR_NAMED_REDUCER(amin, true)
        XTENSOR_NAMED_REDUCER(nansum, false)
        XTENSOR_NAMED_REDUCER(nanmean, false)
        XTENSOR_NAMED_REDUCER(nanmax, true)
        XTENSOR_NAMED_REDUCER(nanmin, true)

#undef XTENSOR_NAMED_REDUCER
    } // namespace named
} // namespace xt

#endif
