/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_ASSIGN_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_ASSIGN_HPP

// The entry point of the kernels (docs/kernels.md): try_kernel_assign(out, e) evaluates a plain xtensor
// expression into `out` as `xt::noalias(out) = e` does, when the kernels cover it, and returns false,
// having touched nothing, when they do not (the caller then uses xtensor's assignment).

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "../core/xextent.hpp"
#include "../core/xindex_map.hpp"
#include "xdeferred.hpp"
#include "xkernel_expression.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_loops.hpp"
#include "xscratch.hpp"
#include "xshort_path.hpp"

#ifndef XTENSOR_NAMED_BLOCK_BYTES
// A tree with reducers among its leaves is evaluated in blocks of rows that move about this many bytes
// (see kernel_collector::run_by_blocks).
#define XTENSOR_NAMED_BLOCK_BYTES (std::size_t(512) << 10)
#endif

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /**
             * Evaluates `e` into `out`, which has its shape, as `xt::noalias(out) = e` does, with the
             * library's kernels and returns true; returns false without touching `out` when the kernels
             * do not cover the pair or `out` has another shape (evaluate_into sizes outputs).
             *
             * Covered: `out` an xtensor container or strided view of float, double or bool; `e` an
             * elementwise tree of the functions of xkernel_ops.hpp (arithmetic, comparisons, logical
             * operations, where, minimum and maximum, xsimd's math functions) over containers, strided
             * views, scalars, xt::broadcast of these and reducers, computed in float or double with
             * operands of other arithmetic types converted as C++ converts them; or a reducer with a
             * fold the kernels know (sum, prod and the library's amax, amin, nanmax, nanmin) over such a
             * tree. Arithmetic, comparisons and selections give xtensor's values bit for bit; sums and
             * products too, except when the innermost axis is reduced (then lanes are folded apart:
             * see lane_fold_sink).
             * An `out` that shares memory with an operand is evaluated in place when every such operand
             * reads exactly the element being written, through a temporary otherwise.
             * Defining XTENSOR_NAMED_DISABLE_KERNELS leaves everything to xtensor.
             * `order`: where not null, axis i of `out` is axis `(*order)[i]` of `e` (a permutation),
             * written through out's strides with no view of `e`; a reduction with `order` is refused
             * where it would go through a temporary (an output it reads, another element type).
             */
            template <class O, class E>
            bool try_kernel_assign(O& out, const E& e, const index_map* order = nullptr);

            /**
             * Evaluates the elementwise tree `e` into `out`, of its shape and at most short_path_written
             * elements, by the short path's own loop (short_loop). False, with nothing written, where
             * that loop does not take it: a reducer or a temporary not computed yet in the tree, axes or
             * leaves it does not fit, or an `out` that an operand reads otherwise than element by element.
             * `order` as for try_kernel_assign.
             */
            template <class O, class E>
            bool try_short_loop(O& out, const E& e, const index_map* order = nullptr);

            /// `shape`, an expression's, in the axis order of an output whose axis i is axis
            /// `(*order)[i]` of the expression (`shape` itself where `order` is null).
            template <class S>
            kernel_sizes in_output_order(const S& shape, const index_map* order);

            /// Whether `out` has `shape`, the expression's, once that is put in the output's axis order.
            template <class O, class S>
            bool has_shape_in_output_order(const O& out, const S& shape, const index_map* order);

            /// Whether `O` is an output the kernels write: a float, double or bool array with a data pointer.
            template <class O, class = void>
            struct is_kernel_output : std::false_type
            {
            };

            template <class O>
            struct is_kernel_output<
                O, std::void_t<decltype(std::declval<O&>().data()),
                               decltype(std::declval<const O&>().data_offset()),
                               decltype(std::declval<const O&>().strides()),
                               decltype(std::declval<const O&>().shape()), typename O::value_type>>
                : std::bool_constant<
                      (is_kernel_lane_v<typename O::value_type> ||
                       std::is_same<typename O::value_type, bool>::value) &&
                      std::is_same<decltype(std::declval<O&>().data()), typename O::value_type*>::value>
            {
            };

            /// Whether the kernels evaluate `E` elementwise in lanes of `T`.
            template <class T, class E, bool = is_kernel_lane_v<T>>
            struct is_kernel_elementwise : std::false_type
            {
            };

            template <class T, class E>
            struct is_kernel_elementwise<T, E, true>
                : std::bool_constant<kernel_node<T, E>::supported &&
                                     !xt::is_xscalar<std::decay_t<E>>::value &&
                                     !is_xreducer<std::decay_t<E>>::value>
            {
            };

            template <class T, class E>
            inline constexpr bool is_kernel_elementwise_v = is_kernel_elementwise<T, E>::value;

            /// Whether the kernels evaluate the elementwise tree `E` in lanes of O's element type.
            template <class O, class E>
            struct kernel_tree_of_output
                : std::bool_constant<is_kernel_elementwise_v<kernel_lane_t<E>, E> &&
                                     std::is_same<typename O::value_type, kernel_lane_t<E>>::value>
            {
            };

            /**
             * Whether the kernels evaluate every elementwise tree `E` into an `O` of its shape, small ones
             * too (try_short_loop, else try_kernel_assign), in O's element type: xtensor's assignment of `E`
             * into `O` is then not compiled. Not where XTENSOR_NAMED_DISABLE_KERNELS leaves everything to
             * xtensor. The tree is looked at only for an output the kernels write, so that a refused
             * expression (of an invalid element type) adds no diagnostic of its own.
             */
            template <class O, class E>
            struct kernel_writes_elementwise
#if defined(XTENSOR_NAMED_DISABLE_KERNELS)
                : std::false_type
#else
                : std::conjunction<is_kernel_output<O>, kernel_tree_of_output<O, E>>
#endif
            {
            };

            template <class T, std::size_t L>
            class kernel_fold_job;

            template <class T, class E>
            class kernel_reduction_job;

            /// The kernel_fold_job that a kernel_reduction_job of `E` is.
            template <class T, class E>
            using kernel_fold_job_of =
                kernel_fold_job<T, kernel_fold_slots(kernel_reduction<T, std::decay_t<E>>::node::leaves)>;

            /// What a block of rows evaluated with the reducers' rows that it reads should move at most:
            /// well within the second-level cache, where the rows stay between the reducers and the tree.
            inline constexpr std::size_t kernel_block_bytes = XTENSOR_NAMED_BLOCK_BYTES;

            using deferred_visitor = std::function<void(const deferred_state_base&)>;

            /**
             * What run_by_blocks calls on each block, the tree's loop over the block's leaves (as many as
             * the collector's), seen through one function pointer: the blocks, temporaries and locks
             * around it are then compiled once per element type, not once per expression. The callable
             * must outlive the call that takes it.
             */
            template <class T>
            class block_function
            {
            public:

                template <class F,
                          class = std::enable_if_t<!std::is_same<std::decay_t<F>, block_function>::value>>
                block_function(const F& f) noexcept // NOLINT(google-explicit-constructor): passed lambdas
                    : m_callable(&f),
                      m_call([](const void* callable, kernel_layout& part, const kernel_leaf_ref<T>* leaves)
                             { (*static_cast<const F*>(callable))(part, leaves); })
                {
                }

                void operator()(kernel_layout& part, const kernel_leaf_ref<T>* leaves) const
                {
                    m_call(m_callable, part, leaves);
                }

            private:

                const void* m_callable;
                void (*m_call)(const void*, kernel_layout&, const kernel_leaf_ref<T>*);
            };

            /// An address that stands for the element type U, so that types known apart can be compared.
            template <class U>
            inline constexpr char element_type_tag = 0;

            /**
             * Walks the leaves of an expression in order and fills operands 1, 2, ... of a layout with
             * their strides in the layout's index space, keeping where they are in memory. Reducers in
             * the tree are read from temporaries that live as long as the collector (see materialize).
             * The number of leaves is a value, not a type: a collector, its blocks and its temporaries
             * are compiled once per element type, and only the tree's own loop knows its leaves' count.
             */
            template <class T>
            class kernel_collector
            {
            public:
                /// `leaves`: the tree's. `blocks`: whether this collector's owner evaluates by
                /// run_by_blocks, computing there the rows of the deferred temporaries that the tree reads;
                /// else they are computed by the blocks of an evaluation this one is part of, or whole.
                kernel_collector(kernel_layout& layout, std::size_t first_operand, std::size_t leaves,
                                 bool blocks = false)
                    : m_layout(layout), m_operand(first_operand), m_count(leaves),
                      m_leaves(std::max<std::size_t>(leaves, 1), kernel_leaf_ref<T>{}),
                      m_leaf_rows_of(std::max<std::size_t>(leaves, 1), nullptr),
                      m_span(std::max<std::size_t>(leaves, 1), memory_span{}),
                      m_scalar(std::max<std::size_t>(leaves, 1), T(0)), m_blocks(blocks)
                {
                }

                kernel_collector(const kernel_collector&) = delete;
                kernel_collector& operator=(const kernel_collector&) = delete;

                /// A leaf with a data interface.
                template <class U, class E>
                void data_leaf(const E& e)
                {
                    const auto* deferred = deferred_state_of(e);
                    if (deferred == nullptr || deferred->ready())
                    {
                        strided<U>(e.data() + e.data_offset(), e.shape(), e.strides());
                        return;
                    }
                    const std::size_t leaf = m_leaf;
                    strided<U>(deferred->memory() + e.data_offset(), e.shape(), e.strides());
                    // Its rows are the layout's where the leaf reads row r of the temporary at row r.
                    const std::size_t rows = deferred->rows();
                    const bool aligned =
                        deferred->rank() > 0 && e.dimension() == m_layout.rank() && e.data_offset() == 0 &&
                        rows == m_layout.size(0) && static_cast<std::size_t>(e.shape()[0]) == rows &&
                        static_cast<std::size_t>(e.strides()[0]) * rows == deferred->size() &&
                        deferred->evaluation().by_rows();
                    if (aligned && leaf < m_count)
                    {
                        m_leaf_rows_of[leaf] = deferred;
                    }
                    for (auto& pending : m_pending)
                    {
                        if (pending.deferred == deferred)
                        {
                            pending.aligned = pending.aligned && aligned;
                            return;
                        }
                    }
                    const auto& evaluation = deferred->evaluation();
                    pending_reduction pending;
                    pending.evaluation = &evaluation;
                    pending.memory = deferred->memory_bytes();
                    pending.row_bytes = deferred->row_bytes();
                    pending.deferred = deferred;
                    pending.rows = rows;
                    pending.aligned = aligned;
                    pending.element_type = &element_type_tag<U>;
                    pending.input_bytes = evaluation.input_bytes();
                    // Computed for the block into memory that stays in the cache, and read there; not
                    // kept (see deferred_evaluation_base::keeps_rows).
                    pending.rows_in_scratch = m_blocks && !evaluation.keeps_rows();
                    m_pending.push_back(std::move(pending));
                }

                template <class U, class S, class St>
                void strided(const U* data, const S& shape, const St& strides)
                {
                    if (m_leaf >= m_count)
                    {
                        m_ok = false;
                        return;
                    }
                    m_ok = m_ok && m_layout.set_right_aligned(m_operand, shape, strides);
                    kernel_leaf_ref<T>& leaf = m_leaves[m_leaf];
                    leaf.data = reinterpret_cast<const char*>(data);
                    leaf.element_bytes = static_cast<kernel_index>(sizeof(U));
                    leaf.convert = std::is_same<U, T>::value ? nullptr : &kernel_convert<T, U>;
                    m_span[m_leaf] = span_of(shape, strides);
                    ++m_leaf;
                    ++m_operand;
                }

                void scalar(T value)
                {
                    if (m_leaf >= m_count)
                    {
                        m_ok = false;
                        return;
                    }
                    m_scalar[m_leaf] = value;
                    // Stride 0 along every axis: the layout's strides start at 0.
                    m_leaves[m_leaf] = kernel_leaf_ref<T>{reinterpret_cast<const char*>(&m_scalar[m_leaf])};
                    m_span[m_leaf] = memory_span{};
                    ++m_leaf;
                    ++m_operand;
                }

                /**
                 * A reducer of the tree, read as a leaf from a temporary. Where the kernels cover it, the
                 * temporary is only made ready here, and filled by compute_reductions, compute_rows or
                 * run_by_blocks (a block of rows at a time, just before the rows of the tree that read them);
                 * elsewhere it is evaluated now, by xtensor.
                 */
                template <class R>
                void materialize(const R& reducer)
                {
                    using value_type = typename R::value_type;
                    auto temporary = std::make_shared<xt::xarray<value_type>>();
                    // A small one is computed whole, as the same reduction is anywhere (xshort_path.hpp).
                    const bool short_path = is_short_reduction(reducer);
                    if constexpr (is_kernel_lane_v<value_type> &&
                                  kernel_reduction<value_type, std::decay_t<R>>::supported)
                    {
                        auto job = short_path
                                       ? nullptr
                                       : std::make_shared<const kernel_reduction_job<value_type, R>>(reducer);
                        if (job && job->covered())
                        {
                            defer(std::shared_ptr<const kernel_fold_job_of<value_type, R>>(std::move(job)),
                                  std::move(temporary));
                            return;
                        }
                    }
                    temporary->resize(reducer.shape());
                    if (short_path || !try_kernel_assign(*temporary, reducer))
                    {
                        compute_deferred_operands(reducer);
                        assign_by_xtensor(*temporary, reducer, short_path);
                    }
                    add_temporary(std::move(temporary));
                }

                /// Makes `temporary` ready for `job`'s result, which compute_reductions, compute_rows or
                /// run_by_blocks fill: compiled once per element type and leaf count.
                template <class V, std::size_t L>
                void defer(std::shared_ptr<const kernel_fold_job<V, L>> job,
                           std::shared_ptr<xt::xarray<V>> temporary)
                {
                    const kernel_sizes& shape = job->shape();
                    temporary->resize(typename xt::xarray<V>::shape_type(shape.begin(), shape.end()));
                    pending_reduction pending;
                    pending.evaluation = job.get();
                    pending.memory = reinterpret_cast<char*>(temporary->data());
                    pending.rows = shape.empty() ? 0 : shape[0];
                    // The temporary's shape is fixed: its rows' length is taken once.
                    pending.row_bytes = pending.rows == 0 ? 0 : temporary->size() / pending.rows * sizeof(V);
                    // Read right-aligned: its rows are the layout's where the ranks are equal.
                    pending.aligned =
                        job->by_rows() && shape.size() == m_layout.rank() && pending.rows == m_layout.size(0);
                    pending.input_bytes = job->input_bytes();
                    m_pending.push_back(std::move(pending));
                    m_temporaries.push_back(std::move(job));
                    add_temporary(std::move(temporary));
                }

                /// Fills the temporaries of the tree's reducers whole; deferred ones are left to
                /// compute_rows.
                void compute_reductions()
                {
                    for (auto& pending : m_pending)
                    {
                        if (pending.deferred == nullptr)
                        {
                            compute(pending, 0, pending.rows);
                        }
                    }
                    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                                   [](const pending_reduction& p)
                                                   { return p.deferred == nullptr; }),
                                    m_pending.end());
                }

                /**
                 * Fills what the tree reads of rows [first, last) of the layout: the rows of the
                 * temporaries whose rows are the layout's, and the others whole the first time. A deferred
                 * temporary whose rows an evaluation of blocks (run_by_blocks) computed for this block
                 * already is left as it is; where this collector does not run the blocks, the others are
                 * computed whole. Returns the leaves that read these rows, for `part`, the layout's block
                 * of them (see leaves_of_rows), as the tree's loop takes them: L of them.
                 */
                template <std::size_t L>
                kernel_leaves<T, L> compute_rows(kernel_layout& part, std::size_t first, std::size_t last)
                {
                    compute_rows_of(first, last);
                    kernel_leaves<T, L> leaves{};
                    leaves_of_rows(part, first, last, leaves.data());
                    return leaves;
                }

                /// compute_rows but the leaves.
                void compute_rows_of(std::size_t first, std::size_t last)
                {
                    for (auto& pending : m_pending)
                    {
                        if (pending.aligned && pending.deferred != nullptr && !m_blocks &&
                            rows_in_this_block(pending.deferred, first, last) != nullptr)
                        {
                            continue;
                        }
                        if (pending.aligned && (pending.deferred == nullptr || m_blocks))
                        {
                            compute(pending, first, last);
                        }
                        else if (!pending.done)
                        {
                            compute(pending, 0, pending.rows);
                            pending.done = true;
                        }
                    }
                }

                /**
                 * The leaves that read rows [first, last) of the layout's first axis through `part`, the
                 * layout's block of them, written to `leaves`: a leaf of a deferred temporary whose rows
                 * this block computed in its scratch memory reads them there (its offset in `part` moved
                 * back to the block's first row).
                 */
                void leaves_of_rows(kernel_layout& part, std::size_t first, std::size_t last,
                                    kernel_leaf_ref<T>* leaves) const
                {
                    std::copy_n(m_leaves.begin(), m_count, leaves);
                    for (std::size_t k = 0; k < m_count; ++k)
                    {
                        const deferred_rows* rows = m_leaf_rows_of[k] == nullptr
                                                        ? nullptr
                                                        : rows_in_this_block(m_leaf_rows_of[k], first, last);
                        if (rows != nullptr && rows->at != nullptr)
                        {
                            const std::size_t operand = m_operand - m_count + k;
                            leaves[k].data = rows->at;
                            part.offset(operand) -=
                                static_cast<kernel_index>(first) * part.stride(0, operand);
                        }
                    }
                }

                /// Calls `visit(state)` on every deferred temporary that the tree reads, and on those
                /// that theirs read.
                void visit_deferred(const deferred_visitor& visit) const
                {
                    for (const auto& pending : m_pending)
                    {
                        if (pending.deferred != nullptr)
                        {
                            visit(*pending.deferred);
                        }
                        pending.evaluation->visit_deferred(visit);
                    }
                }

                /**
                 * Calls `run(part, leaves)` on `layout` (the tree's, operand 0 its output at `out` spanning
                 * `span`), with every temporary that the tree reads filled first: reducers' and deferred
                 * ones. Where a temporary's rows are the layout's first axis, the layout is cut into blocks
                 * of rows, and each block of the temporary is filled just before the rows that read it: the
                 * reductions' inputs and the tree's leaves are then read once from memory, as a loop
                 * written by hand reads them, not once per reduction and once more for the tree. The rows
                 * of a deferred temporary that keeps none (deferred_evaluation::keeps_rows) are computed
                 * into scratch memory that stays in the cache, and read there. Unless an output written in
                 * place shares memory with a reduction's input (`in_place`): then that reduction is
                 * computed whole first. Where the output, written in place, holds such a temporary's rows
                 * as the temporary would (rows_into_output), they are computed there instead, and the
                 * tree then reads and writes each element in place: the output is written once, while
                 * the temporary's operands are read, as a loop written by hand writes it.
                 */
                template <class O>
                void run_by_blocks(kernel_layout& layout, O* out, const memory_span& span, bool in_place,
                                   block_function<T> run)
                {
                    const std::size_t rows = layout.rank() == 0 ? 0 : layout.size(0);
                    // Another thread that reads a deferred temporary waits until its rows are all here.
                    const auto locks = lock_deferred();
                    order_pending();
                    std::size_t input_bytes = 0;
                    bool any_aligned = false;
                    for (auto& pending : m_pending)
                    {
                        if (pending.deferred != nullptr && pending.deferred->ready())
                        {
                            // Computed by another thread meanwhile.
                            pending.aligned = false;
                            pending.done = true;
                            continue;
                        }
                        pending.aligned = pending.aligned && rows > 1 &&
                                          !(in_place && pending.evaluation->reads(out, sizeof(O), span));
                        any_aligned = any_aligned || pending.aligned;
                        input_bytes += pending.aligned ? pending.input_bytes : 0;
                    }
                    // Blocks keep a temporary's input in the cache for the tree that reads it next. A tree
                    // that moves less than a block (a mean per channel: three sums, divided) gains nothing
                    // by them, and a temporary computed whole shares its folds' parts among the threads,
                    // where blocks of a few results would go to a thread each.
                    const std::size_t tree_bytes = working_set_bytes(layout, m_leaves.data(), m_count);
                    if (any_aligned && tree_bytes <= kernel_block_bytes &&
                        input_bytes + tree_bytes > kernel_block_bytes && rows_of_this_block().empty())
                    {
                        for (auto& pending : m_pending)
                        {
                            pending.aligned = false;
                        }
                        any_aligned = false;
                    }
                    if (!any_aligned)
                    {
                        compute_rows_of(0, rows);
                        run(layout, m_leaves.data());
                    }
                    else
                    {
                        // Rows that move about kernel_block_bytes, at least one; all where they move less
                        // (or nothing: no element).
                        const std::size_t bytes = input_bytes + tree_bytes;
                        const std::size_t step =
                            bytes <= kernel_block_bytes
                                ? rows
                                : std::max<std::size_t>(
                                      1, static_cast<std::size_t>(static_cast<double>(rows) *
                                                                  static_cast<double>(kernel_block_bytes) /
                                                                  static_cast<double>(bytes)));
                        const pending_reduction* into_output =
                            in_place ? rows_into_output(layout, out, span) : nullptr;
                        // The blocks are shared out among the threads where each takes one at least, and
                        // this evaluation is not inside another's block.
                        const std::size_t blocks = (rows + step - 1) / step;
                        const std::size_t shares =
                            rows_of_this_block().empty() && blocks >= kernel_thread_count()
                                ? kernel_shares(bytes, blocks)
                                : 1;
                        run_blocks(layout, rows, step, blocks, shares, run, into_output,
                                   reinterpret_cast<char*>(out));
                    }
                    for (const auto& pending : m_pending)
                    {
                        if (pending.deferred != nullptr && !pending.in_scratch)
                        {
                            pending.deferred->set_ready();
                        }
                    }
                    m_pending.clear();
                }

                /// Whether a temporary not filled yet is computed from memory of `[data + span.low,
                /// data + span.high]`.
                bool pending_reads(const void* data, std::size_t element_bytes, const memory_span& span) const
                {
                    for (const auto& pending : m_pending)
                    {
                        if (pending.evaluation->reads(data, element_bytes, span))
                        {
                            return true;
                        }
                    }
                    return false;
                }

                /// What computing the temporaries not filled yet reads.
                std::size_t pending_input_bytes() const noexcept
                {
                    std::size_t bytes = 0;
                    for (const auto& pending : m_pending)
                    {
                        bytes += pending.input_bytes;
                    }
                    return bytes;
                }

                /// Whether every leaf fits the layout's shape.
                bool ok() const noexcept
                {
                    return m_ok && m_leaf == m_count;
                }

                /// Once a tree of `tree_leaves` leaves is collected, constant leaves up to the count the
                /// loops are compiled for (kernel_slots, kernel_fold_slots), which the tree never reads.
                void pad(std::size_t tree_leaves)
                {
                    if (m_leaf != tree_leaves)
                    {
                        m_ok = false;
                        return;
                    }
                    while (m_leaf < m_count)
                    {
                        scalar(T(0));
                    }
                }

                /// The leaves, as many as the tree has.
                const kernel_leaf_ref<T>* leaves() const noexcept
                {
                    return m_leaves.data();
                }

                std::size_t leaf_count() const noexcept
                {
                    return m_count;
                }

                /// Whether a leaf shares memory with the `element_bytes`-sized elements
                /// `[data + span.low, data + span.high]`.
                bool overlaps_with(const void* data, std::size_t element_bytes,
                                   const memory_span& span) const noexcept
                {
                    for (std::size_t k = 0; k < m_count; ++k)
                    {
                        if (overlaps(m_leaves[k].data, static_cast<std::size_t>(m_leaves[k].element_bytes),
                                     m_span[k], data, element_bytes, span))
                        {
                            return true;
                        }
                    }
                    return false;
                }

                /// Whether every leaf that shares memory with the output (operand 0) reads exactly the
                /// element it writes, as an element of the same type: then evaluating in place is safe.
                template <class O>
                bool reads_in_place(const O* data, const memory_span& span) const noexcept
                {
                    for (std::size_t k = 0; k < m_count; ++k)
                    {
                        const kernel_leaf_ref<T>& leaf = m_leaves[k];
                        if (!overlaps(leaf.data, static_cast<std::size_t>(leaf.element_bytes), m_span[k],
                                      data, sizeof(O), span))
                        {
                            continue;
                        }
                        const std::size_t operand = m_operand - m_count + k;
                        const bool same_element =
                            leaf.element_bytes == static_cast<kernel_index>(sizeof(O)) &&
                            leaf.at(m_layout.offset(operand)) ==
                                reinterpret_cast<const char*>(data + m_layout.offset(0));
                        if (!same_element || !std::is_same<O, T>::value)
                        {
                            return false;
                        }
                        for (std::size_t a = 0; a < m_layout.rank(); ++a)
                        {
                            if (m_layout.stride(a, operand) != m_layout.stride(a, 0))
                            {
                                return false;
                            }
                        }
                    }
                    return true;
                }

            private:
                kernel_layout& m_layout;
                std::size_t m_operand;
                std::size_t m_count;
                std::size_t m_leaf = 0;
                bool m_ok = true;
                // Sized once, at construction: the leaves point into m_scalar.
                xt::svector<kernel_leaf_ref<T>, 8> m_leaves;
                // The deferred temporary whose row r each leaf reads at the layout's row r, or nullptr.
                xt::svector<const deferred_state_base*, 8> m_leaf_rows_of;
                xt::svector<memory_span, 8> m_span;
                // Scalars live here for the duration of the evaluation; the leaves point to them.
                xt::svector<T, 8> m_scalar;
                std::vector<std::shared_ptr<const void>> m_temporaries;

                /// A temporary the tree reads that is not filled yet: a reducer's, or a deferred one.
                struct pending_reduction
                {
                    const deferred_evaluation_base* evaluation = nullptr; // computes its rows
                    char* memory = nullptr;                               // where its row 0 goes
                    std::size_t row_bytes = 0;
                    // A deferred one's state, shared with other readers; nullptr for a reducer's, which
                    // only this collector reads.
                    const deferred_state_base* deferred = nullptr;
                    std::size_t rows = 0; // the temporary's first axis
                    bool aligned = false; // whether its rows are the layout's, and can be filled apart
                    bool done = false;    // filled whole
                    std::size_t input_bytes = 0;
                    const char* element_type = nullptr; // a deferred one's (element_type_tag)
                    // A deferred one's rows of a block are computed into the block's scratch memory, where
                    // its rows are not kept.
                    bool rows_in_scratch = false;
                    bool in_scratch = false;       // its rows were computed in scratch memory only
                    std::size_t scratch_bytes = 0; // what a block of its rows takes there
                };
                std::vector<pending_reduction> m_pending;
                bool m_blocks = false;

                /// Computes rows [first, last) of `pending` in its memory. A deferred one, where this
                /// collector does not run the blocks, is computed only whole, under its own lock: its rows
                /// are the blocks' to compute.
                void compute(const pending_reduction& pending, std::size_t first, std::size_t last) const
                {
                    if (pending.deferred != nullptr && !m_blocks)
                    {
                        pending.deferred->compute_whole();
                        return;
                    }
                    pending.evaluation->compute_at(pending.memory + first * pending.row_bytes, first, last);
                }

                /**
                 * The deferred temporary whose rows, computed in scratch memory block by block, can be
                 * computed in the output (operand 0 of `layout`, at `out` spanning `span`, written in place)
                 * instead, or nullptr. That is so where nothing else that the tree or its temporaries read
                 * is in the output, the output's elements are those of the temporary's shape, row-major and
                 * dense, of the same type, and every leaf that reads the temporary reads the element written.
                 */
                template <class O>
                const pending_reduction* rows_into_output(const kernel_layout& layout, const O* out,
                                                          const memory_span& span) const
                {
                    if (layout.offset(0) != 0 || overlaps_with(out, sizeof(O), span) ||
                        pending_reads(out, sizeof(O), span))
                    {
                        return nullptr;
                    }
                    kernel_index dense = 1;
                    for (std::size_t a = layout.rank(); a-- > 0;)
                    {
                        if (layout.size(a) != 1 && layout.stride(a, 0) != dense)
                        {
                            return nullptr;
                        }
                        dense *= static_cast<kernel_index>(layout.size(a));
                    }
                    for (const auto& pending : m_pending)
                    {
                        if (pending.aligned && pending.rows_in_scratch &&
                            pending.element_type == &element_type_tag<O> &&
                            pending.deferred->size() == layout.element_count() &&
                            leaves_read_in_place(layout, pending.deferred))
                        {
                            return &pending;
                        }
                    }
                    return nullptr;
                }

                /// Whether every leaf that reads rows of `deferred` reads, at offset 0, the element that
                /// operand 0 of `layout` writes.
                bool leaves_read_in_place(const kernel_layout& layout,
                                          const deferred_state_base* deferred) const
                {
                    for (std::size_t k = 0; k < m_count; ++k)
                    {
                        if (m_leaf_rows_of[k] != deferred)
                        {
                            continue;
                        }
                        const std::size_t operand = m_operand - m_count + k;
                        if (layout.offset(operand) != 0)
                        {
                            return false;
                        }
                        for (std::size_t a = 0; a < layout.rank(); ++a)
                        {
                            if (layout.size(a) != 1 && layout.stride(a, operand) != layout.stride(a, 0))
                            {
                                return false;
                            }
                        }
                    }
                    return true;
                }

                /**
                 * The `blocks` of run_by_blocks: rows [first, first + step) at a time, the temporaries' rows
                 * computed first, those of deferred temporaries in the block's scratch memory, or those of
                 * `into_output` in the output's rows (at `out`). With `shares` above 1 this thread first
                 * computes whatever is computed once (the temporaries not read by rows, and the state of
                 * those inside the reductions), for a block of no rows: the blocks then only compute rows of
                 * their own, each taken by the next of `shares` threads free.
                 */
                void run_blocks(const kernel_layout& layout, std::size_t rows, std::size_t step,
                                std::size_t blocks, std::size_t shares, block_function<T> run,
                                const pending_reduction* into_output, char* out)
                {
                    std::size_t scratch_bytes = 0;
                    for (auto& pending : m_pending)
                    {
                        if (pending.aligned && pending.rows_in_scratch)
                        {
                            // The output holds into_output's rows: it takes no scratch memory.
                            pending.scratch_bytes =
                                &pending == into_output
                                    ? 0
                                    : scratch_buffer::rounded(step * pending.deferred->row_bytes());
                            pending.in_scratch = true;
                            scratch_bytes += pending.scratch_bytes;
                        }
                    }
                    const auto run_range = [&](std::size_t begin, std::size_t end) {
                        run_block_range(layout, rows, step, begin, end, run, into_output, out, scratch_bytes);
                    };
                    if (shares <= 1)
                    {
                        run_range(0, blocks);
                        return;
                    }
                    // Block 0 of a layout of no rows: it computes what is computed once, and no row.
                    run_block_range(layout, 0, step, 0, 1, run, into_output, out, scratch_bytes);
                    share_out_blocks(blocks, shares, [&](std::size_t b) { run_range(b, b + 1); });
                }

                /// Blocks [begin, end) of run_blocks on this thread, in scratch memory of its own.
                void run_block_range(const kernel_layout& layout, std::size_t rows, std::size_t step,
                                     std::size_t begin, std::size_t end, block_function<T> run,
                                     const pending_reduction* into_output, char* out,
                                     std::size_t scratch_bytes)
                {
                    scratch_buffer scratch(scratch_bytes);
                    // An evaluation inside another's block (a lazy operand evaluated for a gather) adds its
                    // rows after the outer block's, and takes them away when it ends.
                    auto& computed = rows_of_this_block();
                    const std::size_t outer = computed.size();
                    struct drop_own_rows
                    {
                        std::vector<deferred_rows>& rows;
                        std::size_t outer;
                        ~drop_own_rows()
                        {
                            rows.resize(outer);
                        }
                    } const drop{computed, outer};
                    for (std::size_t b = begin; b < end; ++b)
                    {
                        const std::size_t first = b * step;
                        const std::size_t last = std::min(rows, first + step);
                        computed.resize(outer);
                        char* free_scratch = scratch.data();
                        for (auto& pending : m_pending)
                        {
                            if (pending.aligned && pending.rows_in_scratch)
                            {
                                char* at = &pending == into_output
                                               ? out + first * pending.deferred->row_bytes()
                                               : free_scratch;
                                pending.evaluation->compute_at(at, first, last);
                                computed.push_back(deferred_rows{pending.deferred, first, last, at});
                                free_scratch += pending.scratch_bytes;
                            }
                            else if (pending.aligned)
                            {
                                compute(pending, first, last);
                                if (pending.deferred != nullptr)
                                {
                                    // A reduction of this block that reads them (a softmax's sum reads
                                    // its maximum) finds them here, and does not compute them again.
                                    computed.push_back(deferred_rows{pending.deferred, first, last});
                                }
                            }
                            else if (!pending.done)
                            {
                                compute(pending, 0, pending.rows);
                                pending.done = true;
                            }
                        }
                        if (first == last)
                        {
                            continue;
                        }
                        kernel_layout part = layout.part(0, first, last);
                        // The leaves' copy for this block, on the stack where they are few.
                        xt::svector<kernel_leaf_ref<T>, 8> leaves(std::max<std::size_t>(m_count, 1),
                                                                  kernel_leaf_ref<T>{});
                        leaves_of_rows(part, first, last, leaves.data());
                        run(part, leaves.data());
                    }
                }

                /// Locks every deferred temporary that the tree reads, however deep, all or none at a time
                /// (as std::lock does), so that two evaluations that lock some of the same ones in another
                /// order never wait for each other.
                std::vector<std::unique_lock<std::recursive_mutex>> lock_deferred() const
                {
                    std::vector<const deferred_state_base*> states;
                    visit_deferred(
                        [&states](const deferred_state_base& state)
                        {
                            if (std::find(states.begin(), states.end(), &state) == states.end())
                            {
                                states.push_back(&state);
                            }
                        });
                    std::vector<std::unique_lock<std::recursive_mutex>> locks;
                    for (const auto* state : states)
                    {
                        locks.emplace_back(state->mutex(), std::defer_lock);
                    }
                    std::size_t first = 0;
                    while (!locks.empty())
                    {
                        locks[first].lock();
                        std::size_t failed = locks.size();
                        for (std::size_t k = 0; k < locks.size() && failed == locks.size(); ++k)
                        {
                            if (k != first && !locks[k].try_lock())
                            {
                                failed = k;
                            }
                        }
                        if (failed == locks.size())
                        {
                            break;
                        }
                        for (auto& lock : locks)
                        {
                            if (lock.owns_lock())
                            {
                                lock.unlock();
                            }
                        }
                        std::this_thread::yield();
                        first = failed;
                    }
                    return locks;
                }

                /// Orders the temporaries so that a deferred one comes before those whose computation reads
                /// it: in a block, its rows are then computed first, once.
                void order_pending()
                {
                    std::vector<pending_reduction> ordered;
                    ordered.reserve(m_pending.size());
                    while (!m_pending.empty())
                    {
                        std::size_t next = 0;
                        for (std::size_t k = 0; k < m_pending.size(); ++k)
                        {
                            bool reads_another = false;
                            m_pending[k].evaluation->visit_deferred(
                                [&](const deferred_state_base& state)
                                {
                                    for (std::size_t j = 0; j < m_pending.size(); ++j)
                                    {
                                        reads_another =
                                            reads_another || (j != k && m_pending[j].deferred == &state);
                                    }
                                });
                            if (!reads_another)
                            {
                                next = k;
                                break;
                            }
                        }
                        ordered.push_back(std::move(m_pending[next]));
                        m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(next));
                    }
                    m_pending = std::move(ordered);
                }

                /// Reads a new temporary as the next leaf; nothing else sees it, so the output cannot share
                /// its memory.
                template <class V>
                void add_temporary(std::shared_ptr<xt::xarray<V>> temporary)
                {
                    strided(static_cast<const V*>(temporary->data()), temporary->shape(),
                            temporary->strides());
                    m_span[m_leaf - 1] = memory_span{};
                    m_temporaries.push_back(std::move(temporary));
                }
            };

            /// Whether the shapes `a` and `b` are equal. The kernels write only an output of the
            /// expression's shape: evaluate_into (xevaluate_into.hpp) makes, resizes or refuses it first.
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

            template <class S>
            inline kernel_sizes kernel_shape(const S& shape)
            {
                return kernel_sizes(shape.begin(), shape.end());
            }

            /// out = `source` converted to out's element type, both of the same shape, by xtensor's
            /// assignment: the copy of a temporary, which only an output that overlaps an operand out of
            /// place or a conversion after a reduction needs, is not worth a kernel of its own in every unit.
            template <class O, class T>
            inline void kernel_copy(O& out, const xt::xarray<T>& source)
            {
                xt::noalias(out) = source;
            }

            template <class S>
            inline kernel_sizes in_output_order(const S& shape, const index_map* order)
            {
                kernel_sizes result(shape.size());
                for (std::size_t i = 0; i < result.size(); ++i)
                {
                    result[i] = static_cast<std::size_t>(
                        shape[order == nullptr ? i : static_cast<std::size_t>((*order)[i])]);
                }
                return result;
            }

            template <class O, class S>
            inline bool has_shape_in_output_order(const O& out, const S& shape, const index_map* order)
            {
                return order == nullptr ? equal_shapes(out.shape(), shape)
                                        : equal_shapes(out.shape(), in_output_order(shape, order));
            }

            /// An output's strides, given in its own axis order, in the order of the expression's axes.
            template <class St>
            inline xt::svector<std::ptrdiff_t, 8> in_expression_order(const St& strides,
                                                                      const index_map* order)
            {
                xt::svector<std::ptrdiff_t, 8> result(strides.size());
                for (std::size_t i = 0; i < result.size(); ++i)
                {
                    result[order == nullptr ? i : static_cast<std::size_t>((*order)[i])] =
                        static_cast<std::ptrdiff_t>(strides[i]);
                }
                return result;
            }

            /// Runs `evaluate(data, strides)` on `out`, or on a temporary copied into `out` afterwards when
            /// `out` shares memory with an operand.
            template <class O, class F>
            inline void kernel_evaluate_into(O& out, const kernel_sizes& shape, bool through_temporary,
                                             F&& evaluate)
            {
                using value_type = typename O::value_type;
                if (through_temporary)
                {
                    xt::xarray<value_type> temporary = xt::xarray<value_type>::from_shape(shape);
                    evaluate(temporary.data(), temporary.strides());
                    kernel_copy(out, temporary);
                    return;
                }
                evaluate(out.data() + out.data_offset(), out.strides());
            }

            /// An elementwise tree's loop over a block `part` of its layout into `out`, its leaves (as many
            /// as the tree's) at `leaves`; `whole_bytes` as for run_elementwise_with.
            template <class T, class V>
            using tree_loop_fn = void (*)(kernel_layout& part, V* out, const kernel_leaf_ref<T>* leaves,
                                          std::size_t whole_bytes);

            /// The tree_loop_fn of `Node`: its leaves copied into the array its runs take.
            template <class Node, class T, std::size_t L, class V>
            inline void tree_loop(kernel_layout& part, V* out, const kernel_leaf_ref<T>* leaves,
                                  std::size_t whole_bytes)
            {
                kernel_leaves<T, L> read{};
                std::copy_n(leaves, L, read.begin());
                run_elementwise_with(tree_runs_of<Node, T, L, V>(), part, out, read, whole_bytes);
            }

            /// kernel_assign_elementwise once the tree's leaves are collected: the tree is only its loop
            /// here, so that this is compiled once per element type and output type. The layout is in the
            /// expression's axis order (`shape`), and the output, in `order` (see try_kernel_assign), is
            /// one more strided operand of it.
            template <class T, class O>
            inline void kernel_assign_collected(O& out, const kernel_sizes& shape, kernel_layout& layout,
                                                kernel_collector<T>& collector,
                                                tree_loop_fn<T, typename O::value_type> loop,
                                                const index_map* order)
            {
                using value_type = typename O::value_type;
                const value_type* out_data = out.data() + out.data_offset();
                const memory_span out_span = span_of(out.shape(), out.strides());
                bool through_temporary = false;
                if (collector.overlaps_with(out_data, sizeof(value_type), out_span))
                {
                    // In place (out = out + b) is safe only where the output's axes line up with the
                    // layout and every shared leaf reads the element being written.
                    through_temporary =
                        !layout.set_right_aligned(0, shape, in_expression_order(out.strides(), order)) ||
                        !collector.reads_in_place(out_data, out_span);
                }
                kernel_evaluate_into(
                    out, in_output_order(shape, order), through_temporary,
                    [&](value_type* data, const auto& out_strides)
                    {
                        const auto strides = in_expression_order(out_strides, order);
                        kernel_layout run_layout = layout;
                        run_layout.set_right_aligned(0, shape, strides);
                        // Blocks of a large evaluation stream their output as the whole would.
                        const std::size_t whole_bytes =
                            working_set_bytes(run_layout, collector.leaves(), collector.leaf_count());
                        collector.run_by_blocks(run_layout, data, span_of(shape, strides), !through_temporary,
                                                [&](kernel_layout& part, const kernel_leaf_ref<T>* read)
                                                { loop(part, data, read, whole_bytes); });
                    });
            }

            /// Collects the leaves of the tree `Node` of the expression `E` at `e` into `collector`.
            template <class Node, class E, class C>
            void collect_tree(const void* e, C& collector)
            {
                Node::collect(*static_cast<const E*>(e), collector);
            }

            /**
             * kernel_assign_elementwise with the tree given by what depends on it: its leaf count, a
             * function that collects its leaves, and its loop; compiled once per element type and output
             * type.
             */
            template <class T, class O>
            XTENSOR_NAMED_NOINLINE bool
            kernel_assign_tree(O& out, const kernel_sizes& shape, const index_map* order,
                               std::size_t tree_leaves, void (*collect)(const void*, kernel_collector<T>&),
                               const void* e, tree_loop_fn<T, typename O::value_type> loop)
            {
                if (!has_shape_in_output_order(out, shape, order))
                {
                    return false;
                }
                const std::size_t slots = kernel_slots(tree_leaves);
                kernel_layout layout(shape, slots + 1);
                kernel_collector<T> collector(layout, 1, slots, true);
                collect(e, collector);
                collector.pad(tree_leaves);
                if (!collector.ok())
                {
                    return false;
                }
                kernel_assign_collected(out, shape, layout, collector, loop, order);
                return true;
            }

            /// try_kernel_assign of an elementwise tree, evaluated in lanes of T.
            template <class T, class O, class E>
            inline bool kernel_assign_elementwise(O& out, const E& e, const index_map* order)
            {
                using node = kernel_node<T, E>;
                constexpr std::size_t leaves = kernel_slots(node::leaves);
                return kernel_assign_tree<T>(
                    out, kernel_shape(e.shape()), order, node::leaves,
                    &collect_tree<node, E, kernel_collector<T>>, &e,
                    &tree_loop<kernel_run_node_t<node>, T, leaves, typename O::value_type>);
            }

            /// The expression under every sum of a nest.
            template <class T, class E>
            inline const auto& kernel_innermost(const E& e)
            {
                if constexpr (kernel_reduction<T, E>::supported)
                {
                    return kernel_innermost<T>(e.expression());
                }
                else
                {
                    return e;
                }
            }

            /// Which axes of its input a reducer rebuilt by kernel_reduced_axes sums, from its shape
            /// `probe_result`.
            template <class S>
            inline bool kernel_reduced_axes_of(const S& probe_result, std::size_t rank, bool keep_dims,
                                               xt::svector<bool, 8>& reduced)
            {
                reduced.assign(rank, true);
                if (keep_dims)
                {
                    if (probe_result.size() != rank)
                    {
                        return false;
                    }
                    for (std::size_t a = 0; a < rank; ++a)
                    {
                        reduced[a] = probe_result[a] == 1;
                    }
                    return true;
                }
                std::size_t kept = 0;
                for (std::size_t a = 0; a < rank && kept < probe_result.size(); ++a)
                {
                    if (probe_result[kept] == a + 2)
                    {
                        reduced[a] = false;
                        ++kept;
                    }
                }
                return kept == probe_result.size();
            }

            /// Which axes of its input a reducer sums: rebuilds it on an input whose sizes 2, 3, ... name
            /// the axes and reads which sizes its shape lost (or set to 1 with keep_dims).
            template <class R>
            inline bool kernel_reduced_axes(const R& reducer, std::size_t rank, bool keep_dims,
                                            xt::svector<bool, 8>& reduced)
            {
                using value_type = typename R::value_type;
                xt::svector<std::size_t, 8> probe_shape(rank);
                for (std::size_t a = 0; a < rank; ++a)
                {
                    probe_shape[a] = a + 2;
                }
                // Rebuilt as a sum whatever it folds, which gives the same shape: every reducer with the
                // same axes and options shares one probe type, compiled once.
                const auto rebuilt = reducer.build_reducer(
                    xt::broadcast(value_type(0), probe_shape),
                    xt::make_xreducer_functor(xt::detail::plus(), xt::const_value<value_type>(value_type(0))),
                    std::decay_t<decltype(reducer.options())>(reducer.options()));
                return kernel_reduced_axes_of(rebuilt.shape(), rank, keep_dims, reduced);
            }

            /// Marks an axis of a nested sum's input that is no axis of the innermost expression: a
            /// size-1 axis an inner sum kept.
            inline constexpr std::size_t kernel_phantom_axis = std::numeric_limits<std::size_t>::max();

            /**
             * Describes the nest of folds `e` as fold_stages, innermost first, in the index space of the
             * innermost expression (of shape `shape`). `space` ends as the axes of `e`'s result: for each,
             * the axis of the innermost expression it is, or kernel_phantom_axis. False where the nest is
             * not what the kernels expect.
             */
            template <class T, class E>
            inline bool kernel_describe_folds(const E& e, const kernel_sizes& shape,
                                              std::vector<fold_stage<T>>& stages, kernel_sizes& space)
            {
                using reduction = kernel_reduction<T, E>;
                const auto& input = e.expression();
                if constexpr (reduction::inner::supported)
                {
                    if (!kernel_describe_folds<T>(input, shape, stages, space))
                    {
                        return false;
                    }
                }
                else
                {
                    space.resize(shape.size());
                    for (std::size_t a = 0; a < shape.size(); ++a)
                    {
                        space[a] = a;
                    }
                }
                const kernel_sizes input_shape = kernel_shape(input.shape());
                const std::size_t rank = input_shape.size();
                if (rank != space.size())
                {
                    return false;
                }
                xt::svector<bool, 8> reduced;
                if (!kernel_reduced_axes(e, rank, reduction::keep_dims, reduced))
                {
                    return false;
                }
                fold_stage<T> stage;
                stage.init = e.functors().get_init()();
                if constexpr (reduction::has_initial_value)
                {
                    stage.has_initial = true;
                    stage.initial = e.options().initial_value;
                }
                kernel_sizes result_space;
                for (std::size_t a = 0; a < rank; ++a)
                {
                    const bool phantom = space[a] == kernel_phantom_axis;
                    const std::size_t expected = phantom ? 1 : shape[space[a]];
                    if (input_shape[a] != expected)
                    {
                        return false;
                    }
                    stage.empty_input = stage.empty_input || input_shape[a] == 0;
                    if (reduced[a])
                    {
                        stage.levels.push_back(fold_level{phantom ? 0 : space[a], input_shape[a], phantom});
                        if (reduction::keep_dims)
                        {
                            result_space.push_back(kernel_phantom_axis);
                        }
                    }
                    else
                    {
                        result_space.push_back(space[a]);
                    }
                }
                stages.push_back(std::move(stage));
                space = std::move(result_space);
                return true;
            }

            /**
             * Merges the reduced axes of a single reducer that end at the innermost axis into one, where
             * every operand steps through them as through one axis: longer runs. Along the innermost
             * axis the lanes are folded apart anyway (lane_fold_sink), so the association is free there;
             * elsewhere it is xtensor's, and nothing is merged.
             */
            template <class T>
            inline void merge_reduced_tail(kernel_layout& layout, std::vector<fold_stage<T>>& stages)
            {
                if (stages.size() != 1)
                {
                    return;
                }
                auto& levels = stages[0].levels;
                while (levels.size() >= 2)
                {
                    const fold_level inner = levels.back();
                    const fold_level outer = levels[levels.size() - 2];
                    if (inner.phantom || outer.phantom || inner.axis + 1 != layout.rank() ||
                        outer.axis + 1 != inner.axis || !layout.merge_with_inner(outer.axis))
                    {
                        return;
                    }
                    levels.pop_back();
                    levels.back() = fold_level{outer.axis, outer.size * inner.size, false};
                }
            }

            /// What a kernel job (an expression made ready for the kernels once, then run) says of itself.
            class kernel_job
            {
            public:
                kernel_job(const kernel_job&) = delete;
                kernel_job& operator=(const kernel_job&) = delete;

                /// Whether the kernels cover the expression: else the job must not run.
                bool covered() const noexcept
                {
                    return m_covered;
                }

                /// The result's shape.
                const kernel_sizes& shape() const noexcept
                {
                    return m_shape;
                }

            protected:
                template <class S>
                explicit kernel_job(const S& shape) : m_shape(shape.begin(), shape.end())
                {
                }

                ~kernel_job() = default;

                kernel_sizes m_shape;
                bool m_covered = false;
            };

            /**
             * A nest of folds of value type T made ready for the kernels once (its folds described, its
             * leaves collected, reducers among them evaluated), then run into an output of its shape whole
             * or a block of rows at a time: rows [first, last) of the result's first axis, which are summed
             * exactly as in a whole run (threads cut along the same axis). What does not depend on the
             * expression, compiled once per element type and leaf count (the fold's own operations are
             * the tree's, fold_ops): kernel_reduction_job prepares it from the expression.
             */
            template <class T, std::size_t L>
            class kernel_fold_job : public kernel_job, public deferred_evaluation<T>
            {
            public:
                /// Whether the input shares memory with `[data + span.low, data + span.high]`.
                bool reads(const void* data, std::size_t element_bytes,
                           const memory_span& span) const noexcept override
                {
                    return m_collector.overlaps_with(data, element_bytes, span);
                }

                /// The bytes the whole input moves.
                std::size_t input_bytes() const noexcept override
                {
                    return working_set_bytes(m_layout, m_collector.leaves(), L);
                }

                /// Calls `visit` on the deferred temporaries that the input reads, however deep.
                void visit_deferred(const deferred_visitor& visit) const override
                {
                    m_collector.visit_deferred(visit);
                }

                /// Whether rows of the result's first axis can be summed apart: it is an axis of the input.
                bool by_rows() const noexcept override
                {
                    return !m_space.empty() && m_space[0] != kernel_phantom_axis;
                }

                /// As a reducer's temporary in a tree (kernel_collector::materialize): rows [first, last) of
                /// a row-major result at `rows`.
                void compute(T* rows, std::size_t first, std::size_t last) const override
                {
                    xt::svector<kernel_index, 8> strides(m_shape.size(), 0);
                    kernel_index stride = 1;
                    for (std::size_t q = m_shape.size(); q-- > 0;)
                    {
                        strides[q] = stride;
                        stride *= static_cast<kernel_index>(m_shape[q]);
                    }
                    run(rows, strides.data(), first, last);
                }

                /// Sums rows [first, last) of the result (all of it where not by_rows) into `rows`,
                /// where row `first` goes, with the result's strides `strides` (one per axis of the result,
                /// a pointer so that every output type runs the same function).
                void run(T* rows, const kernel_index* strides, std::size_t first, std::size_t last) const
                {
                    if (std::find(m_shape.begin(), m_shape.end(), std::size_t(0)) != m_shape.end())
                    {
                        return;
                    }
                    kernel_layout run_layout = m_layout;
                    for (std::size_t a = 0; a < run_layout.rank(); ++a)
                    {
                        run_layout.stride(a, 0) = 0;
                    }
                    for (std::size_t q = 0; q < m_shape.size(); ++q)
                    {
                        if (m_space[q] != kernel_phantom_axis && m_shape[q] != 1)
                        {
                            run_layout.stride(m_space[q], 0) = strides[q];
                        }
                    }
                    // A kept innermost axis is short or not as the whole result's is (tiled_fold_of).
                    const std::size_t inner = run_layout.rank() == 0 ? 0 : run_layout.rank() - 1;
                    const std::size_t whole_inner = run_layout.rank() != 0 && run_layout.stride(inner, 0) != 0
                                                        ? run_layout.size(inner)
                                                        : 0;
                    if (by_rows() && (first != 0 || last != m_shape[0]))
                    {
                        run_layout = run_layout.part(m_space[0], first, last);
                        run_layout.offset(0) = 0; // the output's rows start at `rows`
                    }
                    // Rows of the result are rows of the input where its first axis is the input's first:
                    // the deferred temporaries that the input reads are then computed for them already.
                    const kernel_leaves<T, L> read =
                        by_rows() && m_space[0] == 0
                            ? m_collector.template compute_rows<L>(run_layout, first, last)
                            : m_collector.template compute_rows<L>(
                                  run_layout, 0, m_input_shape.empty() ? 0 : m_input_shape[0]);
                    if (by_rows() && first == last)
                    {
                        return; // no rows: what the input computes once is computed now (run_blocks)
                    }
                    std::vector<fold_stage<T>> run_stages = m_stages;
                    merge_reduced_tail(run_layout, run_stages);
                    run_folds_with(m_tree, run_layout, run_stages, rows, read, whole_inner);
                }

            protected:
                template <class S>
                kernel_fold_job(const fold_tree<T, L>& tree, const S& shape, kernel_sizes input_shape)
                    : kernel_job(shape), m_tree(tree), m_input_shape(std::move(input_shape)),
                      m_layout(m_input_shape, L + 1), m_collector(m_layout, 1, L)
                {
                }

                ~kernel_fold_job() override = default;

                /// Orders the folds described and checks them against the result's shape.
                bool fits_folds()
                {
                    if (m_space.size() != m_shape.size())
                    {
                        return false;
                    }
                    std::reverse(m_stages.begin(), m_stages.end());
                    for (std::size_t q = 0; q < m_shape.size(); ++q)
                    {
                        const std::size_t expected =
                            m_space[q] == kernel_phantom_axis ? 1 : m_input_shape[m_space[q]];
                        if (m_shape[q] != expected)
                        {
                            return false;
                        }
                    }
                    return true;
                }

                /// Marks the job covered once the `tree_leaves` leaves of its tree are collected (padded to
                /// L), and evaluates the reducers among them whole, once, before any row is summed.
                void collected(std::size_t tree_leaves)
                {
                    m_collector.pad(tree_leaves);
                    m_covered = m_collector.ok();
                    if (m_covered)
                    {
                        m_collector.compute_reductions();
                    }
                }

                const fold_tree<T, L>& m_tree;
                kernel_sizes m_input_shape;
                std::vector<fold_stage<T>> m_stages;
                kernel_sizes m_space;
                kernel_layout m_layout;
                mutable kernel_collector<T> m_collector;
            };

            /// The kernel_fold_job of the nest of reducers `e`, which must outlive it.
            template <class T, class E>
            class kernel_reduction_job : public kernel_fold_job_of<T, E>
            {
            public:
                using reduction = kernel_reduction<T, std::decay_t<E>>;
                using node = typename reduction::node;
                using fold = typename reduction::fold;
                static constexpr std::size_t leaves = kernel_fold_slots(node::leaves);

                /// Prepares `e`; not covered where the kernels do not cover it.
                explicit kernel_reduction_job(const E& e)
                    : kernel_fold_job_of<T, E>(fold_tree_of<kernel_run_node_t<node>, T, fold, leaves>(),
                                               e.shape(), kernel_shape(kernel_innermost<T>(e).shape()))
                {
                    if (kernel_describe_folds<T>(e, this->m_input_shape, this->m_stages, this->m_space) &&
                        this->fits_folds())
                    {
                        node::collect(kernel_innermost<T>(e), this->m_collector);
                        this->collected(node::leaves);
                    }
                }
            };

            /// Whether `E` is a function, computed in lanes of T, of scalars and of one reducer that the
            /// kernels fold: a mean, a sum over its count.
            template <class T, class E>
            struct kernel_finished_reduction : std::false_type
            {
            };

            template <class T, class F, class... CT>
            struct kernel_finished_reduction<T, xt::xfunction<F, CT...>>
                : std::bool_constant<(int(kernel_reduction<T, std::decay_t<CT>>::supported) + ...) == 1 &&
                                     ((kernel_reduction<T, std::decay_t<CT>>::supported ||
                                       xt::is_xscalar<std::decay_t<CT>>::value) &&
                                      ...) &&
                                     kernel_node<T, xt::xfunction<F, CT...>>::supported>
            {
                /// The reducer's place among the function's arguments.
                static constexpr std::size_t reducer()
                {
                    constexpr bool folded[] = {kernel_reduction<T, std::decay_t<CT>>::supported...};
                    std::size_t j = 0;
                    while (j < sizeof...(CT) && !folded[j])
                    {
                        ++j;
                    }
                    return j;
                }
            };

            /// What a deferred temporary of `E` evaluates first: the reducer of a function that finishes
            /// it (kernel_finished_reduction), else `E`.
            template <class T, class E, bool = kernel_finished_reduction<T, E>::value>
            struct kernel_folded
            {
                using type = E;
            };

            template <class T, class E>
            struct kernel_folded<T, E, true>
            {
                using type = std::decay_t<
                    std::tuple_element_t<kernel_finished_reduction<T, E>::reducer(), typename E::tuple_type>>;
            };

            template <class T, class E>
            using kernel_folded_t = typename kernel_folded<T, E>::type;

            /**
             * Applies the function `e` (kernel_finished_reduction) to `count` elements of its reducer at
             * `rows`, in place, while they are in the cache: a mean read by an operation divides each of
             * its elements once, not once for every element that reads it, a division costing many times
             * an addition.
             */
            template <class T, class E, std::size_t... J>
            void kernel_finish(const E& e, T* rows, std::size_t count, std::index_sequence<J...>) noexcept
            {
                constexpr std::size_t reducer = kernel_finished_reduction<T, E>::reducer();
                std::array<T, sizeof...(J)> scalars{};
                kernel_run<T, kernel_slots(sizeof...(J))> run{};
                const auto take = [&](auto j, const auto& argument)
                {
                    if constexpr (decltype(j)::value == reducer)
                    {
                        run.set_contiguous(j, rows);
                    }
                    else
                    {
                        scalars[j] = static_cast<T>(argument());
                        run.set_constant(j, &scalars[j]);
                    }
                };
                (take(std::integral_constant<std::size_t, J>{}, std::get<J>(e.arguments())), ...);
                store_sink<T> sink{rows};
                eval_run<kernel_run_node_t<kernel_node<T, E>>>(run, count, sink);
            }

            template <class T, class E>
            void kernel_finish(const E& e, T* rows, std::size_t count) noexcept
            {
                kernel_finish(e, rows, count,
                              std::make_index_sequence<std::tuple_size<typename E::tuple_type>::value>{});
            }

            /**
             * An elementwise tree `e` computed in lanes of T, made ready for the kernels once (its leaves
             * collected, its reducers' temporaries made), then run into an output of its shape whole or a
             * block of rows of its first axis at a time, each with the rows of the reducers it reads.
             */
            template <class T, class E>
            class kernel_elementwise_job : public kernel_job
            {
            public:
                using node = kernel_node<T, E>;
                static constexpr std::size_t leaves = kernel_slots(node::leaves);

                /// Prepares `e`, which must outlive the job; false where the kernels do not cover it.
                explicit kernel_elementwise_job(const E& e)
                    : kernel_job(e.shape()), m_layout(m_shape, leaves + 1), m_collector(m_layout, 1, leaves)
                {
                    if constexpr (is_kernel_elementwise_v<T, E>)
                    {
                        node::collect(e, m_collector);
                        m_collector.pad(node::leaves);
                        m_covered = m_collector.ok();
                    }
                }

                bool reads(const void* data, std::size_t element_bytes, const memory_span& span) const
                {
                    return m_collector.overlaps_with(data, element_bytes, span) ||
                           m_collector.pending_reads(data, element_bytes, span);
                }

                std::size_t input_bytes() const noexcept
                {
                    return working_set_bytes(m_layout, m_collector.leaves(), leaves) +
                           m_collector.pending_input_bytes();
                }

                /// Calls `visit` on the deferred temporaries that the tree reads, however deep.
                void visit_deferred(const deferred_visitor& visit) const
                {
                    m_collector.visit_deferred(visit);
                }

                /// Computes rows [first, last) of the first axis at `rows` (row-major, of the tree's shape,
                /// row `first` at `rows`): the reducers' rows first.
                template <class O>
                void run(O* rows, std::size_t first, std::size_t last)
                {
                    kernel_layout run_layout = m_layout;
                    xt::svector<std::ptrdiff_t, 8> strides(m_shape.size());
                    xt::compute_strides(m_shape, xt::layout_type::row_major, strides);
                    run_layout.set_right_aligned(0, m_shape, strides);
                    const std::size_t whole_bytes =
                        working_set_bytes(run_layout, m_collector.leaves(), leaves);
                    kernel_layout part = run_layout;
                    if (!m_shape.empty())
                    {
                        part = run_layout.part(0, first, last);
                        part.offset(0) = 0; // the output's rows start at `rows`
                    }
                    const kernel_leaves<T, leaves> read =
                        m_collector.template compute_rows<leaves>(part, first, last);
                    if (first == last)
                    {
                        return;
                    }
                    run_elementwise<kernel_run_node_t<node>, T, leaves>(part, rows, read, whole_bytes);
                }

            private:
                kernel_layout m_layout;
                kernel_collector<T> m_collector;
            };

            /// kernel_assign_reduction once the job is prepared: compiled once per output type and leaf
            /// count. `order` as for try_kernel_assign.
            template <class O, std::size_t L>
            inline bool kernel_assign_fold_job(O& out, const kernel_fold_job<typename O::value_type, L>& job,
                                               const index_map* order)
            {
                using value_type = typename O::value_type;
                const kernel_sizes& shape = job.shape();
                if (!job.covered() || !has_shape_in_output_order(out, shape, order))
                {
                    return false;
                }
                const bool empty_output =
                    std::find(shape.begin(), shape.end(), std::size_t(0)) != shape.end();
                const bool through_temporary =
                    !empty_output && job.reads(out.data() + out.data_offset(), sizeof(value_type),
                                               span_of(out.shape(), out.strides()));
                const std::size_t rows = shape.empty() ? 0 : shape[0];
                if (order != nullptr)
                {
                    // Refused where the output is read: its temporary, copied as it is, would need another
                    // copy of this function for its strides in every unit.
                    if (through_temporary)
                    {
                        return false;
                    }
                    job.run(out.data() + out.data_offset(), in_expression_order(out.strides(), order).data(),
                            0, rows);
                    return true;
                }
                kernel_evaluate_into(
                    out, shape, through_temporary,
                    [&](value_type* data, const auto& strides)
                    {
                        if constexpr (stores<std::decay_t<decltype(strides)>, kernel_index>::value)
                        {
                            job.run(data, std::data(strides), 0, rows);
                        }
                        else
                        {
                            const xt::svector<kernel_index, 8> copied(strides.begin(), strides.end());
                            job.run(data, copied.data(), 0, rows);
                        }
                    });
                return true;
            }

            /// try_kernel_assign of a nest of reducers, whose value type `out` shares.
            template <class O, class E>
            inline bool kernel_assign_reduction(O& out, const E& e, const index_map* order = nullptr)
            {
                const kernel_reduction_job<typename O::value_type, E> job(e);
                return kernel_assign_fold_job(out, job, order);
            }

            /// try_kernel_assign of a nest of reducers of value type T into an output of another type:
            /// through a temporary of T, converted as xtensor's assignment converts.
            template <class T, class O, class E>
            inline bool kernel_assign_reduction_converted(O& out, const E& e)
            {
                const kernel_sizes shape = kernel_shape(e.shape());
                if (!equal_shapes(out.shape(), shape))
                {
                    return false;
                }
                xt::xarray<T> temporary = xt::xarray<T>::from_shape(shape);
                if (!kernel_assign_reduction(temporary, e))
                {
                    return false;
                }
                kernel_copy(out, temporary);
                return true;
            }

            /// try_short_loop with the tree given by a function that collects its leaves and by its runs:
            /// compiled once per lane type, leaf count, output type and shape type.
            template <class T, std::size_t L, class O, class S>
            XTENSOR_NAMED_NOINLINE bool short_loop_tree(O& out, const S& shape, const index_map* order,
                                                        void (*collect)(const void*, short_collector<T, L>&),
                                                        const void* e, const tree_runs<T, L, T>& runs)
            {
                // In the expression's axis order, the output's strides permuted where `order` says.
                short_collector<T, L> collector(shape);
                collect(e, collector);
                if (!collector.ok())
                {
                    return false;
                }
                std::array<kernel_index, short_collector<T, L>::max_rank> strides{};
                for (std::size_t d = 0; d < collector.rank(); ++d)
                {
                    strides[order == nullptr ? d : static_cast<std::size_t>((*order)[d])] =
                        static_cast<kernel_index>(out.strides()[d]);
                }
                return short_loop(runs, collector, out.data() + out.data_offset(), strides);
            }

            template <class O, class E>
            inline bool try_short_loop(O& out, const E& e, const index_map* order)
            {
                if constexpr (!kernel_writes_elementwise<O, E>::value)
                {
                    static_cast<void>(out);
                    static_cast<void>(e);
                    static_cast<void>(order);
                    return false;
                }
                else
                {
                    using T = kernel_lane_t<E>;
                    using node = kernel_node<T, E>;
                    constexpr std::size_t leaves = kernel_slots(node::leaves);
                    return short_loop_tree<T, leaves>(out, e.shape(), order,
                                                      &collect_tree<node, E, short_collector<T, leaves>>, &e,
                                                      tree_runs_of<kernel_run_node_t<node>, T, leaves, T>());
                }
            }

            template <class O, class E>
            inline bool try_kernel_assign(O& out, const E& e, const index_map* order)
            {
#if defined(XTENSOR_NAMED_DISABLE_KERNELS)
                // Everything through xtensor's assignment: for comparisons, and to rule the kernels out.
                static_cast<void>(out);
                static_cast<void>(e);
                static_cast<void>(order);
                return false;
#else
                if constexpr (!is_kernel_output<O>::value)
                {
                    return false;
                }
                else
                {
                    using value_type = typename O::value_type;
                    using expression_value = typename std::decay_t<E>::value_type;
                    using lane = kernel_lane_t<E>;
                    if constexpr (kernel_reduction<expression_value, std::decay_t<E>>::supported)
                    {
                        if constexpr (std::is_same<value_type, expression_value>::value)
                        {
                            return kernel_assign_reduction(out, e, order);
                        }
                        else
                        {
                            // Converted through a temporary copied in the expression's order only.
                            return order == nullptr &&
                                   kernel_assign_reduction_converted<expression_value>(out, e);
                        }
                    }
                    else if constexpr (is_kernel_elementwise_v<lane, E>)
                    {
                        return kernel_assign_elementwise<lane>(out, e, order);
                    }
                    else
                    {
                        return false;
                    }
                }
#endif
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
