/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The plan of an elementwise evaluation's runs (detail/kernels/xrun_plan.hpp), from shapes, strides and
// element types alone: no element is read, so the leaves point at nothing they could read.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xrun_plan.hpp>

namespace xn = xt::named;
namespace kd = xt::named::detail;

namespace
{
    using sizes = std::vector<std::size_t>;
    using strides = std::vector<std::ptrdiff_t>;

    /// An operand of the evaluation: its strides over the output's shape, its element size (another
    /// than float's: an int64 leaf, converted), and which memory it reads (0: its own).
    struct operand
    {
        strides along;
        std::size_t element_bytes = sizeof(float);
        std::size_t memory = 0;
    };

    /// Distinct addresses for the leaves, a megabyte apart, never read.
    const char* leaf_address(std::size_t k)
    {
        return reinterpret_cast<const char*>(std::uintptr_t(1) << 30) + k * (std::size_t(1) << 20);
    }

    /// The plan of a float tree of `leaves` over `shape`, the output at `out` strides, as the kernels
    /// make it: the layout sorted and merged first. `O` is the output's element type.
    template <class O = float>
    kd::run_plan plan_of(const sizes& shape, const strides& out, std::initializer_list<operand> leaves,
                         bool copies = false)
    {
        kd::kernel_layout layout(shape, leaves.size() + 1);
        EXPECT_TRUE(layout.set_right_aligned(0, shape, out));
        std::vector<kd::kernel_leaf_ref<float>> refs;
        std::size_t k = 1;
        for (const operand& leaf : leaves)
        {
            EXPECT_TRUE(layout.set_right_aligned(k, shape, leaf.along));
            kd::kernel_leaf_ref<float> ref;
            ref.data = leaf_address(leaf.memory == 0 ? k : leaf.memory);
            ref.element_bytes = static_cast<kd::kernel_index>(leaf.element_bytes);
            ref.convert =
                leaf.element_bytes == sizeof(float) ? nullptr : &kd::kernel_convert<float, std::int64_t>;
            refs.push_back(ref);
            ++k;
        }
        layout.drop_unit_axes();
        layout.make_positive(0);
        layout.sort_axes_by(0);
        layout.coalesce();
        return kd::plan_runs<float, O>(layout, refs.data(), refs.size(), copies, 0);
    }
} // namespace

TEST(run_plan, contiguous_operands_take_whole_runs_of_two_axes_in_one_call)
{
    // (n, c, h, w) images minus a per-channel mean: the image contiguous, the mean splatted.
    const auto plan = plan_of({2, 3, 16, 16}, {768, 256, 16, 1}, {{{768, 256, 16, 1}}, {{0, 1, 0, 0}}});
    EXPECT_EQ(plan.traversal, kd::run_traversal::runs);
    EXPECT_EQ(plan.store, kd::run_store::ordinary);
    EXPECT_EQ(plan.chunk, kd::kernel_whole_run);
    EXPECT_EQ(plan.tasks, 1u);
}

TEST(run_plan, short_innermost_runs_contiguous_in_the_output_go_in_tiles)
{
    // Points (n, xyz) minus a centre (xyz): runs of 3.
    const auto points = plan_of({1000, 3}, {3, 1}, {{{3, 1}}, {{0, 1}}});
    EXPECT_EQ(points.traversal, kd::run_traversal::tiles);
    EXPECT_EQ(points.store, kd::run_store::ordinary);
    // Runs as long as two batches are not short.
    const std::size_t width = 2 * kd::simd::batch_size<float>;
    const auto w = static_cast<std::ptrdiff_t>(width);
    const auto longer = plan_of({1000, width}, {w, 1}, {{{w, 1}}, {{0, 1}}});
    EXPECT_EQ(longer.traversal, kd::run_traversal::runs);
    // A contiguous evaluation merges into one axis: one run, taken in chunks of the whole run.
    const auto merged = plan_of({1000, 3}, {3, 1}, {{{3, 1}}});
    EXPECT_EQ(merged.traversal, kd::run_traversal::chunks);
    EXPECT_EQ(merged.chunk, kd::kernel_whole_run);
}

TEST(run_plan, a_leaf_in_the_other_axis_order_is_read_in_bands)
{
    // B(x, y) + C(y, x), 512 x 512: C steps a whole row along the run.
    const auto plan = plan_of({512, 512}, {512, 1}, {{{512, 1}}, {{1, 512}}});
    EXPECT_EQ(plan.traversal, kd::run_traversal::bands);
    EXPECT_EQ(plan.chunk, kd::kernel_chunk<float>);
    // Runs of at most kernel_band_max_unbanded elements are not banded: the lines fit the L1 cache.
    const auto short_runs =
        plan_of({512, kd::kernel_band_max_unbanded}, {std::ptrdiff_t(kd::kernel_band_max_unbanded), 1},
                {{{std::ptrdiff_t(kd::kernel_band_max_unbanded), 1}}, {{1, 512}}});
    EXPECT_EQ(short_runs.traversal, kd::run_traversal::chunks);
}

TEST(run_plan, a_strided_output_is_scattered_a_chunk_at_a_time)
{
    // Every other column of a wider matrix.
    const auto plan = plan_of({64, 100}, {400, 2}, {{{100, 1}}, {{0, 1}}});
    EXPECT_EQ(plan.store, kd::run_store::scatter);
    EXPECT_EQ(plan.traversal, kd::run_traversal::chunks);
    EXPECT_EQ(plan.chunk, kd::kernel_chunk<float>);
}

TEST(run_plan, a_converted_leaf_is_gathered_and_another_output_type_converted)
{
    // An int64 leaf in a float tree: gathered and converted a chunk at a time.
    const auto gathered = plan_of({64, 100}, {100, 1}, {{{100, 1}}, {{100, 1}, sizeof(std::int64_t)}});
    EXPECT_EQ(gathered.chunk, kd::kernel_chunk<float>);
    EXPECT_EQ(gathered.traversal, kd::run_traversal::chunks);
    EXPECT_EQ(gathered.store, kd::run_store::ordinary);
    // A float tree written to double: each value converted as it is stored.
    const auto converted = plan_of<double>({64, 100}, {100, 1}, {{{100, 1}}});
    EXPECT_EQ(converted.store, kd::run_store::converted);
    EXPECT_EQ(converted.traversal, kd::run_traversal::chunks);
    EXPECT_EQ(converted.chunk, kd::kernel_whole_run);
}

TEST(run_plan, a_one_leaf_tree_read_in_place_is_a_copy)
{
    const auto copy = plan_of({64, 100}, {100, 1}, {{{100, 1}}}, true);
    EXPECT_EQ(copy.store, kd::run_store::copy);
    // Not where the leaf is read with a stride, nor where the tree does more than read it.
    const auto strided = plan_of({64, 100}, {100, 1}, {{{1, 64}}}, true);
    EXPECT_EQ(strided.store, kd::run_store::ordinary);
    const auto computed = plan_of({64, 100}, {100, 1}, {{{100, 1}}}, false);
    EXPECT_EQ(computed.store, kd::run_store::ordinary);
    // Nor does the constant leaf that a one-leaf tree carries into the loops of two (kernel_slots).
    const auto padded = plan_of({64, 100}, {100, 1}, {{{100, 1}}, {{0, 0}}}, true);
    EXPECT_EQ(padded.store, kd::run_store::copy);
}

TEST(run_plan, an_evaluation_larger_than_the_caches_streams_its_output)
{
    if (!kd::simd::batch_traits<float>::can_stream)
    {
        GTEST_SKIP() << "no streaming stores for float on this instruction set";
    }
    const std::size_t threshold = kd::streaming_min_bytes();
    // A matrix written and one read (and a row), together just above the threshold.
    const std::size_t rows = threshold / (2 * 2048 * sizeof(float)) + 1;
    const auto large = plan_of({rows, 2048}, {2048, 1}, {{{2048, 1}}, {{0, 1}}});
    EXPECT_EQ(large.store, kd::run_store::streaming);
    EXPECT_EQ(large.traversal, kd::run_traversal::runs);
    // One written and two read, a third of the threshold each. The same leaf read twice counts once.
    const std::size_t thirds = threshold / (3 * 1024 * sizeof(float)) + 1;
    const auto two = plan_of({thirds, 1024}, {1024, 1}, {{{1024, 1}}, {{1024, 1}}});
    EXPECT_EQ(two.store, kd::run_store::streaming);
    const auto twice =
        plan_of({thirds, 1024}, {1024, 1}, {{{1024, 1}, sizeof(float), 1}, {{1024, 1}, sizeof(float), 1}});
    EXPECT_EQ(twice.store, kd::run_store::ordinary);
    // Just below the threshold.
    const auto below = plan_of({rows - 2, 2048}, {2048, 1}, {{{2048, 1}}, {{0, 1}}});
    EXPECT_EQ(below.store, kd::run_store::ordinary);
}

TEST(run_plan, streaming_starts_where_the_last_level_cache_no_longer_keeps_the_evaluation)
{
    // Where streaming stores were measured to be slower and faster than ordinary ones, by bytes
    // written and read (docs/kernels.md, How): a 32 MiB L3 (AMD EPYC) slower at 16 MiB, faster at 32; a
    // 480 MiB L3 (Intel Xeon) slower at 64 MiB, faster at 80.
    constexpr std::size_t mib = std::size_t(1) << 20;
    EXPECT_GT(kd::streaming_min_bytes_for(32 * mib), 16 * mib);
    EXPECT_LE(kd::streaming_min_bytes_for(32 * mib), 32 * mib);
    EXPECT_GT(kd::streaming_min_bytes_for(480 * mib), 64 * mib);
    EXPECT_LE(kd::streaming_min_bytes_for(480 * mib), 80 * mib);
    // A cache of unknown size, or a small one: 24 MiB.
    EXPECT_EQ(kd::streaming_min_bytes_for(0), 24 * mib);
    EXPECT_EQ(kd::streaming_min_bytes_for(2 * mib), 24 * mib);
    EXPECT_EQ(kd::streaming_min_bytes(), kd::streaming_min_bytes_for(kd::last_level_cache_bytes()));
}

namespace
{
    /// A fold of one stage over `shape` (the output's strides 0 along the `folded` axes, row-major along
    /// the others), the input row-major, as the fold job lays it out.
    kd::fold_plan fold_plan_of(const sizes& shape, const sizes& folded, std::size_t whole_inner = 0)
    {
        const std::size_t rank = shape.size();
        strides input(rank);
        strides out(rank);
        std::ptrdiff_t in_step = 1;
        std::ptrdiff_t out_step = 1;
        for (std::size_t a = rank; a-- > 0;)
        {
            input[a] = in_step;
            in_step *= static_cast<std::ptrdiff_t>(shape[a]);
            const bool is_folded = std::find(folded.begin(), folded.end(), a) != folded.end();
            out[a] = is_folded ? 0 : out_step;
            out_step *= is_folded ? 1 : static_cast<std::ptrdiff_t>(shape[a]);
        }
        kd::kernel_layout layout(shape, 2);
        EXPECT_TRUE(layout.set_right_aligned(0, shape, out));
        EXPECT_TRUE(layout.set_right_aligned(1, shape, input));
        kd::fold_stage<float> stage;
        for (std::size_t axis : folded)
        {
            stage.levels.push_back(kd::fold_level{axis, shape[axis], false});
        }
        kd::kernel_leaf_ref<float> leaf;
        leaf.data = leaf_address(1);
        return kd::plan_folds(layout, std::vector<kd::fold_stage<float>>{stage}, &leaf, 1, whole_inner);
    }
} // namespace

TEST(fold_plan, row_sums_share_their_results_and_are_not_cut)
{
    const auto plan = fold_plan_of({1000, 1000}, {1});
    EXPECT_EQ(plan.kept, kd::kernel_sizes({0}));
    EXPECT_EQ(plan.tiled, kd::tiled_fold::none);
    EXPECT_EQ(plan.cut.parts, 1u);
    EXPECT_TRUE(plan.share_results);
    EXPECT_GE(plan.tasks, 1u);
}

TEST(fold_plan, a_whole_sum_is_cut_along_its_first_level_whatever_the_threads)
{
    // 1e6 terms: parts of kernel_fold_part_terms / 1000 = 32 rows, 32 parts, one result.
    const auto plan = fold_plan_of({1000, 1000}, {0, 1});
    EXPECT_TRUE(plan.kept.empty());
    EXPECT_FALSE(plan.share_results);
    EXPECT_EQ(plan.cut.parts, 32u);
    EXPECT_EQ(plan.cut.length, kd::kernel_fold_part_terms / 1000);
    EXPECT_EQ(plan.result_shares, 1u);
    EXPECT_EQ(plan.tasks, plan.cut.parts);
    // A fold with few terms per result is not cut.
    EXPECT_EQ(fold_plan_of({1000, 30}, {0, 1}).cut.parts, 1u);
}

TEST(fold_plan, a_short_kept_innermost_axis_is_folded_across_tiles_and_not_shared)
{
    // A maximum per channel of (n * h * w, c = 3): the channels kept, each thread would read every row.
    const auto plan = fold_plan_of({65536, 3}, {0});
    EXPECT_EQ(plan.tiled, kd::tiled_fold::across);
    EXPECT_FALSE(plan.share_results);
    EXPECT_EQ(plan.cut.parts, 2u);
    EXPECT_EQ(plan.tasks, 2u);
    // A share of a longer axis folds as the whole does: whole_inner decides.
    EXPECT_EQ(fold_plan_of({65536, 3}, {0}, 64).tiled, kd::tiled_fold::none);
}

TEST(fold_plan, a_fold_along_a_short_innermost_axis_folds_within_tiles)
{
    // The sum over xyz of each point.
    const auto plan = fold_plan_of({1000, 3}, {1});
    EXPECT_EQ(plan.tiled, kd::tiled_fold::within);
    EXPECT_TRUE(plan.share_results);
    EXPECT_EQ(plan.cut.parts, 1u);
}

namespace
{
    /// The plan of a share: a fold of one stage over `shape` along `folded` of float leaves stored with
    /// `leaves` strides (over `shape`), the output dense over the kept axes.
    kd::fold_share_plan share_plan_of(const sizes& shape, const sizes& folded,
                                      std::initializer_list<strides> leaves)
    {
        const std::size_t rank = shape.size();
        strides out(rank);
        std::ptrdiff_t out_step = 1;
        for (std::size_t a = rank; a-- > 0;)
        {
            const bool is_folded = std::find(folded.begin(), folded.end(), a) != folded.end();
            out[a] = is_folded ? 0 : out_step;
            out_step *= is_folded ? 1 : static_cast<std::ptrdiff_t>(shape[a]);
        }
        kd::kernel_layout layout(shape, leaves.size() + 1);
        EXPECT_TRUE(layout.set_right_aligned(0, shape, out));
        std::vector<kd::kernel_leaf_ref<float>> refs;
        std::size_t k = 1;
        for (const strides& leaf : leaves)
        {
            EXPECT_TRUE(layout.set_right_aligned(k, shape, leaf));
            kd::kernel_leaf_ref<float> ref;
            ref.data = leaf_address(k);
            refs.push_back(ref);
            ++k;
        }
        kd::fold_stage<float> stage;
        for (std::size_t axis : folded)
        {
            stage.levels.push_back(kd::fold_level{axis, shape[axis], false});
        }
        const std::vector<kd::fold_stage<float>> stages{stage};
        const kd::kernel_sizes kept = kd::kept_axes(layout, stages);
        return kd::plan_fold_share(layout, stages, kept, kd::tiled_fold_of(layout, stages, kept, 0),
                                   refs.data(), refs.size());
    }
} // namespace

TEST(fold_share_plan, each_fold_of_a_contiguous_input_takes_its_shortest_path)
{
    // Row sums: the results along the kept axis in one call, the run moved from row to row.
    const auto rows = share_plan_of({1000, 1000}, {1}, {{1000, 1}});
    EXPECT_EQ(rows.traversal, kd::fold_traversal::run_totals);
    EXPECT_EQ(rows.chunk, kd::kernel_fold_chunk<float>);
    EXPECT_FALSE(rows.bands);
    // Column sums: the innermost axis kept, run after run a chunk at a time.
    EXPECT_EQ(share_plan_of({1000, 1000}, {0}, {{1000, 1}}).traversal, kd::fold_traversal::chunks);
    // A sum over b of (a, b, n): the runs of n moved along a in one call.
    EXPECT_EQ(share_plan_of({40, 30, 100}, {1}, {{3000, 100, 1}}).traversal, kd::fold_traversal::whole_runs);
    // A sum of everything: one result, folded on its own.
    EXPECT_EQ(share_plan_of({1000, 1000}, {0, 1}, {{1000, 1}}).traversal, kd::fold_traversal::each_result);
    // The sum over xyz of points: tiles of rows, each row folded alone.
    EXPECT_EQ(share_plan_of({1000, 3}, {1}, {{3, 1}}).traversal, kd::fold_traversal::within_tiles);
}

TEST(fold_share_plan, a_leaf_in_the_other_axis_order_is_read_in_bands)
{
    // sum over y of B(x, y) * C(y, x), C's lines a whole number apart: the results in bands.
    const auto over_y = share_plan_of({512, 512}, {1}, {{512, 1}, {1, 512}});
    EXPECT_EQ(over_y.traversal, kd::fold_traversal::results_in_bands);
    EXPECT_TRUE(over_y.bands);
    EXPECT_EQ(over_y.band_axis, 0u);
    EXPECT_EQ(over_y.chunk, kd::kernel_chunk<float>);
    // The same sum over x: the terms of each run in bands.
    const auto over_x = share_plan_of({512, 512}, {0}, {{512, 1}, {1, 512}});
    EXPECT_EQ(over_x.traversal, kd::fold_traversal::chunks);
    EXPECT_TRUE(over_x.bands);
    EXPECT_EQ(over_x.band_axis, 0u);
    // C's rows 500 floats apart: its lines start anywhere, each result is folded on its own.
    const auto unaligned = share_plan_of({500, 500}, {1}, {{500, 1}, {1, 500}});
    EXPECT_EQ(unaligned.traversal, kd::fold_traversal::each_result);
    EXPECT_FALSE(unaligned.bands);
}
