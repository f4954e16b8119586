/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Named operations compose: an expression of three operations and more, under every built-in strategy,
// with operands that are containers, strided views, lazy expressions and plain xtensor expressions,
// gives the values of the same expression written in plain xtensor with its broadcasting spelled out
// (the oracle), through xn::eval (the kernels) and through xtensor's own assignment of expression()
// alike. Its xtensor expression is a tree of xfunctions over strided leaves and scalars, which the
// kernels take whole. This file is also built with XTENSOR_NAMED_DISABLE_KERNELS
// (test_xnamed_composition_without_kernels): the same values through xtensor alone.

#include <algorithm>
#include <cmath>
#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xtensor-named.hpp>

#include "support/kernel_oracle.hpp"

namespace xn = xt::named;
using kernel_oracle::same_bits;

namespace
{
    using shape_t = std::vector<std::size_t>;

    /// Distinct values of many magnitudes, so that any misplaced element shows.
    xt::xarray<double> values(const shape_t& shape, unsigned seed)
    {
        return kernel_oracle::random_array<double>(shape, seed);
    }

    /// Same shape and values: bit for bit, or within `ulps` units in the last place where a math
    /// function is in the expression (xsimd's on one path, std's on another: docs/kernels.md).
    template <class A, class B>
    ::testing::AssertionResult same_values(const A& actual, const B& expected, long long ulps)
    {
        return ulps == 0 ? same_bits(actual, expected) : kernel_oracle::within_ulps(actual, expected, ulps);
    }

    /// Checks a named expression against its oracle: dims, values by both evaluations, and that its
    /// xtensor expression is an elementwise tree that the kernels evaluate.
    template <class E, class O>
    void expect_composes(const E& e, const xn::dims& dims, const O& oracle, long long ulps = 0)
    {
        using expression_type = typename E::expression_type;
        static_assert(
            xn::detail::is_viewable_tree_v<expression_type>,
            "a named expression of elementwise operations is a tree of xfunctions over strided leaves");
        EXPECT_EQ(e.dims(), dims);
        const xt::xarray<double> expected = oracle;
        EXPECT_TRUE(same_values(xn::eval(e).expression(), expected, ulps));
        xt::xarray<double> through_xtensor;
        xt::noalias(through_xtensor) = e.expression();
        EXPECT_TRUE(same_values(through_xtensor, expected, ulps));
#if !defined(XTENSOR_NAMED_DISABLE_KERNELS)
        auto through_kernels = xt::xarray<double>::from_shape(e.shape());
        EXPECT_TRUE(xn::detail::try_kernel_assign(through_kernels, e.expression()));
#endif
    }

    /// Operands of the four kinds, over an image batch (n, c, h, w) = (2, 3, 4, 5).
    struct operands
    {
        xt::xarray<double> x = values({2, 3, 4, 5}, 1);
        xt::xarray<double> channels = values({7}, 2); // a view of it gives (c)
        xt::xarray<double> map_a = values({5, 4}, 3); // (w, h)
        xt::xarray<double> map_b = values({5, 4}, 4);
        xt::xarray<double> rows = values({2, 4, 5}, 5);    // (n, h, w)
        xt::xarray<double> plain_c = values({3, 1, 1}, 6); // plain, lines up with (c, h, w) by position

        /// The channel view: elements 2, 3, 4 of `channels`.
        auto channel_view() const
        {
            return xt::view(channels, xt::range(2, 5));
        }
    };
} // namespace

TEST(named_composition, missing_dims_composes_containers_views_and_lazy_operands)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    auto nm = xn::name(o.channel_view(), {"c"});
    auto lazy = xn::name(o.map_a + o.map_b, {"w", "h"}); // permuted against nx
    auto e = ((nx - nm) * lazy + nx) / (nm + 2.0);

    const xt::xarray<double> m = o.channel_view();
    const auto m4 = xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    const auto map4 = xt::view(xt::transpose(xt::eval(o.map_a + o.map_b)), xt::newaxis(), xt::newaxis(),
                               xt::all(), xt::all());
    expect_composes(e, {"n", "c", "h", "w"}, ((o.x - m4) * map4 + o.x) / (m4 + 2.0));
}

TEST(named_composition, a_stretching_missing_dims_composes_size_one_axes)
{
    operands o;
    const xt::xarray<double> one_c = values({1}, 7);
    auto nx = xn::name<xn::basic_missing_dims<true>>(o.x, {"n", "c", "h", "w"});
    auto ns = xn::name<xn::basic_missing_dims<true>>(one_c, {"c"});
    auto nr = xn::name<xn::basic_missing_dims<true>>(xt::view(o.rows, xt::all(), xt::all(), xt::all()),
                                                     {"n", "h", "w"});
    auto e = xn::exp((nx * ns - nr) / 8.0) + nr * ns;

    const auto s4 = xt::view(one_c, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    const auto r4 = xt::view(o.rows, xt::all(), xt::newaxis(), xt::all(), xt::all());
    const xt::xarray<double> inner = (o.x * s4 - r4) / 8.0;
    // exp is xsimd's in the kernels and in xtensor's SIMD loops, std's in xtensor's other loops: the
    // values agree within exp's bound (docs/kernels.md), and the arithmetic around it is exact.
    xt::xarray<double> exp_inner = inner;
    std::transform(inner.begin(), inner.end(), exp_inner.begin(), [](double v) { return std::exp(v); });
    expect_composes(e, {"n", "c", "h", "w"}, exp_inner + r4 * s4, 4);
}

TEST(named_composition, numpy_composes_named_plain_and_lazy_operands)
{
    operands o;
    auto nx = xn::name<xn::numpy>(o.x, {"?", "c", "h", "w"});
    auto lazy = xn::name<xn::numpy>(xt::transpose(o.map_b) * 0.5, {"h", "w"});
    // A plain strided view of shape (4, 1): it lines up with (h, w) by position.
    const auto column = xt::view(o.map_a, 0, xt::all(), xt::newaxis());
    auto e = ((nx + lazy) * o.plain_c - column) / (nx + 3.0);

    expect_composes(e, {"?", "c", "h", "w"},
                    ((o.x + xt::transpose(o.map_b) * 0.5) * o.plain_c - column) / (o.x + 3.0));
}

TEST(named_composition, leading_composes_trailing_operands)
{
    operands o;
    const xt::xarray<double> chw = values({3, 4, 5}, 8);
    auto nx = xn::name<xn::leading>(o.x, {"n", "c", "h", "w"});
    auto trailing = xn::name<xn::leading>(xt::transpose(o.map_a), {"h", "w"}); // a strided view
    auto lazy = xn::name<xn::leading>(chw - 1.0, {"c", "h", "w"});
    auto e = (nx * trailing + chw) * lazy - nx;

    expect_composes(e, {"n", "c", "h", "w"}, (o.x * xt::transpose(o.map_a) + chw) * (chw - 1.0) - o.x);
}

TEST(named_composition, name_match_permutes_lazy_and_view_operands_at_any_depth)
{
    operands o;
    const xt::xarray<double> per_image = values({2}, 9);
    auto img = xn::name<xn::name_match>(o.x, {"?", "c", "h", "w"});
    auto lbl = xn::name<xn::name_match>(xt::view(o.rows, xt::all(), xt::all(), xt::all()), {"?", "h", "w"});
    auto permuted = xn::name<xn::name_match>(o.map_a - o.map_b, {"w", "h"});
    auto e = ((img * lbl + permuted) - per_image) * (permuted + lbl);

    const auto lbl4 = xt::view(o.rows, xt::all(), xt::newaxis(), xt::all(), xt::all());
    const xt::xarray<double> map = xt::transpose(xt::eval(o.map_a - o.map_b));
    const auto per4 = xt::view(per_image, xt::all(), xt::newaxis(), xt::newaxis(), xt::newaxis());
    expect_composes(e, {"?", "c", "h", "w"}, ((o.x * lbl4 + map) - per4) * (map + lbl4));
}

namespace
{
    /// Whether every leaf of `E` is a strided view that refers to its operand where the operand is held
    /// by reference: a view of a view (one per operation) would hold a copy of the view below it.
    template <class E>
    struct views_operands_directly : std::true_type
    {
    };

    template <class F, class... CT>
    struct views_operands_directly<xt::xfunction<F, CT...>>
        : std::bool_constant<(views_operands_directly<std::decay_t<CT>>::value && ...)>
    {
    };

    template <class E>
    struct is_strided_view : std::false_type
    {
    };

    template <class CT, class S, xt::layout_type L, class FST>
    struct is_strided_view<xt::xstrided_view<CT, S, L, FST>> : std::true_type
    {
    };

    // A view held by value is of a reduction's temporary (its adaptor), which no view holds.
    template <class CT, class S, xt::layout_type L, class FST>
    struct views_operands_directly<xt::xstrided_view<CT, S, L, FST>>
        : std::bool_constant<!is_strided_view<std::decay_t<CT>>::value>
    {
    };
} // namespace

TEST(named_composition, operations_on_results_view_their_operands_once_at_any_depth)
{
    operands o;
    // Operands held by reference: a container, a permuted one, and a view whose first element is not
    // its container's (offset 2), each read again at every depth.
    const auto channels = o.channel_view();
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    auto nm = xn::name(channels, {"c"});
    auto nmap = xn::name(o.map_a, {"w", "h"});
    auto first = nx - nm;
    auto second = first * nmap + nm;
    auto e = (second - nx) * (nmap + nm) - first;

    using expression_type = typename decltype(e)::expression_type;
    // Every leaf is one strided view of an operand, however deep it is in the expression.
    EXPECT_TRUE(views_operands_directly<expression_type>::value);
    const xt::xarray<double> m = channels;
    const auto m4 = xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    const auto map = xt::view(xt::transpose(o.map_a), xt::newaxis(), xt::newaxis(), xt::all(), xt::all());
    const xt::xarray<double> first_v = o.x - m4;
    expect_composes(e, {"n", "c", "h", "w"}, ((first_v * map + m4) - o.x) * (map + m4) - first_v);
    // The intermediate results are still what they were: their leaves were read, not moved from.
    expect_composes(first, {"n", "c", "h", "w"}, first_v);
    expect_composes(second, {"n", "c", "h", "w"}, first_v * map + m4);
}

TEST(named_composition, operations_read_their_operands_so_const_and_mutable_ones_give_one_type)
{
    // The leaves of an operation are read-only views whatever the constness of the operands: one
    // expression type, one set of loops compiled, for a mutable and a const container; and a view of the
    // expression in another axis order (xn::assign's, where the kernels do not write the output) has
    // that same type, so that it evaluates through the loops of the expression itself.
    xt::xtensor<double, 2> a = {{1., 2., 3.}, {4., 5., 6.}};
    xt::xtensor<double, 1> u = {10., 20.};
    const xt::xtensor<double, 2>& const_a = a;
    const xt::xtensor<double, 1>& const_u = u;
    auto mutable_sum = xn::name(a, {"y", "x"}) + xn::name(u, {"y"});
    auto const_sum = xn::name(const_a, {"y", "x"}) + xn::name(const_u, {"y"});
    using expression_type = typename decltype(mutable_sum)::expression_type;
    EXPECT_TRUE((std::is_same<expression_type, typename decltype(const_sum)::expression_type>::value));
    using mutable_exp = typename decltype(xn::exp(xn::name(a, {"y", "x"})))::expression_type;
    using const_exp = typename decltype(xn::exp(xn::name(const_a, {"y", "x"})))::expression_type;
    EXPECT_TRUE((std::is_same<mutable_exp, const_exp>::value));

    const xn::detail::axis_map swap = {1, 0};
    using realigned_type =
        decltype(xn::detail::readonly_aligned_view(std::declval<const expression_type&>(), swap));
    EXPECT_TRUE((std::is_same<realigned_type, expression_type>::value));

    xt::xtensor<double, 2> out = xt::zeros<double>({3, 2});
    auto named_out = xn::name(out, {"x", "y"});
    xn::assign(named_out, mutable_sum);
    EXPECT_EQ(out, (xt::xtensor<double, 2>{{11., 24.}, {12., 25.}, {13., 26.}}));
    // Reading them did not make the operands read-only: they are still the user's to change.
    a(0, 0) = 100.;
    EXPECT_EQ(xn::eval(const_sum).expression()(0, 0), 110.);
}

TEST(named_composition, a_tree_with_scalars_viewed_again_keeps_its_type)
{
    // A scalar in a tree is held by value in its view as in the tree itself: a view of the expression in
    // another axis order (xn::assign's, where the kernels do not write the output) evaluates through the
    // expression's own loops, not through a second copy of them for a scalar held by reference.
    xt::xtensor<double, 2> a = {{1., 2., 3.}, {4., 5., 6.}};
    xt::xtensor<double, 1> u = {2., 5.};
    const auto na = xn::name(a, {"y", "x"});
    const auto nu = xn::name(u, {"y"});
    const auto clipped = xn::where(na > nu, na, 0.0);
    const auto scaled = (na - nu) * 2.0;
    using clipped_type = typename std::decay_t<decltype(clipped)>::expression_type;
    using scaled_type = typename std::decay_t<decltype(scaled)>::expression_type;
    const xn::detail::axis_map swap = {1, 0};
    using clipped_view =
        decltype(xn::detail::readonly_aligned_view(std::declval<const clipped_type&>(), swap));
    using scaled_view = decltype(xn::detail::readonly_aligned_view(std::declval<const scaled_type&>(), swap));
    EXPECT_TRUE((std::is_same<clipped_view, clipped_type>::value));
    EXPECT_TRUE((std::is_same<scaled_view, scaled_type>::value));

    xt::xtensor<double, 2> out = xt::zeros<double>({3, 2});
    auto named_out = xn::name(out, {"x", "y"});
    xn::assign(named_out, clipped);
    EXPECT_EQ(out, (xt::xtensor<double, 2>{{0., 0.}, {0., 0.}, {3., 6.}}));
    xn::assign(named_out, scaled);
    EXPECT_EQ(out, (xt::xtensor<double, 2>{{-2., -2.}, {0., 0.}, {2., 2.}}));
}

TEST(named_composition, operations_on_results_view_reduction_temporaries_once)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    // e reads the temporary of the maximum; the softmax views e's leaves, and so that temporary, again.
    const auto e = xn::exp(nx - xn::amax(nx, "c"));
    const auto softmax = e / xn::sum(e, "c");
    using e_type = typename std::decay_t<decltype(e)>::expression_type;
    using softmax_type = typename std::decay_t<decltype(softmax)>::expression_type;
    EXPECT_TRUE(views_operands_directly<e_type>::value);
    EXPECT_TRUE(views_operands_directly<softmax_type>::value);

    // The reductions evaluated first: xtensor's lazy reducer with keep_dims broadcasts wrongly.
    const xt::xarray<double> max_v = xt::amax(o.x, {1}, xt::keep_dims);
    const xt::xarray<double> e_v = xt::exp(o.x - max_v);
    const xt::xarray<double> sum_v = xt::sum(e_v, {1}, xt::keep_dims);
    const xt::xarray<double> softmax_v = e_v / sum_v;
    expect_composes(softmax, {"n", "c", "h", "w"}, softmax_v, 4);
    expect_composes(e, {"n", "c", "h", "w"}, e_v, 4);
    // Assigned in another axis order: the expression viewed once more, its temporaries shared.
    xt::xarray<double> out = xt::zeros<double>({5, 4, 3, 2});
    auto named_out = xn::name(out, {"w", "h", "c", "n"});
    xn::assign(named_out, softmax);
    EXPECT_TRUE(same_values(out, xt::xarray<double>(xt::transpose(softmax_v)), 4));
}

TEST(named_composition, a_result_with_its_axes_in_place_is_read_as_it_is_and_stretched_where_it_has_size_one)
{
    operands o;
    using stretching = xn::basic_missing_dims<true>;
    const xt::xarray<double> one_c = values({2, 1, 4, 5}, 12);
    auto nx = xn::name<stretching>(o.x, {"n", "c", "h", "w"});
    auto nm = xn::name<stretching>(o.channel_view(), {"c"});
    auto n1 = xn::name<stretching>(one_c, {"n", "c", "h", "w"});
    auto nr = xn::name<stretching>(o.rows, {"n", "h", "w"});
    // thin is (n, c, h, w) of shape (2, 1, 4, 5): its axes are in place below, but its channel axis is
    // stretched to 3 there, where nx - nm, of the result's shape, is read as it is.
    const auto thin = n1 - nr;
    auto e = (nx - nm) * (n1 - nr) + thin;

    const xt::xarray<double> m = o.channel_view();
    const auto m4 = xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    const auto r4 = xt::view(o.rows, xt::all(), xt::newaxis(), xt::all(), xt::all());
    const xt::xarray<double> thin_v = one_c - r4;
    expect_composes(e, {"n", "c", "h", "w"}, (o.x - m4) * thin_v + thin_v);
    expect_composes(thin, {"n", "c", "h", "w"}, thin_v);
    EXPECT_EQ(thin.shape(), (xt::svector<std::size_t>{2, 1, 4, 5}));
}

TEST(named_composition, exact_composes_operands_of_equal_axes)
{
    operands o;
    const xt::xarray<double> y = values({2, 3, 4, 5}, 10);
    const xt::xarray<double> big = values({2, 3, 4, 7}, 11);
    auto nx = xn::name<xn::exact>(o.x, {"n", "c", "h", "w"});
    auto ny = xn::name<xn::exact>(y, {"n", "c", "h", "w"});
    auto view = xn::name<xn::exact>(xt::view(big, xt::all(), xt::all(), xt::all(), xt::range(1, 6)),
                                    {"n", "c", "h", "w"});
    auto lazy = xn::name<xn::exact>(o.x * y, {"n", "c", "h", "w"});
    auto e = ((nx + ny) * view - lazy) / (nx - 7.0);

    const auto v = xt::view(big, xt::all(), xt::all(), xt::all(), xt::range(1, 6));
    expect_composes(e, {"n", "c", "h", "w"}, ((o.x + y) * v - o.x * y) / (o.x - 7.0));
}

TEST(named_composition, transposed_and_aligned_lazy_expressions_push_their_views_to_the_leaves)
{
    operands o;
    // Stretching size-1 axes, so that align_to's inserted axes line up.
    using stretching = xn::basic_missing_dims<true>;
    auto nx = xn::name<stretching>(o.x, {"n", "c", "h", "w"});
    auto nm = xn::name<stretching>(o.channel_view(), {"c"});
    // The lazy (n, c, h, w) expression seen as (w, h, c, n), then inserted axes by align_to.
    auto t = ((nx - nm) * 2.0).transpose();
    auto aligned = (nm + 1.0).align_to({"n", "c", "h", "w"});
    auto e = t * t.transpose({"n", "c", "h", "w"}).transpose() + aligned.transpose();

    const xt::xarray<double> m = o.channel_view();
    const auto m4 = xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    const xt::xarray<double> inner = (o.x - m4) * 2.0;
    const auto m_t = xt::view(m + 1.0, xt::newaxis(), xt::newaxis(), xt::all(), xt::newaxis());
    expect_composes(e, {"w", "h", "c", "n"}, xt::transpose(inner) * xt::transpose(inner) + m_t);
}

TEST(named_composition, explicit_broadcasts_of_lazy_expressions_compose)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    auto spread =
        xn::name(xn::broadcast(o.channel_view() * 3.0, {2, 3, 4, 5}, {0, 2, 3}), {"n", "c", "h", "w"});
    auto e = (nx - spread) * (spread + nx) - 1.0;

    const xt::xarray<double> m = o.channel_view() * 3.0;
    const auto m4 = xt::view(m, xt::newaxis(), xt::all(), xt::newaxis(), xt::newaxis());
    expect_composes(e, {"n", "c", "h", "w"}, (o.x - m4) * (m4 + o.x) - 1.0);
}

/******************************************************************************
 * reductions inside operations: evaluated once, when the operation first is  *
 ******************************************************************************/

TEST(named_composition, a_reduction_inside_an_operation_is_evaluated_once_when_the_operation_first_is)
{
    operands o;
    xt::xarray<double> x = o.x;
    auto nx = xn::name(x, {"n", "c", "h", "w"});
    auto centred = nx - xn::amax(nx, {"c"});
    static_assert(xn::detail::is_viewable_tree_v<decltype(centred)::expression_type>,
                  "the reduction is held as a temporary, a strided leaf");

    // A write after the operation was built and before it is evaluated reaches the maximum too: nothing
    // was computed yet.
    x(0, 1, 0, 0) = 1e6;
    const xt::xarray<double> max_c = xt::amax(x, {1});
    const xt::xarray<double> expected = x - xt::view(max_c, xt::all(), xt::newaxis(), xt::all(), xt::all());
    EXPECT_TRUE(same_bits(xn::eval(centred).expression(), expected));

    // A write after the first evaluation reaches the elementwise part, not the evaluated maximum.
    x(0, 0, 0, 0) = 2e6;
    xt::xarray<double> after = expected;
    after(0, 0, 0, 0) = 2e6 - max_c(0, 0, 0);
    EXPECT_TRUE(same_bits(xn::eval(centred).expression(), after));
}

TEST(named_composition, every_reader_of_an_operation_finds_its_reduction_computed)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    const xt::xarray<double> max_c = xt::amax(o.x, {1});
    const xt::xarray<double> expected = o.x - xt::view(max_c, xt::all(), xt::newaxis(), xt::all(), xt::all());

    // An element read before any evaluation.
    const auto first = nx - xn::amax(nx, {"c"});
    EXPECT_EQ(first.expression()(1, 2, 3, 4), expected(1, 2, 3, 4));
    // xtensor's own assignment of the expression.
    const auto second = nx - xn::amax(nx, {"c"});
    const xt::xarray<double> through_xtensor = second.expression();
    EXPECT_TRUE(same_bits(through_xtensor, expected));
    // Label alignment, which reads the operand's memory: a union join with an operand of other labels.
    const auto labelled = xn::name(o.x, {"n", "c", "h", "w"}, {{"w", {0, 1, 2, 3, 4}}});
    const auto shifted = xn::name(o.x, {"n", "c", "h", "w"}, {{"w", {1, 2, 3, 4, 5}}});
    const auto joined = xn::eval(xn::apply<xn::missing_dims, xn::join_outer>(
        std::plus<>(), labelled - xn::amax(labelled, {"c"}), shifted));
    EXPECT_EQ(joined.shape(), (std::vector<std::size_t>{2, 3, 4, 6}));
    EXPECT_EQ(joined.expression()(1, 2, 3, 1), expected(1, 2, 3, 1) + o.x(1, 2, 3, 0));
}

TEST(named_composition, reductions_inside_an_operation_are_computed_with_its_rows_as_a_whole_computes_them)
{
    // Large enough for many blocks of rows: each block of the maximum, mean and sums is computed just
    // before the rows of the operation that read it, and gives the bits of a whole evaluation.
    const shape_t shape{64, 3, 48, 64};
    xt::xarray<double> x = values(shape, 11);
    x(5, 1, 7, 9) = std::numeric_limits<double>::quiet_NaN();
    x(40, 0, 0, 0) = std::numeric_limits<double>::quiet_NaN();
    auto nx = xn::name(x, {"n", "c", "h", "w"});
    const auto whole = [](const auto& named_reduction) { return xn::eval(named_reduction).expression(); };

    const xt::xarray<double> max_c = whole(xn::amax(nx, {"c"}));
    EXPECT_TRUE(same_bits(xn::eval(nx - xn::amax(nx, {"c"})).expression(),
                          x - xt::view(max_c, xt::all(), xt::newaxis(), xt::all(), xt::all())));

    const xt::xarray<double> image_mean = whole(xn::mean(nx, {"c", "h", "w"}));
    EXPECT_TRUE(
        same_bits(xn::eval((nx - xn::mean(nx, {"c", "h", "w"})) * 2.0).expression(),
                  (x - xt::view(image_mean, xt::all(), xt::newaxis(), xt::newaxis(), xt::newaxis())) * 2.0));

    // nanmean divides two sums, each computed block by block.
    const xt::xarray<double> row_mean = whole(xn::nanmean(nx, {"w"}));
    EXPECT_TRUE(same_bits(xn::eval(nx - xn::nanmean(nx, {"w"})).expression(),
                          x - xt::view(row_mean, xt::all(), xt::all(), xt::all(), xt::newaxis())));
    // The reference loop of one row with its NaN: the mean of the 63 numbers.
    double total = 0;
    for (std::size_t w = 0; w < 64; ++w)
    {
        total += w == 9 ? 0.0 : x(5, 1, 7, w);
    }
    EXPECT_NEAR(row_mean(5, 1, 7), total / 63, 1e-12 * std::abs(total));

    // The two views of the operation's result agree: the kernels' and xtensor's.
    const auto centred = nx - xn::nanmean(nx, {"w"});
    const xt::xarray<double> through_xtensor = centred.expression();
    EXPECT_TRUE(same_bits(xn::eval(nx - xn::nanmean(nx, {"w"})).expression(), through_xtensor));
}

namespace
{
    /// A deferred temporary's rows, element (r, k) = r + k / 64, that counts the rows it computes.
    class counted_rows final : public xn::detail::deferred_evaluation<double>
    {
    public:
        counted_rows(std::size_t row_elements, std::atomic<std::size_t>& computed)
            : m_row_elements(row_elements), m_computed(computed)
        {
        }

        static double value(std::size_t r, std::size_t k)
        {
            return static_cast<double>(r) + static_cast<double>(k) / 64;
        }

        void compute(double* rows, std::size_t first, std::size_t last) const override
        {
            for (std::size_t r = first; r < last; ++r)
            {
                for (std::size_t k = 0; k < m_row_elements; ++k)
                {
                    rows[(r - first) * m_row_elements + k] = value(r, k);
                }
            }
            m_computed += last - first;
        }

        bool by_rows() const noexcept override
        {
            return true;
        }

        std::size_t input_bytes() const noexcept override
        {
            return 0;
        }

        bool reads(const void*, std::size_t, const xn::detail::memory_span&) const noexcept override
        {
            return false;
        }

    private:
        std::size_t m_row_elements;
        std::atomic<std::size_t>& m_computed;
    };
} // namespace

TEST(named_composition, a_temporary_that_a_reduction_of_the_same_block_reads_is_computed_once)
{
    // x / sum(x over c), x a deferred temporary (as a softmax's maximum is): the sum, computed for each
    // block, reads the rows of x that the block computed, and computes none again. Large enough for
    // many blocks of rows.
    const shape_t shape{64, 3, 32, 32};
    const std::size_t row_elements = 3 * 32 * 32;
    std::atomic<std::size_t> computed{0};
    using container = xn::detail::deferred_container<double, shape_t>::type;
    auto state = std::make_shared<const xn::detail::deferred_state<double>>(
        shape, std::make_unique<const counted_rows>(row_elements, computed));
    const container x(xn::detail::deferred_buffer<double>(std::move(state)), shape);
    auto nx = xn::name(x, {"n", "c", "h", "w"});

    const auto shares = xn::eval(nx / xn::sum(nx, {"c"}));
    EXPECT_EQ(computed.load(), shape[0]);

    // The reference loop, with the sum in the order of c.
    for (std::size_t n : {0, 17, 63})
    {
        for (std::size_t h : {0, 31})
        {
            for (std::size_t w : {0, 5, 31})
            {
                double total = 0;
                for (std::size_t c = 0; c < 3; ++c)
                {
                    total += counted_rows::value(n, (c * 32 + h) * 32 + w);
                }
                for (std::size_t c = 0; c < 3; ++c)
                {
                    EXPECT_EQ(shares.expression()(n, c, h, w),
                              counted_rows::value(n, (c * 32 + h) * 32 + w) / total);
                }
            }
        }
    }
}

namespace
{
    /// x - mean(x, d) by a plain loop, x of shape (outer..., 2, inner) with d the axis of 2: each mean is
    /// (x0 + x1) / 2 in the mean's type, as a sum of two terms is exact in any order.
    template <class M, class X>
    xt::xarray<M> centred_over_two(const xt::xarray<X>& x)
    {
        const std::size_t inner = x.shape().back();
        const std::size_t outer = x.size() / (2 * inner);
        xt::xarray<M> out = xt::xarray<M>::from_shape(x.shape());
        for (std::size_t o = 0; o < outer; ++o)
        {
            for (std::size_t e = 0; e < inner; ++e)
            {
                const X* first = x.data() + o * 2 * inner + e;
                const M mean = (static_cast<M>(first[0]) + static_cast<M>(first[inner])) / M(2);
                out.data()[o * 2 * inner + e] = static_cast<M>(first[0]) - mean;
                out.data()[o * 2 * inner + inner + e] = static_cast<M>(first[inner]) - mean;
            }
        }
        return out;
    }

    template <class X, class M>
    void expect_centred_over_two(const xt::xarray<X>& x)
    {
        const std::vector<std::string> all{"a", "b", "c", "d", "e"};
        const xn::dims dims(
            std::vector<std::string>(all.end() - static_cast<std::ptrdiff_t>(x.dimension()), all.end()));
        const auto nx = xn::name(x, dims);
        const auto centred = xn::eval(nx - xn::mean(nx, {"d"}));
        EXPECT_EQ(centred.dims(), dims);
        static_assert(
            std::is_same<typename std::decay_t<decltype(centred.expression())>::value_type, M>::value,
            "the mean of X is of type M");
        EXPECT_TRUE(same_bits(centred.expression(), centred_over_two<M>(x)));
    }
} // namespace

// A mean read by an operation is one temporary, its sums divided in place once (kernel_finish), before
// the operation reads it: every rank, runs of 1 to 33 elements, short arrays (xtensor's sum) and long
// ones (the kernels', by blocks), floats, doubles and integers (a mean in double).
TEST(named_composition, a_mean_read_by_an_operation_is_the_loops_mean)
{
    for (std::size_t rank = 2; rank <= 5; ++rank)
    {
        for (std::size_t inner : {1, 3, 16, 17, 32, 33})
        {
            shape_t shape{7, 5, 6};
            shape.resize(rank - 2);
            shape.push_back(2);
            shape.push_back(inner);
            SCOPED_TRACE(::testing::Message() << "rank " << rank << ", inner " << inner);
            const xt::xarray<double> x = values(shape, 13);
            expect_centred_over_two<double, double>(x);
            expect_centred_over_two<float, float>(xt::xarray<float>(x));
            expect_centred_over_two<int, double>(xt::xarray<int>(x * 1000.0));
        }
    }
    // The mean of everything: a temporary of rank 0.
    const xt::xarray<float> x = values({64, 33}, 14);
    const auto nx = xn::name(x, {"i", "j"});
    const auto centred = xn::eval(nx - xn::mean(nx));
    const float mean = xn::eval(xn::mean(nx)).expression()();
    EXPECT_TRUE(same_bits(centred.expression(), xt::xarray<float>(x - mean)));
}

TEST(named_composition, threads_that_evaluate_copies_of_an_operation_at_once_read_one_reduction)
{
    const shape_t shape{32, 3, 32, 64};
    const xt::xarray<double> x = values(shape, 12);
    auto nx = xn::name(x, {"n", "c", "h", "w"});
    const xt::xarray<double> mean_c = xn::eval(xn::mean(nx, {"h", "w"})).expression();
    const xt::xarray<double> expected =
        x - xt::view(mean_c, xt::all(), xt::all(), xt::newaxis(), xt::newaxis());
    for (int round = 0; round < 4; ++round)
    {
        const auto centred = nx - xn::mean(nx, {"h", "w"});
        std::array<xt::xarray<double>, 2> results;
        std::thread other([&] { results[1] = xn::eval(centred).expression(); });
        const auto copy = centred;
        results[0] = xn::eval(copy).expression();
        other.join();
        EXPECT_TRUE(same_bits(results[0], expected));
        EXPECT_TRUE(same_bits(results[1], expected));
    }
}

TEST(named_composition, copies_of_an_operation_share_its_evaluated_reduction_and_outlive_it)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    const xt::xarray<double> max_c = xt::amax(o.x, {1});
    const xt::xarray<double> expected = o.x - xt::view(max_c, xt::all(), xt::newaxis(), xt::all(), xt::all());

    auto original = std::make_optional(nx - xn::amax(nx, {"c"}));
    const auto copy = *original;
    // The maximum was evaluated once: the copy reads the very same elements, not a copy of them.
    EXPECT_EQ(std::get<1>(copy.expression().arguments()).data(),
              std::get<1>(original->expression().arguments()).data());
    // And keeps them alive once the original is gone (AddressSanitizer sees a read of freed memory).
    original.reset();
    EXPECT_TRUE(same_bits(xn::eval(copy).expression(), expected));
}

TEST(named_composition, softmax_over_a_named_axis_matches_a_reference_loop)
{
    operands o;
    auto nx = xn::name(o.x, {"n", "c", "h", "w"});
    auto e = xn::exp(nx - xn::amax(nx, {"c"}));
    auto softmax = xn::eval(e / xn::sum(e, {"c"}));
    EXPECT_EQ(softmax.dims(), (xn::dims{"n", "c", "h", "w"}));

    // The reference: max, exponentials and sum over c, one pixel at a time, with std::exp.
    for (std::size_t n = 0; n < 2; ++n)
    {
        for (std::size_t h = 0; h < 4; ++h)
        {
            for (std::size_t w = 0; w < 5; ++w)
            {
                double top = -INFINITY;
                for (std::size_t c = 0; c < 3; ++c)
                {
                    top = std::max(top, o.x(n, c, h, w));
                }
                double total = 0;
                for (std::size_t c = 0; c < 3; ++c)
                {
                    total += std::exp(o.x(n, c, h, w) - top);
                }
                for (std::size_t c = 0; c < 3; ++c)
                {
                    const double expected = std::exp(o.x(n, c, h, w) - top) / total;
                    EXPECT_NEAR(softmax.expression()(n, c, h, w), expected, 1e-15);
                }
            }
        }
    }
}

TEST(named_composition, plain_reductions_as_operands_are_evaluated_too)
{
    operands o;
    auto nx = xn::name<xn::numpy>(o.x, {"n", "c", "h", "w"});
    // A plain xtensor reducer (over h and w, kept as size 1) lines up by position.
    auto e = (nx - xt::mean(o.x, {2, 3}, xt::keep_dims)) * 2.0 + nx;
    static_assert(xn::detail::is_viewable_tree_v<decltype(e)::expression_type>, "evaluated into a leaf");
    // The mean is summed along the innermost axes, lane by lane where the kernels run: the oracle
    // takes it as evaluated in this build, and checks the exact arithmetic around it.
    const xt::xarray<double> mean = xn::eval(xt::mean(o.x, {2, 3}, xt::keep_dims));
    expect_composes(e, {"n", "c", "h", "w"}, (o.x - mean) * 2.0 + o.x);
}
