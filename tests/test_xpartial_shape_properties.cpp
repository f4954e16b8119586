/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::partial_shape against a plain model written from TensorFlow's `Shape`: a shape is
// std::nullopt (unknown rank) or a list of sizes where -1 is unknown. Thousands of random shapes and
// pairs, from a fixed seed; every operation is compared with the model, and the algebraic laws of
// compatibility, merge and most-specific-compatible-shape are checked.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xpartial_shape.hpp>

namespace xn = xt::named;

namespace
{
    using model = std::optional<std::vector<long long>>;

    constexpr long long unknown_size = -1;
    constexpr long long largest = std::numeric_limits<long long>::max();
    constexpr int trials = 4000;

    // The model
    // =========

    long long model_rank(const model& m)
    {
        return m ? static_cast<long long>(m->size()) : unknown_size;
    }

    bool model_has_unknown(const model& m)
    {
        if (!m)
        {
            return true;
        }
        for (long long s : *m)
        {
            if (s == unknown_size)
            {
                return true;
            }
        }
        return false;
    }

    // std::nullopt: the operation must throw.
    std::optional<long long> model_size(const model& m, long long i)
    {
        if (!m)
        {
            return unknown_size;
        }
        const auto n = static_cast<long long>(m->size());
        if (i >= 0 && i < n)
        {
            return (*m)[static_cast<std::size_t>(i)];
        }
        if (i < 0 && i >= -n)
        {
            return (*m)[static_cast<std::size_t>(n + i)];
        }
        return std::nullopt;
    }

    // std::nullopt: the count overflows and the operation must throw.
    std::optional<long long> model_num_elements(const model& m)
    {
        if (model_has_unknown(m))
        {
            return unknown_size;
        }
        for (long long s : *m)
        {
            if (s == 0)
            {
                return 0;
            }
        }
        long long product = 1;
        for (long long s : *m)
        {
            if (__builtin_mul_overflow(product, s, &product))
            {
                return std::nullopt;
            }
        }
        return product;
    }

    // A concrete shape must be one that an xtensor container can have: its element count and its
    // row-major strides (the products of the sizes after each axis) fit in 64 bits. Every one of these
    // is the product of a suffix of the sizes.
    bool model_allocatable(const model& m)
    {
        for (std::size_t k = 0; k < m->size(); ++k)
        {
            const model suffix(std::vector<long long>(m->begin() + static_cast<std::ptrdiff_t>(k), m->end()));
            if (!model_num_elements(suffix))
            {
                return false;
            }
        }
        return true;
    }

    bool model_compatible(const model& a, const model& b)
    {
        if (!a || !b)
        {
            return true;
        }
        if (a->size() != b->size())
        {
            return false;
        }
        for (std::size_t i = 0; i < a->size(); ++i)
        {
            const auto x = (*a)[i];
            const auto y = (*b)[i];
            if (x != unknown_size && y != unknown_size && x != y)
            {
                return false;
            }
        }
        return true;
    }

    // std::nullopt: the shapes cannot be merged and merge_with must throw.
    std::optional<model> model_merge(const model& a, const model& b)
    {
        if (!a)
        {
            return b;
        }
        if (!b)
        {
            return a;
        }
        if (!model_compatible(a, b))
        {
            return std::nullopt;
        }
        std::vector<long long> out;
        for (std::size_t i = 0; i < a->size(); ++i)
        {
            out.push_back((*a)[i] == unknown_size ? (*b)[i] : (*a)[i]);
        }
        return model(out);
    }

    model model_most_specific_compatible(const model& a, const model& b)
    {
        if (!a || !b || a->size() != b->size())
        {
            return std::nullopt;
        }
        std::vector<long long> out;
        for (std::size_t i = 0; i < a->size(); ++i)
        {
            out.push_back((*a)[i] == (*b)[i] ? (*a)[i] : unknown_size);
        }
        return model(out);
    }

    std::optional<model> model_slice(const model& m, long long begin, long long end)
    {
        if (!m || begin < 0 || end < begin || end > static_cast<long long>(m->size()))
        {
            return std::nullopt;
        }
        return model(std::vector<long long>(m->begin() + begin, m->begin() + end));
    }

    std::optional<model> model_join(const model& first, const model& second)
    {
        if (!first || !second)
        {
            return std::nullopt;
        }
        std::vector<long long> out = *first;
        out.insert(out.end(), second->begin(), second->end());
        return model(out);
    }

    std::string model_to_string(const model& m)
    {
        if (!m)
        {
            return "<unknown>";
        }
        std::ostringstream out;
        out << '(';
        for (std::size_t i = 0; i < m->size(); ++i)
        {
            out << (i ? ", " : "");
            if ((*m)[i] == unknown_size)
            {
                out << '?';
            }
            else
            {
                out << (*m)[i];
            }
        }
        out << ')';
        return out.str();
    }

    // Conversions
    // ===========

    xn::partial_shape to_shape(const model& m)
    {
        return m ? xn::partial_shape::of(*m) : xn::partial_shape::unknown();
    }

    // Reads a shape back through rank() and size(i) only.
    model to_model(const xn::partial_shape& s)
    {
        if (s.rank() == xn::unknown)
        {
            return std::nullopt;
        }
        std::vector<long long> out;
        for (std::int64_t i = 0; i < s.rank(); ++i)
        {
            out.push_back(s.size(i));
        }
        return model(out);
    }

    // Every size at least as known as in `general`: where `general` knows a size, `specific` has it too.
    bool at_least_as_specific(const model& specific, const model& general)
    {
        if (!general)
        {
            return true;
        }
        if (!specific || specific->size() != general->size())
        {
            return false;
        }
        for (std::size_t i = 0; i < general->size(); ++i)
        {
            if ((*general)[i] != unknown_size && (*specific)[i] != (*general)[i])
            {
                return false;
            }
        }
        return true;
    }

    // Random shapes
    // =============

    class shape_source
    {
    public:
        explicit shape_source(unsigned seed) : m_random(seed) {}

        long long any_size()
        {
            // Mostly small sizes, some at the edges of the 64-bit range so that products overflow.
            static const std::vector<long long> sizes = {
                unknown_size, unknown_size, 0,          1,          1,      2, 2, 3, 4, 7,
                1LL << 20,    1LL << 31,    3037000499, 3037000500, largest};
            return sizes[pick(sizes.size())];
        }

        model any_shape()
        {
            if (pick(8) == 0)
            {
                return std::nullopt;
            }
            std::vector<long long> sizes(pick(7));
            for (auto& s : sizes)
            {
                s = any_size();
            }
            return model(sizes);
        }

        // Half the time a variation of `m` (same rank, some sizes forgotten or changed), so that
        // compatible pairs are common.
        model other_shape(const model& m)
        {
            if (!m || pick(2) == 0)
            {
                return any_shape();
            }
            std::vector<long long> sizes = *m;
            for (auto& s : sizes)
            {
                const auto choice = pick(6);
                if (choice == 0)
                {
                    s = unknown_size;
                }
                else if (choice == 1)
                {
                    s = any_size();
                }
            }
            return model(sizes);
        }

        long long any_index(long long rank)
        {
            const long long extent = rank < 0 ? 3 : rank;
            std::uniform_int_distribution<long long> near(-extent - 2, extent + 2);
            switch (pick(10))
            {
                case 0:
                    return std::numeric_limits<long long>::min();
                case 1:
                    return largest;
                default:
                    return near(m_random);
            }
        }

        std::size_t pick(std::size_t n)
        {
            return std::uniform_int_distribution<std::size_t>(0, n - 1)(m_random);
        }

    private:
        std::mt19937 m_random;
    };
} // namespace

TEST(partial_shape_properties, construction_round_trips_through_rank_and_size)
{
    shape_source source(1);
    for (int t = 0; t < trials; ++t)
    {
        const model m = source.any_shape();
        const auto s = to_shape(m);
        ASSERT_EQ(to_model(s), m) << model_to_string(m);
        ASSERT_EQ(s.rank(), model_rank(m)) << model_to_string(m);
        ASSERT_EQ(s.is_unknown(), !m) << model_to_string(m);
        ASSERT_EQ(s.has_unknown_dimension(), model_has_unknown(m)) << model_to_string(m);
        ASSERT_EQ(s.is_fully_known(), !model_has_unknown(m)) << model_to_string(m);
        ASSERT_EQ(s.is_scalar(), model_rank(m) == 0) << model_to_string(m);
        ASSERT_EQ(s.is_vector(), model_rank(m) == 1) << model_to_string(m);
        ASSERT_EQ(s.is_matrix(), model_rank(m) == 2) << model_to_string(m);
        if (m)
        {
            ASSERT_EQ(s.sizes(), std::vector<std::int64_t>(m->begin(), m->end())) << model_to_string(m);
        }
    }
}

TEST(partial_shape_properties, size_matches_the_model_for_every_index)
{
    shape_source source(2);
    for (int t = 0; t < trials; ++t)
    {
        const model m = source.any_shape();
        const auto s = to_shape(m);
        for (int k = 0; k < 4; ++k)
        {
            const auto i = source.any_index(model_rank(m));
            const auto expected = model_size(m, i);
            if (expected)
            {
                ASSERT_EQ(s.size(i), *expected) << model_to_string(m) << " size(" << i << ")";
            }
            else
            {
                ASSERT_THROW(s.size(i), xn::shape_error) << model_to_string(m) << " size(" << i << ")";
            }
        }
    }
}

TEST(partial_shape_properties, num_elements_matches_the_model)
{
    shape_source source(3);
    int overflows = 0;
    for (int t = 0; t < trials; ++t)
    {
        const model m = source.any_shape();
        const auto s = to_shape(m);
        const auto expected = model_num_elements(m);
        if (expected)
        {
            ASSERT_EQ(s.num_elements(), *expected) << model_to_string(m);
        }
        else
        {
            ++overflows;
            ASSERT_THROW(s.num_elements(), xn::shape_error) << model_to_string(m);
        }
    }
    EXPECT_GT(overflows, trials / 50);
}

TEST(partial_shape_properties, to_string_and_to_concrete_match_the_model)
{
    shape_source source(4);
    for (int t = 0; t < trials; ++t)
    {
        const model m = source.any_shape();
        const auto s = to_shape(m);
        ASSERT_EQ(s.to_string(), model_to_string(m));
        if (model_has_unknown(m) || !model_allocatable(m))
        {
            ASSERT_THROW(s.to_concrete(), xn::shape_error) << model_to_string(m);
        }
        else
        {
            ASSERT_EQ(s.to_concrete(), std::vector<std::size_t>(m->begin(), m->end())) << model_to_string(m);
        }
    }
}

TEST(partial_shape_properties, slicing_matches_the_model)
{
    shape_source source(5);
    for (int t = 0; t < trials; ++t)
    {
        const model m = source.any_shape();
        const auto s = to_shape(m);
        const auto rank = model_rank(m);
        const auto b = source.any_index(rank);
        const auto e = source.any_index(rank);
        const auto n = source.any_index(rank);

        const auto sub = model_slice(m, b, e);
        if (sub)
        {
            ASSERT_EQ(to_model(s.sub_shape(b, e)), *sub)
                << model_to_string(m) << " [" << b << ", " << e << ")";
        }
        else
        {
            ASSERT_THROW(s.sub_shape(b, e), xn::shape_error)
                << model_to_string(m) << " [" << b << ", " << e << ")";
        }

        const auto first = model_slice(m, 0, n);
        if (first)
        {
            ASSERT_EQ(to_model(s.take(n)), *first) << model_to_string(m) << " take " << n;
        }
        else
        {
            ASSERT_THROW(s.take(n), xn::shape_error) << model_to_string(m) << " take " << n;
        }

        const auto last = (m && n >= 0 && n <= rank) ? model_slice(m, rank - n, rank) : std::nullopt;
        if (last)
        {
            ASSERT_EQ(to_model(s.take_last(n)), *last) << model_to_string(m) << " take_last " << n;
        }
        else
        {
            ASSERT_THROW(s.take_last(n), xn::shape_error) << model_to_string(m) << " take_last " << n;
        }

        if (m && rank >= 1)
        {
            ASSERT_EQ(to_model(s.head()), *model_slice(m, 0, 1)) << model_to_string(m);
            ASSERT_EQ(to_model(s.tail()), *model_slice(m, 1, rank)) << model_to_string(m);
        }
        else
        {
            ASSERT_THROW(s.head(), xn::shape_error) << model_to_string(m);
        }
        if (m && rank == 0)
        {
            // The tail of the scalar shape is the scalar shape, as TensorFlow's Shape.tail.
            ASSERT_EQ(to_model(s.tail()), model(std::vector<long long>{})) << model_to_string(m);
        }
        else if (!m)
        {
            ASSERT_THROW(s.tail(), xn::shape_error) << model_to_string(m);
        }
    }
}

TEST(partial_shape_properties, append_and_prepend_match_the_model)
{
    shape_source source(6);
    for (int t = 0; t < trials; ++t)
    {
        const model a = source.any_shape();
        const model b = source.any_shape();
        const auto x = to_shape(a);
        const auto y = to_shape(b);

        const auto appended = model_join(a, b);
        const auto prepended = model_join(b, a);
        if (appended)
        {
            ASSERT_EQ(to_model(x.append(y)), *appended)
                << model_to_string(a) << " append " << model_to_string(b);
            ASSERT_EQ(to_model(x.prepend(y)), *prepended)
                << model_to_string(a) << " prepend " << model_to_string(b);
        }
        else
        {
            ASSERT_THROW(x.append(y), xn::shape_error)
                << model_to_string(a) << " append " << model_to_string(b);
            ASSERT_THROW(x.prepend(y), xn::shape_error)
                << model_to_string(a) << " prepend " << model_to_string(b);
        }

        const auto size = source.any_size();
        if (a)
        {
            ASSERT_EQ(to_model(x.append(size)), *model_join(a, model(std::vector<long long>{size})));
            ASSERT_EQ(to_model(x.prepend(size)), *model_join(model(std::vector<long long>{size}), a));
        }
        else
        {
            ASSERT_THROW(x.append(size), xn::shape_error);
            ASSERT_THROW(x.prepend(size), xn::shape_error);
        }
    }
}

TEST(partial_shape_properties, equality_matches_the_model)
{
    shape_source source(7);
    for (int t = 0; t < trials; ++t)
    {
        const model a = source.any_shape();
        const model b = source.other_shape(a);
        const auto x = to_shape(a);
        const auto y = to_shape(b);
        ASSERT_EQ(x == y, a == b) << model_to_string(a) << " == " << model_to_string(b);
        ASSERT_EQ(x != y, a != b) << model_to_string(a) << " != " << model_to_string(b);
        // TensorFlow's Shape.equals, for two distinct objects.
        const bool known = !model_has_unknown(a) && !model_has_unknown(b) && a == b;
        ASSERT_EQ(xn::known_equal(x, y), known)
            << model_to_string(a) << " known_equal " << model_to_string(b);
        ASSERT_TRUE(xn::known_equal(x, x)) << model_to_string(a);
    }
}

TEST(partial_shape_properties, compatibility_matches_the_model_and_is_reflexive_and_symmetric)
{
    shape_source source(8);
    int compatible = 0;
    for (int t = 0; t < trials; ++t)
    {
        const model a = source.any_shape();
        const model b = source.other_shape(a);
        const auto x = to_shape(a);
        const auto y = to_shape(b);
        const bool expected = model_compatible(a, b);
        compatible += expected ? 1 : 0;
        ASSERT_EQ(x.is_compatible_with(y), expected) << model_to_string(a) << " ~ " << model_to_string(b);
        ASSERT_EQ(y.is_compatible_with(x), expected) << model_to_string(b) << " ~ " << model_to_string(a);
        ASSERT_TRUE(x.is_compatible_with(x)) << model_to_string(a);
        ASSERT_TRUE(y.is_compatible_with(y)) << model_to_string(b);
    }
    // Both outcomes must be common, or the comparison proves little.
    EXPECT_GT(compatible, trials / 5);
    EXPECT_LT(compatible, trials * 4 / 5);
}

TEST(partial_shape_properties, merge_matches_the_model_and_is_compatible_with_both_and_more_specific)
{
    shape_source source(9);
    int merged = 0;
    for (int t = 0; t < trials; ++t)
    {
        const model a = source.any_shape();
        const model b = source.other_shape(a);
        const auto x = to_shape(a);
        const auto y = to_shape(b);
        const auto expected = model_merge(a, b);
        if (!expected)
        {
            ASSERT_FALSE(x.is_compatible_with(y)) << model_to_string(a) << " merge " << model_to_string(b);
            ASSERT_THROW(x.merge_with(y), xn::shape_error)
                << model_to_string(a) << " merge " << model_to_string(b);
            ASSERT_THROW(y.merge_with(x), xn::shape_error)
                << model_to_string(b) << " merge " << model_to_string(a);
            continue;
        }
        ++merged;
        const auto result = x.merge_with(y);
        ASSERT_EQ(to_model(result), *expected) << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_EQ(y.merge_with(x), result) << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_TRUE(result.is_compatible_with(x)) << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_TRUE(result.is_compatible_with(y)) << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_TRUE(at_least_as_specific(to_model(result), a))
            << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_TRUE(at_least_as_specific(to_model(result), b))
            << model_to_string(a) << " merge " << model_to_string(b);
        ASSERT_EQ(x.merge_with(x), x) << model_to_string(a);
        ASSERT_EQ(result.merge_with(x), result) << model_to_string(a) << " merge " << model_to_string(b);
    }
    EXPECT_GT(merged, trials / 5);
}

TEST(partial_shape_properties, most_specific_compatible_shape_matches_the_model_and_is_compatible_with_both)
{
    shape_source source(10);
    for (int t = 0; t < trials; ++t)
    {
        const model a = source.any_shape();
        const model b = source.other_shape(a);
        const auto x = to_shape(a);
        const auto y = to_shape(b);
        const auto result = x.most_specific_compatible_shape(y);
        ASSERT_EQ(to_model(result), model_most_specific_compatible(a, b))
            << model_to_string(a) << " msc " << model_to_string(b);
        ASSERT_EQ(y.most_specific_compatible_shape(x), result)
            << model_to_string(a) << " msc " << model_to_string(b);
        ASSERT_TRUE(result.is_compatible_with(x)) << model_to_string(a) << " msc " << model_to_string(b);
        ASSERT_TRUE(result.is_compatible_with(y)) << model_to_string(a) << " msc " << model_to_string(b);
        // Both operands are at least as specific as the result: it keeps only what they agree on.
        ASSERT_TRUE(at_least_as_specific(a, to_model(result)))
            << model_to_string(a) << " msc " << model_to_string(b);
        ASSERT_TRUE(at_least_as_specific(b, to_model(result)))
            << model_to_string(a) << " msc " << model_to_string(b);
        ASSERT_EQ(x.most_specific_compatible_shape(x), x) << model_to_string(a);
    }
}
