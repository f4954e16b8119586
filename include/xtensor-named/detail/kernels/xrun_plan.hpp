/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XRUN_PLAN_HPP
#define XTENSOR_NAMED_DETAIL_XRUN_PLAN_HPP

// The plans of an evaluation, decided once from the layout's shape and strides, the leaves' element types
// and the folds, before any element is read: how an elementwise evaluation's runs are traversed and
// stored (run_plan), how the threads share a nest of folds (fold_plan), and how each share takes its
// results (fold_share_plan). The loops of xkernel_loops.hpp follow them without deciding again.

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "../../xcompat_xsimd.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_run.hpp"
#include "xkernel_threads.hpp"

#if !defined(XTENSOR_NAMED_STREAMING_MIN_BYTES) && defined(__has_include)
#if __has_include(<unistd.h>)
#include <unistd.h> // sysconf, the size of the last-level cache
#endif
#endif

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Whether leaf `k` (1-based, as in the layout) reads the very elements of an earlier leaf:
            /// the same first element, element size and strides (`where(x > 0, x, 0)` reads x twice).
            template <class T>
            inline bool reads_an_earlier_leaf(const kernel_layout& layout, const kernel_leaf_ref<T>* leaves,
                                              std::size_t k) noexcept
            {
                for (std::size_t j = 1; j < k; ++j)
                {
                    bool same = leaves[j - 1].element_bytes == leaves[k - 1].element_bytes &&
                                leaves[j - 1].at(layout.offset(j)) == leaves[k - 1].at(layout.offset(k));
                    for (std::size_t a = 0; same && a < layout.rank(); ++a)
                    {
                        same = layout.stride(a, j) == layout.stride(a, k);
                    }
                    if (same)
                    {
                        return true;
                    }
                }
                return false;
            }

            /// The bytes an elementwise evaluation writes and reads: the output, and each leaf once over
            /// the axes along which it is not broadcast. A leaf read twice counts once: its second read
            /// hits the cache. `count` leaves, operands 1 to `count` of the layout.
            template <class T>
            inline std::size_t working_set_bytes(const kernel_layout& layout,
                                                 const kernel_leaf_ref<T>* leaves, std::size_t count) noexcept
            {
                std::size_t bytes = layout.element_count() * sizeof(T);
                for (std::size_t k = 1; k <= count; ++k)
                {
                    if (reads_an_earlier_leaf(layout, leaves, k))
                    {
                        continue;
                    }
                    std::size_t elements = 1;
                    for (std::size_t a = 0; a < layout.rank(); ++a)
                    {
                        elements *= layout.stride(a, k) != 0 ? layout.size(a) : 1;
                    }
                    bytes += elements * static_cast<std::size_t>(leaves[k - 1].element_bytes);
                }
                return bytes;
            }

            /// Whether the runs of `layout`'s innermost axis are taken in bands of runs along `across`
            /// (kernel_bands): they are long, and a leaf of T is stored in the other axis order
            /// (kernel_reads_across). `count` leaves, operands 1 to `count` of the layout.
            template <class T>
            inline bool runs_in_bands(const kernel_layout& layout, const kernel_leaf_ref<T>* leaves,
                                      std::size_t count, std::size_t across) noexcept
            {
                const std::size_t inner = layout.rank() - 1;
                if (layout.size(inner) <= kernel_band_max_unbanded || layout.size(across) < 2)
                {
                    return false;
                }
                for (std::size_t k = 1; k <= count; ++k)
                {
                    const kernel_index bytes = leaves[k - 1].element_bytes;
                    if (leaves[k - 1].convert == nullptr &&
                        kernel_reads_across(layout.stride(inner, k) * bytes,
                                            layout.stride(across, k) * bytes))
                    {
                        return true;
                    }
                }
                return false;
            }

            /**
             * The bytes an evaluation writes and reads (working_set_bytes) from which it writes its
             * output with streaming stores, which do not read the output's cache lines first: faster
             * where the output and what is read exceed what the last-level cache keeps, slower below,
             * where the output would have stayed in it. How much of its cache an evaluation keeps is
             * measured, not known: most of a small L3, a seventh of a large one shared with other work
             * (docs/kernels.md, How). Hence a seventh of `last_level_cache` and at least 24 MiB, which is
             * also the threshold where its size is unknown (0).
             */
            constexpr std::size_t streaming_min_bytes_for(std::size_t last_level_cache) noexcept
            {
                constexpr std::size_t least = std::size_t(24) << 20;
                return last_level_cache / 7 > least ? last_level_cache / 7 : least;
            }

            /// The size of the last-level cache that the system reports, 0 where it reports none.
            inline std::size_t last_level_cache_bytes() noexcept
            {
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
                for (const int level : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE})
                {
                    const long bytes = sysconf(level);
                    if (bytes > 0)
                    {
                        return static_cast<std::size_t>(bytes);
                    }
                }
#endif
                return 0;
            }

            /// streaming_min_bytes_for this machine, taken once; -DXTENSOR_NAMED_STREAMING_MIN_BYTES=<n>
            /// sets it instead (SIZE_MAX turns streaming off).
            inline std::size_t streaming_min_bytes() noexcept
            {
#ifdef XTENSOR_NAMED_STREAMING_MIN_BYTES
                return XTENSOR_NAMED_STREAMING_MIN_BYTES;
#else
                static const std::size_t bytes = streaming_min_bytes_for(last_level_cache_bytes());
                return bytes;
#endif
            }

            /// How the runs of an elementwise evaluation are taken, outermost decision first.
            enum class run_traversal
            {
                tiles,  // short runs, contiguous in the output one after the other: tiles taken as one run
                runs,   // every leaf contiguous or constant along the runs: the runs of two axes in one call
                bands,  // a leaf stored in the other axis order: bands of runs, its lines read once
                chunks, // run after run, a chunk at a time (a gathered leaf, a strided output)
            };

            /// How the values of a run reach the output.
            enum class run_store
            {
                ordinary,  // stored in place
                streaming, // stored around the caches: the evaluation does not fit in them
                copy,      // the tree is its one leaf, copied
                scatter,   // computed into a chunk in the L1 cache, stored with the output's stride
                converted, // converted to the output's element type one by one
            };

            /// The plan of an elementwise evaluation's runs (plan_runs).
            struct run_plan
            {
                run_traversal traversal = run_traversal::chunks;
                run_store store = run_store::ordinary;
                std::size_t chunk = kernel_whole_run; // the elements of a run prepared at once
                std::size_t tasks = 1;                // the parts of the first axis that threads share
            };

            /**
             * The plan of an elementwise tree with lanes of T written to O over `layout`, sorted and
             * merged, of rank 1 or more (operand 0 the output, 1 to `count` the leaves). `copies`: the
             * tree is its one leaf (leaf 0; the others, if any, constants that it never reads).
             * `whole_bytes`: what the whole evaluation moves, where `layout` is a part of it.
             */
            template <class T, class O>
            inline run_plan plan_runs(const kernel_layout& layout, const kernel_leaf_ref<T>* leaves,
                                      std::size_t count, bool copies, std::size_t whole_bytes)
            {
                constexpr bool same_type = std::is_same<O, T>::value;
                const std::size_t inner = layout.rank() - 1;
                const std::size_t length = layout.size(inner);
                run_plan plan;
                const std::size_t bytes = working_set_bytes(layout, leaves, count);
                plan.tasks = kernel_tasks(bytes, layout.size(0));
                bool gathers = false;
                for (std::size_t k = 1; k <= count; ++k)
                {
                    const kernel_index stride = layout.stride(inner, k);
                    gathers = gathers || leaves[k - 1].convert != nullptr || (stride != 0 && stride != 1);
                }
                plan.chunk = gathers ? kernel_chunk<T> : kernel_whole_run;
                // An output of another type or stride gets the values of each chunk converted one by one;
                // one of the lanes' type but strided, each chunk computed into a buffer and copied out.
                const bool scatter = layout.stride(inner, 0) != 1 || !same_type;
                if (!same_type)
                {
                    plan.store = run_store::converted;
                }
                else if (scatter)
                {
                    plan.store = run_store::scatter;
                    plan.chunk = std::min(plan.chunk, kernel_chunk<T>);
                }
                else if (simd::batch_traits<T>::can_stream &&
                         std::max(bytes, whole_bytes) >= streaming_min_bytes())
                {
                    plan.store = run_store::streaming;
                }
                else if (copies && leaves[0].convert == nullptr && layout.stride(inner, 1) == 1)
                {
                    plan.store = run_store::copy;
                }
                if (same_type && inner > 0 && !scatter && kernel_short_run<T>(length) &&
                    layout.stride(inner - 1, 0) == static_cast<kernel_index>(length))
                {
                    plan.traversal = run_traversal::tiles;
                }
                else if (same_type && inner > 0 && !scatter && plan.chunk == kernel_whole_run)
                {
                    plan.traversal = run_traversal::runs;
                }
                else if (inner > 0 && runs_in_bands(layout, leaves, count, inner - 1))
                {
                    plan.traversal = run_traversal::bands;
                }
                return plan;
            }
            /// One axis a nested fold runs along: a layout axis, or an axis of size 1 that an inner fold
            /// kept (keep_dims) and that has no stride.
            struct fold_level
            {
                std::size_t axis = 0;
                std::size_t size = 1;
                bool phantom = false;
            };

            /**
             * One fold of a nest (an xt::sum, prod, max or min), as the loops run it. xtensor's reducer gives
             * for each element: with no axis, `value_of_nothing() + x`; over an empty input,
             * `value_of_nothing()`; otherwise the fold along the last level from `init`, one element after
             * the other, merged with the fold along the other levels in order, and `initial + result` when it
             * has one.
             */
            template <class T>
            struct fold_stage
            {
                xt::svector<fold_level, 4> levels;
                T init = T(0);
                bool has_initial = false;
                T initial = T(0);
                bool empty_input = false;

                T value_of_nothing() const noexcept
                {
                    return has_initial ? initial : init;
                }
            };

            /// The axes of `layout` that no stage folds along, outermost first.
            template <class T>
            inline kernel_sizes kept_axes(const kernel_layout& layout,
                                          const std::vector<fold_stage<T>>& stages)
            {
                xt::svector<bool, 8> summed(layout.rank(), false);
                for (const auto& stage : stages)
                {
                    for (const auto& level : stage.levels)
                    {
                        if (!level.phantom)
                        {
                            summed[level.axis] = true;
                        }
                    }
                }
                kernel_sizes kept;
                for (std::size_t a = 0; a < layout.rank(); ++a)
                {
                    if (!summed[a])
                    {
                        kept.push_back(a);
                    }
                }
                return kept;
            }

            /**
             * How a fold of one stage runs over tiles of short runs (kernel_tile_source), decided once
             * from the layout: `within` folds each run of the innermost axis to one result, its only
             * level, where a run is shorter than one batch (folded one element after the other, as
             * lane_fold_sink folds it, so that the values stay the same); `across` folds along the axis
             * outside the short one (its last level), the short one kept.
             */
            enum class tiled_fold
            {
                none,
                within,
                across
            };

            /// `whole_inner` as run_folds takes it: a kept innermost axis is short or not as the whole
            /// fold's is, so that a share of it folds its results as the whole does.
            template <class T>
            inline tiled_fold tiled_fold_of(const kernel_layout& layout,
                                            const std::vector<fold_stage<T>>& stages,
                                            const kernel_sizes& kept, std::size_t whole_inner)
            {
                if (layout.rank() < 2 || stages.size() != 1 || stages[0].empty_input ||
                    stages[0].levels.empty() || stages[0].levels.back().phantom || kept.empty())
                {
                    return tiled_fold::none;
                }
                const std::size_t inner = layout.rank() - 1;
                const std::size_t last = stages[0].levels.back().axis;
                if (stages[0].levels.size() == 1 && last == inner && kept.back() + 1 == inner &&
                    layout.size(inner) < simd::batch_size<T>)
                {
                    return tiled_fold::within;
                }
                const std::size_t length = whole_inner != 0 ? whole_inner : layout.size(inner);
                return last + 1 == inner && kept.back() == inner && kernel_short_run<T>(length)
                           ? tiled_fold::across
                           : tiled_fold::none;
            }

            /**
             * How a fold with many terms per result is cut along its first level (parts of `length`
             * positions, the last one shorter): from the folded sizes alone, so that the cut, and with
             * it every value, is the same whatever the thread count, the output's strides or the share
             * of results an evaluation asks for. `parts` is 1 where the fold is not cut.
             */
            struct fold_cut
            {
                std::size_t parts = 1;
                std::size_t length = 0;
            };

            /// Terms of one result folded by one part: large enough that a part's set-up and its partial
            /// results cost nothing beside its reads, small enough that a single result (a whole sum)
            /// gives every thread parts.
            constexpr std::size_t kernel_fold_part_terms = std::size_t(1) << 15;

            template <class T>
            inline fold_cut cut_of(const std::vector<fold_stage<T>>& stages)
            {
                if (stages.size() != 1 || stages[0].empty_input || stages[0].levels.empty() ||
                    stages[0].levels[0].phantom)
                {
                    return {};
                }
                std::size_t terms = 1;
                for (const fold_level& level : stages[0].levels)
                {
                    terms *= level.size;
                }
                const std::size_t first = stages[0].levels[0].size;
                const std::size_t inside = terms / first;
                const std::size_t length = std::max<std::size_t>(1, kernel_fold_part_terms / inside);
                const std::size_t parts = (first + length - 1) / length;
                return parts < 2 ? fold_cut{} : fold_cut{parts, length};
            }

            /**
             * How the threads share a nest of folds (run_folds_with), decided once from the layout and the
             * stages: the results, shares of the outermost kept axis, each folded as on one thread; or,
             * where a result has many terms, parts of the first level (fold_cut), their partial results
             * folded together in order, with shares of the results beside them.
             */
            struct fold_plan
            {
                kernel_sizes kept; // the axes no stage folds along, outermost first
                tiled_fold tiled = tiled_fold::none;
                fold_cut cut;
                bool share_results = false;    // shares of the outermost kept axis go to threads
                std::size_t result_shares = 1; // with a cut: shares of it beside each part
                bool by_share = true;          // with a cut: the tasks share after share, each in every part
                std::size_t tasks = 1;         // what the threads take
                bool threaded = false;         // with a cut: the tasks go to the threads
            };

            /// The fold_plan of `stages` over `layout` (operand 0 the output, 1 to `count` the leaves);
            /// `whole_inner` as run_folds takes it.
            template <class T>
            inline fold_plan plan_folds(const kernel_layout& layout, const std::vector<fold_stage<T>>& stages,
                                        const kernel_leaf_ref<T>* leaves, std::size_t count,
                                        std::size_t whole_inner)
            {
                fold_plan plan;
                plan.kept = kept_axes(layout, stages);
                plan.tiled = tiled_fold_of(layout, stages, plan.kept, whole_inner);
                plan.cut = cut_of(stages);
                const std::size_t bytes = working_set_bytes(layout, leaves, count);
                // A short innermost axis kept alone is not shared out: a thread would read every row of
                // the input for one or two of its elements.
                plan.share_results =
                    !plan.kept.empty() && !(plan.tiled == tiled_fold::across && plan.kept.size() == 1);
                const std::size_t kept_size = plan.share_results ? layout.size(plan.kept.front()) : 1;
                if (plan.cut.parts == 1)
                {
                    plan.tasks = plan.share_results ? kernel_tasks(bytes, kept_size) : 1;
                    return plan;
                }
                // The parts and the shares of results are shared out together, in the order that gives
                // the threads equal work: share after share, each in every part, a thread reading the
                // memory of its own results, where the shares are equal; else part after part, each
                // part's shares side by side, the threads taking runs of parts (a share per thread of 3
                // results would give one thread 2 and the other 1).
                plan.result_shares =
                    std::min(kept_size, plan.share_results ? kernel_shares(bytes, ~std::size_t(0)) : 1);
                plan.by_share = plan.result_shares <= 1 || kept_size % plan.result_shares == 0;
                plan.tasks = plan.cut.parts * plan.result_shares;
                plan.threaded = kernel_shares(bytes, plan.tasks) > 1;
                return plan;
            }

            /// How a share of a nest of folds takes its results (fold_runner), outermost decision first.
            enum class fold_traversal
            {
                scalar,           // no axis left: one result
                within_tiles,     // along a short innermost axis: tiles of rows, each row folded alone
                results_in_bands, // along the innermost axis of a leaf in the other axis order: results in
                                  // bands of the last kept axis, each chunk of a band gathered once
                run_totals,       // along the innermost axis alone: the results of the last kept axis in
                                  // one call, the run moved from result to result
                each_result,      // the innermost axis folded otherwise: each result on its own
                whole_runs,       // the innermost axis kept, its runs whole: one call for the runs of the
                                  // axis outside, the run moved from run to run
                chunks,           // the innermost axis kept: run after run, a chunk at a time
            };

            /// The plan of a share of a nest of folds (plan_fold_share).
            struct fold_share_plan
            {
                fold_traversal traversal = fold_traversal::chunks;
                std::size_t chunk = 0;     // the elements of a run folded at once
                bool bands = false;        // runs taken in bands across band_axis (kernel_bands)
                std::size_t band_axis = 0; // the innermost level's axis (its terms), or the last kept one
                                           // (its results)
            };

            /**
             * The plan of `layout`, a share of a nest of folds `stages` whose kept axes are `kept`, tiled as
             * `tiled` (operand 0 the output, 1 to `count` the leaves). Bands where a leaf is stored in the
             * other axis order across the runs: along the innermost level's axis, whose terms are then the
             * runs of a band (a sum over x of B(x, y) * C(y, x)), or along the last kept axis, whose
             * results are then the folds of a band's runs (the same sum over y), where every leaf that
             * steps a line or more along the runs steps a whole number of lines: a band that starts on a
             * line then does in every run (bands over lines that start anywhere read partial lines,
             * slower than each result on its own).
             */
            template <class T>
            inline fold_share_plan plan_fold_share(const kernel_layout& layout,
                                                   const std::vector<fold_stage<T>>& stages,
                                                   const kernel_sizes& kept, tiled_fold tiled,
                                                   const kernel_leaf_ref<T>* leaves, std::size_t count)
            {
                fold_share_plan plan;
                if (layout.rank() == 0)
                {
                    plan.traversal = fold_traversal::scalar;
                    return plan;
                }
                const std::size_t inner = layout.rank() - 1;
                bool gathers = false;
                bool lines_alike = true;
                for (std::size_t k = 1; k <= count; ++k)
                {
                    const kernel_index stride = layout.stride(inner, k);
                    gathers = gathers || leaves[k - 1].convert != nullptr || (stride != 0 && stride != 1);
                    const kernel_index step = stride * leaves[k - 1].element_bytes;
                    lines_alike = lines_alike && !((step >= 64 || step <= -64) && step % 64 != 0);
                }
                const bool whole_runs = !gathers;
                plan.chunk = std::min(kernel_fold_chunk<T>, whole_runs ? kernel_whole_run : kernel_chunk<T>);
                // One stage of one level, from the tree's values (a mean over one axis).
                const bool one_level =
                    stages.size() == 1 && stages[0].levels.size() == 1 && !stages[0].empty_input;
                const bool along_runs = one_level && !stages[0].levels[0].phantom &&
                                        stages[0].levels[0].axis == inner && layout.size(inner) > 0;
                if (tiled == tiled_fold::none && !stages.empty() && !stages.back().levels.empty() &&
                    !kept.empty() && layout.rank() >= 2)
                {
                    const fold_level& level = stages.back().levels.back();
                    std::size_t across = inner;
                    if (kept.back() == inner && !level.phantom && level.size > 1)
                    {
                        across = level.axis;
                    }
                    else if (along_runs && lines_alike)
                    {
                        across = kept.back();
                    }
                    if (across != inner && runs_in_bands(layout, leaves, count, across))
                    {
                        plan.bands = true;
                        plan.band_axis = across;
                    }
                }
                const bool folds_whole_runs = one_level && tiled == tiled_fold::none && whole_runs;
                if (tiled == tiled_fold::within)
                {
                    plan.traversal = fold_traversal::within_tiles;
                }
                else if (plan.bands && kept.back() == plan.band_axis)
                {
                    plan.traversal = fold_traversal::results_in_bands;
                }
                else if (kept.empty() || kept.back() != inner)
                {
                    plan.traversal = !kept.empty() && folds_whole_runs && along_runs
                                         ? fold_traversal::run_totals
                                         : fold_traversal::each_result;
                }
                else
                {
                    plan.traversal = layout.stride(inner, 0) == 1 && layout.size(inner) <= plan.chunk &&
                                             kept.size() > 1 && folds_whole_runs
                                         ? fold_traversal::whole_runs
                                         : fold_traversal::chunks;
                }
                return plan;
            }

        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
