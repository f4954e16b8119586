/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::plan<S> for every built-in strategy (SPEC §3), against a reference model written here from the
// table of SPEC §3. The model lines axes up by the strategy's rule, then decides each lined-up pair of
// sizes by trying concrete values for the unknown ones: a pair that no concrete sizes can satisfy is a
// refusal, and the result size is the one every satisfying choice agrees on (unknown when they differ).
// So a plan that is found must be the model's valid broadcast, and a plan that is refused must be
// impossible for every concrete shape the partial ones stand for.
// A last strategy returns arbitrary plans: xn::plan must accept exactly the consistent ones.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xbroadcast_plan.hpp>
#include <xtensor-named/xstrategies.hpp>

#include "fuzz_check.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::outcome;
    using index_type = std::int64_t;

    constexpr index_type absent = -1;
    constexpr index_type unknown_size = -1;

    const char* const name_alphabet[] = {"?", "a", "b", "c", "d", "e"};

    /// What the fuzzer knows of an operand beyond the xn::operand itself.
    struct input_operand
    {
        xn::operand op;
        bool well_formed = true;
        bool known_rank = true;
        std::vector<index_type> sizes;
        std::vector<std::string> names;
    };

    input_operand make_operand(FuzzedDataProvider& fdp)
    {
        input_operand in;
        const int kind = fdp.ConsumeIntegralInRange<int>(0, 15);
        if (kind == 0)
        {
            in.known_rank = false;
            in.op.shape = xn::partial_shape::unknown();
            return in;
        }
        const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 5);
        for (std::size_t i = 0; i < rank; ++i)
        {
            in.sizes.push_back(fdp.ConsumeIntegralInRange<index_type>(unknown_size, 3));
            std::string name = name_alphabet[fdp.ConsumeIntegralInRange<std::size_t>(0, 5)];
            for (const auto& earlier : in.names)
            {
                if (name != "?" && earlier == name)
                {
                    name = "?";
                }
            }
            in.names.push_back(name);
        }
        in.op.shape = xn::partial_shape::of(in.sizes);
        std::vector<std::string> given = in.names;
        if (kind == 1)
        {
            // One name too many or too few: xn::plan refuses it before any strategy runs.
            if (given.empty() || fdp.ConsumeBool())
            {
                given.push_back("?");
            }
            else
            {
                given.pop_back();
            }
            in.well_formed = false;
        }
        in.op.names = xn::dims(given);
        return in;
    }

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

    index_type position(const std::vector<std::string>& names, const std::string& name)
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

    /// numpy and leading: right-aligned, names unify position by position (SPEC §3, first two rows).
    std::optional<model_plan> line_up_right_aligned(const input_operand& a, const input_operand& b,
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
    std::optional<model_plan> line_up_by_name(const input_operand& a, const input_operand& b, bool stretch)
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
    std::optional<model_plan> line_up_name_match(const input_operand& a, const input_operand& b)
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
    std::optional<model_plan> line_up_exact(const input_operand& a, const input_operand& b)
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
    std::vector<index_type> candidates(index_type s)
    {
        if (s != unknown_size)
        {
            return {s};
        }
        return {0, 1, 2, 3, 4, 7};
    }

    /// The size of a lined-up pair: the one that every concrete choice satisfying the rule gives, unknown
    /// when the choices differ, nothing when no choice satisfies the rule.
    std::optional<index_type> pair_size(index_type sa, index_type sb, bool stretch)
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

    /// Aborts with a description unless `p` is a consistent broadcast of `a` and `b`: what xn::plan must
    /// accept from any strategy (every operand axis lands once, on its name, on a compatible size or
    /// from size 1 when `stretch`; every result axis comes from an operand). Returns the violation, or "".
    std::string violation(const xn::broadcast_plan& p, const input_operand& a, const input_operand& b,
                          bool stretch)
    {
        if (p.shape.is_unknown())
        {
            return p.names.empty() && p.axes[0].empty() && p.axes[1].empty() ? "" : "unknown rank with axes";
        }
        const auto rank = static_cast<std::size_t>(p.shape.rank());
        if (p.names.size() != rank || p.axes[0].size() != rank || p.axes[1].size() != rank)
        {
            return "lengths";
        }
        const input_operand* ops[2] = {&a, &b};
        for (int k = 0; k < 2; ++k)
        {
            const auto& in = *ops[k];
            std::vector<int> landed(in.names.size(), 0);
            for (std::size_t i = 0; i < rank; ++i)
            {
                const auto from = p.axes[k][i];
                if (from == absent)
                {
                    continue;
                }
                if (from < 0 || from >= static_cast<index_type>(in.names.size()))
                {
                    return "an axis out of range";
                }
                const auto f = static_cast<std::size_t>(from);
                ++landed[f];
                if (in.names[f] != "?" && in.names[f] != p.names[i])
                {
                    return "a name lands on another name";
                }
                const auto s = in.sizes[f];
                const auto r = p.shape.size(static_cast<index_type>(i));
                if (!(s == unknown_size || r == unknown_size || s == r || (stretch && s == 1)))
                {
                    return "a size lands on another size";
                }
            }
            for (int count : landed)
            {
                if (count != 1)
                {
                    return "an operand axis lands on no axis or on two";
                }
            }
        }
        for (std::size_t i = 0; i < rank; ++i)
        {
            if (p.axes[0][i] == absent && p.axes[1][i] == absent)
            {
                return "a result axis from nowhere";
            }
        }
        return "";
    }

    template <class S>
    void check_strategy(const char* strategy, const input_operand& a, const input_operand& b,
                        std::optional<model_plan> (*line_up)(const input_operand&, const input_operand&))
    {
        xn::broadcast_plan got;
        const auto o = xn_fuzz::run(strategy, [&] { got = xn::plan<S>(a.op, b.op); });
        const auto where = xn::detail::concat(strategy, " on ", a.op.to_string(), " and ", b.op.to_string());
        if (!a.well_formed || !b.well_formed)
        {
            XN_FUZZ_CHECK(o == outcome::name_error, (where, ": ", xn_fuzz::outcome_name(o)));
            return;
        }
        if (!a.known_rank || !b.known_rank)
        {
            // The strategies' documented choice: no built-in one lines up axes it cannot count.
            XN_FUZZ_CHECK(o == outcome::broadcast_error, (where, ": ", xn_fuzz::outcome_name(o)));
            return;
        }
        auto lined_up = line_up(a, b);
        std::vector<index_type> sizes;
        bool possible = lined_up.has_value();
        for (std::size_t i = 0; possible && i < lined_up->axes.size(); ++i)
        {
            const auto& axis = lined_up->axes[i];
            const auto fa = axis.from[0];
            const auto fb = axis.from[1];
            std::optional<index_type> s;
            if (fa != absent && fb != absent)
            {
                s = pair_size(a.sizes[static_cast<std::size_t>(fa)], b.sizes[static_cast<std::size_t>(fb)],
                              lined_up->stretch);
            }
            else
            {
                s = fa != absent ? a.sizes[static_cast<std::size_t>(fa)]
                                 : b.sizes[static_cast<std::size_t>(fb)];
            }
            possible = s.has_value();
            sizes.push_back(s ? *s : 0);
        }
        XN_FUZZ_CHECK(o == (possible ? outcome::ok : outcome::broadcast_error),
                      (where, ": the model says ", possible ? "possible" : "impossible", ", got ",
                       xn_fuzz::outcome_name(o)));
        if (!possible)
        {
            return;
        }
        std::vector<std::string> names;
        for (const auto& axis : lined_up->axes)
        {
            XN_FUZZ_CHECK(axis.name == "?" || position(names, axis.name) == absent,
                          (where, ": the rule gives the name ", axis.name, " twice"));
            names.push_back(axis.name);
        }
        XN_FUZZ_CHECK(got.names == xn::dims(names), (where, ": names ", got.names.to_string()));
        XN_FUZZ_CHECK(got.shape == xn::partial_shape::of(sizes), (where, ": shape ", got.shape.to_string()));
        for (int k = 0; k < 2; ++k)
        {
            XN_FUZZ_CHECK(got.axes[k].size() == lined_up->axes.size(), (where, ": axes[", k, "] length"));
            for (std::size_t i = 0; i < lined_up->axes.size(); ++i)
            {
                XN_FUZZ_CHECK(got.axes[k][i] == lined_up->axes[i].from[k],
                              (where, ": axes[", k, "][", i, "]"));
            }
        }
        const auto v = violation(got, a, b, lined_up->stretch);
        XN_FUZZ_CHECK(v.empty(), (where, ": not a valid broadcast: ", v));
    }

    std::optional<model_plan> numpy_model(const input_operand& a, const input_operand& b)
    {
        return line_up_right_aligned(a, b, true);
    }

    std::optional<model_plan> leading_model(const input_operand& a, const input_operand& b)
    {
        return line_up_right_aligned(a, b, false);
    }

    std::optional<model_plan> missing_dims_model(const input_operand& a, const input_operand& b)
    {
        return line_up_by_name(a, b, false);
    }

    std::optional<model_plan> stretching_missing_dims_model(const input_operand& a, const input_operand& b)
    {
        return line_up_by_name(a, b, true);
    }

    /// A user-written strategy that answers anything: the input decides its plan, and the last plan it
    /// gave is kept, so that a refusal by xn::plan can be judged.
    FuzzedDataProvider* arbitrary_source = nullptr;
    xn::broadcast_plan last_arbitrary_plan;

    struct arbitrary_strategy
    {
        static xn::broadcast_plan plan(const xn::operand&, const xn::operand&)
        {
            FuzzedDataProvider& fdp = *arbitrary_source;
            xn::broadcast_plan p;
            if (fdp.ConsumeIntegralInRange<int>(0, 7) == 0)
            {
                p.shape = xn::partial_shape::unknown();
                if (fdp.ConsumeBool())
                {
                    p.axes[0].push_back(0);
                }
                last_arbitrary_plan = p;
                return p;
            }
            const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 6);
            std::vector<std::string> names;
            std::vector<index_type> sizes;
            for (std::size_t i = 0; i < rank; ++i)
            {
                std::string name = name_alphabet[fdp.ConsumeIntegralInRange<std::size_t>(0, 5)];
                if (name != "?" && position(names, name) != absent)
                {
                    name = "?";
                }
                names.push_back(name);
                sizes.push_back(fdp.ConsumeIntegralInRange<index_type>(unknown_size, 3));
            }
            // Sometimes one name too few: the plan's own lengths disagree.
            if (!names.empty() && fdp.ConsumeIntegralInRange<int>(0, 15) == 0)
            {
                names.pop_back();
            }
            p.names = xn::dims(names);
            p.shape = xn::partial_shape::of(sizes);
            for (int k = 0; k < 2; ++k)
            {
                const std::size_t length = rank + (fdp.ConsumeIntegralInRange<int>(0, 15) == 0 ? 1 : 0);
                for (std::size_t i = 0; i < length; ++i)
                {
                    p.axes[k].push_back(fdp.ConsumeIntegralInRange<index_type>(-2, 6));
                }
            }
            last_arbitrary_plan = p;
            return p;
        }
    };

    void check_arbitrary(const input_operand& a, const input_operand& b, FuzzedDataProvider& fdp)
    {
        arbitrary_source = &fdp;
        last_arbitrary_plan = xn::broadcast_plan();
        xn::broadcast_plan got;
        const auto o =
            xn_fuzz::run("arbitrary strategy", [&] { got = xn::plan<arbitrary_strategy>(a.op, b.op); });
        arbitrary_source = nullptr;
        const auto where =
            xn::detail::concat("arbitrary plan for ", a.op.to_string(), " and ", b.op.to_string());
        if (!a.well_formed || !b.well_formed)
        {
            XN_FUZZ_CHECK(o == outcome::name_error, (where, ": ", xn_fuzz::outcome_name(o)));
            return;
        }
        XN_FUZZ_CHECK(o == outcome::ok || o == outcome::broadcast_error,
                      (where, ": ", xn_fuzz::outcome_name(o)));
        if (o == outcome::ok)
        {
            const auto v = violation(got, a, b, true);
            XN_FUZZ_CHECK(v.empty(), (where, ": accepted, but ", v, "; names ", got.names.to_string(),
                                      " shape ", got.shape.to_string()));
        }
        else
        {
            const auto& p = last_arbitrary_plan;
            XN_FUZZ_CHECK(!violation(p, a, b, true).empty(),
                          (where, ": refused a consistent plan: names ", p.names.to_string(), " shape ",
                           p.shape.to_string()));
        }
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    const input_operand a = make_operand(fdp);
    const input_operand b = make_operand(fdp);
    check_strategy<xn::numpy>("numpy", a, b, numpy_model);
    check_strategy<xn::leading>("leading", a, b, leading_model);
    check_strategy<xn::missing_dims>("missing_dims", a, b, missing_dims_model);
    check_strategy<xn::basic_missing_dims<true>>("basic_missing_dims<true>", a, b,
                                                 stretching_missing_dims_model);
    check_strategy<xn::name_match>("name_match", a, b, line_up_name_match);
    check_strategy<xn::exact>("exact", a, b, line_up_exact);
    check_arbitrary(a, b, fdp);
    return 0;
}
