############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# xtensor-named::python: xtensor-named with pybind11 and Python's headers (system includes, through
# pybind11's imported targets), for modules that include <xtensor-named/xpython.hpp>. Defined only where
# pybind11 is found: the project's CMakeLists.txt defines it when it or its parent found pybind11, the
# installed xtensor-namedConfig.cmake when the consumer asks for the component `python` or found
# pybind11 first.

# xtensor_named_python_target(<imported>): xtensor-named::python, an IMPORTED target in a consumer's
# project or an ALIAS of xtensor-named-python in this one; nothing where pybind11::pybind11 is missing.
function(xtensor_named_python_target imported)
    if(TARGET xtensor-named::python OR NOT TARGET pybind11::pybind11)
        return()
    endif()
    if(imported)
        set(target xtensor-named::python)
        add_library(${target} INTERFACE IMPORTED)
        target_link_libraries(${target} INTERFACE xtensor-named::xtensor-named pybind11::pybind11)
    else()
        set(target xtensor-named-python)
        add_library(${target} INTERFACE)
        add_library(xtensor-named::python ALIAS ${target})
        target_link_libraries(${target} INTERFACE xtensor-named pybind11::pybind11)
    endif()
endfunction()
