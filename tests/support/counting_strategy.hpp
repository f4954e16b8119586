/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_COUNTING_STRATEGY_HPP
#define XTENSOR_NAMED_TESTS_COUNTING_STRATEGY_HPP

// A user's strategy that counts its calls: what tests of the shortcuts for built-in strategies check
// a user's strategy is never left out of.

#include <xtensor-named/xtensor-named.hpp>

namespace xn_test
{
    /// numpy's rule, counting how often an operation asks it.
    struct counting_numpy
    {
        static inline int calls = 0;

        static xt::named::broadcast_plan plan(const xt::named::operand& a, const xt::named::operand& b)
        {
            ++calls;
            return xt::named::numpy::plan(a, b);
        }
    };
} // namespace xn_test

#endif
