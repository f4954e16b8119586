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
// bench_pipelines): repetitions in random interleaved order in one process, and medians of CPU time,
// which on a machine shared with other work leave out the time the process waits for a core.

#include <algorithm>
#include <cstring>
#include <map>
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
} // namespace xtensor_named_bench

#endif
