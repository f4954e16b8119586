// expect: the named operands of one operation must have the same broadcasting strategy
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Two named operands with different broadcasting strategies do not combine.

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

int main()
{
    xt::xarray<double> a = {1., 2.};
    auto by_position = xn::name<xn::numpy>(a, {"x"});
    auto by_name = xn::name<xn::missing_dims>(a, {"x"});
    auto sum = by_position + by_name;
    return static_cast<int>(sum.dimension());
}
