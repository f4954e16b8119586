"""Calls the three functions of xn_example (xn_example.cpp) on DataArrays and prints their results.
Fails if a result differs from xarray's own computation.

Run by ctest as example_python; by hand, from the build tree of the examples:
    PYTHONPATH=build/examples/examples/python /usr/bin/python3 examples/python/demo.py
"""

import sys

import numpy as np
import xarray as xr

import xn_example

# Temperatures of three stations at four times; one reading is missing.
temperature = xr.DataArray(
    np.array([[12.1, 13.4, np.nan, 15.0], [8.2, 9.1, 9.9, 10.4], [20.3, 21.0, 21.8, 22.9]]),
    dims=("station", "time"),
    coords={"station": ["north", "east", "south"], "time": [0, 6, 12, 18]},
)

# 1. The anomaly over time: each station minus its own mean (the NaN skipped).
anomaly = xn_example.anomaly(temperature, "time")
print("1. anomaly over time:\n", anomaly, "\n")
ok = np.allclose(anomaly, temperature - temperature.mean("time"), equal_nan=True)

# 2. Normalised with statistics given per station, whatever the order of the dims of the data.
mean = temperature.mean("time")
std = temperature.std("time")
normal = xn_example.normalize(temperature.T, mean, std)
print("2. normalised, dims", normal.dims, "\n", normal.values.round(2), "\n")
ok = ok and normal.dims == ("time", "station")
ok = ok and np.allclose(normal, (temperature.T - mean) / std, equal_nan=True)

# 3. Two series on different times: the sum on every time that either has, NaN where one is missing.
a = xr.DataArray([1.0, 2.0, 3.0], dims="time", coords={"time": [0, 6, 12]})
b = xr.DataArray([10.0, 20.0, 30.0], dims="time", coords={"time": [6, 12, 18]})
total = xn_example.outer_sum(a, b)
print("3. outer sum:\n", total)
ok = ok and list(total.time.values) == [0, 6, 12, 18]
ok = ok and np.allclose(total, [np.nan, 12.0, 23.0, np.nan], equal_nan=True)

if not ok:
    print("unexpected: a result differs from xarray's")
sys.exit(0 if ok else 1)
