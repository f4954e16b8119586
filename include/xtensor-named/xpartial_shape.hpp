/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XPARTIAL_SHAPE_HPP
#define XTENSOR_NAMED_XPARTIAL_SHAPE_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "xerrors.hpp"

namespace xt
{
    namespace named
    {
        /// The size of an axis whose size is not known yet (TensorFlow's Shape.UNKNOWN_SIZE).
        inline constexpr std::int64_t unknown = -1;

        class partial_shape;

        namespace detail
        {
            /// Makes `shape` the fully known shape of `sizes` in the storage it already has: no allocation
            /// when its capacity suffices. Refuses what partial_shape::of refuses, and then leaves `shape`
            /// unspecified.
            template <class R>
            void overwrite_sizes(partial_shape& shape, const R& sizes);
        } // namespace detail

        /**
         * A shape whose rank, or some of whose sizes, may be unknown (TensorFlow's `Shape`).
         *
         * @code
         * auto batch = xn::partial_shape::of({xn::unknown, 784});
         * batch.to_string();                                    // "(?, 784)"
         * batch.is_compatible_with(xn::partial_shape::of({32, 784}));  // true
         * @endcode
         */
        class partial_shape
        {
        public:

            using size_type = std::int64_t;
            using container_type = std::vector<size_type>;

            /// A scalar, `()`.
            partial_shape() = default;

            static partial_shape of(std::initializer_list<size_type> sizes);

            /// From sizes that the shape takes over (no copy).
            static partial_shape of(container_type&& sizes);

            /// From any range of integers: a std::vector, an xtensor shape, a std::array.
            template <class R, class = decltype(std::begin(std::declval<const R&>()))>
            static partial_shape of(const R& sizes);

            static partial_shape scalar();

            /// A shape of unknown rank.
            static partial_shape unknown();

            /// The number of axes, or xn::unknown.
            size_type rank() const noexcept;

            /// The size of axis `i` (negative `i` counts from the end); xn::unknown for an unknown rank.
            size_type size(size_type i) const;

            /// The number of elements, or xn::unknown; throws xn::shape_error when it overflows.
            size_type num_elements() const;

            bool is_unknown() const noexcept;
            bool has_unknown_dimension() const noexcept;
            bool is_fully_known() const noexcept;
            bool is_scalar() const noexcept;
            bool is_vector() const noexcept;
            bool is_matrix() const noexcept;

            partial_shape append(size_type last_size) const;
            partial_shape append(const partial_shape& other) const;
            partial_shape prepend(size_type first_size) const;
            partial_shape prepend(const partial_shape& other) const;

            /// Axes `[begin, end)`; `0 <= begin <= end <= rank()`.
            partial_shape sub_shape(size_type begin, size_type end) const;
            partial_shape take(size_type n) const;
            partial_shape take_last(size_type n) const;
            partial_shape head() const;
            partial_shape tail() const;

            /// Whether a fully known shape can be both (TensorFlow): reflexive, symmetric, not transitive.
            bool is_compatible_with(const partial_shape& other) const noexcept;
            static bool is_compatible(size_type size, size_type other_size) noexcept;

            /// The most specific shape that both can be; throws xn::shape_error when incompatible.
            partial_shape merge_with(const partial_shape& other) const;

            /// The most specific shape that is compatible with both.
            partial_shape most_specific_compatible_shape(const partial_shape& other) const;

            /// The sizes; throws xn::shape_error for an unknown rank.
            const container_type& sizes() const;

            /// The sizes as an xtensor shape; throws xn::shape_error when anything is unknown, or when the
            /// element count or a row-major stride overflows (xtensor would wrap around).
            std::vector<std::size_t>
            to_concrete(std::string_view operation = "partial_shape::to_concrete") const;

            /// `(2, ?)`, `()` for a scalar, `<unknown>` for an unknown rank.
            std::string to_string() const;

        private:

            template <class R>
            friend void detail::overwrite_sizes(partial_shape& shape, const R& sizes);

            static void check_size(std::string_view operation, size_type size, std::size_t axis);
            // Refuses negative sizes other than xn::unknown, as every list of sizes is.
            static void check_sizes(const container_type& sizes);
            // Replaces `out` with `sizes` as size_type, refusing unsigned sizes too large for it.
            template <class R>
            static void convert_sizes(const R& sizes, container_type& out);
            size_type checked_rank(std::string_view operation) const;
            // Refuses, under `operation`, a shape with no unknown size whose element count or row-major
            // strides overflow.
            void check_extent(std::string_view operation) const;
            static partial_shape joined(std::string_view operation, const partial_shape& first,
                                        const partial_shape& second);

            bool m_known_rank = true;
            container_type m_sizes;
        };

        /// Structural equality: an unknown size equals an unknown size, an unknown rank an unknown rank.
        bool operator==(const partial_shape& lhs, const partial_shape& rhs) noexcept;
        bool operator!=(const partial_shape& lhs, const partial_shape& rhs) noexcept;

        /// TensorFlow's `Shape.equals`: false as soon as either side has anything unknown, unless `&a == &b`.
        bool known_equal(const partial_shape& lhs, const partial_shape& rhs) noexcept;

        std::ostream& operator<<(std::ostream& out, const partial_shape& s);
        std::string to_string(const partial_shape& s);

        /************************************
         * implementation of partial_shape *
         ************************************/

        inline void partial_shape::check_size(std::string_view operation, size_type size, std::size_t axis)
        {
            if (size < 0 && size != named::unknown)
            {
                detail::throw_shape_error(operation, "size ", size, " at axis ", axis,
                                          " is negative (only xn::unknown, -1, marks an unknown size)");
            }
        }

        inline auto partial_shape::checked_rank(std::string_view operation) const -> size_type
        {
            if (!m_known_rank)
            {
                detail::throw_shape_error(operation, "the shape <unknown> has no known rank");
            }
            return static_cast<size_type>(m_sizes.size());
        }

        inline partial_shape partial_shape::of(std::initializer_list<size_type> sizes)
        {
            return of(std::vector<size_type>(sizes));
        }

        inline void partial_shape::check_sizes(const container_type& sizes)
        {
            for (std::size_t axis = 0; axis < sizes.size(); ++axis)
            {
                check_size("partial_shape::of", sizes[axis], axis);
            }
        }

        inline partial_shape partial_shape::of(container_type&& sizes)
        {
            check_sizes(sizes);
            partial_shape result;
            result.m_sizes = std::move(sizes);
            return result;
        }

        template <class R>
        inline void partial_shape::convert_sizes(const R& sizes, container_type& out)
        {
            using value_type = std::decay_t<decltype(*std::begin(sizes))>;
            static_assert(std::is_integral<value_type>::value && !std::is_same<value_type, bool>::value,
                          "xn::partial_shape::of: the sizes must be integers");
            out.clear();
            out.reserve(static_cast<std::size_t>(std::distance(std::begin(sizes), std::end(sizes))));
            std::size_t axis = 0;
            for (const auto& size : sizes)
            {
                if constexpr (std::is_unsigned<value_type>::value)
                {
                    if (static_cast<std::uintmax_t>(size) >
                        static_cast<std::uintmax_t>(std::numeric_limits<size_type>::max()))
                    {
                        detail::throw_shape_error("partial_shape::of", "size ", size, " at axis ", axis,
                                                  " is larger than the largest size, ",
                                                  std::numeric_limits<size_type>::max());
                    }
                }
                out.push_back(static_cast<size_type>(size));
                ++axis;
            }
        }

        template <class R, class>
        inline partial_shape partial_shape::of(const R& sizes)
        {
            container_type converted;
            convert_sizes(sizes, converted);
            return of(std::move(converted));
        }

        namespace detail
        {
            template <class R>
            inline void overwrite_sizes(partial_shape& shape, const R& sizes)
            {
                partial_shape::convert_sizes(sizes, shape.m_sizes);
                partial_shape::check_sizes(shape.m_sizes);
                shape.m_known_rank = true;
            }
        } // namespace detail

        inline partial_shape partial_shape::scalar()
        {
            return partial_shape();
        }

        inline partial_shape partial_shape::unknown()
        {
            partial_shape result;
            result.m_known_rank = false;
            return result;
        }

        inline auto partial_shape::rank() const noexcept -> size_type
        {
            return m_known_rank ? static_cast<size_type>(m_sizes.size()) : named::unknown;
        }

        inline auto partial_shape::size(size_type i) const -> size_type
        {
            if (!m_known_rank)
            {
                return named::unknown;
            }
            const auto n = static_cast<size_type>(m_sizes.size());
            if (i < -n || i >= n)
            {
                detail::throw_shape_error("partial_shape::size", "axis ", i, " is out of range for ",
                                          to_string(), " of rank ", n);
            }
            return m_sizes[static_cast<std::size_t>(i < 0 ? i + n : i)];
        }

        inline auto partial_shape::num_elements() const -> size_type
        {
            if (has_unknown_dimension())
            {
                return named::unknown;
            }
            for (size_type s : m_sizes)
            {
                if (s == 0)
                {
                    return 0;
                }
            }
            size_type product = 1;
            for (size_type s : m_sizes)
            {
                if (product > std::numeric_limits<size_type>::max() / s)
                {
                    detail::throw_shape_error("partial_shape::num_elements", "the element count of ",
                                              to_string(), " overflows a 64-bit integer");
                }
                product *= s;
            }
            return product;
        }

        inline void partial_shape::check_extent(std::string_view operation) const
        {
            // xtensor computes a container's strides (the products of the sizes after each axis) and its
            // element count without checking: a wrapped product would make a container too small for its
            // shape. A size of 0 makes every product to its left 0, so (0, 2^62, 2^62) holds no element
            // and still has a stride that overflows.
            size_type product = 1;
            for (std::size_t i = m_sizes.size(); i-- > 0;)
            {
                const size_type s = m_sizes[i];
                if (s != 0 && product > std::numeric_limits<size_type>::max() / s)
                {
                    if (i == 0)
                    {
                        detail::throw_shape_error(operation, "the element count of ", to_string(),
                                                  " overflows a 64-bit integer");
                    }
                    detail::throw_shape_error(
                        operation, "the stride of axis ", i - 1, " of ", to_string(),
                        " (the product of the sizes after it) overflows a 64-bit integer");
                }
                product *= s;
            }
        }

        inline bool partial_shape::is_unknown() const noexcept
        {
            return !m_known_rank;
        }

        inline bool partial_shape::has_unknown_dimension() const noexcept
        {
            if (!m_known_rank)
            {
                return true;
            }
            for (size_type s : m_sizes)
            {
                if (s == named::unknown)
                {
                    return true;
                }
            }
            return false;
        }

        inline bool partial_shape::is_fully_known() const noexcept
        {
            return !has_unknown_dimension();
        }

        inline bool partial_shape::is_scalar() const noexcept
        {
            return rank() == 0;
        }

        inline bool partial_shape::is_vector() const noexcept
        {
            return rank() == 1;
        }

        inline bool partial_shape::is_matrix() const noexcept
        {
            return rank() == 2;
        }

        inline partial_shape partial_shape::append(size_type last_size) const
        {
            const auto n = checked_rank("partial_shape::append");
            check_size("partial_shape::append", last_size, static_cast<std::size_t>(n));
            partial_shape result = *this;
            result.m_sizes.push_back(last_size);
            return result;
        }

        inline partial_shape partial_shape::joined(std::string_view operation, const partial_shape& first,
                                                   const partial_shape& second)
        {
            first.checked_rank(operation);
            second.checked_rank(operation);
            partial_shape result = first;
            result.m_sizes.insert(result.m_sizes.end(), second.m_sizes.begin(), second.m_sizes.end());
            return result;
        }

        inline partial_shape partial_shape::append(const partial_shape& other) const
        {
            return joined("partial_shape::append", *this, other);
        }

        inline partial_shape partial_shape::prepend(size_type first_size) const
        {
            checked_rank("partial_shape::prepend");
            check_size("partial_shape::prepend", first_size, 0);
            partial_shape result = *this;
            result.m_sizes.insert(result.m_sizes.begin(), first_size);
            return result;
        }

        inline partial_shape partial_shape::prepend(const partial_shape& other) const
        {
            return joined("partial_shape::prepend", other, *this);
        }

        inline partial_shape partial_shape::sub_shape(size_type begin, size_type end) const
        {
            const auto n = checked_rank("partial_shape::sub_shape");
            if (begin < 0 || end < begin || end > n)
            {
                detail::throw_shape_error("partial_shape::sub_shape", "axes [", begin, ", ", end,
                                          ") are not a range of ", to_string(), " of rank ", n,
                                          " (0 <= begin <= end <= rank)");
            }
            partial_shape result;
            result.m_sizes.assign(m_sizes.begin() + begin, m_sizes.begin() + end);
            return result;
        }

        inline partial_shape partial_shape::take(size_type n) const
        {
            const auto r = checked_rank("partial_shape::take");
            if (n < 0 || n > r)
            {
                detail::throw_shape_error("partial_shape::take", "cannot take ", n, " leading axes of ",
                                          to_string(), " of rank ", r);
            }
            return sub_shape(0, n);
        }

        inline partial_shape partial_shape::take_last(size_type n) const
        {
            const auto r = checked_rank("partial_shape::take_last");
            if (n < 0 || n > r)
            {
                detail::throw_shape_error("partial_shape::take_last", "cannot take ", n, " trailing axes of ",
                                          to_string(), " of rank ", r);
            }
            return sub_shape(r - n, r);
        }

        inline partial_shape partial_shape::head() const
        {
            const auto r = checked_rank("partial_shape::head");
            if (r == 0)
            {
                detail::throw_shape_error("partial_shape::head", "the scalar shape () has no first axis");
            }
            return sub_shape(0, 1);
        }

        inline partial_shape partial_shape::tail() const
        {
            // TensorFlow's Shape.tail: the scalar shape has nothing to remove, and stays the scalar shape.
            const auto r = checked_rank("partial_shape::tail");
            return r == 0 ? scalar() : sub_shape(1, r);
        }

        inline bool partial_shape::is_compatible(size_type size, size_type other_size) noexcept
        {
            return size == named::unknown || other_size == named::unknown || size == other_size;
        }

        inline bool partial_shape::is_compatible_with(const partial_shape& other) const noexcept
        {
            if (is_unknown() || other.is_unknown())
            {
                return true;
            }
            if (m_sizes.size() != other.m_sizes.size())
            {
                return false;
            }
            for (std::size_t i = 0; i < m_sizes.size(); ++i)
            {
                if (!is_compatible(m_sizes[i], other.m_sizes[i]))
                {
                    return false;
                }
            }
            return true;
        }

        inline partial_shape partial_shape::merge_with(const partial_shape& other) const
        {
            if (is_unknown())
            {
                return other;
            }
            if (other.is_unknown())
            {
                return *this;
            }
            if (m_sizes.size() != other.m_sizes.size())
            {
                detail::throw_shape_error("partial_shape::merge_with", "cannot merge ", to_string(),
                                          " of rank ", m_sizes.size(), " with ", other.to_string(),
                                          " of rank ", other.m_sizes.size());
            }
            partial_shape result = *this;
            for (std::size_t i = 0; i < m_sizes.size(); ++i)
            {
                if (!is_compatible(m_sizes[i], other.m_sizes[i]))
                {
                    detail::throw_shape_error("partial_shape::merge_with", "cannot merge ", to_string(),
                                              " with ", other.to_string(), ": axis ", i, " has size ",
                                              m_sizes[i], " in one and ", other.m_sizes[i], " in the other");
                }
                if (result.m_sizes[i] == named::unknown)
                {
                    result.m_sizes[i] = other.m_sizes[i];
                }
            }
            return result;
        }

        inline partial_shape partial_shape::most_specific_compatible_shape(const partial_shape& other) const
        {
            if (is_unknown() || other.is_unknown() || m_sizes.size() != other.m_sizes.size())
            {
                return unknown();
            }
            partial_shape result = *this;
            for (std::size_t i = 0; i < m_sizes.size(); ++i)
            {
                if (m_sizes[i] != other.m_sizes[i])
                {
                    result.m_sizes[i] = named::unknown;
                }
            }
            return result;
        }

        inline auto partial_shape::sizes() const -> const container_type&
        {
            checked_rank("partial_shape::sizes");
            return m_sizes;
        }

        inline std::vector<std::size_t> partial_shape::to_concrete(std::string_view operation) const
        {
            if (has_unknown_dimension())
            {
                detail::throw_shape_error(operation, "the shape ", to_string(),
                                          " has unknown sizes where concrete sizes are needed");
            }
            check_extent(operation);
            return std::vector<std::size_t>(m_sizes.begin(), m_sizes.end());
        }

        inline std::string partial_shape::to_string() const
        {
            if (!m_known_rank)
            {
                return "<unknown>";
            }
            std::string out = "(";
            for (std::size_t i = 0; i < m_sizes.size(); ++i)
            {
                if (i != 0)
                {
                    out += ", ";
                }
                out += m_sizes[i] == named::unknown ? std::string("?") : std::to_string(m_sizes[i]);
            }
            out += ")";
            return out;
        }

        inline bool operator==(const partial_shape& lhs, const partial_shape& rhs) noexcept
        {
            if (lhs.is_unknown() || rhs.is_unknown())
            {
                return lhs.is_unknown() && rhs.is_unknown();
            }
            return lhs.sizes() == rhs.sizes();
        }

        inline bool operator!=(const partial_shape& lhs, const partial_shape& rhs) noexcept
        {
            return !(lhs == rhs);
        }

        inline bool known_equal(const partial_shape& lhs, const partial_shape& rhs) noexcept
        {
            if (&lhs == &rhs)
            {
                return true;
            }
            return lhs.is_fully_known() && rhs.is_fully_known() && lhs == rhs;
        }

        inline std::ostream& operator<<(std::ostream& out, const partial_shape& s)
        {
            return out << s.to_string();
        }

        inline std::string to_string(const partial_shape& s)
        {
            return s.to_string();
        }
    } // namespace named
} // namespace xt

#endif
