############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# Opt-in targets that run the kernels on several threads, switched on as xtensor's parallel assignment
# is (which they switch on too): xtensor-named::use_TBB (XTENSOR_USE_TBB, linked to TBB::tbb) and
# xtensor-named::use_OpenMP (XTENSOR_USE_OPENMP, linked to OpenMP::OpenMP_CXX). Each is defined only
# where its library is found. Used by the project's CMakeLists.txt and by the installed
# xtensor-namedConfig.cmake.

# xtensor_named_thread_target(<name> <library target> <definition> <imported>): xtensor-named::<name>, an
# IMPORTED target in a consumer's project or an ALIAS of xtensor-named-<name> in this one.
function(xtensor_named_thread_target name library definition imported)
    if(TARGET xtensor-named::${name} OR NOT TARGET ${library})
        return()
    endif()
    if(imported)
        set(target xtensor-named::${name})
        add_library(${target} INTERFACE IMPORTED)
    else()
        set(target xtensor-named-${name})
        add_library(${target} INTERFACE)
        add_library(xtensor-named::${name} ALIAS ${target})
    endif()
    target_compile_definitions(${target} INTERFACE ${definition})
    target_link_libraries(${target} INTERFACE ${library})
endfunction()

function(xtensor_named_thread_targets imported)
    find_package(TBB QUIET CONFIG)
    xtensor_named_thread_target(use_TBB TBB::tbb XTENSOR_USE_TBB ${imported})
    find_package(OpenMP QUIET COMPONENTS CXX)
    xtensor_named_thread_target(use_OpenMP OpenMP::OpenMP_CXX XTENSOR_USE_OPENMP ${imported})
endfunction()
