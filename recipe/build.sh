#!/usr/bin/env bash
# conda-build script: configure without tests, examples or benchmarks, and install into $PREFIX.
set -euxo pipefail

# CMAKE_ARGS (set by the compiler activation) holds several arguments: split it.
# shellcheck disable=SC2086
cmake -G Ninja -S "${SRC_DIR}" -B build-conda ${CMAKE_ARGS:-} \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="${PREFIX}" \
    -DCMAKE_PREFIX_PATH="${PREFIX}" \
    -DXTENSOR_NAMED_BUILD_TESTS=OFF \
    -DXTENSOR_NAMED_BUILD_EXAMPLES=OFF \
    -DXTENSOR_NAMED_BUILD_BENCHMARKS=OFF
cmake --install build-conda
