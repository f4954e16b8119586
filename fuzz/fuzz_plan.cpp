/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::plan<S> for every built-in strategy, against a reference model written from the table of
// docs/strategies.md (strategy_model.hpp, shared with fuzz_named_broadcast). The model lines axes up by the
// strategy's rule, then decides each lined-up pair of sizes by trying concrete values for the unknown
// ones: a pair that no concrete sizes can satisfy is a refusal, and the result size is the one every
// satisfying choice agrees on (unknown when they differ). So a plan that is found must be the model's
// valid broadcast, and a plan that is refused must be impossible for every concrete shape the partial
// ones stand for.
// A last strategy returns arbitrary plans: xn::plan must accept exactly the consistent ones.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xbroadcast_plan.hpp>
#include <xtensor-named/xstrategies.hpp>

#include "fuzz_check.hpp"
#include "strategy_model.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::absent;
    using xn_fuzz::index_type;
    using xn_fuzz::input_operand;
    using xn_fuzz::leading_model;
    using xn_fuzz::line_up_exact;
    using xn_fuzz::line_up_name_match;
    using xn_fuzz::missing_dims_model;
    using xn_fuzz::model_plan;
    using xn_fuzz::name_alphabet;
    using xn_fuzz::numpy_model;
    using xn_fuzz::outcome;
    using xn_fuzz::pair_size;
    using xn_fuzz::position;
    using xn_fuzz::stretching_missing_dims_model;
    using xn_fuzz::unknown_size;

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
