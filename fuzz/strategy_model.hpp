/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_FUZZ_STRATEGY_MODEL_HPP
#define XTENSOR_NAMED_FUZZ_STRATEGY_MODEL_HPP

// The reference model of the built-in strategies, written from the table of docs/strategies.md and shared by
// the fuzz targets that judge a strategy's answer: fuzz_plan (xn::plan<S> itself) and fuzz_named_broadcast
// (xn::broadcast_like and xn::unbroadcast, which line axes up under a strategy). For each strategy, a
// function lines up the axes of two operands by the strategy's rule (nothing when the rule refuses
// them), and pair_size decides a lined-up pair of sizes.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <xtensor-named/xbroadcast_plan.hpp>

namespace xn_fuzz
{
    namespace xn = xt::named;

    using index_type = std::int64_t;

    inline constexpr index_type absent = -1;
    inline constexpr index_type unknown_size = -1;

    inline const char* const name_alphabet[] = {"?", "a", "b", "c", "d", "e"};

    /// What the fuzzer knows of an operand beyond the xn::operand itself.
    struct input_operand
    {
        xn::operand op;
        bool well_formed = true;
        bool known_rank = true;
        std::vector<index_type> sizes;
        std::vector<std::string> names;
    };

    /// One result axis of the model: its name and the axis of each operand that lands there.
    struct model_axis
    {
        std::string name;
        index_type from[2];
    };

    struct model_plan
    {
        std::vector<model_axis> axes;
        bool stretch = false;
    };

    inline index_type position(const std::vector<std::string>& names, const std::string& name)
    {
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            if (names[i] == name)
            {
                return static_cast<index_type>(i);
            }
        }
        return absent;
    }

    /// numpy and leading: right-aligned, names unify position by position (the table's first two rows).
    inline std::optional<model_plan> line_up_right_aligned(const input_operand& a, const input_operand& b,
                                                           bool stretch)
    {
        const std::size_t ra = a.names.size();
        const std::size_t rb = b.names.size();
        const std::size_t rank = ra > rb ? ra : rb;
        model_plan p;
        p.stretch = stretch;
        for (std::size_t i = 0; i < rank; ++i)
        {
            model_axis axis{"", {absent, absent}};
            const bool in_a = i + ra >= rank;
            const bool in_b = i + rb >= rank;
            if (in_a)
            {
                axis.from[0] = static_cast<index_type>(i + ra - rank);
            }
            if (in_b)
            {
                axis.from[1] = static_cast<index_type>(i + rb - rank);
            }
            if (in_a && in_b)
            {
                const std::string& na = a.names[static_cast<std::size_t>(axis.from[0])];
                const std::string& nb = b.names[static_cast<std::size_t>(axis.from[1])];
                if (na == nb)
                {
                    axis.name = na;
                }
                else if (na != "?" && nb != "?")
                {
                    return std::nullopt;
                }
                else
                {
                    // The named one wins, unless the operand whose axis is "?" has that name elsewhere.
                    axis.name = na == "?" ? nb : na;
                    const auto& unnamed_side = na == "?" ? a.names : b.names;
                    if (position(unnamed_side, axis.name) != absent)
                    {
                        return std::nullopt;
                    }
                }
            }
            else
            {
                axis.name = in_a ? a.names[static_cast<std::size_t>(axis.from[0])]
                                 : b.names[static_cast<std::size_t>(axis.from[1])];
            }
            p.axes.push_back(axis);
        }
        return p;
    }

    /// missing_dims: by name; the left operand's axes, then the right's that the left lacks.
    inline std::optional<model_plan> line_up_by_name(const input_operand& a, const input_operand& b,
                                                     bool stretch)
    {
        for (const auto* in : {&a, &b})
        {
            for (const auto& n : in->names)
            {
                if (n == "?")
                {
                    return std::nullopt;
                }
            }
        }
        model_plan p;
        p.stretch = stretch;
        for (std::size_t i = 0; i < a.names.size(); ++i)
        {
            p.axes.push_back({a.names[i], {static_cast<index_type>(i), position(b.names, a.names[i])}});
        }
        for (std::size_t j = 0; j < b.names.size(); ++j)
        {
            if (position(a.names, b.names[j]) == absent)
            {
                p.axes.push_back({b.names[j], {absent, static_cast<index_type>(j)}});
            }
        }
        return p;
    }

    /// name_match: the larger operand's axes; the smaller's named axes find their name, its unnamed
    /// axes the larger's unnamed ones, right-aligned.
    inline std::optional<model_plan> line_up_name_match(const input_operand& a, const input_operand& b)
    {
        const bool left_larger = a.names.size() >= b.names.size();
        const input_operand& larger = left_larger ? a : b;
        const input_operand& smaller = left_larger ? b : a;
        const int lk = left_larger ? 0 : 1;
        model_plan p;
        p.stretch = true;
        for (std::size_t i = 0; i < larger.names.size(); ++i)
        {
            model_axis axis{larger.names[i], {absent, absent}};
            axis.from[lk] = static_cast<index_type>(i);
            p.axes.push_back(axis);
        }
        std::vector<std::size_t> larger_unnamed;
        std::vector<std::size_t> smaller_unnamed;
        for (std::size_t i = 0; i < larger.names.size(); ++i)
        {
            if (larger.names[i] == "?")
            {
                larger_unnamed.push_back(i);
            }
        }
        for (std::size_t j = 0; j < smaller.names.size(); ++j)
        {
            if (smaller.names[j] == "?")
            {
                smaller_unnamed.push_back(j);
            }
            else
            {
                const auto at = position(larger.names, smaller.names[j]);
                if (at == absent)
                {
                    return std::nullopt;
                }
                p.axes[static_cast<std::size_t>(at)].from[1 - lk] = static_cast<index_type>(j);
            }
        }
        if (smaller_unnamed.size() > larger_unnamed.size())
        {
            return std::nullopt;
        }
        const std::size_t offset = larger_unnamed.size() - smaller_unnamed.size();
        for (std::size_t k = 0; k < smaller_unnamed.size(); ++k)
        {
            p.axes[larger_unnamed[offset + k]].from[1 - lk] = static_cast<index_type>(smaller_unnamed[k]);
        }
        return p;
    }

    /// exact: same rank, same names, position by position.
    inline std::optional<model_plan> line_up_exact(const input_operand& a, const input_operand& b)
    {
        if (a.names != b.names)
        {
            return std::nullopt;
        }
        model_plan p;
        for (std::size_t i = 0; i < a.names.size(); ++i)
        {
            p.axes.push_back({a.names[i], {static_cast<index_type>(i), static_cast<index_type>(i)}});
        }
        return p;
    }

    /// The concrete sizes an unknown size may stand for: every size of the alphabet, and one beyond.
    inline std::vector<index_type> candidates(index_type s)
    {
        if (s != unknown_size)
        {
            return {s};
        }
        return {0, 1, 2, 3, 4, 7};
    }

    /// The size of a lined-up pair: the one that every concrete choice satisfying the rule gives, unknown
    /// when the choices differ, nothing when no choice satisfies the rule.
    inline std::optional<index_type> pair_size(index_type sa, index_type sb, bool stretch)
    {
        std::set<index_type> results;
        for (auto x : candidates(sa))
        {
            for (auto y : candidates(sb))
            {
                if (x == y)
                {
                    results.insert(x);
                }
                else if (stretch && x == 1)
                {
                    results.insert(y);
                }
                else if (stretch && y == 1)
                {
                    results.insert(x);
                }
            }
        }
        if (results.empty())
        {
            return std::nullopt;
        }
        return results.size() == 1 ? *results.begin() : unknown_size;
    }

    inline std::optional<model_plan> numpy_model(const input_operand& a, const input_operand& b)
    {
        return line_up_right_aligned(a, b, true);
    }

    inline std::optional<model_plan> leading_model(const input_operand& a, const input_operand& b)
    {
        return line_up_right_aligned(a, b, false);
    }

    inline std::optional<model_plan> missing_dims_model(const input_operand& a, const input_operand& b)
    {
        return line_up_by_name(a, b, false);
    }

    inline std::optional<model_plan> stretching_missing_dims_model(const input_operand& a,
                                                                   const input_operand& b)
    {
        return line_up_by_name(a, b, true);
    }
} // namespace xn_fuzz

#endif
