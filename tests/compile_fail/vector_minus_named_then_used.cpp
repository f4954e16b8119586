// expect: xn: an operator on a named expression takes named expressions, xtensor expressions and numbers. xt::adapt makes an xtensor expression of a std::vector
// max-output-lines: 10
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A std::vector is not an xtensor expression: the operator is refused in one sentence, which comes first
// and alone; the lines that go on to use the refused result (print it, evaluate it, assign it, ask its
// dims, compute with it) add nothing to it.

#include <iostream>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void vector_minus_named_then_used()
{
    xt::xarray<float> values = {1.f, 2.f};
    auto x = xn::name(values, {"c"});
    auto r = x - std::vector<float>{1.f, 2.f};
    std::cout << r << '\n';
    auto e = xn::eval(r);
    xt::xarray<float> out;
    xn::assign(out, r);
    std::cout << r.dims() << ' ' << e << ' ' << r.dimension() << '\n';
    auto s = xn::sum(xn::exp(-(r + 1.0) * x), "c");
    std::cout << s << xn::eval(s * values) << '\n';
}
