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
// Under xn::join_exact (the default) labels must be equal, nothing is ever reindexed and the operands go
// on as they are: the operation stays the lazy xfunction it is without labels. Under the other shaping
// strategies whether an operand is reindexed is known only once the labels are seen, so every named
// operand becomes one type, a read-only strided view over a buffer: the operand's own memory when its
// labels need no reindex (no copy), or a new buffer of its reindexed values (xarray's reindex copies too).
// A named operand that is a lazy expression is evaluated once into such a buffer. Where + - * / joins two
// operands of the same dims, the result is computed once as the labels are joined (joined_arguments), so
// that what reads it later reads one buffer, not one per operand.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "../../xcoords.hpp"
#include "../../xerrors.hpp"
#include "../../xnamed_expression.hpp"
#include "../../xshaping.hpp"
#include "../core/xlabel_rules.hpp"
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

            /// The one type of a named operand under a shaping strategy other than xn::join_exact.
            template <class T>
            using reindexed_buffer_t = deferred_buffer<T>;

            template <class T>
            using reindexed_storage_t =
                xt::xarray_adaptor<reindexed_buffer_t<T>, xt::layout_type::row_major, view_shape_type>;

            /// A read-only strided view over `size` elements at `data`, kept alive by `owner` (empty for
            /// memory that the caller keeps alive, as xtensor's closures keep an lvalue).
            template <class T>
            auto reindexed_view(const T* data, std::size_t size, std::shared_ptr<const void> owner,
                                view_shape_type shape, view_strides_type strides, std::size_t offset);

            template <class T>
            using reindexed_view_t = decltype(reindexed_view<T>(nullptr, 0, nullptr, {}, {}, 0));

            /// How one named operand is aligned: per axis its index map (none where it lands as it is), its
            /// new labels, and where it first lacks labels (for the message about fill values).
            struct operand_alignment
            {
                std::vector<std::optional<std::vector<std::int64_t>>> maps;
                coords labels;
                bool reindexes = false;
                bool has_missing = false;
                std::string missing_where;
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
             * xn::join_exact the operands themselves (forwarded) once their labels are checked; otherwise
             * every named operand as a named reindexed view (see the top of this file). `fill` fills what
             * an operand lacks: a value, or no_fill.
             */
            template <class Shaping, class Make = void, class Fill, class... A>
            auto align_operands(std::string_view operation, const Fill& fill, A&&... args);

            /*******************************************
             * implementation of the label alignment *
             *******************************************/

            /// A read-only strided view of the elements of `state`.
            template <class T>
            inline auto reindexed_view_of(std::shared_ptr<const deferred_state<T>> state,
                                          view_shape_type shape, view_strides_type strides,
                                          std::size_t offset)
            {
                const std::size_t size = state->size();
                reindexed_storage_t<T> storage(reindexed_buffer_t<T>(std::move(state)),
                                               view_shape_type{size});
                const xt::layout_type layout = layout_of(shape, strides);
                return xt::strided_view(std::move(storage), std::move(shape), std::move(strides), offset,
                                        layout);
            }

            template <class T>
            inline auto reindexed_view(const T* data, std::size_t size, std::shared_ptr<const void> owner,
                                       view_shape_type shape, view_strides_type strides, std::size_t offset)
            {
                auto state =
                    std::make_shared<const deferred_state<T>>(view_shape_type{size}, data, std::move(owner));
                return reindexed_view_of<T>(std::move(state), std::move(shape), std::move(strides), offset);
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
                for (const auto& axis : meeting_axes(operands))
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
                            throw_unlabelled_size(operation, axis, arguments, operands[first], first_axis,
                                                  operands[k], j, *current);
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
                            alignment.reindexes = true;
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

            /// Where the values of one operand come from in the aligned layout: per axis and aligned position
            /// the memory offset to add (`absent` where the operand lacks the label and `fill` stands in),
            /// and the runs that every aligned row is made of.
            template <class T>
            struct reindex_source
            {
                static constexpr std::ptrdiff_t absent = std::numeric_limits<std::ptrdiff_t>::min();

                /// Consecutive positions of a row that read consecutive source elements, or that are filled.
                struct run
                {
                    std::size_t length;
                    std::ptrdiff_t first; // `absent` for a run of filled positions
                };

                const T* data;
                std::ptrdiff_t offset;
                std::ptrdiff_t last_stride;
                std::vector<std::vector<std::ptrdiff_t>> steps;
                std::vector<run> runs;
                T fill;
            };

            template <class T, class Shape>
            inline reindex_source<T> make_reindex_source(const T* data, const Shape& shape,
                                                         const view_strides_type& strides, std::size_t offset,
                                                         const operand_alignment& how, const T& fill)
            {
                using source = reindex_source<T>;
                const std::size_t rank = how.maps.size();
                source result{data,
                              static_cast<std::ptrdiff_t>(offset),
                              rank > 0 ? strides[rank - 1] : 0,
                              std::vector<std::vector<std::ptrdiff_t>>(rank),
                              {},
                              fill};
                for (std::size_t j = 0; j < rank; ++j)
                {
                    auto& steps = result.steps[j];
                    steps.reserve(how.maps[j] ? how.maps[j]->size() : static_cast<std::size_t>(shape[j]));
                    if (how.maps[j])
                    {
                        for (const auto position : *how.maps[j])
                        {
                            steps.push_back(position == named::missing ? source::absent
                                                                       : position * strides[j]);
                        }
                    }
                    else
                    {
                        for (std::size_t i = 0; i < static_cast<std::size_t>(shape[j]); ++i)
                        {
                            steps.push_back(static_cast<std::ptrdiff_t>(i) * strides[j]);
                        }
                    }
                }
                // Along the last axis, each row is the same runs of consecutive source elements and of
                // filled positions (a row shifted by a join, say): found once, then copied run by run.
                if (rank > 0)
                {
                    auto& runs = result.runs;
                    for (const auto step : result.steps[rank - 1])
                    {
                        const bool extends =
                            !runs.empty() &&
                            ((step == source::absent && runs.back().first == source::absent) ||
                             (step != source::absent && runs.back().first != source::absent &&
                              step == runs.back().first + static_cast<std::ptrdiff_t>(runs.back().length) *
                                                              result.last_stride));
                        if (extends)
                        {
                            ++runs.back().length;
                        }
                        else
                        {
                            runs.push_back({1, step});
                        }
                    }
                }
                return result;
            }

            /// Writes one aligned row of `source` (its memory at `at`, or all filled) to `out`.
            template <class T>
            inline void reindex_row(const reindex_source<T>& source, std::ptrdiff_t at, bool filled, T* out)
            {
                for (const auto& r : source.runs)
                {
                    if (filled || r.first == reindex_source<T>::absent)
                    {
                        std::fill(out, out + r.length, source.fill);
                    }
                    else if (source.last_stride == 1)
                    {
                        const T* from = source.data + at + r.first;
                        std::copy(from, from + r.length, out);
                    }
                    else
                    {
                        const T* from = source.data + at + r.first;
                        for (std::size_t i = 0; i < r.length; ++i)
                        {
                            out[i] = from[static_cast<std::ptrdiff_t>(i) * source.last_stride];
                        }
                    }
                    out += r.length;
                }
            }

            /// Calls `row(at, filled, out)` for every aligned row of a row-major buffer at `out`: `at[k]` is
            /// where the row starts in source k's memory, `filled[k]` whether source k lacks the whole row.
            /// The sources have the same aligned shape, of rank 1 at least. Of rank 2 and more, only the
            /// rows of positions [first, last) of the first axis, the first of them at `out`.
            template <class T, std::size_t N, class Row>
            inline void for_each_aligned_row(const std::array<const reindex_source<T>*, N>& sources, T* out,
                                             Row&& row, std::size_t first = 0,
                                             std::size_t last = std::numeric_limits<std::size_t>::max())
            {
                using src = reindex_source<T>;
                const std::size_t rank = sources[0]->steps.size();
                const std::size_t row_length = sources[0]->steps[rank - 1].size();
                std::array<std::ptrdiff_t, N> start{};
                std::array<bool, N> none_filled{};
                for (std::size_t k = 0; k < N; ++k)
                {
                    start[k] = sources[k]->offset;
                }
                const auto walk = [&](const auto& self, std::size_t axis,
                                      const std::array<std::ptrdiff_t, N>& at,
                                      const std::array<bool, N>& filled) -> void
                {
                    if (axis + 1 == rank)
                    {
                        row(at, filled, out);
                        out += row_length;
                        return;
                    }
                    const std::size_t size = sources[0]->steps[axis].size();
                    const std::size_t begin = axis == 0 ? first : 0;
                    const std::size_t end = axis == 0 ? std::min(last, size) : size;
                    for (std::size_t i = begin; i < end; ++i)
                    {
                        std::array<std::ptrdiff_t, N> next = at;
                        std::array<bool, N> lacks = filled;
                        for (std::size_t k = 0; k < N; ++k)
                        {
                            const std::ptrdiff_t step = sources[k]->steps[axis][i];
                            lacks[k] = lacks[k] || step == src::absent;
                            next[k] = lacks[k] ? at[k] : at[k] + step;
                        }
                        self(self, axis + 1, next, lacks);
                    }
                };
                walk(walk, 0, start, none_filled);
            }

            /// Consecutive positions of an aligned row where each of two sources reads consecutive elements
            /// or is filled: the runs of both, cut where either changes.
            struct joined_segment
            {
                std::size_t length;
                std::array<std::ptrdiff_t, 2> first; // reindex_source<T>::absent where that source is filled
            };

            template <class T>
            inline std::vector<joined_segment> joined_segments(const reindex_source<T>& left,
                                                               const reindex_source<T>& right)
            {
                constexpr std::ptrdiff_t absent = reindex_source<T>::absent;
                const auto start = [](const auto& run, std::size_t used, std::ptrdiff_t stride) {
                    return run.first == absent ? absent
                                               : run.first + static_cast<std::ptrdiff_t>(used) * stride;
                };
                std::vector<joined_segment> result;
                std::size_t l = 0;
                std::size_t r = 0;
                std::size_t used_l = 0; // positions of left run l already in a segment
                std::size_t used_r = 0;
                while (l < left.runs.size() && r < right.runs.size())
                {
                    const auto& a = left.runs[l];
                    const auto& b = right.runs[r];
                    const std::size_t length = std::min(a.length - used_l, b.length - used_r);
                    result.push_back(joined_segment{
                        length, {start(a, used_l, left.last_stride), start(b, used_r, right.last_stride)}});
                    used_l += length;
                    used_r += length;
                    if (used_l == a.length)
                    {
                        ++l;
                        used_l = 0;
                    }
                    if (used_r == b.length)
                    {
                        ++r;
                        used_r = 0;
                    }
                }
                return result;
            }

            /// out[i] = f(left(i), right(i)) for i in [0, count).
            template <class T, class F, class Left, class Right>
            inline void join_values(T* out, std::size_t count, const F& f, Left left, Right right)
            {
                for (std::size_t i = 0; i < count; ++i)
                {
                    out[i] = f(left(i), right(i));
                }
            }

            /// The reader of a segment of one source: its fill value, consecutive or strided elements.
            template <class T, class Use>
            inline void with_reader(const T* data, std::ptrdiff_t stride, const T& fill, Use&& use)
            {
                if (data == nullptr)
                {
                    use([fill](std::size_t) { return fill; });
                }
                else if (stride == 1)
                {
                    use([data](std::size_t i) { return data[i]; });
                }
                else
                {
                    use([data, stride](std::size_t i)
                        { return data[static_cast<std::ptrdiff_t>(i) * stride]; });
                }
            }

            template <class F>
            struct right_identity;

            /// One aligned row of f(left, right) into `out`, segment by segment.
            template <class T, class F>
            inline void join_row(const reindex_source<T>& left, const reindex_source<T>& right,
                                 const std::vector<joined_segment>& segments,
                                 const std::array<std::ptrdiff_t, 2>& at, const std::array<bool, 2>& filled,
                                 const F& f, T* out)
            {
                // Where an operand's fill is NaN, f(x, fill) and f(fill, x) are NaN whatever x is, for the
                // functors that are joined: a segment that it lacks needs none of the other's elements.
                static_assert(right_identity<F>::exists, "joined while computed: + - * / only");
                constexpr std::ptrdiff_t absent = reindex_source<T>::absent;
                const bool left_fills_nan = simd::is_nan(left.fill);
                const bool right_fills_nan = simd::is_nan(right.fill);
                for (const auto& segment : segments)
                {
                    const std::size_t count = segment.length;
                    const bool left_filled = filled[0] || segment.first[0] == absent;
                    const bool right_filled = filled[1] || segment.first[1] == absent;
                    if ((left_filled && right_filled) || (left_filled && left_fills_nan) ||
                        (right_filled && right_fills_nan))
                    {
                        std::fill(out, out + count, f(left.fill, right.fill));
                    }
                    else
                    {
                        const T* a = left_filled ? nullptr : left.data + at[0] + segment.first[0];
                        const T* b = right_filled ? nullptr : right.data + at[1] + segment.first[1];
                        with_reader(a, left.last_stride, left.fill,
                                    [&](auto read_left)
                                    {
                                        with_reader(b, right.last_stride, right.fill,
                                                    [&](auto read_right)
                                                    { join_values(out, count, f, read_left, read_right); });
                                    });
                    }
                    out += count;
                }
            }

            /// Calls `use(data, shape, strides, offset)` on the memory of `e`, evaluated first if it is lazy:
            /// into `*keep` where given, which then holds the memory for as long as the caller needs it.
            template <class T, class E, class Use>
            inline decltype(auto) with_memory(E&& e, Use&& use,
                                              xt::xarray<T, xt::layout_type::row_major>* keep = nullptr)
            {
                using expression_type = std::decay_t<E>;
                if constexpr (!xt::has_data_interface<expression_type>::value)
                {
                    xt::xarray<T, xt::layout_type::row_major> evaluated_operand;
                    auto& evaluated = keep != nullptr ? *keep : evaluated_operand;
                    evaluate_into(evaluated, e);
                    return with_memory<T>(evaluated, std::forward<Use>(use));
                }
                else
                {
                    static_cast<void>(keep);
                    // data() is noexcept: a deferred temporary is computed before, where it may throw.
                    compute_deferred_operands(e);
                    return use(e.data(), e.shape(), source_strides(e), source_offset(e));
                }
            }

            /// An operand's expression kept by a deferred computation: an lvalue referred to, as xtensor's
            /// closures refer to it, an rvalue owned.
            template <class X>
            using kept_operand_t = std::conditional_t<std::is_lvalue_reference<X>::value, X, std::decay_t<X>>;

            /// The aligned shape of an operand of shape `shape` aligned through `how`.
            template <class S>
            inline view_shape_type aligned_shape_of(const S& shape, const operand_alignment& how)
            {
                view_shape_type result(shape.size());
                for (std::size_t j = 0; j < result.size(); ++j)
                {
                    result[j] = how.maps[j] ? how.maps[j]->size() : static_cast<std::size_t>(shape[j]);
                }
                return result;
            }

            /**
             * The values that label alignment makes of its operands, a deferred temporary's computation
             * (detail/kernels/xdeferred.hpp): one operand reindexed through its alignment (or, where it
             * needs no reindex, a lazy one evaluated), or f(a, b) of two computed as their labels are joined
             * (joined_arguments); rows of the aligned shape's first axis at a time. The operands' memory is
             * found, and a lazy operand evaluated, the first time anything is computed, not before, as a
             * lazy expression reads its operands when it is evaluated.
             */
            template <class T, class Functor, class... Operands>
            class deferred_alignment final : public deferred_evaluation<T>
            {
            public:
                static constexpr std::size_t arity = sizeof...(Operands);
                static_assert(arity == 1 || arity == 2, "one operand reindexed, or two joined");

                deferred_alignment(const std::array<const operand_alignment*, arity>& how,
                                   const std::array<T, arity>& fill, Operands... operands)
                    : m_operands(std::forward<Operands>(operands)...), m_fill(fill)
                {
                    for (std::size_t k = 0; k < arity; ++k)
                    {
                        m_how[k] = *how[k];
                    }
                }

                void compute(T* rows, std::size_t first, std::size_t last) const override
                {
                    prepare();
                    const auto& sources = m_sources;
                    if (sources[0].steps.empty())
                    {
                        // A scalar: its one element.
                        *rows = sources[0].data[sources[0].offset];
                        return;
                    }
                    std::array<const reindex_source<T>*, arity> all;
                    for (std::size_t k = 0; k < arity; ++k)
                    {
                        all[k] = &sources[k];
                    }
                    for_each_aligned_row(
                        all, rows,
                        [&](const auto& at, const auto& filled, T* row)
                        {
                            if constexpr (arity == 1)
                            {
                                reindex_row(sources[0], at[0], filled[0], row);
                            }
                            else
                            {
                                join_row(sources[0], sources[1], m_segments, at, filled, Functor{}, row);
                            }
                        },
                        first, last);
                }

                bool by_rows() const noexcept override
                {
                    return m_how[0].maps.size() >= 2;
                }

                /// A reindex or a join reads each operand element once: computing rows again for another
                /// evaluation costs what reading them from a kept copy would.
                bool keeps_rows() const noexcept override
                {
                    return false;
                }

                std::size_t input_bytes() const noexcept override
                {
                    return std::apply([](const auto&... operand)
                                      { return ((operand.size() * sizeof(T)) + ...); },
                                      m_operands);
                }

                bool reads(const void* data, std::size_t element_bytes,
                           const memory_span& span) const override
                {
                    prepare();
                    for (std::size_t k = 0; k < arity; ++k)
                    {
                        if (overlaps(m_memory[k].data, sizeof(T), m_memory[k].span, data, element_bytes,
                                     span))
                        {
                            return true;
                        }
                    }
                    return false;
                }

            private:
                struct operand_memory
                {
                    const T* data = nullptr;
                    memory_span span;
                };

                template <std::size_t K>
                void find_memory() const
                {
                    with_memory<T>(
                        std::get<K>(m_operands),
                        [&](const T* data, const auto& shape, const view_strides_type& strides,
                            std::size_t offset)
                        {
                            m_sources[K] =
                                make_reindex_source(data, shape, strides, offset, m_how[K], m_fill[K]);
                            m_memory[K] = operand_memory{data + offset, span_of(shape, strides)};
                        },
                        &m_evaluated[K]);
                }

                void prepare() const
                {
                    std::call_once(m_prepared,
                                   [this]
                                   {
                                       find_memory<0>();
                                       if constexpr (arity == 2)
                                       {
                                           find_memory<1>();
                                           m_segments = joined_segments(m_sources[0], m_sources[1]);
                                       }
                                   });
                }

                std::tuple<kept_operand_t<Operands>...> m_operands;
                std::array<operand_alignment, arity> m_how;
                std::array<T, arity> m_fill;
                mutable std::once_flag m_prepared;
                mutable std::array<xt::xarray<T, xt::layout_type::row_major>, arity> m_evaluated;
                mutable std::array<reindex_source<T>, arity> m_sources;
                mutable std::array<operand_memory, arity> m_memory;
                mutable std::vector<joined_segment> m_segments;
            };

            /// A read-only row-major view of the deferred values of `evaluation`, of `shape`.
            template <class T, class Evaluation>
            inline auto deferred_reindexed_view(view_shape_type shape,
                                                std::unique_ptr<const Evaluation> evaluation)
            {
                auto state = std::make_shared<const deferred_state<T>>(shape, std::move(evaluation));
                view_strides_type strides(shape.size());
                xt::compute_strides(shape, xt::layout_type::row_major, strides);
                return reindexed_view_of<T>(std::move(state), std::move(shape), std::move(strides), 0);
            }

            /// Operand `e` (an xtensor expression) aligned through `how`, as a reindexed view: of its own
            /// memory where it has memory and needs no reindex, else of a deferred temporary.
            template <class T, class E>
            inline reindexed_view_t<T> aligned_operand(E&& e, const operand_alignment& how, const T& fill)
            {
                using expression_type = std::decay_t<E>;
                if constexpr (xt::has_data_interface<expression_type>::value)
                {
                    if (!how.reindexes)
                    {
                        view_shape_type shape(e.shape().begin(), e.shape().end());
                        if constexpr (std::is_lvalue_reference<E>::value)
                        {
                            return reindexed_view<T>(e.data(), e.storage().size(), nullptr, std::move(shape),
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
                            return reindexed_view<T>(data, size, std::move(held), std::move(shape),
                                                     std::move(strides), offset);
                        }
                    }
                }
                view_shape_type shape = aligned_shape_of(e.shape(), how);
                return deferred_reindexed_view<T>(std::move(shape),
                                                  std::make_unique<const deferred_alignment<T, void, E&&>>(
                                                      std::array<const operand_alignment*, 1>{&how},
                                                      std::array<T, 1>{fill}, std::forward<E>(e)));
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

            /// One argument of an operation after alignment: a named operand as a named reindexed view.
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
                    return xnamed<reindexed_view_t<value_type>, typename named_type::strategy_type>(
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

            /// The label rules of the first named operand among `args` that carries labels; nullptr where
            /// none does.
            template <class... A>
            inline const label_rules* first_label_rules(const A&... args) noexcept
            {
                const label_rules* found = nullptr;
                (
                    [&]
                    {
                        if constexpr (is_named_expression_v<A>)
                        {
                            if (found == nullptr && !args.coords().empty())
                            {
                                found = label_rules_of(args.coords());
                            }
                        }
                    }(),
                    ...);
                return found;
            }

            /// The right identity of an arithmetic functor of xtensor: f(x, identity) is x, bit for bit, for
            /// every x (for + it is -0.0, since -0.0 + 0.0 is 0.0).
            template <class F>
            struct right_identity
            {
                static constexpr bool exists = false;
            };

            template <>
            struct right_identity<xt::detail::plus>
            {
                static constexpr bool exists = true;
                static constexpr double value = -0.0;
            };

            template <>
            struct right_identity<xt::detail::minus>
            {
                static constexpr bool exists = true;
                static constexpr double value = 0.0;
            };

            template <>
            struct right_identity<xt::detail::multiplies>
            {
                static constexpr bool exists = true;
                static constexpr double value = 1.0;
            };

            template <>
            struct right_identity<xt::detail::divides>
            {
                static constexpr bool exists = true;
                static constexpr double value = 1.0;
            };

            /// The functor of an xtensor function type, void for any other expression.
            template <class X>
            struct functor_of_expression
            {
                using type = void;
            };

            template <class F, class... CT>
            struct functor_of_expression<xt::xfunction<F, CT...>>
            {
                using type = F;
            };

            /// The functor of the xtensor function that `Make` builds from two aligned operands of element
            /// type T (void where it builds no xtensor function).
            template <class Make, class T>
            using made_functor_t = typename functor_of_expression<std::decay_t<decltype(std::declval<Make&>()(
                std::declval<reindexed_view_t<T>>(), std::declval<reindexed_view_t<T>>()))>>::type;

            template <class Make, class A, class B>
            constexpr bool joins_pair_in_one_pass() noexcept
            {
                using T = typename std::decay_t<A>::value_type;
                if constexpr (std::is_same<T, typename std::decay_t<B>::value_type>::value &&
                              std::is_arithmetic<T>::value && !std::is_same<T, bool>::value)
                {
                    using functor = made_functor_t<Make, T>;
                    if constexpr (right_identity<functor>::exists)
                    {
                        return std::is_same<decltype(std::declval<const functor&>()(T(), T())), T>::value;
                    }
                    else
                    {
                        return false;
                    }
                }
                else
                {
                    return false;
                }
            }

            /**
             * Whether f(a, b), f the xtensor function that `Make` builds (void: none), can be computed while
             * the labels are joined (see joined_arguments): f is + - * /, and a and b are named operands of
             * one arithmetic type that f keeps (an int8 + int8 is an int).
             */
            template <class Make, class... A>
            constexpr bool joins_in_one_pass() noexcept
            {
                if constexpr (!std::is_void<Make>::value && sizeof...(A) == 2 &&
                              (is_named_expression_v<A> && ...))
                {
                    return joins_pair_in_one_pass<Make, A...>();
                }
                else
                {
                    return false;
                }
            }

            /**
             * The two operands of f(a, b) after alignment, with f(a, b) computed in one pass as the labels
             * are joined, instead of each operand being reindexed into a buffer of its own that every later
             * read of the result would read again (an outer join followed by a reduction reads it twice).
             * The result type of an operation cannot depend on the labels seen at run time, so the result is
             * carried as f(joined, identity): the first operand is the joined values, the second a
             * broadcast identity of f, and f(x, identity) is x bit for bit. For operands with the same dims
             * and aligned shape, which every broadcasting strategy lines up position by position. The joined
             * values are a deferred temporary (detail/kernels/xdeferred.hpp): computed when first read, by
             * the kernels a block of rows at a time with the rows of the operations that read them.
             */
            template <class Make, class Fill, class A, class B>
            inline auto joined_arguments(std::string_view operation, const Fill& fill,
                                         const std::vector<operand_alignment>& how, A&& a, B&& b)
            {
                using left_type = std::decay_t<A>;
                using right_type = std::decay_t<B>;
                using T = typename left_type::value_type;
                using Functor = made_functor_t<Make, T>;
                using left_named = xnamed<reindexed_view_t<T>, typename left_type::strategy_type>;
                using right_named = xnamed<reindexed_view_t<T>, typename right_type::strategy_type>;
                const T left_fill = how[0].has_missing ? fill_value<T>(operation, fill, how[0]) : T();
                const T right_fill = how[1].has_missing ? fill_value<T>(operation, fill, how[1]) : T();
                typename left_type::metadata_type left_metadata{a.dims(), how[0].labels};
                typename right_type::metadata_type right_metadata{b.dims(), how[1].labels};
                view_shape_type shape = aligned_shape_of(a.shape(), how[0]);
                check_extent(operation, "the joined operands", shape, sizeof(T));
                using left_expression = decltype(std::forward<A>(a).expression());
                using right_expression = decltype(std::forward<B>(b).expression());
                auto joined = deferred_reindexed_view<T>(
                    shape,
                    std::make_unique<const deferred_alignment<T, Functor, left_expression, right_expression>>(
                        std::array<const operand_alignment*, 2>{&how[0], &how[1]},
                        std::array<T, 2>{left_fill, right_fill}, std::forward<A>(a).expression(),
                        std::forward<B>(b).expression()));
                auto identity = std::make_shared<const T>(static_cast<T>(right_identity<Functor>::value));
                const T* identity_data = identity.get();
                view_strides_type no_strides(shape.size(), 0);
                auto carried = reindexed_view<T>(identity_data, 1, std::move(identity), std::move(shape),
                                                 std::move(no_strides), 0);
                return std::tuple<left_named, right_named>(
                    left_named(std::move(joined), std::move(left_metadata)),
                    right_named(std::move(carried), std::move(right_metadata)));
            }

            /// Whether the aligned operands a and b of f(a, b) are computed while joined (joined_arguments):
            /// one of them reindexes, and they have the same dims and aligned shape.
            template <class A, class B>
            inline bool join_at_once(const std::vector<operand_alignment>& how, const A& a, const B& b)
            {
                if ((!how[0].reindexes && !how[1].reindexes) || !(a.dims() == b.dims()))
                {
                    return false;
                }
                const auto aligned_size = [&how](std::size_t k, const auto& shape, std::size_t j)
                { return how[k].maps[j] ? how[k].maps[j]->size() : static_cast<std::size_t>(shape[j]); };
                for (std::size_t j = 0; j < a.dimension(); ++j)
                {
                    if (aligned_size(0, a.shape(), j) != aligned_size(1, b.shape(), j))
                    {
                        return false;
                    }
                }
                return true;
            }

            template <class Shaping, class Make, class Fill, class... A>
            inline auto align_operands(std::string_view operation, const Fill& fill, A&&... args)
            {
                if constexpr (std::is_same<Shaping, join_exact>::value)
                {
                    // Equal labels: nothing to reindex, the operands go on as they are. Without labels
                    // there is nothing to check either, and most operations have none.
                    if (const label_rules* rules = first_label_rules(args...))
                    {
                        rules->check_equal(operation, sizeof...(A),
                                           labelled_operands(std::index_sequence_for<A...>{}, args...));
                    }
                    return std::forward_as_tuple(std::forward<A>(args)...);
                }
                else
                {
                    const auto how = align_operand_labels<Shaping>(
                        operation, sizeof...(A), labelled_operands(std::index_sequence_for<A...>{}, args...));
                    check_fill_values<A...>(operation, fill, how);
                    if constexpr (joins_in_one_pass<Make, A...>())
                    {
                        if (join_at_once(how, args...))
                        {
                            return joined_arguments<Make>(operation, fill, how, std::forward<A>(args)...);
                        }
                    }
                    return aligned_arguments(operation, fill, how, std::index_sequence_for<A...>{},
                                             std::forward<A>(args)...);
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
