"""Calls the module python_consumer, built against the installed package (tests/cmake/consumer.cmake)."""

import sys

import numpy as np
import xarray as xr

import python_consumer

x = xr.DataArray([1.0, 2.0, 3.0], dims="t", coords={"t": [10, 20, 30]})
result = python_consumer.twice(x)
expected = xr.DataArray([2.0, 4.0, 6.0], dims="t", coords={"t": [10, 20, 30]})
if not result.identical(expected):
    print(f"expected\n{expected}\ngot\n{result}")
    sys.exit(1)
print("python_consumer.twice:", result.values, result.dims, list(result.t.values))
