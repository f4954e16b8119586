// expect: xn::name: a std::vector \(or another container of numbers\) is not an xtensor expression. name xt::adapt\(v\)
// max-output-lines: 10
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A std::vector named directly: refused in one sentence that says to name xt::adapt(v), which comes first
// and alone; the lines that use the refused result add nothing to it.

#include <iostream>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void name_a_vector_then_used()
{
    auto x = xn::name(std::vector<float>{1.f, 2.f}, {"c"});
    std::cout << x << '\n';
    auto e = xn::eval(x);
    xt::xarray<float> out;
    xn::assign(out, x + 1);
    std::cout << x.dims() << ' ' << e << ' ' << xn::mean(x, {"c"}) << '\n';
}
