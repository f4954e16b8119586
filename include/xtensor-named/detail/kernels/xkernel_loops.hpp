/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_LOOPS_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_LOOPS_HPP

// The loops of the kernels (docs/kernels.md): scalar loops over the outer axes, and along the innermost
// axis runs of elements evaluated in SIMD batches (see xkernel_run.hpp for the leaves), the elements
// after the last whole batch one by one; a short innermost axis in tiles of rows taken as one run. Folds
// (sum, prod, max, min) over outer axes fold whole runs into runs of partial results, in the order
// xtensor's reducer folds them.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

#include "../../xcompat_xsimd.hpp"
#include "xkernel_expression.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_run.hpp"
#include "xkernel_threads.hpp"
#include "xrun_plan.hpp"

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Writes the values of a run to consecutive elements.
            template <class T>
            struct store_sink
            {
                T* dst;

                void put(std::size_t i, const simd::batch<T>& value) noexcept
                {
                    simd::batch_traits<T>::store(dst + i, value);
                }

                void put_scalar(std::size_t i, T value) noexcept
                {
                    dst[i] = value;
                }

                /// Whether writing the run a second time gives the same: not when it overwrites an input.
                template <class Run>
                bool replayable(const Run& run) const noexcept
                {
                    return !run.reads(dst);
                }
            };

            /// Writes the values of a run, converted, to elements `stride` apart: an output of another
            /// element type than the lanes (a bool mask, a float from a double expression).
            template <class T, class O>
            struct convert_sink
            {
                O* dst;
                kernel_index stride;

                void put(std::size_t i, const simd::batch<T>& value) noexcept
                {
                    alignas(sizeof(simd::batch<T>)) T lanes[simd::batch_size<T>];
                    simd::batch_traits<T>::store(lanes, value);
                    for (std::size_t j = 0; j < simd::batch_size<T>; ++j)
                    {
                        put_scalar(i + j, lanes[j]);
                    }
                }

                void put_scalar(std::size_t i, T value) noexcept
                {
                    dst[static_cast<kernel_index>(i) * stride] = static_cast<O>(value);
                }

                /// Whether writing the run a second time gives the same: not when it overwrites an input.
                template <class Run>
                bool replayable(const Run& run) const noexcept
                {
                    return !run.reads(dst);
                }
            };

            /// Folds the values of a run into consecutive partial results: acc = fold(acc, value), as
            /// xtensor's reducer.
            template <class T, class Fold>
            struct accumulate_sink
            {
                T* acc;

                void put(std::size_t i, const simd::batch<T>& value) noexcept
                {
                    using traits = simd::batch_traits<T>;
                    traits::store(acc + i, Fold::combine(traits::load(acc + i), value));
                }

                void put_scalar(std::size_t i, T value) noexcept
                {
                    acc[i] = Fold::combine(acc[i], value);
                }

                /// The run folds into memory: a second pass would fold it twice.
                template <class Run>
                bool replayable(const Run&) const noexcept
                {
                    return false;
                }
            };

            /// The state of a run folded lane by lane (lane_fold_sink), the same for every fold, so
            /// that the loops around the tree's runs hold it without knowing the fold.
            template <class T>
            struct lane_chains
            {
                // Four partial results, batch j of a run going to partial j mod 4: four independent
                // chains of additions, which a core runs in parallel (one chain waits on each add).
                static constexpr std::size_t count = 4;
                std::array<simd::batch<T>, count> lanes;
                // The elements after the last whole batch of each run folded into it, in order.
                T tail;

                /// Chains that hold nothing yet: each at the fold's identity.
                static lane_chains empty(T identity) noexcept
                {
                    const simd::batch<T> splat = simd::batch_traits<T>::splat(identity);
                    return lane_chains{{splat, splat, splat, splat}, identity};
                }
            };

            /**
             * Folds the values of a run: lane by lane first, then the lanes, then the elements after the
             * last whole batch in order. Not xtensor's association (one element after the other): for
             * sums and products the tests bound the difference; minimum and maximum are exact in any
             * order.
             */
            template <class T, class Fold>
            struct lane_fold_sink
            {
                lane_chains<T> chains = lane_chains<T>::empty(Fold::template identity<T>());

                void put(std::size_t i, const simd::batch<T>& value) noexcept
                {
                    simd::batch<T>& chain = chains.lanes[(i / simd::batch_size<T>) % lane_chains<T>::count];
                    chain = Fold::combine(chain, value);
                }

                void put_scalar(std::size_t, T value) noexcept
                {
                    chains.tail = Fold::combine(chains.tail, value);
                }

                /// The run folds into this sink's own copy: a copy taken before it can take it again.
                template <class Run>
                bool replayable(const Run&) const noexcept
                {
                    return true;
                }

                T total(T init) const noexcept
                {
                    return total_of(chains, init);
                }

                static T total_of(const lane_chains<T>& c, T init) noexcept
                {
                    return Fold::combine(Fold::combine(init, fold_lanes(merged(c))), c.tail);
                }

                /// total(init) before its tail, for runs too short for a batch: the same for all of them.
                static T front(T init) noexcept
                {
                    return Fold::combine(init, fold_lanes(merged(lane_fold_sink{}.chains)));
                }

            private:
                static simd::batch<T> merged(const lane_chains<T>& c) noexcept
                {
                    return Fold::combine(Fold::combine(c.lanes[0], c.lanes[1]),
                                         Fold::combine(c.lanes[2], c.lanes[3]));
                }

                static T fold_lanes(const simd::batch<T>& value) noexcept
                {
                    if constexpr (std::is_same<Fold, kernel_fold<xt::detail::plus>>::value)
                    {
                        return simd::batch_traits<T>::sum_lanes(value);
                    }
                    else
                    {
                        alignas(sizeof(simd::batch<T>)) T values[simd::batch_size<T>];
                        simd::batch_traits<T>::store(values, value);
                        T result = values[0];
                        for (std::size_t j = 1; j < simd::batch_size<T>; ++j)
                        {
                            result = Fold::combine(result, values[j]);
                        }
                        return result;
                    }
                }
            };

            /// Evaluates `Node` on elements [0, count) of `run` into `sink`: whole batches, then one by one.
            template <class Node, class Run, class Sink>
            void eval_run(const Run& run, std::size_t count, Sink& sink) noexcept;

            /// Evaluates `Node` on elements [0, count) of `run` into `dst` with streaming stores: one by
            /// one up to the first element aligned for them, then whole batches, then one by one.
            template <class Node, class Run, class T>
            void eval_run_streaming(const Run& run, std::size_t count, T* dst) noexcept;

            /**
             * How a run reaches the output: ordinary SIMD stores; streaming stores, which do not read the
             * output's cache lines first (evaluations of streaming_min_bytes and more); or, for a smaller
             * run that only copies contiguous elements, std::memcpy, whose fast-string copies (x86 with
             * ERMS, as glibc uses them) do not read them either and keep them cached.
             */
            enum class kernel_store
            {
                ordinary,
                streaming,
                copy
            };

            /// One of the two axes along which eval_runs steps from run to run: how many runs, and how far
            /// each leaf and the output move from one to the next.
            template <std::size_t L>
            struct run_axis
            {
                std::size_t runs = 1;
                std::array<kernel_index, (L == 0 ? 1 : L)> leaf_step{};
                kernel_index out_step = 0;
            };

            /// How far each of the L leaves moves along `axis` of `layout`, in elements.
            template <std::size_t L>
            inline std::array<kernel_index, (L == 0 ? 1 : L)> leaf_steps(const kernel_layout& layout,
                                                                         std::size_t axis) noexcept
            {
                std::array<kernel_index, (L == 0 ? 1 : L)> steps{};
                for (std::size_t k = 0; k < L; ++k)
                {
                    steps[k] = layout.stride(axis, k + 1);
                }
                return steps;
            }

            /**
             * Evaluates the runs of `count` elements of two axes (`axes[1]` the faster) into `out`: the run
             * (i, j) has the leaves of `first` and the output moved i steps along `axes[0]` and j along
             * `axes[1]` (every leaf contiguous or constant along the runs). One function for all the
             * runs, so that the run's leaves stay in registers from run to run, and the loops around it make
             * one call where a short axis outside the runs would make one for each of its few runs.
             */
            template <class Node, kernel_store Store, class T, std::size_t L>
            void eval_runs(kernel_run_param<T, L> first, std::size_t count,
                           const std::array<run_axis<L>, 2>& axes, T* out) noexcept;

            /**
             * Calls `f(position)` for every index along `axes` (the last one fastest), `position` holding
             * for every operand the offset of the current element: starts at `start`, steps by the
             * layout's strides. No call when one of the axes is empty; one when `axes` is empty.
             */
            template <std::size_t N, class F>
            void for_each_position(const kernel_layout& layout, const kernel_sizes& axes,
                                   const std::array<kernel_index, N>& start, F&& f);

            /**
             * What the loops of an elementwise evaluation need from its tree, compiled once per tree:
             * the tree's runs (one run, or those of two axes, see eval_runs) for each kind of store, a run
             * converted to another output type (strided or not; none where O is T), and one element. The
             * loops around them (run_planned, run_elementwise) are then compiled once per element type, leaf
             * count and output type, not once per expression; they call through these pointers once per
             * run, or once for all the runs of the two axes outside them.
             */
            template <class T, std::size_t L, class O>
            struct tree_runs
            {
                using run_fn = void (*)(const kernel_run<T, L>& run, std::size_t count, T* dst) noexcept;
                using runs_fn = void (*)(kernel_run_param<T, L> first, std::size_t count,
                                         const std::array<run_axis<L>, 2>& axes, T* out) noexcept;

                run_fn ordinary = nullptr;
                run_fn streaming = nullptr;
                runs_fn ordinary_runs = nullptr;
                runs_fn streaming_runs = nullptr;
                runs_fn copy_runs = nullptr;
                void (*converted)(const kernel_run<T, L>& run, std::size_t count, O* out,
                                  kernel_index out_stride) noexcept = nullptr;
                T (*element)(const kernel_run<T, L>& run) noexcept = nullptr;
                /// Whether the tree is its single leaf, copied.
                bool copy = false;
            };

            /// The tree_runs of `Node`.
            template <class Node, class T, std::size_t L, class O>
            const tree_runs<T, L, O>& tree_runs_of() noexcept;

            /// run_elementwise with the tree given by its runs.
            template <class T, std::size_t L, class O>
            void run_elementwise_with(const tree_runs<T, L, O>& tree, kernel_layout& layout, O* out,
                                      const kernel_leaves<T, L>& leaves, std::size_t whole_bytes);

            /**
             * out = Node(leaves), elementwise, each value converted to O. `layout` has the output as
             * operand 0 and leaf k as operand k + 1; `out` and `leaves` are where its offsets start from.
             * Reorders and merges the layout's axes.
             */
            /// `whole_bytes`: where `layout` is a share or a block of a larger evaluation, the bytes the
            /// whole moves (which decides the kind of stores); 0 where it is the whole.
            template <class Node, class T, std::size_t L, class O>
            void run_elementwise(kernel_layout& layout, O* out, const kernel_leaves<T, L>& leaves,
                                 std::size_t whole_bytes = 0);

            /**
             * out = nested folds of Node(leaves): `stages[0]` is the outermost fold, the last one folds
             * Node. `layout` is the index space of Node's operands, with the output as operand 0
             * (stride 0 along every folded axis) and leaf k as operand k + 1. Every association is
             * xtensor's, except where the innermost axis is folded (its runs are folded lane by lane,
             * see lane_fold_sink), where a short innermost axis is kept (one chain per row of a tile,
             * see tiled_fold) and where a result has more terms than a part (see fold_cut).
             * `whole_inner`: where `layout` is a share of a larger fold cut along a kept axis, the length
             * of the larger one's innermost axis, which decides whether it is short; 0 where it is the
             * whole.
             */
            template <class Node, class Fold, class T, std::size_t L>
            void run_folds(const kernel_layout& layout, const std::vector<fold_stage<T>>& stages, T* out,
                           const kernel_leaves<T, L>& leaves, std::size_t whole_inner = 0);

            /**
             * What the loops of a fold do with values outside the tree's runs, compiled once per fold and
             * element type: combine two results, put an initial value in front of a run of results, merge
             * two runs of partial results, fold lane chains to their total, and fold a buffer of values
             * into lane chains. The loops around the tree (fold_runner, run_folds_with) call them once per
             * run or result, and are then compiled once per element type and leaf count, not once more
             * for every fold a program uses (a sum and a maximum).
             */
            template <class T>
            struct fold_ops
            {
                T identity;
                T (*combine)(T a, T b) noexcept;
                /// dst[j] = fold(value, dst[j]) for j in [0, count).
                void (*in_front)(T value, T* dst, std::size_t count) noexcept;
                /// dst[j] = fold(dst[j], src[j]) for j in [0, count).
                void (*merge)(T* dst, const T* src, std::size_t count) noexcept;
                /// lane_fold_sink::total and lane_fold_sink::front.
                T (*total)(const lane_chains<T>& chains, T init) noexcept;
                T (*front)(T init) noexcept;
                /// `count` values from `values` folded into `chains`.
                void (*buffer_lanes)(const T* values, std::size_t count, lane_chains<T>& chains) noexcept;
            };

            /// The fold_ops of `Fold`.
            template <class Fold, class T>
            const fold_ops<T>& fold_ops_of() noexcept;

            /**
             * What the loops of a fold need from its tree, compiled once per tree (as tree_runs for an
             * elementwise one): a run into each kind of sink they use, the loops that short runs spend
             * their time in, and one element; and the fold's own operations (fold_ops).
             */
            template <class T, std::size_t L>
            struct fold_tree
            {
                template <class Sink>
                using run_fn = void (*)(const kernel_run<T, L>& run, std::size_t count, Sink& sink) noexcept;

                run_fn<store_sink<T>> store = nullptr;
                /// The run folded into consecutive partial results from `acc` on (accumulate_sink).
                void (*accumulate)(const kernel_run<T, L>& run, std::size_t count, T* acc) noexcept = nullptr;
                run_fn<lane_chains<T>> lanes = nullptr;
                /// eval_terms and eval_fold_runs: the loops that folds of short runs spend their time in.
                void (*terms)(kernel_run_param<T, L> first, std::size_t terms,
                              const std::array<kernel_index, (L == 0 ? 1 : L)>& step, std::size_t count,
                              T* dst) noexcept = nullptr;
                void (*fold_runs)(kernel_run_param<T, L> first, std::size_t runs,
                                  const std::array<kernel_index, (L == 0 ? 1 : L)>& run_step,
                                  kernel_index out_step, std::size_t terms,
                                  const std::array<kernel_index, (L == 0 ? 1 : L)>& term_step,
                                  std::size_t length, const fold_stage<T>& stage, T* dst) noexcept = nullptr;
                /// eval_run_totals: results each the total of a run along the innermost axis.
                void (*totals)(kernel_run_param<T, L> first, std::size_t results,
                               const std::array<kernel_index, (L == 0 ? 1 : L)>& run_step,
                               kernel_index out_step, std::size_t length, const fold_stage<T>& stage,
                               T* dst) noexcept = nullptr;
                /// eval_short_folds: the short runs of a layout's last axis, each folded to its result.
                void (*short_folds)(kernel_tile_source<T, L>& tiles, const kernel_layout& layout,
                                    const kernel_leaves<T, L>& leaves,
                                    const std::array<kernel_index, L + 1>& at, kernel_run<T, L>& run, T front,
                                    const fold_stage<T>& stage, T* values, T* out) = nullptr;
                T (*element)(const kernel_run<T, L>& run) noexcept = nullptr;
                const fold_ops<T>* ops = nullptr;
            };

            /// The fold_tree of `Node` folded with `Fold`.
            template <class Node, class T, class Fold, std::size_t L>
            const fold_tree<T, L>& fold_tree_of() noexcept;

            /// run_folds with the tree given by its runs.
            template <class T, std::size_t L>
            void run_folds_with(const fold_tree<T, L>& tree, const kernel_layout& layout,
                                const std::vector<fold_stage<T>>& stages, T* out,
                                const kernel_leaves<T, L>& leaves, std::size_t whole_inner);

            /****************************
             * runs implementation      *
             ****************************/

            template <class Node, class Run, class Sink>
            inline void eval_run(const Run& run, std::size_t count, Sink& sink) noexcept
            {
                using T = typename Node::value_type;
                if constexpr (kernel_notes(Node::noting_reach) && simd::has_batch_v<T> &&
                              !is_noting_run<Run>::value)
                {
                    // Without the guarded functions' tests first (kernel_noting_run); again with them
                    // where a lane was outside a function's range, from the sink's state before the run.
                    if (sink.replayable(run))
                    {
                        const kernel_noting_run<Run, T> noting(run);
                        Sink first = sink;
                        eval_run<Node>(noting, count, first);
                        if (XTENSOR_NAMED_LIKELY(noting.all_within(Node::noting_reach)))
                        {
                            sink = first;
                            return;
                        }
                    }
                }
                constexpr std::size_t width = simd::batch_size<T>;
                // Local copies: SIMD stores may alias anything, so the compiler would otherwise reload
                // the run's pointers and the sink's state after every store.
                const Run local_run = run;
                Sink local_sink = sink;
                std::size_t i = 0;
                // Four batches a step: the loads of one batch overlap the arithmetic of another. Not
                // where the run notes a function's range: that function is long enough to overlap the
                // loads, and four of it do not fit in the registers with its constants.
                for (; !is_noting_run<Run>::value && i + 4 * width <= count; i += 4 * width)
                {
                    const simd::batch<T> v0 = Node::template load<0>(local_run, i);
                    const simd::batch<T> v1 = Node::template load<0>(local_run, i + width);
                    const simd::batch<T> v2 = Node::template load<0>(local_run, i + 2 * width);
                    const simd::batch<T> v3 = Node::template load<0>(local_run, i + 3 * width);
                    local_sink.put(i, v0);
                    local_sink.put(i + width, v1);
                    local_sink.put(i + 2 * width, v2);
                    local_sink.put(i + 3 * width, v3);
                }
                for (; i + width <= count; i += width)
                {
                    local_sink.put(i, Node::template load<0>(local_run, i));
                }
                for (; i < count; ++i)
                {
                    local_sink.put_scalar(i, Node::template load_scalar<0>(local_run, i));
                }
                sink = local_sink;
                if constexpr (is_noting_run<Run>::value)
                {
                    run.largest = local_run.largest;
                }
            }

            template <class Node, class Run, class T>
            inline void eval_run_streaming(const Run& run, std::size_t count, T* dst) noexcept
            {
                using traits = simd::batch_traits<T>;
                if constexpr (kernel_notes(Node::noting_reach) && simd::has_batch_v<T> &&
                              !is_noting_run<Run>::value)
                {
                    // As eval_run.
                    if (!run.reads(dst))
                    {
                        const kernel_noting_run<Run, T> noting(run);
                        eval_run_streaming<Node>(noting, count, dst);
                        if (XTENSOR_NAMED_LIKELY(noting.all_within(Node::noting_reach)))
                        {
                            return;
                        }
                    }
                }
                constexpr std::size_t width = simd::batch_size<T>;
                const Run local_run = run;
                T* const local_dst = dst;
                // The elements before the first address that a batch store may take (all of them where
                // the output is not even aligned to its element).
                const std::size_t head = xsimd::get_alignment_offset(local_dst, count, width);
                std::size_t i = 0;
                for (; i < head; ++i)
                {
                    local_dst[i] = Node::template load_scalar<0>(local_run, i);
                }
                for (; i + width <= count; i += width)
                {
                    traits::stream(local_dst + i, Node::template load<0>(local_run, i));
                }
                for (; i < count; ++i)
                {
                    local_dst[i] = Node::template load_scalar<0>(local_run, i);
                }
                if constexpr (is_noting_run<Run>::value)
                {
                    run.largest = local_run.largest;
                }
            }

            /// A run that copies its single leaf into `dst`.
            template <class T, std::size_t L>
            inline void eval_run_copy(const kernel_run<T, L>& run, std::size_t count, T* dst) noexcept
            {
                // The only memory an output may share with a leaf is the very run it copies (see
                // kernel_collector::reads_in_place): nothing to do then.
                if (dst != run.ptr[0])
                {
                    std::memcpy(dst, run.ptr[0], count * sizeof(T));
                }
            }

            /// Evaluates one run into `dst` the way `Store` says.
            template <class Node, kernel_store Store, class T, std::size_t L>
            inline void eval_run_to(const kernel_run<T, L>& run, std::size_t count, T* dst) noexcept
            {
                if constexpr (Store == kernel_store::streaming)
                {
                    eval_run_streaming<Node>(run, count, dst);
                }
                else if constexpr (Store == kernel_store::copy)
                {
                    eval_run_copy(run, count, dst);
                }
                else
                {
                    store_sink<T> sink{dst};
                    eval_run<Node>(run, count, sink);
                }
            }

            template <class Node, kernel_store Store, class T, std::size_t L>
            inline void eval_runs(kernel_run_param<T, L> first, std::size_t count,
                                  const std::array<run_axis<L>, 2>& axes, T* out) noexcept
            {
                kernel_run_moved<T, L> run = first;
                for (std::size_t i = 0; i < axes[0].runs; ++i)
                {
                    if (i > 0)
                    {
                        run.template move_by<Node::leaves>(axes[0].leaf_step);
                        out += axes[0].out_step;
                    }
                    kernel_run<T, L> inner = run;
                    T* inner_out = out;
                    for (std::size_t j = 0; j < axes[1].runs; ++j)
                    {
                        if (j > 0)
                        {
                            inner.template move_by<Node::leaves>(axes[1].leaf_step);
                            inner_out += axes[1].out_step;
                        }
                        eval_run_to<Node, Store>(inner, count, inner_out);
                    }
                }
            }

            template <std::size_t N, class F>
            inline void for_each_position(const kernel_layout& layout, const kernel_sizes& axes,
                                          const std::array<kernel_index, N>& start, F&& f)
            {
                for (std::size_t axis : axes)
                {
                    if (layout.size(axis) == 0)
                    {
                        return;
                    }
                }
                std::array<kernel_index, N> position = start;
                kernel_sizes index(axes.size(), 0);
                while (true)
                {
                    f(position);
                    std::size_t d = axes.size();
                    while (true)
                    {
                        if (d == 0)
                        {
                            return;
                        }
                        --d;
                        const std::size_t axis = axes[d];
                        if (++index[d] < layout.size(axis))
                        {
                            for (std::size_t k = 0; k < N; ++k)
                            {
                                position[k] += layout.stride(axis, k);
                            }
                            break;
                        }
                        // Back to index 0 along this axis, one step along the next outer one.
                        const auto back = static_cast<kernel_index>(index[d] - 1);
                        for (std::size_t k = 0; k < N; ++k)
                        {
                            position[k] -= back * layout.stride(axis, k);
                        }
                        index[d] = 0;
                    }
                }
            }

            /// The strides of the leaves (operands 1 to L) along the layout's innermost axis.
            template <std::size_t L>
            inline std::array<kernel_index, (L == 0 ? 1 : L)> run_strides(const kernel_layout& layout)
            {
                std::array<kernel_index, (L == 0 ? 1 : L)> result{};
                for (std::size_t k = 0; layout.rank() > 0 && k < L; ++k)
                {
                    result[k] = layout.stride(layout.rank() - 1, k + 1);
                }
                return result;
            }

            /// Where the run at `position` starts, for every leaf.
            template <class T, std::size_t S, std::size_t N>
            inline std::array<const char*, S> run_starts(const std::array<kernel_leaf_ref<T>, S>& leaves,
                                                         const std::array<kernel_index, N>& position)
            {
                // N is one more than the number of leaves: the output's offset comes first.
                std::array<const char*, S> result{};
                for (std::size_t k = 0; k + 1 < N; ++k)
                {
                    result[k] = leaves[k].at(position[k + 1]);
                }
                return result;
            }

            /// Axes 0 to n - 1.
            inline kernel_sizes axes_before(std::size_t n)
            {
                kernel_sizes axes(n);
                for (std::size_t a = 0; a < n; ++a)
                {
                    axes[a] = a;
                }
                return axes;
            }

            /// Where every operand's first element is: the layout's offsets.
            template <std::size_t N>
            inline std::array<kernel_index, N> first_offsets(const kernel_layout& layout)
            {
                std::array<kernel_index, N> offsets;
                for (std::size_t k = 0; k < N; ++k)
                {
                    offsets[k] = layout.offset(k);
                }
                return offsets;
            }

            /// Calls `body(rows, at)` for the tiles of `count` positions of `axis` from `at`: each tile of
            /// at most tiles.rows() rows, its leaves prepared in `run`, `at` where its first run starts.
            template <class T, std::size_t L, class F>
            inline void for_each_tile(kernel_tile_source<T, L>& tiles, const kernel_layout& layout,
                                      const kernel_leaves<T, L>& leaves, std::size_t axis, std::size_t count,
                                      std::array<kernel_index, L + 1> at, kernel_run<T, L>& run,
                                      const F& body)
            {
                for (std::size_t r = 0; r < count; r += tiles.rows())
                {
                    const std::size_t rows = std::min(tiles.rows(), count - r);
                    tiles.prepare(run_starts(leaves, at), rows, run);
                    body(rows, at);
                    for (std::size_t k = 0; k <= L; ++k)
                    {
                        at[k] += static_cast<kernel_index>(rows) * layout.stride(axis, k);
                    }
                }
            }

            /// How many runs the next band of a part takes, `done` of its `total` runs along the axis across
            /// them taken, the next from `at`: the first band up to the line of the leaf read in bands
            /// (kernel_bands::rows_to_line), so that the bands after it read whole lines.
            template <class T, std::size_t L>
            inline std::size_t band_rows(const kernel_bands<T, L>& bands, const kernel_leaves<T, L>& leaves,
                                         std::size_t done, std::size_t total,
                                         const std::array<kernel_index, L + 1>& at) noexcept
            {
                return std::min(done == 0 ? bands.rows_to_line(run_starts(leaves, at)) : kernel_band_rows<T>,
                                total - done);
            }

            /// Calls `body(row, at)` for elements [first, first + count) of the `rows` runs of a band along
            /// `axis` of `layout` from `at`, once their lines are gathered (kernel_bands): each run
            /// prepared in `run`, `at` where it starts. `at` ends past the band.
            template <class T, std::size_t L, class F>
            inline void for_each_band_run(kernel_bands<T, L>& bands, const kernel_layout& layout,
                                          const kernel_leaves<T, L>& leaves, std::size_t axis,
                                          std::size_t rows, std::array<kernel_index, L + 1>& at,
                                          std::size_t first, std::size_t count, kernel_run<T, L>& run,
                                          const F& body)
            {
                bands.gather(run_starts(leaves, at), rows, first, count);
                for (std::size_t r = 0; r < rows; ++r)
                {
                    bands.prepare(run_starts(leaves, at), first, count, run, r);
                    body(r, at);
                    for (std::size_t k = 0; k <= L; ++k)
                    {
                        at[k] += layout.stride(axis, k);
                    }
                }
            }

            /**
             * The runs of an elementwise evaluation whose innermost axis is short (kernel_short_run) and
             * whose output is contiguous over it and the axis outside it: tiles of runs, each evaluated
             * in whole batches as one run (kernel_tile_source).
             */
            template <class T, std::size_t L, class O>
            inline void run_tiles(const tree_runs<T, L, O>& tree, const kernel_layout& layout, T* out,
                                  const kernel_leaves<T, L>& leaves, bool streaming)
            {
                const std::size_t axis = layout.rank() - 2;
                const std::size_t length = layout.size(axis + 1);
                kernel_tile_source<T, L> tiles(layout, axis, leaves);
                const kernel_sizes outer = axes_before(axis);
                const auto start = first_offsets<L + 1>(layout);
                const auto loop = streaming ? tree.streaming : tree.ordinary;
                kernel_run<T, L> run{};
                for_each_position(layout, outer, start,
                                  [&](const std::array<kernel_index, L + 1>& position)
                                  {
                                      for_each_tile(
                                          tiles, layout, leaves, axis, layout.size(axis), position, run,
                                          [&](std::size_t rows, const std::array<kernel_index, L + 1>& at)
                                          { loop(run, rows * length, out + at[0]); });
                                  });
                if (streaming)
                {
                    simd::stream_fence();
                }
            }

            /// The runs of a share `layout` of an elementwise evaluation as `plan` says, each prepared by
            /// `source`.
            template <class T, std::size_t L, class O>
            inline void run_planned(const tree_runs<T, L, O>& tree, const kernel_layout& layout, O* out,
                                    const kernel_leaves<T, L>& leaves, kernel_source<T, L>& source,
                                    const run_plan& plan)
            {
                constexpr bool same_type = std::is_same<O, T>::value;
                const std::size_t inner = layout.rank() - 1;
                const std::size_t length = layout.size(inner);
                const kernel_index out_stride = layout.stride(inner, 0);
                const bool streaming = plan.store == run_store::streaming;
                const std::size_t chunk = plan.chunk;
                if constexpr (same_type)
                {
                    if (plan.traversal == run_traversal::tiles)
                    {
                        run_tiles(tree, layout, out, leaves, streaming);
                        return;
                    }
                }

                const kernel_sizes outer = axes_before(inner);
                const auto start = first_offsets<L + 1>(layout);
                kernel_run<T, L> run{};
                // Elements [first, first + count) of the run at `position`, once `run` is prepared.
                const auto one_chunk =
                    [&](const std::array<kernel_index, L + 1>& position, std::size_t first, std::size_t count)
                {
                    O* out_run = out + position[0];
                    if constexpr (same_type)
                    {
                        if (plan.store == run_store::streaming)
                        {
                            tree.streaming(run, count, out_run + first);
                            return;
                        }
                        if (plan.store == run_store::copy)
                        {
                            eval_run_copy(run, count, out_run + first);
                            return;
                        }
                        if (plan.store == run_store::ordinary)
                        {
                            tree.ordinary(run, count, out_run + first);
                            return;
                        }
                        // The tree's one run function, not a second one of each tree that stores with
                        // a stride: strided outputs are rare, and a chunk stays in the L1 cache.
                        alignas(64) T computed[kernel_chunk<T>];
                        tree.ordinary(run, count, computed);
                        T* to = out_run + static_cast<kernel_index>(first) * out_stride;
                        for (std::size_t j = 0; j < count; ++j)
                        {
                            to[static_cast<kernel_index>(j) * out_stride] = computed[j];
                        }
                    }
                    else
                    {
                        tree.converted(run, count, out_run + static_cast<kernel_index>(first) * out_stride,
                                       out_stride);
                    }
                };
                const auto one_run = [&](const std::array<kernel_index, L + 1>& position)
                {
                    for (std::size_t first = 0; first < length; first += chunk)
                    {
                        const std::size_t count = std::min(chunk, length - first);
                        source.prepare(run_starts(leaves, position), first, count, run);
                        one_chunk(position, first, count);
                    }
                };
                if constexpr (same_type)
                {
                    if (plan.traversal == run_traversal::runs)
                    {
                        // Every leaf contiguous or constant along the runs: the runs of the two axes
                        // outside them in one call, whose cost per run matters for short runs (one axis
                        // outside is the most common layout after coalescing; a short axis between long
                        // ones leaves two).
                        std::array<run_axis<L>, 2> axes{};
                        const std::size_t stepped = std::min<std::size_t>(inner, 2);
                        for (std::size_t s = 0; s < stepped; ++s)
                        {
                            const std::size_t axis = inner - stepped + s;
                            run_axis<L>& a = axes[2 - stepped + s];
                            a.runs = layout.size(axis);
                            a.out_step = layout.stride(axis, 0);
                            a.leaf_step = leaf_steps<L>(layout, axis);
                        }
                        const auto runs = streaming                       ? tree.streaming_runs
                                          : plan.store == run_store::copy ? tree.copy_runs
                                                                          : tree.ordinary_runs;
                        for_each_position(layout, axes_before(inner - stepped), start,
                                          [&](const std::array<kernel_index, L + 1>& position)
                                          {
                                              source.prepare(run_starts(leaves, position), 0, length, run);
                                              runs(run, length, axes, out + position[0]);
                                          });
                        if (streaming)
                        {
                            simd::stream_fence();
                        }
                        return;
                    }
                }
                if (plan.traversal == run_traversal::bands)
                {
                    // Each chunk of a band's runs in turn: the lines of a leaf stored in the other axis
                    // order are read once for all the band's runs. Whole chunks, not chunks small enough
                    // for a band to stay in the L1 cache: the other leaves and the output are then read and
                    // written in longer stretches of each run, which was faster.
                    const std::size_t across = inner - 1;
                    const std::size_t rows = layout.size(across);
                    kernel_bands<T, L> bands(leaves, leaf_steps<L>(layout, inner),
                                             leaf_steps<L>(layout, across));
                    for_each_position(
                        layout, axes_before(across), start,
                        [&](std::array<kernel_index, L + 1> band)
                        {
                            std::size_t in_band = 0;
                            for (std::size_t r = 0; r < rows; r += in_band)
                            {
                                in_band = band_rows(bands, leaves, r, rows, band);
                                for (std::size_t first = 0; first < length; first += chunk)
                                {
                                    const std::size_t count = std::min(chunk, length - first);
                                    std::array<kernel_index, L + 1> position = band;
                                    for_each_band_run(
                                        bands, layout, leaves, across, in_band, position, first, count, run,
                                        [&](std::size_t, const std::array<kernel_index, L + 1>& at)
                                        { one_chunk(at, first, count); });
                                }
                                for (std::size_t k = 0; k <= L; ++k)
                                {
                                    band[k] += static_cast<kernel_index>(in_band) * layout.stride(across, k);
                                }
                            }
                        });
                }
                else if (inner == 1)
                {
                    std::array<kernel_index, L + 1> position = start;
                    for (std::size_t r = 0; r < layout.size(0); ++r)
                    {
                        one_run(position);
                        for (std::size_t k = 0; k <= L; ++k)
                        {
                            position[k] += layout.stride(0, k);
                        }
                    }
                }
                else
                {
                    for_each_position(layout, outer, start, one_run);
                }
                if (streaming)
                {
                    simd::stream_fence();
                }
            }

            /// One run of `Node` converted to O, `out_stride` apart.
            template <class Node, class T, std::size_t L, class O>
            inline void eval_run_converted(const kernel_run<T, L>& run, std::size_t count, O* out,
                                           kernel_index out_stride) noexcept
            {
                convert_sink<T, O> sink{out, out_stride};
                eval_run<Node>(run, count, sink);
            }

            /// The value of `Node` at the first element of `run`.
            template <class Node, class T, std::size_t L>
            inline T eval_element(const kernel_run<T, L>& run) noexcept
            {
                return Node::template load_scalar<0>(run, 0);
            }

            template <class Node, class T, std::size_t L, class O>
            inline const tree_runs<T, L, O>& tree_runs_of() noexcept
            {
                static const tree_runs<T, L, O> runs = []
                {
                    tree_runs<T, L, O> r;
                    if constexpr (std::is_same<O, T>::value)
                    {
                        r.ordinary = &eval_run_to<Node, kernel_store::ordinary, T, L>;
                        r.streaming = &eval_run_to<Node, kernel_store::streaming, T, L>;
                        r.ordinary_runs = &eval_runs<Node, kernel_store::ordinary, T, L>;
                        r.streaming_runs = &eval_runs<Node, kernel_store::streaming, T, L>;
                        // A copy runs no tree: the same function for every tree of one leaf.
                        r.copy_runs = &eval_runs<kernel_run_leaf<T>, kernel_store::copy, T, L>;
                    }
                    else
                    {
                        r.converted = &eval_run_converted<Node, T, L, O>;
                    }
                    r.element = &eval_element<Node, T, L>;
                    r.copy = kernel_is_copy_v<Node>;
                    return r;
                }();
                return runs;
            }

            template <class Node, class T, std::size_t L, class O>
            inline void run_elementwise(kernel_layout& layout, O* out, const kernel_leaves<T, L>& leaves,
                                        std::size_t whole_bytes)
            {
                run_elementwise_with(tree_runs_of<Node, T, L, O>(), layout, out, leaves, whole_bytes);
            }

            /// Calls `run_on(part)` on `layout` cut into `tasks` parts of equal length along `axis`, taken
            /// by the threads where there are threads (for_each_task); on `layout` itself for one task.
            template <class F>
            inline void run_in_tasks(const kernel_layout& layout, std::size_t axis, std::size_t tasks,
                                     const F& run_on)
            {
                if (tasks == 1)
                {
                    run_on(layout);
                    return;
                }
                for_each_task(tasks,
                              [&](std::size_t t)
                              {
                                  const kernel_share range = share_of(t, tasks, layout.size(axis));
                                  run_on(layout.part(axis, range.begin, range.end));
                              });
            }

            template <class T, std::size_t L, class O>
            inline void run_elementwise_with(const tree_runs<T, L, O>& tree, kernel_layout& layout, O* out,
                                             const kernel_leaves<T, L>& leaves, std::size_t whole_bytes)
            {
                if (layout.element_count() == 0)
                {
                    return;
                }
                layout.drop_unit_axes();
                layout.make_positive(0);
                layout.sort_axes_by(0);
                layout.coalesce();
                if (layout.rank() == 0)
                {
                    std::array<kernel_index, (L == 0 ? 1 : L)> no_strides{};
                    kernel_source<T, L> source(no_strides, leaves);
                    std::array<kernel_index, L + 1> position;
                    for (std::size_t k = 0; k <= L; ++k)
                    {
                        position[k] = layout.offset(k);
                    }
                    kernel_run<T, L> run{};
                    source.prepare(run_starts(leaves, position), 0, 1, run);
                    out[layout.offset(0)] = static_cast<O>(tree.element(run));
                    return;
                }
                const run_plan plan = plan_runs<T, O>(layout, leaves.data(), L, tree.copy, whole_bytes);
                run_in_tasks(layout, 0, plan.tasks,
                             [&](const kernel_layout& part)
                             {
                                 kernel_source<T, L> source(run_strides<L>(part), leaves);
                                 run_planned(tree, part, out, leaves, source, plan);
                             });
            }

            /// dst[j] = fold(value, dst[j]) for j in [0, count): an initial value in front.
            template <class Fold, class T>
            inline void fold_in_front(T value, T* dst, std::size_t count) noexcept
            {
                using traits = simd::batch_traits<T>;
                constexpr std::size_t width = simd::batch_size<T>;
                const simd::batch<T> front = traits::splat(value);
                std::size_t j = 0;
                for (; j + width <= count; j += width)
                {
                    traits::store(dst + j, Fold::combine(front, traits::load(dst + j)));
                }
                for (; j < count; ++j)
                {
                    dst[j] = Fold::combine(value, dst[j]);
                }
            }

            /// dst[j] = fold(dst[j], src[j]) for j in [0, count): the merge of two partial results.
            template <class Fold, class T>
            inline void fold_run(T* dst, const T* src, std::size_t count) noexcept
            {
                using traits = simd::batch_traits<T>;
                constexpr std::size_t width = simd::batch_size<T>;
                std::size_t j = 0;
                for (; j + width <= count; j += width)
                {
                    traits::store(dst + j, Fold::combine(traits::load(dst + j), traits::load(src + j)));
                }
                for (; j < count; ++j)
                {
                    dst[j] = Fold::combine(dst[j], src[j]);
                }
            }

            /// A leaf read from a buffer: the node of a run of values already computed.
            template <class T>
            using kernel_buffer_node = kernel_run_leaf<T>;

            /// out[i * out_stride] = the fold of row i of `rows` rows of `length` values each: the stage's
            /// front, then the row one element after the other. `Length`, where not 0, is `length` known to
            /// the compiler, which then unrolls the row (fold_short_rows).
            template <class Fold, std::size_t Length, class T>
            inline void fold_rows_of(const T* values, std::size_t rows, std::size_t length, T front,
                                     const fold_stage<T>& stage, T* out, kernel_index out_stride) noexcept
            {
                const std::size_t n = Length != 0 ? Length : length;
                for (std::size_t i = 0; i < rows; ++i)
                {
                    T tail = Fold::template identity<T>();
                    for (std::size_t j = 0; j < n; ++j)
                    {
                        tail = Fold::combine(tail, values[i * n + j]);
                    }
                    const T result = Fold::combine(front, tail);
                    out[static_cast<kernel_index>(i) * out_stride] =
                        stage.has_initial ? Fold::combine(stage.initial, result) : result;
                }
            }

            /// fold_rows_of, rows of up to 4 elements (points (n, xyz), channels last) unrolled: with the
            /// length known at run time only, the loop over the rows of a tile took most of a fold within
            /// tiles.
            template <class Fold, class T>
            inline void fold_short_rows(const T* values, std::size_t rows, std::size_t length, T front,
                                        const fold_stage<T>& stage, T* out, kernel_index out_stride) noexcept
            {
                switch (length)
                {
                    case 1:
                        return fold_rows_of<Fold, 1>(values, rows, length, front, stage, out, out_stride);
                    case 2:
                        return fold_rows_of<Fold, 2>(values, rows, length, front, stage, out, out_stride);
                    case 3:
                        return fold_rows_of<Fold, 3>(values, rows, length, front, stage, out, out_stride);
                    case 4:
                        return fold_rows_of<Fold, 4>(values, rows, length, front, stage, out, out_stride);
                    default:
                        return fold_rows_of<Fold, 0>(values, rows, length, front, stage, out, out_stride);
                }
            }

            /// Folds into dst `terms` terms of `count` elements of `Node`, the first at `first`, moving the
            /// run by `step` from term to term, as eval_runs moves it.
            template <class Node, class Fold, class T, std::size_t L>
            inline void eval_terms(kernel_run_param<T, L> first, std::size_t terms,
                                   const std::array<kernel_index, (L == 0 ? 1 : L)>& step, std::size_t count,
                                   T* dst) noexcept
            {
                kernel_run_moved<T, L> run = first;
                accumulate_sink<T, Fold> sink{dst};
                for (std::size_t i = 0; i < terms; ++i)
                {
                    if (i > 0)
                    {
                        run.template move_by<Node::leaves>(step);
                    }
                    eval_run<Node>(run, count, sink);
                }
            }

            /**
             * The results of `runs` runs of `length` elements into dst, `out_step` apart: each the fold of
             * stage's only level, `terms` terms of `Node` (the first at `first`, each next `term_step`
             * further), the run moved by `run_step` from one result run to the next. A short folded axis
             * outside the kept one, where this loop is the whole of the time.
             */
            template <class Node, class Fold, class T, std::size_t L>
            inline void eval_fold_runs(kernel_run_param<T, L> first, std::size_t runs,
                                       const std::array<kernel_index, (L == 0 ? 1 : L)>& run_step,
                                       kernel_index out_step, std::size_t terms,
                                       const std::array<kernel_index, (L == 0 ? 1 : L)>& term_step,
                                       std::size_t length, const fold_stage<T>& stage, T* dst) noexcept
            {
                kernel_run_moved<T, L> run = first;
                for (std::size_t i = 0; i < runs; ++i, dst += out_step)
                {
                    if (i > 0)
                    {
                        run.template move_by<Node::leaves>(run_step);
                    }
                    std::fill(dst, dst + length, stage.init);
                    eval_terms<Node, Fold, T, L>(run, terms, term_step, length, dst);
                    if (stage.has_initial)
                    {
                        fold_in_front<Fold>(stage.initial, dst, length);
                    }
                }
            }

            /**
             * `results` results into dst, `out_step` apart: each the total of stage's only level, a run of
             * `length` elements of `Node` along the innermost axis, the run moved by `run_step` from one
             * result to the next (a sum over the last axis). One call for them all.
             */
            template <class Node, class Fold, class T, std::size_t L>
            inline void eval_run_totals(kernel_run_param<T, L> first, std::size_t results,
                                        const std::array<kernel_index, (L == 0 ? 1 : L)>& run_step,
                                        kernel_index out_step, std::size_t length, const fold_stage<T>& stage,
                                        T* dst) noexcept
            {
                kernel_run_moved<T, L> run = first;
                for (std::size_t i = 0; i < results; ++i, dst += out_step)
                {
                    if (i > 0)
                    {
                        run.template move_by<Node::leaves>(run_step);
                    }
                    lane_fold_sink<T, Fold> sink;
                    eval_run<Node>(run, length, sink);
                    const T result = sink.total(stage.init);
                    *dst = stage.has_initial ? Fold::combine(stage.initial, result) : result;
                }
            }

            /// eval_run_totals with the run's loop inlined, so that the run and the lanes stay in registers
            /// from result to result, where a call for each result copied them in and out. Not for a tree
            /// that notes a function's range: its function outweighs the call, and would be inlined twice.
            template <class Node, class Fold, class T, std::size_t L>
            XTENSOR_NAMED_INLINE_CALLEES void
            eval_run_totals_inlined(kernel_run_param<T, L> first, std::size_t results,
                                    const std::array<kernel_index, (L == 0 ? 1 : L)>& run_step,
                                    kernel_index out_step, std::size_t length, const fold_stage<T>& stage,
                                    T* dst) noexcept
            {
                eval_run_totals<Node, Fold, T, L>(first, results, run_step, out_step, length, stage, dst);
            }

            /**
             * The short runs of the last axis of `layout` along the axis outside it from `at`, each folded
             * to its result in `out`: a tile at a time (for_each_tile), computed into `values` and folded
             * row by row (fold_short_rows). Tiles are a few batches each, so that a call through a
             * pointer for each of them showed (benchmarks/README.md, Compile cost).
             */
            template <class Node, class Fold, class T, std::size_t L>
            inline void eval_short_folds(kernel_tile_source<T, L>& tiles, const kernel_layout& layout,
                                         const kernel_leaves<T, L>& leaves,
                                         const std::array<kernel_index, L + 1>& at, kernel_run<T, L>& run,
                                         T front, const fold_stage<T>& stage, T* values, T* out)
            {
                const std::size_t axis = layout.rank() - 2;
                const std::size_t length = layout.size(axis + 1);
                const kernel_index out_stride = layout.stride(axis, 0);
                for_each_tile(tiles, layout, leaves, axis, layout.size(axis), at, run,
                              [&](std::size_t rows, const std::array<kernel_index, L + 1>& tile)
                              {
                                  store_sink<T> sink{values};
                                  eval_run<Node>(run, rows * length, sink);
                                  fold_short_rows<Fold>(values, rows, length, front, stage, out + tile[0],
                                                        out_stride);
                              });
            }

            /// Folds `count` elements of `run` into the partial results from `acc` on.
            template <class Node, class Fold, class T, std::size_t L>
            inline void eval_accumulate(const kernel_run<T, L>& run, std::size_t count, T* acc) noexcept
            {
                accumulate_sink<T, Fold> sink{acc};
                eval_run<Node>(run, count, sink);
            }

            /// Folds `count` elements of `run` into `chains`, lane by lane.
            template <class Node, class Fold, class Run, class T>
            inline void eval_lanes(const Run& run, std::size_t count, lane_chains<T>& chains) noexcept
            {
                lane_fold_sink<T, Fold> sink{chains};
                eval_run<Node>(run, count, sink);
                chains = sink.chains;
            }

            template <class Fold, class T>
            inline T fold_combine(T a, T b) noexcept
            {
                return Fold::combine(a, b);
            }

            template <class Fold, class T>
            inline void fold_buffer_lanes(const T* values, std::size_t count, lane_chains<T>& chains) noexcept
            {
                kernel_run<T, 1> run{};
                run.ptr[0] = values;
                run.mask[0] = ~std::size_t(0);
                eval_lanes<kernel_buffer_node<T>, Fold>(run, count, chains);
            }

            template <class Fold, class T>
            inline const fold_ops<T>& fold_ops_of() noexcept
            {
                static constexpr fold_ops<T> ops{Fold::template identity<T>(),
                                                 &fold_combine<Fold, T>,
                                                 &fold_in_front<Fold, T>,
                                                 &fold_run<Fold, T>,
                                                 &lane_fold_sink<T, Fold>::total_of,
                                                 &lane_fold_sink<T, Fold>::front,
                                                 &fold_buffer_lanes<Fold, T>};
                return ops;
            }

            template <class Node, class T, class Fold, std::size_t L>
            inline const fold_tree<T, L>& fold_tree_of() noexcept
            {
                static const fold_tree<T, L> tree = []
                {
                    fold_tree<T, L> t;
                    t.store = &eval_run<Node, kernel_run<T, L>, store_sink<T>>;
                    t.accumulate = &eval_accumulate<Node, Fold, T, L>;
                    t.lanes = &eval_lanes<Node, Fold, kernel_run<T, L>, T>;
                    t.terms = &eval_terms<Node, Fold, T, L>;
                    t.fold_runs = &eval_fold_runs<Node, Fold, T, L>;
                    if constexpr (kernel_notes(Node::noting_reach))
                    {
                        t.totals = &eval_run_totals<Node, Fold, T, L>;
                    }
                    else
                    {
                        t.totals = &eval_run_totals_inlined<Node, Fold, T, L>;
                    }
                    t.short_folds = &eval_short_folds<Node, Fold, T, L>;
                    t.element = &eval_element<Node, T, L>;
                    t.ops = &fold_ops_of<Fold, T>();
                    return t;
                }();
                return tree;
            }

            template <class T, std::size_t L>
            class fold_runner
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using position_type = std::array<kernel_index, L + 1>;

                fold_runner(const fold_tree<T, L>& tree, const kernel_layout& layout,
                            const std::vector<fold_stage<T>>& stages, T* out,
                            const kernel_leaves<T, L>& leaves, kernel_source<T, L>& source,
                            const fold_plan& whole)
                    : m_tree(tree), m_ops(*tree.ops), m_layout(layout), m_stages(stages), m_out(out),
                      m_leaves(leaves), m_source(source), m_kept(whole.kept), m_tiled(whole.tiled),
                      // Uninitialised: every buffer is written before it is read. Buffer 0 holds a result
                      // on its way to a strided output; the recursion uses the others, one per depth
                      // (m_stages is initialised before).
                      m_buffers((2 + buffers_needed(0)) * kernel_fold_chunk<T> * sizeof(T)),
                      m_plan(plan_fold_share(layout, stages, m_kept, m_tiled, leaves.data(), L))
                {
                    // Whether every fold inside stage s runs along no axis: then the values stage s folds
                    // are elementwise along a run.
                    m_elementwise_inside.assign(stages.size(), 1);
                    for (std::size_t s = stages.size(); s > 1; --s)
                    {
                        m_elementwise_inside[s - 2] =
                            m_elementwise_inside[s - 1] && stages[s - 1].levels.empty();
                    }
                    if (m_tiled != tiled_fold::none)
                    {
                        m_tile.emplace(layout, layout.rank() - 2, leaves);
                    }
                    else if (m_plan.bands)
                    {
                        m_bands.emplace(m_leaves, leaf_steps<L>(m_layout, layout.rank() - 1),
                                        leaf_steps<L>(m_layout, m_plan.band_axis));
                    }
                }

                void run()
                {
                    const position_type start = first_offsets<L + 1>(m_layout);
                    if (m_plan.traversal == fold_traversal::scalar)
                    {
                        m_out[start[0]] = stage_scalar(0, start, 0);
                        return;
                    }
                    if (m_plan.traversal == fold_traversal::within_tiles)
                    {
                        fold_within_tiles(start);
                        return;
                    }
                    if (m_plan.traversal == fold_traversal::results_in_bands)
                    {
                        fold_results_in_bands(start);
                        return;
                    }
                    if (m_plan.traversal == fold_traversal::run_totals)
                    {
                        fold_run_totals(start);
                        return;
                    }
                    if (m_plan.traversal == fold_traversal::each_result)
                    {
                        for_each_position(m_layout, m_kept, start,
                                          [&](const position_type& position)
                                          { m_out[position[0]] = stage_scalar(0, position, 0); });
                        return;
                    }
                    const std::size_t inner = m_layout.rank() - 1;
                    // The innermost axis is kept: whole runs of folds, chunk by chunk.
                    const std::size_t length = m_layout.size(inner);
                    const kernel_index out_stride = m_layout.stride(inner, 0);
                    const kernel_sizes outer(m_kept.begin(), m_kept.end() - 1);
                    if (m_plan.traversal == fold_traversal::whole_runs)
                    {
                        fold_runs(outer, start, length);
                        return;
                    }
                    for_each_position(
                        m_layout, outer, start,
                        [&](const position_type& position)
                        {
                            for (std::size_t first = 0; first < length; first += m_plan.chunk)
                            {
                                const std::size_t count = std::min(m_plan.chunk, length - first);
                                T* dst = out_stride == 1 ? m_out + position[0] + first : buffer(0);
                                stage_run(0, position, first, count, dst, 1);
                                if (out_stride != 1)
                                {
                                    T* out_run =
                                        m_out + position[0] + static_cast<kernel_index>(first) * out_stride;
                                    for (std::size_t j = 0; j < count; ++j)
                                    {
                                        out_run[static_cast<kernel_index>(j) * out_stride] = dst[j];
                                    }
                                }
                            }
                        });
                }

            private:
                // How many buffers, one per depth, stage_run(s) and level_run(s, l) use below them.
                std::size_t buffers_needed(std::size_t s) const noexcept
                {
                    if (s == m_stages.size())
                    {
                        return 0;
                    }
                    return m_stages[s].levels.empty() ? buffers_needed(s + 1) : level_buffers_needed(s, 0);
                }

                std::size_t level_buffers_needed(std::size_t s, std::size_t l) const noexcept
                {
                    if (l + 1 == m_stages[s].levels.size())
                    {
                        return s + 1 == m_stages.size() ? 0 : 1 + buffers_needed(s + 1);
                    }
                    return 1 + level_buffers_needed(s, l + 1);
                }

                T* buffer(std::size_t depth) noexcept
                {
                    return m_buffers.data_as<T>() + depth * kernel_fold_chunk<T>;
                }

                void point_run(const position_type& position, std::size_t first, std::size_t count)
                {
                    m_source.prepare(run_starts(m_leaves, position), first, count, m_run);
                }

                T element_at(const position_type& position)
                {
                    kernel_run<T, L> run{};
                    m_source.prepare(run_starts(m_leaves, position), 0, 1, run);
                    return m_tree.element(run);
                }

                void step(position_type& position, const fold_level& level) const noexcept
                {
                    if (!level.phantom)
                    {
                        step_along(position, level.axis);
                    }
                }

                void step_along(position_type& position, std::size_t axis) const noexcept
                {
                    for (std::size_t k = 0; k <= L; ++k)
                    {
                        position[k] += m_layout.stride(axis, k);
                    }
                }

                // The results of the kept axes, the last one two bands at a time: each chunk of a band's
                // runs gathered once, then folded run by run into each result's own chains, chunk after
                // chunk as stage_scalar folds them. The two bands' gathers of a chunk, one after the other,
                // read the two halves of a pair of lines of the leaf, which the processor fetches together:
                // a band at a time, the second half had left the caches before the next band came for it.
                void fold_results_in_bands(const position_type& start)
                {
                    const std::size_t inner = m_layout.rank() - 1;
                    const std::size_t length = m_layout.size(inner);
                    const std::size_t results = m_layout.size(m_plan.band_axis);
                    const std::size_t chunk = m_source.chunk();
                    const fold_stage<T>& stage = m_stages[0];
                    constexpr std::size_t group = 2 * kernel_band_rows<T>;
                    std::array<lane_chains<T>, group> sinks;
                    for_each_position(
                        m_layout, kernel_sizes(m_kept.begin(), m_kept.end() - 1), start,
                        [&](position_type at)
                        {
                            // A first group up to the leaf's next line, where a thread's part begins
                            // within one: the groups after it read whole lines.
                            const std::size_t lead = m_bands->rows_to_line(run_starts(m_leaves, at));
                            std::size_t in_group = 0;
                            for (std::size_t g = 0; g < results; g += in_group)
                            {
                                in_group = std::min(g == 0 && lead < kernel_band_rows<T> ? lead : group,
                                                    results - g);
                                sinks.fill(lane_chains<T>::empty(m_ops.identity));
                                for (std::size_t first = 0; first < length; first += chunk)
                                {
                                    const std::size_t count = std::min(chunk, length - first);
                                    position_type position = at;
                                    for (std::size_t i = 0; i < in_group; i += kernel_band_rows<T>)
                                    {
                                        const std::size_t rows = std::min(kernel_band_rows<T>, in_group - i);
                                        for_each_band_run(*m_bands, m_layout, m_leaves, m_plan.band_axis,
                                                          rows, position, first, count, m_run,
                                                          [&](std::size_t r, const position_type&)
                                                          { m_tree.lanes(m_run, count, sinks[i + r]); });
                                    }
                                }
                                for (std::size_t r = 0; r < in_group; ++r, step_along(at, m_plan.band_axis))
                                {
                                    const T result = m_ops.total(sinks[r], stage.init);
                                    m_out[at[0]] =
                                        stage.has_initial ? m_ops.combine(stage.initial, result) : result;
                                }
                            }
                        });
                }

                // Folds elements [first, first + count) of the tree's runs along `level` from `position` into
                // dst. Where every leaf is contiguous or constant along the runs, the run is prepared once
                // and moved from term to term (fold_terms).
                void fold_along(const fold_level& level, position_type position, std::size_t first,
                                std::size_t count, T* dst)
                {
                    if (m_source.chunk() != kernel_whole_run)
                    {
                        if (m_bands && level.axis == m_plan.band_axis)
                        {
                            std::size_t rows = 0;
                            for (std::size_t i = 0; i < level.size; i += rows)
                            {
                                rows = band_rows(*m_bands, m_leaves, i, level.size, position);
                                for_each_band_run(*m_bands, m_layout, m_leaves, level.axis, rows, position,
                                                  first, count, m_run,
                                                  [&](std::size_t, const position_type&)
                                                  { m_tree.accumulate(m_run, count, dst); });
                            }
                            return;
                        }
                        for (std::size_t i = 0; i < level.size; ++i, step(position, level))
                        {
                            point_run(position, first, count);
                            m_tree.accumulate(m_run, count, dst);
                        }
                        return;
                    }
                    point_run(position, first, count);
                    fold_terms(m_run, level, term_steps(level), count, dst);
                }

                std::array<kernel_index, slots> term_steps(const fold_level& level) const noexcept
                {
                    return level.phantom ? std::array<kernel_index, slots>{}
                                         : leaf_steps<L>(m_layout, level.axis);
                }

                // Folds into dst the `level.size` terms of `count` elements whose first is `first`, moving
                // it from term to term.
                void fold_terms(kernel_run_param<T, L> first, const fold_level& level,
                                const std::array<kernel_index, slots>& term_step, std::size_t count,
                                T* dst) const
                {
                    m_tree.terms(first, level.size, term_step, count, dst);
                }

                // The runs of the kept innermost axis, `length` elements each, into a contiguous output:
                // the run prepared once for each position of the `outer` axes but the last, and moved
                // along that one from result run to result run: with a short folded axis, preparing each
                // run would cost more than folding its terms.
                void fold_runs(const kernel_sizes& outer, const position_type& start, std::size_t length)
                {
                    const fold_stage<T>& stage = m_stages[0];
                    const fold_level& level = stage.levels[0];
                    const std::size_t along = outer.back();
                    const std::size_t runs = m_layout.size(along);
                    const auto run_step = leaf_steps<L>(m_layout, along);
                    const kernel_index out_step = m_layout.stride(along, 0);
                    const auto term_step = term_steps(level);
                    for_each_position(m_layout, kernel_sizes(outer.begin(), outer.end() - 1), start,
                                      [&](const position_type& position)
                                      {
                                          point_run(position, 0, length);
                                          m_tree.fold_runs(m_run, runs, run_step, out_step, level.size,
                                                           term_step, length, stage, m_out + position[0]);
                                      });
                }

                // The results of a fold along the innermost axis (a sum over the last axis), each the total
                // of one run: the run prepared once for each position of the kept axes but the last, and
                // moved along that one from result to result, as fold_runs moves it. Preparing each run
                // from its position, and a call for each, cost more than folding a run of a few dozen.
                void fold_run_totals(const position_type& start)
                {
                    const fold_stage<T>& stage = m_stages[0];
                    const std::size_t length = m_layout.size(m_layout.rank() - 1);
                    const std::size_t along = m_kept.back();
                    const std::size_t results = m_layout.size(along);
                    const auto run_step = leaf_steps<L>(m_layout, along);
                    const kernel_index out_step = m_layout.stride(along, 0);
                    for_each_position(m_layout, kernel_sizes(m_kept.begin(), m_kept.end() - 1), start,
                                      [&](const position_type& position)
                                      {
                                          point_run(position, 0, length);
                                          m_tree.totals(m_run, results, run_step, out_step, length, stage,
                                                        m_out + position[0]);
                                      });
                }

                // Elements [first, first + count) of the run at `position` of the values of stage s,
                // into dst; buffers from `depth` on are free.
                void stage_run(std::size_t s, const position_type& position, std::size_t first,
                               std::size_t count, T* dst, std::size_t depth)
                {
                    if (s == m_stages.size())
                    {
                        point_run(position, first, count);
                        store_sink<T> sink{dst};
                        m_tree.store(m_run, count, sink);
                        return;
                    }
                    const fold_stage<T>& stage = m_stages[s];
                    if (stage.empty_input)
                    {
                        std::fill(dst, dst + count, stage.value_of_nothing());
                        return;
                    }
                    if (stage.levels.empty())
                    {
                        stage_run(s + 1, position, first, count, dst, depth);
                        m_ops.in_front(stage.value_of_nothing(), dst, count);
                        return;
                    }
                    if (m_tiled == tiled_fold::across)
                    {
                        fold_across_tiles(stage, position, dst, depth);
                    }
                    else
                    {
                        level_run(s, 0, position, first, count, dst, depth);
                    }
                    if (stage.has_initial)
                    {
                        m_ops.in_front(stage.initial, dst, count);
                    }
                }

                void level_run(std::size_t s, std::size_t l, const position_type& position, std::size_t first,
                               std::size_t count, T* dst, std::size_t depth)
                {
                    const fold_stage<T>& stage = m_stages[s];
                    const fold_level& level = stage.levels[l];
                    position_type at = position;
                    if (l + 1 == stage.levels.size())
                    {
                        std::fill(dst, dst + count, stage.init);
                        if (s + 1 == m_stages.size())
                        {
                            fold_along(level, at, first, count, dst);
                            return;
                        }
                        T* values = buffer(depth);
                        for (std::size_t i = 0; i < level.size; ++i, step(at, level))
                        {
                            stage_run(s + 1, at, first, count, values, depth + 1);
                            m_ops.merge(dst, values, count);
                        }
                        return;
                    }
                    level_run(s, l + 1, at, first, count, dst, depth);
                    T* partial = buffer(depth);
                    for (std::size_t i = 1; i < level.size; ++i)
                    {
                        step(at, level);
                        level_run(s, l + 1, at, first, count, partial, depth + 1);
                        m_ops.merge(dst, partial, count);
                    }
                }

                // Every short run of the innermost axis folded to its result, tile by tile: one element
                // after the other, as lane_fold_sink folds a run too short for a batch (run_total).
                void fold_within_tiles(const position_type& start)
                {
                    const fold_stage<T>& stage = m_stages[0];
                    const T front = m_ops.front(stage.init);
                    T* values = buffer(1);
                    const kernel_sizes outer(m_kept.begin(), m_kept.end() - 1);
                    for_each_position(m_layout, outer, start,
                                      [&](const position_type& position) {
                                          m_tree.short_folds(*m_tile, m_layout, m_leaves, position, m_run,
                                                             front, stage, values, m_out);
                                      });
                }

                // dst[0, length) = the fold of the stage (the only one) whose last level runs along the
                // axis outside the short innermost one, tile by tile: element j of a tile's run folds into
                // chain j, so that each result has one chain per row of a tile (as many as a tile holds,
                // fixed by the short axis and T) over all the levels, and the chains are folded in order
                // at the end, after init.
                void fold_across_tiles(const fold_stage<T>& stage, const position_type& position, T* dst,
                                       std::size_t depth)
                {
                    const fold_level& last = stage.levels.back();
                    const std::size_t length = m_layout.size(last.axis + 1);
                    const std::size_t used = std::min(m_tile->rows(), last.size);
                    T* chains = buffer(depth);
                    std::fill(chains, chains + used * length, m_ops.identity);
                    tiles_of_levels(stage, 0, position, chains);
                    std::fill(dst, dst + length, stage.init);
                    for (std::size_t i = 0; i < used; ++i)
                    {
                        m_ops.merge(dst, chains + i * length, length);
                    }
                }

                void tiles_of_levels(const fold_stage<T>& stage, std::size_t l, const position_type& position,
                                     T* chains)
                {
                    const fold_level& level = stage.levels[l];
                    position_type at = position;
                    const std::size_t count = rows_through(stage, l, m_tile->rows());
                    if (count == 0)
                    {
                        for (std::size_t i = 0; i < level.size; ++i, step(at, level))
                        {
                            tiles_of_levels(stage, l + 1, at, chains);
                        }
                        return;
                    }
                    tiles_of_rows(stage.levels.back(), count, at, chains);
                }

                // How many rows of the last level the levels of `stage` from l on step through as one
                // level (each outer one steps as far as all the rows inside it, the last level a whole
                // number of tiles, so that every row folds into the chain it folds into level by level):
                // 0 where they do not.
                std::size_t rows_through(const fold_stage<T>& stage, std::size_t l, std::size_t rows) const
                {
                    const fold_level& last = stage.levels.back();
                    if (l + 1 == stage.levels.size())
                    {
                        return last.size;
                    }
                    if (last.size % rows != 0)
                    {
                        return 0;
                    }
                    std::size_t count = last.size;
                    for (std::size_t j = stage.levels.size() - 1; j > l; --j)
                    {
                        const fold_level& outer = stage.levels[j - 1];
                        if (outer.phantom)
                        {
                            return 0;
                        }
                        for (std::size_t k = 0; k <= L; ++k)
                        {
                            if (m_layout.stride(outer.axis, k) !=
                                static_cast<kernel_index>(count) * m_layout.stride(last.axis, k))
                            {
                                return 0;
                            }
                        }
                        count *= outer.size;
                    }
                    return count;
                }

                // The tiles of `count` rows of `level`'s axis from `at`, folded into `chains`.
                // Where no leaf is copied into a tile, the whole tiles are the terms of one fold
                // (fold_terms), the run prepared once and moved from tile to tile.
                void tiles_of_rows(const fold_level& level, std::size_t count, position_type at, T* chains)
                {
                    const std::size_t length = m_layout.size(level.axis + 1);
                    const std::size_t rows = m_tile->rows();
                    std::size_t done = 0;
                    if (!m_tile->copies() && count >= 2 * rows)
                    {
                        done = count / rows * rows;
                        m_tile->prepare(run_starts(m_leaves, at), rows, m_run);
                        auto tile_step = leaf_steps<L>(m_layout, level.axis);
                        for (kernel_index& leaf_step : tile_step)
                        {
                            leaf_step *= static_cast<kernel_index>(rows);
                        }
                        fold_terms(m_run, fold_level{level.axis, done / rows, false}, tile_step,
                                   rows * length, chains);
                        for (std::size_t k = 0; k <= L; ++k)
                        {
                            at[k] += static_cast<kernel_index>(done) * m_layout.stride(level.axis, k);
                        }
                    }
                    for_each_tile(*m_tile, m_layout, m_leaves, level.axis, count - done, at, m_run,
                                  [&](std::size_t tile_rows, const position_type&)
                                  { m_tree.accumulate(m_run, tile_rows * length, chains); });
                }

                // The value of stage s at `position`, for an output element whose folds run along the
                // innermost axis.
                T stage_scalar(std::size_t s, const position_type& position, std::size_t depth)
                {
                    if (s == m_stages.size())
                    {
                        return element_at(position);
                    }
                    const fold_stage<T>& stage = m_stages[s];
                    if (stage.empty_input)
                    {
                        return stage.value_of_nothing();
                    }
                    if (stage.levels.empty())
                    {
                        return m_ops.combine(stage.value_of_nothing(), stage_scalar(s + 1, position, depth));
                    }
                    const fold_level& last = stage.levels.back();
                    if (!last.phantom && last.axis + 1 == m_layout.rank() && m_elementwise_inside[s])
                    {
                        // Along the innermost axis the lanes are folded apart anyway: every run of the
                        // stage goes into the same lane chains, which are folded once at the end.
                        lane_chains<T> chains = lane_chains<T>::empty(m_ops.identity);
                        fold_levels(s, 0, position, depth, chains);
                        const T result = m_ops.total(chains, stage.init);
                        return stage.has_initial ? m_ops.combine(stage.initial, result) : result;
                    }
                    const T result = level_scalar(s, 0, position, depth);
                    return stage.has_initial ? m_ops.combine(stage.initial, result) : result;
                }

                T level_scalar(std::size_t s, std::size_t l, const position_type& position, std::size_t depth)
                {
                    const fold_stage<T>& stage = m_stages[s];
                    const fold_level& level = stage.levels[l];
                    position_type at = position;
                    if (l + 1 == stage.levels.size())
                    {
                        const bool along_run = !level.phantom && level.axis + 1 == m_layout.rank();
                        if (along_run && m_elementwise_inside[s])
                        {
                            return run_total(s, at, depth);
                        }
                        T result = stage.init;
                        for (std::size_t i = 0; i < level.size; ++i, step(at, level))
                        {
                            result = m_ops.combine(result, stage_scalar(s + 1, at, depth));
                        }
                        return result;
                    }
                    T result = level_scalar(s, l + 1, at, depth);
                    for (std::size_t i = 1; i < level.size; ++i)
                    {
                        step(at, level);
                        result = m_ops.combine(result, level_scalar(s, l + 1, at, depth));
                    }
                    return result;
                }

                // The fold of stage s along the innermost axis from `position`, lane by lane.
                T run_total(std::size_t s, const position_type& position, std::size_t depth)
                {
                    lane_chains<T> chains = lane_chains<T>::empty(m_ops.identity);
                    run_into(s, position, depth, chains);
                    return m_ops.total(chains, m_stages[s].init);
                }

                // Every run of the levels of stage s from level l on, into `chains`: the last level runs
                // along the innermost axis.
                void fold_levels(std::size_t s, std::size_t l, const position_type& position,
                                 std::size_t depth, lane_chains<T>& chains)
                {
                    const fold_stage<T>& stage = m_stages[s];
                    if (l + 1 == stage.levels.size())
                    {
                        run_into(s, position, depth, chains);
                        return;
                    }
                    const fold_level& level = stage.levels[l];
                    position_type at = position;
                    for (std::size_t i = 0; i < level.size; ++i, step(at, level))
                    {
                        fold_levels(s, l + 1, at, depth, chains);
                    }
                }

                // The values of stage s along the innermost axis from `position`, into `chains`.
                void run_into(std::size_t s, const position_type& position, std::size_t depth,
                              lane_chains<T>& chains)
                {
                    const std::size_t length = m_layout.size(m_layout.rank() - 1);
                    if (s + 1 == m_stages.size())
                    {
                        const std::size_t chunk = m_source.chunk();
                        for (std::size_t first = 0; first < length; first += chunk)
                        {
                            const std::size_t count = std::min(chunk, length - first);
                            point_run(position, first, count);
                            m_tree.lanes(m_run, count, chains);
                        }
                        return;
                    }
                    T* values = buffer(depth);
                    for (std::size_t first = 0; first < length; first += m_plan.chunk)
                    {
                        const std::size_t count = std::min(m_plan.chunk, length - first);
                        stage_run(s + 1, position, first, count, values, depth + 1);
                        m_ops.buffer_lanes(values, count, chains);
                    }
                }

                const fold_tree<T, L>& m_tree;
                const fold_ops<T>& m_ops;
                const kernel_layout& m_layout;
                const std::vector<fold_stage<T>>& m_stages;
                T* m_out;
                kernel_leaves<T, L> m_leaves;
                kernel_source<T, L>& m_source;
                kernel_run<T, L> m_run{};
                // The whole evaluation's (plan_folds): a share keeps and tiles the axes the whole does.
                const kernel_sizes& m_kept;
                tiled_fold m_tiled;
                xt::svector<char, 8> m_elementwise_inside;
                scratch_buffer m_buffers;
                std::optional<kernel_tile_source<T, L>> m_tile;
                // The bands the plan chose, if any, along m_plan.band_axis: the innermost level's axis (its
                // terms a band at a time) or the last kept axis (its results).
                std::optional<kernel_bands<T, L>> m_bands;
                fold_share_plan m_plan;
            };

            template <class Node, class Fold, class T, std::size_t L>
            inline void run_folds(const kernel_layout& layout, const std::vector<fold_stage<T>>& stages,
                                  T* out, const kernel_leaves<T, L>& leaves, std::size_t whole_inner)
            {
                run_folds_with(fold_tree_of<Node, T, Fold, L>(), layout, stages, out, leaves, whole_inner);
            }

            template <class T, std::size_t L>
            inline void run_folds_with(const fold_tree<T, L>& tree, const kernel_layout& layout,
                                       const std::vector<fold_stage<T>>& stages, T* out,
                                       const kernel_leaves<T, L>& leaves, std::size_t whole_inner)
            {
                const fold_plan plan = plan_folds(layout, stages, leaves.data(), L, whole_inner);
                const kernel_sizes& kept = plan.kept;
                const fold_cut& cut = plan.cut;
                const auto run_on =
                    [&](const kernel_layout& part, const std::vector<fold_stage<T>>& folds, T* into)
                {
                    kernel_source<T, L> source(run_strides<L>(part), leaves);
                    fold_runner<T, L> runner(tree, part, folds, into, leaves, source, plan);
                    runner.run();
                };
                if (cut.parts == 1)
                {
                    // Threads share out the results: shares of the outermost kept axis. Each result is
                    // folded as on one thread, the same bit for bit whatever the thread count.
                    const auto whole = [&](const kernel_layout& part) { run_on(part, stages, out); };
                    if (!plan.share_results)
                    {
                        whole(layout);
                        return;
                    }
                    run_in_tasks(layout, kept.front(), plan.tasks, whole);
                    return;
                }
                // Each part folds its share of the first level into partial results of its own, laid out
                // densely over the kept axes; the parts are then folded together in order, as on one thread.
                std::size_t results = 1;
                kernel_layout dense = layout;
                dense.offset(0) = 0;
                for (std::size_t d = kept.size(); d > 0; --d)
                {
                    dense.stride(kept[d - 1], 0) = static_cast<kernel_index>(results);
                    results *= layout.size(kept[d - 1]);
                }
                scratch_buffer partials(cut.parts * results * sizeof(T));
                const std::size_t first_axis = stages[0].levels[0].axis;
                const std::size_t first_size = stages[0].levels[0].size;
                // Every part but the last folds cut.length positions of the first level, the last the rest.
                std::vector<fold_stage<T>> part_stages = stages;
                part_stages[0].has_initial = false;
                part_stages[0].levels[0].size = cut.length;
                std::vector<fold_stage<T>> last_stages = part_stages;
                last_stages[0].levels[0].size = first_size - (cut.parts - 1) * cut.length;
                // The parts and the shares of results in the order the plan gives them (plan_folds).
                const std::size_t kept_size = plan.share_results ? layout.size(kept.front()) : 1;
                const std::size_t result_shares = plan.result_shares;
                const bool by_share = plan.by_share;
                const std::size_t tasks = plan.tasks;
                const auto task = [&](std::size_t t)
                {
                    const std::size_t p = by_share ? t % cut.parts : t / result_shares;
                    const std::size_t begin = p * cut.length;
                    const std::size_t end = std::min(first_size, begin + cut.length);
                    kernel_layout part = dense.part(first_axis, begin, end);
                    if (result_shares > 1)
                    {
                        const std::size_t share = by_share ? t / cut.parts : t % result_shares;
                        const kernel_share range = share_of(share, result_shares, kept_size);
                        part = part.part(kept.front(), range.begin, range.end);
                    }
                    run_on(part, p + 1 == cut.parts ? last_stages : part_stages,
                           partials.data_as<T>() + p * results);
                };
                if (!plan.threaded)
                {
                    for (std::size_t t = 0; t < tasks; ++t)
                    {
                        task(t);
                    }
                }
                else
                {
                    for_each_task(tasks, task);
                }
                T* total = partials.data_as<T>();
                for (std::size_t p = 1; p < cut.parts; ++p)
                {
                    tree.ops->merge(total, partials.data_as<T>() + p * results, results);
                }
                if (stages[0].has_initial)
                {
                    tree.ops->in_front(stages[0].initial, total, results);
                }
                std::array<kernel_index, 1> start{layout.offset(0)};
                std::size_t i = 0;
                for_each_position(layout, kept, start,
                                  [&](const std::array<kernel_index, 1>& position)
                                  { out[position[0]] = total[i++]; });
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
