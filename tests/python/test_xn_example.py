"""The example module xn_example (examples/python) against xarray's own computation: values, dims,
coords and dtype, for C- and Fortran-ordered, transposed and sliced inputs, float32 and float64, on
shapes, labels and NaNs drawn at random.

Run by ctest as python.xn_example; by hand, from the build tree:
    PYTHONPATH=build/gcc/examples/python /usr/bin/python3 tests/python/test_xn_example.py
"""

import sys
import unittest

import numpy as np
import xarray as xr

import xn_example

RNG = np.random.default_rng(20240611)
DTYPES = ("float32", "float64")


def tolerance(dtype):
    return {"rtol": 2e-5, "atol": 2e-5} if np.dtype(dtype) == np.float32 else {"rtol": 1e-12, "atol": 1e-12}


def random_array(dims, sizes, dtype, nan_fraction=0.1, labels=None):
    """A DataArray of random values (some NaN) with integer or string labels on its dims."""
    shape = tuple(sizes[d] for d in dims)
    values = RNG.standard_normal(shape) * 10 + 3
    values[RNG.random(shape) < nan_fraction] = np.nan
    coords = {}
    for d in dims:
        if labels and d in labels:
            coords[d] = labels[d]
        elif d.startswith("s"):
            coords[d] = [f"{d}{i}" for i in RNG.permutation(sizes[d])]
        else:
            coords[d] = np.sort(RNG.choice(1000, sizes[d], replace=False))
    return xr.DataArray(values.astype(dtype), dims=dims, coords=coords)


def layouts(x):
    """x in C order, Fortran order, transposed (its dims reversed) and sliced (not contiguous)."""
    yield "C", x
    yield "Fortran", x.copy(data=np.asfortranarray(x.data))
    yield "transposed", x.transpose(*reversed(x.dims))
    yield "sliced", x[tuple(slice(1, None, 2) for _ in x.dims)]


class Example(unittest.TestCase):
    def assert_same(self, result, expected, dtype):
        """Values (NaN where xarray has NaN), dims, coords and dtype of xarray's result."""
        self.assertIsInstance(result, xr.DataArray)
        self.assertEqual(result.dims, expected.dims)
        self.assertEqual(result.dtype, expected.dtype)
        self.assertEqual(set(result.coords), set(expected.coords))
        for name in expected.coords:
            np.testing.assert_array_equal(result.coords[name].values, expected.coords[name].values)
        np.testing.assert_allclose(result.values, expected.values, equal_nan=True, **tolerance(dtype))


class Anomaly(Example):
    def test_anomaly_is_xarrays_x_minus_its_mean(self):
        for dtype in DTYPES:
            for _ in range(3):
                sizes = {"t": int(RNG.integers(4, 40)), "s": int(RNG.integers(3, 9)), "z": int(RNG.integers(2, 6))}
                x = random_array(("t", "s", "z"), sizes, dtype)
                for layout, y in layouts(x):
                    for dim in y.dims:
                        with self.subTest(dtype=dtype, layout=layout, dim=dim, sizes=sizes):
                            self.assert_same(xn_example.anomaly(y, dim), y - y.mean(dim), dtype)

    def test_an_all_nan_row_gives_nan(self):
        x = random_array(("t", "x"), {"t": 5, "x": 3}, "float64", nan_fraction=0)
        x[:, 1] = np.nan
        self.assert_same(xn_example.anomaly(x, "t"), x - x.mean("t"), "float64")

    def test_the_input_is_not_changed(self):
        x = random_array(("t", "x"), {"t": 6, "x": 4}, "float64")
        before = x.copy(deep=True)
        xn_example.anomaly(x, "t")
        xr.testing.assert_identical(x, before)

    def test_an_unknown_dim_names_the_dims(self):
        x = random_array(("t", "x"), {"t": 6, "x": 4}, "float64")
        with self.assertRaises(Exception) as error:
            xn_example.anomaly(x, "time")
        self.assertIn("time", str(error.exception))
        self.assertIn("(t, x)", str(error.exception))

    def test_an_integer_array_is_a_type_error_naming_both_dtypes(self):
        x = xr.DataArray(np.arange(6).reshape(2, 3), dims=("t", "x"))
        with self.assertRaises(TypeError) as error:
            xn_example.anomaly(x, "t")
        message = str(error.exception)
        for part in ("dims (t, x)", "shape (2, 3)", "dtype int64", "float32 or float64"):
            self.assertIn(part, message)


class Normalize(Example):
    def test_normalize_is_xarrays_broadcast_by_name(self):
        for dtype in DTYPES:
            for stats_dtype in DTYPES:
                sizes = {"t": int(RNG.integers(4, 30)), "x": int(RNG.integers(2, 8)), "y": int(RNG.integers(2, 8))}
                x = random_array(("t", "x", "y"), sizes, dtype)
                for layout, y in layouts(x):
                    # The statistics have their dims in another order than x's, and y's labels.
                    mean = y.mean("t").transpose("y", "x").astype(stats_dtype)
                    std = (y.std("t") + 1).transpose("y", "x").astype(stats_dtype)
                    with self.subTest(dtype=dtype, stats=stats_dtype, layout=layout):
                        result = xn_example.normalize(y, mean, std)
                        self.assert_same(result, (y - mean) / std, dtype if dtype == stats_dtype else "float32")

    def test_statistics_of_fewer_dims_broadcast_over_the_others(self):
        x = random_array(("t", "x", "y"), {"t": 7, "x": 3, "y": 4}, "float64")
        mean = x.mean(("t", "y"))
        std = x.std(("t", "y"))
        self.assert_same(xn_example.normalize(x, mean, std), (x - mean) / std, "float64")

    def test_statistics_on_other_labels_are_refused(self):
        x = random_array(("t", "x"), {"t": 7, "x": 3}, "float64")
        mean = x.mean("t").assign_coords(x=[7000, 7001, 7002])
        with self.assertRaises(Exception) as error:
            xn_example.normalize(x, mean, mean)
        self.assertIn("x", str(error.exception))


class OuterSum(Example):
    def test_outer_sum_is_xarrays_outer_join(self):
        for dtype in DTYPES:
            for _ in range(3):
                n = int(RNG.integers(5, 30))
                t_a = np.sort(RNG.choice(3 * n, n, replace=False))
                t_b = np.sort(RNG.choice(3 * n, n + 2, replace=False))
                a = random_array(("t", "x"), {"t": n, "x": 3}, dtype, labels={"t": t_a, "x": [10, 20, 30]})
                b = random_array(("t",), {"t": n + 2}, dtype, labels={"t": t_b})
                with xr.set_options(arithmetic_join="outer"):
                    expected = a + b
                for layout, y in layouts(a):
                    with self.subTest(dtype=dtype, layout=layout):
                        with xr.set_options(arithmetic_join="outer"):
                            expected = y + b
                        self.assert_same(xn_example.outer_sum(y, b), expected, dtype)

    def test_string_labels_in_different_orders_are_joined_sorted(self):
        a = xr.DataArray([1.0, 2.0, 3.0], dims="s", coords={"s": ["c", "a", "d"]})
        b = xr.DataArray([10.0, 20.0], dims="s", coords={"s": ["b", "a"]})
        with xr.set_options(arithmetic_join="outer"):
            expected = a + b
        result = xn_example.outer_sum(a, b)
        self.assert_same(result, expected, "float64")
        self.assertEqual(list(result.s.values), ["a", "b", "c", "d"])

    def test_equal_labels_keep_their_order(self):
        a = random_array(("t",), {"t": 6}, "float64", labels={"t": [5, 3, 9, 1, 7, 2]})
        b = random_array(("t",), {"t": 6}, "float64", labels={"t": [5, 3, 9, 1, 7, 2]})
        with xr.set_options(arithmetic_join="outer"):
            self.assert_same(xn_example.outer_sum(a, b), a + b, "float64")

    def test_disjoint_dims_give_the_outer_product(self):
        a = random_array(("x",), {"x": 4}, "float32")
        b = random_array(("y",), {"y": 3}, "float64")
        self.assert_same(xn_example.outer_sum(a, b), a + b, "float32")


class Coordinates(Example):
    def assert_same_coords(self, result, expected):
        """Coordinates of the same names, values, dtypes and indexes as xarray's."""
        self.assertEqual(set(result.coords), set(expected.coords))
        for name in expected.coords:
            self.assertEqual(result.coords[name].dtype, expected.coords[name].dtype)
            np.testing.assert_array_equal(result.coords[name].values, expected.coords[name].values)
            self.assertTrue(result.indexes[name].equals(expected.indexes[name]))
            self.assertEqual(result.indexes[name].dtype, expected.indexes[name].dtype)

    def test_kept_labels_give_xarrays_coords(self):
        x = random_array(("station", "time"), {"station": 7, "time": 40}, "float64",
                         labels={"station": np.arange(7) * 3, "time": np.arange(40) * 60})
        expected = x - x.mean("time")
        result = xn_example.anomaly(x, "time")
        self.assert_same(result, expected, "float64")
        self.assert_same_coords(result, expected)
        # The labels are x's: the result takes x's indexes instead of building new ones.
        self.assertIs(result.indexes["time"], x.indexes["time"])
        self.assertIs(result.indexes["station"], x.indexes["station"])
        # The result's coordinates are its own: changing them leaves x's as they were.
        result.coords["time"].attrs["units"] = "s"
        self.assertEqual(x.coords["time"].attrs, {})
        # It takes part in xarray's operations as xarray's own result does.
        xr.testing.assert_allclose(result + x, expected + x)
        xr.testing.assert_allclose(result.sel(time=slice(60, 600)), expected.sel(time=slice(60, 600)))
        # And keeps its coordinates once x is gone.
        del x
        self.assert_same_coords(result, expected)

    def test_equal_labels_of_another_list_give_xarrays_coords(self):
        a = random_array(("t", "x"), {"t": 9, "x": 3}, "float64", labels={"t": np.arange(9) * 2, "x": [4, 5, 6]})
        b = random_array(("t",), {"t": 9}, "float64", labels={"t": np.arange(9) * 2})
        with xr.set_options(arithmetic_join="outer"):
            expected = a + b
        result = xn_example.outer_sum(a, b)
        self.assert_same(result, expected, "float64")
        self.assert_same_coords(result, expected)

    def test_shifted_labels_give_new_coords(self):
        a = random_array(("t", "x"), {"t": 8, "x": 3}, "float64", labels={"t": np.arange(8), "x": [4, 5, 6]})
        b = random_array(("t",), {"t": 8}, "float64", labels={"t": np.arange(8) + 2})
        with xr.set_options(arithmetic_join="outer"):
            expected = a + b
        result = xn_example.outer_sum(a, b)
        self.assert_same(result, expected, "float64")
        self.assert_same_coords(result, expected)
        np.testing.assert_array_equal(result.t.values, np.arange(10))
        np.testing.assert_array_equal(a.t.values, np.arange(8))
        np.testing.assert_array_equal(b.t.values, np.arange(8) + 2)

    def test_labels_of_other_integer_dtypes_come_back_as_int64(self):
        x = random_array(("t",), {"t": 5}, "float64", labels={"t": np.arange(5, dtype="int32")})
        result = xn_example.anomaly(x, "t")
        self.assertEqual(result.t.dtype, np.int64)
        np.testing.assert_array_equal(result.t.values, np.arange(5))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)
