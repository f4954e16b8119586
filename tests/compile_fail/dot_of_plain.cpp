// expect: xn::dot: both operands must be named expressions
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::dot finds the axes to sum by name: a plain expression has none.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void dot_of_plain()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    auto r = xn::dot(a, values, {"x"});
    (void)r;
}
