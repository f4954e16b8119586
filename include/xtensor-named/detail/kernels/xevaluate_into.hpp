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
// the expression layer all evaluate through evaluate_into, which gives the strong guarantee where the
// output takes a new shape (docs/named_expressions.md, "What a failure leaves").

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "../../xcompat_xtensor.hpp"
#include "../core/xextent.hpp"
#include "xkernel_assign.hpp"

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp. xtensor's own assignment, where the kernels do not
// cover an expression, reaches xsimd's math functions from here.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Whether `C` can take another shape: xtensor's containers, and its adaptors over a storage
            /// that can grow (a std::vector, an owned buffer), not over memory they do not own.
            template <class C>
            struct is_resizable_output : std::false_type
            {
            };

            template <class EC, xt::layout_type L, class SC, class Tag>
            struct is_resizable_output<xt::xarray_container<EC, L, SC, Tag>> : std::true_type
            {
            };

            template <class EC, std::size_t N, xt::layout_type L, class Tag>
            struct is_resizable_output<xt::xtensor_container<EC, N, L, Tag>> : std::true_type
            {
            };

            template <class S>
            struct is_resizable_storage : std::true_type
            {
            };

            template <class CP, class A>
            struct is_resizable_storage<xt::xbuffer_adaptor<CP, xt::no_ownership, A>> : std::false_type
            {
            };

            template <class EC, xt::layout_type L, class SC, class Tag>
            struct is_resizable_output<xt::xarray_adaptor<EC, L, SC, Tag>>
                : is_resizable_storage<std::decay_t<EC>>
            {
            };

            template <class EC, std::size_t N, xt::layout_type L, class Tag>
            struct is_resizable_output<xt::xtensor_adaptor<EC, N, L, Tag>>
                : is_resizable_storage<std::decay_t<EC>>
            {
            };

            template <class C>
            inline constexpr bool is_resizable_output_v = is_resizable_output<std::decay_t<C>>::value;

            /// Whether `C` is an xtensor container that owns its elements (xt::xarray, xt::xtensor).
            template <class C>
            struct is_owning_container : std::false_type
            {
            };

            template <class EC, xt::layout_type L, class SC, class Tag>
            struct is_owning_container<xt::xarray_container<EC, L, SC, Tag>> : std::true_type
            {
            };

            template <class EC, std::size_t N, xt::layout_type L, class Tag>
            struct is_owning_container<xt::xtensor_container<EC, N, L, Tag>> : std::true_type
            {
            };

            /// Whether the shapes `a` and `b` are equal.
            template <class A, class B>
            inline bool equal_shapes(const A& a, const B& b)
            {
                if (a.size() != b.size())
                {
                    return false;
                }
                for (std::size_t i = 0; i < a.size(); ++i)
                {
                    if (static_cast<std::size_t>(a[i]) != static_cast<std::size_t>(b[i]))
                    {
                        return false;
                    }
                }
                return true;
            }

            /// Writes the elements of `e` into `out`, which has its shape: the kernels where they cover
            /// `e`, xtensor's assignment elsewhere.
            template <class C, class E>
            void evaluate_in_place(C& out, const E& e)
            {
                if constexpr (is_xreducer<std::decay_t<E>>::value)
                {
                    // xtensor's reducer offsets a null pointer when its input has no element (undefined
                    // behaviour): a reduction over nothing is its initial value, as xtensor documents.
                    if (e.expression().size() == 0 && !try_kernel_assign(out, e))
                    {
                        const auto& options = e.options();
                        using options_type = std::decay_t<decltype(options)>;
                        if constexpr (options_type::has_initial_value)
                        {
                            std::fill(out.begin(), out.end(), options.initial_value);
                        }
                        else
                        {
                            std::fill(out.begin(), out.end(), e.functors().get_init()());
                        }
                        return;
                    }
                }
                if (!try_kernel_assign(out, e))
                {
                    xt::noalias(out) = e;
                }
            }

            /**
             * Writes the elements of the xtensor expression `e` into `out`: the one place that evaluates.
             * Where `out` must take another shape, `e` is evaluated into a new container that then
             * replaces `out`'s elements, so that a failure (an allocation, an element operation that
             * throws) leaves `out` as it was, and `e` may read `out`. Callers check that `out` can take
             * the shape (xn::assign refuses a view or a fixed shape first).
             */
            template <class C, class E>
            void evaluate_into(C& out, const E& e)
            {
                const auto& shape = e.shape();
                if constexpr (!is_resizable_output_v<C>)
                {
                    // A view keeps the shape it has: xtensor broadcasts into it, or refuses.
                    evaluate_in_place(out, e);
                }
                else if (equal_shapes(out.shape(), shape))
                {
                    evaluate_in_place(out, e);
                }
                else
                {
                    using output_type = std::decay_t<C>;
                    using fresh_type =
                        std::conditional_t<is_owning_container<output_type>::value, output_type,
                                           xt::xarray<typename output_type::value_type>>;
                    check_extent("assign", "the result", shape, sizeof(typename fresh_type::value_type));
                    fresh_type fresh;
                    fresh.resize(
                        xtl::forward_sequence<typename fresh_type::shape_type, decltype(shape)>(shape));
                    evaluate_in_place(fresh, e);
                    if constexpr (is_owning_container<output_type>::value)
                    {
                        out = std::move(fresh);
                    }
                    else
                    {
                        // An adaptor: xtensor's resize sets the shape before it allocates the strides (a
                        // std::vector shape, an svector beyond its inline size), so a failure there would
                        // leave the new shape with the old strides. The storage only grows first (its
                        // elements kept), and a failed resize is undone without allocating: the shape is
                        // copied in (an svector's move allocates inside noexcept), so the container keeps
                        // room for the old shape, and the strides and the storage only shrink back.
                        using shape_type = typename output_type::shape_type;
                        const shape_type old_shape = out.shape();
                        const shape_type new_shape =
                            xtl::forward_sequence<shape_type, decltype(shape)>(shape);
                        if (out.storage().size() < fresh.size())
                        {
                            out.storage().resize(fresh.size());
                        }
                        try
                        {
                            out.resize(new_shape);
                        }
                        catch (...)
                        {
                            out.resize(old_shape, true);
                            throw;
                        }
                        std::copy(fresh.begin(), fresh.end(), out.begin());
                    }
                }
            }

            /// Read-only elements kept alive by a shared owner.
            template <class T>
            using shared_buffer_t =
                xt::xbuffer_adaptor<const T*, xt::no_ownership, std::shared_ptr<const void>>;

            /// The container for a shape type, and its read-only twin over shared elements.
            template <class Shape, std::ptrdiff_t N = xt::static_dimension<Shape>::value>
            struct container_for_shape
            {
                template <class T>
                using type = xt::xtensor<T, static_cast<std::size_t>(N)>;
                template <class T>
                using shared = xt::xtensor_adaptor<shared_buffer_t<T>, static_cast<std::size_t>(N)>;
            };

            template <class Shape>
            struct container_for_shape<Shape, -1>
            {
                template <class T>
                using type = xt::xarray<T>;
                template <class T>
                using shared = xt::xarray_adaptor<shared_buffer_t<T>, xt::layout_type::row_major,
                                                  typename xt::xarray<T>::shape_type>;
            };

            /// The container `eval` makes for the xtensor expression `E`: an xt::xtensor where the rank is
            /// static, an xt::xarray elsewhere, row-major, as SPEC.md promises. Not xt::temporary_type_t,
            /// which gives an xt::xtensor_fixed for a fixed shape and follows a column-major operand.
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

            /// The read-only twin of container_for_t<E>, whose elements its copies share.
            template <class E>
            using shared_container_for_t = typename container_for_shape<
                typename std::decay_t<E>::shape_type>::template shared<typename std::decay_t<E>::value_type>;

            /**
             * `e` evaluated once into a container that copies share. An expression that owns a temporary
             * (a reduction inside an operation) is copied wherever it is used twice, as a softmax uses
             * exp(x - max) twice, and copying the temporary's elements would cost as much as writing them.
             */
            template <class E>
            shared_container_for_t<E> shared_evaluated(const E& e)
            {
                auto owner = std::make_shared<container_for_t<E>>(evaluated(e));
                shared_buffer_t<typename container_for_t<E>::value_type> elements(
                    owner->data(), owner->size(), std::shared_ptr<const void>(owner));
                return shared_container_for_t<E>(std::move(elements), owner->shape());
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
