// expect: an operator on a named expression takes named expressions, xtensor expressions and numbers
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A std::string beside a named expression: one sentence, not every candidate operator's failure.

#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void named_plus_string()
{
    xt::xarray<double> values = {1., 2.};
    auto a = xn::name(values, {"x"});
    const std::string text = "abc";
    auto r = a + text;
    (void)r;
}
