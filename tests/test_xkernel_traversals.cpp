/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Every traversal of the kernels (docs/kernels.md, How) at every rank from 1 to 6 and every innermost
// length from 1 to 17, against xtensor's own evaluation of the same expression: runs shorter than a
// batch, of one, of two and in between, taken in tiles or not; leaves read in place, splatted, repeated
// with the innermost axis's period or along it, gathered from another axis order or a stride; folds along
// the innermost axis, over outer axes keeping it, over a middle axis and over everything. The other
// kernel tests take each traversal on its own shapes; here they all meet every shape.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/detail/kernels/xkernel_assign.hpp>
#include <xtensor-named/xnamed_reducers.hpp>

#include "support/kernel_oracle.hpp"

namespace xn = xt::named;
using namespace kernel_oracle;

namespace
{
    template <class T>
    class traversals : public ::testing::Test
    {
    };

    using element_types = ::testing::Types<float, double>;
    TYPED_TEST_SUITE(traversals, element_types, );

    using axes = std::vector<std::size_t>;

    /// Shapes of rank 1 to 6 ending in each length from 1 to 17 (runs shorter than two batches are taken
    /// in tiles of rows) and in a few longer ones; the axes before it short and long in turn, a size-1
    /// axis among them, the one right outside it shorter than a tile's rows (4) or longer (300: whole
    /// tiles and a partial one, a tile holding 64 to 256 rows).
    std::vector<sizes> swept_shapes()
    {
        sizes short_lengths(17);
        for (std::size_t n = 1; n <= 17; ++n)
        {
            short_lengths[n - 1] = n;
        }
        sizes all_lengths = short_lengths;
        all_lengths.insert(all_lengths.end(), {31, 32, 33, 64});
        const std::pair<sizes, sizes> families[] = {{{3, 2, 5, 2, 4}, all_lengths},
                                                    {{1, 2, 1, 3, 300}, short_lengths}};

        std::vector<sizes> shapes;
        for (const auto& [outer, lengths] : families)
        {
            for (std::size_t rank = 1; rank <= 6; ++rank)
            {
                for (std::size_t n : lengths)
                {
                    sizes shape(outer.end() - static_cast<std::ptrdiff_t>(rank - 1), outer.end());
                    shape.push_back(n);
                    if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end())
                    {
                        shapes.push_back(shape);
                    }
                }
            }
        }
        return shapes;
    }

    /// The folds the kernels take apart: along the innermost axis, over the first, over all but the
    /// innermost (a statistic per channel), over the one outside the innermost, over everything.
    std::vector<axes> swept_axes(std::size_t rank)
    {
        std::vector<axes> result = {{rank - 1}, {0}};
        if (rank >= 2)
        {
            axes outer(rank - 1);
            for (std::size_t axis = 0; axis + 1 < rank; ++axis)
            {
                outer[axis] = axis;
            }
            result.push_back(outer);
            result.push_back({rank - 2});
            outer.push_back(rank - 1);
            result.push_back(outer);
        }
        return result;
    }

    /// The kernels' sum within the bound of recursive summation of xtensor's: the kernels associate the
    /// terms of a fold along the innermost axis and of a fold cut into parts otherwise.
    template <class T, class E>
    ::testing::AssertionResult sum_within_bound(const E& terms, const axes& over)
    {
        const auto expected = xtensor_value<T>(xt::sum(terms, over));
        const auto actual = kernel_value<T>(xt::sum(terms, over));
        const auto magnitudes = xtensor_value<double>(xt::sum(xt::abs(xt::cast<double>(terms)), over));
        if (actual.shape() != expected.shape())
        {
            return ::testing::AssertionFailure() << "shape " << shape_text(actual.shape()) << " instead of "
                                                 << shape_text(expected.shape());
        }
        std::size_t count = 1;
        for (std::size_t axis : over)
        {
            count *= terms.shape()[axis];
        }
        for (std::size_t i = 0; i < actual.size(); ++i)
        {
            const double error = std::abs(double(actual.flat(i)) - double(expected.flat(i)));
            if (!(error <= summation_bound<T>(count, magnitudes.flat(i))))
            {
                return ::testing::AssertionFailure()
                       << "element " << i << ": " << actual.flat(i) << " instead of " << expected.flat(i);
            }
        }
        return ::testing::AssertionSuccess();
    }
} // namespace

TYPED_TEST(traversals, elementwise_trees_match_xtensor_bitwise_at_every_rank_and_innermost_length)
{
    using T = TypeParam;
    using column_major = xt::xarray<T, xt::layout_type::column_major>;
    for (const sizes& shape : swept_shapes())
    {
        SCOPED_TRACE(shape_text(shape));
        const std::size_t rank = shape.size();
        const auto x = random_array<T>(shape, 1);
        const auto y = random_array<T>(shape, 2);
        // A centre per position of the innermost axis (periodic along the rows), a weight per row
        // (repeated along the innermost axis), a scale of the first axis (constant along the runs).
        const auto c = random_array<T>(only_axes(shape, {rank - 1}), 3);
        const auto w = random_array<T>(rank >= 2 ? only_axes(shape, {rank - 2}) : only_axes(shape, {}), 4);
        const auto g = random_array<T>(only_axes(shape, {0}), 5);
        EXPECT_TRUE(matches_xtensor<T>(x * T(3) - y));
        EXPECT_TRUE(matches_xtensor<T>((x - c) * w + g));

        // An operand in the other axis order.
        const column_major z = y;
        EXPECT_TRUE(matches_xtensor<T>(x + z));
        sizes reversed(shape.rbegin(), shape.rend());
        const auto t = random_array<T>(reversed, 6);
        EXPECT_TRUE(matches_xtensor<T>(x - xt::transpose(t)));
        // An operand read with a stride along every axis: 2 along the outer ones, and 2, 3 or 4 along the
        // innermost, where strides 2 and 3 are gathered by loops of their own (kernel_convert).
        for (const std::ptrdiff_t step : {2, 3, 4})
        {
            SCOPED_TRACE(step);
            sizes widened = shape;
            xt::xstrided_slice_vector every_step;
            for (std::size_t axis = 0; axis < rank; ++axis)
            {
                const std::ptrdiff_t along = axis + 1 == rank ? step : 2;
                widened[axis] *= static_cast<std::size_t>(along);
                every_step.push_back(xt::range(along - 1, xt::placeholders::_, along));
            }
            const auto wide = random_array<T>(widened, 7);
            EXPECT_TRUE(matches_xtensor<T>(x * xt::strided_view(wide, every_step)));
        }

        // An output in the other axis order.
        column_major expected;
        xt::noalias(expected) = x * T(3) - y;
        auto actual = column_major::from_shape(expected.shape());
        ASSERT_TRUE(xn::detail::try_kernel_assign(actual, x * T(3) - y));
        EXPECT_TRUE(same_bits(actual, expected));
    }
}

TYPED_TEST(traversals, operands_in_the_other_axis_order_match_xtensor_bitwise_in_bands_of_rows)
{
    // Runs longer than 256 elements with a leaf gathered from the other axis order are taken in bands of
    // runs (runs_in_bands, kernel_bands): runs that are not a whole number of bands (70
    // and 37 rows, 6 and 5 runs in the last band), runs of one chunk and of several (2100 elements: 1024
    // of doubles, 2048 of floats), not a whole number of lines of the band (513), the leaf's runs a line
    // apart (rank 2) and farther (3 and 6 elements at ranks 3 and 4), one axis or two outside the rows.
    using T = TypeParam;
    using column_major = xt::xarray<T, xt::layout_type::column_major>;
    for (const sizes& shape :
         {sizes{70, 513}, sizes{3, 37, 300}, sizes{2, 3, 19, 260}, sizes{2, 257}, sizes{21, 2100}})
    {
        SCOPED_TRACE(shape_text(shape));
        const auto x = random_array<T>(shape, 21);
        const column_major z = random_array<T>(shape, 22);
        sizes reversed(shape.rbegin(), shape.rend());
        const auto t = random_array<T>(reversed, 23);
        const auto c = random_array<T>(only_axes(shape, {0}), 24);
        EXPECT_TRUE(matches_xtensor<T>(x + z));
        EXPECT_TRUE(matches_xtensor<T>((x - xt::transpose(t)) * c));
        EXPECT_TRUE(matches_xtensor<T>(z * T(2) + xt::transpose(t)));
        if (shape.size() == 2)
        {
            // The runs in reverse order: each run of the leaf one element before the last.
            using namespace xt::placeholders;
            EXPECT_TRUE(
                matches_xtensor<T>(x + xt::strided_view(xt::transpose(t), {xt::range(_, _, -1), xt::all()})));
            // The first run three elements into a line: a shorter first band (kernel_bands::rows_to_line).
            EXPECT_TRUE(matches_xtensor<T>(xt::strided_view(x, {xt::range(3, _), xt::all()}) +
                                           xt::strided_view(xt::transpose(t), {xt::range(3, _), xt::all()})));
        }

        // A leaf of another type, converted as it is gathered.
        xt::xarray<int, xt::layout_type::column_major> counts(shape);
        for (std::size_t i = 0; i < counts.size(); ++i)
        {
            counts.data()[i] = static_cast<int>(i % 23) - 11;
        }
        EXPECT_TRUE(matches_xtensor<T>(x * counts));

        // A column-major output: the row-major operands are the ones in the other order.
        column_major expected;
        xt::noalias(expected) = x * T(3) - z + xt::transpose(t);
        auto actual = column_major::from_shape(expected.shape());
        ASSERT_TRUE(xn::detail::try_kernel_assign(actual, x * T(3) - z + xt::transpose(t)));
        EXPECT_TRUE(same_bits(actual, expected));
    }
}

TYPED_TEST(traversals, folds_match_xtensor_at_every_rank_and_innermost_length)
{
    // The maximum bit for bit; sums within the bound of recursive summation (their association is
    // documented, not xtensor's, along the innermost axis and where a fold is cut into parts).
    using T = TypeParam;
    for (const sizes& shape : swept_shapes())
    {
        const std::size_t rank = shape.size();
        const auto x = random_array<T>(shape, 11);
        const auto c = random_array<T>(only_axes(shape, {rank - 1}), 12);
        const auto w = random_array<T>(rank >= 2 ? only_axes(shape, {rank - 2}) : only_axes(shape, {}), 13);
        for (const axes& over : swept_axes(rank))
        {
            SCOPED_TRACE(shape_text(shape) + " over " + shape_text(over));
            EXPECT_TRUE(
                matches_xtensor<T>(xn::detail::fold_reducer<xn::detail::max_fold>(x - c, axes(over))));
            EXPECT_TRUE(
                matches_xtensor<T>(xn::detail::fold_reducer<xn::detail::max_fold>(x * w, axes(over))));
            EXPECT_TRUE(sum_within_bound<T>(x - c, over));
            EXPECT_TRUE(sum_within_bound<T>(x * w, over));
        }
    }
}

TYPED_TEST(traversals, folds_over_an_operand_in_the_other_axis_order_match_xtensor)
{
    // A fold along outer axes that keeps a long innermost one, with a leaf stored in the other axis
    // order: the terms of its innermost level are the runs of a band (plan_fold_share),
    // folded in order. Levels that are not a whole number of bands (70, 37, 5 terms), runs of one chunk
    // and of several (2100), one level and two.
    using T = TypeParam;
    for (const sizes& shape : {sizes{70, 513}, sizes{21, 2100}, sizes{3, 37, 300}, sizes{5, 257}})
    {
        const std::size_t rank = shape.size();
        const auto x = random_array<T>(shape, 31);
        sizes reversed(shape.rbegin(), shape.rend());
        const auto t = random_array<T>(reversed, 32);
        axes outer(rank - 1);
        for (std::size_t a = 0; a + 1 < rank; ++a)
        {
            outer[a] = a;
        }
        for (const axes& over : {axes{rank - 2}, outer})
        {
            SCOPED_TRACE(shape_text(shape) + " over " + shape_text(over));
            EXPECT_TRUE(matches_xtensor<T>(
                xn::detail::fold_reducer<xn::detail::max_fold>(x * xt::transpose(t), axes(over))));
            EXPECT_TRUE(sum_within_bound<T>(x - xt::transpose(t), over));
        }
        if (rank == 2)
        {
            // The first term three elements into a line: a shorter first band (kernel_bands::rows_to_line).
            using namespace xt::placeholders;
            const auto tail = xt::strided_view(x, {xt::range(3, _), xt::all()}) *
                              xt::strided_view(xt::transpose(t), {xt::range(3, _), xt::all()});
            EXPECT_TRUE(matches_xtensor<T>(xn::detail::fold_reducer<xn::detail::max_fold>(tail, axes{0})));
            EXPECT_TRUE(sum_within_bound<T>(tail, axes{0}));
        }
    }
}

TYPED_TEST(traversals, folds_along_an_operand_in_the_other_axis_order_match_a_contiguous_copy)
{
    // A fold along a long innermost axis of a leaf stored in the other axis order: the results of the
    // last kept axis are the folds of a band's runs, two bands at a time (plan_fold_share),
    // each folded chunk after chunk into chains of its own. Over a contiguous copy of the leaf each run
    // is folded where it lies, into the same chains: the same bits. Results that are not a whole number
    // of groups nor of bands (48, 9, 61, 13), runs of one chunk and of several (2100), one kept axis and
    // two, and results whose first run starts three elements into a line (a shorter first group). The
    // leaf's runs a whole number of lines apart (64, 16, 144 and 72 elements), where the results are taken
    // in bands, and not (70, 5), where each is folded on its own.
    using T = TypeParam;
    for (const sizes& shape : {sizes{64, 513}, sizes{16, 2100}, sizes{3, 48, 300}, sizes{9, 8, 600},
                               sizes{70, 513}, sizes{5, 257}})
    {
        const std::size_t rank = shape.size();
        const auto x = random_array<T>(shape, 41);
        sizes reversed(shape.rbegin(), shape.rend());
        const auto t = random_array<T>(reversed, 42);
        const xt::xarray<T> copy = xt::transpose(t);
        const axes over = {rank - 1};
        SCOPED_TRACE(shape_text(shape));
        EXPECT_TRUE(
            matches_xtensor<T>(xn::detail::fold_reducer<xn::detail::max_fold>(x * xt::transpose(t), over)));
        EXPECT_TRUE(sum_within_bound<T>(x * xt::transpose(t), over));
        EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(x * xt::transpose(t), over)),
                              kernel_value<T>(xt::sum(x * copy, over))));
        if (rank == 2)
        {
            using namespace xt::placeholders;
            const auto x_tail = xt::strided_view(x, {xt::range(3, _), xt::all()});
            const auto t_tail = xt::strided_view(xt::transpose(t), {xt::range(3, _), xt::all()});
            const xt::xarray<T> copy_tail = t_tail;
            EXPECT_TRUE(
                matches_xtensor<T>(xn::detail::fold_reducer<xn::detail::max_fold>(x_tail * t_tail, over)));
            EXPECT_TRUE(same_bits(kernel_value<T>(xt::sum(x_tail * t_tail, over)),
                                  kernel_value<T>(xt::sum(x_tail * copy_tail, over))));
        }
    }
}
