// expect: an operator on a named expression takes named expressions, xtensor expressions and numbers
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A std::vector is not an xtensor expression (xt::adapt makes one): refused in one sentence.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void vector_times_named()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    const std::vector<double> list = {1., 2.};
    auto r = list * a;
    (void)r;
}
