// expect: xn::name: the expression must be an xtensor expression\.
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A number has no axes to name: xn::name refuses it in one sentence, not a template backtrace.

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void name_a_number()
{
    auto named = xn::name(42, {"x"});
    (void)named;
}
