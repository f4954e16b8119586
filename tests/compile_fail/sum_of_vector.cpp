// expect: a reduction by names takes a named expression
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A reduction by name of a std::vector, which has no names: refused in one sentence.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void sum_of_vector()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    const std::vector<double> list = {1., 2.};
    auto r = xn::sum(list, {"x"});
    (void)a;
    (void)r;
}
