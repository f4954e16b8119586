############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# The per-element cost check of the kernels: for every case of bounds.txt, counts the
# instructions of cost_kernels under callgrind at two sizes and compares the count per element with
# the committed bound. Valgrind cannot decode AVX-512, so cost_kernels is built for AVX2; a machine
# without AVX2 skips the check.
#
#   cmake -DVALGRIND=<valgrind> -DPROGRAM=<cost_kernels> -DBOUNDS=<bounds.txt> -P check_costs.cmake

foreach(variable VALGRIND PROGRAM BOUNDS)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "check_costs.cmake needs -D${variable}=...")
    endif()
endforeach()

if(EXISTS /proc/cpuinfo)
    file(READ /proc/cpuinfo cpuinfo)
    if(NOT cpuinfo MATCHES "[ \t]avx2[ \t\n]" OR NOT cpuinfo MATCHES "[ \t]fma[ \t\n]")
        message("xn-callgrind: skipped, this processor lacks AVX2 or FMA")
        return()
    endif()
endif()

set(small 64)
set(large 128)
math(EXPR added_elements "${large} * ${large} - ${small} * ${small}")

# The instructions callgrind counts in xn_cost_measured for one case and size.
function(count_instructions case size result)
    execute_process(
        COMMAND "${VALGRIND}" --tool=callgrind --collect-atstart=no --toggle-collect=xn_cost_measured
                --callgrind-out-file=/dev/null "${PROGRAM}" ${case} ${size}
        RESULT_VARIABLE status
        OUTPUT_VARIABLE output
        ERROR_VARIABLE errors)
    string(REGEX MATCH "Collected : ([0-9]+)" collected "${errors}")
    if(NOT status EQUAL 0 OR NOT collected)
        message(FATAL_ERROR "callgrind failed on ${case} ${size} (status ${status}):\n${output}\n${errors}")
    endif()
    set(${result} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

# "2.5" -> 2500: CMake's arithmetic has integers only.
function(to_thousandths text result)
    if(NOT text MATCHES "^([0-9]+)(\\.([0-9]*))?$")
        message(FATAL_ERROR "not a decimal number: ${text}")
    endif()
    set(fraction "${CMAKE_MATCH_3}000")
    string(SUBSTRING "${fraction}" 0 3 fraction)
    math(EXPR value "${CMAKE_MATCH_1} * 1000 + 1${fraction} - 1000")
    set(${result} ${value} PARENT_SCOPE)
endfunction()

file(STRINGS "${BOUNDS}" lines REGEX "^[a-z]")
set(failures "")
message("case                      instructions/element   bound")
foreach(line IN LISTS lines)
    string(REGEX MATCH "^([a-z0-9_]+)[ \t]+([0-9.]+)" parsed "${line}")
    if(NOT parsed)
        message(FATAL_ERROR "bounds.txt: cannot read the line: ${line}")
    endif()
    set(case ${CMAKE_MATCH_1})
    to_thousandths(${CMAKE_MATCH_2} bound)
    count_instructions(${case} ${small} small_count)
    count_instructions(${case} ${large} large_count)
    math(EXPR per_element "(${large_count} - ${small_count}) * 1000 / ${added_elements}")
    math(EXPR whole "${per_element} / 1000")
    math(EXPR part "${per_element} % 1000 + 1000")
    string(SUBSTRING "${part}" 1 3 part)
    math(EXPR bound_whole "${bound} / 1000")
    math(EXPR bound_part "${bound} % 1000 + 1000")
    string(SUBSTRING "${bound_part}" 1 3 bound_part)
    set(verdict "ok")
    if(per_element GREATER bound)
        set(verdict "ABOVE THE BOUND")
        list(APPEND failures ${case})
    endif()
    string(LENGTH "${case}" length)
    math(EXPR pad "26 - ${length}")
    string(REPEAT " " ${pad} padding)
    message("${case}${padding}${whole}.${part}                  ${bound_whole}.${bound_part}  ${verdict}")
endforeach()

if(failures)
    message(FATAL_ERROR "Instructions per element above the bound for: ${failures}. "
        "Has xn::assign stopped using the kernels for them? Measure with cost_kernels under callgrind.")
endif()
