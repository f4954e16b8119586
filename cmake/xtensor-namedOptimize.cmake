############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# Flags for xtensor-named::optimize, an opt-in target like xtensor::optimize: code tuned for the
# machine that compiles it. xtensor-named itself never links it, so -march=native is the consumer's
# choice. Used by the project's CMakeLists.txt and by the installed xtensor-namedConfig.cmake, which
# checks the flag against the consumer's compiler.

include(CheckCXXCompilerFlag)

function(xtensor_named_optimize_flags target)
    if(MSVC)
        target_compile_options(${target} INTERFACE /EHsc /bigobj)
    else()
        check_cxx_compiler_flag(-march=native XTENSOR_NAMED_MARCH_NATIVE_SUPPORTED)
        if(XTENSOR_NAMED_MARCH_NATIVE_SUPPORTED)
            target_compile_options(${target} INTERFACE -march=native)
        endif()
    endif()
endfunction()
