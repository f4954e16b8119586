/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xadjoint.hpp>
#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xexplicit_broadcast.hpp>

#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    using sizes = std::vector<std::size_t>;
    using axes = std::vector<std::int64_t>;

    xt::xarray<double> make_array(const std::vector<std::int64_t>& shape, const std::vector<double>& values)
    {
        const sizes s(shape.begin(), shape.end());
        xt::xarray<double> result = xt::zeros<double>(s);
        EXPECT_EQ(result.size(), values.size());
        std::copy(values.begin(), values.end(), result.begin());
        return result;
    }

    template <class E>
    sizes shape_vector(const E& e)
    {
        return sizes(e.shape().begin(), e.shape().end());
    }

    std::vector<fixtures::fixture_case> cases_of(const std::string& kind)
    {
        std::vector<fixtures::fixture_case> result;
        for (const auto& c : fixtures::read("broadcasts_adjoint.txt"))
        {
            if (c.string("kind") == kind)
            {
                result.push_back(c);
            }
        }
        return result;
    }

    /// Expects `actual` (any xtensor expression) to have `shape` and, value by value, `expected` up to
    /// a rounding bound: the adjoint sums may add in another order than numpy.
    template <class E>
    void expect_values_near(const E& actual, const std::vector<std::int64_t>& shape,
                            const std::vector<double>& expected)
    {
        const xt::xarray<double> evaluated = actual;
        ASSERT_EQ(shape_vector(evaluated), sizes(shape.begin(), shape.end()));
        ASSERT_EQ(evaluated.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            EXPECT_NEAR(evaluated.flat(i), expected[i], 1e-12 * (1. + std::abs(expected[i])) * 64.)
                << "at " << i;
        }
    }

    /// Whether the fixture gradient `g` can be summed by xtensor: xtensor 0.24.3's reducers offset the
    /// null data pointer of an empty container (undefined behaviour that UBSan reports), so the sums of
    /// an empty gradient are checked for their shape only.
    bool summable(const xt::xarray<double>& g)
    {
        return g.size() != 0;
    }

    /// <a, b>, the inner product of two arrays of one shape.
    double dot(const xt::xarray<double>& a, const xt::xarray<double>& b)
    {
        EXPECT_EQ(shape_vector(a), shape_vector(b));
        double sum = 0.;
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        {
            sum += a.flat(i) * b.flat(i);
        }
        return sum;
    }

    /// The bound on |<a, b> - <c, d>| from rounding: the sum of the magnitudes of all the terms.
    double rounding_bound(const xt::xarray<double>& a, const xt::xarray<double>& b)
    {
        double magnitude = 0.;
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        {
            magnitude += std::abs(a.flat(i) * b.flat(i));
        }
        return 1e-13 * (1. + magnitude);
    }

    class random_cases
    {
    public:
        explicit random_cases(unsigned seed) : m_engine(seed) {}

        std::size_t below(std::size_t n)
        {
            return std::uniform_int_distribution<std::size_t>(0, n - 1)(m_engine);
        }

        bool chance(double p)
        {
            return std::bernoulli_distribution(p)(m_engine);
        }

        /// Rank 0..4, sizes 1..3: no empty arrays, which xtensor 0.24.3 cannot sum (see summable).
        sizes shape()
        {
            sizes result(below(5));
            for (auto& s : result)
            {
                s = 1 + below(3);
            }
            return result;
        }

        xt::xarray<double> values(const sizes& shape)
        {
            xt::xarray<double> result = xt::zeros<double>(shape);
            std::uniform_real_distribution<double> value(-1., 1.);
            for (auto& v : result)
            {
                v = value(m_engine);
            }
            return result;
        }

        /// Some of the axes 0..rank-1, in increasing order.
        sizes subset(std::size_t rank)
        {
            sizes result;
            for (std::size_t i = 0; i < rank; ++i)
            {
                if (chance(0.5))
                {
                    result.push_back(i);
                }
            }
            return result;
        }

        template <class T>
        void shuffle(std::vector<T>& v)
        {
            std::shuffle(v.begin(), v.end(), m_engine);
        }

    private:
        std::mt19937 m_engine;
    };

    /// A shape that numpy broadcasts to `target`: a suffix, some sizes replaced by 1.
    sizes source_of(random_cases& random, const sizes& target)
    {
        const std::size_t rank = random.below(target.size() + 1);
        sizes result(target.end() - static_cast<std::ptrdiff_t>(rank), target.end());
        for (auto& s : result)
        {
            s = random.chance(0.35) ? 1 : s;
        }
        return result;
    }

    /// The gradient of sum(sin(broadcast(x))) at `x` by central differences, one element at a time.
    template <class F>
    xt::xarray<double> finite_difference_gradient(const F& loss, const xt::xarray<double>& x)
    {
        constexpr double h = 1e-6;
        xt::xarray<double> gradient = xt::zeros<double>(x.shape());
        for (std::size_t i = 0; i < x.size(); ++i)
        {
            xt::xarray<double> up = x;
            xt::xarray<double> down = x;
            up.flat(i) += h;
            down.flat(i) -= h;
            gradient.flat(i) = (loss(up) - loss(down)) / (2. * h);
        }
        return gradient;
    }

    void expect_gradients_near(const xt::xarray<double>& adjoint, const xt::xarray<double>& finite)
    {
        ASSERT_EQ(shape_vector(adjoint), shape_vector(finite));
        for (std::size_t i = 0; i < adjoint.size(); ++i)
        {
            EXPECT_NEAR(adjoint.flat(i), finite.flat(i), 1e-6 * (1. + std::abs(finite.flat(i))))
                << "at " << i;
        }
    }
} // namespace

// nGraph, verbatim: the backprop of Broadcast is Sum(delta, broadcast_axes)
// =========================================================================

TEST(seed_004, backprop_of_broadcast_with_axis_set_0_sums_the_rows)
{
    // Broadcast(arg, Shape{2, 3}, AxisSet{0}); arg_bar <- Sum(delta, {0})
    const xt::xarray<double> delta = {{1., 2., 3.}, {4., 5., 6.}};
    const xt::xarray<double> arg_bar = xn::reduce_broadcast_axes(delta, {0});
    EXPECT_EQ(arg_bar, (xt::xarray<double>{5., 7., 9.}));
}

TEST(seed_004, backprop_of_broadcast_with_axis_set_1_sums_each_row)
{
    // Broadcast(arg, Shape{3, 2}, AxisSet{1}); arg_bar <- Sum(delta, {1})
    const xt::xarray<double> delta = {{1., 2.}, {3., 4.}, {5., 6.}};
    const xt::xarray<double> arg_bar = xn::reduce_broadcast_axes(delta, {1});
    EXPECT_EQ(arg_bar, (xt::xarray<double>{3., 7., 11.}));
}

// Against numpy
// =============

TEST(sum_to, matches_numpy_sums_over_added_and_stretched_axes)
{
    const auto cases = cases_of("sum_to");
    ASSERT_GT(cases.size(), 200u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto g = make_array(c.ints("grad_shape"), c.doubles("grad"));
        if (c.ints("ok").front() == 1 && !summable(g))
        {
            const auto shape = c.ints("shape");
            EXPECT_EQ(shape_vector(xn::sum_to(g, shape)), sizes(shape.begin(), shape.end()));
        }
        else if (c.ints("ok").front() == 1)
        {
            expect_values_near(xn::sum_to(g, c.ints("shape")), c.ints("shape"), c.doubles("expected"));
        }
        else
        {
            EXPECT_THROW((void)xn::sum_to(g, c.ints("shape")), xn::broadcast_error);
        }
    }
}

TEST(reduce_broadcast_axes, matches_numpy_sum_over_axes)
{
    const auto cases = cases_of("reduce_axes");
    ASSERT_GT(cases.size(), 100u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto g = make_array(c.ints("grad_shape"), c.doubles("grad"));
        const auto reduced = c.ints("axes");
        std::vector<std::int64_t> shape;
        const auto grad_shape = c.ints("grad_shape");
        for (std::size_t i = 0; i < grad_shape.size(); ++i)
        {
            if (std::find(reduced.begin(), reduced.end(), static_cast<std::int64_t>(i)) == reduced.end())
            {
                shape.push_back(grad_shape[i]);
            }
        }
        if (!summable(g))
        {
            EXPECT_EQ(shape_vector(xn::reduce_broadcast_axes(g, reduced)), sizes(shape.begin(), shape.end()));
            continue;
        }
        expect_values_near(xn::reduce_broadcast_axes(g, reduced), shape, c.doubles("expected"));
    }
}

TEST(sum_in_dim, matches_numpy_sums_over_unmapped_and_stretched_axes)
{
    const auto cases = cases_of("sum_in_dim");
    ASSERT_GT(cases.size(), 100u);
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto g = make_array(c.ints("grad_shape"), c.doubles("grad"));
        const auto shape = c.ints("shape");
        if (!summable(g))
        {
            EXPECT_EQ(shape_vector(xn::sum_in_dim(g, shape, c.ints("mapping"))),
                      sizes(shape.begin(), shape.end()));
            continue;
        }
        expect_values_near(xn::sum_in_dim(g, shape, c.ints("mapping")), shape, c.doubles("expected"));
    }
}

TEST(broadcast_gradient_axes, matches_every_filling_of_the_unknown_sizes)
{
    const auto cases = cases_of("gradient_axes");
    ASSERT_GT(cases.size(), 500u);
    std::size_t statuses[3] = {0, 0, 0};
    for (const auto& c : cases)
    {
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        const auto a = xn::partial_shape::of(c.ints("a"));
        const auto b = xn::partial_shape::of(c.ints("b"));
        const auto& status = c.string("status");
        if (status == "ok")
        {
            ++statuses[0];
            const auto [ra, rb] = xn::broadcast_gradient_axes(a, b);
            EXPECT_EQ(ra, c.ints("ra"));
            EXPECT_EQ(rb, c.ints("rb"));
        }
        else if (status == "broadcast_error")
        {
            ++statuses[1];
            EXPECT_EQ(
                xn_test::thrown_message<xn::broadcast_error>([&] { (void)xn::broadcast_gradient_axes(a, b); })
                    .rfind("xn::broadcast_gradient_axes: the shapes ", 0),
                0u);
        }
        else
        {
            ++statuses[2];
            EXPECT_EQ(
                xn_test::thrown_message<xn::shape_error>([&] { (void)xn::broadcast_gradient_axes(a, b); })
                    .rfind("xn::broadcast_gradient_axes: cannot decide whether the gradient of operand ", 0),
                0u);
        }
    }
    // Every outcome is exercised.
    EXPECT_GT(statuses[0], 100u);
    EXPECT_GT(statuses[1], 5u);
    EXPECT_GT(statuses[2], 50u);
}

TEST(adjoints, evaluate_through_xn_eval_and_xn_assign_to_numpys_values)
{
    // xn::eval and xn::assign take the lazy adjoints (through the library's kernels where they
    // cover them).
    std::size_t checked = 0;
    for (const auto& c : cases_of("sum_to"))
    {
        const auto g = make_array(c.ints("grad_shape"), c.doubles("grad"));
        if (c.ints("ok").front() != 1 || !summable(g))
        {
            continue;
        }
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        expect_values_near(xn::eval(xn::sum_to(g, c.ints("shape"))), c.ints("shape"), c.doubles("expected"));
        xt::xarray<double> out = xt::zeros<double>({7});
        xn::assign(out, xn::sum_to(g, c.ints("shape")));
        expect_values_near(out, c.ints("shape"), c.doubles("expected"));
        ++checked;
    }
    for (const auto& c : cases_of("sum_in_dim"))
    {
        const auto g = make_array(c.ints("grad_shape"), c.doubles("grad"));
        if (!summable(g))
        {
            continue;
        }
        SCOPED_TRACE("fixture line " + std::to_string(c.line));
        expect_values_near(xn::eval(xn::sum_in_dim(g, c.ints("shape"), c.ints("mapping"))), c.ints("shape"),
                           c.doubles("expected"));
        ++checked;
    }
    EXPECT_GT(checked, 300u);
}

// broadcast_gradient_axes: TensorFlow's examples and rules
// ========================================================

TEST(broadcast_gradient_axes, sums_the_missing_and_the_stretched_axes)
{
    // TensorFlow's BroadcastGradientArgs([2, 3, 5], [1]) = ([], [0, 1, 2]).
    const auto [ra, rb] =
        xn::broadcast_gradient_axes(xn::partial_shape::of({2, 3, 5}), xn::partial_shape::of({1}));
    EXPECT_EQ(ra, axes{});
    EXPECT_EQ(rb, (axes{0, 1, 2}));
    const auto [sa, sb] =
        xn::broadcast_gradient_axes(xn::partial_shape::of({2, 1, 5}), xn::partial_shape::of({3, 1}));
    EXPECT_EQ(sa, (axes{1}));
    EXPECT_EQ(sb, (axes{0, 2}));
}

TEST(broadcast_gradient_axes, sums_no_axis_where_every_operand_has_size_1)
{
    const auto [ra, rb] =
        xn::broadcast_gradient_axes(xn::partial_shape::of({1, 3}), xn::partial_shape::of({1, 1}));
    EXPECT_EQ(ra, axes{});
    EXPECT_EQ(rb, (axes{1}));
}

TEST(broadcast_gradient_axes, answers_where_unknown_sizes_do_not_matter)
{
    // An unknown size against a missing axis is the result's size: no sum either way; a missing axis is
    // summed whatever the sizes; a size-1 axis against a known size other than 1 is summed.
    const auto [ra, rb] = xn::broadcast_gradient_axes(xn::partial_shape::of({xn::unknown, 4, 1}),
                                                      xn::partial_shape::of({4, 5}));
    EXPECT_EQ(ra, (axes{2}));
    EXPECT_EQ(rb, (axes{0}));
}

TEST(broadcast_gradient_axes, refuses_to_guess_where_an_unknown_size_decides)
{
    XN_EXPECT_THROW_MSG(
        xn::broadcast_gradient_axes(xn::partial_shape::of({xn::unknown, 3}), xn::partial_shape::of({4, 3})),
        xn::shape_error,
        "xn::broadcast_gradient_axes: cannot decide whether the gradient of operand 0 sums over "
        "result axis 0 for the shapes (?, 3) and (4, 3): operand 0 has size ? at its axis 0 and "
        "operand 1 has size 4 there; it sums when its size is 1 and the result's is not");
    XN_EXPECT_THROW_MSG(
        xn::broadcast_gradient_axes(xn::partial_shape::of({1}), xn::partial_shape::of({xn::unknown})),
        xn::shape_error,
        "xn::broadcast_gradient_axes: cannot decide whether the gradient of operand 0 sums over "
        "result axis 0 for the shapes (1) and (?): operand 0 has size 1 at its axis 0 and operand 1 "
        "has size ? there; it sums when its size is 1 and the result's is not");
}

TEST(broadcast_gradient_axes, refuses_an_unknown_rank)
{
    XN_EXPECT_THROW_MSG(xn::broadcast_gradient_axes(xn::partial_shape::of({2}), xn::partial_shape::unknown()),
                        xn::shape_error,
                        "xn::broadcast_gradient_axes: cannot decide the gradient axes of the shapes (2) and "
                        "<unknown>: operand 1 has an unknown rank");
}

TEST(broadcast_gradient_axes, refuses_shapes_that_do_not_broadcast)
{
    XN_EXPECT_THROW_HAS(
        xn::broadcast_gradient_axes(xn::partial_shape::of({2, 3}), xn::partial_shape::of({4})),
        xn::broadcast_error,
        {"xn::broadcast_gradient_axes: the shapes (2, 3) and (4) do not broadcast together: ", "axis 1",
         "size 3", "size 4"});
}

TEST(broadcast_gradient_axes, agrees_with_sum_to)
{
    // Summing the gradient over the axes it names, then dropping the leading ones, is sum_to.
    const xt::xarray<double> g = {{{1., 2.}, {3., 4.}, {5., 6.}}};
    const auto [ra, rb] =
        xn::broadcast_gradient_axes(xn::partial_shape::of({3, 1}), xn::partial_shape::of(g.shape()));
    EXPECT_EQ(ra, (axes{0, 2}));
    EXPECT_EQ(rb, axes{});
    const xt::xarray<double> summed = xt::sum(g, {0, 2});
    const xt::xarray<double> expected = xn::sum_to(g, {3, 1});
    EXPECT_EQ(xt::xarray<double>(xt::reshape_view(summed, {3, 1})), expected);
}

// The adjoint identity <broadcast(x), y> == <x, adjoint(y)>, on random data
// ========================================================================

TEST(sum_to, is_the_adjoint_of_broadcast_to)
{
    random_cases random(401);
    for (int trial = 0; trial < 300; ++trial)
    {
        const sizes out = random.shape();
        const sizes in = source_of(random, out);
        const auto x = random.values(in);
        const auto y = random.values(out);
        const xt::xarray<double> bx = xn::broadcast_to(x, out);
        const xt::xarray<double> adjoint_y = xn::sum_to(y, in);
        EXPECT_NEAR(dot(bx, y), dot(x, adjoint_y), rounding_bound(bx, y)) << "trial " << trial;
    }
}

TEST(reduce_broadcast_axes, is_the_adjoint_of_broadcast)
{
    random_cases random(402);
    for (int trial = 0; trial < 300; ++trial)
    {
        const sizes out = random.shape();
        sizes broadcast_axes = random.subset(out.size());
        sizes in;
        for (std::size_t i = 0; i < out.size(); ++i)
        {
            if (std::find(broadcast_axes.begin(), broadcast_axes.end(), i) == broadcast_axes.end())
            {
                in.push_back(out[i]);
            }
        }
        // An axis set: any order.
        random.shuffle(broadcast_axes);
        const auto x = random.values(in);
        const auto y = random.values(out);
        const xt::xarray<double> bx = xn::broadcast(x, out, broadcast_axes);
        const xt::xarray<double> adjoint_y = xn::reduce_broadcast_axes(y, broadcast_axes);
        EXPECT_NEAR(dot(bx, y), dot(x, adjoint_y), rounding_bound(bx, y)) << "trial " << trial;
    }
}

TEST(sum_in_dim, is_the_adjoint_of_broadcast_in_dim)
{
    random_cases random(403);
    for (int trial = 0; trial < 300; ++trial)
    {
        const sizes out = random.shape();
        const sizes mapping = random.subset(out.size());
        sizes in;
        for (std::size_t axis : mapping)
        {
            in.push_back(random.chance(0.35) ? 1 : out[axis]);
        }
        const auto x = random.values(in);
        const auto y = random.values(out);
        const xt::xarray<double> bx = xn::broadcast_in_dim(x, out, mapping);
        const xt::xarray<double> adjoint_y = xn::sum_in_dim(y, in, mapping);
        EXPECT_NEAR(dot(bx, y), dot(x, adjoint_y), rounding_bound(bx, y)) << "trial " << trial;
    }
}

TEST(unbroadcast, is_the_adjoint_of_broadcast_like)
{
    // Named axes in random orders, some missing from the input, some stretched from size 1: lined up
    // by name under basic_missing_dims<true>.
    random_cases random(404);
    const std::vector<std::string> pool{"a", "b", "c", "d"};
    using strategy = xn::basic_missing_dims<true>;
    for (int trial = 0; trial < 300; ++trial)
    {
        const sizes out = random.shape();
        std::vector<std::string> names(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(out.size()));
        random.shuffle(names);
        sizes kept = random.subset(out.size());
        random.shuffle(kept);
        sizes in;
        std::vector<std::string> in_names;
        for (std::size_t axis : kept)
        {
            in.push_back(random.chance(0.35) ? 1 : out[axis]);
            in_names.push_back(names[axis]);
        }
        const auto x = xn::name<strategy>(random.values(in), xn::dims(in_names));
        const auto y = xn::name<strategy>(random.values(out), xn::dims(names));
        const auto bx = xn::broadcast_like(x, y);
        ASSERT_EQ(bx.dims(), y.dims());
        const auto adjoint_y = xn::unbroadcast(y, x);
        ASSERT_EQ(adjoint_y.dims(), x.dims());
        const xt::xarray<double> bx_values = bx.expression();
        const xt::xarray<double> adjoint_values = adjoint_y.expression();
        EXPECT_NEAR(dot(bx_values, y.expression()), dot(x.expression(), adjoint_values),
                    rounding_bound(bx_values, y.expression()))
            << "trial " << trial << ": " << x.dims() << " to " << y.dims();
    }
}

TEST(unbroadcast, is_the_adjoint_of_broadcast_like_under_numpy)
{
    random_cases random(405);
    for (int trial = 0; trial < 300; ++trial)
    {
        const sizes out = random.shape();
        const sizes in = source_of(random, out);
        const auto x = xn::name<xn::numpy>(random.values(in), xn::dims::unnamed(in.size()));
        const auto y = xn::name<xn::numpy>(random.values(out), xn::dims::unnamed(out.size()));
        const xt::xarray<double> bx = xn::broadcast_like(x, y).expression();
        const xt::xarray<double> adjoint_y = xn::unbroadcast(y, x).expression();
        EXPECT_NEAR(dot(bx, y.expression()), dot(x.expression(), adjoint_y),
                    rounding_bound(bx, y.expression()))
            << "trial " << trial;
    }
}

// Vector-Jacobian products against finite differences: the gradient of sum(sin(broadcast(x)))
// ==========================================================================================

TEST(sum_to, gives_the_gradient_through_broadcast_to)
{
    random_cases random(411);
    const xt::xarray<double> x = random.values({3, 1});
    const sizes out{2, 3, 4};
    const auto loss = [&](const xt::xarray<double>& v)
    { return double(xt::sum(xt::sin(xn::broadcast_to(v, out)))()); };
    const xt::xarray<double> gradient = xn::sum_to(xt::cos(xn::broadcast_to(x, out)), x.shape());
    expect_gradients_near(gradient, finite_difference_gradient(loss, x));
}

TEST(reduce_broadcast_axes, gives_the_gradient_through_broadcast)
{
    random_cases random(412);
    const xt::xarray<double> x = random.values({3, 2});
    const auto loss = [&](const xt::xarray<double>& v) {
        return double(xt::sum(xt::sin(xn::broadcast(v, {4, 3, 5, 2}, {2, 0})))());
    };
    const xt::xarray<double> gradient =
        xn::reduce_broadcast_axes(xt::cos(xn::broadcast(x, {4, 3, 5, 2}, {0, 2})), {0, 2});
    expect_gradients_near(gradient, finite_difference_gradient(loss, x));
}

TEST(sum_in_dim, gives_the_gradient_through_broadcast_in_dim)
{
    random_cases random(413);
    const xt::xarray<double> x = random.values({1, 3});
    const auto loss = [&](const xt::xarray<double>& v) {
        return double(xt::sum(xt::sin(xn::broadcast_in_dim(v, {2, 4, 3}, {1, 2})))());
    };
    const xt::xarray<double> gradient =
        xn::sum_in_dim(xt::cos(xn::broadcast_in_dim(x, {2, 4, 3}, {1, 2})), {1, 3}, {1, 2});
    expect_gradients_near(gradient, finite_difference_gradient(loss, x));
}

TEST(unbroadcast, gives_the_gradient_through_broadcast_like)
{
    using strategy = xn::basic_missing_dims<true>;
    random_cases random(414);
    const xt::xarray<double> x = random.values({3, 1});
    const auto target = xn::operand{xn::partial_shape::of({2, 4, 3}), {"w", "h", "c"}};
    const auto loss = [&](const xt::xarray<double>& v)
    {
        const auto bx = xn::broadcast_like(xn::name<strategy>(v, {"c", "h"}), target);
        return double(xt::sum(xt::sin(bx.expression()))());
    };
    const auto bx = xn::broadcast_like(xn::name<strategy>(x, {"c", "h"}), target);
    const auto dy = xn::name<strategy>(xt::cos(bx.expression()), bx.dims());
    const auto gradient = xn::unbroadcast(dy, xn::operand{xn::partial_shape::of({3, 1}), {"c", "h"}});
    EXPECT_EQ(gradient.dims(), (xn::dims{"c", "h"}));
    expect_gradients_near(gradient.expression(), finite_difference_gradient(loss, x));
}

// Results are lazy
// ================

TEST(sum_to, is_a_lazy_sum_of_an_lvalue_gradient)
{
    xt::xarray<double> g = {{1., 2.}, {3., 4.}};
    const auto db = xn::sum_to(g, {2});
    g(1, 1) = 40.;
    EXPECT_EQ(xt::xarray<double>(db), (xt::xarray<double>{4., 42.}));
}

TEST(reduce_broadcast_axes, is_a_lazy_sum_of_an_lvalue_gradient)
{
    xt::xarray<double> g = {{1., 2.}, {3., 4.}};
    const auto db = xn::reduce_broadcast_axes(g, {1});
    g(0, 0) = 10.;
    EXPECT_EQ(xt::xarray<double>(db), (xt::xarray<double>{12., 7.}));
}

TEST(sum_to, owns_an_rvalue_gradient)
{
    auto db = xn::sum_to(xt::xarray<double>{{1., 2.}, {3., 4.}}, {1, 2});
    EXPECT_EQ(xt::xarray<double>(db), (xt::xarray<double>{{4., 6.}}));
}

TEST(unbroadcast, is_a_lazy_sum_of_an_lvalue_gradient)
{
    xt::xarray<double> g = xt::ones<double>({4, 3});
    const auto dy = xn::name(g, {"batch", "feature"});
    const auto bias = xn::name(xt::xarray<double>{1., 2., 3.}, {"feature"});
    const auto db = xn::unbroadcast(dy, bias);
    g(0, 2) = 5.;
    EXPECT_EQ(xt::xarray<double>(db.expression()), (xt::xarray<double>{4., 4., 8.}));
}

// unbroadcast on named tensors
// ============================

TEST(unbroadcast, sums_the_batch_axis_of_a_bias_gradient)
{
    const auto dy = xn::name(xt::xarray<double>{{1., 2., 3.}, {4., 5., 6.}, {7., 8., 9.}, {10., 11., 12.}},
                             {"batch", "feature"});
    const auto bias = xn::name(xt::xarray<double>{0., 0., 0.}, {"feature"});
    const auto db = xn::unbroadcast(dy, bias);
    EXPECT_EQ(db.dims(), (xn::dims{"feature"}));
    EXPECT_EQ(xt::xarray<double>(db.expression()), (xt::xarray<double>{22., 26., 30.}));
}

TEST(unbroadcast, returns_likes_dims_and_order)
{
    xt::xarray<double> g = xt::zeros<double>({3, 5, 2});
    for (std::size_t i = 0; i < g.size(); ++i)
    {
        g.flat(i) = static_cast<double>(i);
    }
    const auto dy = xn::name(g, {"h", "c", "w"});
    const auto like = xn::name(xt::xarray<double>(xt::zeros<double>({2, 3})), {"w", "h"});
    const auto dx = xn::unbroadcast(dy, like);
    EXPECT_EQ(dx.dims(), (xn::dims{"w", "h"}));
    const xt::xarray<double> values = dx.expression();
    ASSERT_EQ(shape_vector(values), (sizes{2, 3}));
    for (std::size_t w = 0; w < 2; ++w)
    {
        for (std::size_t h = 0; h < 3; ++h)
        {
            double sum = 0.;
            for (std::size_t c = 0; c < 5; ++c)
            {
                sum += g(h, c, w);
            }
            EXPECT_EQ(values(w, h), sum);
        }
    }
}

TEST(unbroadcast, sums_an_unevaluated_gradient_as_an_evaluated_one)
{
    // A gradient without a data interface is read by index (xtensor 0.24's reducers read a strided view
    // over it wrongly); the sums must equal those of the evaluated gradient.
    using strategy = xn::basic_missing_dims<true>;
    xt::xarray<double> base = xt::zeros<double>({2, 4, 3});
    for (std::size_t i = 0; i < base.size(); ++i)
    {
        base.flat(i) = static_cast<double>(i);
    }
    const xt::xarray<double> evaluated = base * 2.;
    for (const auto& like : {xn::operand{xn::partial_shape::of({3, 1}), {"c", "h"}},
                             xn::operand{xn::partial_shape::of({4}), {"h"}},
                             xn::operand{xn::partial_shape::of({1, 3, 2}), {"h", "c", "w"}}})
    {
        SCOPED_TRACE(like.to_string());
        const xt::xarray<double> lazy =
            xn::unbroadcast(xn::name<strategy>(base * 2., {"w", "h", "c"}), like).expression();
        // The reference: every element of the gradient added to the element of `like` it came from.
        const std::vector<std::string> grad_names{"w", "h", "c"};
        const auto like_shape = like.shape.to_concrete();
        xt::xarray<double> expected = xt::zeros<double>(like_shape);
        for (std::size_t w = 0; w < 2; ++w)
        {
            for (std::size_t h = 0; h < 4; ++h)
            {
                for (std::size_t c = 0; c < 3; ++c)
                {
                    const std::size_t grad_index[3] = {w, h, c};
                    std::vector<std::size_t> index;
                    for (std::size_t j = 0; j < like.names.size(); ++j)
                    {
                        const auto p = std::find(grad_names.begin(), grad_names.end(), like.names[j]) -
                                       grad_names.begin();
                        index.push_back(like_shape[j] == 1 ? 0 : grad_index[p]);
                    }
                    expected.element(index.begin(), index.end()) += evaluated(w, h, c);
                }
            }
        }
        EXPECT_EQ(lazy, expected);
    }
}

TEST(unbroadcast, keeps_stretched_size_1_axes_with_size_1)
{
    using strategy = xn::basic_missing_dims<true>;
    const auto dy = xn::name<strategy>(xt::xarray<double>(xt::ones<double>({3, 5, 2})), {"h", "c", "w"});
    const auto like = xn::operand{xn::partial_shape::of({1, 3}), {"w", "h"}};
    const auto dx = xn::unbroadcast(dy, like);
    EXPECT_EQ(dx.dims(), (xn::dims{"w", "h"}));
    EXPECT_EQ(xt::xarray<double>(dx.expression()), (xt::xarray<double>{{10., 10., 10.}}));
}

TEST(unbroadcast, refuses_a_like_with_an_axis_the_gradient_lacks)
{
    const auto dy = xn::name(xt::xarray<double>(xt::ones<double>({2, 3})), {"x", "y"});
    const auto like = xn::name(xt::xarray<double>(xt::ones<double>({2, 4})), {"x", "z"});
    XN_EXPECT_THROW_MSG(
        xn::unbroadcast(dy, like), xn::broadcast_error,
        "xn::unbroadcast: cannot sum the gradient (x, y) with shape (2, 3) back to (x, z) with shape "
        "(2, 4): axis 'z' (axis 1) of (x, z) finds no axis of (x, y) to land on (the broadcast would "
        "give (x, y, z) with shape (2, 3, 4))");
}

TEST(unbroadcast, refuses_a_like_whose_size_would_not_have_broadcast)
{
    const auto dy = xn::name<xn::numpy>(xt::xarray<double>(xt::ones<double>({2, 1})), {"?", "?"});
    const auto like = xn::operand{xn::partial_shape::of({3}), {"?"}};
    XN_EXPECT_THROW_MSG(
        xn::unbroadcast(dy, like), xn::broadcast_error,
        "xn::unbroadcast: cannot sum the gradient (?, ?) with shape (2, 1) back to (?) with shape "
        "(3): unnamed axis 0 of (?) has size 3 but lands on unnamed axis 1 of (?, ?), of size 1; a "
        "size must be equal or 1");
}

TEST(unbroadcast, refuses_a_like_operand_of_unknown_size)
{
    const auto dy = xn::name(xt::xarray<double>(xt::ones<double>({2, 3})), {"x", "y"});
    XN_EXPECT_THROW_MSG(
        xn::unbroadcast(dy, xn::operand{xn::partial_shape::of({xn::unknown}), {"y"}}), xn::shape_error,
        "xn::unbroadcast: the shape (?) has an unknown size at axis 0 where a concrete shape is "
        "needed");
}

// Bad input to the plain adjoints
// ===============================

TEST(sum_to, refuses_a_shape_that_does_not_broadcast_to_the_gradient)
{
    const xt::xarray<double> g = xt::ones<double>({2, 3});
    XN_EXPECT_THROW_MSG(
        xn::sum_to(g, {4}), xn::broadcast_error,
        "xn::sum_to: cannot sum the gradient of shape (2, 3) to the shape (4), which does not "
        "broadcast to it: axis 0 (size 4) lines up with gradient axis 1 (size 3), and numpy's rule "
        "needs equal sizes or a size of 1");
    XN_EXPECT_THROW_MSG(
        xn::sum_to(g, {1, 2, 3}), xn::broadcast_error,
        "xn::sum_to: cannot sum the gradient of shape (2, 3) to the shape (1, 2, 3): the shape has "
        "rank 3, more than the gradient's 2, so it does not broadcast to the gradient's shape");
}

TEST(sum_to, refuses_an_unknown_size)
{
    const xt::xarray<double> g = xt::ones<double>({2, 3});
    XN_EXPECT_THROW_MSG(
        xn::sum_to(g, xn::partial_shape::of({xn::unknown})), xn::shape_error,
        "xn::sum_to: the shape (?) has an unknown size at axis 0 where a concrete shape is needed");
}

TEST(reduce_broadcast_axes, refuses_bad_axes)
{
    const xt::xarray<double> g = xt::ones<double>({2, 3});
    XN_EXPECT_THROW_MSG(
        xn::reduce_broadcast_axes(g, {2}), xn::shape_error,
        "xn::reduce_broadcast_axes: axis 2 at position 0 of the broadcast axes {2} is out of range "
        "for the gradient's shape (2, 3) of rank 2");
    XN_EXPECT_THROW_MSG(
        xn::reduce_broadcast_axes(g, {0, 0}), xn::shape_error,
        "xn::reduce_broadcast_axes: axis 0 appears twice in the broadcast axes {0, 0}, at positions "
        "0 and 1");
    XN_EXPECT_THROW_MSG(
        xn::reduce_broadcast_axes(g, {-1}), xn::shape_error,
        "xn::reduce_broadcast_axes: axis -1 at position 0 of the broadcast axes {-1} is negative: "
        "axes count from 0 and negative axes are not accepted");
}

TEST(sum_in_dim, refuses_a_bad_mapping)
{
    const xt::xarray<double> g = xt::ones<double>({2, 3, 4});
    XN_EXPECT_THROW_MSG(
        xn::sum_in_dim(g, {3, 1}, {1}), xn::shape_error,
        "xn::sum_in_dim: the mapping {1} has length 1, but the input has 2 axes: it needs one output "
        "axis per input axis (shape (3, 1), gradient shape (2, 3, 4))");
    XN_EXPECT_THROW_MSG(
        xn::sum_in_dim(g, {3, 1}, {2, 1}), xn::shape_error,
        "xn::sum_in_dim: the mapping {2, 1} is not strictly increasing: input axis 1 goes to output "
        "axis 1, which does not come after output axis 2 of input axis 0 (shape (3, 1), gradient "
        "shape (2, 3, 4))");
    XN_EXPECT_THROW_MSG(
        xn::sum_in_dim(g, {3, 1}, {1, 3}), xn::shape_error,
        "xn::sum_in_dim: axis 3 at position 1 of the mapping {1, 3} is out of range for the output "
        "shape of rank 3");
}

TEST(sum_in_dim, refuses_a_size_that_neither_matches_nor_is_1)
{
    const xt::xarray<double> g = xt::ones<double>({2, 3, 4});
    XN_EXPECT_THROW_MSG(
        xn::sum_in_dim(g, {3, 2}, {1, 2}), xn::broadcast_error,
        "xn::sum_in_dim: cannot sum the gradient of shape (2, 3, 4) to the shape (3, 2) with mapping "
        "{1, 2}: axis 1 (size 2) goes to gradient axis 2 (size 4); a size must equal its gradient "
        "axis' size or be 1");
}

TEST(adjoints, leave_the_gradient_untouched_after_an_error)
{
    xt::xarray<double> g = {{1., 2.}, {3., 4.}};
    const xt::xarray<double> before = g;
    const auto named = xn::name(g, {"x", "y"});
    EXPECT_THROW((void)xn::sum_to(g, {3}), xn::broadcast_error);
    EXPECT_THROW((void)xn::reduce_broadcast_axes(g, {1, 1}), xn::shape_error);
    EXPECT_THROW((void)xn::sum_in_dim(g, {2}, {0, 1}), xn::shape_error);
    EXPECT_THROW((void)xn::unbroadcast(named, xn::operand{xn::partial_shape::of({3}), {"y"}}),
                 xn::broadcast_error);
    EXPECT_EQ(g, before);
    EXPECT_EQ(named.dims(), (xn::dims{"x", "y"}));
}
