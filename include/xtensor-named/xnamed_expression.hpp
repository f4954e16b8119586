/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XNAMED_EXPRESSION_HPP
#define XTENSOR_NAMED_XNAMED_EXPRESSION_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xbroadcast_plan.hpp"
#include "xcompat_xtensor.hpp"
#include "xcoords.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xpartial_shape.hpp"
#include "xstrategies.hpp"
#include "detail/core/xextent.hpp"
#include "detail/core/xlabel_rules.hpp"
#include "detail/expression/xaligned_view.hpp"
#include "detail/expression/xcoords_axes.hpp"

namespace xt
{
    namespace named
    {
        template <class CT, class S>
        class xnamed;

        /// Whether `T` (cv- and reference-qualifiers aside) is a named expression, an xn::xnamed.
        template <class T>
        struct is_named_expression;

        template <class T>
        inline constexpr bool is_named_expression_v = is_named_expression<T>::value;

        /// The `"..."` of align_to and transpose: the axes a list does not mention, in their order.
        inline constexpr std::string_view other_axes = "...";

        /**
         * Names the axes of an xtensor expression. `e` is kept as xtensor keeps its operands: an lvalue by
         * reference, an rvalue by value. `S` is the broadcasting strategy of the operators on the result.
         * @code
         * xt::xarray<double> pixels = xt::zeros<double>({10, 3, 256, 384});
         * auto img = xn::name(pixels, {"?", "channel", "h", "w"});   // refers to pixels
         * xt::xarray<int> labels = xt::zeros<int>({10, 256, 384});
         * auto lbl = xn::name<xn::name_match>(std::move(labels), {"?", "h", "w"});  // owns the labels
         * img.size("h");  // 256
         * @endcode
         */
        template <class S = missing_dims, class E>
        auto name(E&& e, named::dims names);

        /**
         * Names the axes of `e` and gives some of them coordinate labels: each labelled axis must
         * be a named axis of `names`, with one label per position (else xn::shape_error).
         * @code
         * auto temp = xn::name(values, {"sensor", "t"}, {{"sensor", {"x1", "x2"}}, {"t", {10, 20, 30}}});
         * temp.coords().at("t");  // [10, 20, 30]
         * @endcode
         */
        template <class S = missing_dims, class E>
        auto name(E&& e, named::dims names, named::coords labels);

        /// The named expression `e` with the coordinate labels `labels` in place of its own, checked as
        /// xn::name checks them; like rename, a view of `e`.
        template <class E>
        auto with_coords(E&& e, named::coords labels);

        namespace detail
        {
            /**
             * What a named expression knows of its axes besides the xtensor shape. Every operation builds
             * its result's axes through `select_axes` or `combine_axes`, so that what an axis carries can
             * grow (coordinates) in these places only.
             */
            struct axes_metadata
            {
                named::dims names;
                named::coords coords{};
            };

            /// Tells xn::xnamed's constructor to build its expression in place, from a function's result.
            struct built_in_place_t
            {
            };

            inline constexpr built_in_place_t built_in_place{};

            /// Result axis i is axis `from[i]` of `source`, or a new axis where `from[i]` is xn::unknown;
            /// `names` are the result's names.
            axes_metadata select_axes(const axes_metadata& source, const axis_map& from, named::dims names);

            /// The result of a planned operation: `names` and `shape` from the plan, and for each operand its
            /// metadata (nullptr for a plain xtensor expression) and where its axes land (`Metadata` and
            /// `Maps` are lists of these, one entry per operand).
            template <class Metadata, class Maps>
            axes_metadata combine_axes(std::string_view operation, named::dims names,
                                       const view_shape_type& shape, const Metadata& operands,
                                       const Maps& from);

            /// `names` as dims; a name error says which operation made them.
            named::dims dims_for(std::string_view operation, std::vector<std::string> names);

            /// The axis named `name` in `names`, or an xn::name_error for `operation` listing `names`.
            std::size_t axis_of(std::string_view operation, const named::dims& names, std::string_view name);

            /// Where each result axis of align_to (new names allowed) or transpose comes from, and its name.
            struct alignment
            {
                axis_map from;
                named::dims names;
            };

            alignment align_axes(std::string_view operation, const named::dims& names,
                                 const std::vector<std::string>& target, bool insert_new);

            /// The pairs of rename applied at once; xn::name_error on an unknown, unnamed or repeated source.
            named::dims renamed(const named::dims& names,
                                const std::vector<std::pair<std::string, std::string>>& mapping);

            /// `names` with the "?" axes filled from `refined`; xn::name_error on a conflict.
            named::dims refined(const named::dims& names, const std::vector<std::string>& refined);

            template <class CT>
            using expression_reference_t = std::add_lvalue_reference_t<std::remove_reference_t<CT>>;

            template <class CT>
            using expression_rvalue_t =
                std::conditional_t<std::is_reference<CT>::value, CT, std::decay_t<CT>&&>;
        } // namespace detail

        /**
         * An xtensor expression with named axes: made by xn::name, by the operators and functions
         * of this library, and by the views below. `CT` is the closure type of the wrapped expression (a
         * reference for an lvalue, a value for an rvalue, as xtensor's xclosure_t); `S` is the broadcasting
         * strategy its operators use. Views (rename, refine_names, align_to, transpose) are lazy: they
         * refer to this expression when called on an lvalue and take it over when called on an rvalue.
         */
        template <class CT, class S>
        class xnamed
        {
        public:

            using closure_type = CT;
            using expression_type = std::decay_t<CT>;
            using strategy_type = S;
            using value_type = typename expression_type::value_type;
            using shape_type = typename expression_type::shape_type;
            using size_type = std::size_t;
            using metadata_type = detail::axes_metadata;

            static_assert(xt::is_xexpression<expression_type>::value,
                          "xn::xnamed: the wrapped type must be an xtensor expression.");
            XTENSOR_NAMED_REQUIRE_STRATEGY(S, "xn::xnamed");

            /// Wraps `e` (forwarded into the closure); the rank of `e` must equal the number of names.
            template <class E>
            xnamed(E&& e, named::dims names);

            /// Wraps `e` with the axes an operation computed for it.
            template <class E>
            xnamed(E&& e, metadata_type metadata);

            /// Wraps the expression that `build()` returns, made in place: an operation's tree of views is
            /// not moved once more.
            template <class F>
            xnamed(detail::built_in_place_t, F&& build, metadata_type metadata);

            const named::dims& dims() const noexcept;

            /// The xtensor shape of the expression.
            decltype(auto) shape() const;
            size_type dimension() const noexcept;

            /// The wrapped xtensor expression, usable anywhere xtensor takes one.
            detail::expression_reference_t<CT> expression() & noexcept;
            const expression_type& expression() const& noexcept;
            detail::expression_rvalue_t<CT> expression() && noexcept;

            /// The position of the axis named `name`; xn::name_error (listing the dims) when there is none.
            size_type axis(std::string_view name) const;

            /// The size of the axis named `name`.
            size_type size(std::string_view name) const;

            /// The same expression with some axes renamed: `rename({{"h", "height"}})`.
            auto rename(const std::vector<std::pair<std::string, std::string>>& mapping) &;
            auto rename(const std::vector<std::pair<std::string, std::string>>& mapping) const&;
            auto rename(const std::vector<std::pair<std::string, std::string>>& mapping) &&;

            /// Names the `"?"` axes: `names[i]` names axis i where it is `"?"`; a named axis keeps its name,
            /// and `names[i]` must then be that name or `"?"`.
            auto refine_names(const detail::name_list& names) &;
            auto refine_names(const detail::name_list& names) const&;
            auto refine_names(const detail::name_list& names) &&;

            /// The axes in the order of `names`, with a size-1 axis for each name this expression lacks;
            /// `"..."` stands for the axes `names` does not mention, in their order, and each `"?"` takes
            /// the next unnamed axis.
            auto align_to(const detail::name_list& names) &;
            auto align_to(const detail::name_list& names) const&;
            auto align_to(const detail::name_list& names) &&;

            /// A permutation of the axes by names (`"?"` and `"..."` as in align_to); no names reverses them.
            auto transpose(const detail::name_list& names) &;
            auto transpose(const detail::name_list& names) const&;
            auto transpose(const detail::name_list& names) &&;
            auto transpose() &;
            auto transpose() const&;
            auto transpose() &&;

            /// PyTorch's align_as: align_to(other.dims()).
            template <class E>
            auto align_as(const E& other) &;
            template <class E>
            auto align_as(const E& other) const&;
            template <class E>
            auto align_as(const E& other) &&;

            /// The element at a position, as xtensor's operator() takes it: `t(1, 2)` on a rank-2 `t`.
            template <class... Args>
            decltype(auto) operator()(Args... args);
            template <class... Args>
            decltype(auto) operator()(Args... args) const;

            /// The one element of an expression of one element (numpy's and PyTorch's item()); an
            /// xn::shape_error for any other size. A lazy expression is evaluated first.
            value_type item() const;

            /// The one element, as item(): `double total(xn::eval(xn::sum(t)));`.
            explicit operator value_type() const;

            /// The coordinate labels of the axes that have them: `coords().at("x")`.
            const named::coords& coords() const noexcept;

            /// A view of the positions with the given labels: one label drops its axis, a list keeps it
            /// with those labels in that order, a range (xn::slice) keeps the labels from its start to its
            /// stop, both included, of a sorted axis. A label that the axis lacks is an xn::shape_error.
            /// @code
            /// a.sel({{"x", 20}});                  // x dropped
            /// a.sel({{"x", xn::labels{20, 10}}});  // x kept, labels [20, 10]
            /// a.sel({{"x", xn::slice(10, 30)}});   // x kept, labels from 10 to 30
            /// @endcode
            auto sel(const std::vector<std::pair<std::string, label_selector>>& which) &;
            auto sel(const std::vector<std::pair<std::string, label_selector>>& which) const&;
            auto sel(const std::vector<std::pair<std::string, label_selector>>& which) &&;

            /// A view of the given positions (negative ones count from the end): one position drops its
            /// axis, a list (`xn::index_list{0, 2}`) or a range (`xt::range(0, 2)`, the end excluded, with
            /// a step or not; `xt::all()`) keeps it; labels follow their positions.
            auto isel(const std::vector<std::pair<std::string, index_selector>>& which) &;
            auto isel(const std::vector<std::pair<std::string, index_selector>>& which) const&;
            auto isel(const std::vector<std::pair<std::string, index_selector>>& which) &&;

            /// What the axes carry besides their sizes: the names and the coordinate labels.
            const metadata_type& metadata() const noexcept;

        private:

            template <class Self>
            static auto selected(Self&& self, detail::selection how);

            template <class Self>
            static auto renamed_view(Self&& self, named::dims names);

            template <class Self>
            static auto aligned(Self&& self, const std::vector<std::string>& names, bool insert_new);

            template <class Self>
            static auto reversed(Self&& self);

            void check_rank(std::string_view operation) const;

            CT m_expression;
            metadata_type m_metadata;
        };

        /// Prints the axes with their sizes, as xarray's repr, `(y: 2, x: 3)`; then the values as xtensor
        /// prints them; then the labels of the axes that have them, one axis a line.
        template <class CT, class S>
        std::ostream& operator<<(std::ostream& out, const xnamed<CT, S>& e);

        /// A shape as the library's messages write it: `(2, 3, 4)`; `()` for a scalar.
        template <class Shape>
        std::string shape_to_string(const Shape& shape);

        /// The axes of a named expression with their sizes, as xarray's `Dimensions:`: `(n: 16, c: 3)`.
        template <class CT, class S>
        std::string sizes_to_string(const xnamed<CT, S>& e);

        /*****************************************
         * implementation of is_named_expression *
         *****************************************/

        namespace detail
        {
            template <class T>
            struct is_named_expression_impl : std::false_type
            {
            };

            template <class CT, class S>
            struct is_named_expression_impl<xnamed<CT, S>> : std::true_type
            {
            };
        } // namespace detail

        template <class T>
        struct is_named_expression : detail::is_named_expression_impl<std::decay_t<T>>
        {
        };

        /************************************
         * implementation of the helpers    *
         ************************************/

        namespace detail
        {
            inline axes_metadata select_axes(const axes_metadata& source, const axis_map& from,
                                             named::dims names)
            {
                // Most sources have no labels; those that have reach the rule through them.
                const label_rules* rules = label_rules_of(source.coords);
                auto labels = rules == nullptr ? named::coords()
                                               : rules->select(source.names, source.coords, from.data(),
                                                               from.size(), names);
                return axes_metadata{std::move(names), std::move(labels)};
            }

            template <class Metadata, class Maps>
            inline axes_metadata combine_axes(std::string_view operation, named::dims names,
                                              const view_shape_type& shape, const Metadata& operands,
                                              const Maps& from)
            {
                // Without labels there is nothing to combine, and most operations have none.
                std::array<landing_operand, std::tuple_size<Metadata>::value> landing{};
                const label_rules* rules = nullptr;
                for (std::size_t k = 0; k < landing.size(); ++k)
                {
                    if (operands[k] != nullptr)
                    {
                        landing[k] =
                            landing_operand{&operands[k]->names, &operands[k]->coords, from[k].data()};
                        rules = rules != nullptr ? rules : label_rules_of(operands[k]->coords);
                    }
                }
                if (rules == nullptr)
                {
                    return axes_metadata{std::move(names), named::coords()};
                }
                auto labels = rules->combine(operation, names, shape.data(), landing.data(), landing.size());
                return axes_metadata{std::move(names), std::move(labels)};
            }

            inline named::dims dims_for(std::string_view operation, std::vector<std::string> names)
            {
                // The one check of names lives in xn::dims; this only adds the operation to its message.
                return rethrow_within<name_error>(operation, [&] { return named::dims(std::move(names)); });
            }

            inline std::size_t axis_of(std::string_view operation, const named::dims& names,
                                       std::string_view name)
            {
                if (name == unnamed_axis)
                {
                    throw_name_error(operation, "'?' names no axis of ", names.to_string(),
                                     ": an unnamed axis has no name to find it by");
                }
                const auto index = names.index_of(name);
                if (index < 0)
                {
                    throw_name_error(operation, "no axis ", detail::quoted(name), " in ", names.to_string());
                }
                return static_cast<std::size_t>(index);
            }

            inline alignment align_axes(std::string_view operation, const named::dims& names,
                                        const std::vector<std::string>& target, bool insert_new)
            {
                // First pass: which axes the list mentions, by name or as the next "?".
                std::vector<bool> mentioned(names.size(), false);
                std::vector<std::int64_t> source(target.size(), named::no_axis);
                std::size_t next_unnamed = 0;
                std::ptrdiff_t ellipsis = -1;
                for (std::size_t t = 0; t < target.size(); ++t)
                {
                    const std::string& wanted = target[t];
                    if (wanted == other_axes)
                    {
                        if (ellipsis >= 0)
                        {
                            throw_name_error(operation, "'...' appears twice, at positions ", ellipsis,
                                             " and ", t);
                        }
                        ellipsis = static_cast<std::ptrdiff_t>(t);
                        continue;
                    }
                    check_axis_name(operation, wanted);
                    if (wanted == unnamed_axis)
                    {
                        while (next_unnamed < names.size() && names.is_named(next_unnamed))
                        {
                            ++next_unnamed;
                        }
                        if (next_unnamed == names.size())
                        {
                            throw_name_error(operation, "'?' at position ", t,
                                             " of the list has no unnamed axis left in ", names.to_string());
                        }
                        source[t] = static_cast<std::int64_t>(next_unnamed);
                        mentioned[next_unnamed++] = true;
                        continue;
                    }
                    for (std::size_t u = 0; u < t; ++u)
                    {
                        if (target[u] == wanted)
                        {
                            throw_name_error(operation, "name ", detail::quoted(wanted),
                                             " appears twice in the list, at positions ", u, " and ", t);
                        }
                    }
                    const auto index = names.index_of(wanted);
                    if (index >= 0)
                    {
                        source[t] = index;
                        mentioned[static_cast<std::size_t>(index)] = true;
                    }
                    else if (!insert_new)
                    {
                        throw_name_error(operation, "no axis ", detail::quoted(wanted), " in ",
                                         names.to_string());
                    }
                }
                if (ellipsis < 0)
                {
                    for (std::size_t i = 0; i < names.size(); ++i)
                    {
                        if (!mentioned[i])
                        {
                            throw_name_error(operation, describe_axis(names, i),
                                             " is not in the list and the list has no '...' for it");
                        }
                    }
                }
                // Second pass: the result, "..." expanded to the axes the list does not mention.
                alignment result;
                std::vector<std::string> result_names;
                for (std::size_t t = 0; t < target.size(); ++t)
                {
                    if (static_cast<std::ptrdiff_t>(t) == ellipsis)
                    {
                        for (std::size_t i = 0; i < names.size(); ++i)
                        {
                            if (!mentioned[i])
                            {
                                result.from.push_back(static_cast<std::int64_t>(i));
                                result_names.push_back(names[i]);
                            }
                        }
                        continue;
                    }
                    result.from.push_back(source[t]);
                    result_names.push_back(
                        source[t] == named::no_axis ? target[t] : names[static_cast<std::size_t>(source[t])]);
                }
                result.names = dims_for(operation, std::move(result_names));
                return result;
            }

            inline named::dims renamed(const named::dims& names,
                                       const std::vector<std::pair<std::string, std::string>>& mapping)
            {
                std::vector<std::string> result(names.begin(), names.end());
                std::vector<bool> done(names.size(), false);
                for (const auto& [from, to] : mapping)
                {
                    check_axis_name("rename", to);
                    const std::size_t axis = axis_of("rename", names, from);
                    if (done[axis])
                    {
                        throw_name_error("rename", describe_axis(names, axis), " is renamed twice");
                    }
                    done[axis] = true;
                    result[axis] = to;
                }
                return dims_for("rename", std::move(result));
            }

            /// `list` with its "..." (PyTorch's refine_names and align_to take one) replaced by as many "?"
            /// as make it `rank` long; xn::name_error for a second "..." or a list longer than `rank`.
            inline std::vector<std::string> expand_other_axes(std::string_view operation,
                                                              const std::vector<std::string>& list,
                                                              std::size_t rank)
            {
                std::vector<std::string> result;
                std::ptrdiff_t ellipsis = -1;
                for (std::size_t t = 0; t < list.size(); ++t)
                {
                    if (list[t] != other_axes)
                    {
                        continue;
                    }
                    if (ellipsis >= 0)
                    {
                        throw_name_error(operation, "'...' appears twice, at positions ", ellipsis, " and ",
                                         t);
                    }
                    ellipsis = static_cast<std::ptrdiff_t>(t);
                }
                if (ellipsis < 0)
                {
                    return list;
                }
                if (list.size() - 1 > rank)
                {
                    throw_name_error(operation, list.size() - 1, " names and '...' were given for ", rank,
                                     " axes");
                }
                for (std::size_t t = 0; t < list.size(); ++t)
                {
                    if (static_cast<std::ptrdiff_t>(t) == ellipsis)
                    {
                        result.insert(result.end(), rank - (list.size() - 1), std::string(unnamed_axis));
                    }
                    else
                    {
                        result.push_back(list[t]);
                    }
                }
                return result;
            }

            inline named::dims refined(const named::dims& names, const std::vector<std::string>& given)
            {
                const std::vector<std::string> refined =
                    expand_other_axes("refine_names", given, names.size());
                if (refined.size() != names.size())
                {
                    throw_name_error("refine_names", names.to_string(), " has ", names.size(), " axes, but ",
                                     refined.size(), " names were given");
                }
                std::vector<std::string> result(names.begin(), names.end());
                for (std::size_t i = 0; i < refined.size(); ++i)
                {
                    check_axis_name("refine_names", refined[i]);
                    if (!names.is_named(i))
                    {
                        result[i] = refined[i];
                    }
                    else if (refined[i] != unnamed_axis && refined[i] != names[i])
                    {
                        throw_name_error("refine_names", describe_axis(names, i),
                                         " already has a name and cannot become ",
                                         detail::quoted(refined[i]));
                    }
                }
                return dims_for("refine_names", std::move(result));
            }
        } // namespace detail

        /******************************
         * implementation of xnamed   *
         ******************************/

        template <class CT, class S>
        template <class E>
        inline xnamed<CT, S>::xnamed(E&& e, named::dims names)
            : m_expression(std::forward<E>(e)), m_metadata{std::move(names), named::coords()}
        {
            check_rank("name");
        }

        template <class CT, class S>
        template <class E>
        inline xnamed<CT, S>::xnamed(E&& e, metadata_type metadata)
            : m_expression(std::forward<E>(e)), m_metadata(std::move(metadata))
        {
            check_rank("name");
        }

        template <class CT, class S>
        template <class F>
        inline xnamed<CT, S>::xnamed(detail::built_in_place_t, F&& build, metadata_type metadata)
            : m_expression(std::forward<F>(build)()), m_metadata(std::move(metadata))
        {
            check_rank("name");
        }

        template <class CT, class S>
        inline void xnamed<CT, S>::check_rank(std::string_view operation) const
        {
            if (m_metadata.names.size() != m_expression.dimension())
            {
                detail::throw_name_error(operation, "the expression has ", m_expression.dimension(),
                                         " axes, shape ", detail::sizes_string(m_expression.shape()),
                                         ", but ", m_metadata.names.size(), " names were given, ",
                                         m_metadata.names.to_string());
            }
        }

        template <class CT, class S>
        inline const named::dims& xnamed<CT, S>::dims() const noexcept
        {
            return m_metadata.names;
        }

        template <class CT, class S>
        inline decltype(auto) xnamed<CT, S>::shape() const
        {
            return m_expression.shape();
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::dimension() const noexcept -> size_type
        {
            return m_expression.dimension();
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::expression() & noexcept -> detail::expression_reference_t<CT>
        {
            return m_expression;
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::expression() const& noexcept -> const expression_type&
        {
            return m_expression;
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::expression() && noexcept -> detail::expression_rvalue_t<CT>
        {
            return static_cast<detail::expression_rvalue_t<CT>>(m_expression);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::axis(std::string_view name) const -> size_type
        {
            return detail::axis_of("axis", dims(), name);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::size(std::string_view name) const -> size_type
        {
            return static_cast<size_type>(shape()[detail::axis_of("size", dims(), name)]);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::metadata() const noexcept -> const metadata_type&
        {
            return m_metadata;
        }

        template <class CT, class S>
        inline const named::coords& xnamed<CT, S>::coords() const noexcept
        {
            return m_metadata.coords;
        }

        template <class CT, class S>
        template <class Self>
        inline auto xnamed<CT, S>::selected(Self&& self, detail::selection how)
        {
            auto view =
                xt::dynamic_view(std::forward<Self>(self).expression(), detail::dynamic_slices(how.axes));
            metadata_type metadata{std::move(how.names), std::move(how.labels)};
            return xnamed<decltype(view), S>(std::move(view), std::move(metadata));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::sel(const std::vector<std::pair<std::string, label_selector>>& which) &
        {
            return selected(*this, detail::plan_selection("sel", dims(), coords(), which));
        }

        template <class CT, class S>
        inline auto
        xnamed<CT, S>::sel(const std::vector<std::pair<std::string, label_selector>>& which) const&
        {
            return selected(*this, detail::plan_selection("sel", dims(), coords(), which));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::sel(const std::vector<std::pair<std::string, label_selector>>& which) &&
        {
            auto how = detail::plan_selection("sel", dims(), coords(), which);
            return selected(std::move(*this), std::move(how));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::isel(const std::vector<std::pair<std::string, index_selector>>& which) &
        {
            return selected(*this, detail::plan_selection("isel", dims(), coords(), shape(), which));
        }

        template <class CT, class S>
        inline auto
        xnamed<CT, S>::isel(const std::vector<std::pair<std::string, index_selector>>& which) const&
        {
            return selected(*this, detail::plan_selection("isel", dims(), coords(), shape(), which));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::isel(const std::vector<std::pair<std::string, index_selector>>& which) &&
        {
            auto how = detail::plan_selection("isel", dims(), coords(), shape(), which);
            return selected(std::move(*this), std::move(how));
        }

        template <class CT, class S>
        template <class Self>
        inline auto xnamed<CT, S>::renamed_view(Self&& self, named::dims names)
        {
            const auto& metadata = self.metadata();
            auto result_metadata =
                detail::select_axes(metadata, detail::identity_map(metadata.names.size()), std::move(names));
            using closure = xt::xclosure_t<decltype(std::forward<Self>(self).expression())>;
            return xnamed<closure, S>(std::forward<Self>(self).expression(), std::move(result_metadata));
        }

        template <class CT, class S>
        template <class Self>
        inline auto xnamed<CT, S>::aligned(Self&& self, const std::vector<std::string>& names,
                                           bool insert_new)
        {
            const std::string_view operation = insert_new ? "align_to" : "transpose";
            auto how = detail::align_axes(operation, self.dims(), names, insert_new);
            auto result_metadata = detail::select_axes(self.metadata(), how.from, std::move(how.names));
            auto view = detail::aligned_view(std::forward<Self>(self).expression(), how.from);
            return xnamed<decltype(view), S>(std::move(view), std::move(result_metadata));
        }

        template <class CT, class S>
        template <class Self>
        inline auto xnamed<CT, S>::reversed(Self&& self)
        {
            const std::size_t rank = self.dimension();
            detail::axis_map from(rank);
            std::vector<std::string> names(rank);
            for (std::size_t i = 0; i < rank; ++i)
            {
                from[i] = static_cast<std::int64_t>(rank - 1 - i);
                names[i] = self.dims()[rank - 1 - i];
            }
            auto result_metadata = detail::select_axes(self.metadata(), from, named::dims(std::move(names)));
            auto view = detail::aligned_view(std::forward<Self>(self).expression(), from);
            return xnamed<decltype(view), S>(std::move(view), std::move(result_metadata));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::rename(const std::vector<std::pair<std::string, std::string>>& mapping) &
        {
            return renamed_view(*this, detail::renamed(dims(), mapping));
        }

        template <class CT, class S>
        inline auto
        xnamed<CT, S>::rename(const std::vector<std::pair<std::string, std::string>>& mapping) const&
        {
            return renamed_view(*this, detail::renamed(dims(), mapping));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::rename(const std::vector<std::pair<std::string, std::string>>& mapping) &&
        {
            auto names = detail::renamed(dims(), mapping);
            return renamed_view(std::move(*this), std::move(names));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::refine_names(const detail::name_list& names) &
        {
            return renamed_view(*this, detail::refined(dims(), names));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::refine_names(const detail::name_list& names) const&
        {
            return renamed_view(*this, detail::refined(dims(), names));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::refine_names(const detail::name_list& names) &&
        {
            auto result = detail::refined(dims(), names);
            return renamed_view(std::move(*this), std::move(result));
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::align_to(const detail::name_list& names) &
        {
            return aligned(*this, names, true);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::align_to(const detail::name_list& names) const&
        {
            return aligned(*this, names, true);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::align_to(const detail::name_list& names) &&
        {
            return aligned(std::move(*this), names, true);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose(const detail::name_list& names) &
        {
            return aligned(*this, names, false);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose(const detail::name_list& names) const&
        {
            return aligned(*this, names, false);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose(const detail::name_list& names) &&
        {
            return aligned(std::move(*this), names, false);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose() &
        {
            return reversed(*this);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose() const&
        {
            return reversed(*this);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::transpose() &&
        {
            return reversed(std::move(*this));
        }

        template <class CT, class S>
        template <class E>
        inline auto xnamed<CT, S>::align_as(const E& other) &
        {
            static_assert(is_named_expression_v<E>, "xn::align_as: the argument must be a named expression.");
            return align_to(other.dims());
        }

        template <class CT, class S>
        template <class E>
        inline auto xnamed<CT, S>::align_as(const E& other) const&
        {
            static_assert(is_named_expression_v<E>, "xn::align_as: the argument must be a named expression.");
            return align_to(other.dims());
        }

        template <class CT, class S>
        template <class E>
        inline auto xnamed<CT, S>::align_as(const E& other) &&
        {
            static_assert(is_named_expression_v<E>, "xn::align_as: the argument must be a named expression.");
            return std::move(*this).align_to(other.dims());
        }

        template <class CT, class S>
        template <class... Args>
        inline decltype(auto) xnamed<CT, S>::operator()(Args... args)
        {
            return m_expression(args...);
        }

        template <class CT, class S>
        template <class... Args>
        inline decltype(auto) xnamed<CT, S>::operator()(Args... args) const
        {
            return m_expression(args...);
        }

        template <class CT, class S>
        inline auto xnamed<CT, S>::item() const -> value_type
        {
            std::size_t count = 1;
            for (const auto size : shape())
            {
                count *= static_cast<std::size_t>(size);
            }
            if (count != 1)
            {
                detail::throw_shape_error(
                    "item", "the expression ", dims().to_string(), " of shape ",
                    detail::sizes_string(shape()), " has ", count,
                    " elements, and item() takes the one element of an expression of one");
            }
            if constexpr (xt::has_data_interface<expression_type>::value)
            {
                return *(m_expression.data() + m_expression.data_offset());
            }
            else
            {
                return *detail::evaluated(m_expression).begin();
            }
        }

        template <class CT, class S>
        inline xnamed<CT, S>::operator value_type() const
        {
            return item();
        }

        template <class Shape>
        inline std::string shape_to_string(const Shape& shape)
        {
            return detail::sizes_string(shape);
        }

        template <class CT, class S>
        inline std::string sizes_to_string(const xnamed<CT, S>& e)
        {
            const auto& shape = e.shape();
            std::string out = "(";
            for (std::size_t i = 0; i < e.dimension(); ++i)
            {
                out += (i == 0 ? "" : ", ") + e.dims()[i] + ": " + std::to_string(shape[i]);
            }
            return out + ")";
        }

        template <class CT, class S>
        inline std::ostream& operator<<(std::ostream& out, const xnamed<CT, S>& e)
        {
            out << sizes_to_string(e) << '\n' << e.expression();
            for (std::size_t i = 0; i < e.dimension(); ++i)
            {
                if (const auto* labels = e.coords().find(e.dims()[i]))
                {
                    out << '\n' << "  " << e.dims()[i] << ": " << detail::format_labels(*labels);
                }
            }
            return out;
        }

        /****************************
         * implementation of name   *
         ****************************/

        namespace detail
        {
            /**
             * What a function that fails its static_assert returns, so that only the sentence is reported:
             * the lines after a refusal (printing the result, its dims, xn::eval, xn::assign, operations on
             * it) take it silently, and add no diagnostic of their own to the sentence.
             */
            struct invalid_named_expression
            {
                named::dims dims() const
                {
                    return named::dims();
                }

                std::vector<std::size_t> shape() const
                {
                    return {};
                }

                std::size_t dimension() const noexcept
                {
                    return 0;
                }

                friend std::ostream& operator<<(std::ostream& out, const invalid_named_expression&)
                {
                    return out;
                }
            };

            /// A container of numbers that is not an xtensor expression (a std::vector, a std::array):
            /// what xt::adapt makes an expression of.
            template <class T, class = void>
            struct is_sequence_container : std::false_type
            {
            };

            template <class T>
            struct is_sequence_container<
                T, std::void_t<typename T::value_type, decltype(std::declval<T&>().data()),
                               decltype(std::declval<T&>().size())>>
                : std::bool_constant<std::is_arithmetic<typename T::value_type>::value &&
                                     !xt::is_xexpression<T>::value &&
                                     !std::is_same<typename T::value_type, char>::value>
            {
            };

            template <class T>
            inline constexpr bool is_sequence_container_v = is_sequence_container<std::decay_t<T>>::value;

            /// The result of a refusal, which what takes it lets through silently.
            template <class... T>
            inline constexpr bool
                any_refused_v = (std::is_same<std::decay_t<T>, invalid_named_expression>::value || ...);
        } // namespace detail

        template <class S, class E>
        inline auto name(E&& e, named::dims names)
        {
            constexpr bool is_expression = xt::is_xexpression<std::decay_t<E>>::value;
            static_assert(is_expression || !is_named_expression_v<E>,
                          "xn::name: the expression is already named; use rename or refine_names, or name "
                          "its expression() again.");
            static_assert(is_expression || is_named_expression_v<E> || detail::any_refused_v<E> ||
                              detail::is_sequence_container_v<E>,
                          "xn::name: the expression must be an xtensor expression.");
            static_assert(!detail::is_sequence_container_v<E>,
                          "xn::name: a std::vector (or another container of numbers) is not an xtensor "
                          "expression; name xt::adapt(v) (xt::adapt(v, shape) for more than one axis).");
            // XTENSOR_NAMED_REQUIRE_STRATEGY written out: xn::name is where a join given as a broadcasting
            // strategy is met first, and a static_assert inside a macro is reported with its expansion.
            static_assert(is_strategy_v<S> || !detail::has_static_align<S>::value,
                          "xn::name" XTENSOR_NAMED_SHAPING_IS_NO_STRATEGY);
            static_assert(is_strategy_v<S> || detail::has_static_align<S>::value,
                          "xn::name" XTENSOR_NAMED_STRATEGY_REQUIREMENT);
            if constexpr (is_expression && is_strategy_v<S>)
            {
                return xnamed<xt::xclosure_t<E>, S>(std::forward<E>(e), std::move(names));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }

        namespace detail
        {
            /// `e` (a named expression) with `labels` in place of its own, checked against its axes.
            template <class E>
            inline auto attach_coords(std::string_view operation, E&& e, named::coords labels)
            {
                check_coords(operation, e.dims(), e.shape(), labels);
                axes_metadata metadata{e.dims(), std::move(labels)};
                using strategy = typename std::decay_t<E>::strategy_type;
                using closure = xt::xclosure_t<decltype(std::forward<E>(e).expression())>;
                return xnamed<closure, strategy>(std::forward<E>(e).expression(), std::move(metadata));
            }
        } // namespace detail

        template <class S, class E>
        inline auto name(E&& e, named::dims names, named::coords labels)
        {
            auto named_e = name<S>(std::forward<E>(e), std::move(names));
            if constexpr (is_named_expression_v<decltype(named_e)>)
            {
                return detail::attach_coords("name", std::move(named_e), std::move(labels));
            }
            else
            {
                return named_e;
            }
        }

        template <class E>
        inline auto with_coords(E&& e, named::coords labels)
        {
            static_assert(is_named_expression_v<E>,
                          "xn::with_coords: the expression must be a named expression; label the axes of an "
                          "xtensor expression with xn::name(e, dims, coords).");
            if constexpr (is_named_expression_v<E>)
            {
                return detail::attach_coords("with_coords", std::forward<E>(e), std::move(labels));
            }
            else
            {
                return detail::invalid_named_expression{};
            }
        }
    } // namespace named
} // namespace xt

#endif
