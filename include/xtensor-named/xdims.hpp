/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XDIMS_HPP
#define XTENSOR_NAMED_XDIMS_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "detail/core/xname_table.hpp"
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

            class const_iterator;
            using value_type = std::string;
            using size_type = std::size_t;

            dims() = default;
            dims(std::initializer_list<std::string> names);
            explicit dims(const std::vector<std::string>& names);

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

            /// The names, as a vector of strings.
            std::vector<std::string> names() const;
            const_iterator begin() const noexcept;
            const_iterator end() const noexcept;

            /// The axes whose flag in `removed` (one per axis) is false, in their order: what a reduction
            /// over the others keeps. Allocates nothing up to inline_rank axes.
            template <class Flags>
            dims without(const Flags& removed) const;

            /// `(?, channel, h, w)`; `()` for a scalar.
            std::string to_string() const;

            friend bool operator==(const dims& lhs, const dims& rhs) noexcept;

        private:

            /// Interns `count` names, each checked, then looks for a name given twice.
            void assign(const std::string* names, std::size_t count);

            /// Room for `count` names: in place, or a list of their own beyond inline_rank.
            detail::interned_name* storage(std::size_t count);

            const detail::interned_name* data() const noexcept;

            // Every operand, plan and result holds the dims of its axes: up to inline_rank names are held
            // in place, so that making and copying dims allocates nothing, and comparing them compares
            // pointers (names are interned, detail/core/xname_table.hpp).
            static constexpr std::size_t inline_rank = 8;
            std::size_t m_size = 0;
            std::array<detail::interned_name, inline_rank> m_inline{};
            std::shared_ptr<const std::vector<detail::interned_name>> m_more;
        };

        /// An iterator over the names of a dims, as `const std::string&`.
        class dims::const_iterator
        {
        public:

            using iterator_category = std::random_access_iterator_tag;
            using value_type = std::string;
            using difference_type = std::ptrdiff_t;
            using pointer = const std::string*;
            using reference = const std::string&;

            const_iterator() = default;

            explicit const_iterator(const detail::interned_name* at) noexcept : m_at(at) {}

            reference operator*() const noexcept
            {
                return **m_at;
            }

            pointer operator->() const noexcept
            {
                return *m_at;
            }

            reference operator[](difference_type n) const noexcept
            {
                return *m_at[n];
            }

            const_iterator& operator++() noexcept
            {
                ++m_at;
                return *this;
            }

            const_iterator operator++(int) noexcept
            {
                const_iterator old = *this;
                ++m_at;
                return old;
            }

            const_iterator& operator--() noexcept
            {
                --m_at;
                return *this;
            }

            const_iterator operator--(int) noexcept
            {
                const_iterator old = *this;
                --m_at;
                return old;
            }

            const_iterator& operator+=(difference_type n) noexcept
            {
                m_at += n;
                return *this;
            }

            const_iterator& operator-=(difference_type n) noexcept
            {
                m_at -= n;
                return *this;
            }

            friend const_iterator operator+(const_iterator it, difference_type n) noexcept
            {
                return it += n;
            }

            friend const_iterator operator+(difference_type n, const_iterator it) noexcept
            {
                return it += n;
            }

            friend const_iterator operator-(const_iterator it, difference_type n) noexcept
            {
                return it -= n;
            }

            friend difference_type operator-(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at - rhs.m_at;
            }

            friend bool operator==(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at == rhs.m_at;
            }

            friend bool operator!=(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at != rhs.m_at;
            }

            friend bool operator<(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at < rhs.m_at;
            }

            friend bool operator>(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at > rhs.m_at;
            }

            friend bool operator<=(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at <= rhs.m_at;
            }

            friend bool operator>=(const_iterator lhs, const_iterator rhs) noexcept
            {
                return lhs.m_at >= rhs.m_at;
            }

        private:

            const detail::interned_name* m_at = nullptr;
        };

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

        inline dims::dims(std::initializer_list<std::string> names)
        {
            assign(names.begin(), names.size());
        }

        inline dims::dims(const std::vector<std::string>& names)
        {
            assign(names.data(), names.size());
        }

        inline dims dims::unnamed(std::size_t n)
        {
            dims result;
            detail::interned_name* at = result.storage(n);
            std::fill(at, at + n, detail::interned_unnamed_axis());
            result.m_size = n;
            return result;
        }

        inline void dims::assign(const std::string* names, std::size_t count)
        {
            detail::interned_name* at = storage(count);
            // Every name is checked before any duplicate is looked for: the duplicate message prints the
            // whole list, which must hold no unescaped control characters.
            for (std::size_t i = 0; i < count; ++i)
            {
                at[i] = detail::cached_name(names[i]);
                if (at[i] == nullptr)
                {
                    if (!is_valid_axis_name(names[i]))
                    {
                        detail::throw_name_error("dims", "invalid axis name ", detail::quoted(names[i]),
                                                 " at axis ", i, detail::axis_name_rule);
                    }
                    at[i] = detail::intern(names[i]);
                }
            }
            m_size = count;
            const detail::interned_name unnamed = detail::interned_unnamed_axis();
            for (std::size_t i = 0; i < count; ++i)
            {
                if (at[i] == unnamed)
                {
                    continue;
                }
                for (std::size_t j = 0; j < i; ++j)
                {
                    if (at[j] == at[i])
                    {
                        detail::throw_name_error("dims", "name ", detail::quoted(*at[i]),
                                                 " appears twice, at axes ", j, " and ", i, " of ",
                                                 to_string());
                    }
                }
            }
        }

        template <class Flags>
        inline dims dims::without(const Flags& removed) const
        {
            if (static_cast<std::size_t>(removed.size()) != m_size)
            {
                detail::throw_name_error("dims", "without takes one flag per axis, and has ", removed.size(),
                                         " for the ", m_size, " axes of ", to_string());
            }
            std::size_t count = 0;
            for (std::size_t i = 0; i < m_size; ++i)
            {
                count += removed[i] ? 0 : 1;
            }
            dims result;
            detail::interned_name* at = result.storage(count);
            const detail::interned_name* names = data();
            for (std::size_t i = 0; i < m_size; ++i)
            {
                if (!removed[i])
                {
                    *at++ = names[i];
                }
            }
            result.m_size = count;
            return result;
        }

        inline detail::interned_name* dims::storage(std::size_t count)
        {
            if (count <= inline_rank)
            {
                return m_inline.data();
            }
            auto more = std::make_shared<std::vector<detail::interned_name>>(count);
            detail::interned_name* at = more->data();
            m_more = std::move(more);
            return at;
        }

        inline const detail::interned_name* dims::data() const noexcept
        {
            return m_more ? m_more->data() : m_inline.data();
        }

        inline auto dims::size() const noexcept -> size_type
        {
            return m_size;
        }

        inline bool dims::empty() const noexcept
        {
            return m_size == 0;
        }

        inline const std::string& dims::operator[](size_type i) const
        {
            if (i >= m_size)
            {
                detail::throw_name_error("dims", "axis ", i, " is out of range for ", to_string(),
                                         " of rank ", size());
            }
            return *data()[i];
        }

        inline std::ptrdiff_t dims::index_of(std::string_view name) const noexcept
        {
            const detail::interned_name* names = data();
            for (std::size_t i = 0; i < m_size; ++i)
            {
                if (detail::same_name(*names[i], name))
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
            for (const auto& n : *this)
            {
                if (n == unnamed_axis)
                {
                    return false;
                }
            }
            return true;
        }

        inline std::vector<std::string> dims::names() const
        {
            return std::vector<std::string>(begin(), end());
        }

        inline auto dims::begin() const noexcept -> const_iterator
        {
            return const_iterator(data());
        }

        inline auto dims::end() const noexcept -> const_iterator
        {
            return const_iterator(data() + m_size);
        }

        inline std::string dims::to_string() const
        {
            std::string out = "(";
            for (std::size_t i = 0; i < m_size; ++i)
            {
                if (i != 0)
                {
                    out += ", ";
                }
                out += *data()[i];
            }
            out += ")";
            return out;
        }

        inline bool operator==(const dims& lhs, const dims& rhs) noexcept
        {
            if (lhs.m_size != rhs.m_size)
            {
                return false;
            }
            const detail::interned_name* left = lhs.data();
            const detail::interned_name* right = rhs.data();
            for (std::size_t i = 0; i < lhs.m_size; ++i)
            {
                // Equal names are one pointer; the strings are compared only where the pointers differ,
                // for dims made in another shared library, which has a table of its own where the
                // library's symbols are hidden (as in Python modules).
                if (left[i] != right[i] && *left[i] != *right[i])
                {
                    return false;
                }
            }
            return true;
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
