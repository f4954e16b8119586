// expect: the arguments of an elementwise function must be named expressions
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A math function of a std::string: refused in one sentence.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void exp_of_string()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    const std::string text = "abc";
    auto r = xn::exp(text);
    (void)a;
    (void)r;
}
