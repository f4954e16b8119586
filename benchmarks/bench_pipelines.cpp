/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Realistic pipelines (speed is judged on realistic pipelines against a hand-written loop,
// xtensor, numpy and PyTorch): expressions of several operations, math functions and reductions by
// name, each computed on the same inputs into preallocated outputs by
//   hand                 a plain loop over raw pointers, as a good C++ programmer writes it without
//                        intrinsics (the compiler may vectorise it; no -ffast-math): the floor
//   xtensor              xtensor's own evaluation on plain containers, its broadcasting spelled out
//   named                xn::assign(out, named expression), the expression built in the timed loop
//   xtensor_expression   the same named expression's .expression() assigned by xtensor (not where a
//                        reduction feeds an operation over many elements: xtensor's lazy reducers
//                        recompute it at every element)
// Every implementation is checked against the hand loop once before anything is timed; a mismatch
// stops the program with a non-zero status. Every benchmark is repeated (9 times unless told
// otherwise) in random interleaved order in one process; the table at the end compares medians of
// CPU time with the bar: named <= 1.3 x hand (2 x where a reduction feeds an operation) and
// named <= xtensor. bench_pipelines.py times numpy and PyTorch on the same shapes and data.
//
//   bench_pipelines                                    # full sizes
//   bench_pipelines --scale=small                      # small sizes, a quick run of the harness
//   XTENSOR_NAMED_BENCH_SCALE=small bench_pipelines    # the same
//   bench_pipelines --benchmark_filter=softmax         # one case
//   bench_pipelines --benchmark_out=r.json --benchmark_out_format=json   # for benchmarks/run_all.py
//   bench_pipelines_tbb --threads=2                    # built with XTENSOR_USE_TBB: at most 2 threads
//   GLIBC_TUNABLES=glibc.malloc.hugetlb=1 bench_pipelines   # as run_all.py runs it: the large buffers
//                                                      # on transparent huge pages, as numpy's arrays are

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#if defined(XTENSOR_USE_TBB)
#include <memory>

#include <tbb/global_control.h>
#endif

#include <xtensor-named/xtensor-named.hpp>

#include "bench_protocol.hpp"

namespace xn = xt::named;

using xtensor_named_bench::compare;
using xtensor_named_bench::fill_hashed;
using xtensor_named_bench::lanes;
using xtensor_named_bench::max_run;
using xtensor_named_bench::snapshot;
using xtensor_named_bench::snapshot_of;
using xtensor_named_bench::sum_run;
using xtensor_named_bench::take_flag;
using xtensor_named_bench::time_text;
using xtensor_named_bench::tolerance;

// xtensor's own evaluation of the math functions (exp_xtensor) reaches GCC's AVX-512 intrinsics as the
// kernels do: GCC before 12.3 warns falsely there too (see xcompat_xsimd.hpp).
XTENSOR_NAMED_SILENCE_GCC_BUG_105593_BEGIN

namespace
{
    /************
     * The data *
     ************/

    /// The sizes of one run: `full` is the measurement, `small` a quick check of the harness.
    struct sizes
    {
        const char* name;
        std::size_t n, c, h, w;            // the image batch x
        std::size_t rows, columns;         // A, B, C
        std::size_t stations, times, skew; // the series: a at times [0, times), b at [skew, skew + times)
        std::size_t large_n;               // the batch of normalize_large: x far beyond the last-level cache
    };

    // normalize_large reads 588 MiB and writes as much at full size: 1.15 GiB moved, where bandwidth decides.
    const sizes full_sizes{"full", 16, 3, 224, 224, 2000, 2000, 256, 4000, 1000, 1024};
    const sizes small_sizes{"small", 4, 3, 32, 32, 200, 200, 16, 400, 100, 8};

    /// The same sizes with another image batch.
    sizes with_batch(sizes z, std::size_t n)
    {
        z.n = n;
        return z;
    }

    /// An image batch, its per-channel statistics, a 0/1 label map, and the outputs of the image cases.
    struct images
    {
        std::size_t n, c, h, w;
        xt::xtensor<float, 4> x;   // (n, c, h, w), in [-0.5, 1.5): a quarter negative, for relu
        xt::xtensor<float, 1> m;   // (c), in [0.25, 0.75)
        xt::xtensor<float, 1> s;   // (c), in [0.25, 0.5)
        xt::xtensor<float, 3> lbl; // (n, h, w), 0 or 1
        xt::xtensor<float, 4> out; // (n, c, h, w)
        xt::xtensor<float, 1> per_channel;
        xt::xtensor<float, 1> per_image;
        // Scratch of the softmax loops: the hand loop's rows of one image, xtensor's (n, 1, h, w).
        xt::xtensor<float, 1> row_max, row_sum;
        xt::xtensor<float, 4> across_max, across_sum;

        explicit images(const sizes& z)
            : n(z.n), c(z.c), h(z.h), w(z.w), x(xt::xtensor<float, 4>::from_shape({n, c, h, w})),
              m(xt::xtensor<float, 1>::from_shape({c})), s(xt::xtensor<float, 1>::from_shape({c})),
              lbl(xt::xtensor<float, 3>::from_shape({n, h, w})), out(x.shape()),
              per_channel(xt::xtensor<float, 1>::from_shape({c})),
              per_image(xt::xtensor<float, 1>::from_shape({n})),
              row_max(xt::xtensor<float, 1>::from_shape({h * w})),
              row_sum(xt::xtensor<float, 1>::from_shape({h * w})),
              across_max(xt::xtensor<float, 4>::from_shape({n, 1, h, w})),
              across_sum(xt::xtensor<float, 4>::from_shape({n, 1, h, w}))
        {
            fill_hashed(x, 1, -0.5, 2.0);
            fill_hashed(m, 2, 0.25, 0.5);
            fill_hashed(s, 3, 0.25, 0.25);
            fill_hashed(lbl, 4, 0.0, 1.0);
            for (auto& v : lbl)
            {
                v = v < 0.5f ? 1.0f : 0.0f;
            }
        }

        std::size_t plane() const
        {
            return h * w;
        }
    };

    /// Three f64 matrices named (x, y), a column u (x) and a row v (y).
    struct matrices
    {
        xt::xtensor<double, 2> a, b, c;
        xt::xtensor<double, 1> u, v;
        xt::xtensor<double, 2> out;

        explicit matrices(const sizes& z)
            : a(xt::xtensor<double, 2>::from_shape({z.rows, z.columns})), b(a.shape()), c(a.shape()),
              u(xt::xtensor<double, 1>::from_shape({z.rows})),
              v(xt::xtensor<double, 1>::from_shape({z.columns})), out(a.shape())
        {
            fill_hashed(a, 5, 0.5, 1.0);
            fill_hashed(b, 6, 0.5, 1.0);
            fill_hashed(c, 7, 0.5, 1.0);
            fill_hashed(u, 8, -1.0, 2.0);
            fill_hashed(v, 9, 0.5, 1.0);
        }
    };

    /// Two (station, time) f64 series on runs of consecutive integer times that overlap in part.
    struct series
    {
        std::size_t stations;
        std::int64_t first_a, first_b; // the first time of each series
        std::size_t times;             // of each series
        xt::xtensor<double, 2> a, b;
        xn::coords coords_a, coords_b;
        xt::xtensor<double, 2> out;          // (station, time), the outer join's times
        xt::xtensor<double, 2> station_mean; // (station, 1): xtensor's evaluated nanmean
        xt::xtensor<double, 2> joined;       // a + b under the outer join, NaN where one lacks a time
        xn::coords coords_joined;

        explicit series(const sizes& z)
            : stations(z.stations), first_a(0), first_b(static_cast<std::int64_t>(z.skew)), times(z.times),
              a(xt::xtensor<double, 2>::from_shape({stations, times})), b(a.shape()),
              coords_a(time_labels(first_a, times)), coords_b(time_labels(first_b, times)),
              out(xt::xtensor<double, 2>::from_shape({stations, joined_times()})),
              station_mean(xt::xtensor<double, 2>::from_shape({stations, 1})),
              joined(xt::xtensor<double, 2>::from_shape({stations, joined_times()})),
              coords_joined(time_labels(first_joined(), joined_times()))
        {
            fill_hashed(a, 10, 10.0, 4.0);
            fill_hashed(b, 11, 10.0, 4.0);
        }

        /// The labels of a time axis: `count` consecutive integer times from `first`.
        static xn::coords time_labels(std::int64_t first, std::size_t count)
        {
            xn::labels stamps;
            stamps.reserve(count);
            for (std::size_t i = 0; i < count; ++i)
            {
                stamps.emplace_back(first + static_cast<std::int64_t>(i));
            }
            return xn::coords{{"time", std::move(stamps)}};
        }

        /// The first time of the outer join, and its number of times.
        std::int64_t first_joined() const
        {
            return std::min(first_a, first_b);
        }

        std::size_t joined_times() const
        {
            const std::int64_t last = std::max(first_a, first_b) + static_cast<std::int64_t>(times);
            return static_cast<std::size_t>(last - first_joined());
        }
    };

    /// Where each series lies in the outer join, and where both have values: positions along time.
    struct join_positions
    {
        std::size_t a_begin, b_begin, both_begin, both_end, times;
    };

    /// The join of two runs of consecutive times, as a hand-written program finds it from the first times.
    join_positions join_of(const series& d)
    {
        join_positions p{};
        p.a_begin = static_cast<std::size_t>(d.first_a - d.first_joined());
        p.b_begin = static_cast<std::size_t>(d.first_b - d.first_joined());
        p.both_begin = std::max(p.a_begin, p.b_begin);
        p.both_end = std::max(p.both_begin, std::min(p.a_begin, p.b_begin) + d.times);
        p.times = d.joined_times();
        return p;
    }

    /// Everything the cases read and write, made once for the chosen sizes.
    void prepare_joined(series& d);

    struct workload
    {
        images img;
        matrices mat;
        series ser;
        images large; // far beyond the last-level cache: the same cases, where bandwidth decides

        explicit workload(const sizes& z) : img(z), mat(z), ser(z), large(with_batch(z, z.large_n))
        {
            prepare_joined(ser);
        }
    };

    /*************************************
     * Helpers of the hand-written loops *
     *************************************/

    /// The sum of the elements of p[0, count) that are not NaN, and how many there are.
    double nan_sum_run(const double* p, std::size_t count, std::size_t& found)
    {
        double partial[lanes] = {};
        std::size_t counts[lanes] = {};
        std::size_t i = 0;
        for (; i + lanes <= count; i += lanes)
        {
            for (std::size_t k = 0; k < lanes; ++k)
            {
                const bool number = p[i + k] == p[i + k];
                partial[k] += number ? p[i + k] : 0.0;
                counts[k] += number ? 1 : 0;
            }
        }
        double total = 0;
        found = 0;
        for (; i < count; ++i)
        {
            if (p[i] == p[i])
            {
                total += p[i];
                ++found;
            }
        }
        for (std::size_t k = 0; k < lanes; ++k)
        {
            total += partial[k];
            found += counts[k];
        }
        return total;
    }

    /// The two ways to evaluate a named expression into a container: the library's (xn::assign), and
    /// xtensor's assignment of the wrapped expression, which shows what the library's evaluation adds.
    struct by_named
    {
        template <class O, class E>
        void operator()(O& out, E&& e) const
        {
            xn::assign(out, std::forward<E>(e));
        }
    };

    struct by_xtensor
    {
        template <class O, class E>
        void operator()(O& out, E&& e) const
        {
            xt::noalias(out) = std::forward<E>(e).expression();
        }
    };

    // The broadcasts of xtensor spelled out: a (c) vector against (n, c, h, w), a label map (n, h, w).
    template <class E>
    auto per_channel_view(E& e)
    {
        return xt::view(e, xt::all(), xt::newaxis(), xt::newaxis());
    }

    template <class E>
    auto per_pixel_view(E& e)
    {
        return xt::view(e, xt::all(), xt::newaxis(), xt::all(), xt::all());
    }

    const float zero = 0.0f;
    const float one = 1.0f;

    /**************************************
     * a. normalize: (x - m[c]) / s[c]    *
     **************************************/

    void normalize_hand(images& d)
    {
        const std::size_t plane = d.plane();
        for (std::size_t n = 0; n < d.n; ++n)
        {
            for (std::size_t c = 0; c < d.c; ++c)
            {
                const float m = d.m(c);
                const float s = d.s(c);
                const float* x = d.x.data() + (n * d.c + c) * plane;
                float* out = d.out.data() + (n * d.c + c) * plane;
                for (std::size_t i = 0; i < plane; ++i)
                {
                    out[i] = (x[i] - m) / s;
                }
            }
        }
    }

    void normalize_xtensor(images& d)
    {
        xt::noalias(d.out) = (d.x - per_channel_view(d.m)) / per_channel_view(d.s);
    }

    template <class Sink>
    void normalize_named(images& d)
    {
        const auto nx = xn::name(d.x, {"n", "c", "h", "w"});
        const auto nm = xn::name(d.m, {"c"});
        const auto ns = xn::name(d.s, {"c"});
        Sink{}(d.out, (nx - nm) / ns);
    }

    /******************************************************************
     * b. normalize_masked: where(lbl == 1, (x - m[c]) / s[c], 0)     *
     ******************************************************************/

    void normalize_masked_hand(images& d)
    {
        const std::size_t plane = d.plane();
        for (std::size_t n = 0; n < d.n; ++n)
        {
            const float* lbl = d.lbl.data() + n * plane;
            for (std::size_t c = 0; c < d.c; ++c)
            {
                const float m = d.m(c);
                const float s = d.s(c);
                const float* x = d.x.data() + (n * d.c + c) * plane;
                float* out = d.out.data() + (n * d.c + c) * plane;
                for (std::size_t i = 0; i < plane; ++i)
                {
                    // Written, then zeroed where the label is not 1: GCC does not divide ahead of a
                    // test (-ftrapping-math, its default), so `lbl[i] == one ? (x[i] - m) / s : zero`
                    // stays a branch, while a conditional store vectorises (into masked stores).
                    out[i] = (x[i] - m) / s;
                    if (lbl[i] != one)
                    {
                        out[i] = zero;
                    }
                }
            }
        }
    }

    void normalize_masked_xtensor(images& d)
    {
        xt::noalias(d.out) = xt::where(xt::equal(per_pixel_view(d.lbl), one),
                                       (d.x - per_channel_view(d.m)) / per_channel_view(d.s), zero);
    }

    template <class Sink>
    void normalize_masked_named(images& d)
    {
        const auto nx = xn::name(d.x, {"n", "c", "h", "w"});
        const auto nm = xn::name(d.m, {"c"});
        const auto ns = xn::name(d.s, {"c"});
        const auto nlbl = xn::name(d.lbl, {"n", "h", "w"});
        // The condition comes first, so the result's axes are (n, h, w, c), as xarray's where gives them:
        // back into the order of the output.
        Sink{}(d.out, xn::where(xn::equal(nlbl, one), (nx - nm) / ns, zero).transpose({"n", "c", "h", "w"}));
    }

    /********************
     * c. exp: exp(x)   *
     ********************/

    void exp_hand(images& d)
    {
        const float* x = d.x.data();
        float* out = d.out.data();
        for (std::size_t i = 0; i < d.x.size(); ++i)
        {
            out[i] = std::exp(x[i]);
        }
    }

    void exp_xtensor(images& d)
    {
        xt::noalias(d.out) = xt::exp(d.x);
    }

    template <class Sink>
    void exp_named(images& d)
    {
        Sink{}(d.out, xn::exp(xn::name(d.x, {"n", "c", "h", "w"})));
    }

    /*********************************
     * d. relu: where(x > 0, x, 0)   *
     *********************************/

    void relu_hand(images& d)
    {
        const float* x = d.x.data();
        float* out = d.out.data();
        for (std::size_t i = 0; i < d.x.size(); ++i)
        {
            out[i] = x[i] > zero ? x[i] : zero;
        }
    }

    void relu_xtensor(images& d)
    {
        xt::noalias(d.out) = xt::where(d.x > zero, d.x, zero);
    }

    template <class Sink>
    void relu_named(images& d)
    {
        const auto nx = xn::name(d.x, {"n", "c", "h", "w"});
        Sink{}(d.out, xn::where(nx > zero, nx, zero));
    }

    /************************************************
     * e. channel_mean: mean of x over (n, h, w)    *
     ************************************************/

    // xt::mean of float sums in float and divides by a double: its values are double. Every
    // implementation writes them into the same f32 output (c), converted on assignment.

    void channel_mean_hand(images& d)
    {
        const std::size_t plane = d.plane();
        for (std::size_t c = 0; c < d.c; ++c)
        {
            double total = 0;
            for (std::size_t n = 0; n < d.n; ++n)
            {
                total += sum_run(d.x.data() + (n * d.c + c) * plane, plane);
            }
            d.per_channel(c) = static_cast<float>(total / double(d.n * plane));
        }
    }

    void channel_mean_xtensor(images& d)
    {
        xt::noalias(d.per_channel) = xt::mean(d.x, {0, 2, 3});
    }

    template <class Sink>
    void channel_mean_named(images& d)
    {
        Sink{}(d.per_channel, xn::mean(xn::name(d.x, {"n", "c", "h", "w"}), {"n", "h", "w"}));
    }

    /**********************************************
     * f. channel_max: max of x over (n, h, w)    *
     **********************************************/

    void channel_max_hand(images& d)
    {
        const std::size_t plane = d.plane();
        for (std::size_t c = 0; c < d.c; ++c)
        {
            float best = -std::numeric_limits<float>::infinity();
            for (std::size_t n = 0; n < d.n; ++n)
            {
                best = max_run(d.x.data() + (n * d.c + c) * plane, plane, best);
            }
            d.per_channel(c) = best;
        }
    }

    void channel_max_xtensor(images& d)
    {
        xt::noalias(d.per_channel) = xt::amax(d.x, {0, 2, 3});
    }

    template <class Sink>
    void channel_max_named(images& d)
    {
        Sink{}(d.per_channel, xn::amax(xn::name(d.x, {"n", "c", "h", "w"}), {"n", "h", "w"}));
    }

    /********************************************
     * g. image_sum: sum of x over (c, h, w)    *
     ********************************************/

    void image_sum_hand(images& d)
    {
        const std::size_t image = d.c * d.plane();
        for (std::size_t n = 0; n < d.n; ++n)
        {
            d.per_image(n) = static_cast<float>(sum_run(d.x.data() + n * image, image));
        }
    }

    void image_sum_xtensor(images& d)
    {
        xt::noalias(d.per_image) = xt::sum(d.x, {1, 2, 3});
    }

    template <class Sink>
    void image_sum_named(images& d)
    {
        Sink{}(d.per_image, xn::sum(xn::name(d.x, {"n", "c", "h", "w"}), {"c", "h", "w"}));
    }

    /*****************************************************************
     * h. softmax over channels: e = exp(x - max_c x); e / sum_c e   *
     *****************************************************************/

    void softmax_hand(images& d)
    {
        const std::size_t plane = d.plane();
        float* top = d.row_max.data();
        float* total = d.row_sum.data();
        for (std::size_t n = 0; n < d.n; ++n)
        {
            const float* x = d.x.data() + n * d.c * plane;
            float* out = d.out.data() + n * d.c * plane;
            // Pass 1: the largest value over the channels, at every pixel.
            std::copy(x, x + plane, top);
            for (std::size_t c = 1; c < d.c; ++c)
            {
                for (std::size_t i = 0; i < plane; ++i)
                {
                    top[i] = x[c * plane + i] > top[i] ? x[c * plane + i] : top[i];
                }
            }
            // Pass 2: the exponentials, and their sum over the channels.
            std::fill(total, total + plane, zero);
            for (std::size_t c = 0; c < d.c; ++c)
            {
                for (std::size_t i = 0; i < plane; ++i)
                {
                    const float e = std::exp(x[c * plane + i] - top[i]);
                    out[c * plane + i] = e;
                    total[i] += e;
                }
            }
            // Pass 3: normalised.
            for (std::size_t c = 0; c < d.c; ++c)
            {
                for (std::size_t i = 0; i < plane; ++i)
                {
                    out[c * plane + i] /= total[i];
                }
            }
        }
    }

    void softmax_xtensor(images& d)
    {
        // xtensor's reducers are lazy and recompute their reduction at every element that reads it, so
        // an xtensor user evaluates a reduction that feeds an operation into a buffer first.
        xt::noalias(d.across_max) = xt::amax(d.x, {1}, xt::keep_dims);
        xt::noalias(d.out) = xt::exp(d.x - d.across_max);
        xt::noalias(d.across_sum) = xt::sum(d.out, {1}, xt::keep_dims);
        xt::noalias(d.out) /= d.across_sum;
    }

    template <class Sink>
    void softmax_named(images& d)
    {
        const auto nx = xn::name(d.x, {"n", "c", "h", "w"});
        const auto e = xn::exp(nx - xn::amax(nx, {"c"}));
        Sink{}(d.out, e / xn::sum(e, {"c"}));
    }

    /***************************************************
     * i. row_column: (A + u[x]) * v[y], f64           *
     ***************************************************/

    void row_column_hand(matrices& d)
    {
        const std::size_t rows = d.a.shape(0);
        const std::size_t columns = d.a.shape(1);
        const double* v = d.v.data();
        for (std::size_t r = 0; r < rows; ++r)
        {
            const double u = d.u(r);
            const double* a = d.a.data() + r * columns;
            double* out = d.out.data() + r * columns;
            for (std::size_t j = 0; j < columns; ++j)
            {
                out[j] = (a[j] + u) * v[j];
            }
        }
    }

    void row_column_xtensor(matrices& d)
    {
        xt::noalias(d.out) = (d.a + xt::view(d.u, xt::all(), xt::newaxis())) * d.v;
    }

    template <class Sink>
    void row_column_named(matrices& d)
    {
        const auto na = xn::name(d.a, {"x", "y"});
        const auto nu = xn::name(d.u, {"x"});
        const auto nv = xn::name(d.v, {"y"});
        Sink{}(d.out, (na + nu) * nv);
    }

    /*****************************************
     * j. chain3: (A + B) * C - A, f64       *
     *****************************************/

    void chain3_hand(matrices& d)
    {
        const double* a = d.a.data();
        const double* b = d.b.data();
        const double* c = d.c.data();
        double* out = d.out.data();
        for (std::size_t i = 0; i < d.a.size(); ++i)
        {
            out[i] = (a[i] + b[i]) * c[i] - a[i];
        }
    }

    void chain3_xtensor(matrices& d)
    {
        xt::noalias(d.out) = (d.a + d.b) * d.c - d.a;
    }

    template <class Sink>
    void chain3_named(matrices& d)
    {
        const auto na = xn::name(d.a, {"x", "y"});
        const auto nb = xn::name(d.b, {"x", "y"});
        const auto nc = xn::name(d.c, {"x", "y"});
        Sink{}(d.out, (na + nb) * nc - na);
    }

    /**************************************************************************************
     * k. anomaly: j = a + b under the outer join of the times; j - nanmean(j over time)  *
     **************************************************************************************/

    /// Pass 1 of the join: row s of the outer join of a and b into `out`, NaN where one lacks a time.
    void join_row(const series& d, const join_positions& p, std::size_t s, double* out)
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double* a = d.a.data() + s * d.times;
        const double* b = d.b.data() + s * d.times;
        std::fill(out, out + p.both_begin, nan);
        for (std::size_t t = p.both_begin; t < p.both_end; ++t)
        {
            out[t] = a[t - p.a_begin] + b[t - p.b_begin];
        }
        std::fill(out + p.both_end, out + p.times, nan);
    }

    /// The anomaly of one row in place: its mean over the numbers, then subtracted.
    void anomaly_row(double* row, std::size_t times)
    {
        std::size_t count = 0;
        const double total = nan_sum_run(row, times, count);
        const double mean = count > 0 ? total / double(count) : std::numeric_limits<double>::quiet_NaN();
        for (std::size_t t = 0; t < times; ++t)
        {
            row[t] -= mean;
        }
    }

    /// The joined series that the anomaly case starts from, made once.
    void prepare_joined(series& d)
    {
        const join_positions p = join_of(d);
        for (std::size_t s = 0; s < d.stations; ++s)
        {
            join_row(d, p, s, d.joined.data() + s * p.times);
        }
    }

    /*********************************************************************************
     * k. anomaly: x - nanmean(x over time), x an outer join with NaN where it lacks *
     *********************************************************************************/

    void anomaly_hand(series& d)
    {
        const std::size_t times = d.joined.shape()[1];
        for (std::size_t s = 0; s < d.stations; ++s)
        {
            double* out = d.out.data() + s * times;
            std::copy(d.joined.data() + s * times, d.joined.data() + (s + 1) * times, out);
            anomaly_row(out, times);
        }
    }

    void anomaly_xtensor(series& d)
    {
        xt::noalias(d.station_mean) = xt::nanmean(d.joined, {1}, xt::keep_dims);
        xt::noalias(d.out) = d.joined - d.station_mean;
    }

    template <class Sink>
    void anomaly_named(series& d)
    {
        const auto x = xn::name(d.joined, {"station", "time"}, d.coords_joined);
        Sink{}(d.out, x - xn::nanmean(x, {"time"}));
    }

    /************************************************************************************
     * l. join_anomaly: j = a + b under the outer join of the times; j - nanmean(j)      *
     ************************************************************************************/

    void join_anomaly_hand(series& d)
    {
        const join_positions p = join_of(d);
        for (std::size_t s = 0; s < d.stations; ++s)
        {
            double* out = d.out.data() + s * p.times;
            join_row(d, p, s, out);
            anomaly_row(out, p.times);
        }
    }

    void join_anomaly_xtensor(series& d)
    {
        // xtensor has no labels: the join is spelled out with the positions a user finds from the first
        // times, and the mean evaluated first (a lazy nanmean would be recomputed at every element).
        const join_positions p = join_of(d);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        xt::view(d.out, xt::all(), xt::range(std::size_t(0), p.both_begin)) = nan;
        xt::view(d.out, xt::all(), xt::range(p.both_begin, p.both_end)) =
            xt::view(d.a, xt::all(), xt::range(p.both_begin - p.a_begin, p.both_end - p.a_begin)) +
            xt::view(d.b, xt::all(), xt::range(p.both_begin - p.b_begin, p.both_end - p.b_begin));
        xt::view(d.out, xt::all(), xt::range(p.both_end, p.times)) = nan;
        xt::noalias(d.station_mean) = xt::nanmean(d.out, {1}, xt::keep_dims);
        xt::noalias(d.out) -= d.station_mean;
    }

    template <class Sink>
    void join_anomaly_named(series& d)
    {
        const auto na = xn::name(d.a, {"station", "time"}, d.coords_a);
        const auto nb = xn::name(d.b, {"station", "time"}, d.coords_b);
        const auto j = xn::apply<xn::missing_dims, xn::join_outer>(std::plus<>(), na, nb);
        Sink{}(d.out, j - xn::nanmean(j, {"time"}));
    }

    /*****************
     * The catalogue *
     *****************/

    // on<F> turns an implementation over one part of the workload (images, matrices or series) into a
    // function of the whole workload, so that one table lists every case.
    template <class F>
    struct data_of;

    template <class D>
    struct data_of<void (*)(D&)>
    {
        using type = D;
    };

    template <class D>
    D& part(workload& w);

    template <>
    images& part<images>(workload& w)
    {
        return w.img;
    }

    /// An implementation over images run on the large batch.
    template <auto F>
    void on_large(workload& w)
    {
        F(w.large);
    }

    template <>
    matrices& part<matrices>(workload& w)
    {
        return w.mat;
    }

    template <>
    series& part<series>(workload& w)
    {
        return w.ser;
    }

    /// An implementation of a case as a function of the whole workload.
    using runner = void (*)(workload&);

    template <auto F>
    void on(workload& w)
    {
        F(part<typename data_of<decltype(F)>::type>(w));
    }

    const tolerance exact{0, 0, "the same IEEE operations: bit for bit"};

    struct pipeline_case
    {
        const char* name;
        const char* what;
        double bar; // the largest named / hand
        tolerance tol;
        snapshot (*output)(workload&);
        runner hand;
        runner xtensor;
        runner named;              // nullptr when the library lacks what it needs
        runner xtensor_expression; // nullptr when xtensor would recompute a reduction at every element
    };

    snapshot image_output(workload& w)
    {
        return snapshot_of(w.img.out);
    }

    snapshot large_image_output(workload& w)
    {
        return snapshot_of(w.large.out);
    }

    snapshot channel_output(workload& w)
    {
        return snapshot_of(w.img.per_channel);
    }

    snapshot image_sum_output(workload& w)
    {
        return snapshot_of(w.img.per_image);
    }

    snapshot matrix_output(workload& w)
    {
        return snapshot_of(w.mat.out);
    }

    snapshot series_output(workload& w)
    {
        return snapshot_of(w.ser.out);
    }

    // xsimd's exp (xtensor, the named expression) and glibc's expf (the hand loop) each round within an
    // ulp or two of the exact value.
    const tolerance exp_tolerance{1e-6, 0, "xsimd's exp and glibc's expf differ by an ulp or two"};
    // Float sums of 1e5 to 1e6 terms in different orders (the hand loop: sixteen float lanes, added in
    // double; xtensor: its own blocks); on this data (values in [-0.5, 1.5), no cancellation to speak
    // of) they agree within a few ulps, and a sum in one running float would lose about 1e-5.
    const tolerance f32_sum_tolerance{1e-5, 0, "f32 sums of 1e5 to 1e6 terms in different orders"};
    const tolerance softmax_tolerance{1e-6, 0, "exp in two libraries, then a sum of c terms and a division"};
    // GCC contracts a * b - c into one fma by default in GNU mode (-ffp-contract=fast): some
    // evaluations of (A + B) * C - A do, others do not, and their results differ by the rounding of the
    // product, which is at most 4.5 here: within 2e-15, but not relative to a result that may be near 0.
    const tolerance chain3_tolerance{0, 2e-15, "a * b - c contracted into an fma or not (GCC's default)"};
    // The anomaly is about 1 where the joined series are about 24: means of a few thousand f64 terms
    // summed in different orders differ by a few ulps of 24.
    const tolerance anomaly_tolerance{0, 1e-12, "f64 means of the joined times in different orders"};

    const pipeline_case cases[] = {
        {"normalize", "(x - m[c]) / s[c]", 1.3, exact, image_output, on<normalize_hand>,
         on<normalize_xtensor>, on<normalize_named<by_named>>, on<normalize_named<by_xtensor>>},
        {"normalize_large", "(x - m[c]) / s[c], x (1024, 3, 224, 224): 1.15 GiB moved", 1.3, exact,
         large_image_output, on_large<normalize_hand>, on_large<normalize_xtensor>,
         on_large<normalize_named<by_named>>, on_large<normalize_named<by_xtensor>>},
        {"normalize_masked", "where(lbl == 1, (x - m[c]) / s[c], 0)", 1.3, exact, image_output,
         on<normalize_masked_hand>, on<normalize_masked_xtensor>, on<normalize_masked_named<by_named>>,
         on<normalize_masked_named<by_xtensor>>},
        {"exp", "exp(x)", 1.3, exp_tolerance, image_output, on<exp_hand>, on<exp_xtensor>,
         on<exp_named<by_named>>, on<exp_named<by_xtensor>>},
        {"relu", "where(x > 0, x, 0)", 1.3, exact, image_output, on<relu_hand>, on<relu_xtensor>,
         on<relu_named<by_named>>, on<relu_named<by_xtensor>>},
        {"channel_mean", "mean(x, (n, h, w))", 1.3, f32_sum_tolerance, channel_output, on<channel_mean_hand>,
         on<channel_mean_xtensor>, on<channel_mean_named<by_named>>, on<channel_mean_named<by_xtensor>>},
        {"channel_max", "amax(x, (n, h, w))", 1.3, exact, channel_output, on<channel_max_hand>,
         on<channel_max_xtensor>, on<channel_max_named<by_named>>, on<channel_max_named<by_xtensor>>},
        {"image_sum", "sum(x, (c, h, w))", 1.3, f32_sum_tolerance, image_sum_output, on<image_sum_hand>,
         on<image_sum_xtensor>, on<image_sum_named<by_named>>, on<image_sum_named<by_xtensor>>},
        // xtensor's lazy reducers read through .expression() compute exp c + 1 times per element: slow
        // but bounded, and the cost a user meets who assigns the named expression through xtensor.
        {"softmax", "e = exp(x - amax(x, c)); e / sum(e, c)", 2.0, softmax_tolerance, image_output,
         on<softmax_hand>, on<softmax_xtensor>, on<softmax_named<by_named>>, on<softmax_named<by_xtensor>>},
        {"row_column", "(A + u[x]) * v[y]", 1.3, exact, matrix_output, on<row_column_hand>,
         on<row_column_xtensor>, on<row_column_named<by_named>>, on<row_column_named<by_xtensor>>},
        {"chain3", "(A + B) * C - A", 1.3, chain3_tolerance, matrix_output, on<chain3_hand>,
         on<chain3_xtensor>, on<chain3_named<by_named>>, on<chain3_named<by_xtensor>>},
        // Through xtensor the lazy nanmean would be recomputed at every element: times^2 work.
        {"anomaly", "x - nanmean(x, time), x an outer join (NaN where a series lacks a time)", 2.0,
         anomaly_tolerance, series_output, on<anomaly_hand>, on<anomaly_xtensor>, on<anomaly_named<by_named>>,
         on<anomaly_named<by_xtensor>>},
        // Through xtensor the lazy nanmean would be recomputed at every element: times^2 work.
        {"join_anomaly", "j = a + b (outer join on time); j - nanmean(j, time)", 2.0, anomaly_tolerance,
         series_output, on<join_anomaly_hand>, on<join_anomaly_xtensor>, on<join_anomaly_named<by_named>>,
         nullptr},
    };

    struct implementation
    {
        const char* name;
        runner pipeline_case::*run;
    };

    const implementation implementations[] = {{"hand", &pipeline_case::hand},
                                              {"xtensor", &pipeline_case::xtensor},
                                              {"named", &pipeline_case::named},
                                              {"xtensor_expression", &pipeline_case::xtensor_expression}};

    /*************
     * The check *
     *************/

    /// Overwrites every output, so that a check sees whether an implementation wrote all of it.
    void poison(workload& w)
    {
        const float f = 12345.0f;
        std::fill(w.img.out.begin(), w.img.out.end(), f);
        std::fill(w.img.per_channel.begin(), w.img.per_channel.end(), f);
        std::fill(w.img.per_image.begin(), w.img.per_image.end(), f);
        std::fill(w.large.out.begin(), w.large.out.end(), f);
        std::fill(w.mat.out.begin(), w.mat.out.end(), double(f));
        std::fill(w.ser.out.begin(), w.ser.out.end(), double(f));
    }

    /// Runs every implementation of every case once and compares it with the hand loop.
    bool check_all(workload& w)
    {
        std::printf("Checking every implementation against the hand loop:\n");
        bool ok = true;
        for (const auto& c : cases)
        {
            std::printf("%s: rtol %g, atol %g (%s)\n", c.name, c.tol.rtol, c.tol.atol, c.tol.why);
            poison(w);
            c.hand(w);
            const snapshot reference = c.output(w);
            for (const auto& impl : implementations)
            {
                const runner run = c.*impl.run;
                if (run == nullptr || run == c.hand)
                {
                    continue;
                }
                poison(w);
                try
                {
                    run(w);
                    ok = compare(c.name, impl.name, c.tol, "the hand loop", reference, c.output(w)) && ok;
                }
                catch (const std::exception& e)
                {
                    std::printf("MISMATCH %s/%s: threw %s\n", c.name, impl.name, e.what());
                    ok = false;
                }
            }
        }
        return ok;
    }

    /*************
     * The table *
     *************/

    /// A build with threads times wall-clock time: CPU time would count the calling thread only.
    constexpr bool kernel_threads_timed = xn::detail::kernel_threads_enabled;

    void print_table(const xtensor_named_bench::median_reporter& reporter, const sizes& z)
    {
        std::printf("\nPipelines (%s sizes): median %s time per call. Bar: named <= 1.3 x hand (2 x where a "
                    "reduction feeds an operation) and named <= xtensor\n",
                    z.name, kernel_threads_timed ? "wall-clock" : "CPU");
        std::printf("%-17s| %11s | %11s | %11s | %11s | %12s | %13s | %s\n", "case", "hand", "xtensor",
                    "named", "xt_expr", "named/hand", "xtensor/named", "bar");
        bool all_met = true;
        bool any = false;
        for (const auto& c : cases)
        {
            const std::string prefix = std::string(c.name) + "/";
            const double hand = reporter.time(prefix + "hand");
            const double xtensor = reporter.time(prefix + "xtensor");
            const double named = reporter.time(prefix + "named");
            const double expression = reporter.time(prefix + "xtensor_expression");
            if (hand <= 0 && xtensor <= 0 && named <= 0)
            {
                continue;
            }
            char over_hand[32] = "-";
            char over_named[32] = "-";
            std::string verdict = named > 0 ? "ok" : (c.named == nullptr ? "no named implementation" : "-");
            any = any || named > 0;
            if (named > 0 && hand > 0)
            {
                const bool met = named / hand <= c.bar;
                std::snprintf(over_hand, sizeof(over_hand), "%.2f [%.1f]", named / hand, c.bar);
                if (!met)
                {
                    verdict = "SLOW vs hand";
                }
                all_met = all_met && met;
            }
            if (named > 0 && xtensor > 0)
            {
                const bool met = named <= xtensor;
                std::snprintf(over_named, sizeof(over_named), "%.2f", xtensor / named);
                if (!met)
                {
                    verdict = verdict == "ok" ? "SLOW vs xtensor" : verdict + ", vs xtensor";
                }
                all_met = all_met && met;
            }
            std::printf("%-17s| %11s | %11s | %11s | %11s | %12s | %13s | %s\n", c.name,
                        time_text(hand).c_str(), time_text(xtensor).c_str(), time_text(named).c_str(),
                        time_text(expression).c_str(), over_hand, over_named, verdict.c_str());
        }
        if (any)
        {
            std::printf("%s\n", all_met ? "Every measured case meets the bar." : "Some cases miss the bar.");
        }
    }

    /*************
     * The run   *
     *************/

    /// The thread limit from --threads=N (taken out of the arguments): 0 when not given, -1 when
    /// malformed.
    long take_threads(std::vector<char*>& args)
    {
        const auto value = take_flag(args, "--threads=");
        if (!value)
        {
            return 0;
        }
        const long threads = value->empty() ? -1 : std::strtol(value->c_str(), nullptr, 10);
        return threads > 0 ? threads : -1;
    }

    void describe(const sizes& z)
    {
        char text[256];
        std::snprintf(text, sizeof(text), "f32 (%zu, %zu, %zu, %zu)", z.n, z.c, z.h, z.w);
        benchmark::AddCustomContext("pipelines_scale", z.name);
        benchmark::AddCustomContext("pipelines_images", text);
        std::printf("Pipelines, %s sizes: images x %s (n, c, h, w), m and s (c), lbl (n, h, w); ", z.name,
                    text);
        std::snprintf(text, sizeof(text), "f64 %zux%zu", z.rows, z.columns);
        benchmark::AddCustomContext("pipelines_matrices", text);
        std::printf("matrices %s (x, y); ", text);
        std::snprintf(text, sizeof(text), "f64 (%zu, %zu), times [0, %zu) and [%zu, %zu)", z.stations,
                      z.times, z.times, z.skew, z.skew + z.times);
        benchmark::AddCustomContext("pipelines_series", text);
        std::printf("series %s (station, time)\n", text);
        std::printf("xtensor %d.%d.%d, xsimd %d.%d.%d (%s), kernels on %zu thread(s)\n",
                    XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR, XTENSOR_VERSION_PATCH, XSIMD_VERSION_MAJOR,
                    XSIMD_VERSION_MINOR, XSIMD_VERSION_PATCH, xn::detail::simd::arch_name(),
                    xn::detail::kernel_thread_count());
        benchmark::AddCustomContext("pipelines_threads", std::to_string(xn::detail::kernel_thread_count()));
    }

    void register_all(workload& w)
    {
        for (const auto& c : cases)
        {
            for (const auto& impl : implementations)
            {
                const runner run = c.*impl.run;
                if (run == nullptr)
                {
                    continue;
                }
                auto* registered =
                    benchmark::RegisterBenchmark((std::string(c.name) + "/" + impl.name).c_str(),
                                                 [run, &w](benchmark::State& state)
                                                 {
                                                     for (auto _ : state)
                                                     {
                                                         run(w);
                                                         benchmark::ClobberMemory();
                                                     }
                                                 })
                        ->Unit(benchmark::kMicrosecond);
                if (kernel_threads_timed)
                {
                    registered->UseRealTime();
                }
            }
        }
    }
} // namespace

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

int main(int argc, char** argv)
{
    std::vector<char*> args(argv, argv + argc);
    const sizes* z = xtensor_named_bench::choose_scale(args, full_sizes, small_sizes, "bench_pipelines");
    if (z == nullptr)
    {
        return 2;
    }
    const long threads = take_threads(args);
    if (threads < 0 || (threads > 0 && !xn::detail::kernel_threads_enabled))
    {
        std::fprintf(stderr, "bench_pipelines: --threads=N takes a positive N, in a build with threads "
                             "(bench_pipelines_tbb)\n");
        return 2;
    }
#if defined(XTENSOR_USE_TBB)
    std::unique_ptr<tbb::global_control> thread_limit;
    if (threads > 0)
    {
        thread_limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                             static_cast<std::size_t>(threads));
    }
#endif
    if (!xtensor_named_bench::initialize(static_cast<int>(args.size()), args.data(), 9))
    {
        return 2;
    }
    describe(*z);
    static workload w(*z);
    if (!check_all(w))
    {
        std::printf("bench_pipelines: an implementation computes something else than the hand loop; "
                    "nothing timed\n");
        return 1;
    }
    register_all(w);
    xtensor_named_bench::median_reporter reporter(kernel_threads_timed);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    print_table(reporter, *z);
    benchmark::Shutdown();
    return 0;
}
