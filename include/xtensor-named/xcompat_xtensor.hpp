/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XCOMPAT_XTENSOR_HPP
#define XTENSOR_NAMED_XCOMPAT_XTENSOR_HPP

// The one place that knows where xtensor keeps its headers and how its API moved between versions.
// xtensor 0.24 and 0.25 keep every header in <xtensor/...>; 0.26 moved them into subfolders;
// 0.27 requires C++20. Every other header of this library includes xtensor through this file, except the
// layer below the named expression, which needs only xt::broadcast_error (xcompat_xtensor_exception.hpp).

#include "xcompat_xtensor_exception.hpp"

#if XTENSOR_NAMED_XTENSOR_HAS_SUBFOLDERS
#include <xtensor/containers/xadapt.hpp>
#include <xtensor/containers/xarray.hpp>
#include <xtensor/containers/xtensor.hpp>
#include <xtensor/core/xassign.hpp>
#include <xtensor/core/xexpression.hpp>
#include <xtensor/core/xfunction.hpp>
#include <xtensor/core/xmath.hpp>
#include <xtensor/core/xnoalias.hpp>
#include <xtensor/core/xoperation.hpp>
#include <xtensor/core/xtensor_config.hpp>
#include <xtensor/generators/xbuilder.hpp>
#include <xtensor/io/xio.hpp>
#include <xtensor/misc/xmanipulation.hpp>
#include <xtensor/reducers/xreducer.hpp>
#include <xtensor/utils/xexception.hpp>
#include <xtensor/views/xbroadcast.hpp>
#include <xtensor/views/xdynamic_view.hpp>
#include <xtensor/views/xindex_view.hpp>
#include <xtensor/views/xstrided_view.hpp>
#include <xtensor/views/xview.hpp>
#else
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xassign.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xdynamic_view.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xexpression.hpp>
#include <xtensor/xfunction.hpp>
#include <xtensor/xindex_view.hpp>
#include <xtensor/xio.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xtensor_config.hpp>
#include <xtensor/xview.hpp>
#endif

#if XTENSOR_VERSION_MAJOR == 0 && XTENSOR_VERSION_MINOR < 24
#error "xtensor-named needs xtensor 0.24.3 or newer."
#endif

#if XTENSOR_VERSION_MAJOR == 0 && XTENSOR_VERSION_MINOR >= 27 && __cplusplus < 202002L
#error "xtensor 0.27 and newer need C++20: compile with -std=c++20 (CMake: cxx_std_20)."
#endif

#endif
