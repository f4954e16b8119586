/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XCOORDS_AXES_HPP
#define XTENSOR_NAMED_DETAIL_XCOORDS_AXES_HPP

// The coordinate side of a named expression's axes: which labels the result of a view, a
// reduction or an elementwise operation carries, and what `sel` and `isel` select. Pure bookkeeping on
// dims, coords and sizes; the named expression turns a selection into an xtensor view.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../../xcompat_xtensor.hpp"
#include "../../xcoords.hpp"
#include "../../xdims.hpp"
#include "../../xerrors.hpp"
#include "../../xpartial_shape.hpp"
#include "xaligned_view.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Declared with the named expression: the axis named `name` in `names`, or an xn::name_error.
            std::size_t axis_of(std::string_view operation, const named::dims& names, std::string_view name);

            /// Positions `start`, `start + step`, ... (`count` of them), all within the axis.
            struct position_range
            {
                std::int64_t start;
                std::int64_t count;
                std::int64_t step;
            };

            /// How a selection takes one axis of the source: whole, at one position (the axis is dropped), a
            /// range of positions, or a list of them.
            struct axis_slice
            {
                enum class kind
                {
                    whole,
                    position,
                    range,
                    list
                };

                kind how = kind::whole;
                std::size_t position = 0;
                position_range range{0, 0, 1};
                std::vector<std::size_t> positions;
            };

            /// What `sel` or `isel` does: how each axis is taken, and the dims and labels of the result.
            /// It holds no xtensor slice, so that a unit that selects nothing compiles none.
            struct selection
            {
                std::vector<axis_slice> axes;
                named::dims names;
                coords labels;
            };

            /// The slices of xtensor's dynamic view that `axes` describe.
            template <class Slices = xt::xdynamic_slice_vector>
            Slices dynamic_slices(const std::vector<axis_slice>& axes);

            /// `sel`: labels to positions; xn::shape_error for an axis without labels or a missing label.
            selection plan_selection(std::string_view operation, const named::dims& names,
                                     const coords& labels,
                                     const std::vector<std::pair<std::string, label_selector>>& which);

            /// `isel`: positions (negative from the end); xn::shape_error for a position out of range.
            template <class Shape>
            selection plan_selection(std::string_view operation, const named::dims& names,
                                     const coords& labels, const Shape& shape,
                                     const std::vector<std::pair<std::string, index_selector>>& which);

            /*******************************************
             * implementation of the label bookkeeping *
             *******************************************/

            /// The axis of each selector, checked once: a named axis, listed at most once.
            template <class Selector>
            inline std::vector<std::size_t>
            selected_axes(std::string_view operation, const named::dims& names,
                          const std::vector<std::pair<std::string, Selector>>& which)
            {
                std::vector<std::size_t> axes;
                std::vector<bool> seen(names.size(), false);
                for (const auto& entry : which)
                {
                    const std::size_t axis = axis_of(operation, names, entry.first);
                    if (seen[axis])
                    {
                        throw_name_error(operation, describe_axis(names, axis), " is selected twice");
                    }
                    seen[axis] = true;
                    axes.push_back(axis);
                }
                return axes;
            }

            /// xt::all() selects a whole axis in isel, as it does in xtensor's views.
            template <>
            struct is_whole_axis<xt::xall_tag> : std::true_type
            {
            };

            /// The positions of `range` along an axis of `size`, as Python's slice.indices finds them.
            inline position_range positions_of(const index_range& range, std::int64_t size)
            {
                const std::int64_t step = range.step;
                const std::int64_t lower = step > 0 ? 0 : -1;
                const std::int64_t upper = step > 0 ? size : size - 1;
                const auto clipped = [&](const std::optional<std::int64_t>& bound, std::int64_t absent)
                {
                    if (!bound)
                    {
                        return absent;
                    }
                    return *bound < 0 ? std::max(*bound + size, lower) : std::min(*bound, upper);
                };
                const std::int64_t start = clipped(range.start, step > 0 ? lower : upper);
                const std::int64_t stop = clipped(range.stop, step > 0 ? upper : lower);
                // Written so that no step, however large, overflows (-step would, for the lowest one).
                std::int64_t count = 0;
                if (step > 0 && stop > start)
                {
                    count = 1 + (stop - start - 1) / step;
                }
                else if (step < 0 && start > stop)
                {
                    count = 1 - (start - stop - 1) / step;
                }
                // One position needs no step: a step beyond the axis would only enlarge the view's stride.
                return position_range{start, count, count == 1 ? 1 : step};
            }

            template <class Slices>
            inline Slices dynamic_slices(const std::vector<axis_slice>& axes)
            {
                Slices slices;
                slices.reserve(axes.size());
                for (const auto& axis : axes)
                {
                    switch (axis.how)
                    {
                        case axis_slice::kind::whole:
                            slices.push_back(xt::all());
                            break;
                        case axis_slice::kind::position:
                            slices.push_back(static_cast<std::ptrdiff_t>(axis.position));
                            break;
                        case axis_slice::kind::list:
                            slices.push_back(xt::keep(axis.positions));
                            break;
                        case axis_slice::kind::range:
                        {
                            // The stop is written as an open end where the range walks down to position 0:
                            // a stop of -1 would count from the end.
                            const auto start = static_cast<std::ptrdiff_t>(axis.range.start);
                            const auto step = static_cast<std::ptrdiff_t>(axis.range.step);
                            const auto last =
                                start + static_cast<std::ptrdiff_t>(axis.range.count - 1) * step;
                            if (axis.range.count == 0)
                            {
                                slices.push_back(
                                    xt::range(std::ptrdiff_t(0), std::ptrdiff_t(0), std::ptrdiff_t(1)));
                            }
                            else if (step < 0 && last == 0)
                            {
                                slices.push_back(xt::range(start, xt::placeholders::_, step));
                            }
                            else
                            {
                                slices.push_back(xt::range(start, last + (step > 0 ? 1 : -1), step));
                            }
                            break;
                        }
                    }
                }
                return slices;
            }

            /// What a selection asks of one axis: how the axis is taken, and the labels that it keeps
            /// (none: unlabelled).
            struct axis_choice
            {
                std::size_t axis;
                axis_slice taken;
                std::optional<labels> kept_labels;
            };

            /// The labels at the positions of `range`.
            inline labels labels_in(const labels& own, const position_range& range)
            {
                labels result;
                result.reserve(static_cast<std::size_t>(range.count));
                for (std::int64_t i = 0; i < range.count; ++i)
                {
                    result.push_back(own[static_cast<std::size_t>(range.start + i * range.step)]);
                }
                return result;
            }

            inline selection build_selection(std::string_view operation, const named::dims& names,
                                             const coords& source, std::size_t rank,
                                             std::vector<axis_choice> choices)
            {
                selection result;
                std::vector<axis_choice*> choice_of(rank, nullptr);
                for (auto& choice : choices)
                {
                    choice_of[choice.axis] = &choice;
                }
                std::vector<std::string> kept_names;
                for (std::size_t axis = 0; axis < rank; ++axis)
                {
                    axis_choice* choice = choice_of[axis];
                    const auto how = choice != nullptr ? choice->taken.how : axis_slice::kind::whole;
                    result.axes.push_back(choice != nullptr ? std::move(choice->taken) : axis_slice{});
                    if (how == axis_slice::kind::position)
                    {
                        continue;
                    }
                    kept_names.push_back(names[axis]);
                    if (!names.is_named(axis))
                    {
                        continue;
                    }
                    if (choice != nullptr && choice->kept_labels && how == axis_slice::kind::range)
                    {
                        // A range of unique labels is unique: set checks them, and needs no message here.
                        result.labels.set(names[axis], std::move(*choice->kept_labels));
                    }
                    else if (choice != nullptr && choice->kept_labels)
                    {
                        check_labels(operation,
                                     concat("the labels selected along ", describe_axis(names, axis)),
                                     *choice->kept_labels);
                        result.labels.set(names[axis], *choice->kept_labels);
                    }
                    else if (choice == nullptr && source.has(names[axis]))
                    {
                        result.labels.set(names[axis], source, names[axis]);
                    }
                }
                result.names = named::dims(std::move(kept_names));
                return result;
            }

            /// The positions of the labels from `range.start` to `range.stop` (both included) along a
            /// sorted axis, found as pandas' Index.slice_locs finds them: the bounds need not be labels.
            inline position_range label_range_positions(std::string_view operation, const named::dims& names,
                                                        std::size_t axis, const labels& own,
                                                        const label_slice& range)
            {
                for (const auto* bound : {&range.start, &range.stop})
                {
                    if (*bound && !own.empty() && (*bound)->index() != own.front().index())
                    {
                        throw_shape_error(operation, "the range bound ", format_label(**bound), " is ",
                                          label_kind(**bound), " but the labels of ",
                                          describe_axis(names, axis), " are ", format_labels(own));
                    }
                }
                const auto greater = [](const label& a, const label& b) { return label_less(b, a); };
                const bool increasing = strictly_increasing(own);
                if (!increasing && !std::is_sorted(own.begin(), own.end(), greater))
                {
                    throw_shape_error(operation, "a range of labels needs sorted labels, but the labels of ",
                                      describe_axis(names, axis), " are not sorted: ", format_labels(own));
                }
                // On a decreasing axis, start is the larger bound: the range walks down the labels.
                auto first = own.begin();
                auto end = own.end();
                if (increasing)
                {
                    first = range.start ? std::lower_bound(own.begin(), own.end(), *range.start, label_less)
                                        : first;
                    end =
                        range.stop ? std::upper_bound(own.begin(), own.end(), *range.stop, label_less) : end;
                }
                else
                {
                    first =
                        range.start ? std::lower_bound(own.begin(), own.end(), *range.start, greater) : first;
                    end = range.stop ? std::upper_bound(own.begin(), own.end(), *range.stop, greater) : end;
                }
                const auto start = static_cast<std::int64_t>(first - own.begin());
                return position_range{start, std::max<std::int64_t>(end - first, 0), 1};
            }

            inline selection plan_selection(std::string_view operation, const named::dims& names,
                                            const coords& source,
                                            const std::vector<std::pair<std::string, label_selector>>& which)
            {
                const auto axes = selected_axes(operation, names, which);
                std::vector<axis_choice> choices;
                for (std::size_t n = 0; n < which.size(); ++n)
                {
                    const std::size_t axis = axes[n];
                    const labels* own = source.find(names[axis]);
                    if (own == nullptr)
                    {
                        throw_shape_error(operation, describe_axis(names, axis),
                                          " has no labels to select by; isel selects by position");
                    }
                    // A range of labels is found by a search of the sorted labels, with no lookup table.
                    std::optional<label_index> lookup;
                    const auto position_of = [&](const label& l)
                    {
                        if (!lookup)
                        {
                            lookup.emplace(*own);
                        }
                        const auto position = lookup->position_of(l);
                        if (position == named::missing)
                        {
                            throw_shape_error(operation, "label ", format_label(l), " is not a label of ",
                                              describe_axis(names, axis), ", whose labels are ",
                                              format_labels(*own));
                        }
                        return static_cast<std::size_t>(position);
                    };
                    axis_choice choice{axis, {}, std::nullopt};
                    if (const auto* one = std::get_if<label>(&which[n].second))
                    {
                        choice.taken.how = axis_slice::kind::position;
                        choice.taken.position = position_of(*one);
                    }
                    else if (const auto* range = std::get_if<label_slice>(&which[n].second))
                    {
                        choice.taken.how = axis_slice::kind::range;
                        choice.taken.range = label_range_positions(operation, names, axis, *own, *range);
                        choice.kept_labels = labels_in(*own, choice.taken.range);
                    }
                    else
                    {
                        const auto& wanted = std::get<labels>(which[n].second);
                        choice.taken.how = axis_slice::kind::list;
                        for (const auto& l : wanted)
                        {
                            choice.taken.positions.push_back(position_of(l));
                        }
                        choice.kept_labels = wanted;
                    }
                    choices.push_back(std::move(choice));
                }
                return build_selection(operation, names, source, names.size(), std::move(choices));
            }

            template <class Shape>
            inline selection plan_selection(std::string_view operation, const named::dims& names,
                                            const coords& source, const Shape& shape,
                                            const std::vector<std::pair<std::string, index_selector>>& which)
            {
                const auto axes = selected_axes(operation, names, which);
                std::vector<axis_choice> choices;
                for (std::size_t n = 0; n < which.size(); ++n)
                {
                    const std::size_t axis = axes[n];
                    const auto size = static_cast<std::int64_t>(shape[axis]);
                    const auto checked = [&](std::int64_t position)
                    {
                        if (position < -size || position >= size)
                        {
                            throw_shape_error(operation, "position ", position, " is out of range for ",
                                              describe_axis(names, axis), " of size ", size);
                        }
                        return static_cast<std::size_t>(position < 0 ? position + size : position);
                    };
                    axis_choice choice{axis, {}, std::nullopt};
                    const labels* own = names.is_named(axis) ? source.find(names[axis]) : nullptr;
                    if (const auto* one = std::get_if<std::int64_t>(&which[n].second))
                    {
                        choice.taken.how = axis_slice::kind::position;
                        choice.taken.position = checked(*one);
                    }
                    else if (const auto* range = std::get_if<index_range>(&which[n].second))
                    {
                        if (range->step == 0)
                        {
                            throw_shape_error(operation, "the range of ", describe_axis(names, axis),
                                              " has step 0");
                        }
                        choice.taken.how = axis_slice::kind::range;
                        choice.taken.range = positions_of(*range, size);
                        if (own != nullptr)
                        {
                            choice.kept_labels = labels_in(*own, choice.taken.range);
                        }
                    }
                    else
                    {
                        choice.taken.how = axis_slice::kind::list;
                        if (own != nullptr)
                        {
                            choice.kept_labels.emplace();
                        }
                        for (const auto position : std::get<index_list>(which[n].second))
                        {
                            choice.taken.positions.push_back(checked(position));
                            if (own != nullptr)
                            {
                                choice.kept_labels->push_back((*own)[choice.taken.positions.back()]);
                            }
                        }
                    }
                    choices.push_back(std::move(choice));
                }
                return build_selection(operation, names, source, names.size(), std::move(choices));
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
