/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XCOORDS_HPP
#define XTENSOR_NAMED_XCOORDS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "xdims.hpp"
#include "xerrors.hpp"

namespace xt
{
    namespace named
    {
        /**
         * A coordinate label: an integer or a string (tensorics keys its values so: `{[x1]=1.0, [x2]=2.0}`).
         */
        using label = std::variant<std::int64_t, std::string>;

        /**
         * The labels of one axis, in axis order: all of one type and unique once attached.
         * @code
         * xn::labels times{10, 20, 30};
         * xn::labels sensors{"x1", "x2"};
         * @endcode
         */
        using labels = std::vector<label>;

        /**
         * A range of labels for `sel`, made by xn::slice: every label from `start` to `stop`, both
         * included; an absent bound (std::nullopt) leaves that side open.
         */
        struct label_slice
        {
            std::optional<label> start;
            std::optional<label> stop;
        };

        /**
         * The labels from `start` to `stop`, both included, as xarray's and pandas' `slice` on a sorted
         * axis: the bounds need not be labels of the axis. The axis' labels must be sorted (increasing, or
         * decreasing with `start` the larger bound); std::nullopt leaves a side open.
         * @code
         * a.sel({{"t", xn::slice(10, 30)}});            // t from 10 to 30
         * a.sel({{"t", xn::slice(std::nullopt, 30)}});  // t up to 30
         * @endcode
         */
        label_slice slice(std::optional<label> start, std::optional<label> stop);

        /**
         * What `sel` takes for one axis: one label (the axis is dropped), a list of labels (the axis is
         * kept, with those labels in that order), or a range of labels (xn::slice; the axis is kept).
         * @code
         * a.sel({{"x", 20}});                      // drops x
         * a.sel({{"x", xn::labels{20, 10}}});      // keeps x, labels [20, 10]
         * a.sel({{"x", xn::slice(10, 20)}});       // keeps x, labels [10, 20]
         * @endcode
         */
        using label_selector = std::variant<label, labels, label_slice>;

        /// Positions along one axis, for `isel`; a negative position counts from the end.
        using index_list = std::vector<std::int64_t>;

        namespace detail
        {
            /// Whether `R` has start(), stop() and step(), as xtensor's xt::range gives.
            template <class R, class = void>
            struct is_position_range : std::false_type
            {
            };

            template <class R>
            struct is_position_range<R, std::void_t<decltype(std::declval<const R&>().start()),
                                                    decltype(std::declval<const R&>().stop()),
                                                    decltype(std::declval<const R&>().step())>>
                : std::true_type
            {
            };

            /// Whether `R` stands for a whole axis (xtensor's xt::all(), placed where xtensor is included).
            template <class R>
            struct is_whole_axis : std::false_type
            {
            };

            template <class T>
            std::optional<std::int64_t> range_bound(const T& bound);
        } // namespace detail

        /**
         * Positions along one axis for `isel`, as Python's slice: from `start` to `stop` (excluded) by
         * `step`; a negative position counts from the end, an absent bound is the end that the step walks
         * from or to, and bounds beyond the axis are clipped. xtensor's xt::range (with xt::placeholders::_
         * for an absent bound) and xt::all() convert to one.
         * @code
         * a.isel({{"t", xt::range(0, 2)}});       // positions 0 and 1
         * a.isel({{"t", xt::range(-2, _)}});      // the last two
         * a.isel({{"t", xt::range(_, _, -1)}});   // reversed
         * @endcode
         */
        struct index_range
        {
            std::optional<std::int64_t> start;
            std::optional<std::int64_t> stop;
            std::int64_t step = 1;

            index_range() = default;

            index_range(std::optional<std::int64_t> from, std::optional<std::int64_t> to, std::int64_t by = 1)
                : start(from), stop(to), step(by)
            {
            }

            template <class R,
                      std::enable_if_t<detail::is_position_range<R>::value || detail::is_whole_axis<R>::value,
                                       int> = 0>
            index_range(const R& range)
            {
                if constexpr (detail::is_position_range<R>::value)
                {
                    start = detail::range_bound(range.start());
                    stop = detail::range_bound(range.stop());
                    step = detail::range_bound(range.step()).value_or(1);
                }
            }
        };

        /// What `isel` takes for one axis: one position (the axis is dropped), a list of positions, or a
        /// range of positions (xt::range; the axis is kept).
        using index_selector = std::variant<std::int64_t, index_list, index_range>;

        /**
         * The position of a label that a list lacks: what a lookup finds for an absent label, and what an
         * alignment's index map holds where an operand has no value (filled under xn::join_outer).
         */
        inline constexpr std::int64_t missing = -1;

        class coords;

        namespace detail
        {
            struct label_rules;

            /// What operations do with labels under join_exact (detail/core/xlabel_rules.hpp).
            const label_rules* exact_label_rules() noexcept;

            /// The label rules that `c` was given with its labels; nullptr where it has none.
            const label_rules* label_rules_of(const coords& c) noexcept;
        } // namespace detail

        /**
         * The coordinate labels of a tensor: for some of its named axes, one label per position.
         * An axis without an entry has no labels. Equality does not depend on the order of the entries.
         * @code
         * xn::coords c{{"x", {10, 20}}, {"t", {"a", "b", "c"}}};
         * c.has("t");    // true
         * c.at("x")[1];  // xn::label(20)
         * @endcode
         */
        class coords
        {
        public:
            using value_type = std::pair<std::string, labels>;
            using size_type = std::size_t;

            coords() = default;
            coords(std::initializer_list<value_type> entries);
            explicit coords(std::vector<value_type> entries);

            /// The number of axes that have labels.
            size_type size() const noexcept;
            bool empty() const noexcept;

            /// The labelled axes, in the order they were given.
            std::vector<std::string> names() const;

            bool has(std::string_view axis) const noexcept;

            /// The labels of `axis`; an axis without labels throws xn::name_error.
            const labels& at(std::string_view axis) const;

            /// The labels of `axis`, or nullptr when it has none.
            const labels* find(std::string_view axis) const noexcept;

            /// Gives `axis` the labels `values` (replacing any it had), after checking them.
            void set(std::string axis, labels values);

            /// Gives `axis` the labels that `from` has on `from_axis` (sharing them, without a copy).
            void set(std::string axis, const coords& from, std::string_view from_axis);

            /// Gives `axis` the labels that `values` points to (sharing them, without a copy), after
            /// checking them: a list whose owner keeps more beside it (the index it came from).
            void set_shared(std::string axis, std::shared_ptr<const labels> values);

            /// Removes the labels of `axis`; false when it had none.
            bool erase(std::string_view axis);

            /// `{x: [10, 20], t: ['a', 'b', 'c']}`, entries in the order they were given.
            std::string to_string() const;

        private:
            // Label lists never change once checked, so copies of a coords (one per lazy expression
            // node) share them: copying is cheap, and equal operands are found equal by address.
            struct entry
            {
                std::string axis;
                std::shared_ptr<const labels> values;
            };

            static void check_axis(std::string_view axis);
            const entry* find_entry(std::string_view axis) const noexcept;
            void set_checked(std::string axis, std::shared_ptr<const labels> values);

            std::vector<entry> m_entries;
            // Set where labels are given, copied where they are shared: operations reach their label
            // rules through it, so that a unit that gives no labels compiles none of them.
            const detail::label_rules* m_rules = nullptr;

            friend const detail::label_rules* detail::label_rules_of(const coords& c) noexcept;
        };

        bool operator==(const coords& lhs, const coords& rhs);
        bool operator!=(const coords& lhs, const coords& rhs);
        std::ostream& operator<<(std::ostream& out, const coords& c);
        std::string to_string(const coords& c);

        namespace detail
        {
            /// `10` for an integer label, `'x1'` for a string label.
            std::string format_label(const label& l);

            /// `[10, 20, 30]`; a list of more than 8 labels shows its first and last three, as xarray's repr:
            /// `[0, 6, 12, ..., 42, 48, 54]`.
            std::string format_labels(const labels& ls);

            /// "an integer" or "a string", for messages.
            const char* label_kind(const label& l) noexcept;

            /**
             * From each label of a list to its position: the lookup that checks, alignment and `sel` use.
             * It refers to the strings of `ls`, which must outlive it.
             */
            class label_index
            {
            public:
                explicit label_index(const labels& ls);

                /// The position of `l` (its first, in a list with repeats), or xn::missing.
                std::int64_t position_of(const label& l) const;

                /// The number of distinct labels.
                std::size_t size() const noexcept;

            private:
                // One map per label type, keyed by the plain value: hashing an integer or a view of a string
                // costs less than hashing the variant, and no string is copied.
                std::unordered_map<std::int64_t, std::int64_t> m_integers;
                std::unordered_map<std::string_view, std::int64_t> m_strings;
            };

            /// Whether each label is below the next: a sorted list of unique labels (times, mostly), which
            /// is checked and aligned by a walk through the lists instead of a lookup table. Labels order
            /// as std::variant orders them: integers numerically, strings by their bytes (and integers
            /// before strings, though the labels of one axis have one type).
            bool strictly_increasing(const labels& ls) noexcept;

            /// a < b and a == b as std::variant has them, two integers compared directly: long lists of
            /// times are walked label by label, where std::variant's visit costs more than the comparison.
            bool label_less(const label& a, const label& b) noexcept;
            bool label_equal(const label& a, const label& b) noexcept;

            /// Whether two lists are the same list, or equal ones (so align as they are).
            bool same_labels(const labels& a, const labels& b) noexcept;

            /**
             * Throws xn::shape_error unless the labels are all of one type and unique, naming the offending
             * labels and their positions; `where` names the list, as in "axis 'x'".
             */
            void check_labels(std::string_view operation, std::string_view where, const labels& ls);

            /**
             * Throws unless every labelled axis of `c` is a named axis of `names` (xn::shape_error) whose
             * size equals its number of labels (xn::shape_error), naming the axis, its position and sizes.
             */
            template <class S>
            void check_coords(std::string_view operation, const dims& names, const S& shape, const coords& c);
        } // namespace detail

        /*****************************
         * implementation of labels  *
         *****************************/

        inline label_slice slice(std::optional<label> start, std::optional<label> stop)
        {
            return label_slice{std::move(start), std::move(stop)};
        }

        namespace detail
        {
            template <class T>
            inline std::optional<std::int64_t> range_bound(const T& bound)
            {
                // xtensor marks an absent bound with a placeholder type, not a value.
                if constexpr (std::is_integral<T>::value)
                {
                    return static_cast<std::int64_t>(bound);
                }
                else
                {
                    return std::nullopt;
                }
            }

            inline std::string format_label(const label& l)
            {
                if (const auto* i = std::get_if<std::int64_t>(&l))
                {
                    return std::to_string(*i);
                }
                return detail::quoted(std::get<std::string>(l));
            }

            inline std::string format_labels(const labels& ls)
            {
                // A long axis shows its first and last labels, as xarray's repr does:
                // [0, 6, 12, ..., 42, 48, 54]. A list of up to `whole` labels is shown whole.
                constexpr std::size_t whole = 8;
                constexpr std::size_t edge = 3;
                const bool shortened = ls.size() > whole;
                std::string out = "[";
                for (std::size_t i = 0; i < ls.size(); ++i)
                {
                    if (shortened && i == edge)
                    {
                        out += ", ...";
                        i = ls.size() - edge;
                    }
                    if (i != 0)
                    {
                        out += ", ";
                    }
                    out += format_label(ls[i]);
                }
                out += "]";
                return out;
            }

            inline const char* label_kind(const label& l) noexcept
            {
                return std::holds_alternative<std::int64_t>(l) ? "an integer" : "a string";
            }

            inline label_index::label_index(const labels& ls)
            {
                if (!ls.empty() && std::holds_alternative<std::string>(ls.front()))
                {
                    m_strings.reserve(ls.size());
                }
                else
                {
                    m_integers.reserve(ls.size());
                }
                for (std::size_t i = 0; i < ls.size(); ++i)
                {
                    const auto position = static_cast<std::int64_t>(i);
                    if (const auto* value = std::get_if<std::int64_t>(&ls[i]))
                    {
                        m_integers.emplace(*value, position);
                    }
                    else
                    {
                        m_strings.emplace(std::string_view(std::get<std::string>(ls[i])), position);
                    }
                }
            }

            inline std::int64_t label_index::position_of(const label& l) const
            {
                if (const auto* value = std::get_if<std::int64_t>(&l))
                {
                    const auto it = m_integers.find(*value);
                    return it == m_integers.end() ? named::missing : it->second;
                }
                const auto it = m_strings.find(std::string_view(std::get<std::string>(l)));
                return it == m_strings.end() ? named::missing : it->second;
            }

            inline std::size_t label_index::size() const noexcept
            {
                return m_integers.size() + m_strings.size();
            }

            inline bool label_less(const label& a, const label& b) noexcept
            {
                const auto* x = std::get_if<std::int64_t>(&a);
                const auto* y = std::get_if<std::int64_t>(&b);
                return x != nullptr && y != nullptr ? *x < *y : a < b;
            }

            inline bool label_equal(const label& a, const label& b) noexcept
            {
                const auto* x = std::get_if<std::int64_t>(&a);
                const auto* y = std::get_if<std::int64_t>(&b);
                return x != nullptr && y != nullptr ? *x == *y : a == b;
            }

            inline bool same_labels(const labels& a, const labels& b) noexcept
            {
                return &a == &b || std::equal(a.begin(), a.end(), b.begin(), b.end(), label_equal);
            }

            inline bool strictly_increasing(const labels& ls) noexcept
            {
                for (std::size_t i = 1; i < ls.size(); ++i)
                {
                    if (!label_less(ls[i - 1], ls[i]))
                    {
                        return false;
                    }
                }
                return true;
            }

            inline void check_labels(std::string_view operation, std::string_view where, const labels& ls)
            {
                for (std::size_t i = 1; i < ls.size(); ++i)
                {
                    if (ls[i].index() != ls.front().index())
                    {
                        throw_shape_error(operation, where, ": label ", format_label(ls[i]), " at position ",
                                          i, " is ", label_kind(ls[i]), " but label ",
                                          format_label(ls.front()), " at position 0 is ",
                                          label_kind(ls.front()), ": the labels of one axis have one type");
                    }
                }
                if (strictly_increasing(ls))
                {
                    return;
                }
                const label_index lookup(ls);
                if (lookup.size() == ls.size())
                {
                    return;
                }
                // The index keeps each label's first position: the first label found elsewhere is the
                // earliest repeat.
                for (std::size_t i = 0; i < ls.size(); ++i)
                {
                    const auto first = lookup.position_of(ls[i]);
                    if (first != static_cast<std::int64_t>(i))
                    {
                        throw_shape_error(operation, where, ": label ", format_label(ls[i]),
                                          " appears twice, at positions ", first, " and ", i, " of ",
                                          format_labels(ls), ": the labels of one axis are unique");
                    }
                }
            }

            template <class S>
            inline void check_coords(std::string_view operation, const dims& names, const S& shape,
                                     const coords& c)
            {
                const auto rank = static_cast<std::size_t>(std::distance(std::begin(shape), std::end(shape)));
                for (const auto& axis : c.names())
                {
                    const labels& values = c.at(axis);
                    const auto position = names.index_of(axis);
                    if (position < 0)
                    {
                        throw_shape_error(operation, "axis ", detail::quoted(axis), " has labels ",
                                          format_labels(values), " but is not an axis of ",
                                          names.to_string());
                    }
                    const auto p = static_cast<std::size_t>(position);
                    if (p >= rank)
                    {
                        throw_shape_error(operation, "axis ", detail::quoted(axis), " is axis ", p, " of ",
                                          names.to_string(), " but the shape has only ", rank, " axes");
                    }
                    const auto size = static_cast<std::size_t>(*std::next(std::begin(shape), position));
                    if (values.size() != size)
                    {
                        throw_shape_error(operation, describe_axis(names, p), " has size ", size, " but ",
                                          values.size(), " labels ", format_labels(values));
                    }
                }
            }
        } // namespace detail

        /*****************************
         * implementation of coords  *
         *****************************/

        inline coords::coords(std::initializer_list<value_type> entries)
            : coords(std::vector<value_type>(entries))
        {
        }

        inline coords::coords(std::vector<value_type> entries)
        {
            for (std::size_t i = 0; i < entries.size(); ++i)
            {
                for (std::size_t j = 0; j < i; ++j)
                {
                    if (entries[j].first == entries[i].first)
                    {
                        detail::throw_name_error("coords", "axis ", detail::quoted(entries[i].first),
                                                 " is given labels twice, in entries ", j, " and ", i);
                    }
                }
            }
            for (auto& [axis, values] : entries)
            {
                set(std::move(axis), std::move(values));
            }
        }

        inline auto coords::size() const noexcept -> size_type
        {
            return m_entries.size();
        }

        inline bool coords::empty() const noexcept
        {
            return m_entries.empty();
        }

        inline std::vector<std::string> coords::names() const
        {
            std::vector<std::string> result;
            result.reserve(m_entries.size());
            for (const auto& e : m_entries)
            {
                result.push_back(e.axis);
            }
            return result;
        }

        inline bool coords::has(std::string_view axis) const noexcept
        {
            return find_entry(axis) != nullptr;
        }

        inline const labels& coords::at(std::string_view axis) const
        {
            const labels* values = find(axis);
            if (values == nullptr)
            {
                detail::throw_name_error("coords::at", "axis ", detail::quoted(axis),
                                         " has no labels; labelled axes: ", to_string());
            }
            return *values;
        }

        inline const labels* coords::find(std::string_view axis) const noexcept
        {
            const entry* e = find_entry(axis);
            return e == nullptr ? nullptr : e->values.get();
        }

        inline void coords::set(std::string axis, labels values)
        {
            check_axis(axis);
            detail::check_labels("coords", detail::concat("axis ", detail::quoted(axis)), values);
            set_checked(std::move(axis), std::make_shared<const labels>(std::move(values)));
            m_rules = detail::exact_label_rules();
        }

        inline void coords::set(std::string axis, const coords& from, std::string_view from_axis)
        {
            check_axis(axis);
            const entry* source = from.find_entry(from_axis);
            if (source == nullptr)
            {
                detail::throw_name_error("coords", "axis ", detail::quoted(from_axis),
                                         " has no labels to give to axis ", detail::quoted(axis),
                                         "; labelled axes: ", from.to_string());
            }
            set_checked(std::move(axis), source->values);
            m_rules = from.m_rules;
        }

        inline void coords::set_shared(std::string axis, std::shared_ptr<const labels> values)
        {
            check_axis(axis);
            detail::check_labels("coords", detail::concat("axis ", detail::quoted(axis)), *values);
            set_checked(std::move(axis), std::move(values));
            m_rules = detail::exact_label_rules();
        }

        inline bool coords::erase(std::string_view axis)
        {
            for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
            {
                if (it->axis == axis)
                {
                    m_entries.erase(it);
                    return true;
                }
            }
            return false;
        }

        inline std::string coords::to_string() const
        {
            std::string out = "{";
            for (std::size_t i = 0; i < m_entries.size(); ++i)
            {
                if (i != 0)
                {
                    out += ", ";
                }
                out += m_entries[i].axis + ": " + detail::format_labels(*m_entries[i].values);
            }
            out += "}";
            return out;
        }

        inline void coords::check_axis(std::string_view axis)
        {
            if (!is_identifier(axis))
            {
                detail::throw_name_error(
                    "coords", "invalid axis name ", detail::quoted(axis),
                    ": labels belong to a named axis, an identifier [A-Za-z_][A-Za-z0-9_]*");
            }
        }

        inline auto coords::find_entry(std::string_view axis) const noexcept -> const entry*
        {
            for (const auto& e : m_entries)
            {
                if (e.axis == axis)
                {
                    return &e;
                }
            }
            return nullptr;
        }

        inline void coords::set_checked(std::string axis, std::shared_ptr<const labels> values)
        {
            for (auto& e : m_entries)
            {
                if (e.axis == axis)
                {
                    e.values = std::move(values);
                    return;
                }
            }
            m_entries.push_back(entry{std::move(axis), std::move(values)});
        }

        inline bool operator==(const coords& lhs, const coords& rhs)
        {
            if (lhs.size() != rhs.size())
            {
                return false;
            }
            for (const auto& axis : lhs.names())
            {
                const labels* mine = lhs.find(axis);
                const labels* other = rhs.find(axis);
                if (other == nullptr || !detail::same_labels(*other, *mine))
                {
                    return false;
                }
            }
            return true;
        }

        inline bool operator!=(const coords& lhs, const coords& rhs)
        {
            return !(lhs == rhs);
        }

        inline std::ostream& operator<<(std::ostream& out, const coords& c)
        {
            return out << c.to_string();
        }

        inline std::string to_string(const coords& c)
        {
            return c.to_string();
        }

        namespace detail
        {
            inline const label_rules* label_rules_of(const coords& c) noexcept
            {
                return c.m_rules;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

// The rules come after the class whose setters point to them.
#include "detail/core/xlabel_rules.hpp"

#endif
