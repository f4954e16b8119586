// expect: a broadcasting strategy must be a type with
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A type without `static broadcast_plan plan(const operand&, const operand&)` is no strategy:
// xn::plan says so in one sentence.

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    struct aligns_nothing
    {
        static int plan(int lhs, int rhs)
        {
            return lhs + rhs;
        }
    };
} // namespace

xn::broadcast_plan plan_with_a_type_that_is_no_strategy()
{
    return xn::plan<aligns_nothing>(xn::operand::unnamed(xn::partial_shape::of({2, 3})),
                                    xn::operand::unnamed(xn::partial_shape::of({3})));
}
