/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn_python_test: the boundary of xpython.hpp seen from Python (tests/python/test_xpython.py): what a
// parameter type takes, where its buffer is, what writes through it reach, how long the Python object
// lives, and whether the GIL is held while a result is evaluated.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <xtensor-named/xpython.hpp>
#include <xtensor-named/xtensor-named.hpp>

namespace py = pybind11;
namespace xn = xt::named;

namespace
{
    /// The address of element (0, ..., 0) of an argument.
    template <class E>
    std::uintptr_t address_of(const E& x)
    {
        return reinterpret_cast<std::uintptr_t>(x.expression().data() + x.expression().data_offset());
    }

    /// An argument kept on the C++ side between calls.
    std::optional<xn::pynamed<const double>> kept;

    /// The address of the last result handed over by twice().
    std::uintptr_t last_result = 0;

    /// Whether the GIL was held while the last result of gil_probe() was evaluated.
    bool gil_held = true;

    /// Each element type as itself: the result is a copy, the values and labels as they came.
    template <class T>
    void def_same(py::module_& m, const char* name)
    {
        m.def(name, [](const xn::pynamed<const T>& x) { return x; });
    }
} // namespace

PYBIND11_MODULE(xn_python_test, m)
{
    def_same<float>(m, "same_float32");
    def_same<double>(m, "same_float64");
    def_same<std::int32_t>(m, "same_int32");
    def_same<std::int64_t>(m, "same_int64");
    def_same<bool>(m, "same_bool");

    m.def("address", [](const xn::pynamed<const double>& x) { return address_of(x); });
    m.def("dims", [](const xn::pynamed<const double>& x) { return x.dims().to_string(); });
    m.def("coords", [](const xn::pynamed<const double>& x) { return x.coords().to_string(); });

    // Writes value at every position of x, through its iterators: a view writes only its own elements.
    m.def("fill", [](xn::pynamed<double>& x, double value)
          { std::fill(x.expression().begin(), x.expression().end(), value); });

    // Writes x(i, j) = 10 * i + j, through the strides of x.
    m.def("write_positions",
          [](xn::pynamed<double, 2>& x)
          {
              for (std::size_t i = 0; i < x.shape()[0]; ++i)
              {
                  for (std::size_t j = 0; j < x.shape()[1]; ++j)
                  {
                      x(i, j) = 10.0 * static_cast<double>(i) + static_cast<double>(j);
                  }
              }
          });

    m.def("total", [](const xn::pynamed<const double>& x) { return double(xn::eval(xn::sum(x)).item()); });

    // 2 * x, evaluated here: its buffer's address is recorded before it is handed over.
    m.def("twice",
          [](const xn::pynamed<const double>& x)
          {
              auto result = xn::eval(2.0 * x);
              last_result = reinterpret_cast<std::uintptr_t>(result.expression().data());
              return result;
          });
    m.def("last_result_address", []() { return last_result; });

    // x + x through a functor that records whether the GIL is held when it runs.
    m.def("gil_probe",
          [](const xn::pynamed<const double>& x)
          {
              gil_held = true;
              return xn::apply(
                  [](double a, double b)
                  {
                      gil_held = PyGILState_Check() != 0;
                      return a + b;
                  },
                  x, x);
          });
    m.def("gil_was_held", []() { return gil_held; });

    m.def("keep", [](const xn::pynamed<const double>& x) { kept.emplace(x); });
    m.def("kept_total", []() { return double(xn::eval(xn::sum(*kept)).item()); });
    m.def("release", []() { kept.reset(); });

    m.def("matrix_total",
          [](const xn::pynamed<const double, 2>& x) { return double(xn::eval(xn::sum(x)).item()); });

    // A result with an unnamed axis, and a reduction to rank 0.
    m.def("unnamed", []() { return xn::eval(xn::name(xt::xarray<double>{{1., 2.}, {3., 4.}}, {"?", "x"})); });
    m.def("reduce_all", [](const xn::pynamed<const double>& x) { return xn::sum(x); });
}
