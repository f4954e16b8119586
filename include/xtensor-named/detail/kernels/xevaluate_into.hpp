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
#include <mutex>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../../xcompat_xtensor.hpp"
#include "../../xerrors.hpp"
#include "../core/xextent.hpp"
#include "xdeferred.hpp"
#include "xkernel_assign.hpp"
#include "xshort_path.hpp"

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

            /// Writes the elements of `e` into `out`, which has its shape: the kernels where they cover `e`
            /// (their short loop where it is small), xtensor's assignment elsewhere and for a small
            /// reduction (the short path). `fresh`: `out` is a result just made, which no operand reads.
            /// `order` (see try_kernel_assign) only for a tree of kernel_writes_elementwise.
            template <class C, class E>
            void evaluate_in_place(C& out, const E& e, bool fresh, const index_map* order = nullptr)
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
                if constexpr (kernel_writes_elementwise<C, E>::value)
                {
                    // Each leaf lines up with the tree's shape from the right, so the kernels take it.
                    if ((out.size() > short_path_written || !try_short_loop(out, e, order)) &&
                        !try_kernel_assign(out, e, order))
                    {
                        throw_shape_error("assign",
                                          "an operand does not line up with the shape of the result");
                    }
                    return;
                }
                static_cast<void>(order);
                const bool short_path = takes_short_path(out, e, fresh);
                if (short_path || !try_kernel_assign(out, e))
                {
                    compute_deferred_operands(e);
                    assign_by_xtensor(out, e, short_path);
                }
            }

            /**
             * Writes the elements of the xtensor expression `e` into `out`: the one place that evaluates.
             * Where `out` must take another shape, `e` is evaluated into a new container that then
             * replaces `out`'s elements, so that a failure (an allocation, an element operation that
             * throws) leaves `out` as it was, and `e` may read `out`. Callers check that `out` can take
             * the shape (xn::assign refuses a view or a fixed shape first). `order` as for
             * evaluate_in_place: an output in another axis order than `e`'s is written with no view of `e`,
             * through the loops that write it in its own order.
             */
            template <class C, class E>
            void evaluate_into(C& out, const E& e, const index_map* order = nullptr)
            {
                const auto& shape = e.shape();
                const bool same_shape = has_shape_in_output_order(out, shape, order);
                if constexpr (!is_resizable_output_v<C>)
                {
                    // A view keeps the shape it has: xtensor broadcasts into it, or refuses.
                    if (same_shape)
                    {
                        evaluate_in_place(out, e, false, order);
                    }
                    else
                    {
                        compute_deferred_operands(e);
                        assign_by_xtensor(out, e, false);
                    }
                }
                else if (same_shape)
                {
                    evaluate_in_place(out, e, false, order);
                }
                else
                {
                    const kernel_sizes new_sizes = in_output_order(shape, order);
                    using output_type = std::decay_t<C>;
                    using fresh_type =
                        std::conditional_t<is_owning_container<output_type>::value, output_type,
                                           xt::xarray<typename output_type::value_type>>;
                    // The array made is of the output's order: its sizes and strides are the ones checked.
                    check_extent("assign", "the result", new_sizes, sizeof(typename fresh_type::value_type));
                    fresh_type fresh;
                    fresh.resize(xtl::forward_sequence<typename fresh_type::shape_type, const kernel_sizes&>(
                        new_sizes));
                    evaluate_in_place(fresh, e, true, order);
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
                            xtl::forward_sequence<shape_type, const kernel_sizes&>(new_sizes);
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

            /// The container for a shape type.
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
            /// static, an xt::xarray elsewhere, row-major, as SPEC.md promises. Not xt::temporary_type_t,
            /// which gives an xt::xtensor_fixed for a fixed shape and follows a column-major operand.
            template <class E>
            using container_for_t = typename container_for_shape<
                typename std::decay_t<E>::shape_type>::template type<typename std::decay_t<E>::value_type>;

            /// `e` evaluated into a new container, made at its shape (an empty xt::xarray would hold one
            /// element first); `operation` is the one named in an overflow message.
            template <class E>
            container_for_t<E> evaluated(const E& e, std::string_view operation = "eval")
            {
                using container = container_for_t<E>;
                const auto& shape = e.shape();
                check_extent(operation, "the result", shape, sizeof(typename container::value_type));
                auto out = container::from_shape(
                    xtl::forward_sequence<typename container::shape_type, decltype(shape)>(shape));
                evaluate_in_place(out, e, true);
                return out;
            }

            /**
             * How the deferred temporary of a copy of `E` (a tree with reducers in it) is computed: by the
             * kernels a block of rows at a time where they cover it, else whole, by evaluate_in_place.
             * What the kernels need of `E` is gathered the first time it is computed, not before: its
             * operands may change until the operation is evaluated, as any lazy expression's may.
             */
            template <class E>
            class deferred_evaluation_of final : public deferred_evaluation<typename E::value_type>
            {
            public:
                using value_type = typename E::value_type;
                using lane = kernel_lane_t<E>;

                explicit deferred_evaluation_of(E e)
                    : m_expression(std::move(e)), m_shape(kernel_shape(m_expression.shape()))
                {
                }

                void compute(value_type* rows, std::size_t first, std::size_t last) const override
                {
                    prepare();
                    if constexpr (reduces || finishes)
                    {
                        if (m_job)
                        {
                            m_job->compute(rows, first, last);
                            finish(rows, first, last);
                            return;
                        }
                    }
                    else if constexpr (elementwise)
                    {
                        if (m_job)
                        {
                            m_job->run(rows, first, last);
                            return;
                        }
                    }
                    // Without a job the evaluation is not by rows: it is asked for every row, from row 0.
                    std::size_t size = 1;
                    for (std::size_t n : m_shape)
                    {
                        size *= n;
                    }
                    auto out = xt::adapt(rows, size, xt::no_ownership(), m_shape);
                    evaluate_in_place(out, folded(), true);
                    finish(rows, 0, m_shape.empty() ? 1 : m_shape[0]);
                }

                bool by_rows() const override
                {
                    prepare();
                    if constexpr (reduces || finishes)
                    {
                        return m_job && m_job->by_rows();
                    }
                    else
                    {
                        return m_job && !m_shape.empty();
                    }
                }

                std::size_t input_bytes() const override
                {
                    prepare();
                    if constexpr (has_job)
                    {
                        if (m_job)
                        {
                            return m_job->input_bytes();
                        }
                    }
                    return 0;
                }

                bool reads(const void* data, std::size_t element_bytes,
                           const memory_span& span) const override
                {
                    prepare();
                    if constexpr (has_job)
                    {
                        if (m_job)
                        {
                            return m_job->reads(data, element_bytes, span);
                        }
                    }
                    static_cast<void>(data);
                    static_cast<void>(element_bytes);
                    static_cast<void>(span);
                    return true;
                }

                void visit_deferred(const deferred_visitor& visit) const override
                {
                    prepare();
                    if constexpr (has_job)
                    {
                        if (m_job)
                        {
                            m_job->visit_deferred(visit);
                        }
                    }
                    static_cast<void>(visit);
                }

            private:
#if defined(XTENSOR_NAMED_DISABLE_KERNELS)
                static constexpr bool reduces = false;
                static constexpr bool finishes = false;
                static constexpr bool elementwise = false;
#else
                static constexpr bool reduces =
                    is_kernel_lane_v<value_type> && kernel_reduction<value_type, E>::supported;
                // A function of one reduction and scalars: the reduction's job, the function applied after.
                static constexpr bool finishes =
                    is_kernel_lane_v<value_type> && kernel_finished_reduction<value_type, E>::value;
                static constexpr bool elementwise = !reduces && !finishes &&
                                                    is_kernel_elementwise_v<lane, E> &&
                                                    is_kernel_output<xt::xarray<value_type>>::value;
#endif
                static constexpr bool has_job = reduces || finishes || elementwise;
                /// No job: the kernels do not cover E.
                struct no_job
                {
                    explicit no_job(const E&) noexcept {}

                    bool covered() const noexcept
                    {
                        return false;
                    }
                };

                using job_type = std::conditional_t<
                    reduces || finishes, kernel_reduction_job<value_type, kernel_folded_t<value_type, E>>,
                    std::conditional_t<elementwise, kernel_elementwise_job<lane, E>, no_job>>;

                /// The kernels' job, made the first time anything asks.
                void prepare() const
                {
                    std::call_once(m_prepared,
                                   [this]
                                   {
                                       if (is_short_reduction(folded()))
                                       {
                                           // Computed whole, as the same reduction is anywhere.
                                           return;
                                       }
                                       auto job = std::make_unique<job_type>(folded());
                                       if (job->covered())
                                       {
                                           m_job = std::move(job);
                                       }
                                   });
                }

                /// What is evaluated first: the expression, or the reduction that it finishes.
                const auto& folded() const noexcept
                {
                    if constexpr (finishes)
                    {
                        return std::get<kernel_finished_reduction<value_type, E>::reducer()>(
                            m_expression.arguments());
                    }
                    else
                    {
                        return m_expression;
                    }
                }

                /// The function of a finished reduction applied to rows [first, last), which hold the
                /// reduction.
                void finish(value_type* rows, std::size_t first, std::size_t last) const noexcept
                {
                    if constexpr (finishes)
                    {
                        std::size_t count = last - first;
                        for (std::size_t q = 1; q < m_shape.size(); ++q)
                        {
                            count *= m_shape[q];
                        }
                        kernel_finish<value_type>(m_expression, rows, count);
                    }
                    else
                    {
                        static_cast<void>(rows);
                        static_cast<void>(first);
                        static_cast<void>(last);
                    }
                }

                E m_expression;
                kernel_sizes m_shape;
                mutable std::once_flag m_prepared;
                mutable std::unique_ptr<job_type> m_job;
            };

            /// The read-only container of a deferred temporary of the shape type `Shape`.
            template <class T, class Shape, std::ptrdiff_t N = xt::static_dimension<Shape>::value>
            struct deferred_container
            {
                using type = xt::xtensor_adaptor<deferred_buffer<T>, static_cast<std::size_t>(N)>;
            };

            template <class T, class Shape>
            struct deferred_container<T, Shape, -1>
            {
                using type = xt::xarray_adaptor<deferred_buffer<T>, xt::layout_type::row_major,
                                                typename xt::xarray<T>::shape_type>;
            };

            template <class E>
            using deferred_container_for_t =
                typename deferred_container<typename std::decay_t<E>::value_type,
                                            typename std::decay_t<E>::shape_type>::type;

            /**
             * A read-only container of `e`'s elements, computed the first time anything reads them (see
             * xdeferred.hpp), which its copies share. `e` is copied, or moved from an rvalue.
             */
            template <class E>
            deferred_container_for_t<E> shared_deferred(E&& e)
            {
                using expression_type = std::decay_t<E>;
                using value_type = typename expression_type::value_type;
                const auto& shape = e.shape();
                // As evaluate_into checks a new result's shape, with the same words.
                check_extent("assign", "the result", shape, sizeof(value_type));
                auto shape_copy =
                    xtl::forward_sequence<typename deferred_container_for_t<E>::shape_type, decltype(shape)>(
                        shape);
                auto state = std::make_shared<const deferred_state<value_type>>(
                    shape_copy, std::make_unique<const deferred_evaluation_of<expression_type>>(
                                    expression_type(std::forward<E>(e))));
                return deferred_container_for_t<E>(deferred_buffer<value_type>(std::move(state)),
                                                   std::move(shape_copy));
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
