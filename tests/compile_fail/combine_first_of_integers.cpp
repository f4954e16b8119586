// expect: xn::combine_first: the elements must be floating point numbers
// max-lines: 10
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::combine_first of integer expressions, which hold no NaN to mark what one lacks: refused in one
// sentence.

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void combine_first_of_integers()
{
    xt::xarray<int> values = {1, 2};
    auto a = xn::name(values, {"t"}, {{"t", {0, 10}}});
    auto b = xn::name(values, {"t"}, {{"t", {10, 20}}});
    auto r = xn::combine_first(a, b);
    (void)r;
}
