/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn_example: three functions that take xarray.DataArrays and return new ones, each a few lines of
// C++. The arguments are named expressions over the numpy buffers (no copy); the results are
// evaluated without the GIL and handed to xarray without a copy. examples/python/demo.py calls them.

#include <functional>
#include <string>

#include <xtensor-named/xpython.hpp>
#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

// float32 or float64 arrays, of any rank and dims.
using floating = xn::pynamed_any<float, double>;

PYBIND11_MODULE(xn_example, m)
{
    m.doc() = "xtensor-named called from Python: DataArrays in, DataArrays out";

    // x - x.mean(dim), NaN skipped: the mean is broadcast back over dim by name.
    m.def(
        "anomaly",
        [](const floating& x, const std::string& dim)
        { return xn::visit([&](const auto& a) { return a - xn::nanmean(a, {dim}); }, x); },
        pybind11::arg("x"), pybind11::arg("dim"),
        "x minus its mean over dim (NaN skipped), with x's dims and coords");

    // (x - mean) / std, lined up by name (xn::missing_dims), whatever the order of x's dims.
    m.def(
        "normalize",
        [](const floating& x, const floating& mean, const floating& std) {
            return xn::visit([](const auto& a, const auto& m, const auto& s) { return (a - m) / s; }, x, mean,
                             std);
        },
        pybind11::arg("x"), pybind11::arg("mean"), pybind11::arg("std"),
        "(x - mean) / std, broadcast by dim name");

    // a + b on the union of their labels (xarray's join="outer"): NaN where one lacks a label.
    m.def(
        "outer_sum",
        [](const floating& a, const floating& b)
        {
            return xn::visit([](const auto& l, const auto& r)
                             { return xn::apply<xn::join_outer>(std::plus<>(), l, r); },
                             a, b);
        },
        pybind11::arg("a"), pybind11::arg("b"), "a + b under an outer join of their coordinate labels");
}
