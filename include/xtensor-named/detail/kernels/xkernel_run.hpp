/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XKERNEL_RUN_HPP
#define XTENSOR_NAMED_DETAIL_XKERNEL_RUN_HPP

// Where the leaves of an expression are for one run of consecutive elements along the innermost axis,
// and how the kernels load them: a leaf constant along the run (stride 0) is one splatted register, a
// contiguous one is loaded batch by batch, any other stride is first gathered into a buffer.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "../../xcompat_xsimd.hpp"
#include "../../xcompat_xtensor.hpp"
#include "xkernel_layout.hpp"
#include "xscratch.hpp"

// GCC before 12.3 and AVX-512: see xcompat_xsimd.hpp.
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace xt
{
    namespace named
    {
        namespace detail
        {
            using kernel_index = kernel_layout::index_type;

            /// Elements per chunk of a run that goes through a buffer (a gathered leaf, a strided
            /// output, a run of partial results): small enough for the buffers to stay in the L1 cache.
            template <class T>
            inline constexpr std::size_t kernel_chunk = (8192 / sizeof(T) / simd::batch_size<T> > 0
                                                             ? 8192 / sizeof(T) / simd::batch_size<T>
                                                             : 1) *
                                                        simd::batch_size<T>;

            /// A source's buffer of gathered chunks: uninitialised (every element is written before it is
            /// read) and aligned for whole batches. Each source allocates its own, apart from the scratch
            /// pool (benchmarks/README.md, Compile cost, says what taking it from the pool cost).
            template <class T>
            using kernel_buffer = xt::uvector<T, xsimd::aligned_allocator<T>>;

            /// Runs of a band (kernel_bands): as many as a cache line holds elements of T, so
            /// that a band reads whole lines of a leaf stored in the other axis order.
            template <class T>
            inline constexpr std::size_t kernel_band_rows = sizeof(T) < 64 ? 64 / sizeof(T) : 1;

            /// Elements from one run of a band to the next in the band's buffer: a chunk and a cache line,
            /// so that the elements that one line of the leaf gives the runs are not stored in one set of
            /// the L1 cache (16 runs of floats a chunk apart were, more than the set holds).
            template <class T>
            inline constexpr std::size_t kernel_band_stride = kernel_chunk<T> + kernel_band_rows<T>;

            /// The longest runs not taken in bands: the lines that such a run gathers stay in the L1 cache
            /// until the next run reads them again.
            inline constexpr std::size_t kernel_band_max_unbanded = 256;

            /// Whether a leaf stepping `along` bytes from one element of a run to the next and `across`
            /// bytes from one run to the next has each element of a run on a cache line of its own and the
            /// next run's elements on the same lines: an operand stored in the other axis order.
            constexpr bool kernel_reads_across(kernel_index along, kernel_index across) noexcept
            {
                constexpr kernel_index line = 64;
                return (along >= line || along <= -line) && across < line && across > -line;
            }

            /// The chunk of a run that needs no buffer: the whole run is one chunk, however long.
            inline constexpr std::size_t kernel_whole_run = std::numeric_limits<std::size_t>::max();

            /// Elements per chunk of a run of partial results: the results of one chunk and the input runs
            /// folded into them stay in the L1 and L2 caches, and a run of 2000 doubles is one chunk, read as
            /// one stream.
            template <class T>
            inline constexpr std::size_t kernel_fold_chunk = (16384 / sizeof(T) / simd::batch_size<T> > 0
                                                                  ? 16384 / sizeof(T) / simd::batch_size<T>
                                                                  : 1) *
                                                             simd::batch_size<T>;

            /**
             * Where the leaves of one run are: element `i` of leaf k is `ptr[k][i & mask[k]]`. The mask is
             * all ones for a leaf stored contiguously (or gathered) along the run, and 0 for a leaf
             * constant along it, whose value is also splatted in `value[k]`: a register in the loop. The
             * test on the mask is the same for every batch of a run, so that an optimising compiler takes
             * it out of the loop (one loop per combination of leaves).
             */
            template <class T, std::size_t L>
            struct kernel_run
            {
                static constexpr std::size_t slots = L == 0 ? 1 : L;

                std::array<const T*, slots> ptr;
                std::array<std::size_t, slots> mask;
                std::array<simd::batch<T>, slots> value;

                template <std::size_t I>
                simd::batch<T> load(std::size_t i) const noexcept
                {
                    return mask[I] != 0 ? simd::batch_traits<T>::load(ptr[I] + i) : value[I];
                }

                template <std::size_t I>
                T load_scalar(std::size_t i) const noexcept
                {
                    return ptr[I][i & mask[I]];
                }

                /// Whether a leaf reads from `address`: an output written over its own input.
                bool reads(const void* address) const noexcept
                {
                    for (std::size_t k = 0; k < L; ++k)
                    {
                        if (static_cast<const void*>(ptr[k]) == address)
                        {
                            return true;
                        }
                    }
                    return false;
                }

                /// Points leaf k at a run stored contiguously from `start`.
                void set_contiguous(std::size_t k, const T* start) noexcept
                {
                    ptr[k] = start;
                    mask[k] = ~std::size_t(0);
                }

                /// Points leaf k at the one value `*element` of a constant run.
                void set_constant(std::size_t k, const T* element) noexcept
                {
                    ptr[k] = element;
                    mask[k] = 0;
                    value[k] = simd::batch_traits<T>::splat(*element);
                }

                /// Moves leaf k by `step[k]` elements, from one run to the next where the leaves are
                /// contiguous or constant along the runs: a constant leaf's value is splatted again, since
                /// a leaf constant along the runs need not be constant across them. Only the first `N`
                /// leaves, the tree's: those the loops are compiled for beyond them are never read.
                template <std::size_t N, class Steps>
                void move_by(const Steps& step) noexcept
                {
                    static_assert(N <= L, "kernel_run::move_by: more leaves than the run holds");
                    for (std::size_t k = 0; k < N; ++k)
                    {
                        ptr[k] += step[k];
                        if (mask[k] == 0)
                        {
                            value[k] = simd::batch_traits<T>::splat(*ptr[k]);
                        }
                    }
                }
            };

#if defined(__SANITIZE_ADDRESS__)
#define XTENSOR_NAMED_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XTENSOR_NAMED_ADDRESS_SANITIZER 1
#endif
#endif

            /**
             * How a function that moves a run along its axes takes it (kernel_run_param) and names the run
             * it moves (kernel_run_moved): by value, the loops' fastest form, where the function moves its
             * own copy. Under AddressSanitizer by reference, copied in the function: clang 14 there passed
             * a run of AVX-512 registers on a stack aligned to 32 bytes, and its aligned stores faulted.
             */
#if defined(XTENSOR_NAMED_ADDRESS_SANITIZER)
            template <class T, std::size_t L>
            using kernel_run_param = const kernel_run<T, L>&;
            template <class T, std::size_t L>
            using kernel_run_moved = kernel_run<T, L>;
#else
            template <class T, std::size_t L>
            using kernel_run_param = kernel_run<T, L>;
            template <class T, std::size_t L>
            using kernel_run_moved = kernel_run<T, L>&;
#endif

            /**
             * A run whose guarded float functions (exp, expm1, exp2) skip their per-batch branch: each
             * keeps in `largest` the largest magnitude of its argument's lanes (simd::larger_magnitudes),
             * and the run is computed again with the branches when one was beyond the smallest reach of
             * those functions (kernel_op::apply_noting, eval_run). The loop then holds no call and keeps
             * the function's constants in registers. A maximum, not a mask: the loop is bound by the
             * vector units, and a mask took three operations a batch, and a store and a load, since the
             * compiler kept it in memory.
             */
            template <class Run, class T>
            struct kernel_noting_run : Run
            {
                using arch_type = typename simd::batch<T>::arch_type;
                using magnitude_type = simd::magnitudes<arch_type>;

                mutable magnitude_type largest;

                explicit kernel_noting_run(const Run& run) noexcept : Run(run), largest(0) {}

                /// Whether every argument noted was at most `reach` in magnitude (not NaN).
                bool all_within(double reach) const noexcept
                {
                    return simd::magnitudes_within<arch_type>(largest, static_cast<T>(reach));
                }
            };

            template <class Run>
            struct is_noting_run : std::false_type
            {
            };

            template <class Run, class T>
            struct is_noting_run<kernel_noting_run<Run, T>> : std::true_type
            {
            };

            /// Converts `count` elements, `stride` elements apart from `src`, into T at `dst`, as C++
            /// converts them.
            template <class T>
            using kernel_convert_fn = void (*)(const char* src, kernel_index stride, std::size_t count,
                                               T* dst) noexcept;

            /// kernel_convert_fn for elements of type U.
            template <class T, class U>
            inline void kernel_convert(const char* src, kernel_index stride, std::size_t count,
                                       T* dst) noexcept
            {
                const U* from = reinterpret_cast<const U*>(src);
                // Strides 2 and 3 (every other element, one coordinate of points (n, xyz)) are loops of
                // their own: with a constant stride the compiler loads whole vectors and shuffles them,
                // with another it loads element by element.
                if (stride == 2)
                {
                    for (std::size_t j = 0; j < count; ++j)
                    {
                        dst[j] = static_cast<T>(from[2 * j]);
                    }
                }
                else if (stride == 3)
                {
                    for (std::size_t j = 0; j < count; ++j)
                    {
                        dst[j] = static_cast<T>(from[3 * j]);
                    }
                }
                else
                {
                    for (std::size_t j = 0; j < count; ++j)
                    {
                        dst[j] = static_cast<T>(from[static_cast<kernel_index>(j) * stride]);
                    }
                }
            }

            /// Where the elements of a leaf are, and what they are: T, or another type converted to T as
            /// the leaf is read (an integer array in a floating point expression, a bool mask).
            template <class T>
            struct kernel_leaf_ref
            {
                /// Element (0, ..., 0).
                const char* data = nullptr;
                kernel_index element_bytes = static_cast<kernel_index>(sizeof(T));
                /// Null when the elements are T.
                kernel_convert_fn<T> convert = nullptr;

                /// The element `offset` elements from (0, ..., 0).
                const char* at(kernel_index offset) const noexcept
                {
                    return data + offset * element_bytes;
                }
            };

            template <class T, std::size_t L>
            using kernel_leaves = std::array<kernel_leaf_ref<T>, (L == 0 ? 1 : L)>;

            /**
             * How many leaves the loops of a fold over a tree of `leaves` leaves are compiled for: the
             * next power of two, the collector adding constant leaves that the tree never reads
             * (kernel_collector::pad), so that the loops are compiled for 1, 2, 4, 8, ... leaves, not for
             * every count in a program.
             */
            constexpr std::size_t kernel_fold_slots(std::size_t leaves) noexcept
            {
                std::size_t slots = 1;
                while (slots < leaves)
                {
                    slots *= 2;
                }
                return slots;
            }

            /**
             * kernel_fold_slots for an elementwise tree, at least two: a tree of one leaf (a math function,
             * a copy) shares the loops of two. Not for folds: their drivers prepare and step every slot
             * (kernel_source::prepare, for_each_position), so that a padded one-leaf fold ran slower
             * (benchmarks/README.md, Compile cost).
             */
            constexpr std::size_t kernel_slots(std::size_t leaves) noexcept
            {
                return kernel_fold_slots(leaves < 2 ? 2 : leaves);
            }

            /**
             * Prepares the kernel_run of runs whose leaves have fixed strides along the run; the start of
             * each leaf changes from run to run. A leaf of T of stride 0 is constant, of stride 1
             * contiguous; any other stride, and any leaf of another type, is gathered (and converted)
             * into a buffer, chunk by chunk.
             */
            template <class T, std::size_t L>
            class kernel_source
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using run_type = kernel_run<T, L>;

                kernel_source(const std::array<kernel_index, slots>& strides,
                              const kernel_leaves<T, L>& leaves);

                /// The largest chunk prepare accepts: a whole run unless a leaf is gathered.
                std::size_t chunk() const noexcept;

                /// Points `run` at elements [first, first + count) of the run whose leaf k starts at
                /// `start[k]`.
                void prepare(const std::array<const char*, slots>& start, std::size_t first,
                             std::size_t count, run_type& run);

            private:
                std::array<kernel_index, slots> m_stride;
                std::array<kernel_convert_fn<T>, slots> m_convert{};
                std::array<kernel_index, slots> m_bytes{};
                std::size_t m_chunk;
                // A chunk for each gathered leaf, and the converted value of each constant one.
                kernel_buffer<T> m_buffer;
                std::array<T, slots> m_constant{};
            };

            /**
             * Reads each leaf of T stored in the other axis order (kernel_reads_across) a band of runs at
             * a time, so that each of its lines is read once, whole, for all the runs of a band: the
             * lines are gathered into one buffer run per run of the band (gather), and a band's run reads
             * them from there (prepare); the other leaves are read by a kernel_source of their own, to
             * which the banded leaves are constant. Built only where runs_in_bands says so, so that other
             * evaluations carry none of it.
             */
            template <class T, std::size_t L>
            class kernel_bands
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using run_type = kernel_run<T, L>;

                /// Leaf k steps `along[k]` elements from one element of a run to the next and `across[k]`
                /// from one run to the next.
                kernel_bands(const kernel_leaves<T, L>& leaves, const std::array<kernel_index, slots>& along,
                             const std::array<kernel_index, slots>& across);

                /// How many runs the band from the run whose leaf k starts at `start[k]` takes: as many as
                /// reach the next line of the first leaf read in bands (at most kernel_band_rows), so that
                /// the bands after it read whole lines, wherever a thread's part begins.
                std::size_t rows_to_line(const std::array<const char*, slots>& start) const noexcept;

                /// Gathers elements [first, first + count) (at most kernel_chunk) of `rows` runs (at
                /// most kernel_band_rows) of each leaf read in bands, the first run's leaf k starting at
                /// `start[k]`.
                void gather(const std::array<const char*, slots>& start, std::size_t rows, std::size_t first,
                            std::size_t count);

                /// kernel_source::prepare for run `row` of the band gathered last.
                void prepare(const std::array<const char*, slots>& start, std::size_t first,
                             std::size_t count, run_type& run, std::size_t row);

            private:
                kernel_bands(const std::array<bool, slots>& in_bands, const kernel_leaves<T, L>& leaves,
                             const std::array<kernel_index, slots>& along,
                             const std::array<kernel_index, slots>& across);

                // Whether each leaf is read in bands.
                static std::array<bool, slots> banded(const kernel_leaves<T, L>& leaves,
                                                      const std::array<kernel_index, slots>& along,
                                                      const std::array<kernel_index, slots>& across) noexcept;

                // `along`, but 0 for the leaves read in bands.
                static std::array<kernel_index, slots>
                rest_strides(const std::array<bool, slots>& banded,
                             std::array<kernel_index, slots> along) noexcept;

                kernel_source<T, L> m_rest;
                std::array<kernel_index, slots> m_along{};
                std::array<kernel_index, slots> m_across{};
                // The buffer runs of each leaf read in bands, else null.
                std::array<T*, slots> m_band{};
                std::optional<scratch_buffer> m_buffer;
            };

            /**
             * Whether runs of `length` elements are short: fewer than two SIMD batches, so that most of a
             * run, or all of it, would be computed element by element after its last whole batch, with a
             * run's set-up each time. Short runs are taken in tiles (kernel_tile_source).
             */
            template <class T>
            constexpr bool kernel_short_run(std::size_t length) noexcept
            {
                return length < 2 * simd::batch_size<T>;
            }

            /// Rows of a tile: as many as the longest short runs fit in a chunk. The same for every short
            /// length, so that a fold across tiles (one chain per row) is folded in the same order
            /// whether a thread's block holds all of the short axis or part of it.
            template <class T>
            inline constexpr std::size_t kernel_tile_rows =
                kernel_chunk<T> >= 2 * simd::batch_size<T> ? kernel_chunk<T> / (2 * simd::batch_size<T>) : 1;

            /**
             * Prepares the kernel_run of a tile: `rows` short runs of a layout's innermost axis (see
             * kernel_short_run), one after the other along the axis outside it, taken as one run of
             * rows × length elements, so that the tree runs in whole batches across the runs. A leaf of T
             * contiguous over both axes is read where it lies and a leaf constant over both is splatted;
             * any other (periodic along the rows, as a centre (xyz) of points (n, xyz); repeated along the
             * short axis, as a weight (n); strided; of another type) is copied into a tile of its own in
             * the L1 cache. A tile that does not move along the rows is copied once for all of them.
             */
            template <class T, std::size_t L>
            class kernel_tile_source
            {
            public:
                static constexpr std::size_t slots = L == 0 ? 1 : L;
                using run_type = kernel_run<T, L>;

                /// Tiles of `layout`'s axes `axis` (the rows) and `axis + 1` (the innermost, the short runs);
                /// leaf k is the layout's operand k + 1.
                kernel_tile_source(const kernel_layout& layout, std::size_t axis,
                                   const kernel_leaves<T, L>& leaves);

                /// The most rows a tile holds: kernel_tile_rows.
                std::size_t rows() const noexcept;

                /// Whether a leaf is copied into a tile: else each leaf is read where it lies or splatted,
                /// and a tile's run moves to the next tile as the leaves' strides say.
                bool copies() const noexcept;

                /// Points `run` at the first `rows` runs from the one whose leaf k starts at `start[k]`.
                void prepare(const std::array<const char*, slots>& start, std::size_t rows, run_type& run);

            private:
                // The tile of a leaf repeated along the short axis (a weight (n) of points (n, xyz)): row r
                // holds m_length copies of from[r * outer].
                void repeat_rows(const T* from, kernel_index outer, std::size_t rows, T* tile) const noexcept;

                // How each leaf is read: splatted, where it lies (contiguous over both axes), or copied
                // into a tile of its own.
                enum class tile_read
                {
                    constant,
                    in_place,
                    copied
                };

                std::size_t m_length;
                std::array<tile_read, slots> m_read{};
                std::array<kernel_index, slots> m_outer{};
                std::array<kernel_index, slots> m_inner{};
                std::array<kernel_index, slots> m_bytes{};
                std::array<kernel_convert_fn<T>, slots> m_convert{};
                // What each tile holds: copied from where, how many rows.
                std::array<const char*, slots> m_copied_from{};
                std::array<std::size_t, slots> m_copied_rows{};
                std::optional<scratch_buffer> m_buffer;
                std::array<T, slots> m_constant{};
            };

            /**********************************
             * kernel_source implementation   *
             **********************************/

            template <class T, std::size_t L>
            inline kernel_source<T, L>::kernel_source(const std::array<kernel_index, slots>& strides,
                                                      const kernel_leaves<T, L>& leaves)
                : m_stride(strides), m_chunk(0)
            {
                bool gathers = false;
                for (std::size_t k = 0; k < L; ++k)
                {
                    m_convert[k] = leaves[k].convert;
                    m_bytes[k] = leaves[k].element_bytes;
                    gathers = gathers || m_convert[k] != nullptr || (m_stride[k] != 0 && m_stride[k] != 1);
                }
                m_chunk = gathers ? kernel_chunk<T> : kernel_whole_run;
                if (gathers)
                {
                    m_buffer.resize(slots * kernel_chunk<T>);
                }
            }

            template <class T, std::size_t L>
            inline std::size_t kernel_source<T, L>::chunk() const noexcept
            {
                return m_chunk;
            }

            template <class T, std::size_t L>
            inline void kernel_source<T, L>::prepare(const std::array<const char*, slots>& start,
                                                     std::size_t first, std::size_t count, run_type& run)
            {
                for (std::size_t k = 0; k < L; ++k)
                {
                    const kernel_index stride = m_stride[k];
                    if (m_convert[k] != nullptr)
                    {
                        if (stride == 0)
                        {
                            m_convert[k](start[k], 0, 1, &m_constant[k]);
                            run.set_constant(k, &m_constant[k]);
                        }
                        else
                        {
                            T* gathered = m_buffer.data() + k * kernel_chunk<T>;
                            const char* src =
                                start[k] + static_cast<kernel_index>(first) * stride * m_bytes[k];
                            m_convert[k](src, stride, count, gathered);
                            run.set_contiguous(k, gathered);
                        }
                        continue;
                    }
                    const T* from = reinterpret_cast<const T*>(start[k]);
                    if (stride == 1)
                    {
                        run.set_contiguous(k, from + first);
                    }
                    else if (stride == 0)
                    {
                        run.set_constant(k, from);
                    }
                    else
                    {
                        T* gathered = m_buffer.data() + k * kernel_chunk<T>;
                        kernel_convert<T, T>(
                            reinterpret_cast<const char*>(from + static_cast<kernel_index>(first) * stride),
                            stride, count, gathered);
                        run.set_contiguous(k, gathered);
                    }
                }
            }

            /******************************
             * kernel_bands implementation *
             ******************************/

            template <class T, std::size_t L>
            inline std::array<bool, kernel_bands<T, L>::slots>
            kernel_bands<T, L>::banded(const kernel_leaves<T, L>& leaves,
                                       const std::array<kernel_index, slots>& along,
                                       const std::array<kernel_index, slots>& across) noexcept
            {
                const kernel_index bytes = static_cast<kernel_index>(sizeof(T));
                std::array<bool, slots> banded{};
                for (std::size_t k = 0; k < L; ++k)
                {
                    banded[k] = leaves[k].convert == nullptr &&
                                kernel_reads_across(along[k] * bytes, across[k] * bytes);
                }
                return banded;
            }

            template <class T, std::size_t L>
            inline std::array<kernel_index, kernel_bands<T, L>::slots>
            kernel_bands<T, L>::rest_strides(const std::array<bool, slots>& banded,
                                             std::array<kernel_index, slots> along) noexcept
            {
                for (std::size_t k = 0; k < L; ++k)
                {
                    along[k] = banded[k] ? 0 : along[k];
                }
                return along;
            }

            template <class T, std::size_t L>
            inline kernel_bands<T, L>::kernel_bands(const kernel_leaves<T, L>& leaves,
                                                    const std::array<kernel_index, slots>& along,
                                                    const std::array<kernel_index, slots>& across)
                : kernel_bands(banded(leaves, along, across), leaves, along, across)
            {
            }

            template <class T, std::size_t L>
            inline kernel_bands<T, L>::kernel_bands(const std::array<bool, slots>& in_bands,
                                                    const kernel_leaves<T, L>& leaves,
                                                    const std::array<kernel_index, slots>& along,
                                                    const std::array<kernel_index, slots>& across)
                : m_rest(rest_strides(in_bands, along), leaves), m_along(along), m_across(across)
            {
                const std::size_t bands =
                    static_cast<std::size_t>(std::count(in_bands.begin(), in_bands.end(), true));
                const std::size_t band_size = kernel_band_rows<T> * kernel_band_stride<T>;
                m_buffer.emplace(bands * band_size * sizeof(T));
                T* next = m_buffer->data_as<T>();
                for (std::size_t k = 0; k < L; ++k)
                {
                    if (in_bands[k])
                    {
                        m_band[k] = next;
                        next += band_size;
                    }
                }
            }

            template <class T, std::size_t L>
            inline std::size_t
            kernel_bands<T, L>::rows_to_line(const std::array<const char*, slots>& start) const noexcept
            {
                for (std::size_t k = 0; k < L; ++k)
                {
                    if (m_band[k] != nullptr && m_across[k] == 1)
                    {
                        const auto address = reinterpret_cast<std::uintptr_t>(start[k]) / sizeof(T);
                        return kernel_band_rows<T> - address % kernel_band_rows<T>;
                    }
                }
                return kernel_band_rows<T>;
            }

            template <class T, std::size_t L>
            inline void kernel_bands<T, L>::prepare(const std::array<const char*, slots>& start,
                                                    std::size_t first, std::size_t count, run_type& run,
                                                    std::size_t row)
            {
                m_rest.prepare(start, first, count, run);
                for (std::size_t k = 0; k < L; ++k)
                {
                    if (m_band[k] != nullptr)
                    {
                        run.set_contiguous(k, m_band[k] + row * kernel_band_stride<T>);
                    }
                }
            }

            /// Copies `count` lines, `along` elements apart from `src`, of `Rows` elements `across` apart
            /// into `Rows` rows of `band`, kernel_band_stride elements apart: each line is read once.
            template <std::size_t Rows, class T>
            inline void gather_lines(const T* src, kernel_index along, kernel_index across, std::size_t count,
                                     T* band) noexcept
            {
                // `Rows` lines at a time, copied whole into a block that is then written out a run at a
                // time: an element written to each run in turn was slower. Each line is asked for `ahead`
                // lines before it is read: the block's stores between two lines kept the processor from
                // reaching the next lines' loads in time.
                constexpr std::size_t ahead = 32;
                std::size_t j = 0;
                for (; j + Rows <= count; j += Rows)
                {
                    T block[Rows][Rows];
                    for (std::size_t q = 0; q < Rows; ++q)
                    {
                        const T* line = src + static_cast<kernel_index>(j + q) * along;
                        if (j + q + ahead < count)
                        {
                            simd::prefetch_line(line + static_cast<kernel_index>(ahead) * along);
                        }
                        if (across == 1)
                        {
                            std::copy(line, line + Rows, block[q]);
                        }
                        else
                        {
                            for (std::size_t r = 0; r < Rows; ++r)
                            {
                                block[q][r] = line[static_cast<kernel_index>(r) * across];
                            }
                        }
                    }
                    for (std::size_t r = 0; r < Rows; ++r)
                    {
                        for (std::size_t q = 0; q < Rows; ++q)
                        {
                            band[r * kernel_band_stride<T> + j + q] = block[q][r];
                        }
                    }
                }
                for (; j < count; ++j)
                {
                    const T* line = src + static_cast<kernel_index>(j) * along;
                    for (std::size_t r = 0; r < Rows; ++r)
                    {
                        band[r * kernel_band_stride<T> + j] = line[static_cast<kernel_index>(r) * across];
                    }
                }
            }

            template <class T, std::size_t L>
            inline void kernel_bands<T, L>::gather(const std::array<const char*, slots>& start,
                                                   std::size_t rows, std::size_t first, std::size_t count)
            {
                for (std::size_t k = 0; k < L; ++k)
                {
                    T* band = m_band[k];
                    if (band == nullptr)
                    {
                        continue;
                    }
                    const T* src =
                        reinterpret_cast<const T*>(start[k]) + static_cast<kernel_index>(first) * m_along[k];
                    if (rows == kernel_band_rows<T>)
                    {
                        gather_lines<kernel_band_rows<T>>(src, m_along[k], m_across[k], count, band);
                    }
                    else
                    {
                        // The last band of an axis not a whole number of bands long.
                        for (std::size_t r = 0; r < rows; ++r)
                        {
                            gather_lines<1>(src + static_cast<kernel_index>(r) * m_across[k], m_along[k], 0,
                                            count, band + r * kernel_band_stride<T>);
                        }
                    }
                }
            }

            /****************************************
             * kernel_tile_source implementation    *
             ****************************************/

            template <class T, std::size_t L>
            inline kernel_tile_source<T, L>::kernel_tile_source(const kernel_layout& layout, std::size_t axis,
                                                                const kernel_leaves<T, L>& leaves)
                : m_length(layout.size(axis + 1))
            {
                const kernel_index length = static_cast<kernel_index>(m_length);
                bool copies = false;
                for (std::size_t k = 0; k < L; ++k)
                {
                    m_outer[k] = layout.stride(axis, k + 1);
                    m_inner[k] = layout.stride(axis + 1, k + 1);
                    m_bytes[k] = leaves[k].element_bytes;
                    m_convert[k] = leaves[k].convert;
                    if (m_outer[k] == 0 && m_inner[k] == 0)
                    {
                        m_read[k] = tile_read::constant;
                    }
                    else if (m_convert[k] == nullptr && m_inner[k] == 1 && m_outer[k] == length)
                    {
                        m_read[k] = tile_read::in_place;
                    }
                    else
                    {
                        m_read[k] = tile_read::copied;
                        copies = true;
                    }
                }
                // Tiles that copy no leaf take no buffer.
                if (copies)
                {
                    m_buffer.emplace(slots * kernel_chunk<T> * sizeof(T));
                }
            }

            template <class T, std::size_t L>
            inline std::size_t kernel_tile_source<T, L>::rows() const noexcept
            {
                return kernel_tile_rows<T>;
            }

            template <class T, std::size_t L>
            inline bool kernel_tile_source<T, L>::copies() const noexcept
            {
                return m_buffer.has_value();
            }

            template <class T, std::size_t L>
            inline void kernel_tile_source<T, L>::prepare(const std::array<const char*, slots>& start,
                                                          std::size_t rows, run_type& run)
            {
                for (std::size_t k = 0; k < L; ++k)
                {
                    const kernel_index outer = m_outer[k];
                    const kernel_index inner = m_inner[k];
                    if (m_read[k] == tile_read::constant)
                    {
                        if (m_convert[k] != nullptr)
                        {
                            m_convert[k](start[k], 0, 1, &m_constant[k]);
                            run.set_constant(k, &m_constant[k]);
                        }
                        else
                        {
                            run.set_constant(k, reinterpret_cast<const T*>(start[k]));
                        }
                        continue;
                    }
                    if (m_read[k] == tile_read::in_place)
                    {
                        run.set_contiguous(k, reinterpret_cast<const T*>(start[k]));
                        continue;
                    }
                    T* tile = m_buffer->data_as<T>() + k * kernel_chunk<T>;
                    run.set_contiguous(k, tile);
                    if (outer == 0 && m_copied_from[k] == start[k] && m_copied_rows[k] >= rows)
                    {
                        continue;
                    }
                    if (inner == 0 && m_convert[k] == nullptr)
                    {
                        repeat_rows(reinterpret_cast<const T*>(start[k]), outer, rows, tile);
                        continue;
                    }
                    for (std::size_t r = 0; r < rows; ++r)
                    {
                        const char* src = start[k] + static_cast<kernel_index>(r) * outer * m_bytes[k];
                        T* dst = tile + r * m_length;
                        if (m_convert[k] != nullptr)
                        {
                            m_convert[k](src, inner, m_length, dst);
                            continue;
                        }
                        const T* from = reinterpret_cast<const T*>(src);
                        for (std::size_t j = 0; j < m_length; ++j)
                        {
                            dst[j] = from[static_cast<kernel_index>(j) * inner];
                        }
                    }
                    m_copied_from[k] = start[k];
                    m_copied_rows[k] = rows;
                }
            }

            template <class T, std::size_t L>
            inline void kernel_tile_source<T, L>::repeat_rows(const T* from, kernel_index outer,
                                                              std::size_t rows, T* tile) const noexcept
            {
                // Each row's value stored as whole batches, one or two (a short run is shorter than two),
                // from where its row starts: the next row's stores overwrite what ran past this one's end,
                // and the last row's end within the tile (kernel_tile_rows rows of fewer than two batches).
                using traits = simd::batch_traits<T>;
                constexpr std::size_t width = simd::batch_size<T>;
                static_assert(kernel_chunk<T> >= 2 * width, "a tile holds two batches past its last row");
                const bool two = m_length > width;
                for (std::size_t r = 0; r < rows; ++r)
                {
                    const auto value = traits::splat(from[static_cast<kernel_index>(r) * outer]);
                    T* dst = tile + r * m_length;
                    traits::store(dst, value);
                    if (two)
                    {
                        traits::store(dst + width, value);
                    }
                }
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

#endif
