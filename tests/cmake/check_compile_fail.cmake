############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# Runs one compile-fail test (see tests/CMakeLists.txt):
#   cmake -DBUILD_DIR=<build tree> -DTARGET=<object library> -DCONFIG=<config> -DSOURCE=<file.cpp>
#         -P check_compile_fail.cmake
# Passes when building TARGET fails and the output matches the `// expect: <regex>` first line of SOURCE.

file(READ "${SOURCE}" content)
if(NOT content MATCHES "^// expect: ([^\r\n]+)")
    message(FATAL_ERROR "${SOURCE}: the first line must be `// expect: <regex>`")
endif()
set(expected "${CMAKE_MATCH_1}")

set(config_args)
if(CONFIG)
    set(config_args --config "${CONFIG}")
endif()
execute_process(
    COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}" ${config_args}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)

if(result EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but it must not.\n${output}")
endif()
if(NOT output MATCHES "${expected}")
    message(FATAL_ERROR
        "${SOURCE} failed to compile, but the output does not match `${expected}`:\n${output}")
endif()
message(STATUS "${SOURCE} fails to compile as expected (`${expected}`)")
