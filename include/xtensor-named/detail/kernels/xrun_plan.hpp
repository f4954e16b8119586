/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XRUN_PLAN_HPP
#define XTENSOR_NAMED_DETAIL_XRUN_PLAN_HPP

// The plan of an elementwise evaluation: how its runs are traversed and stored, decided once from the
// layout's shape and strides and the leaves' element types, before any element is read. The loops
// (run_untiled, run_tiles in xkernel_loops.hpp) follow it without deciding again.

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "../../xcompat_xsimd.hpp"
#include "xkernel_layout.hpp"
#include "xkernel_run.hpp"
#include "xkernel_threads.hpp"

#ifndef XTENSOR_NAMED_STREAMING_MIN_BYTES
// Evaluations that write and read this many bytes or more (output and operands, see working_set_bytes)
// write their output with streaming stores, which do not read the output's cache lines first: faster
// where the output and what is read exceed the last-level cache, slower below, where the output would
// have stayed in it (docs/kernels.md, How). Define the macro to another size, or to SIZE_MAX to turn
// streaming off.
#define XTENSOR_NAMED_STREAMING_MIN_BYTES (std::size_t(24) << 20)
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
             * tree is its one leaf. `whole_bytes`: what the whole evaluation moves, where `layout` is a
             * part of it.
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
                         std::max(bytes, whole_bytes) >= XTENSOR_NAMED_STREAMING_MIN_BYTES)
                {
                    plan.store = run_store::streaming;
                }
                else if (copies && count == 1 && leaves[0].convert == nullptr && layout.stride(inner, 1) == 1)
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
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
