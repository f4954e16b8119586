/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XCOMPAT_XTENSOR_EXCEPTION_HPP
#define XTENSOR_NAMED_XCOMPAT_XTENSOR_EXCEPTION_HPP

// The first half of the compatibility with xtensor (xcompat_xtensor.hpp is the rest): where its headers
// live, and the one xtensor header that names, partial shapes, plans and strategies need, for
// xt::broadcast_error. It keeps that layer free of the rest of xtensor, which costs seconds per
// translation unit. xtensor 0.26 moved every header into subfolders.

#if __has_include(<xtensor/containers/xarray.hpp>)
#define XTENSOR_NAMED_XTENSOR_HAS_SUBFOLDERS 1
#include <xtensor/utils/xexception.hpp>
#else
#define XTENSOR_NAMED_XTENSOR_HAS_SUBFOLDERS 0
#include <xtensor/xexception.hpp>
#endif

#endif
