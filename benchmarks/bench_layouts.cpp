/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Layouts: the same kinds of work as the pipelines on the memory layouts that make a traversal hard, a
// short innermost axis (points (n, xyz), images (n, h, w, c)), a column-major matrix, an operand stored in
// the other axis order, a strided view, and ranks 5 and 6 with short axes in the middle. Each case is
// computed on the same inputs into preallocated outputs by
//   hand      a plain loop over raw pointers, as a good C++ programmer writes it without intrinsics (the
//             compiler may vectorise it; no -ffast-math): the floor
//   xtensor   xtensor's own evaluation of the plain expression, `xt::noalias(out) = ...`, a reduction
//             that feeds an operation evaluated first into a buffer
//   named     xn::assign(out, named expression), the expression built in the timed loop
// xtensor's values are the reference: the hand loop and xtensor-named are checked against them once
// before anything is timed, and a mismatch stops the program with a non-zero status. Every benchmark is
// repeated (9 times unless told otherwise) in random interleaved order in one process; the table at the
// end compares medians of CPU time. bench_layouts.py times numpy and PyTorch on the same shapes and data.
//
//   bench_layouts                                      # full sizes
//   bench_layouts --scale=small                        # small sizes, a quick run of the harness
//   bench_layouts --benchmark_filter=nhwc              # some cases
//   bench_layouts --benchmark_out=r.json --benchmark_out_format=json   # for benchmarks/run_all.py

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <xtensor-named/xtensor-named.hpp>

#include "bench_protocol.hpp"

namespace xn = xt::named;

using xtensor_named_bench::compare;
using xtensor_named_bench::fill_hashed;
using xtensor_named_bench::lanes;
using xtensor_named_bench::snapshot;
using xtensor_named_bench::snapshot_of;
using xtensor_named_bench::time_text;
using xtensor_named_bench::tolerance;

// xtensor's own evaluation of the math functions reaches GCC's AVX-512 intrinsics as the kernels do: GCC
// before 12.3 warns falsely there too (see xcompat_xsimd.hpp).
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
        std::size_t points;               // the point cloud (n, xyz)
        std::size_t n, h, w, c;           // the channels-last image batch (n, h, w, c)
        std::size_t rows, columns;        // the f64 matrices
        std::array<std::size_t, 5> rank5; // (a, b, c, d, e), d short
        std::array<std::size_t, 6> rank6; // (a, b, c, d, e, f), b, c and e short
    };

    const sizes full_sizes{
        "full", 1000000, 8, 256, 256, 3, 2000, 2000, {64, 3, 32, 2, 32}, {16, 2, 3, 32, 2, 64}};
    const sizes small_sizes{"small", 10000, 2, 16, 16, 3, 200, 200, {4, 3, 8, 2, 8}, {2, 2, 3, 4, 2, 8}};

    template <class T, std::size_t N>
    xt::xtensor<T, N> zeros_of(const std::array<std::size_t, N>& shape)
    {
        return xt::xtensor<T, N>::from_shape(shape);
    }

    template <class T>
    xt::xtensor<T, 1> vector_of(std::size_t size)
    {
        return xt::xtensor<T, 1>::from_shape({size});
    }

    /// A point cloud: positions p (n, xyz), a centre c (xyz) and a weight per point w (n).
    struct points
    {
        std::size_t count, dims;
        xt::xtensor<float, 2> p;
        xt::xtensor<float, 1> c, w;
        xt::xtensor<float, 2> out;       // (n, xyz)
        xt::xtensor<float, 1> per_point; // (n)
        xt::xtensor<float, 1> per_axis;  // (xyz)
        std::vector<float> partial;      // the hand loop's lanes of the centroid, lanes * xyz

        explicit points(const sizes& z)
            : count(z.points), dims(3), p(zeros_of<float, 2>({count, dims})), c(vector_of<float>(dims)),
              w(vector_of<float>(count)), out(p.shape()), per_point(vector_of<float>(count)),
              per_axis(vector_of<float>(dims)), partial(lanes * dims)
        {
            fill_hashed(p, 21, -0.5, 2.0);
            fill_hashed(c, 22, 0.25, 0.5);
            fill_hashed(w, 23, 0.5, 1.0);
        }
    };

    /// A channels-last image batch x (n, h, w, c) and its per-channel statistics m, s (c).
    struct nhwc
    {
        std::size_t n, h, w, c;
        xt::xtensor<float, 4> x;
        xt::xtensor<float, 1> m, s;
        xt::xtensor<float, 4> out;         // (n, h, w, c)
        xt::xtensor<float, 3> per_pixel;   // (n, h, w)
        xt::xtensor<float, 1> per_channel; // (c)
        // xtensor's softmax: its reductions over c, (n, h, w, 1).
        xt::xtensor<float, 4> across_max, across_sum;
        std::vector<float> partial; // the hand loop's lanes of the channel maximum, lanes * c

        explicit nhwc(const sizes& z)
            : n(z.n), h(z.h), w(z.w), c(z.c), x(zeros_of<float, 4>({n, h, w, c})), m(vector_of<float>(c)),
              s(vector_of<float>(c)), out(x.shape()), per_pixel(zeros_of<float, 3>({n, h, w})),
              per_channel(vector_of<float>(c)), across_max(zeros_of<float, 4>({n, h, w, 1})),
              across_sum(across_max.shape()), partial(lanes * c)
        {
            fill_hashed(x, 31, -0.5, 2.0);
            fill_hashed(m, 32, 0.25, 0.5);
            fill_hashed(s, 33, 0.25, 0.25);
        }

        std::size_t pixels() const
        {
            return n * h * w;
        }
    };

    /// f64 matrices (x, y): A column-major, B row-major, C stored in the other axis order (y, x); a
    /// column u (x) and a row v of the strided view's columns.
    struct matrices
    {
        using column_major = xt::xtensor<double, 2, xt::layout_type::column_major>;

        std::size_t rows, columns;
        column_major a;
        xt::xtensor<double, 1> u;
        xt::xtensor<double, 2> b, c_yx;
        xt::xtensor<double, 1> v;
        column_major out_column_major;      // (x, y)
        xt::xtensor<double, 2> out;         // (x, y)
        xt::xtensor<double, 2> out_strided; // (x, y / 2): B's even columns
        xt::xtensor<double, 1> out_columns; // (y)
        xt::xtensor<double, 1> out_rows;    // (x)

        explicit matrices(const sizes& z)
            : rows(z.rows), columns(z.columns), a(column_major::from_shape({rows, columns})),
              u(vector_of<double>(rows)), b(zeros_of<double, 2>({rows, columns})),
              c_yx(zeros_of<double, 2>({columns, rows})), v(vector_of<double>(strided_columns())),
              out_column_major(a.shape()), out(b.shape()),
              out_strided(zeros_of<double, 2>({rows, strided_columns()})),
              out_columns(zeros_of<double, 1>({columns})), out_rows(zeros_of<double, 1>({rows}))
        {
            // In the order of the logical positions, whatever the layout: numpy's reshape, then its copy
            // into Fortran order, holds the same values.
            fill_hashed(a, 41, 0.5, 1.0);
            fill_hashed(u, 42, -1.0, 2.0);
            fill_hashed(b, 43, 0.5, 1.0);
            fill_hashed(c_yx, 44, 0.5, 1.0);
            fill_hashed(v, 45, 0.5, 1.0);
        }

        std::size_t strided_columns() const
        {
            return (columns + 1) / 2;
        }

        /// B[:, ::2], a view with an inner stride of 2.
        auto even_columns()
        {
            return xt::view(b, xt::all(), xt::range(std::size_t(0), columns, std::size_t(2)));
        }
    };

    /// Ranks 5 and 6 with short axes between long ones.
    struct ranks
    {
        std::array<std::size_t, 5> shape5;
        std::array<std::size_t, 6> shape6;
        xt::xtensor<float, 5> x5, out5;
        xt::xtensor<float, 5> mean5; // xtensor's mean over d, (a, b, c, 1, e)
        xt::xtensor<float, 6> x6, out6;
        xt::xtensor<float, 1> g, k; // (c) and (e) of x6
        std::vector<float> row;     // the hand loop's sums over d, one row of e

        explicit ranks(const sizes& z)
            : shape5(z.rank5), shape6(z.rank6), x5(zeros_of<float, 5>(shape5)), out5(x5.shape()),
              mean5(zeros_of<float, 5>({shape5[0], shape5[1], shape5[2], 1, shape5[4]})),
              x6(zeros_of<float, 6>(shape6)), out6(x6.shape()), g(vector_of<float>(shape6[2])),
              k(vector_of<float>(shape6[4])), row(shape5[4])
        {
            fill_hashed(x5, 51, -0.5, 2.0);
            fill_hashed(x6, 52, -0.5, 2.0);
            fill_hashed(g, 53, 0.5, 1.0);
            fill_hashed(k, 54, -1.0, 2.0);
        }
    };

    /// Everything the cases read and write, made once for the chosen sizes. A case's functions take the
    /// part they work on.
    struct workload : points, nhwc, matrices, ranks
    {
        explicit workload(const sizes& z) : points(z), nhwc(z), matrices(z), ranks(z) {}
    };

    /********************************************************
     * a. points_offset: (p - c[xyz]) * w[n], p (n, xyz)    *
     ********************************************************/

    void points_offset_hand(points& d)
    {
        const float* p = d.p.data();
        const float* c = d.c.data();
        const float* w = d.w.data();
        float* out = d.out.data();
        for (std::size_t i = 0; i < d.count; ++i)
        {
            for (std::size_t k = 0; k < d.dims; ++k)
            {
                out[i * d.dims + k] = (p[i * d.dims + k] - c[k]) * w[i];
            }
        }
    }

    void points_offset_xtensor(points& d)
    {
        xt::noalias(d.out) = (d.p - d.c) * xt::view(d.w, xt::all(), xt::newaxis());
    }

    void points_offset_named(points& d)
    {
        const auto np = xn::name(d.p, {"n", "xyz"});
        const auto nc = xn::name(d.c, {"xyz"});
        const auto nw = xn::name(d.w, {"n"});
        xn::assign(d.out, (np - nc) * nw);
    }

    /***********************************************************
     * b. points_distance: sqrt(sum((p - c)^2, xyz)), (n)      *
     ***********************************************************/

    void points_distance_hand(points& d)
    {
        const float* p = d.p.data();
        const float* c = d.c.data();
        float* out = d.per_point.data();
        for (std::size_t i = 0; i < d.count; ++i)
        {
            float total = 0;
            for (std::size_t k = 0; k < d.dims; ++k)
            {
                const float r = p[i * d.dims + k] - c[k];
                total += r * r;
            }
            out[i] = std::sqrt(total);
        }
    }

    void points_distance_xtensor(points& d)
    {
        xt::noalias(d.per_point) = xt::sqrt(xt::sum(xt::square(d.p - d.c), {1}));
    }

    void points_distance_named(points& d)
    {
        const auto np = xn::name(d.p, {"n", "xyz"});
        const auto nc = xn::name(d.c, {"xyz"});
        xn::assign(d.per_point, xn::sqrt(xn::sum(xn::square(np - nc), {"xyz"})));
    }

    /*********************************************
     * c. points_centroid: sum(p, n), (xyz)      *
     *********************************************/

    void points_centroid_hand(points& d)
    {
        // The sums over n of a row-major (n, xyz) array in independent lanes, as sum_run sums a run: a
        // whole number of rows at a time, so that lane j sums axis j % xyz.
        const float* p = d.p.data();
        const std::size_t width = d.partial.size();
        const std::size_t size = d.p.size();
        float* partial = d.partial.data();
        std::fill(partial, partial + width, 0.0f);
        std::size_t i = 0;
        for (; i + width <= size; i += width)
        {
            for (std::size_t j = 0; j < width; ++j)
            {
                partial[j] += p[i + j];
            }
        }
        std::vector<double> total(d.dims, 0.0);
        for (; i < size; ++i)
        {
            total[i % d.dims] += double(p[i]);
        }
        for (std::size_t j = 0; j < width; ++j)
        {
            total[j % d.dims] += double(partial[j]);
        }
        for (std::size_t k = 0; k < d.dims; ++k)
        {
            d.per_axis(k) = static_cast<float>(total[k]);
        }
    }

    void points_centroid_xtensor(points& d)
    {
        xt::noalias(d.per_axis) = xt::sum(d.p, {0});
    }

    void points_centroid_named(points& d)
    {
        xn::assign(d.per_axis, xn::sum(xn::name(d.p, {"n", "xyz"}), {"n"}));
    }

    /****************************************************
     * d. nhwc_normalize: (x - m[c]) / s[c], c last      *
     ****************************************************/

    void nhwc_normalize_hand(nhwc& d)
    {
        const float* x = d.x.data();
        const float* m = d.m.data();
        const float* s = d.s.data();
        float* out = d.out.data();
        for (std::size_t i = 0; i < d.pixels(); ++i)
        {
            for (std::size_t k = 0; k < d.c; ++k)
            {
                out[i * d.c + k] = (x[i * d.c + k] - m[k]) / s[k];
            }
        }
    }

    void nhwc_normalize_xtensor(nhwc& d)
    {
        xt::noalias(d.out) = (d.x - d.m) / d.s;
    }

    void nhwc_normalize_named(nhwc& d)
    {
        const auto nx = xn::name(d.x, {"n", "h", "w", "c"});
        const auto nm = xn::name(d.m, {"c"});
        const auto ns = xn::name(d.s, {"c"});
        xn::assign(d.out, (nx - nm) / ns);
    }

    /*****************************************
     * e. nhwc_sum_c: sum(x, c), (n, h, w)   *
     *****************************************/

    void nhwc_sum_c_hand(nhwc& d)
    {
        const float* x = d.x.data();
        float* out = d.per_pixel.data();
        for (std::size_t i = 0; i < d.pixels(); ++i)
        {
            float total = 0;
            for (std::size_t k = 0; k < d.c; ++k)
            {
                total += x[i * d.c + k];
            }
            out[i] = total;
        }
    }

    void nhwc_sum_c_xtensor(nhwc& d)
    {
        xt::noalias(d.per_pixel) = xt::sum(d.x, {3});
    }

    void nhwc_sum_c_named(nhwc& d)
    {
        xn::assign(d.per_pixel, xn::sum(xn::name(d.x, {"n", "h", "w", "c"}), {"c"}));
    }

    /**************************************************
     * f. nhwc_channel_max: amax(x, (n, h, w)), (c)   *
     **************************************************/

    void nhwc_channel_max_hand(nhwc& d)
    {
        // The maximum over every pixel in independent lanes, as max_run: lane j holds channel j % c.
        const float lowest = -std::numeric_limits<float>::infinity();
        const float* x = d.x.data();
        const std::size_t width = d.partial.size();
        const std::size_t size = d.x.size();
        float* partial = d.partial.data();
        std::fill(partial, partial + width, lowest);
        std::size_t i = 0;
        for (; i + width <= size; i += width)
        {
            for (std::size_t j = 0; j < width; ++j)
            {
                partial[j] = x[i + j] > partial[j] ? x[i + j] : partial[j];
            }
        }
        float* best = d.per_channel.data();
        std::fill(best, best + d.c, lowest);
        for (; i < size; ++i)
        {
            best[i % d.c] = x[i] > best[i % d.c] ? x[i] : best[i % d.c];
        }
        for (std::size_t j = 0; j < width; ++j)
        {
            best[j % d.c] = partial[j] > best[j % d.c] ? partial[j] : best[j % d.c];
        }
    }

    void nhwc_channel_max_xtensor(nhwc& d)
    {
        xt::noalias(d.per_channel) = xt::amax(d.x, {0, 1, 2});
    }

    void nhwc_channel_max_named(nhwc& d)
    {
        xn::assign(d.per_channel, xn::amax(xn::name(d.x, {"n", "h", "w", "c"}), {"n", "h", "w"}));
    }

    /******************************************************************
     * g. nhwc_softmax: e = exp(x - amax(x, c)); e / sum(e, c)         *
     ******************************************************************/

    void nhwc_softmax_hand(nhwc& d)
    {
        const float* x = d.x.data();
        float* out = d.out.data();
        for (std::size_t i = 0; i < d.pixels(); ++i)
        {
            const float* xi = x + i * d.c;
            float* oi = out + i * d.c;
            float top = xi[0];
            for (std::size_t k = 1; k < d.c; ++k)
            {
                top = xi[k] > top ? xi[k] : top;
            }
            float total = 0;
            for (std::size_t k = 0; k < d.c; ++k)
            {
                oi[k] = std::exp(xi[k] - top);
                total += oi[k];
            }
            for (std::size_t k = 0; k < d.c; ++k)
            {
                oi[k] /= total;
            }
        }
    }

    void nhwc_softmax_xtensor(nhwc& d)
    {
        // xtensor's reducers are lazy and recompute their reduction at every element that reads it, so
        // an xtensor user evaluates a reduction that feeds an operation into a buffer first.
        xt::noalias(d.across_max) = xt::amax(d.x, {3}, xt::keep_dims);
        xt::noalias(d.out) = xt::exp(d.x - d.across_max);
        xt::noalias(d.across_sum) = xt::sum(d.out, {3}, xt::keep_dims);
        xt::noalias(d.out) /= d.across_sum;
    }

    void nhwc_softmax_named(nhwc& d)
    {
        const auto nx = xn::name(d.x, {"n", "h", "w", "c"});
        const auto e = xn::exp(nx - xn::amax(nx, {"c"}));
        xn::assign(d.out, e / xn::sum(e, {"c"}));
    }

    /************************************************************
     * h. column_major_column: A(x, y) + u[x], A column-major    *
     ************************************************************/

    void column_major_column_hand(matrices& d)
    {
        const double* a = d.a.data();
        const double* u = d.u.data();
        double* out = d.out_column_major.data();
        for (std::size_t j = 0; j < d.columns; ++j)
        {
            for (std::size_t i = 0; i < d.rows; ++i)
            {
                out[j * d.rows + i] = a[j * d.rows + i] + u[i];
            }
        }
    }

    void column_major_column_xtensor(matrices& d)
    {
        xt::noalias(d.out_column_major) = d.a + xt::view(d.u, xt::all(), xt::newaxis());
    }

    void column_major_column_named(matrices& d)
    {
        xn::assign(d.out_column_major, xn::name(d.a, {"x", "y"}) + xn::name(d.u, {"x"}));
    }

    /********************************************************
     * i. other_order: B(x, y) + C(y, x), C stored (y, x)    *
     ********************************************************/

    /// Calls body(i, j) for every position of a rows x columns matrix in square tiles, so that the lines
    /// of a matrix read down its columns stay in the first-level cache until the tile has used them; i
    /// in order within each column of a tile.
    template <class F>
    void in_square_tiles(std::size_t rows, std::size_t columns, F&& body)
    {
        constexpr std::size_t tile = 32;
        for (std::size_t i0 = 0; i0 < rows; i0 += tile)
        {
            const std::size_t i1 = std::min(i0 + tile, rows);
            for (std::size_t j0 = 0; j0 < columns; j0 += tile)
            {
                const std::size_t j1 = std::min(j0 + tile, columns);
                for (std::size_t i = i0; i < i1; ++i)
                {
                    for (std::size_t j = j0; j < j1; ++j)
                    {
                        body(i, j);
                    }
                }
            }
        }
    }

    void other_order_hand(matrices& d)
    {
        const double* b = d.b.data();
        const double* c = d.c_yx.data();
        double* out = d.out.data();
        in_square_tiles(d.rows, d.columns,
                        [&](std::size_t i, std::size_t j)
                        { out[i * d.columns + j] = b[i * d.columns + j] + c[j * d.rows + i]; });
    }

    void other_order_xtensor(matrices& d)
    {
        xt::noalias(d.out) = d.b + xt::transpose(d.c_yx);
    }

    void other_order_named(matrices& d)
    {
        xn::assign(d.out, xn::name(d.b, {"x", "y"}) + xn::name(d.c_yx, {"y", "x"}));
    }

    /*********************************************************************
     * i. other_order_sum: sum(B(x, y) * C(y, x), x), C stored (y, x)     *
     *********************************************************************/

    void other_order_sum_hand(matrices& d)
    {
        // Each column's terms added in the order of x, as the other implementations add them.
        const double* b = d.b.data();
        const double* c = d.c_yx.data();
        double* out = d.out_columns.data();
        std::fill(out, out + d.columns, 0.0);
        in_square_tiles(d.rows, d.columns,
                        [&](std::size_t i, std::size_t j)
                        { out[j] += b[i * d.columns + j] * c[j * d.rows + i]; });
    }

    void other_order_sum_xtensor(matrices& d)
    {
        xt::noalias(d.out_columns) = xt::sum(d.b * xt::transpose(d.c_yx), {0});
    }

    void other_order_sum_named(matrices& d)
    {
        xn::assign(d.out_columns, xn::sum(xn::name(d.b, {"x", "y"}) * xn::name(d.c_yx, {"y", "x"}), "x"));
    }

    /***********************************************************************
     * i. other_order_sum_y: sum(B(x, y) * C(y, x), y), C stored (y, x)     *
     ***********************************************************************/

    void other_order_sum_y_hand(matrices& d)
    {
        // Each row's terms added in the order of y, C read down its columns: the lines a row reads stay
        // in the second-level cache for the next rows.
        const double* b = d.b.data();
        const double* c = d.c_yx.data();
        double* out = d.out_rows.data();
        for (std::size_t i = 0; i < d.rows; ++i)
        {
            double sum = 0.0;
            for (std::size_t j = 0; j < d.columns; ++j)
            {
                sum += b[i * d.columns + j] * c[j * d.rows + i];
            }
            out[i] = sum;
        }
    }

    void other_order_sum_y_xtensor(matrices& d)
    {
        xt::noalias(d.out_rows) = xt::sum(d.b * xt::transpose(d.c_yx), {1});
    }

    void other_order_sum_y_named(matrices& d)
    {
        xn::assign(d.out_rows, xn::sum(xn::name(d.b, {"x", "y"}) * xn::name(d.c_yx, {"y", "x"}), "y"));
    }

    /*****************************************************
     * j. strided_row: B[:, ::2] * v[y]                   *
     *****************************************************/

    void strided_row_hand(matrices& d)
    {
        const std::size_t half = d.strided_columns();
        const double* b = d.b.data();
        const double* v = d.v.data();
        double* out = d.out_strided.data();
        for (std::size_t i = 0; i < d.rows; ++i)
        {
            for (std::size_t j = 0; j < half; ++j)
            {
                out[i * half + j] = b[i * d.columns + 2 * j] * v[j];
            }
        }
    }

    void strided_row_xtensor(matrices& d)
    {
        xt::noalias(d.out_strided) = d.even_columns() * d.v;
    }

    void strided_row_named(matrices& d)
    {
        xn::assign(d.out_strided, xn::name(d.even_columns(), {"x", "y"}) * xn::name(d.v, {"y"}));
    }

    /*********************************************************************
     * k. rank5_mean: x - mean(x, d), x (a, b, c, d, e), d short          *
     *********************************************************************/

    void rank5_mean_hand(ranks& d)
    {
        const std::size_t outer = d.shape5[0] * d.shape5[1] * d.shape5[2];
        const std::size_t across = d.shape5[3];
        const std::size_t inner = d.shape5[4];
        const float count = static_cast<float>(across);
        float* mean = d.row.data();
        for (std::size_t o = 0; o < outer; ++o)
        {
            const float* x = d.x5.data() + o * across * inner;
            float* out = d.out5.data() + o * across * inner;
            std::fill(mean, mean + inner, 0.0f);
            for (std::size_t k = 0; k < across; ++k)
            {
                for (std::size_t e = 0; e < inner; ++e)
                {
                    mean[e] += x[k * inner + e];
                }
            }
            for (std::size_t e = 0; e < inner; ++e)
            {
                mean[e] /= count;
            }
            for (std::size_t k = 0; k < across; ++k)
            {
                for (std::size_t e = 0; e < inner; ++e)
                {
                    out[k * inner + e] = x[k * inner + e] - mean[e];
                }
            }
        }
    }

    void rank5_mean_xtensor(ranks& d)
    {
        xt::noalias(d.mean5) = xt::mean(d.x5, {3}, xt::keep_dims);
        xt::noalias(d.out5) = d.x5 - d.mean5;
    }

    void rank5_mean_named(ranks& d)
    {
        const auto nx = xn::name(d.x5, {"a", "b", "c", "d", "e"});
        xn::assign(d.out5, nx - xn::mean(nx, {"d"}));
    }

    /*********************************************************************************
     * l. rank6_scale: x * g[c] + k[e], x (a, b, c, d, e, f), b, c and e short        *
     *********************************************************************************/

    void rank6_scale_hand(ranks& d)
    {
        const auto& s = d.shape6;
        const std::size_t inner = s[5];
        const float* x = d.x6.data();
        float* out = d.out6.data();
        std::size_t row = 0;
        for (std::size_t ab = 0; ab < s[0] * s[1]; ++ab)
        {
            for (std::size_t c = 0; c < s[2]; ++c)
            {
                const float g = d.g(c);
                for (std::size_t j = 0; j < s[3]; ++j)
                {
                    for (std::size_t e = 0; e < s[4]; ++e, ++row)
                    {
                        const float k = d.k(e);
                        for (std::size_t f = 0; f < inner; ++f)
                        {
                            out[row * inner + f] = x[row * inner + f] * g + k;
                        }
                    }
                }
            }
        }
    }

    void rank6_scale_xtensor(ranks& d)
    {
        xt::noalias(d.out6) = d.x6 * xt::view(d.g, xt::all(), xt::newaxis(), xt::newaxis(), xt::newaxis()) +
                              xt::view(d.k, xt::all(), xt::newaxis());
    }

    void rank6_scale_named(ranks& d)
    {
        const auto nx = xn::name(d.x6, {"a", "b", "c", "d", "e", "f"});
        xn::assign(d.out6, nx * xn::name(d.g, {"c"}) + xn::name(d.k, {"e"}));
    }

    /*****************
     * The catalogue *
     *****************/

    /// An implementation of a case as a function of the whole workload.
    using runner = void (*)(workload&);

    /// An implementation over one part of the workload (points, images, matrices, ranks), over the whole.
    template <auto F>
    void on(workload& w)
    {
        F(w);
    }

    snapshot points_output(workload& w)
    {
        return snapshot_of(w.points::out);
    }

    snapshot per_point_output(workload& w)
    {
        return snapshot_of(w.per_point);
    }

    snapshot per_axis_output(workload& w)
    {
        return snapshot_of(w.per_axis);
    }

    snapshot image_output(workload& w)
    {
        return snapshot_of(w.nhwc::out);
    }

    snapshot per_pixel_output(workload& w)
    {
        return snapshot_of(w.per_pixel);
    }

    snapshot per_channel_output(workload& w)
    {
        return snapshot_of(w.per_channel);
    }

    snapshot column_major_output(workload& w)
    {
        return snapshot_of(w.out_column_major);
    }

    snapshot matrix_output(workload& w)
    {
        return snapshot_of(w.matrices::out);
    }

    snapshot columns_output(workload& w)
    {
        return snapshot_of(w.out_columns);
    }

    snapshot rows_output(workload& w)
    {
        return snapshot_of(w.out_rows);
    }

    snapshot strided_output(workload& w)
    {
        return snapshot_of(w.out_strided);
    }

    snapshot rank5_output(workload& w)
    {
        return snapshot_of(w.out5);
    }

    snapshot rank6_output(workload& w)
    {
        return snapshot_of(w.out6);
    }

    struct layout_case
    {
        const char* name;
        const char* what;
        tolerance tol;
        snapshot (*output)(workload&);
        runner hand;
        runner xtensor;
        runner named;
    };

    const tolerance exact{0, 0, "the same IEEE operations: bit for bit"};
    // Sums of a few terms: GCC contracts r * r + total into an fma by default in GNU mode
    // (-ffp-contract=fast) in some evaluations and not in others, and a library may add in another order.
    const tolerance few_terms_tolerance{1e-6, 0,
                                        "sums of a few terms, in another order or contracted into fmas"};
    const tolerance f32_sum_tolerance{1e-5, 0, "f32 sums of 1e5 to 1e6 terms in different orders"};
    const tolerance f64_sum_tolerance{1e-12, 0, "f64 sums of 2000 products, some contracted into fmas"};
    const tolerance softmax_tolerance{1e-6, 0, "exp in two libraries, then a sum of c terms and a division"};
    // x * g + k: the product is below 2.25 and the result below 4 in magnitude. With the product's rounding
    // left out by an fma, the two results differ by half an ulp of the product and one of the result at
    // most: 3.6e-7.
    const tolerance fma_tolerance{0, 4.8e-7, "x * g + k contracted into an fma or not (GCC's default)"};

    const layout_case cases[] = {
        {"points_offset", "(p - c[xyz]) * w[n], p (n, xyz)", exact, points_output, on<points_offset_hand>,
         on<points_offset_xtensor>, on<points_offset_named>},
        {"points_distance", "sqrt(sum((p - c[xyz])^2, xyz))", few_terms_tolerance, per_point_output,
         on<points_distance_hand>, on<points_distance_xtensor>, on<points_distance_named>},
        {"points_centroid", "sum(p, n)", f32_sum_tolerance, per_axis_output, on<points_centroid_hand>,
         on<points_centroid_xtensor>, on<points_centroid_named>},
        {"nhwc_normalize", "(x - m[c]) / s[c], x (n, h, w, c)", exact, image_output, on<nhwc_normalize_hand>,
         on<nhwc_normalize_xtensor>, on<nhwc_normalize_named>},
        {"nhwc_sum_c", "sum(x, c)", few_terms_tolerance, per_pixel_output, on<nhwc_sum_c_hand>,
         on<nhwc_sum_c_xtensor>, on<nhwc_sum_c_named>},
        {"nhwc_channel_max", "amax(x, (n, h, w))", exact, per_channel_output, on<nhwc_channel_max_hand>,
         on<nhwc_channel_max_xtensor>, on<nhwc_channel_max_named>},
        {"nhwc_softmax", "e = exp(x - amax(x, c)); e / sum(e, c)", softmax_tolerance, image_output,
         on<nhwc_softmax_hand>, on<nhwc_softmax_xtensor>, on<nhwc_softmax_named>},
        {"column_major_column", "A(x, y) + u[x], A and the output column-major, f64", exact,
         column_major_output, on<column_major_column_hand>, on<column_major_column_xtensor>,
         on<column_major_column_named>},
        {"other_order", "B(x, y) + C(y, x), f64", exact, matrix_output, on<other_order_hand>,
         on<other_order_xtensor>, on<other_order_named>},
        {"other_order_sum", "sum(B(x, y) * C(y, x), x), f64", f64_sum_tolerance, columns_output,
         on<other_order_sum_hand>, on<other_order_sum_xtensor>, on<other_order_sum_named>},
        {"other_order_sum_y", "sum(B(x, y) * C(y, x), y), f64", f64_sum_tolerance, rows_output,
         on<other_order_sum_y_hand>, on<other_order_sum_y_xtensor>, on<other_order_sum_y_named>},
        {"strided_row", "B[:, ::2](x, y) * v[y], f64", exact, strided_output, on<strided_row_hand>,
         on<strided_row_xtensor>, on<strided_row_named>},
        {"rank5_mean", "x - mean(x, d), x (a, b, c, d, e), d short", exact, rank5_output, on<rank5_mean_hand>,
         on<rank5_mean_xtensor>, on<rank5_mean_named>},
        {"rank6_scale", "x * g[c] + k[e], x (a, b, c, d, e, f), b, c, e short", fma_tolerance, rank6_output,
         on<rank6_scale_hand>, on<rank6_scale_xtensor>, on<rank6_scale_named>},
    };

    struct implementation
    {
        const char* name;
        runner layout_case::*run;
    };

    const implementation implementations[] = {
        {"hand", &layout_case::hand}, {"xtensor", &layout_case::xtensor}, {"named", &layout_case::named}};

    /*************
     * The check *
     *************/

    /// Overwrites every output, so that a check sees whether an implementation wrote all of it.
    void poison(workload& w)
    {
        const float f = 12345.0f;
        std::fill(w.points::out.begin(), w.points::out.end(), f);
        std::fill(w.per_point.begin(), w.per_point.end(), f);
        std::fill(w.per_axis.begin(), w.per_axis.end(), f);
        std::fill(w.per_channel.begin(), w.per_channel.end(), f);
        std::fill(w.nhwc::out.begin(), w.nhwc::out.end(), f);
        std::fill(w.per_pixel.begin(), w.per_pixel.end(), f);
        std::fill(w.out_column_major.begin(), w.out_column_major.end(), double(f));
        std::fill(w.matrices::out.begin(), w.matrices::out.end(), double(f));
        std::fill(w.out_strided.begin(), w.out_strided.end(), double(f));
        std::fill(w.out5.begin(), w.out5.end(), f);
        std::fill(w.out6.begin(), w.out6.end(), f);
    }

    /// Runs xtensor's evaluation of every case once, then the hand loop and xtensor-named, and compares
    /// them with xtensor's values.
    bool check_all(workload& w)
    {
        std::printf("Checking the hand loop and xtensor-named against xtensor:\n");
        bool ok = true;
        for (const auto& c : cases)
        {
            std::printf("%s: rtol %g, atol %g (%s)\n", c.name, c.tol.rtol, c.tol.atol, c.tol.why);
            poison(w);
            c.xtensor(w);
            const snapshot reference = c.output(w);
            for (const auto& impl : implementations)
            {
                const runner run = c.*impl.run;
                if (run == c.xtensor)
                {
                    continue;
                }
                poison(w);
                try
                {
                    run(w);
                    ok = compare(c.name, impl.name, c.tol, "xtensor", reference, c.output(w)) && ok;
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

    void print_table(const xtensor_named_bench::median_reporter& reporter, const sizes& z)
    {
        std::printf("\nLayouts (%s sizes): median CPU time per call\n", z.name);
        std::printf("%-20s| %11s | %11s | %11s | %10s | %13s\n", "case", "hand", "xtensor", "named",
                    "named/hand", "xtensor/named");
        for (const auto& c : cases)
        {
            const std::string prefix = std::string(c.name) + "/";
            const double hand = reporter.time(prefix + "hand");
            const double xtensor = reporter.time(prefix + "xtensor");
            const double named = reporter.time(prefix + "named");
            if (hand <= 0 && xtensor <= 0 && named <= 0)
            {
                continue;
            }
            char over_hand[32] = "-";
            char over_named[32] = "-";
            if (named > 0 && hand > 0)
            {
                std::snprintf(over_hand, sizeof(over_hand), "%.2f", named / hand);
            }
            if (named > 0 && xtensor > 0)
            {
                std::snprintf(over_named, sizeof(over_named), "%.2f", xtensor / named);
            }
            std::printf("%-20s| %11s | %11s | %11s | %10s | %13s\n", c.name, time_text(hand).c_str(),
                        time_text(xtensor).c_str(), time_text(named).c_str(), over_hand, over_named);
        }
    }

    /***********
     * The run *
     ***********/

    template <std::size_t N>
    std::string shape_of(const std::array<std::size_t, N>& shape)
    {
        return xtensor_named_bench::shape_text(std::vector<std::size_t>(shape.begin(), shape.end()));
    }

    void describe(const sizes& z)
    {
        const std::string cloud = "f32 (" + std::to_string(z.points) + ", 3)";
        const std::string images = "f32 " + shape_of(std::array<std::size_t, 4>{z.n, z.h, z.w, z.c});
        const std::string matrix = "f64 " + std::to_string(z.rows) + "x" + std::to_string(z.columns);
        const std::string rank5 = "f32 " + shape_of(z.rank5);
        const std::string rank6 = "f32 " + shape_of(z.rank6);
        benchmark::AddCustomContext("layouts_scale", z.name);
        benchmark::AddCustomContext("layouts_points", cloud);
        benchmark::AddCustomContext("layouts_images", images);
        benchmark::AddCustomContext("layouts_matrices", matrix);
        benchmark::AddCustomContext("layouts_rank5", rank5);
        benchmark::AddCustomContext("layouts_rank6", rank6);
        std::printf("Layouts, %s sizes: points p %s (n, xyz); images x %s (n, h, w, c); matrices %s (x, y); "
                    "rank 5 %s; rank 6 %s\n",
                    z.name, cloud.c_str(), images.c_str(), matrix.c_str(), rank5.c_str(), rank6.c_str());
        std::printf("xtensor %d.%d.%d, xsimd %d.%d.%d (%s)\n", XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR,
                    XTENSOR_VERSION_PATCH, XSIMD_VERSION_MAJOR, XSIMD_VERSION_MINOR, XSIMD_VERSION_PATCH,
                    xn::detail::simd::arch_name());
    }

    void register_all(workload& w)
    {
        for (const auto& c : cases)
        {
            for (const auto& impl : implementations)
            {
                const runner run = c.*impl.run;
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
            }
        }
    }
} // namespace

XTENSOR_NAMED_SILENCE_GCC_BUG_105593_END

int main(int argc, char** argv)
{
    std::vector<char*> args(argv, argv + argc);
    const sizes* z = xtensor_named_bench::choose_scale(args, full_sizes, small_sizes, "bench_layouts");
    if (z == nullptr)
    {
        return 2;
    }
    if (!xtensor_named_bench::initialize(static_cast<int>(args.size()), args.data(), 9))
    {
        return 2;
    }
    describe(*z);
    static workload w(*z);
    if (!check_all(w))
    {
        std::printf("bench_layouts: the hand loop or xtensor-named computes something else than xtensor; "
                    "nothing timed\n");
        return 1;
    }
    register_all(w);
    xtensor_named_bench::median_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    print_table(reporter, *z);
    benchmark::Shutdown();
    return 0;
}
