/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_BENCH_PROTOCOL_HPP
#define XTENSOR_NAMED_BENCH_PROTOCOL_HPP

// The measuring protocol the benchmarks with a table of their own share (bench_kernels,
// bench_pipelines, bench_layouts): repetitions in random interleaved order in one process, and medians of
// CPU time, which on a machine shared with other work leave out the time the process waits for a core.
// Then what the programs that time a hand-written loop beside the libraries share (bench_pipelines,
// bench_layouts): the data their Python twins compute bit for bit, the hand loops' reductions, the check
// of every implementation before anything is timed, and their command line.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace xtensor_named_bench
{
    /**
     * benchmark::Initialize with the protocol's flags added where the command line does not give them:
     * `repetitions` repetitions in random interleaved order, aggregates only. False (after a message)
     * when an argument is not Google Benchmark's.
     */
    inline bool initialize(int argc, char** argv, int repetitions)
    {
        static std::vector<std::string> defaults;
        defaults = {"--benchmark_repetitions=" + std::to_string(repetitions),
                    "--benchmark_enable_random_interleaving=true", "--benchmark_report_aggregates_only=true"};
        std::vector<char*> args(argv, argv + argc);
        for (auto& flag : defaults)
        {
            const std::string key = flag.substr(0, flag.find('='));
            const bool given =
                std::any_of(args.begin() + 1, args.end(),
                            [&](const char* arg) { return std::strncmp(arg, key.c_str(), key.size()) == 0; });
            if (!given)
            {
                args.push_back(flag.data());
            }
        }
        int count = static_cast<int>(args.size());
        benchmark::Initialize(&count, args.data());
        return !benchmark::ReportUnrecognizedArguments(count, args.data());
    }

    /// Prints Google Benchmark's usual output and keeps the median CPU time of every benchmark, or its
    /// median wall-clock time (benchmarks registered with UseRealTime(), for work on several threads,
    /// whose CPU time counts the calling thread only).
    class median_reporter : public benchmark::ConsoleReporter
    {
    public:
        explicit median_reporter(bool wall_clock = false) : m_wall_clock(wall_clock) {}

        void ReportRuns(const std::vector<Run>& reports) override
        {
            benchmark::ConsoleReporter::ReportRuns(reports);
            for (const auto& r : reports)
            {
                // Without the "/real_time" that UseRealTime() appends.
                const std::string name = m_wall_clock ? r.run_name.function_name : r.run_name.str();
                const double time = m_wall_clock ? r.GetAdjustedRealTime() : r.GetAdjustedCPUTime();
                if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")
                {
                    m_median[name] = time;
                }
                else if (r.run_type == Run::RT_Iteration && r.repetitions <= 1)
                {
                    m_median[name] = time;
                }
            }
        }

        /// The median time of `name`, in the unit the benchmark reports in; 0 if it did not run.
        double time(const std::string& name) const
        {
            const auto it = m_median.find(name);
            return it == m_median.end() ? 0.0 : it->second;
        }

    private:
        bool m_wall_clock;
        std::map<std::string, double> m_median;
    };

    /********************************************
     * The data, the hand loops and the check   *
     ********************************************/

    /// Knuth's multiplicative hash of a position, as a double in [0, 1). bench_pipelines.py computes the
    /// same numbers, so that both programs time the same data without sharing a random generator.
    inline double hashed_unit(std::size_t i, std::uint64_t salt)
    {
        const std::uint64_t h = ((static_cast<std::uint64_t>(i) + salt) * 2654435761u) % 4294967296u;
        return static_cast<double>(h) / 4294967296.0;
    }

    /// Fills `e` with lo + span * hashed_unit(i, salt). With `span` a power of two every step is exact,
    /// so the values equal numpy's bit for bit whatever the compiler contracts.
    template <class E>
    void fill_hashed(E& e, std::uint64_t salt, double lo, double span)
    {
        using value_type = typename E::value_type;
        std::size_t i = 0;
        for (auto& v : e)
        {
            v = static_cast<value_type>(lo + span * hashed_unit(i++, salt));
        }
    }

    // Reductions in independent lanes: without -ffast-math the compiler may not reorder one running sum,
    // which would leave it a chain of dependent additions, but it vectorises independent lanes, and a
    // programmer who cares about speed writes them so. Thirty-two, because GCC unrolls a lane loop of
    // sixteen completely and then leaves the maximum scalar; a loop of thirty-two it vectorises.
    constexpr std::size_t lanes = 32;

    template <class T>
    inline double sum_run(const T* p, std::size_t count)
    {
        T partial[lanes] = {};
        std::size_t i = 0;
        for (; i + lanes <= count; i += lanes)
        {
            for (std::size_t k = 0; k < lanes; ++k)
            {
                partial[k] += p[i + k];
            }
        }
        double total = 0;
        for (; i < count; ++i)
        {
            total += double(p[i]);
        }
        for (const T v : partial)
        {
            total += double(v);
        }
        return total;
    }

    template <class T>
    inline T max_run(const T* p, std::size_t count, T start)
    {
        T partial[lanes];
        std::fill(partial, partial + lanes, start);
        std::size_t i = 0;
        for (; i + lanes <= count; i += lanes)
        {
            for (std::size_t k = 0; k < lanes; ++k)
            {
                partial[k] = p[i + k] > partial[k] ? p[i + k] : partial[k];
            }
        }
        T best = start;
        for (; i < count; ++i)
        {
            best = p[i] > best ? p[i] : best;
        }
        for (const T v : partial)
        {
            best = v > best ? v : best;
        }
        return best;
    }

    /// What the check compares: an output's shape and its values.
    struct snapshot
    {
        std::vector<std::size_t> shape;
        std::vector<double> values;
    };

    template <class E>
    snapshot snapshot_of(const E& e)
    {
        return {std::vector<std::size_t>(e.shape().begin(), e.shape().end()),
                std::vector<double>(e.begin(), e.end())};
    }

    /// An element passes when both are NaN, or when |value - reference| <= atol + rtol * |reference|.
    struct tolerance
    {
        double rtol;
        double atol;
        const char* why;
    };

    inline std::string shape_text(const std::vector<std::size_t>& shape)
    {
        std::string text = "(";
        for (std::size_t i = 0; i < shape.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
        }
        return text + ")";
    }

    /// Compares `got`, case `name` by `who`, with `reference`, computed by `reference_who` ("the hand
    /// loop"); prints one line; true when within `tol`.
    inline bool compare(const char* name, const char* who, const tolerance& tol, const char* reference_who,
                        const snapshot& reference, const snapshot& got)
    {
        if (got.shape != reference.shape)
        {
            std::printf("MISMATCH %s/%s: shape %s, %s's is %s\n", name, who, shape_text(got.shape).c_str(),
                        reference_who, shape_text(reference.shape).c_str());
            return false;
        }
        double worst_abs = 0;
        double worst_rel = 0;
        std::size_t bad = 0;
        std::size_t first_bad = 0;
        for (std::size_t i = 0; i < got.values.size(); ++i)
        {
            const double r = reference.values[i];
            const double g = got.values[i];
            if (std::isnan(r) || std::isnan(g))
            {
                if (std::isnan(r) != std::isnan(g) && bad++ == 0)
                {
                    first_bad = i;
                }
                continue;
            }
            const double diff = std::fabs(g - r);
            worst_abs = std::max(worst_abs, diff);
            if (r != 0)
            {
                worst_rel = std::max(worst_rel, diff / std::fabs(r));
            }
            if (diff > tol.atol + tol.rtol * std::fabs(r) && bad++ == 0)
            {
                first_bad = i;
            }
        }
        if (bad > 0)
        {
            std::printf("MISMATCH %s/%s: %zu of %zu elements off (rtol %g, atol %g); element %zu is %.17g, "
                        "%s's %.17g\n",
                        name, who, bad, got.values.size(), tol.rtol, tol.atol, first_bad,
                        got.values[first_bad], reference_who, reference.values[first_bad]);
            return false;
        }
        std::printf("  %-18s max |diff| %-9.3g max rel %-9.3g\n", who, worst_abs, worst_rel);
        return true;
    }

    inline std::string time_text(double microseconds)
    {
        char text[32];
        if (microseconds <= 0)
        {
            return "-";
        }
        if (microseconds >= 1000)
        {
            std::snprintf(text, sizeof(text), "%.2f ms", microseconds / 1000);
        }
        else
        {
            std::snprintf(text, sizeof(text), "%.1f us", microseconds);
        }
        return text;
    }

    /// The value of the last `flag` (as "--scale=") among the arguments, taken out of them; nothing when
    /// none is given.
    inline std::optional<std::string> take_flag(std::vector<char*>& args, const std::string& flag)
    {
        std::optional<std::string> value;
        for (auto it = args.begin() + 1; it != args.end();)
        {
            if (std::string(*it).rfind(flag, 0) == 0)
            {
                value = std::string(*it).substr(flag.size());
                it = args.erase(it);
            }
            else
            {
                ++it;
            }
        }
        return value;
    }

    /// The sizes from --scale=small|full (taken out of the arguments) or XTENSOR_NAMED_BENCH_SCALE; after a
    /// message naming `program`, nullptr for another scale.
    template <class Sizes>
    const Sizes* choose_scale(std::vector<char*>& args, const Sizes& full, const Sizes& small,
                              const char* program)
    {
        const char* env = std::getenv("XTENSOR_NAMED_BENCH_SCALE");
        const std::string scale = take_flag(args, "--scale=").value_or(env != nullptr ? env : "");
        if (scale.empty() || scale == "full")
        {
            return &full;
        }
        if (scale == "small")
        {
            return &small;
        }
        std::fprintf(stderr, "%s: unknown scale '%s' (small or full)\n", program, scale.c_str());
        return nullptr;
    }
} // namespace xtensor_named_bench

#endif
