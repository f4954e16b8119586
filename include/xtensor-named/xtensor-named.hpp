/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XTENSOR_NAMED_HPP
#define XTENSOR_NAMED_XTENSOR_NAMED_HPP

// The umbrella header: everything xtensor-named offers, in namespace xt::named
// (examples write `namespace xn = xt::named;`).

#include "xcompat_xtensor.hpp"
#include "xcompat_xsimd.hpp"
#include "xerrors.hpp"
#include "xdims.hpp"
#include "xpartial_shape.hpp"
#include "xbroadcast_plan.hpp"
#include "xstrategies.hpp"
#include "xcoords.hpp"
#include "xshaping.hpp"
#include "xnamed_expression.hpp"
#include "xnamed_operators.hpp"
#include "xnamed_math.hpp"
#include "xnamed_reducers.hpp"
#include "xnamed_dot.hpp"
#include "xevaluate.hpp"
#include "xexplicit_broadcast.hpp"
#include "xadjoint.hpp"

#endif
