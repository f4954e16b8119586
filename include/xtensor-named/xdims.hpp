/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XDIMS_HPP
#define XTENSOR_NAMED_XDIMS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xerrors.hpp"

namespace xt
{
    namespace named
    {
        /// The name of an axis that has no name: partially named tensors are written `(?, channel, h, w)`.
        inline constexpr std::string_view unnamed_axis = "?";

        /// True for an identifier `[A-Za-z_][A-Za-z0-9_]*` or the unnamed marker `"?"`.
        bool is_valid_axis_name(std::string_view name) noexcept;

        /// True for an identifier `[A-Za-z_][A-Za-z0-9_]*`; false for `"?"` and anything else.
        bool is_identifier(std::string_view name) noexcept;

        /**
         * The ordered axis names of a tensor.
         *
         * A name appears at most once; `"?"` marks an unnamed axis and may repeat.
         * @code
         * xn::dims d{"?", "channel", "h", "w"};
         * d.index_of("h");  // 2
         * d.to_string();    // "(?, channel, h, w)"
         * @endcode
         */
        class dims
        {
        public:

            using value_type = std::string;
            using container_type = std::vector<std::string>;
            using const_iterator = container_type::const_iterator;
            using size_type = std::size_t;

            dims() = default;
            dims(std::initializer_list<std::string> names);
            explicit dims(std::vector<std::string> names);

            /// `n` unnamed axes: `(?, ?, ...)`, the dims of a plain xtensor expression.
            static dims unnamed(std::size_t n);

            size_type size() const noexcept;
            bool empty() const noexcept;

            /// The name of axis `i`; an `i` out of range throws xn::name_error.
            const std::string& operator[](size_type i) const;

            /// The position of `name`, or -1 when absent. For `"?"`, the first unnamed axis.
            std::ptrdiff_t index_of(std::string_view name) const noexcept;
            bool contains(std::string_view name) const noexcept;

            /// Whether axis `i` has a name other than `"?"`; an `i` out of range throws xn::name_error.
            bool is_named(size_type i) const;

            /// Whether every axis has a name.
            bool all_named() const noexcept;

            const container_type& names() const noexcept;
            const_iterator begin() const noexcept;
            const_iterator end() const noexcept;

            /// `(?, channel, h, w)`; `()` for a scalar.
            std::string to_string() const;

        private:

            void validate() const;

            // Every operand, plan and result holds the dims of its axes, and none changes them once made:
            // copies share one list (no copy of the names), and a scalar's list is no list at all.
            std::shared_ptr<const container_type> m_names;
        };

        bool operator==(const dims& lhs, const dims& rhs) noexcept;
        bool operator!=(const dims& lhs, const dims& rhs) noexcept;
        std::ostream& operator<<(std::ostream& out, const dims& d);
        std::string to_string(const dims& d);

        namespace detail
        {
            /// Throws xn::name_error for anything but an identifier or `"?"`, naming the operation.
            void check_axis_name(std::string_view operation, std::string_view name);

            /// A printable form of a name inside messages: quoted, control characters escaped.
            std::string quoted(std::string_view name);

            /// "axis 'h' (axis 2) of (n, c, h, w)", or "unnamed axis 1 of (n, ?)": how every message
            /// names an axis of a named expression or operand.
            std::string describe_axis(const dims& names, std::size_t axis);

            /// How every invalid-name message ends.
            inline constexpr std::string_view axis_name_rule =
                ": a name is an identifier [A-Za-z_][A-Za-z0-9_]*, or \"?\" for an unnamed axis";

            /**
             * A list of axis names as the views by name take it: a braced list, a std::vector of strings or
             * an xn::dims (`a.align_to(b.dims())`). Unlike dims it may hold `"..."`, which the views read
             * as the axes the list does not mention.
             */
            class name_list
            {
            public:
                name_list(std::initializer_list<std::string> names) : m_names(names) {}

                name_list(std::vector<std::string> names) : m_names(std::move(names)) {}

                name_list(const named::dims& names) : m_names(names.begin(), names.end()) {}

                operator const std::vector<std::string>&() const noexcept
                {
                    return m_names;
                }

            private:
                std::vector<std::string> m_names;
            };
        } // namespace detail

        /*****************************
         * implementation of names   *
         *****************************/

        inline bool is_identifier(std::string_view name) noexcept
        {
            auto is_alpha = [](char c)
            { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
            auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
            if (name.empty() || !is_alpha(name.front()))
            {
                return false;
            }
            for (char c : name)
            {
                if (!is_alpha(c) && !is_digit(c))
                {
                    return false;
                }
            }
            return true;
        }

        inline bool is_valid_axis_name(std::string_view name) noexcept
        {
            return name == unnamed_axis || is_identifier(name);
        }

        namespace detail
        {
            inline std::string describe_axis(const dims& names, std::size_t axis)
            {
                if (!names.is_named(axis))
                {
                    return concat("unnamed axis ", axis, " of ", names.to_string());
                }
                // Qualified: with a std::string argument, argument-dependent lookup would pick std::quoted.
                return concat("axis ", detail::quoted(names[axis]), " (axis ", axis, ") of ",
                              names.to_string());
            }

            inline std::string quoted(std::string_view name)
            {
                static constexpr char hex[] = "0123456789abcdef";
                std::string out = "'";
                for (char c : name)
                {
                    const auto byte = static_cast<unsigned char>(c);
                    if (byte < 0x20 || byte >= 0x7f || c == '\'' || c == '\\')
                    {
                        out += "\\x";
                        out += hex[byte >> 4];
                        out += hex[byte & 0xf];
                    }
                    else
                    {
                        out += c;
                    }
                }
                out += "'";
                return out;
            }

            inline void check_axis_name(std::string_view operation, std::string_view name)
            {
                if (!is_valid_axis_name(name))
                {
                    throw_name_error(operation, "invalid axis name ", detail::quoted(name), axis_name_rule);
                }
            }
        } // namespace detail

        /*****************************
         * implementation of dims    *
         *****************************/

        inline dims::dims(std::initializer_list<std::string> names) : dims(std::vector<std::string>(names)) {}

        inline dims::dims(std::vector<std::string> names)
        {
            if (!names.empty())
            {
                m_names = std::make_shared<const container_type>(std::move(names));
            }
            validate();
        }

        inline dims dims::unnamed(std::size_t n)
        {
            const auto make = [](std::size_t rank)
            {
                dims result;
                if (rank != 0)
                {
                    result.m_names = std::make_shared<const container_type>(rank, std::string(unnamed_axis));
                }
                return result;
            };
            // Every plain operand of a named operation is seen through these: the usual ranks are made
            // once and shared, as the copies of any dims are.
            static const std::array<dims, 9> usual = [&make]
            {
                std::array<dims, 9> all;
                for (std::size_t rank = 0; rank < all.size(); ++rank)
                {
                    all[rank] = make(rank);
                }
                return all;
            }();
            return n < usual.size() ? usual[n] : make(n);
        }

        inline void dims::validate() const
        {
            // Every name is checked before any duplicate is looked for: the duplicate message prints the
            // whole list, which must hold no unescaped control characters.
            for (std::size_t i = 0; i < names().size(); ++i)
            {
                if (!is_valid_axis_name(names()[i]))
                {
                    detail::throw_name_error("dims", "invalid axis name ", detail::quoted(names()[i]),
                                             " at axis ", i, detail::axis_name_rule);
                }
            }
            for (std::size_t i = 0; i < names().size(); ++i)
            {
                if (names()[i] == unnamed_axis)
                {
                    continue;
                }
                for (std::size_t j = 0; j < i; ++j)
                {
                    if (names()[j] == names()[i])
                    {
                        detail::throw_name_error("dims", "name ", detail::quoted(names()[i]),
                                                 " appears twice, at axes ", j, " and ", i, " of ",
                                                 to_string());
                    }
                }
            }
        }

        inline auto dims::size() const noexcept -> size_type
        {
            return names().size();
        }

        inline bool dims::empty() const noexcept
        {
            return names().empty();
        }

        inline const std::string& dims::operator[](size_type i) const
        {
            if (i >= names().size())
            {
                detail::throw_name_error("dims", "axis ", i, " is out of range for ", to_string(),
                                         " of rank ", size());
            }
            return names()[i];
        }

        inline std::ptrdiff_t dims::index_of(std::string_view name) const noexcept
        {
            for (std::size_t i = 0; i < names().size(); ++i)
            {
                if (names()[i] == name)
                {
                    return static_cast<std::ptrdiff_t>(i);
                }
            }
            return -1;
        }

        inline bool dims::contains(std::string_view name) const noexcept
        {
            return index_of(name) >= 0;
        }

        inline bool dims::is_named(size_type i) const
        {
            return (*this)[i] != unnamed_axis;
        }

        inline bool dims::all_named() const noexcept
        {
            for (const auto& n : names())
            {
                if (n == unnamed_axis)
                {
                    return false;
                }
            }
            return true;
        }

        inline auto dims::names() const noexcept -> const container_type&
        {
            static const container_type none;
            return m_names ? *m_names : none;
        }

        inline auto dims::begin() const noexcept -> const_iterator
        {
            return names().begin();
        }

        inline auto dims::end() const noexcept -> const_iterator
        {
            return names().end();
        }

        inline std::string dims::to_string() const
        {
            std::string out = "(";
            for (std::size_t i = 0; i < names().size(); ++i)
            {
                if (i != 0)
                {
                    out += ", ";
                }
                out += names()[i];
            }
            out += ")";
            return out;
        }

        inline bool operator==(const dims& lhs, const dims& rhs) noexcept
        {
            // Copies share their list: the same list needs no comparison of names.
            return &lhs.names() == &rhs.names() || lhs.names() == rhs.names();
        }

        inline bool operator!=(const dims& lhs, const dims& rhs) noexcept
        {
            return !(lhs == rhs);
        }

        inline std::ostream& operator<<(std::ostream& out, const dims& d)
        {
            return out << d.to_string();
        }

        inline std::string to_string(const dims& d)
        {
            return d.to_string();
        }
    } // namespace named
} // namespace xt

#endif
