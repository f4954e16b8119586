// expect: xn::name: this is a shaping strategy \(how labels join: xn::join_inner, xn::join_outer, ...\), where a broadcasting strategy belongs. give it to xn::apply<J>
// max-output-lines: 10
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A join (a shaping strategy) given where a broadcasting strategy goes: refused in one sentence that says
// where a join goes, which comes first and alone; the lines that use the refused result add nothing to it.

#include <iostream>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void join_as_broadcasting_strategy_then_used()
{
    xt::xarray<float> values = {1.f, 2.f};
    auto x = xn::name<xn::join_outer>(values, {"c"});
    std::cout << x << '\n';
    auto e = xn::eval(x * 2.0f);
    xt::xarray<float> out;
    xn::assign(out, x);
    std::cout << x.dims() << ' ' << e << '\n';
}
