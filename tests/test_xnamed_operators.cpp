/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xevaluate.hpp>
#include <xtensor-named/xnamed_expression.hpp>
#include <xtensor-named/xnamed_operators.hpp>

#include "support/counting_strategy.hpp"
#include "support/expect_error.hpp"

namespace xn = xt::named;

namespace
{
    using shape_t = std::vector<std::size_t>;

    xt::xarray<double> iota(const shape_t& shape, double start = 0.)
    {
        xt::xarray<double> a = xt::zeros<double>(shape);
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            a.data()[i] = start + static_cast<double>(i);
        }
        return a;
    }

    template <class E>
    shape_t shape_vector(const E& e)
    {
        return shape_t(e.shape().begin(), e.shape().end());
    }

    shape_t unravel(std::size_t flat, const shape_t& shape)
    {
        shape_t index(shape.size());
        for (std::size_t i = shape.size(); i-- > 0;)
        {
            index[i] = flat % shape[i];
            flat /= shape[i];
        }
        return index;
    }

    /// An (n, 1) column: xtensor cannot tell `{{1.}, {2.}}` from a list of shapes.
    xt::xarray<double> column(const std::vector<double>& values)
    {
        xt::xarray<double> out = xt::zeros<double>({values.size(), std::size_t(1)});
        std::copy(values.begin(), values.end(), out.begin());
        return out;
    }

    std::size_t ravel(const shape_t& index, const shape_t& shape)
    {
        std::size_t flat = 0;
        for (std::size_t i = 0; i < shape.size(); ++i)
        {
            flat = flat * shape[i] + index[i];
        }
        return flat;
    }

    /************************************************************************************************
     * The reference: how two operands line up, written from the table of docs/strategies.md alone. *
     ************************************************************************************************/

    struct side
    {
        std::vector<std::string> names;
        shape_t shape;
    };

    struct layout
    {
        std::vector<std::string> names;
        shape_t shape;
        // to[k][j]: the result axis that axis j of operand k lands on.
        std::vector<std::size_t> to[2];
    };

    enum class kind
    {
        numpy,
        leading,
        missing_dims,
        missing_dims_stretch,
        name_match,
        exact
    };

    bool contains(const std::vector<std::string>& names, const std::string& name)
    {
        return std::find(names.begin(), names.end(), name) != names.end();
    }

    std::optional<std::size_t> joined_size(std::size_t x, std::size_t y, bool stretch)
    {
        if (x == y)
        {
            return x;
        }
        if (stretch && (x == 1 || y == 1))
        {
            return x == 1 ? y : x;
        }
        return std::nullopt;
    }

    std::optional<layout> right_aligned(const side& a, const side& b, bool stretch)
    {
        const std::size_t rank = std::max(a.names.size(), b.names.size());
        layout out;
        out.names.resize(rank);
        out.shape.resize(rank);
        const side* sides[2] = {&a, &b};
        for (std::size_t k = 0; k < 2; ++k)
        {
            for (std::size_t j = 0; j < sides[k]->names.size(); ++j)
            {
                out.to[k].push_back(j + rank - sides[k]->names.size());
            }
        }
        for (std::size_t i = 0; i < rank; ++i)
        {
            const bool in_a = i + a.names.size() >= rank;
            const bool in_b = i + b.names.size() >= rank;
            if (in_a && in_b)
            {
                const std::size_t ia = i + a.names.size() - rank;
                const std::size_t ib = i + b.names.size() - rank;
                const std::string& na = a.names[ia];
                const std::string& nb = b.names[ib];
                if (na != nb && na != "?" && nb != "?")
                {
                    return std::nullopt;
                }
                // A name met by "?" must not appear elsewhere in the other operand.
                if ((na == "?" && nb != "?" && contains(a.names, nb)) ||
                    (nb == "?" && na != "?" && contains(b.names, na)))
                {
                    return std::nullopt;
                }
                out.names[i] = na == "?" ? nb : na;
                const auto size = joined_size(a.shape[ia], b.shape[ib], stretch);
                if (!size)
                {
                    return std::nullopt;
                }
                out.shape[i] = *size;
            }
            else
            {
                const side& present = in_a ? a : b;
                const std::size_t axis = i + present.names.size() - rank;
                out.names[i] = present.names[axis];
                out.shape[i] = present.shape[axis];
            }
        }
        return out;
    }

    std::optional<layout> by_name(const side& a, const side& b, bool stretch)
    {
        for (const side* s : {&a, &b})
        {
            if (contains(s->names, "?"))
            {
                return std::nullopt;
            }
        }
        layout out;
        out.names = a.names;
        out.shape = a.shape;
        for (std::size_t j = 0; j < a.names.size(); ++j)
        {
            out.to[0].push_back(j);
        }
        for (std::size_t j = 0; j < b.names.size(); ++j)
        {
            const auto found = std::find(a.names.begin(), a.names.end(), b.names[j]);
            if (found == a.names.end())
            {
                out.to[1].push_back(out.names.size());
                out.names.push_back(b.names[j]);
                out.shape.push_back(b.shape[j]);
                continue;
            }
            const auto i = static_cast<std::size_t>(found - a.names.begin());
            const auto size = joined_size(a.shape[i], b.shape[j], stretch);
            if (!size)
            {
                return std::nullopt;
            }
            out.shape[i] = *size;
            out.to[1].push_back(i);
        }
        return out;
    }

    std::optional<layout> name_matched(const side& a, const side& b)
    {
        const bool left_larger = a.names.size() >= b.names.size();
        const side& larger = left_larger ? a : b;
        const side& smaller = left_larger ? b : a;
        layout out;
        out.names = larger.names;
        out.shape = larger.shape;
        std::vector<std::size_t> larger_unnamed;
        for (std::size_t i = 0; i < larger.names.size(); ++i)
        {
            if (larger.names[i] == "?")
            {
                larger_unnamed.push_back(i);
            }
        }
        const auto smaller_unnamed =
            static_cast<std::size_t>(std::count(smaller.names.begin(), smaller.names.end(), "?"));
        if (smaller_unnamed > larger_unnamed.size())
        {
            return std::nullopt;
        }
        std::vector<std::size_t> to_smaller;
        std::size_t seen = 0;
        for (std::size_t j = 0; j < smaller.names.size(); ++j)
        {
            std::size_t match = 0;
            if (smaller.names[j] == "?")
            {
                // Right-aligned among the unnamed axes.
                match = larger_unnamed[larger_unnamed.size() - smaller_unnamed + seen];
                ++seen;
            }
            else
            {
                const auto found = std::find(larger.names.begin(), larger.names.end(), smaller.names[j]);
                if (found == larger.names.end())
                {
                    return std::nullopt;
                }
                match = static_cast<std::size_t>(found - larger.names.begin());
            }
            const auto size = joined_size(larger.shape[match], smaller.shape[j], true);
            if (!size)
            {
                return std::nullopt;
            }
            out.shape[match] = *size;
            to_smaller.push_back(match);
        }
        std::vector<std::size_t> to_larger;
        for (std::size_t i = 0; i < larger.names.size(); ++i)
        {
            to_larger.push_back(i);
        }
        out.to[left_larger ? 0 : 1] = to_larger;
        out.to[left_larger ? 1 : 0] = to_smaller;
        return out;
    }

    std::optional<layout> reference(kind k, const side& a, const side& b)
    {
        switch (k)
        {
            case kind::numpy:
                return right_aligned(a, b, true);
            case kind::leading:
                return right_aligned(a, b, false);
            case kind::missing_dims:
                return by_name(a, b, false);
            case kind::missing_dims_stretch:
                return by_name(a, b, true);
            case kind::name_match:
                return name_matched(a, b);
            case kind::exact:
                if (a.names != b.names || a.shape != b.shape)
                {
                    return std::nullopt;
                }
                return right_aligned(a, b, false);
        }
        return std::nullopt;
    }

    /// The elements of `f(a, b)` over the reference layout: one loop over the result's index space.
    xt::xarray<double> reference_values(const layout& l, const xt::xarray<double>& a,
                                        const xt::xarray<double>& b,
                                        const std::function<double(double, double)>& f)
    {
        xt::xarray<double> out = xt::zeros<double>(l.shape);
        const xt::xarray<double>* operands[2] = {&a, &b};
        for (std::size_t n = 0; n < out.size(); ++n)
        {
            const auto index = unravel(n, l.shape);
            double values[2];
            for (std::size_t k = 0; k < 2; ++k)
            {
                const shape_t shape(operands[k]->shape().begin(), operands[k]->shape().end());
                shape_t at(shape.size());
                for (std::size_t j = 0; j < shape.size(); ++j)
                {
                    at[j] = shape[j] == 1 ? 0 : index[l.to[k][j]];
                }
                values[k] = operands[k]->data()[ravel(at, shape)];
            }
            out.data()[n] = f(values[0], values[1]);
        }
        return out;
    }

    /*************************************
     * Random operands for the property *
     *************************************/

    struct random_case
    {
        side a;
        side b;
    };

    random_case make_case(std::mt19937& gen)
    {
        const std::vector<std::string> pool = {"a", "b", "c", "d", "e"};
        auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(gen); };
        auto chance = [&](double p) { return std::uniform_real_distribution<double>(0., 1.)(gen) < p; };
        random_case c;
        std::vector<std::string> free_names = pool;
        std::shuffle(free_names.begin(), free_names.end(), gen);
        const std::size_t rank_a = pick(5);
        for (std::size_t i = 0; i < rank_a; ++i)
        {
            c.a.names.push_back(chance(0.2) ? "?" : free_names[i]);
            c.a.shape.push_back(1 + pick(3));
        }
        // b: some of a's axes (sizes kept, set to 1, or changed), maybe reordered, maybe new ones.
        for (std::size_t i = 0; i < rank_a; ++i)
        {
            if (chance(0.6))
            {
                const double r = std::uniform_real_distribution<double>(0., 1.)(gen);
                const std::size_t size = r < 0.6 ? c.a.shape[i] : (r < 0.85 ? 1 : 1 + pick(3));
                c.b.names.push_back(c.a.names[i]);
                c.b.shape.push_back(size);
            }
        }
        if (chance(0.3) && c.b.names.size() > 1)
        {
            std::vector<std::size_t> order(c.b.names.size());
            for (std::size_t i = 0; i < order.size(); ++i)
            {
                order[i] = i;
            }
            std::shuffle(order.begin(), order.end(), gen);
            side permuted;
            for (std::size_t i : order)
            {
                permuted.names.push_back(c.b.names[i]);
                permuted.shape.push_back(c.b.shape[i]);
            }
            c.b = permuted;
        }
        const std::size_t extra = pick(3);
        for (std::size_t i = 0; i < extra && rank_a + i < pool.size(); ++i)
        {
            const std::size_t at = pick(c.b.names.size() + 1);
            c.b.names.insert(c.b.names.begin() + static_cast<std::ptrdiff_t>(at),
                             chance(0.2) ? "?" : free_names[rank_a + i]);
            c.b.shape.insert(c.b.shape.begin() + static_cast<std::ptrdiff_t>(at), 1 + pick(3));
        }
        if (chance(0.5))
        {
            std::swap(c.a, c.b);
        }
        return c;
    }

    std::string describe(const random_case& c)
    {
        std::string out;
        for (const side* s : {&c.a, &c.b})
        {
            out += "(";
            for (std::size_t i = 0; i < s->names.size(); ++i)
            {
                out += (i ? ", " : "") + s->names[i] + ":" + std::to_string(s->shape[i]);
            }
            out += ") ";
        }
        return out;
    }

    /// One random case under strategy S: the result's dims, shape and values, or the refusal, against
    /// the reference; operands read through a container and through a lazy expression; operands intact.
    template <class S>
    void check_case(kind k, const random_case& c, std::size_t& accepted, std::size_t& refused)
    {
        SCOPED_TRACE(describe(c));
        const xt::xarray<double> a = iota(c.a.shape, 1.);
        const xt::xarray<double> b = iota(c.b.shape, 1000.);
        const xt::xarray<double> a_before = a;
        const xt::xarray<double> b_before = b;
        const auto na = xn::name<S>(a, xn::dims(c.a.names));
        const auto expected = reference(k, c.a, c.b);
        auto run = [&](const auto& left, const auto& right)
        {
            if (!expected)
            {
                EXPECT_THROW(left - right, xn::broadcast_error);
                return;
            }
            auto result = xn::eval(left - right);
            EXPECT_EQ(result.dims(), xn::dims(expected->names));
            ASSERT_EQ(shape_vector(result), expected->shape);
            EXPECT_EQ(result.expression(), reference_values(*expected, a, b, std::minus<double>()));
        };
        run(na, xn::name<S>(b, xn::dims(c.b.names)));
        run(na, xn::name<S>(b * 1.0, xn::dims(c.b.names)));
        EXPECT_EQ(a, a_before);
        EXPECT_EQ(b, b_before);
        ++(expected ? accepted : refused);
    }

    template <class S>
    void check_strategy(kind k, unsigned seed)
    {
        std::mt19937 gen(seed);
        std::size_t accepted = 0;
        std::size_t refused = 0;
        for (int i = 0; i < 1500; ++i)
        {
            check_case<S>(k, make_case(gen), accepted, refused);
        }
        // The generator must exercise both outcomes, or the test proves little.
        EXPECT_GT(accepted, 100u);
        EXPECT_GT(refused, 100u);
    }
} // namespace

/******************************************************
 * The examples of tensorics and name_match, verbatim *
 ******************************************************/

TEST(xnamed_operators, seed_000_broadcasts_missing_dimensions)
{
    // Left: X with {[x1]=1.0, [x2]=2.0}; right: Y with {[y1]=0.1, [y2]=0.2}.
    xt::xarray<double> left_values = {1.0, 2.0};
    xt::xarray<double> right_values = {0.1, 0.2};
    auto left = xn::name(left_values, {"X"});
    auto right = xn::name(right_values, {"Y"});
    auto [l, r] = xn::broadcast(left, right);
    EXPECT_EQ(l.dims(), xn::dims({"X", "Y"}));
    EXPECT_EQ(r.dims(), xn::dims({"X", "Y"}));
    // broadcasted left: {[x1,y1]=1.0, [x1,y2]=1.0, [x2,y1]=2.0, [x2,y2]=2.0}
    EXPECT_EQ(xt::xarray<double>(l.expression()), (xt::xarray<double>{{1.0, 1.0}, {2.0, 2.0}}));
    // broadcasted right: {[x1,y1]=0.1, [x1,y2]=0.2, [x2,y1]=0.1, [x2,y2]=0.2}
    EXPECT_EQ(xt::xarray<double>(r.expression()), (xt::xarray<double>{{0.1, 0.2}, {0.1, 0.2}}));
    auto sum = xn::eval(left + right);
    EXPECT_EQ(sum.dims(), xn::dims({"X", "Y"}));
    EXPECT_EQ(sum.expression(), (xt::xarray<double>{{1.1, 1.2}, {2.1, 2.2}}));
}

TEST(xnamed_operators, seed_000_does_not_stretch_a_dimension_with_one_entry)
{
    // {[x1, y1]=1.0, [x2, y1]=2.0}: Y has one entry, and is not applicable for all Y.
    xt::xarray<double> one_y = column({1.0, 2.0});
    xt::xarray<double> two_y = {{0.1, 0.2}, {0.3, 0.4}};
    auto left = xn::name(one_y, {"X", "Y"});
    auto right = xn::name(two_y, {"X", "Y"});
    XN_EXPECT_THROW_HAS(
        left + right, xn::broadcast_error,
        {"xn::missing_dims", "'Y' (axis 1)", "(X, Y) with shape (2, 1)", "(X, Y) with shape (2, 2)"});
    auto stretched = xn::eval(xn::name<xn::basic_missing_dims<true>>(one_y, {"X", "Y"}) +
                              xn::name<xn::basic_missing_dims<true>>(two_y, {"X", "Y"}));
    EXPECT_EQ(stretched.expression(), (xt::xarray<double>{{1.1, 1.2}, {2.3, 2.4}}));
    EXPECT_EQ(one_y, column({1.0, 2.0}));
}

TEST(xnamed_operators, seed_001_img_and_lbl_broadcast_by_name_match)
{
    // img (?, CHANNEL, H, W) (10, 3, 256, 384) and lbl (?, H, W) (10, 256, 384): (0,0) (2,1) (3,2).
    xt::xarray<float> img_values = xt::zeros<float>({10, 3, 256, 384});
    xt::xarray<float> lbl_values = xt::zeros<float>({10, 256, 384});
    img_values(7, 2, 100, 300) = 1.5f;
    lbl_values(7, 100, 300) = 10.f;
    lbl_values(3, 255, 383) = 4.f;
    auto img = xn::name<xn::name_match>(img_values, {"?", "channel", "h", "w"});
    auto lbl = xn::name<xn::name_match>(lbl_values, {"?", "h", "w"});
    auto out = img + lbl;
    EXPECT_EQ(out.dims(), xn::dims({"?", "channel", "h", "w"}));
    EXPECT_EQ(shape_vector(out), (shape_t{10, 3, 256, 384}));
    EXPECT_EQ(out.expression()(7, 2, 100, 300), 11.5f);
    EXPECT_EQ(out.expression()(7, 0, 100, 300), 10.f);
    EXPECT_EQ(out.expression()(3, 1, 255, 383), 4.f);
    EXPECT_EQ(out.expression()(2, 1, 255, 383), 0.f);
    auto [l, r] = xn::broadcast(img, lbl);
    EXPECT_EQ(shape_vector(r), (shape_t{10, 3, 256, 384}));
    EXPECT_EQ(r.expression()(3, 2, 255, 383), 4.f);
    EXPECT_EQ(r.expression().strides()[1], 0);
    EXPECT_EQ(l.expression().data(), img_values.data());
}

TEST(xnamed_operators, seed_001_lbl_prob_and_lbl_pred_do_not_match)
{
    xt::xarray<float> prob = xt::zeros<float>({20, 3, 4, 4});
    xt::xarray<float> pred = xt::zeros<float>({20, 1, 17, 15, 4, 4});
    auto lbl_prob = xn::name<xn::name_match>(prob, {"?", "class", "h", "w"});
    auto lbl_pred = xn::name<xn::name_match>(pred, {"?", "scale1", "scale2", "scale3", "h", "w"});
    XN_EXPECT_THROW_HAS(lbl_prob * lbl_pred, xn::broadcast_error,
                        {"name_match: axis 'class' (axis 1) of (?, class, h, w) has no match in "
                         "(?, scale1, scale2, scale3, h, w)"});
    // lbl_truth (?, h, w) (20, 512, 512) does match lbl_prob (20, 3, 512, 512): lazy operands, no storage.
    auto lbl_truth =
        xn::name<xn::name_match>(xt::broadcast(2.f, std::vector<std::size_t>{20, 512, 512}), {"?", "h", "w"});
    auto full_prob = xn::name<xn::name_match>(xt::broadcast(0.5f, std::vector<std::size_t>{20, 3, 512, 512}),
                                              {"?", "class", "h", "w"});
    auto weighted = full_prob * lbl_truth;
    EXPECT_EQ(weighted.dims(), xn::dims({"?", "class", "h", "w"}));
    EXPECT_EQ(shape_vector(weighted), (shape_t{20, 3, 512, 512}));
    EXPECT_EQ(weighted.expression()(19, 2, 511, 7), 1.f);
    // With the batch axis named, lbl_prob and lbl_pred make an outer product under missing_dims.
    xt::xarray<float> pred_small = xt::ones<float>({20, 1, 17, 15, 4, 4});
    auto outer = xn::name(prob, {"batch", "class", "h", "w"}) *
                 xn::name(pred_small, {"batch", "scale1", "scale2", "scale3", "h", "w"});
    EXPECT_EQ(outer.dims(), xn::dims({"batch", "class", "h", "w", "scale1", "scale2", "scale3"}));
    EXPECT_EQ(shape_vector(outer), (shape_t{20, 3, 4, 4, 1, 17, 15}));
    EXPECT_EQ(outer.expression()(19, 2, 3, 3, 0, 16, 14), 0.f);
}

/**********************************************
 * Mixing named, plain and scalar operands    *
 **********************************************/

TEST(xnamed_operators, named_with_plain_lines_up_under_the_named_strategy)
{
    xt::xarray<double> a = iota({2, 3});
    xt::xarray<double> row = {10., 20., 30.};
    auto named = xn::name<xn::numpy>(a, {"h", "w"});
    auto sum = xn::eval(named + row);
    auto flipped = xn::eval(row - named);
    EXPECT_EQ(sum.dims(), xn::dims({"h", "w"}));
    EXPECT_EQ(flipped.dims(), xn::dims({"h", "w"}));
    for (std::size_t h = 0; h < 2; ++h)
    {
        for (std::size_t w = 0; w < 3; ++w)
        {
            EXPECT_EQ(sum.expression()(h, w), a(h, w) + row(w));
            EXPECT_EQ(flipped.expression()(h, w), row(w) - a(h, w));
        }
    }
}

TEST(xnamed_operators, named_with_plain_works_for_every_reference_kind)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20.};
    auto named = xn::name<xn::numpy>(a, {"x"});
    const auto& constant = named;
    EXPECT_EQ(xn::eval(named * b).expression(), (xt::xarray<double>{10., 40.}));
    EXPECT_EQ(xn::eval(constant * b).expression(), (xt::xarray<double>{10., 40.}));
    EXPECT_EQ(xn::eval(xn::name<xn::numpy>(a, {"x"}) * b).expression(), (xt::xarray<double>{10., 40.}));
    EXPECT_EQ(xn::eval(b / named).expression(), (xt::xarray<double>{10., 10.}));
    EXPECT_EQ(xn::eval(b / constant).expression(), (xt::xarray<double>{10., 10.}));
    EXPECT_EQ(xn::eval(b / xn::name<xn::numpy>(a, {"x"})).expression(), (xt::xarray<double>{10., 10.}));
    EXPECT_EQ(xn::eval(xn::name<xn::numpy>(a, {"x"}) + xt::xarray<double>{1., 1.}).expression(),
              (xt::xarray<double>{2., 3.}));
}

TEST(xnamed_operators, named_with_scalar_keeps_the_dims)
{
    xt::xarray<double> a = iota({2, 2});
    auto named = xn::name(a, {"h", "w"});
    auto result = xn::eval(2.0 * named - 1.0);
    EXPECT_EQ(result.dims(), xn::dims({"h", "w"}));
    EXPECT_EQ(result.expression(), (xt::xarray<double>{{-1., 1.}, {3., 5.}}));
    auto divided = xn::eval(12.0 / (named + 1.0));
    EXPECT_EQ(divided.expression(), (xt::xarray<double>{{12., 6.}, {4., 3.}}));
}

TEST(xnamed_operators, mixed_expression_matches_a_plain_loop)
{
    xt::xarray<double> a = iota({2, 3}, 1.);
    xt::xarray<double> b = {0.5, 1.5, 2.5};
    xt::xarray<double> plain = iota({4, 1, 1}, 10.);
    auto na = xn::name<xn::numpy>(a, {"h", "w"});
    auto nb = xn::name<xn::numpy>(b, {"w"});
    auto result = xn::eval((na * 2.0 + plain) / nb - 1.0);
    EXPECT_EQ(result.dims(), xn::dims({"?", "h", "w"}));
    ASSERT_EQ(shape_vector(result), (shape_t{4, 2, 3}));
    for (std::size_t k = 0; k < 4; ++k)
    {
        for (std::size_t h = 0; h < 2; ++h)
        {
            for (std::size_t w = 0; w < 3; ++w)
            {
                EXPECT_EQ(result.expression()(k, h, w), (a(h, w) * 2.0 + plain(k, 0, 0)) / b(w) - 1.0);
            }
        }
    }
}

TEST(xnamed_operators, name_match_permutes_named_axes_of_the_smaller_operand)
{
    xt::xarray<double> hwc = iota({2, 3, 4}, 1.);
    xt::xarray<double> cw = iota({4, 3}, 100.);
    auto larger = xn::name<xn::name_match>(hwc, {"h", "w", "c"});
    auto smaller = xn::name<xn::name_match>(cw, {"c", "w"});
    auto result = xn::eval(smaller - larger * 0.5);
    EXPECT_EQ(result.dims(), xn::dims({"h", "w", "c"}));
    for (std::size_t h = 0; h < 2; ++h)
    {
        for (std::size_t w = 0; w < 3; ++w)
        {
            for (std::size_t c = 0; c < 4; ++c)
            {
                EXPECT_EQ(result.expression()(h, w, c), cw(c, w) - hwc(h, w, c) * 0.5);
            }
        }
    }
}

TEST(xnamed_operators, integer_and_bitwise_operators_work_elementwise)
{
    xt::xarray<int> a = {{5, 6, 7}, {8, 9, 10}};
    xt::xarray<int> b = {3, 4};
    auto na = xn::name(a, {"h", "w"});
    auto nb = xn::name(b, {"h"});
    auto mod = xn::eval(na % nb);
    auto band = xn::eval(na & nb);
    auto bor = xn::eval(na | nb);
    auto bxor = xn::eval(na ^ nb);
    auto bnot = xn::eval(~na);
    for (std::size_t h = 0; h < 2; ++h)
    {
        for (std::size_t w = 0; w < 3; ++w)
        {
            EXPECT_EQ(mod.expression()(h, w), a(h, w) % b(h));
            EXPECT_EQ(band.expression()(h, w), a(h, w) & b(h));
            EXPECT_EQ(bor.expression()(h, w), a(h, w) | b(h));
            EXPECT_EQ(bxor.expression()(h, w), a(h, w) ^ b(h));
            EXPECT_EQ(bnot.expression()(h, w), ~a(h, w));
        }
    }
}

TEST(xnamed_operators, comparisons_and_logical_operators_give_named_booleans)
{
    xt::xarray<double> a = {1., 2., 3.};
    xt::xarray<double> b = {2., 2., 2.};
    auto na = xn::name(a, {"x"});
    auto nb = xn::name(b, {"x"});
    EXPECT_EQ(xn::eval(na < nb).expression(), (xt::xarray<bool>{true, false, false}));
    EXPECT_EQ(xn::eval(na <= nb).expression(), (xt::xarray<bool>{true, true, false}));
    EXPECT_EQ(xn::eval(na > nb).expression(), (xt::xarray<bool>{false, false, true}));
    EXPECT_EQ(xn::eval(na >= 2.0).expression(), (xt::xarray<bool>{false, true, true}));
    auto both = xn::eval((na > 1.0) && (na < 3.0));
    EXPECT_EQ(both.dims(), xn::dims({"x"}));
    EXPECT_EQ(both.expression(), (xt::xarray<bool>{false, true, false}));
    EXPECT_EQ(xn::eval((na < 2.0) || (na > 2.0)).expression(), (xt::xarray<bool>{true, false, true}));
    EXPECT_EQ(xn::eval(!(na < 2.0)).expression(), (xt::xarray<bool>{false, true, true}));
}

TEST(xnamed_operators, unary_minus_and_plus_keep_the_dims)
{
    xt::xarray<double> a = {1., -2.};
    auto na = xn::name(a, {"x"});
    auto neg = xn::eval(-na);
    auto pos = xn::eval(+na);
    EXPECT_EQ(neg.dims(), xn::dims({"x"}));
    EXPECT_EQ(neg.expression(), (xt::xarray<double>{-1., 2.}));
    EXPECT_EQ(pos.expression(), a);
}

TEST(xnamed_operators, array_equal_compares_dims_shapes_and_all_elements)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> same = {1., 2.};
    xt::xarray<double> other = {1., 3.};
    EXPECT_TRUE(xn::array_equal(xn::name(a, {"x"}), xn::name(same, {"x"})));
    EXPECT_FALSE(xn::array_equal(xn::name(a, {"x"}), xn::name(same, {"y"})));
    EXPECT_FALSE(xn::array_equal(xn::name(a, {"x"}), xn::name(other, {"x"})));
    EXPECT_TRUE(xn::array_equal(xn::name(a, {"?"}), same));
    EXPECT_FALSE(xn::array_equal(xn::name(a, {"x"}), same));
    EXPECT_FALSE(xn::array_equal(xn::name(a, {"x"}), xn::name(xt::xarray<double>{1., 2., 3.}, {"x"})));
}

TEST(xnamed_operators, equality_operators_compare_elementwise_as_numpy_xarray_and_pytorch)
{
    xt::xarray<double> a = {1., 2., 3.};
    xt::xarray<double> b = {1., 5., 3.};
    const xt::xarray<double> grid = {{1., 2., 3.}, {3., 2., 1.}};
    auto na = xn::name(a, {"x"});
    auto nb = xn::name(b, {"x"});
    // Named with named, with a number, with a plain expression: a named mask.
    auto same = xn::eval(na == nb);
    EXPECT_EQ(same.dims(), xn::dims({"x"}));
    EXPECT_EQ(same.expression(), (xt::xarray<bool>{true, false, true}));
    EXPECT_EQ(xn::eval(na != nb).expression(), (xt::xarray<bool>{false, true, false}));
    EXPECT_EQ(xn::eval(na == 2.0).expression(), (xt::xarray<bool>{false, true, false}));
    EXPECT_EQ(xn::eval(2.0 != na).expression(), (xt::xarray<bool>{true, false, true}));
    EXPECT_EQ(xn::eval(xn::name<xn::numpy>(a, {"x"}) == b).expression(),
              (xt::xarray<bool>{true, false, true}));
    // Under the operands' strategy: (x) against (y, x) broadcasts by name.
    auto rows = xn::eval(na == xn::name(grid, {"y", "x"}));
    EXPECT_EQ(rows.dims(), xn::dims({"x", "y"}));
    EXPECT_EQ(rows.expression(), (xt::xarray<bool>{{true, false}, {true, true}, {true, false}}));
    // Inside where, as users write it.
    auto kept = xn::eval(xn::where(na == 2.0, na, 0.0));
    EXPECT_EQ(kept.expression(), (xt::xarray<double>{0., 2., 0.}));
}

/*****************
 * Refusals      *
 *****************/

TEST(xnamed_operators, missing_dims_refuses_unnamed_axes_and_leaves_operands_intact)
{
    xt::xarray<double> a = iota({2, 3});
    xt::xarray<double> plain = {1., 2., 3.};
    auto named = xn::name(a, {"h", "w"});
    XN_EXPECT_THROW_HAS(named + plain, xn::broadcast_error,
                        {"xn::missing_dims", "unnamed axis 0", "(?)", "(h, w) with shape (2, 3)"});
    EXPECT_EQ(a, iota({2, 3}));
    EXPECT_EQ(plain, (xt::xarray<double>{1., 2., 3.}));
    EXPECT_EQ(named.dims(), xn::dims({"h", "w"}));
}

TEST(xnamed_operators, a_size_mismatch_names_axes_and_sizes)
{
    xt::xarray<double> a = iota({2, 3});
    xt::xarray<double> b = iota({4});
    XN_EXPECT_THROW_HAS(xn::name(a, {"h", "w"}) * xn::name(b, {"w"}), xn::broadcast_error,
                        {"xn::missing_dims", "'w' (axis 1)", "'w' (axis 0)", "(2, 3)", "(4)"});
    XN_EXPECT_THROW_HAS(xn::name<xn::numpy>(a, {"?", "?"}) - xn::name<xn::numpy>(b, {"?"}),
                        xn::broadcast_error, {"xn::numpy", "(2, 3)", "(4)"});
    EXPECT_EQ(b, iota({4}));
}

namespace
{
    /// A user strategy that lies about sizes: its plan passes the partial-shape checks and must still
    /// be refused when the real sizes are known.
    struct claims_size_five
    {
        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand&)
        {
            xn::broadcast_plan p;
            p.names = a.names;
            p.shape = xn::partial_shape::of({5});
            p.axes[0] = {0};
            p.axes[1] = {0};
            return p;
        }
    };

    /// A user strategy that lines axes up from the left (as examples/custom_strategy.cpp does).
    struct left_aligned
    {
        static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
        {
            const bool a_longer = a.names.size() >= b.names.size();
            const xn::operand& longer = a_longer ? a : b;
            const xn::operand& shorter = a_longer ? b : a;
            xn::broadcast_plan p;
            p.names = longer.names;
            std::vector<std::int64_t> sizes = longer.shape.sizes();
            p.axes[a_longer ? 0 : 1] = xn::detail::identity_map(sizes.size());
            p.axes[a_longer ? 1 : 0].assign(sizes.size(), xn::no_axis);
            for (std::size_t i = 0; i < shorter.names.size(); ++i)
            {
                sizes[i] = std::max(sizes[i], shorter.shape.sizes()[i]);
                p.axes[a_longer ? 1 : 0][i] = static_cast<std::int64_t>(i);
            }
            p.shape = xn::partial_shape::of(sizes);
            return p;
        }
    };
} // namespace

TEST(xnamed_operators, a_plan_that_disagrees_with_the_real_sizes_is_refused)
{
    xt::xarray<double> a = xt::ones<double>({1});
    xt::xarray<double> b = xt::ones<double>({1});
    XN_EXPECT_THROW_MSG(
        xn::name<claims_size_five>(a, {"x"}) + xn::name<claims_size_five>(b, {"x"}), xn::broadcast_error,
        "xn::operator+: the strategy gave the result's axis 'x' (axis 0) of (x) size 5, but the "
        "operands (x) with shape (1) and (x) with shape (1) give it size 1");
}

TEST(xnamed_operators, a_user_written_strategy_lines_axes_up)
{
    xt::xarray<double> a = iota({2, 3});
    xt::xarray<double> b = {10., 20.};
    auto result = xn::eval(xn::name<left_aligned>(a, {"h", "w"}) + xn::name<left_aligned>(b, {"h"}));
    EXPECT_EQ(result.dims(), xn::dims({"h", "w"}));
    EXPECT_EQ(result.expression(), (xt::xarray<double>{{10., 11., 12.}, {23., 24., 25.}}));
}

/******************************
 * apply and broadcast        *
 ******************************/

namespace
{
    struct weighted
    {
        double weight;

        double operator()(double x, double y) const
        {
            return weight * x + y;
        }
    };
} // namespace

TEST(xnamed_operators, apply_takes_any_binary_functor)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {{10., 20., 30.}, {40., 50., 60.}};
    auto na = xn::name(a, {"x"});
    auto nb = xn::name(b, {"x", "y"});
    auto by_lambda = xn::eval(xn::apply<xn::missing_dims>([](double x, double y) { return x * y; }, na, nb));
    auto by_struct = xn::eval(xn::apply<xn::missing_dims>(weighted{3.}, na, nb));
    auto by_std = xn::eval(xn::apply(std::minus<double>(), nb, na));
    EXPECT_EQ(by_lambda.dims(), xn::dims({"x", "y"}));
    for (std::size_t x = 0; x < 2; ++x)
    {
        for (std::size_t y = 0; y < 3; ++y)
        {
            EXPECT_EQ(by_lambda.expression()(x, y), a(x) * b(x, y));
            EXPECT_EQ(by_struct.expression()(x, y), 3. * a(x) + b(x, y));
            EXPECT_EQ(by_std.expression()(x, y), b(x, y) - a(x));
        }
    }
}

TEST(xnamed_operators, apply_uses_the_strategy_it_is_given)
{
    xt::xarray<double> a = {1., 2., 3.};
    xt::xarray<double> b = column({1., 2.});
    // Both operands default to missing_dims, which refuses unnamed axes; apply<numpy> lines them up.
    auto na = xn::name(a, {"?"});
    auto nb = xn::name(b, {"?", "?"});
    auto result = xn::apply<xn::numpy>(std::plus<double>(), na, nb);
    static_assert(std::is_same<decltype(result)::strategy_type, xn::numpy>::value);
    EXPECT_EQ(xn::eval(result).expression(), (xt::xarray<double>{{2., 3., 4.}, {3., 4., 5.}}));
    XN_EXPECT_THROW_HAS(xn::apply(std::plus<double>(), na, nb), xn::broadcast_error, {"xn::missing_dims"});
}

TEST(xnamed_operators, broadcast_returns_views_without_copying)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20., 30.};
    auto [l, r] = xn::broadcast<xn::missing_dims>(xn::name(a, {"x"}), xn::name(b, {"y"}));
    EXPECT_EQ(l.dims(), xn::dims({"x", "y"}));
    EXPECT_EQ(shape_vector(l), (shape_t{2, 3}));
    EXPECT_EQ(shape_vector(r), (shape_t{2, 3}));
    EXPECT_EQ(l.expression().data(), a.data());
    EXPECT_EQ(r.expression().data(), b.data());
    EXPECT_EQ(l.expression().strides()[1], 0);
    EXPECT_EQ(r.expression().strides()[0], 0);
    a(1) = 5.;
    EXPECT_EQ(l.expression()(1, 2), 5.);
    static_assert(std::is_const<std::remove_reference_t<decltype(l.expression()(0, 0))>>::value,
                  "a broadcast view of an lvalue is read-only");
}

TEST(xnamed_operators, broadcast_of_rvalues_owns_them)
{
    auto make = [] {
        return xn::broadcast<xn::numpy>(xn::name(xt::xarray<double>{1., 2.}, {"?"}), column({1., 2., 3.}));
    };
    auto [l, r] = make();
    EXPECT_EQ(xt::xarray<double>(l.expression()), (xt::xarray<double>{{1., 2.}, {1., 2.}, {1., 2.}}));
    EXPECT_EQ(xt::xarray<double>(r.expression()), (xt::xarray<double>{{1., 1.}, {2., 2.}, {3., 3.}}));
}

TEST(xnamed_operators, broadcast_refuses_what_the_strategy_refuses)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {1., 2., 3.};
    XN_EXPECT_THROW_HAS(xn::broadcast(xn::name(a, {"x"}), xn::name(b, {"x"})), xn::broadcast_error,
                        {"xn::missing_dims", "'x'", "(2)", "(3)"});
}

TEST(xnamed_operators, results_are_lazy)
{
    xt::xarray<double> a = {1., 2.};
    xt::xarray<double> b = {10., 20.};
    auto sum = xn::name(a, {"x"}) + xn::name(b, {"y"});
    a(0) = 100.;
    EXPECT_EQ(sum.expression()(0, 1), 120.);
}

TEST(xnamed_operators, results_of_temporaries_do_not_dangle)
{
    auto make = [] {
        return xn::name(xt::xarray<double>{1., 2.}, {"x"}) * xn::name(xt::xarray<double>{3., 4.}, {"y"});
    };
    auto product = make();
    EXPECT_EQ(xn::eval(product).expression(), (xt::xarray<double>{{3., 4.}, {6., 8.}}));
}

/***************************************************
 * Property: every strategy against the reference  *
 ***************************************************/

TEST(xnamed_operators, numpy_matches_the_reference_on_random_operands)
{
    check_strategy<xn::numpy>(kind::numpy, 1);
}

TEST(xnamed_operators, leading_matches_the_reference_on_random_operands)
{
    check_strategy<xn::leading>(kind::leading, 2);
}

TEST(xnamed_operators, missing_dims_matches_the_reference_on_random_operands)
{
    check_strategy<xn::missing_dims>(kind::missing_dims, 3);
}

TEST(xnamed_operators, stretching_missing_dims_matches_the_reference_on_random_operands)
{
    check_strategy<xn::basic_missing_dims<true>>(kind::missing_dims_stretch, 4);
}

TEST(xnamed_operators, name_match_matches_the_reference_on_random_operands)
{
    check_strategy<xn::name_match>(kind::name_match, 5);
}

TEST(xnamed_operators, exact_matches_the_reference_on_random_operands)
{
    std::mt19937 gen(6);
    std::size_t accepted = 0;
    std::size_t refused = 0;
    for (int i = 0; i < 1500; ++i)
    {
        random_case c = make_case(gen);
        // Half the cases compare an operand with a copy of itself, which exact accepts.
        if (i % 2 == 0)
        {
            c.b = c.a;
        }
        check_case<xn::exact>(kind::exact, c, accepted, refused);
    }
    EXPECT_GT(accepted, 100u);
    EXPECT_GT(refused, 100u);
}

using xn_test::counting_numpy;

// Operations reuse the plans of the built-in strategies (detail/operations/xplan_cache.hpp); a user's
// strategy is asked by every operation, whatever its operands.
TEST(xnamed_operators, asks_a_users_strategy_for_operands_of_equal_dims_and_shapes)
{
    const xt::xtensor<double, 2> values = {{1., 2.}, {3., 4.}};
    const auto x = xn::name<counting_numpy>(values, {"i", "j"});
    counting_numpy::calls = 0;
    const auto sum = xn::eval(x + x * x);
    EXPECT_EQ(counting_numpy::calls, 2);
    EXPECT_EQ(sum.dims(), xn::dims({"i", "j"}));
    const xt::xtensor<double, 2> expected = {{2., 6.}, {12., 20.}};
    EXPECT_EQ(sum.expression(), expected);
}

TEST(xnamed_operators, equal_operands_keep_their_dims_shape_and_values_under_every_builtin_strategy)
{
    const xt::xtensor<double, 3> values = xt::reshape_view(xt::arange<double>(24.), {2, 3, 4});
    const auto check = [&](auto tag)
    {
        using S = decltype(tag);
        const auto x = xn::name<S>(values, {"b", "h", "w"});
        const auto sum = xn::eval(x - x * 2.);
        EXPECT_EQ(sum.dims(), xn::dims({"b", "h", "w"}));
        const xt::xtensor<double, 3> expected = -values;
        EXPECT_EQ(sum.expression(), expected);
    };
    check(xn::numpy{});
    check(xn::leading{});
    check(xn::missing_dims{});
    check(xn::basic_missing_dims<true>{});
    check(xn::name_match{});
    check(xn::exact{});
}

TEST(xnamed_operators, missing_dims_refuses_an_unnamed_axis_of_equal_operands)
{
    const xt::xtensor<double, 2> values = {{1., 2.}, {3., 4.}};
    const auto x = xn::name<xn::missing_dims>(values, {"?", "j"});
    XN_EXPECT_THROW_HAS(x + x, xn::broadcast_error, {"xn::missing_dims", "unnamed axis 0"});
}

/********************************************************************
 * Weak scalars: a number takes the tensor's element type (NEP 50)  *
 ********************************************************************/

namespace
{
    template <class E>
    using value_of = typename std::decay_t<E>::value_type;
} // namespace

TEST(xnamed_operators, a_floating_number_takes_a_float_tensors_type_as_in_numpy_2)
{
    const xt::xarray<float> values = {0.25f, 1.f, 3.f};
    const auto x = xn::name(values, {"t"});
    const auto scaled = x * 0.5;
    static_assert(std::is_same<value_of<decltype(scaled)>, float>::value, "float times 0.5 stays float");
    static_assert(std::is_same<value_of<decltype(0.5 * x)>, float>::value, "on either side");
    static_assert(std::is_same<value_of<decltype(x + 1.0)>, float>::value);
    static_assert(std::is_same<value_of<decltype(x - 1.0)>, float>::value);
    static_assert(std::is_same<value_of<decltype(x / 3.0)>, float>::value);
    static_assert(std::is_same<value_of<decltype(x * 2)>, float>::value, "an integer takes float too");
    const auto evaluated = xn::eval(scaled);
    static_assert(std::is_same<value_of<decltype(evaluated)>, float>::value);
    EXPECT_EQ(evaluated.expression(), (xt::xarray<float>{0.125f, 0.5f, 1.5f}));
    // The number is converted once, to float: 0.1 as a float, not as a double rounded afterwards.
    EXPECT_EQ(xn::eval(x / 0.1).expression(), (xt::xarray<float>{0.25f / 0.1f, 1.f / 0.1f, 3.f / 0.1f}));
    // The number stays an xtensor scalar: the kernels evaluate the whole float tree, with a larger
    // operand too (a double number in a float tree is one they refuse).
    const xt::xarray<float> wide = xt::arange<float>(1000.f);
    const auto halves = xn::name(wide, {"t"}) * 0.5 + 1.0;
    auto out = xt::xarray<float>::from_shape(wide.shape());
    ASSERT_TRUE(xn::detail::try_kernel_assign(out, halves.expression()));
    for (std::size_t i = 0; i < wide.size(); ++i)
    {
        ASSERT_EQ(out(i), wide(i) * 0.5f + 1.f) << "at " << i;
    }
    // Plain xtensor is left as it is: float times a double is a double there.
    static_assert(std::is_same<value_of<decltype(values * 0.5)>, double>::value);
}

TEST(xnamed_operators, an_integer_tensor_with_a_floating_number_becomes_double)
{
    const xt::xarray<int> values = {1, 2, 5};
    const auto i = xn::name(values, {"t"});
    const auto halves = xn::eval(i * 0.5);
    static_assert(std::is_same<value_of<decltype(halves)>, double>::value, "int times 0.5 is float64");
    EXPECT_EQ(halves.expression(), (xt::xarray<double>{0.5, 1., 2.5}));
    // Whatever the number's own floating type: numpy's default floating type.
    static_assert(std::is_same<value_of<decltype(i * 0.5f)>, double>::value);
    EXPECT_EQ(xn::eval(i + 0.25f).expression(), (xt::xarray<double>{1.25, 2.25, 5.25}));
    // An integer number takes the integer tensor's type.
    const xt::xarray<std::int64_t> wide = {1, 2, 3};
    static_assert(std::is_same<value_of<decltype(xn::name(wide, {"t"}) * 2)>, std::int64_t>::value);
    static_assert(std::is_same<value_of<decltype(i * std::int64_t(2))>, int>::value);
    EXPECT_EQ(xn::eval(i * std::int64_t(3)).expression(), (xt::xarray<int>{3, 6, 15}));
}

TEST(xnamed_operators, an_integer_number_keeps_its_type_with_integers_narrower_than_int)
{
    // C++ computes uint8 in int: the number is not wrapped into uint8 first.
    const xt::xarray<std::uint8_t> values = {0, 44, 255};
    const auto u = xn::name(values, {"t"});
    static_assert(std::is_same<value_of<decltype(u + 300)>, int>::value);
    EXPECT_EQ(xn::eval(u + 300).expression(), (xt::xarray<int>{300, 344, 555}));
    EXPECT_EQ(xn::eval(u == 300).expression(), (xt::xarray<bool>{false, false, false}));
    // A floating number makes it double, as with any integer tensor.
    static_assert(std::is_same<value_of<decltype(u * 0.5f)>, double>::value);
}

TEST(xnamed_operators, a_bool_tensor_takes_the_numbers_kind_as_numpy)
{
    // Read element by element: xtensor's vectorised assignment has no arithmetic on bool containers.
    const xt::xarray<bool> values = {true, false, true};
    const auto mask = xn::name(values, {"t"});
    const auto counted = mask + 2;
    static_assert(std::is_same<value_of<decltype(counted)>, int>::value, "bool plus an int is an int");
    EXPECT_EQ(counted(0), 3);
    EXPECT_EQ(counted(1), 2);
    const auto weighted = mask * 0.5f;
    static_assert(std::is_same<value_of<decltype(weighted)>, double>::value, "bool times a float: float64");
    EXPECT_EQ(weighted(0), 0.5);
    EXPECT_EQ(weighted(1), 0.);
}

TEST(xnamed_operators, comparisons_with_a_number_compare_in_the_tensors_type)
{
    // 0.1 as a float is 0.100000001490116..., above the double 0.1: numpy 2 compares in float32.
    const xt::xarray<float> values = {0.1f, 0.2f};
    const auto x = xn::name(values, {"t"});
    EXPECT_EQ(xn::eval(x == 0.1).expression(), (xt::xarray<bool>{true, false}));
    EXPECT_EQ(xn::eval(x > 0.1).expression(), (xt::xarray<bool>{false, true}));
    EXPECT_EQ(xn::eval(0.1 >= x).expression(), (xt::xarray<bool>{true, false}));
    // An integer tensor compared with a floating number is compared in double: 1 < 1.5.
    const xt::xarray<int> ints = {1, 2};
    EXPECT_EQ(xn::eval(xn::name(ints, {"t"}) < 1.5).expression(), (xt::xarray<bool>{true, false}));
}

TEST(xnamed_operators, apply_and_plain_operands_give_the_numbers_the_tensors_common_type)
{
    const xt::xarray<float> values = {1.f, 2.f};
    const auto x = xn::name(values, {"t"});
    const auto added = xn::apply(std::plus<>(), x, 0.5);
    static_assert(std::is_same<value_of<decltype(added)>, float>::value);
    EXPECT_EQ(xn::eval(added).expression(), (xt::xarray<float>{1.5f, 2.5f}));
    double seen = 0.;
    const auto lambda = xn::apply(
        [&seen](auto a, auto b)
        {
            static_assert(std::is_same<decltype(b), float>::value, "the number reaches f as a float");
            seen = static_cast<double>(b);
            return a + b;
        },
        x, 0.1);
    EXPECT_EQ(xn::eval(lambda).expression(), (xt::xarray<float>{1.f + 0.1f, 2.f + 0.1f}));
    EXPECT_EQ(seen, static_cast<double>(0.1f));
    // A double tensor among the operands: the common type is double, and so is the number; a plain
    // double tensor beside a float one as well.
    const xt::xarray<double> wide = {10., 20.};
    const auto mixed = x * xn::name(wide, {"t"}) + 0.1;
    static_assert(std::is_same<value_of<decltype(mixed)>, double>::value);
    EXPECT_EQ(xn::eval(mixed).expression(), (xt::xarray<double>{10. + 0.1, 40. + 0.1}));
    const auto positional = xn::name<xn::numpy>(values, {"t"});
    const auto plain = positional * wide + 0.1;
    static_assert(std::is_same<value_of<decltype(plain)>, double>::value);
    EXPECT_EQ(xn::eval(plain).expression(), (xt::xarray<double>{10. + 0.1, 40. + 0.1}));
}
