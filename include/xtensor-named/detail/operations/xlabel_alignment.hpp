/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XLABEL_ALIGNMENT_HPP
#define XTENSOR_NAMED_DETAIL_XLABEL_ALIGNMENT_HPP

// Alignment by label, the step of an elementwise operation before its broadcasting plan:
// where operands meet on a named axis with labels, a shaping strategy decides the result's labels and,
// for each operand, where each result position comes from.
//
// Under xn::shape_exact (the default) labels must be equal, nothing is ever gathered and the operands go
// on as they are: the operation stays the lazy xfunction it is without labels. Under the other shaping
// strategies whether an operand is gathered is known only once the labels are seen, so every named
// operand becomes one type, a read-only strided view over a buffer: the operand's own memory when its
// labels need no gather (no copy), or a new buffer of its gathered values (xarray's reindex copies too).
// A named operand that is a lazy expression is evaluated once into such a buffer.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xcompat_xtensor.hpp"
#include "../../xcoords.hpp"
#include "../../xerrors.hpp"
#include "../../xnamed_expression.hpp"
#include "../../xshaping.hpp"
#include "../expression/xaligned_view.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// No fill value was given: NaN fills a floating point operand, anything else cannot be filled.
            struct no_fill
            {
            };

            /// The one type of a named operand under a shaping strategy other than xn::shape_exact.
            template <class T>
            using gathered_buffer_t =
                xt::xbuffer_adaptor<const T*, xt::no_ownership, std::shared_ptr<const void>>;

            template <class T>
            using gathered_storage_t =
                xt::xarray_adaptor<gathered_buffer_t<T>, xt::layout_type::row_major, view_shape_type>;

            /// A read-only strided view over `size` elements at `data`, kept alive by `owner` (empty for
            /// memory that the caller keeps alive, as xtensor's closures keep an lvalue).
            template <class T>
            auto gathered_view(const T* data, std::size_t size, std::shared_ptr<const void> owner,
                               view_shape_type shape, view_strides_type strides, std::size_t offset);

            template <class T>
            using gathered_view_t = decltype(gathered_view<T>(nullptr, 0, nullptr, {}, {}, 0));

            /// How one named operand is aligned: per axis its index map (none where it lands as it is), its
            /// new labels, and where it first lacks labels (for the message about fill values).
            struct operand_alignment
            {
                std::vector<std::optional<std::vector<std::int64_t>>> maps;
                coords labels;
                bool gathers = false;
                bool has_missing = false;
                std::string missing_where;
            };

            /// What alignment sees of one named operand: its place among the arguments (for messages), names,
            /// labels and sizes. Plain operands have no named axis, so no axis of theirs meets labels.
            struct labelled_operand
            {
                std::size_t argument;
                const named::dims* names;
                const coords* labels;
                std::vector<std::size_t> shape;
            };

            /**
             * Aligns the labels of the named operands under `Shaping` (`arguments` is how many arguments the
             * operation has): for every named axis where a labelled operand meets another operand, the labels
             * that the result has and how each operand lands on them. Throws xn::shape_error where the
             * strategy refuses, labels differ in type, or an operand without labels for the axis has another
             * size than the aligned labels.
             */
            template <class Shaping>
            std::vector<operand_alignment>
            align_operand_labels(std::string_view operation, std::size_t arguments,
                                 const std::vector<labelled_operand>& operands);

            /**
             * The operands of an elementwise operation after alignment by label, as a tuple: under
             * xn::shape_exact the operands themselves (forwarded) once their labels are checked; otherwise
             * every named operand as a named gathered view (see the top of this file). `fill` fills what
             * an operand lacks: a value, or no_fill.
             */
            template <class Shaping, class Fill, class... A>
            auto align_operands(std::string_view operation, const Fill& fill, A&&... args);

            /*******************************************
             * implementation of the label alignment *
             *******************************************/

            template <class T>
            inline auto gathered_view(const T* data, std::size_t size, std::shared_ptr<const void> owner,
                                      view_shape_type shape, view_strides_type strides, std::size_t offset)
            {
                gathered_storage_t<T> storage(gathered_buffer_t<T>(data, size, std::move(owner)),
                                              view_shape_type{size});
                const xt::layout_type layout = layout_of(shape, strides);
                return xt::strided_view(std::move(storage), std::move(shape), std::move(strides), offset,
                                        layout);
            }

            /// "the left operand" of two, "operand 2" of more.
            inline std::string describe_operand(std::size_t arguments, std::size_t n)
            {
                if (arguments == 2)
                {
                    return n == 0 ? "the left operand" : "the right operand";
                }
                return concat("operand ", n);
            }

            /// "axis 'x' (axis 0 of the left operand, axis 1 of the right operand)"; operands are counted
            /// among the `arguments` of the operation.
            inline std::string describe_meeting(std::string_view axis, std::size_t arguments, std::size_t k,
                                                std::size_t axis_k, std::size_t m, std::size_t axis_m)
            {
                return concat("axis ", detail::quoted(axis), " (axis ", axis_k, " of ",
                              describe_operand(arguments, k), ", axis ", axis_m, " of ",
                              describe_operand(arguments, m), ")");
            }

            /// `inner` seen through `outer`: result position i takes `inner[outer[i]]` (none: identity).
            inline std::vector<std::int64_t>
            compose_maps(const std::vector<std::int64_t>& outer,
                         const std::optional<std::vector<std::int64_t>>& inner)
            {
                return inner ? compose_index_maps(outer, *inner, named::missing) : outer;
            }

            template <class Shaping>
            inline std::vector<operand_alignment>
            align_operand_labels(std::string_view operation, std::size_t arguments,
                                 const std::vector<labelled_operand>& operands)
            {
                const std::size_t count = operands.size();
                std::vector<operand_alignment> result(count);
                for (std::size_t k = 0; k < count; ++k)
                {
                    result[k].maps.resize(operands[k].names->size());
                }
                // Without labels there is nothing to align: the common case costs no more than this look.
                const auto labelled_somewhere = [](const labelled_operand& op)
                { return !op.labels->empty(); };
                if (std::none_of(operands.begin(), operands.end(), labelled_somewhere))
                {
                    return result;
                }
                // Every named axis once, in the order the operands show them.
                std::vector<std::string> axes;
                for (const auto& op : operands)
                {
                    for (std::size_t j = 0; j < op.names->size(); ++j)
                    {
                        const std::string& axis = (*op.names)[j];
                        if (op.names->is_named(j) && std::find(axes.begin(), axes.end(), axis) == axes.end())
                        {
                            axes.push_back(axis);
                        }
                    }
                }
                for (const auto& axis : axes)
                {
                    // Who has the axis, and where; the first labelled one sets the labels to align to.
                    std::vector<std::pair<std::size_t, std::size_t>> members;
                    std::vector<std::pair<std::size_t, std::size_t>> labelled;
                    for (std::size_t k = 0; k < count; ++k)
                    {
                        const auto j = operands[k].names->index_of(axis);
                        if (j < 0)
                        {
                            continue;
                        }
                        members.emplace_back(k, static_cast<std::size_t>(j));
                        if (operands[k].labels->has(axis))
                        {
                            labelled.emplace_back(k, static_cast<std::size_t>(j));
                        }
                    }
                    if (labelled.empty())
                    {
                        continue;
                    }
                    const auto [first, first_axis] = labelled.front();
                    const labels* current = &operands[first].labels->at(axis);
                    labels joined;
                    bool changed = false;
                    for (std::size_t n = 1; n < labelled.size(); ++n)
                    {
                        const auto [k, j] = labelled[n];
                        const labels& own = operands[k].labels->at(axis);
                        if (same_labels(*current, own))
                        {
                            continue;
                        }
                        auto aligned =
                            align_checked<Shaping>(operation,
                                                   describe_meeting(axis, arguments, operands[first].argument,
                                                                    first_axis, operands[k].argument, j),
                                                   *current, own);
                        for (std::size_t p = 0; p < n; ++p)
                        {
                            auto& map = result[labelled[p].first].maps[labelled[p].second];
                            map = compose_maps(aligned.index[0], map);
                        }
                        result[k].maps[j] = std::move(aligned.index[1]);
                        joined = std::move(aligned.result);
                        current = &joined;
                        changed = true;
                    }
                    for (const auto& [k, j] : members)
                    {
                        if (!operands[k].labels->has(axis) && operands[k].shape[j] != current->size())
                        {
                            throw_shape_error(
                                operation,
                                describe_meeting(axis, arguments, operands[first].argument, first_axis,
                                                 operands[k].argument, j),
                                ": the axis has ", current->size(), " labels ", format_labels(*current),
                                " but size ", operands[k].shape[j],
                                " where it has no labels: an axis without labels takes the labels "
                                "it meets only at their size");
                        }
                    }
                    // The labels the operands leave with: one list, shared by all of them.
                    coords joined_coords;
                    const coords* source = operands[first].labels;
                    if (changed)
                    {
                        joined_coords.set(axis, std::move(joined));
                        current = &joined_coords.at(axis);
                        source = &joined_coords;
                    }
                    for (const auto& [k, j] : labelled)
                    {
                        auto& alignment = result[k];
                        auto& map = alignment.maps[j];
                        if (map && is_identity_map(*map, operands[k].shape[j]))
                        {
                            map.reset();
                        }
                        if (map)
                        {
                            alignment.gathers = true;
                            const auto lacking = static_cast<std::size_t>(
                                std::count(map->begin(), map->end(), named::missing));
                            if (lacking != 0 && !alignment.has_missing)
                            {
                                alignment.has_missing = true;
                                alignment.missing_where = concat(
                                    describe_operand(arguments, operands[k].argument), " lacks ", lacking,
                                    " of the ", current->size(), " aligned labels ", format_labels(*current),
                                    " of axis ", detail::quoted(axis), " (its axis ", j, ")");
                            }
                        }
                        alignment.labels.set(axis, *source, axis);
                    }
                }
                // Labels of axes that meet nothing stay as they were.
                for (std::size_t k = 0; k < count; ++k)
                {
                    for (const auto& axis : operands[k].labels->names())
                    {
                        if (!result[k].labels.has(axis))
                        {
                            result[k].labels.set(axis, *operands[k].labels, axis);
                        }
                    }
                }
                return result;
            }

            /// The value that fills what an operand of element type `T` lacks, or an xn::shape_error.
            template <class T, class Fill>
            inline T fill_value(std::string_view operation, const Fill& fill, const operand_alignment& how)
            {
                if constexpr (!std::is_same<Fill, no_fill>::value)
                {
                    return static_cast<T>(fill);
                }
                else if constexpr (std::numeric_limits<T>::has_quiet_NaN)
                {
                    return std::numeric_limits<T>::quiet_NaN();
                }
                else
                {
                    throw_shape_error(
                        operation, how.missing_where,
                        ", and its element type has no NaN to fill them with: give a fill value, "
                        "as in xn::apply<S, Shaping>(f, a, b, fill)");
                }
            }

            /// The values of `e` (strided memory at `data`) gathered through `how`, in a new row-major
            /// buffer.
            template <class T, class Shape>
            inline auto gather(const T* data, const Shape& shape, const view_strides_type& strides,
                               std::size_t offset, const operand_alignment& how, const T& fill)
            {
                // Per axis and result position, the memory offset to add; `absent` marks a filled position.
                constexpr std::ptrdiff_t absent = std::numeric_limits<std::ptrdiff_t>::min();
                const std::size_t rank = how.maps.size();
                std::vector<std::vector<std::ptrdiff_t>> steps(rank);
                view_shape_type result_shape(rank);
                std::size_t total = 1;
                for (std::size_t j = 0; j < rank; ++j)
                {
                    if (how.maps[j])
                    {
                        for (const auto position : *how.maps[j])
                        {
                            steps[j].push_back(position == named::missing ? absent : position * strides[j]);
                        }
                    }
                    else
                    {
                        for (std::size_t i = 0; i < static_cast<std::size_t>(shape[j]); ++i)
                        {
                            steps[j].push_back(static_cast<std::ptrdiff_t>(i) * strides[j]);
                        }
                    }
                    result_shape[j] = steps[j].size();
                    total *= result_shape[j];
                }
                auto buffer = std::make_shared<xt::xarray<T, xt::layout_type::row_major>>(result_shape);
                T* out = buffer->data();
                // Along the last axis, each row is the same runs of consecutive source elements and of
                // filled positions (a row shifted by a join, say): found once, then copied run by run.
                struct run
                {
                    std::size_t length;
                    std::ptrdiff_t first; // `absent` for a run of filled positions
                    std::ptrdiff_t stride;
                };
                std::vector<run> runs;
                if (rank > 0)
                {
                    const std::vector<std::ptrdiff_t>& last = steps[rank - 1];
                    const std::ptrdiff_t stride = strides[rank - 1];
                    for (std::size_t i = 0; i < last.size(); ++i)
                    {
                        const bool extends =
                            !runs.empty() &&
                            ((last[i] == absent && runs.back().first == absent) ||
                             (last[i] != absent && runs.back().first != absent &&
                              last[i] == runs.back().first +
                                             static_cast<std::ptrdiff_t>(runs.back().length) * stride));
                        if (extends)
                        {
                            ++runs.back().length;
                        }
                        else
                        {
                            runs.push_back(run{1, last[i], stride});
                        }
                    }
                }
                const auto row = [&](std::ptrdiff_t at, bool filled)
                {
                    for (const run& r : runs)
                    {
                        if (filled || r.first == absent)
                        {
                            std::fill(out, out + r.length, fill);
                        }
                        else if (r.stride == 1)
                        {
                            std::copy(data + at + r.first, data + at + r.first + r.length, out);
                        }
                        else
                        {
                            const T* src = data + at + r.first;
                            for (std::size_t i = 0; i < r.length; ++i)
                            {
                                out[i] = src[static_cast<std::ptrdiff_t>(i) * r.stride];
                            }
                        }
                        out += r.length;
                    }
                };
                const auto walk = [&](const auto& self, std::size_t axis, std::ptrdiff_t at,
                                      bool filled) -> void
                {
                    if (axis + 1 == rank)
                    {
                        row(at, filled);
                        return;
                    }
                    for (const auto step : steps[axis])
                    {
                        const bool lacks = filled || step == absent;
                        self(self, axis + 1, lacks ? at : at + step, lacks);
                    }
                };
                if (rank == 0)
                {
                    *out = data[offset];
                }
                else
                {
                    walk(walk, 0, static_cast<std::ptrdiff_t>(offset), false);
                }
                const T* start = buffer->data();
                auto result_strides = source_strides(*buffer);
                return gathered_view<T>(start, total, std::move(buffer), std::move(result_shape),
                                        std::move(result_strides), 0);
            }

            /// Operand `e` (an xtensor expression) aligned through `how`, as a gathered view.
            template <class T, class E>
            inline gathered_view_t<T> aligned_operand(E&& e, const operand_alignment& how, const T& fill)
            {
                using expression_type = std::decay_t<E>;
                if constexpr (!xt::has_data_interface<expression_type>::value)
                {
                    // A lazy expression is evaluated once, row-major; then it is a container like any other.
                    xt::xarray<T, xt::layout_type::row_major> evaluated_operand;
                    evaluate_into(evaluated_operand, e);
                    return aligned_operand<T>(std::move(evaluated_operand), how, fill);
                }
                else
                {
                    if (how.gathers)
                    {
                        return gather<T>(e.data(), e.shape(), source_strides(e), source_offset(e), how, fill);
                    }
                    view_shape_type shape(e.shape().begin(), e.shape().end());
                    if constexpr (std::is_lvalue_reference<E>::value)
                    {
                        return gathered_view<T>(e.data(), e.storage().size(), nullptr, std::move(shape),
                                                source_strides(e), source_offset(e));
                    }
                    else
                    {
                        // An operand that the operation owns is kept alive by the view, without a copy.
                        auto held = std::make_shared<expression_type>(std::move(e));
                        const T* data = held->data();
                        const std::size_t size = held->storage().size();
                        auto strides = source_strides(*held);
                        const std::size_t offset = source_offset(*held);
                        return gathered_view<T>(data, size, std::move(held), std::move(shape),
                                                std::move(strides), offset);
                    }
                }
            }

            /// For each argument, its place among the named ones (meaningless for the others).
            template <class... A>
            constexpr std::array<std::size_t, sizeof...(A)> named_positions() noexcept
            {
                constexpr bool is_named[] = {is_named_expression_v<A>..., false};
                std::array<std::size_t, sizeof...(A)> positions{};
                std::size_t next = 0;
                for (std::size_t i = 0; i < sizeof...(A); ++i)
                {
                    positions[i] = next;
                    next += is_named[i] ? 1 : 0;
                }
                return positions;
            }

            template <class... A, std::size_t... I>
            inline std::vector<labelled_operand> labelled_operands(std::index_sequence<I...>,
                                                                   const A&... args)
            {
                std::vector<labelled_operand> result;
                (
                    [&]
                    {
                        if constexpr (is_named_expression_v<A>)
                        {
                            result.push_back(labelled_operand{
                                I, &args.dims(), &args.coords(),
                                std::vector<std::size_t>(args.shape().begin(), args.shape().end())});
                        }
                    }(),
                    ...);
                return result;
            }

            /// Throws, before any operand is taken over, where an operand lacks labels it cannot fill.
            template <class... A, class Fill>
            inline void check_fill_values(std::string_view operation, const Fill& fill,
                                          const std::vector<operand_alignment>& how)
            {
                constexpr auto positions = named_positions<A...>();
                std::size_t argument = 0;
                (
                    [&]
                    {
                        if constexpr (is_named_expression_v<A>)
                        {
                            using value_type = typename std::decay_t<A>::value_type;
                            const auto& own = how[positions[argument]];
                            if (own.has_missing)
                            {
                                fill_value<value_type>(operation, fill, own);
                            }
                        }
                        ++argument;
                    }(),
                    ...);
            }

            /// One argument of an operation after alignment: a named operand as a named gathered view.
            template <class A, class Fill>
            inline decltype(auto) aligned_argument(std::string_view operation, A&& a,
                                                   const operand_alignment* how, const Fill& fill)
            {
                if constexpr (is_named_expression_v<A>)
                {
                    using named_type = std::decay_t<A>;
                    using value_type = typename named_type::value_type;
                    const value_type filler =
                        how->has_missing ? fill_value<value_type>(operation, fill, *how) : value_type();
                    typename named_type::metadata_type metadata{a.dims(), how->labels};
                    auto view = aligned_operand<value_type>(std::forward<A>(a).expression(), *how, filler);
                    return xnamed<gathered_view_t<value_type>, typename named_type::strategy_type>(
                        std::move(view), std::move(metadata));
                }
                else
                {
                    return std::forward<A>(a);
                }
            }

            template <class Fill, class... A, std::size_t... I>
            inline auto aligned_arguments(std::string_view operation, const Fill& fill,
                                          const std::vector<operand_alignment>& how,
                                          std::index_sequence<I...>, A&&... args)
            {
                constexpr auto positions = named_positions<A...>();
                return std::tuple<decltype(aligned_argument(operation, std::forward<A>(args), nullptr,
                                                            fill))...>(
                    aligned_argument(operation, std::forward<A>(args),
                                     is_named_expression_v<A> ? &how[positions[I]] : nullptr, fill)...);
            }

            /// Whether any named operand among `args` carries labels.
            template <class... A>
            inline bool any_labels(const A&... args) noexcept
            {
                bool found = false;
                (
                    [&]
                    {
                        if constexpr (is_named_expression_v<A>)
                        {
                            found = found || !args.coords().empty();
                        }
                    }(),
                    ...);
                return found;
            }

            template <class Shaping, class Fill, class... A>
            inline auto align_operands(std::string_view operation, const Fill& fill, A&&... args)
            {
                if constexpr (std::is_same<Shaping, shape_exact>::value)
                {
                    // Equal labels: nothing to gather, the operands go on as they are. Without labels
                    // there is nothing to check either, and most operations have none.
                    if (any_labels(args...))
                    {
                        align_operand_labels<Shaping>(
                            operation, sizeof...(A),
                            labelled_operands(std::index_sequence_for<A...>{}, args...));
                    }
                    return std::forward_as_tuple(std::forward<A>(args)...);
                }
                else
                {
                    const auto how = align_operand_labels<Shaping>(
                        operation, sizeof...(A), labelled_operands(std::index_sequence_for<A...>{}, args...));
                    check_fill_values<A...>(operation, fill, how);
                    return aligned_arguments(operation, fill, how, std::index_sequence_for<A...>{},
                                             std::forward<A>(args)...);
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
