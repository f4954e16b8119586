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
# Passes when building TARGET fails and the output matches the `// expect: <regex>` first line of SOURCE;
# with a `// max-lines: <n>` line, also when the compiler's diagnostics take at most <n> lines (the lines
# that start a message: neither the quoted source and its carets, nor the build tool's own lines); with a
# `// max-output-lines: <n>` line and GCC (-DCOMPILER_ID=GNU), also when the compiler writes at most <n> lines
# in all (the quoted source and carets counted, the build tool's lines not) and its first error is the
# expected one. (Clang quotes each macro expansion on the way, and the operators are macros: its bound is
# max-lines.)

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

if(content MATCHES "\n// max-lines: ([0-9]+)")
    set(max_lines "${CMAKE_MATCH_1}")
    # A list splits at ";" outside square brackets: neither may remain in the text.
    string(REPLACE ";" "," flat "${output}")
    string(REPLACE "[" "<" flat "${flat}")
    string(REPLACE "]" ">" flat "${flat}")
    string(REPLACE "\n" ";" lines "${flat}")
    set(counted 0)
    foreach(line IN LISTS lines)
        if(line STREQUAL "" OR line MATCHES "^[ \t]" OR line MATCHES "^<[0-9]+/[0-9]+>"
           OR line MATCHES "^(FAILED:|ninja:|g?make)" OR line MATCHES " -c .* -o |-o .* -c ")
            continue()
        endif()
        math(EXPR counted "${counted} + 1")
    endforeach()
    if(counted GREATER max_lines)
        message(FATAL_ERROR
            "${SOURCE}: the compiler's diagnostics take ${counted} lines, more than ${max_lines}:\n${output}")
    endif()
    message(STATUS "${SOURCE}: ${counted} lines of diagnostics (at most ${max_lines})")
endif()
if(content MATCHES "\n// max-output-lines: ([0-9]+)" AND COMPILER_ID STREQUAL "GNU")
    set(max_output_lines "${CMAKE_MATCH_1}")
    string(REPLACE ";" "," flat "${output}")
    string(REPLACE "[" "<" flat "${flat}")
    string(REPLACE "]" ">" flat "${flat}")
    string(REPLACE "\n" ";" lines "${flat}")
    set(counted 0)
    set(first_error "")
    foreach(line IN LISTS lines)
        if(line STREQUAL "" OR line MATCHES "^<[0-9]+/[0-9]+>" OR line MATCHES "^(FAILED:|ninja:|g?make)"
           OR line MATCHES " -c .* -o |-o .* -c ")
            continue()
        endif()
        math(EXPR counted "${counted} + 1")
        if(first_error STREQUAL "" AND line MATCHES "error:")
            set(first_error "${line}")
        endif()
    endforeach()
    if(counted GREATER max_output_lines)
        message(FATAL_ERROR
            "${SOURCE}: the compiler writes ${counted} lines, more than ${max_output_lines}:\n${output}")
    endif()
    if(NOT first_error MATCHES "${expected}")
        message(FATAL_ERROR
            "${SOURCE}: the first error is not `${expected}`: ${first_error}\n${output}")
    endif()
    message(STATUS "${SOURCE}: ${counted} lines of compiler output (at most ${max_output_lines})")
endif()
message(STATUS "${SOURCE} fails to compile as expected (`${expected}`)")
