/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The strategies against independent oracles over thousands of cases:
// - xn::numpy and xn::leading against tests/fixtures/strategies_{numpy,leading}.txt (np.broadcast_shapes,
//   and core.matrix's rule written out in Python), and partial shapes against TensorFlow's optimistic rule;
// - xn::missing_dims and xn::basic_missing_dims<true> against tests/fixtures/strategies_xarray.txt
//   (xarray's DataArray arithmetic);
// - xn::name_match against a reference written below from the table of docs/strategies.md, on random cases.
// Regenerate the fixtures with: /usr/bin/python3 tests/fixtures/generate_strategies.py

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <xtensor-named/xstrategies.hpp>

#include "support/expect_error.hpp"
#include "support/fixture_reader.hpp"

namespace xn = xt::named;

namespace
{
    using sizes_type = std::vector<std::int64_t>;
    constexpr std::int64_t U = xn::unknown;

    /***************************************
     * The size rules, written out plainly *
     ***************************************/

    // Stretching strategies: equal sizes, or one is 1; unknown with 1 or unknown gives unknown,
    // unknown with any other n gives n.
    std::optional<std::int64_t> spec_stretch(std::int64_t x, std::int64_t y)
    {
        if (x == U || y == U)
        {
            const std::int64_t other = x == U ? y : x;
            return other == U || other == 1 ? U : other;
        }
        if (x == y || y == 1)
        {
            return x;
        }
        if (x == 1)
        {
            return y;
        }
        return std::nullopt;
    }

    // Non-stretching strategies: equal sizes; unknown takes the other size.
    std::optional<std::int64_t> spec_equal(std::int64_t x, std::int64_t y)
    {
        if (x == U)
        {
            return y;
        }
        if (y == U || x == y)
        {
            return x;
        }
        return std::nullopt;
    }

    // numpy and core.matrix line shapes up from the right: the result shape, or the first result axis
    // that fails (as {nullopt, axis}).
    struct right_aligned_answer
    {
        std::optional<sizes_type> shape;
        std::size_t failing_axis = 0;
    };

    template <class Rule>
    right_aligned_answer spec_right_aligned(const sizes_type& a, const sizes_type& b, Rule rule)
    {
        const std::size_t rank = std::max(a.size(), b.size());
        sizes_type result;
        for (std::size_t i = 0; i < rank; ++i)
        {
            const std::size_t pad_a = rank - a.size();
            const std::size_t pad_b = rank - b.size();
            if (i < pad_a || i < pad_b)
            {
                result.push_back(i < pad_a ? b[i - pad_b] : a[i - pad_a]);
                continue;
            }
            const auto size = rule(a[i - pad_a], b[i - pad_b]);
            if (!size)
            {
                return {std::nullopt, i};
            }
            result.push_back(*size);
        }
        return {result, 0};
    }

    // Result axis i of a right-aligned plan comes from operand axis i - (rank - operand rank).
    std::vector<std::int64_t> spec_right_aligned_axes(std::size_t operand_rank, std::size_t rank)
    {
        std::vector<std::int64_t> axes;
        for (std::size_t i = 0; i < rank; ++i)
        {
            axes.push_back(i + operand_rank < rank ? U : static_cast<std::int64_t>(i + operand_rank - rank));
        }
        return axes;
    }

    // The way every message describes an axis: `axis 'h' (axis 2)`, `unnamed axis 0`.
    std::string axis_text(const xn::operand& op, std::size_t axis)
    {
        if (op.names[axis] == "?")
        {
            return "unnamed axis " + std::to_string(axis) + " of " + op.names.to_string();
        }
        return "axis '" + op.names[axis] + "' (axis " + std::to_string(axis) + ") of " + op.names.to_string();
    }

    std::string operands_text(const xn::operand& a, const xn::operand& b)
    {
        return "; operands " + a.to_string() + " and " + b.to_string();
    }

    void expect_refusal_text(const std::string& message, const std::string& strategy, const xn::operand& a,
                             const xn::operand& b)
    {
        const std::string prefix = "xn::" + strategy + ": ";
        const std::string suffix = operands_text(a, b);
        EXPECT_EQ(message.compare(0, prefix.size(), prefix), 0) << message;
        ASSERT_GE(message.size(), suffix.size()) << message;
        EXPECT_EQ(message.substr(message.size() - suffix.size()), suffix) << message;
    }

    xn::operand unnamed(const sizes_type& sizes)
    {
        return xn::operand::unnamed(xn::partial_shape::of(sizes));
    }

    /**************************************
     * numpy and leading against fixtures *
     **************************************/

    template <class S, class Rule>
    void check_right_aligned_fixture(const std::string& file, const std::string& strategy, Rule rule)
    {
        const auto cases = fixtures::read(file);
        ASSERT_GE(cases.size(), 1000u);
        std::size_t refused = 0;
        for (const auto& c : cases)
        {
            SCOPED_TRACE(file + " case at line " + std::to_string(c.line));
            const auto a = unnamed(c.ints("a"));
            const auto b = unnamed(c.ints("b"));
            if (c.string("ok") == "1")
            {
                const auto result = c.ints("result");
                const auto p = xn::plan<S>(a, b);
                EXPECT_EQ(p.shape, xn::partial_shape::of(result));
                EXPECT_EQ(p.names, xn::dims::unnamed(result.size()));
                EXPECT_EQ(p.axes[0], spec_right_aligned_axes(a.names.size(), result.size()));
                EXPECT_EQ(p.axes[1], spec_right_aligned_axes(b.names.size(), result.size()));
                continue;
            }
            ++refused;
            const auto message = xn_test::thrown_message<xn::broadcast_error>([&] { xn::plan<S>(a, b); });
            expect_refusal_text(message, strategy, a, b);
            // The oracle only says "refused"; which axis the message names follows the written-out rule.
            const auto answer = spec_right_aligned(c.ints("a"), c.ints("b"), rule);
            ASSERT_FALSE(answer.shape.has_value()) << "the fixture refuses a pair that the rule accepts";
            const std::size_t rank = std::max(a.names.size(), b.names.size());
            const std::size_t ia = answer.failing_axis - (rank - a.names.size());
            const std::size_t ib = answer.failing_axis - (rank - b.names.size());
            xn_test::expect_has_parts(message,
                                      {axis_text(a, ia) + " has size " + std::to_string(a.shape.size(ia)),
                                       axis_text(b, ib) + " has size " + std::to_string(b.shape.size(ib))});
        }
        // Both answers must be well represented for the comparison to mean anything.
        EXPECT_GT(refused, cases.size() / 10);
        EXPECT_LT(refused, cases.size() - cases.size() / 10);
    }

    // Each fixture pair again with sizes randomly made unknown: the plan must follow TensorFlow's optimistic
    // rule, and the fully known answer of the fixture must be one of the shapes the partial plan allows.
    template <class S, class Rule>
    void check_right_aligned_partial(const std::string& file, Rule rule)
    {
        std::mt19937 random(20240503);
        std::bernoulli_distribution make_unknown(0.3);
        const auto blur = [&](sizes_type sizes)
        {
            for (auto& s : sizes)
            {
                s = make_unknown(random) ? U : s;
            }
            return sizes;
        };
        std::size_t planned = 0;
        for (const auto& c : fixtures::read(file))
        {
            SCOPED_TRACE(file + " case at line " + std::to_string(c.line));
            const auto sizes_a = blur(c.ints("a"));
            const auto sizes_b = blur(c.ints("b"));
            const auto expected = spec_right_aligned(sizes_a, sizes_b, rule);
            if (!expected.shape)
            {
                EXPECT_THROW(xn::plan<S>(unnamed(sizes_a), unnamed(sizes_b)), xn::broadcast_error);
                continue;
            }
            ++planned;
            const auto p = xn::plan<S>(unnamed(sizes_a), unnamed(sizes_b));
            EXPECT_EQ(p.shape, xn::partial_shape::of(*expected.shape));
            if (c.string("ok") == "1")
            {
                EXPECT_TRUE(p.shape.is_compatible_with(xn::partial_shape::of(c.ints("result"))));
            }
        }
        EXPECT_GT(planned, 1000u);
    }
} // namespace

TEST(numpy, agrees_with_numpy_broadcast_shapes)
{
    check_right_aligned_fixture<xn::numpy>("strategies_numpy.txt", "numpy", spec_stretch);
}

TEST(numpy, unknown_sizes_follow_the_optimistic_rule_on_the_numpy_cases)
{
    check_right_aligned_partial<xn::numpy>("strategies_numpy.txt", spec_stretch);
}

TEST(leading, agrees_with_seed_003_implicit_broadcasting)
{
    check_right_aligned_fixture<xn::leading>("strategies_leading.txt", "leading", spec_equal);
}

TEST(leading, unknown_sizes_take_the_known_size_on_the_leading_cases)
{
    check_right_aligned_partial<xn::leading>("strategies_leading.txt", spec_equal);
}

/*************************************
 * missing_dims against xarray       *
 *************************************/

namespace
{
    std::vector<std::int64_t> axes_by_name(const xn::dims& result, const xn::dims& operand_names)
    {
        std::vector<std::int64_t> axes;
        for (const auto& name : result)
        {
            const auto it = std::find(operand_names.begin(), operand_names.end(), name);
            axes.push_back(it == operand_names.end() ? U
                                                     : static_cast<std::int64_t>(it - operand_names.begin()));
        }
        return axes;
    }
} // namespace

TEST(missing_dims, agrees_with_xarray_dataarray_arithmetic)
{
    const auto cases = fixtures::read("strategies_xarray.txt");
    ASSERT_GE(cases.size(), 1000u);
    std::size_t refused = 0;
    for (const auto& c : cases)
    {
        SCOPED_TRACE("strategies_xarray.txt case at line " + std::to_string(c.line));
        const xn::operand a{xn::partial_shape::of(c.ints("a")), xn::dims(c.strings("a_dims"))};
        const xn::operand b{xn::partial_shape::of(c.ints("b")), xn::dims(c.strings("b_dims"))};
        if (c.string("ok") == "1")
        {
            const xn::dims result_dims(c.strings("result_dims"));
            const auto p = xn::plan<xn::missing_dims>(a, b);
            EXPECT_EQ(p.names, result_dims);
            EXPECT_EQ(p.shape, xn::partial_shape::of(c.ints("result")));
            EXPECT_EQ(p.axes[0], axes_by_name(result_dims, a.names));
            EXPECT_EQ(p.axes[1], axes_by_name(result_dims, b.names));
            continue;
        }
        ++refused;
        const auto message =
            xn_test::thrown_message<xn::broadcast_error>([&] { xn::plan<xn::missing_dims>(a, b); });
        expect_refusal_text(message, "missing_dims", a, b);
        if (c.string("conflict") != "-")
        {
            const auto& name = c.string("conflict");
            const auto ia = static_cast<std::size_t>(a.names.index_of(name));
            const auto ib = static_cast<std::size_t>(b.names.index_of(name));
            xn_test::expect_has_parts(message, {axis_text(a, ia), axis_text(b, ib), "stretches no axis"});
        }
    }
    EXPECT_GT(refused, cases.size() / 20);
}

TEST(basic_missing_dims, agrees_with_xarray_order_and_numpy_stretching)
{
    const auto cases = fixtures::read("strategies_xarray.txt");
    std::size_t stretched = 0;
    std::size_t refused = 0;
    for (const auto& c : cases)
    {
        SCOPED_TRACE("strategies_xarray.txt case at line " + std::to_string(c.line));
        const xn::operand a{xn::partial_shape::of(c.ints("a")), xn::dims(c.strings("a_dims"))};
        const xn::operand b{xn::partial_shape::of(c.ints("b")), xn::dims(c.strings("b_dims"))};
        if (c.string("stretch_ok") == "1")
        {
            const xn::dims result_dims(c.strings("stretch_dims"));
            const auto p = xn::plan<xn::basic_missing_dims<true>>(a, b);
            EXPECT_EQ(p.names, result_dims);
            EXPECT_EQ(p.shape, xn::partial_shape::of(c.ints("stretch_result")));
            EXPECT_EQ(p.axes[0], axes_by_name(result_dims, a.names));
            EXPECT_EQ(p.axes[1], axes_by_name(result_dims, b.names));
            stretched += c.string("ok") == "0" ? 1 : 0;
            continue;
        }
        ++refused;
        const auto message = xn_test::thrown_message<xn::broadcast_error>(
            [&] { xn::plan<xn::basic_missing_dims<true>>(a, b); });
        expect_refusal_text(message, "basic_missing_dims<true>", a, b);
    }
    // Cases that xarray refuses and stretching accepts: the only difference between the two.
    EXPECT_GT(stretched, 20u);
    EXPECT_GT(refused, 20u);
}

/**********************************************
 * name_match against a written-out reference *
 **********************************************/

namespace
{
    struct reference_answer
    {
        bool ok = false;
        bool sizes_differ = false;    // else the failing axis has no match
        std::size_t failing_axis = 0; // of the operand that is not the result
        std::vector<std::string> names;
        sizes_type sizes;
        std::vector<std::int64_t> axes[2];
    };

    // The result is the operand with more axes (on a tie, the left), its order and names. Every
    // axis of the other must find a match: a named axis by name, anywhere; the unnamed axes the larger
    // one's unnamed axes, right-aligned, in order. Matched sizes are equal or one is 1. Refusals name
    // the first axis of the other operand that fails.
    reference_answer name_match_reference(const xn::operand& a, const xn::operand& b)
    {
        const bool a_is_result = a.names.size() >= b.names.size();
        const xn::operand& big = a_is_result ? a : b;
        const xn::operand& other = a_is_result ? b : a;
        const std::size_t big_k = a_is_result ? 0 : 1;
        const auto big_rank = static_cast<std::int64_t>(big.names.size());
        const auto other_rank = static_cast<std::int64_t>(other.names.size());

        std::vector<std::int64_t> partner(other.names.size(), U);
        for (std::int64_t j = 0; j < other_rank; ++j)
        {
            for (std::int64_t i = 0; i < big_rank; ++i)
            {
                if (other.names[j] != "?" && big.names[i] == other.names[j])
                {
                    partner[j] = i;
                }
            }
        }
        // Walk both operands' unnamed axes from the right, pairing them up.
        std::int64_t i = big_rank - 1;
        for (std::int64_t j = other_rank - 1; j >= 0; --j)
        {
            if (other.names[j] != "?")
            {
                continue;
            }
            while (i >= 0 && big.names[i] != "?")
            {
                --i;
            }
            if (i >= 0)
            {
                partner[j] = i--;
            }
        }

        reference_answer answer;
        answer.names = big.names.names();
        answer.sizes = big.shape.sizes();
        for (std::int64_t k = 0; k < big_rank; ++k)
        {
            answer.axes[big_k].push_back(k);
            answer.axes[1 - big_k].push_back(U);
        }
        for (std::int64_t j = 0; j < other_rank; ++j)
        {
            answer.failing_axis = static_cast<std::size_t>(j);
            if (partner[j] == U)
            {
                return answer;
            }
            const auto size = spec_stretch(answer.sizes[partner[j]], other.shape.sizes()[j]);
            if (!size)
            {
                answer.sizes_differ = true;
                return answer;
            }
            answer.sizes[partner[j]] = *size;
            answer.axes[1 - big_k][partner[j]] = j;
        }
        answer.ok = true;
        return answer;
    }

    // Random operands built so that most pairs nearly match: the smaller one takes a random subset of
    // the larger one's axes, permuted, and some names and sizes are then changed.
    class name_match_cases
    {
    public:
        explicit name_match_cases(unsigned seed) : m_random(seed) {}

        std::pair<xn::operand, xn::operand> next()
        {
            while (true)
            {
                std::vector<std::string> big_names;
                sizes_type big_sizes;
                const auto big_rank = pick(0, 5);
                for (int i = 0; i < big_rank; ++i)
                {
                    big_names.push_back(chance(0.4) ? "?" : m_alphabet[static_cast<std::size_t>(pick(0, 5))]);
                    big_sizes.push_back(chance(0.1) ? U : pick(1, 4));
                }
                std::vector<std::size_t> order(big_names.size());
                for (std::size_t i = 0; i < order.size(); ++i)
                {
                    order[i] = i;
                }
                std::shuffle(order.begin(), order.end(), m_random);
                order.resize(static_cast<std::size_t>(pick(0, big_rank)));
                std::vector<std::string> small_names;
                sizes_type small_sizes;
                for (std::size_t i : order)
                {
                    small_names.push_back(big_names[i]);
                    small_sizes.push_back(big_sizes[i]);
                    if (chance(0.15))
                    {
                        small_names.back() =
                            chance(0.5) ? "?" : m_alphabet[static_cast<std::size_t>(pick(0, 5))];
                    }
                    if (chance(0.3))
                    {
                        small_sizes.back() = chance(0.4) ? 1 : (chance(0.2) ? U : pick(1, 4));
                    }
                }
                if (!unique(big_names) || !unique(small_names))
                {
                    continue;
                }
                xn::operand big{xn::partial_shape::of(big_sizes), xn::dims(big_names)};
                xn::operand small{xn::partial_shape::of(small_sizes), xn::dims(small_names)};
                if (chance(0.5))
                {
                    return {big, small};
                }
                return {small, big};
            }
        }

    private:
        int pick(int low, int high)
        {
            return std::uniform_int_distribution<int>(low, high)(m_random);
        }

        bool chance(double p)
        {
            return std::bernoulli_distribution(p)(m_random);
        }

        static bool unique(const std::vector<std::string>& names)
        {
            for (std::size_t i = 0; i < names.size(); ++i)
            {
                for (std::size_t j = 0; j < i; ++j)
                {
                    if (names[i] != "?" && names[i] == names[j])
                    {
                        return false;
                    }
                }
            }
            return true;
        }

        std::mt19937 m_random;
        std::vector<std::string> m_alphabet = {"h", "w", "c", "t", "x", "y"};
    };
} // namespace

TEST(name_match, agrees_with_the_reference_on_random_operands)
{
    name_match_cases cases(20240503);
    std::size_t accepted = 0;
    std::size_t unmatched = 0;
    std::size_t sizes_differ = 0;
    for (int n = 0; n < 10000; ++n)
    {
        // Named references, not a structured binding: C++17 lambdas cannot capture bindings.
        const auto operands = cases.next();
        const xn::operand& a = operands.first;
        const xn::operand& b = operands.second;
        SCOPED_TRACE("case " + std::to_string(n) + ": " + a.to_string() + " and " + b.to_string());
        const auto expected = name_match_reference(a, b);
        if (expected.ok)
        {
            ++accepted;
            const auto p = xn::plan<xn::name_match>(a, b);
            EXPECT_EQ(p.names, xn::dims(expected.names));
            EXPECT_EQ(p.shape, xn::partial_shape::of(expected.sizes));
            EXPECT_EQ(p.axes[0], expected.axes[0]);
            EXPECT_EQ(p.axes[1], expected.axes[1]);
            continue;
        }
        ++(expected.sizes_differ ? sizes_differ : unmatched);
        const auto message =
            xn_test::thrown_message<xn::broadcast_error>([&] { xn::plan<xn::name_match>(a, b); });
        expect_refusal_text(message, "name_match", a, b);
        const xn::operand& other = a.names.size() >= b.names.size() ? b : a;
        xn_test::expect_has_parts(message,
                                  {axis_text(other, expected.failing_axis),
                                   expected.sizes_differ ? ", and neither is 1" : " has no match in "});
    }
    EXPECT_GT(accepted, 1000u);
    EXPECT_GT(unmatched, 500u);
    EXPECT_GT(sizes_differ, 500u);
}
