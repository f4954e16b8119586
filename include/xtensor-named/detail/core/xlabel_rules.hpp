/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XLABEL_RULES_HPP
#define XTENSOR_NAMED_DETAIL_XLABEL_RULES_HPP

// What operations do with labels under the default shaping strategy (join_exact): an operation checks
// that the labels meeting on an axis are equal and gives its result the labels of the axes that land on
// it, a view keeps the labels of the axes it keeps, and an assignment checks that the output keeps its
// labels. Operations reach these rules through the labels themselves (xn::coords keeps a pointer to
// them, set where labels are given to an axis), so that only a unit that gives labels compiles them, and
// a unit without labels, most of them, compiles none.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../xcoords.hpp"
#include "../../xdims.hpp"
#include "../../xerrors.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// What the label rules see of one named operand: its place among the arguments (for messages),
            /// names, labels and sizes. Plain operands have no named axis, so no axis of theirs meets labels.
            struct labelled_operand
            {
                std::size_t argument;
                const named::dims* names;
                const coords* labels;
                std::vector<std::size_t> shape;
            };

            /// An operand of an elementwise result: its names and labels (nullptr for a plain expression),
            /// and for each result axis the operand's axis that lands there (negative, xn::no_axis, where
            /// none does).
            struct landing_operand
            {
                const named::dims* names;
                const coords* labels;
                const std::int64_t* from;
            };

            /// The label rules, one pointer per rule; see the top of this file.
            struct label_rules
            {
                /// Throws xn::shape_error where two operands bring different labels to an axis, or where an
                /// operand without labels for an axis has another size than the labels (`arguments` is how
                /// many arguments the operation has).
                void (*check_equal)(std::string_view operation, std::size_t arguments,
                                    const std::vector<labelled_operand>& operands);

                /// The labels of an elementwise result of `shape` (one size per name of `names`): each axis
                /// takes the labels of the operands' axes that land on it, equal once checked; a labelled
                /// axis is never stretched (xn::shape_error).
                coords (*combine)(std::string_view operation, const named::dims& names,
                                  const std::size_t* shape, const landing_operand* operands,
                                  std::size_t count);

                /// The labels of a view of `source`: result axis i, named `names[i]` (`count` of them), takes
                /// the labels of axis `from[i]` of the source (shared, not copied); a new axis (negative,
                /// xn::no_axis) or an unnamed one has none.
                coords (*select)(const named::dims& source_names, const coords& source,
                                 const std::int64_t* from, std::size_t count, const named::dims& names);

                /// Throws xn::shape_error unless the labels of the output still name its elements after an
                /// assignment of an expression of `shape` (xevaluate.hpp, check_assigned_labels).
                void (*check_output)(const named::dims& out_names, const coords& out_labels,
                                     const named::dims& names, const coords& labels,
                                     const std::size_t* shape);
            };

            /// "the left operand" of two, "operand 2" of more.
            std::string describe_operand(std::size_t arguments, std::size_t n);

            /// "axis 'x' (axis 0 of the left operand, axis 1 of the right operand)"; operands are counted
            /// among the `arguments` of the operation.
            std::string describe_meeting(std::string_view axis, std::size_t arguments, std::size_t k,
                                         std::size_t axis_k, std::size_t m, std::size_t axis_m);

            /// The messages of two lists that do not align: labels of different types, or lists that the
            /// shaping strategy refuses to align. `prefix` names the axis ("" or "axis 'x' (...): ").
            [[noreturn]] void throw_label_types_differ(std::string_view operation, std::string_view prefix,
                                                       const labels& a, const labels& b);
            [[noreturn]] void throw_labels_not_aligned(std::string_view operation, std::string_view prefix,
                                                       const labels& a, const labels& b);

            /// The message of an operand without labels for an axis (its axis `j`) whose size differs from
            /// the `aligned` labels that the operand `first` (its axis `first_axis`) brings.
            [[noreturn]] void throw_unlabelled_size(std::string_view operation, std::string_view axis,
                                                    std::size_t arguments, const labelled_operand& first,
                                                    std::size_t first_axis, const labelled_operand& other,
                                                    std::size_t j, const labels& aligned);

            /// The named axes of `operands`, each once, in the order the operands show them.
            std::vector<std::string> meeting_axes(const std::vector<labelled_operand>& operands);

            void check_equal_labels(std::string_view operation, std::size_t arguments,
                                    const std::vector<labelled_operand>& operands);
            coords combine_labels(std::string_view operation, const named::dims& names,
                                  const std::size_t* shape, const landing_operand* operands,
                                  std::size_t count);
            coords select_labels(const named::dims& source_names, const coords& source,
                                 const std::int64_t* from, std::size_t count, const named::dims& names);
            void check_output_labels(const named::dims& out_names, const coords& out_labels,
                                     const named::dims& names, const coords& labels,
                                     const std::size_t* shape);

            /*****************************************
             * implementation of the label rules  *
             *****************************************/

            inline std::string describe_operand(std::size_t arguments, std::size_t n)
            {
                if (arguments == 2)
                {
                    return n == 0 ? "the left operand" : "the right operand";
                }
                return concat("operand ", n);
            }

            inline std::string describe_meeting(std::string_view axis, std::size_t arguments, std::size_t k,
                                                std::size_t axis_k, std::size_t m, std::size_t axis_m)
            {
                return concat("axis ", detail::quoted(axis), " (axis ", axis_k, " of ",
                              describe_operand(arguments, k), ", axis ", axis_m, " of ",
                              describe_operand(arguments, m), ")");
            }

            inline void throw_label_types_differ(std::string_view operation, std::string_view prefix,
                                                 const labels& a, const labels& b)
            {
                throw_shape_error(
                    operation, prefix, "the left labels ", format_labels(a), " and the right labels ",
                    format_labels(b), " have different types (left label ", format_label(a.front()),
                    " at position 0 is ", label_kind(a.front()), ", right label ", format_label(b.front()),
                    " at position 0 is ", label_kind(b.front()), "): the labels of one axis have one type");
            }

            inline void throw_labels_not_aligned(std::string_view operation, std::string_view prefix,
                                                 const labels& a, const labels& b)
            {
                throw_shape_error(operation, prefix, "the left labels ", format_labels(a), " (", a.size(),
                                  " labels) and the right labels ", format_labels(b), " (", b.size(),
                                  " labels) differ, and the shaping strategy does not align them"
                                  " (xn::join_exact, the default, needs equal labels: choose"
                                  " xn::join_inner, xn::join_outer, xn::join_left or xn::join_right)");
            }

            inline void throw_unlabelled_size(std::string_view operation, std::string_view axis,
                                              std::size_t arguments, const labelled_operand& first,
                                              std::size_t first_axis, const labelled_operand& other,
                                              std::size_t j, const labels& aligned)
            {
                throw_shape_error(
                    operation,
                    describe_meeting(axis, arguments, first.argument, first_axis, other.argument, j),
                    ": the axis has ", aligned.size(), " labels ", format_labels(aligned), " but size ",
                    other.shape[j],
                    " where it has no labels: an axis without labels takes the labels "
                    "it meets only at their size");
            }

            inline std::vector<std::string> meeting_axes(const std::vector<labelled_operand>& operands)
            {
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
                return axes;
            }

            inline void check_equal_labels(std::string_view operation, std::size_t arguments,
                                           const std::vector<labelled_operand>& operands)
            {
                for (const auto& axis : meeting_axes(operands))
                {
                    // The first operand that labels the axis sets the labels that the others must have.
                    const labelled_operand* first = nullptr;
                    std::size_t first_axis = 0;
                    for (const auto& op : operands)
                    {
                        const auto j = op.names->index_of(axis);
                        const labels* own = j < 0 ? nullptr : op.labels->find(axis);
                        if (own == nullptr)
                        {
                            continue;
                        }
                        if (first == nullptr)
                        {
                            first = &op;
                            first_axis = static_cast<std::size_t>(j);
                            continue;
                        }
                        const labels& expected = first->labels->at(axis);
                        if (!same_labels(expected, *own))
                        {
                            const std::string prefix =
                                concat(describe_meeting(axis, arguments, first->argument, first_axis,
                                                        op.argument, static_cast<std::size_t>(j)),
                                       ": ");
                            if (!expected.empty() && !own->empty() &&
                                expected.front().index() != own->front().index())
                            {
                                throw_label_types_differ(operation, prefix, expected, *own);
                            }
                            throw_labels_not_aligned(operation, prefix, expected, *own);
                        }
                    }
                    if (first == nullptr)
                    {
                        continue;
                    }
                    const labels& expected = first->labels->at(axis);
                    for (const auto& op : operands)
                    {
                        const auto j = op.names->index_of(axis);
                        if (j >= 0 && !op.labels->has(axis) &&
                            op.shape[static_cast<std::size_t>(j)] != expected.size())
                        {
                            throw_unlabelled_size(operation, axis, arguments, *first, first_axis, op,
                                                  static_cast<std::size_t>(j), expected);
                        }
                    }
                }
            }

            inline coords combine_labels(std::string_view operation, const named::dims& names,
                                         const std::size_t* shape, const landing_operand* operands,
                                         std::size_t count)
            {
                coords result;
                for (std::size_t i = 0; i < names.size(); ++i)
                {
                    if (!names.is_named(i))
                    {
                        continue;
                    }
                    for (std::size_t k = 0; k < count; ++k)
                    {
                        if (operands[k].labels == nullptr || operands[k].from[i] < 0)
                        {
                            continue;
                        }
                        const auto axis = static_cast<std::size_t>(operands[k].from[i]);
                        const auto& operand_axis = (*operands[k].names)[axis];
                        const labels* own = operands[k].labels->find(operand_axis);
                        if (own == nullptr)
                        {
                            continue;
                        }
                        // Operands meet after alignment by label: the labels of one result axis are equal.
                        if (result.has(names[i]))
                        {
                            continue;
                        }
                        if (own->size() != shape[i])
                        {
                            throw_shape_error(operation, describe_axis(names, i), " of the result has size ",
                                              shape[i], " but operand ", k, " brings ", own->size(),
                                              " labels ", format_labels(*own),
                                              ": a labelled axis is not stretched");
                        }
                        result.set(names[i], *operands[k].labels, operand_axis);
                    }
                }
                return result;
            }

            inline coords select_labels(const named::dims& source_names, const coords& source,
                                        const std::int64_t* from, std::size_t count, const named::dims& names)
            {
                coords result;
                for (std::size_t i = 0; i < count; ++i)
                {
                    if (from[i] < 0 || !names.is_named(i))
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

            inline void check_output_labels(const named::dims& out_names, const coords& out_labels,
                                            const named::dims& names, const coords& labels,
                                            const std::size_t* shape)
            {
                for (std::size_t i = 0; i < out_names.size(); ++i)
                {
                    const named::labels* kept =
                        out_names.is_named(i) ? out_labels.find(out_names[i]) : nullptr;
                    if (kept == nullptr)
                    {
                        continue;
                    }
                    const auto j = names.index_of(out_names[i]);
                    if (j < 0)
                    {
                        continue; // assignment_order refuses the missing axis by name.
                    }
                    if (const named::labels* given = labels.find(out_names[i]))
                    {
                        if (!same_labels(*kept, *given))
                        {
                            throw_shape_error("assign", "the output's ", describe_axis(out_names, i),
                                              " has the labels ", format_labels(*kept),
                                              ", and the expression's has ", format_labels(*given),
                                              "; select the output's labels first (e.sel), or align both "
                                              "with a join (xn::align)");
                        }
                    }
                    else if (shape[static_cast<std::size_t>(j)] != kept->size())
                    {
                        throw_shape_error("assign", "the output's ", describe_axis(out_names, i), " has ",
                                          kept->size(), " labels, and the expression has ",
                                          shape[static_cast<std::size_t>(j)], " elements there");
                    }
                }
            }

            inline const label_rules* exact_label_rules() noexcept
            {
                static constexpr label_rules rules{&check_equal_labels, &combine_labels, &select_labels,
                                                   &check_output_labels};
                return &rules;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
