/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Built against the installed package by the test find_package_consumer, through xtensor-named::python;
// call_python_consumer.py calls it.

#include <xtensor-named/xpython.hpp>
#include <xtensor-named/xtensor-named.hpp>

PYBIND11_MODULE(python_consumer, m)
{
    m.def("twice", [](const xt::named::pynamed<const double>& x) { return 2.0 * x; });
}
