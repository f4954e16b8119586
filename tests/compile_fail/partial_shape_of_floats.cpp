// expect: xn::partial_shape::of: the sizes must be integers
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A shape is made of integer sizes: a range of doubles is refused at compile time with one sentence.

#include <vector>

#include <xtensor-named/xpartial_shape.hpp>

int main()
{
    const std::vector<double> sizes = {2.0, 3.5};
    const auto s = xt::named::partial_shape::of(sizes);
    return static_cast<int>(s.rank());
}
