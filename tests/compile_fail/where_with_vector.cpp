// expect: the arguments of an elementwise function must be named expressions
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::where with a std::vector for a branch: refused in one sentence.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void where_with_vector()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    const std::vector<double> list = {1., 2.};
    auto r = xn::where(a > 1., list, a);
    (void)r;
}
