/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XEXTENT_HPP
#define XTENSOR_NAMED_DETAIL_XEXTENT_HPP

// Whether an array of a given shape can exist at all. xtensor computes a container's element count and
// its row-major strides (the products of the sizes after each axis) without checking: a wrapped product
// would give a container too small for its shape, and the first write would land outside it. Every
// shape that the library turns into memory passes this check first.

#include <cstddef>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "../../xerrors.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// `(2, 3, 4)` of the first `count` sizes of `sizes` (a pointer or a shape), each as it is.
            template <class Sizes>
            std::string join_sizes(const Sizes& sizes, std::size_t count)
            {
                std::string out = "(";
                for (std::size_t i = 0; i < count; ++i)
                {
                    out += (i == 0 ? "" : ", ") + std::to_string(sizes[i]);
                }
                return out + ")";
            }

            /// `(2, 3, 4)` of `count` sizes from `sizes`, for messages.
            inline std::string sizes_string(const std::size_t* sizes, std::size_t count)
            {
                return join_sizes(sizes, count);
            }

            template <class S, class T, class = void>
            struct stores : std::false_type
            {
            };

            /// Whether a sequence of type `S` (a shape, strides) stores its elements as contiguous `T`, so
            /// that code taking a pointer to `T` reads it without a copy, whatever its type.
            template <class S, class T>
            struct stores<S, T, std::void_t<decltype(std::data(std::declval<const S&>()))>>
                : std::is_same<
                      std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<const S&>()))>>,
                      T>
            {
            };

            /// Whether a shape of type `S` stores its sizes as contiguous std::size_t: then one function
            /// writes every such shape in messages, rather than one per shape type.
            template <class S>
            using stores_size_t = stores<S, std::size_t>;

            /// `(2, 3, 4)`, for messages.
            template <class S>
            std::string sizes_string(const S& shape)
            {
                if constexpr (stores_size_t<S>::value)
                {
                    return sizes_string(std::data(shape), std::size(shape));
                }
                else
                {
                    return join_sizes(shape, shape.size());
                }
            }

            /**
             * Throws xn::shape_error unless an array of `shape` whose elements take `element_bytes` bytes
             * can exist: its element count and its row-major strides fit in a signed 64-bit size
             * (std::ptrdiff_t, xtensor's strides), and its bytes in the largest size of an object. `what`
             * names the array in the message ("the result (x, y)"), or is a function that makes that name,
             * called only for the message. A size of 0 leaves no element, but xtensor still computes the
             * strides to its left.
             */
            template <class S, class What>
            void check_extent(std::string_view operation, const What& what, const S& shape,
                              std::size_t element_bytes)
            {
                const auto name = [&what]() -> std::string
                {
                    if constexpr (std::is_invocable_v<const What&>)
                    {
                        return what();
                    }
                    else
                    {
                        return std::string(what);
                    }
                };
                // xtensor keeps strides as std::ptrdiff_t: a product beyond its largest value is a
                // signed overflow, even for a shape of no element such as (0, 2, 6148914691236517206).
                constexpr auto largest = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
                std::size_t product = 1;
                for (std::size_t i = shape.size(); i-- > 0;)
                {
                    const auto size = static_cast<std::size_t>(shape[i]);
                    if (size != 0 && product > largest / size)
                    {
                        throw_shape_error(operation, name(), " of shape ", sizes_string(shape),
                                          i == 0 ? " has more elements than a 64-bit size can count"
                                                 : " has a row-major stride that overflows a 64-bit size");
                    }
                    product *= size;
                }
                const auto largest_object =
                    static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
                if (element_bytes != 0 && product > largest_object / element_bytes)
                {
                    throw_shape_error(operation, name(), " of shape ", sizes_string(shape), " holds ",
                                      product, " elements of ", element_bytes,
                                      " bytes: more than the largest object, ", largest_object, " bytes");
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
