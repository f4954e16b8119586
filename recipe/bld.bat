:: conda-build script for Windows: configure without tests, examples or benchmarks, and install into
:: %LIBRARY_PREFIX% (Library\), where conda's CMake, pkg-config and compilers look on Windows.
@echo on

cmake -G Ninja -S "%SRC_DIR%" -B build-conda %CMAKE_ARGS% ^
    -DCMAKE_BUILD_TYPE=Release ^
    -DCMAKE_INSTALL_PREFIX="%LIBRARY_PREFIX%" ^
    -DCMAKE_PREFIX_PATH="%LIBRARY_PREFIX%" ^
    -DXTENSOR_NAMED_BUILD_TESTS=OFF ^
    -DXTENSOR_NAMED_BUILD_EXAMPLES=OFF ^
    -DXTENSOR_NAMED_BUILD_BENCHMARKS=OFF
if errorlevel 1 exit 1

cmake --install build-conda
if errorlevel 1 exit 1
