// expect: xn::name: the expression must be an xtensor expression\.
/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A std::string is a range, not an xtensor expression (xtensor's `xarray + std::string` gives hundreds
// of lines of diagnostics): xn::name refuses it in one sentence.

#include <string>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

void name_a_string()
{
    const std::string text = "abc";
    auto named = xn::name(text, {"x"});
    (void)named;
}
