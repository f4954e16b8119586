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
#include "xerrors.hpp"
#include "xdims.hpp"
#include "xpartial_shape.hpp"
#include "xbroadcast_plan.hpp"
#include "xstrategies.hpp"

#endif
