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

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

            /**
             * The labels of a view of `source`: result axis i, named `names[i]`, takes the labels of axis
             * `from[i]` of the source (shared, not copied); a new axis (xn::no_axis) or an unnamed one has
             * none.
             */
            coords select_coords(const named::dims& source_names, const coords& source, const axis_map& from,
                                 const named::dims& names);

            /**
             * The labels of an elementwise result of `shape`: each result axis takes the labels of the
             * operands' axes that land on it (`operands[k]` points to `names` and `coords`, or is nullptr
             * for a plain expression; `from[k]` is where its axes land). Operands are aligned by label first
             * (detail/operations/xlabel_alignment.hpp), so the labels that meet on one axis are equal; a
             * labelled axis is never stretched (xn::shape_error).
             */
            template <class Metadata, class Maps, class Shape>
            coords combine_coords(std::string_view operation, const named::dims& names, const Shape& shape,
                                  const Metadata& operands, const Maps& from);

            /// What `sel` or `isel` does: the xtensor slices, and the dims and labels of the result.
            struct selection
            {
                xt::xdynamic_slice_vector slices;
                named::dims names;
                coords labels;
            };

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

            inline coords select_coords(const named::dims& source_names, const coords& source,
                                        const axis_map& from, const named::dims& names)
            {
                coords result;
                if (source.empty())
                {
                    return result;
                }
                for (std::size_t i = 0; i < from.size(); ++i)
                {
                    if (from[i] == named::no_axis || !names.is_named(i))
                    {
                        continue;
                    }
                    const auto& source_axis = source_names[static_cast<std::size_t>(from[i])];
                    if (source.has(source_axis))
                    {
                        result.set(names[i], source, source_axis);
                    }
                }
                return result;
            }

            template <class Metadata, class Maps, class Shape>
            inline coords combine_coords(std::string_view operation, const named::dims& names,
                                         const Shape& shape, const Metadata& operands, const Maps& from)
            {
                coords result;
                for (std::size_t i = 0; i < names.size(); ++i)
                {
                    if (!names.is_named(i))
                    {
                        continue;
                    }
                    for (std::size_t k = 0; k < operands.size(); ++k)
                    {
                        if (operands[k] == nullptr || from[k][i] == named::no_axis)
                        {
                            continue;
                        }
                        const auto axis = static_cast<std::size_t>(from[k][i]);
                        const auto& operand_axis = operands[k]->names[axis];
                        const labels* own = operands[k]->coords.find(operand_axis);
                        if (own == nullptr)
                        {
                            continue;
                        }
                        // Operands meet after alignment by label: the labels of one result axis are equal.
                        if (result.has(names[i]))
                        {
                            continue;
                        }
                        if (own->size() != static_cast<std::size_t>(shape[i]))
                        {
                            throw_shape_error(operation, describe_axis(names, i), " of the result has size ",
                                              shape[i], " but operand ", k, " brings ", own->size(),
                                              " labels ", format_labels(*own),
                                              ": a labelled axis is not stretched");
                        }
                        result.set(names[i], operands[k]->coords, operand_axis);
                    }
                }
                return result;
            }

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

            /// The slices, dims and labels of a selection: per selected axis one position (the axis is
            /// dropped) or a list of positions and the labels that the kept axis gets (none: unlabelled).
            struct axis_choice
            {
                std::size_t axis;
                bool drops;
                std::size_t position;
                std::vector<std::size_t> positions;
                std::optional<labels> kept_labels;
            };

            inline selection build_selection(std::string_view operation, const named::dims& names,
                                             const coords& source, std::size_t rank,
                                             const std::vector<axis_choice>& choices)
            {
                selection result;
                std::vector<const axis_choice*> choice_of(rank, nullptr);
                for (const auto& choice : choices)
                {
                    choice_of[choice.axis] = &choice;
                }
                std::vector<std::string> kept_names;
                for (std::size_t axis = 0; axis < rank; ++axis)
                {
                    const axis_choice* choice = choice_of[axis];
                    if (choice == nullptr)
                    {
                        result.slices.push_back(xt::all());
                    }
                    else if (choice->drops)
                    {
                        result.slices.push_back(static_cast<std::ptrdiff_t>(choice->position));
                        continue;
                    }
                    else
                    {
                        result.slices.push_back(xt::keep(choice->positions));
                    }
                    kept_names.push_back(names[axis]);
                    if (!names.is_named(axis))
                    {
                        continue;
                    }
                    if (choice != nullptr && choice->kept_labels)
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
                    const label_index lookup(*own);
                    const auto position_of = [&](const label& l)
                    {
                        const auto position = lookup.position_of(l);
                        if (position == named::missing)
                        {
                            throw_shape_error(operation, "label ", format_label(l), " is not a label of ",
                                              describe_axis(names, axis), ", whose labels are ",
                                              format_labels(*own));
                        }
                        return static_cast<std::size_t>(position);
                    };
                    axis_choice choice{axis, false, 0, {}, std::nullopt};
                    if (const auto* one = std::get_if<label>(&which[n].second))
                    {
                        choice.drops = true;
                        choice.position = position_of(*one);
                    }
                    else
                    {
                        const auto& wanted = std::get<labels>(which[n].second);
                        for (const auto& l : wanted)
                        {
                            choice.positions.push_back(position_of(l));
                        }
                        choice.kept_labels = wanted;
                    }
                    choices.push_back(std::move(choice));
                }
                return build_selection(operation, names, source, names.size(), choices);
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
                    axis_choice choice{axis, false, 0, {}, std::nullopt};
                    if (const auto* one = std::get_if<std::int64_t>(&which[n].second))
                    {
                        choice.drops = true;
                        choice.position = checked(*one);
                    }
                    else
                    {
                        const labels* own = names.is_named(axis) ? source.find(names[axis]) : nullptr;
                        if (own != nullptr)
                        {
                            choice.kept_labels.emplace();
                        }
                        for (const auto position : std::get<index_list>(which[n].second))
                        {
                            choice.positions.push_back(checked(position));
                            if (own != nullptr)
                            {
                                choice.kept_labels->push_back((*own)[choice.positions.back()]);
                            }
                        }
                    }
                    choices.push_back(std::move(choice));
                }
                return build_selection(operation, names, source, names.size(), choices);
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
