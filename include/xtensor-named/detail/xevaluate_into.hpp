/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XEVALUATE_INTO_HPP
#define XTENSOR_NAMED_DETAIL_XEVALUATE_INTO_HPP

// The one place where elements are computed and written: xn::eval, xn::assign and the temporaries of
// the expression layer all evaluate through evaluate_into.

#include <cstddef>
#include <type_traits>

#include "../xcompat_xtensor.hpp"
#include "xkernel_assign.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Writes the elements of the xtensor expression `e` into `out`, resized as needed.
            template <class C, class E>
            void evaluate_into(C& out, const E& e)
            {
                // The library's kernels where they cover `e`, xtensor's assignment elsewhere.
                if (!try_kernel_assign(out, e))
                {
                    xt::noalias(out) = e;
                }
            }

            template <class Shape, std::ptrdiff_t N = xt::static_dimension<Shape>::value>
            struct container_for_shape
            {
                template <class T>
                using type = xt::xtensor<T, static_cast<std::size_t>(N)>;
            };

            template <class Shape>
            struct container_for_shape<Shape, -1>
            {
                template <class T>
                using type = xt::xarray<T>;
            };

            /// The container `eval` makes for the xtensor expression `E`: an xt::xtensor where the rank is
            /// static, an xt::xarray elsewhere.
            template <class E>
            using container_for_t = typename container_for_shape<
                typename std::decay_t<E>::shape_type>::template type<typename std::decay_t<E>::value_type>;

            /// `e` evaluated into a new container.
            template <class E>
            container_for_t<E> evaluated(const E& e)
            {
                container_for_t<E> out;
                evaluate_into(out, e);
                return out;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
