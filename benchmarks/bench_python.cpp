/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The C++ side of benchmarks/bench_python.py: the anomaly of examples/python/xn_example.cpp,
// x - nanmean(x over time), on a (station: 256, time: 5000) float64 array labelled on both axes,
// called directly. Wall-clock time, as the Python side measures it.
//   xarray    x over an owning xt::xarray<double>
//   adaptor   x over an xt::xarray_adaptor of the same buffer with its strides, as the module sees a
//             numpy array
// Both evaluate into a new container each time, as the module does.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    constexpr std::size_t stations = 256;
    constexpr std::size_t times = 5000;

    xn::labels range_labels(std::size_t n, std::int64_t step)
    {
        xn::labels out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            out.emplace_back(static_cast<std::int64_t>(i) * step);
        }
        return out;
    }

    xt::xarray<double> values()
    {
        xt::xarray<double> x = xt::empty<double>({stations, times});
        for (std::size_t i = 0; i < x.size(); ++i)
        {
            x.data()[i] = static_cast<double>((i * 7919) % 1000) / 10.0;
        }
        return x;
    }

    const xn::coords labels{{"station", range_labels(stations, 1)}, {"time", range_labels(times, 60)}};

    template <class E>
    void anomaly(benchmark::State& state, const E& x)
    {
        const std::string dim = "time";
        for (auto _ : state)
        {
            auto result = xn::eval(x - xn::nanmean(x, {dim}));
            benchmark::DoNotOptimize(result.expression().data());
            benchmark::ClobberMemory();
        }
        state.SetBytesProcessed(
            static_cast<std::int64_t>(state.iterations() * stations * times * 2 * sizeof(double)));
    }

    void anomaly_xarray(benchmark::State& state)
    {
        const xt::xarray<double> data = values();
        const auto x = xn::name(data, {"station", "time"}, labels);
        anomaly(state, x);
    }

    void anomaly_adaptor(benchmark::State& state)
    {
        xt::xarray<double> data = values();
        const std::vector<std::size_t> shape{stations, times};
        const std::vector<std::ptrdiff_t> strides{static_cast<std::ptrdiff_t>(times), 1};
        auto adapted = xt::adapt(data.data(), data.size(), xt::no_ownership(), shape, strides);
        const auto x = xn::name(adapted, {"station", "time"}, labels);
        anomaly(state, x);
    }
} // namespace

BENCHMARK(anomaly_xarray)->Name("anomaly/xarray")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(anomaly_adaptor)->Name("anomaly/adaptor")->UseRealTime()->Unit(benchmark::kMicrosecond);
