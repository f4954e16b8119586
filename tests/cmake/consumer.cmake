############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################

# The steps of the installed-package tests (see tests/CMakeLists.txt), run with cmake -P:
#   STEP=install       installs BUILD_DIR into PREFIX (emptied first)
#   STEP=find_package  configures, builds and runs CONSUMER_SOURCE_DIR against PREFIX with CMake (its
#                      program twice: as it is, and with the umbrella header precompiled); with
#                      PYTHON (an interpreter with numpy and xarray) and pybind11_DIR, also its Python
#                      module, imported and called by PYTHON
#   STEP=pkg_config    compiles CONSUMER_SOURCE_DIR/main.cpp with CXX, -std=c++CXX_STANDARD (17 unless
#                      given) and `pkg-config --cflags`, runs it; the headers it used are listed in
#                      WORK_DIR/pkg_config/consumer.d (scripts/matrix checks where they came from)
# Common variables: PREFIX, WORK_DIR, CONFIG, CONSUMER_SOURCE_DIR.

function(run)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        string(REPLACE ";" " " command "${ARGV}")
        message(FATAL_ERROR "failed (${result}): ${command}")
    endif()
endfunction()

if(NOT CXX_STANDARD)
    set(CXX_STANDARD 17)
endif()

set(config_args)
if(CONFIG)
    set(config_args --config "${CONFIG}")
endif()

if(STEP STREQUAL "install")
    file(REMOVE_RECURSE "${PREFIX}")
    run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args})

elseif(STEP STREQUAL "find_package")
    set(build "${WORK_DIR}/find_package")
    file(REMOVE_RECURSE "${build}")
    set(configure_args)
    if(MAKE_PROGRAM)
        list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
    endif()
    if(CONFIG)
        list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
    endif()
    if(PYTHON)
        list(APPEND configure_args "-DCONSUMER_PYTHON=${PYTHON}" "-Dpybind11_DIR=${pybind11_DIR}")
    endif()
    # The dependencies are the ones this build tree uses; xtensor-named is only in PREFIX.
    run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
        "-DCMAKE_CXX_COMPILER=${CXX}"
        "-DCMAKE_PREFIX_PATH=${PREFIX}"
        "-Dxtl_DIR=${xtl_DIR}"
        "-Dxtensor_DIR=${xtensor_DIR}"
        "-Dxsimd_DIR=${xsimd_DIR}"
        ${configure_args})
    run("${CMAKE_COMMAND}" --build "${build}" ${config_args})
    foreach(name consumer consumer_precompiled)
        set(executable "${build}/${name}${CMAKE_EXECUTABLE_SUFFIX}")
        if(NOT EXISTS "${executable}")
            set(executable "${build}/${CONFIG}/${name}${CMAKE_EXECUTABLE_SUFFIX}")
        endif()
        run("${executable}")
    endforeach()
    if(PYTHON)
        run("${CMAKE_COMMAND}" -E env "PYTHONPATH=${build}:${build}/${CONFIG}" "${PYTHON}"
            "${CONSUMER_SOURCE_DIR}/call_python_consumer.py")
    endif()

elseif(STEP STREQUAL "pkg_config")
    set(build "${WORK_DIR}/pkg_config")
    file(REMOVE_RECURSE "${build}")
    file(MAKE_DIRECTORY "${build}")
    if(DEFINED ENV{PKG_CONFIG_PATH} AND NOT "$ENV{PKG_CONFIG_PATH}" STREQUAL "")
        set(ENV{PKG_CONFIG_PATH} "${PKG_CONFIG_DIR}:$ENV{PKG_CONFIG_PATH}")
    else()
        set(ENV{PKG_CONFIG_PATH} "${PKG_CONFIG_DIR}")
    endif()
    execute_process(COMMAND "${PKG_CONFIG}" --cflags xtensor-named
        RESULT_VARIABLE result
        OUTPUT_VARIABLE cflags
        OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "pkg-config --cflags xtensor-named failed (PKG_CONFIG_PATH=$ENV{PKG_CONFIG_PATH})")
    endif()
    message(STATUS "pkg-config --cflags xtensor-named: ${cflags}")
    separate_arguments(cflags UNIX_COMMAND "${cflags}")
    set(executable "${build}/consumer${CMAKE_EXECUTABLE_SUFFIX}")
    run("${CXX}" -std=c++${CXX_STANDARD} ${cflags} -MD -MF "${build}/consumer.d"
        "${CONSUMER_SOURCE_DIR}/main.cpp" -o "${executable}")
    run("${executable}")

else()
    message(FATAL_ERROR "unknown STEP `${STEP}`")
endif()
