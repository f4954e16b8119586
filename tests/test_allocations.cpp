/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// What a named operation costs the heap. A loop body builds the same operation on operands of the same
// dims and shapes again and again: the second time on, its plan comes from the thread's plan cache and
// its dims are shared, so that building the operation allocates nothing. Operands of new shapes get a
// plan of their own, whose parts a strategy returns in the public types (xn::partial_shape and the
// std::vector axis maps of xn::broadcast_plan).

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/observed_new.hpp"

namespace xn = xt::named;

namespace
{
    // The allocations made while `counting` is set, by operator new of this test program.
    bool counting = false;
    std::size_t allocations = 0;

    /// The number of allocations that `f()` makes.
    template <class F>
    std::size_t allocations_of(F&& f)
    {
        allocations = 0;
        counting = true;
        f();
        counting = false;
        return allocations;
    }

    /// The number of allocations that building the named operation `make()` makes; its dims must be
    /// `expected`.
    template <class Make>
    std::size_t allocations_of_operation(Make&& make, const xn::dims& expected)
    {
        return allocations_of(
            [&]
            {
                const auto e = make();
                EXPECT_EQ(e.dims(), expected);
            });
    }
} // namespace

bool allow_allocation()
{
    if (counting)
    {
        ++allocations;
    }
    return true;
}

namespace
{
    const xt::xtensor<double, 2> grid = xt::ones<double>({4, 5});
    const xt::xtensor<double, 1> row = xt::ones<double>({5});

    template <class S>
    class allocations_under : public ::testing::Test
    {
    };

    using builtin_strategies = ::testing::Types<xn::numpy, xn::missing_dims, xn::name_match>;
    TYPED_TEST_SUITE(allocations_under, builtin_strategies, );
} // namespace

TYPED_TEST(allocations_under, an_operation_on_operands_of_dims_and_shapes_seen_before_allocates_nothing)
{
    const auto a = xn::name<TypeParam>(grid, {"i", "j"});
    const auto v = xn::name<TypeParam>(row, {"j"});
    {
        const auto first = a + v;
        static_cast<void>(first);
    }
    const xn::dims expected{"i", "j"};
    EXPECT_EQ(allocations_of_operation([&] { return a + v; }, expected), 0u);
    // Nor does its evaluation into an output of the result's shape.
    xt::xtensor<double, 2> out = xt::zeros<double>({4, 5});
    xn::assign(out, a + v * 2.);
    EXPECT_EQ(allocations_of([&] { xn::assign(out, a + v * 2.); }), 0u);
    const xt::xtensor<double, 2> threes = xt::ones<double>({4, 5}) * 3.;
    EXPECT_EQ(out, threes);
}

TYPED_TEST(allocations_under, an_operation_on_operands_of_new_shapes_allocates_its_plan_only)
{
    {
        // The thread's cache for this kind of operation exists from the first plan on.
        const auto first = xn::name<TypeParam>(grid, {"i", "j"}) + xn::name<TypeParam>(row, {"j"});
        static_cast<void>(first);
    }
    const xt::xtensor<double, 2> other_grid = xt::ones<double>({6, 7});
    const xt::xtensor<double, 1> other_row = xt::ones<double>({7});
    const auto a = xn::name<TypeParam>(other_grid, {"i", "j"});
    const auto v = xn::name<TypeParam>(other_row, {"j"});
    // What the strategy returns: the result's sizes and the two axis maps. The operands' shapes are
    // written where the last plan's were, and the result shares the dims of the grid.
    EXPECT_LE(allocations_of_operation([&] { return a + v; }, xn::dims({"i", "j"})), 3u);
    EXPECT_EQ((a + v).shape()[1], 7u);
}

TYPED_TEST(allocations_under, a_compound_expression_on_operands_of_new_shapes_allocates_its_plans_only)
{
    const auto make = [](std::size_t rows, std::size_t columns)
    {
        const xt::xtensor<double, 2> g = xt::ones<double>({rows, columns});
        const xt::xtensor<double, 1> r = xt::ones<double>({columns});
        return std::make_pair(g, r);
    };
    const auto [first_grid, first_row] = make(2, 3);
    {
        const auto first = xn::name<TypeParam>(first_grid, {"i", "j"}) +
                           xn::name<TypeParam>(first_row, {"j"}) * xn::name<TypeParam>(first_row, {"j"});
        static_cast<void>(first);
    }
    // Shapes that no other test of this program plans: the thread's plans outlive a test.
    const auto [other_grid, other_row] = make(8, 9);
    const auto a = xn::name<TypeParam>(other_grid, {"i", "j"});
    const auto v = xn::name<TypeParam>(other_row, {"j"});
    // Two plans of three allocations each: v * v, then a + (v * v).
    EXPECT_LE(allocations_of_operation([&] { return a + v * v; }, xn::dims({"i", "j"})), 6u);
    EXPECT_EQ((a + v * v).shape()[1], 9u);
}

// Under missing_dims, (j) + (i, j) is (j, i): the plan makes each of its lists once, at its final size
// (the sizes, two axis maps, the list of names and the dims that share it).
TEST(allocations, an_operation_that_adds_axes_makes_each_list_once)
{
    {
        // The thread's cache and the operands it describes to strategies exist from the first plan on.
        const auto first = xn::name(row, {"j"}) + xn::name(grid, {"i", "j"});
        static_cast<void>(first);
    }
    const xt::xtensor<double, 2> grid_of_new_shape = xt::ones<double>({10, 11});
    const xt::xtensor<double, 1> row_of_new_shape = xt::ones<double>({11});
    const auto a = xn::name(grid_of_new_shape, {"i", "j"});
    const auto v = xn::name(row_of_new_shape, {"j"});
    const xn::dims expected{"j", "i"};
    EXPECT_LE(allocations_of_operation([&] { return v + a; }, expected), 5u);
}

// A plain xtensor operand is seen as unnamed axes (numpy lines them up by position): those of the
// usual ranks are shared.
TEST(allocations, a_plain_operand_of_an_operation_on_new_shapes_allocates_nothing_more)
{
    {
        const auto first = xn::name<xn::numpy>(grid, {"i", "j"}) + row;
        static_cast<void>(first);
    }
    const xt::xtensor<double, 2> grid_of_new_shape = xt::ones<double>({12, 13});
    const xt::xtensor<double, 1> row_of_new_shape = xt::ones<double>({13});
    const auto a = xn::name<xn::numpy>(grid_of_new_shape, {"i", "j"});
    const xn::dims expected{"i", "j"};
    EXPECT_LE(allocations_of_operation([&] { return a + row_of_new_shape; }, expected), 3u);
    const xn::dims unnamed = xn::dims::unnamed(3);
    xn::dims again;
    EXPECT_EQ(allocations_of([&] { again = xn::dims::unnamed(3); }), 0u);
    EXPECT_EQ(again, xn::dims({"?", "?", "?"}));
    EXPECT_EQ(&again[0], &unnamed[2]);
}

// Names are interned: dims of names met before hold the same strings, and make no copy of them.
TEST(allocations, dims_of_names_met_before_share_their_names)
{
    const xn::dims d{"batch", "channel", "height", "width"};
    xn::dims copy;
    EXPECT_EQ(allocations_of([&] { copy = d; }), 0u);
    EXPECT_EQ(copy, d);
    EXPECT_EQ(&copy[3], &d[3]);
    xn::dims again;
    EXPECT_EQ(allocations_of([&] { again = xn::dims{"width", "batch"}; }), 0u);
    EXPECT_EQ(&again[0], &d[3]);
    EXPECT_EQ(&again[1], &d[0]);
    // A scalar's dims hold no list at all.
    const auto make_scalar_dims = []
    {
        const xn::dims none;
        EXPECT_TRUE(none.empty());
    };
    EXPECT_EQ(allocations_of(make_scalar_dims), 0u);
}

// A reduction by name on an operand without labels allocates nothing: its reducer holds the list of its
// axes in place. Its evaluation allocates the result's elements and the kernels' description of the
// sums.
TEST(allocations, a_reduction_by_name_allocates_nothing)
{
    const auto a = xn::name(grid, {"i", "j"});
    const std::vector<std::string> both{"i", "j"};
    {
        const auto first = xn::sum(a, "j");
        static_cast<void>(first);
    }
    EXPECT_EQ(allocations_of_operation([&] { return xn::sum(a, "j"); }, xn::dims({"i"})), 0u);
    EXPECT_EQ(allocations_of_operation([&] { return xn::amax(a, both); }, xn::dims()), 0u);
    EXPECT_EQ(allocations_of_operation([&] { return xn::mean(a); }, xn::dims()), 0u);
    const auto s = xn::eval(xn::sum(a, "j"));
    EXPECT_LE(allocations_of([&] { static_cast<void>(xn::eval(xn::sum(a, "j"))); }), 3u);
    EXPECT_EQ(s.dims(), xn::dims({"i"}));
    EXPECT_EQ(s.expression(), (xt::xtensor<double, 1>{5., 5., 5., 5.}));
}

// A mean read by an operation is a sum divided by its count: its temporary holds the sums, divided in
// place, so that the operation allocates what it allocates with the sum alone (no second temporary, no
// buffer to compute it in).
TEST(allocations, a_mean_read_by_an_operation_allocates_what_its_sum_does)
{
    const xt::xtensor<double, 2> values = {{1., 2., 3., 4., 5.}, {2., 4., 6., 8., 10.}};
    const auto a = xn::name(values, {"i", "j"});
    const auto evaluate = [&](const auto& reduction)
    { return allocations_of([&] { static_cast<void>(xn::eval(a - reduction)); }); };
    static_cast<void>(xn::eval(a - xn::mean(a, "j")));
    const std::size_t with_sum = evaluate(xn::sum(a, "j"));
    EXPECT_EQ(evaluate(xn::mean(a, "j")), with_sum);
    const auto centred = xn::eval(a - xn::mean(a, "j"));
    EXPECT_EQ(centred.dims(), xn::dims({"i", "j"}));
    EXPECT_EQ(centred.expression(), (xt::xtensor<double, 2>{{-2., -1., 0., 1., 2.}, {-4., -2., 0., 2., 4.}}));
}
