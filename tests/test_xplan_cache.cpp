/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <cmath>
#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/counting_strategy.hpp"
#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    using cache_type = xn::detail::plan_cache<std::string, 2>;

    /// The operands among `args` as the cache sees them (each of these shapes is pointed at).
    template <class... A>
    xn::detail::operand_refs<xn::detail::array_count_v<A...>> refs(const A&... args)
    {
        xn::detail::shape_copies<A...> none;
        static_assert(std::tuple_size<decltype(none)>::value == 0, "these shapes are pointed at");
        return xn::detail::refs_of(none, args...);
    }

    const xt::xtensor<double, 2> grid = {{1., 2., 3.}, {4., 5., 6.}};
    const xt::xtensor<double, 1> row = {10., 20., 30.};
    const xt::xtensor<double, 1> column = {100., 200.};
} // namespace

TEST(plan_cache, finds_a_plan_only_for_operands_of_the_same_dims_and_shapes)
{
    cache_type cache;
    const auto a = xn::name(grid, {"i", "j"});
    const auto v = xn::name(row, {"j"});
    EXPECT_EQ(cache.find(refs(a, v)), nullptr);
    cache.keep("a + v", refs(a, v));
    ASSERT_NE(cache.find(refs(a, v)), nullptr);
    EXPECT_EQ(*cache.find(refs(a, v)), "a + v");
    // Other arrays of the same dims and shapes share the plan; scalars do not count.
    const xt::xtensor<double, 2> other_grid = grid * 2.;
    ASSERT_NE(cache.find(refs(xn::name(other_grid, {"i", "j"}), 3., v)), nullptr);

    EXPECT_EQ(cache.find(refs(v, a)), nullptr);
    EXPECT_EQ(cache.find(refs(xn::name(grid, {"i", "k"}), v)), nullptr);
    EXPECT_EQ(cache.find(refs(a, xn::name(row, {"k"}))), nullptr);
    const xt::xtensor<double, 1> longer_row = {1., 2., 3., 4.};
    EXPECT_EQ(cache.find(refs(a, xn::name(longer_row, {"j"}))), nullptr);
    // A plain expression has the dims (?, ...): not those of a named operand of the same shape.
    EXPECT_EQ(cache.find(refs(a, row)), nullptr);
    cache.keep("a + plain", refs(a, row));
    ASSERT_NE(cache.find(refs(a, row)), nullptr);
    EXPECT_EQ(*cache.find(refs(a, row)), "a + plain");
    EXPECT_EQ(*cache.find(refs(a, v)), "a + v");
    EXPECT_EQ(cache.find(refs(a, xn::name(row, {"?"}))), nullptr);
}

TEST(plan_cache, replaces_the_oldest_plan_when_full)
{
    cache_type cache;
    const auto a = xn::name(grid, {"i", "j"});
    std::vector<xt::xtensor<double, 1>> rows;
    for (std::size_t n = 1; n <= cache_type::capacity + 2; ++n)
    {
        rows.push_back(xt::xtensor<double, 1>::from_shape({n}));
    }
    for (std::size_t k = 0; k < rows.size(); ++k)
    {
        cache.keep(std::to_string(k), refs(a, xn::name(rows[k], {"j"})));
    }
    EXPECT_EQ(cache.size(), cache_type::capacity);
    EXPECT_EQ(cache.find(refs(a, xn::name(rows[0], {"j"}))), nullptr);
    EXPECT_EQ(cache.find(refs(a, xn::name(rows[1], {"j"}))), nullptr);
    for (std::size_t k = 2; k < rows.size(); ++k)
    {
        const std::string* plan = cache.find(refs(a, xn::name(rows[k], {"j"})));
        ASSERT_NE(plan, nullptr) << "operand " << k;
        EXPECT_EQ(*plan, std::to_string(k));
    }
}

// A shape of other integers than std::size_t (an adaptor over a shape of int) is copied for the plan, and
// the plan is kept under its sizes all the same.
TEST(plan_cache, an_operand_whose_shape_holds_other_integers_shares_plans_by_its_sizes)
{
    std::vector<double> data = {1., 2., 3., 4., 5., 6.};
    const std::vector<int> shape = {2, 3};
    const auto adapted = xt::adapt(data.data(), data.size(), xt::no_ownership(), shape);
    const auto a = xn::name(adapted, {"i", "j"});
    const auto v = xn::name(row, {"j"});
    xn::detail::shape_copies<decltype(a), decltype(v)> copies;
    ASSERT_EQ(copies.size(), 1u);
    const auto seen = xn::detail::refs_of(copies, a, v);
    ASSERT_EQ(seen[0].rank, 2u);
    EXPECT_EQ(seen[0].sizes[0], 2u);
    EXPECT_EQ(seen[0].sizes[1], 3u);

    cache_type cache;
    cache.keep("a + v", seen);
    ASSERT_NE(cache.find(refs(xn::name(grid, {"i", "j"}), v)), nullptr);
    EXPECT_EQ(*cache.find(refs(xn::name(grid, {"i", "j"}), v)), "a + v");

    for (int round = 0; round < 2; ++round)
    {
        const auto sum = xn::eval(a + v);
        EXPECT_EQ(sum.dims(), xn::dims({"i", "j"}));
        const xt::xtensor<double, 2> expected = {{11., 22., 33.}, {14., 25., 36.}};
        EXPECT_EQ(sum.expression(), expected);
    }
}

// The operations themselves: alternating operand layouts that a cache could confuse.
TEST(plan_cache, operations_alternating_between_layouts_keep_their_own_dims_and_values)
{
    const auto a = xn::name(grid, {"i", "j"});
    const auto v = xn::name(row, {"j"});
    const auto u = xn::name(column, {"i"});
    for (int round = 0; round < 3; ++round)
    {
        const auto by_row = xn::eval(a + v);
        EXPECT_EQ(by_row.dims(), xn::dims({"i", "j"}));
        const xt::xtensor<double, 2> expected_row = {{11., 22., 33.}, {14., 25., 36.}};
        EXPECT_EQ(by_row.expression(), expected_row);

        const auto by_column = xn::eval(a + u);
        EXPECT_EQ(by_column.dims(), xn::dims({"i", "j"}));
        const xt::xtensor<double, 2> expected_column = {{101., 102., 103.}, {204., 205., 206.}};
        EXPECT_EQ(by_column.expression(), expected_column);

        // Same shapes as `a + v`, other dims.
        const auto renamed = xn::eval(xn::name(grid, {"k", "j"}) + v);
        EXPECT_EQ(renamed.dims(), xn::dims({"k", "j"}));
        EXPECT_EQ(renamed.expression(), expected_row);

        // The vector lands on a new axis.
        const auto outer = xn::eval(xn::name(column, {"k"}) + v);
        EXPECT_EQ(outer.dims(), xn::dims({"k", "j"}));
        const xt::xtensor<double, 2> expected_outer = {{110., 120., 130.}, {210., 220., 230.}};
        EXPECT_EQ(outer.expression(), expected_outer);
    }
}

TEST(plan_cache, a_refused_operation_is_refused_every_time)
{
    const auto a = xn::name<xn::exact>(grid, {"i", "j"});
    const auto v = xn::name<xn::exact>(row, {"j"});
    for (int round = 0; round < 3; ++round)
    {
        XN_EXPECT_THROW_HAS(a + v, xn::broadcast_error, {"xn::exact", "(i, j)", "(j)"});
    }
    const auto b = xn::name<xn::exact>(grid, {"i", "j"});
    EXPECT_EQ(xn::eval(a + b).expression(), grid * 2.);
}

using xn_test::counting_numpy;

TEST(plan_cache, a_users_strategy_is_asked_by_every_operation)
{
    const auto a = xn::name<counting_numpy>(grid, {"i", "j"});
    const auto v = xn::name<counting_numpy>(row, {"j"});
    counting_numpy::calls = 0;
    for (int round = 0; round < 3; ++round)
    {
        const auto sum = xn::eval(a + v);
        EXPECT_EQ(sum.expression()(1, 2), 36.);
    }
    EXPECT_EQ(counting_numpy::calls, 3);
}

// Labels join into the result: operations on labelled operands are planned each time, and an
// unlabelled operation of the same dims and shapes does not pick up their labels.
TEST(plan_cache, labels_of_one_operation_do_not_reach_another)
{
    const auto labelled_a = xn::name(grid, {"i", "j"}, {{"j", {"x", "y", "z"}}});
    const auto labelled_v = xn::name(row, {"j"}, {{"j", {"x", "y", "z"}}});
    const auto a = xn::name(grid, {"i", "j"});
    const auto v = xn::name(row, {"j"});
    for (int round = 0; round < 2; ++round)
    {
        const auto with_labels = labelled_a + labelled_v;
        ASSERT_TRUE(with_labels.coords().has("j"));
        EXPECT_EQ(with_labels.coords().at("j"), (xn::labels{"x", "y", "z"}));
        EXPECT_TRUE((a + v).coords().empty());
        const auto half = labelled_a + v;
        EXPECT_EQ(half.coords().at("j"), (xn::labels{"x", "y", "z"}));
    }
}

// A built-in strategy with a shaping strategy attached reuses its plans too: the labels are aligned
// first, and labelled operands are planned each time.
TEST(plan_cache, a_builtin_strategy_with_a_shaping_strategy_keeps_its_plans)
{
    using joined = xn::with_shaping<xn::missing_dims, xn::join_outer>;
    using planned = xn::detail::planned_operation<2>;
    const auto& cache = xn::detail::thread_plan_cache<joined, planned, 2>();
    ASSERT_EQ(cache.size(), 0u);
    const auto a = xn::name<joined>(grid, {"i", "j"});
    const auto v = xn::name<joined>(row, {"j"});
    for (int round = 0; round < 3; ++round)
    {
        const auto sum = xn::eval(a + v);
        EXPECT_EQ(sum.dims(), xn::dims({"i", "j"}));
        EXPECT_EQ(sum.expression()(1, 2), 36.);
        EXPECT_EQ(cache.size(), 1u);
    }
    const auto labelled_a = xn::name<joined>(grid, {"i", "j"}, {{"j", {10, 20, 30}}});
    const auto labelled_v = xn::name<joined>(row, {"j"}, {{"j", {20, 30, 40}}});
    const auto joined_sum = xn::eval(labelled_a + labelled_v);
    EXPECT_EQ(joined_sum.coords().at("j"), (xn::labels{10, 20, 30, 40}));
    // Label 20: grid(1, 1) + row(0); label 10: the row has none.
    EXPECT_EQ(joined_sum.expression()(1, 1), 5. + 10.);
    EXPECT_TRUE(std::isnan(joined_sum.expression()(1, 0)));
    EXPECT_EQ(cache.size(), 1u);
}
