"""The conversions of xpython.hpp, through the module xn_python_test (tests/python/xn_python_test.cpp).

Run by ctest as python.xpython; by hand, from the build tree:
    PYTHONPATH=build/gcc/tests/python /usr/bin/python3 tests/python/test_xpython.py
"""

import gc
import sys
import unittest
import weakref

import numpy as np
import xarray as xr

import xn_python_test as t


def address(array):
    return array.__array_interface__["data"][0]


def sample(dtype="float64", shape=(3, 4)):
    values = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    return xr.DataArray(
        values,
        dims=("t", "x"),
        coords={"t": 10 * np.arange(shape[0]), "x": [f"x{i}" for i in range(shape[1])]},
    )


def layouts(x):
    """x in C order, Fortran order, transposed and sliced (not contiguous): name and DataArray."""
    yield "C", x
    yield "Fortran", x.copy(data=np.asfortranarray(x.data))
    yield "transposed", x.T
    yield "sliced", x[1:, ::2]


class Boundary(unittest.TestCase):
    def assert_names_argument(self, error, x, dims_text):
        """The message names the dims, the shape and the dtype of the argument."""
        message = str(error.exception)
        self.assertIn(f"dims {dims_text}", message)
        self.assertIn(f"shape ({', '.join(str(n) for n in x.shape)})", message)
        self.assertIn(f"dtype {x.dtype}", message)


class Inputs(Boundary):
    def test_dims_and_coords_become_names_and_labels(self):
        x = sample()
        self.assertEqual(t.dims(x), "(t, x)")
        self.assertEqual(t.coords(x), "{t: [0, 10, 20], x: ['x0', 'x1', 'x2', 'x3']}")

    def test_a_numpy_array_has_unnamed_axes(self):
        self.assertEqual(t.dims(np.zeros((2, 3))), "(?, ?)")
        self.assertEqual(t.coords(np.zeros((2, 3))), "{}")

    def test_every_element_type_crosses_with_its_values_dims_and_coords(self):
        for dtype in ("float32", "float64", "int32", "int64", "bool"):
            x = sample(dtype)
            result = getattr(t, "same_" + dtype)(x)
            self.assertEqual(result.dtype, np.dtype(dtype))
            xr.testing.assert_identical(result, x)

    def test_every_layout_is_read_in_place(self):
        for layout, x in layouts(sample()):
            with self.subTest(layout=layout):
                self.assertEqual(t.address(x), address(x.data))
                xr.testing.assert_identical(t.same_float64(x), x)
                self.assertEqual(t.total(x), float(x.sum()))

    def test_a_write_from_cpp_is_seen_in_numpy(self):
        for layout in ("C", "Fortran", "transposed", "sliced"):
            x = dict(layouts(sample()))[layout]
            with self.subTest(layout=layout):
                t.fill(x, -1.0)
                np.testing.assert_array_equal(x.data, np.full(x.shape, -1.0))
                # Only the elements of the view: a slice leaves the others of its base alone.
                whole = x.data if x.data.base is None else x.data.base
                self.assertEqual(np.count_nonzero(whole == -1.0), x.data.size)

    def test_writes_follow_the_strides_of_each_layout(self):
        for layout, x in layouts(sample()):
            with self.subTest(layout=layout):
                t.write_positions(x)
                rows, columns = np.indices(x.shape)
                np.testing.assert_array_equal(x.data, 10.0 * rows + columns)

    def test_a_read_only_array_is_taken_by_a_const_parameter_only(self):
        x = sample()
        x.data.setflags(write=False)
        self.assertEqual(t.total(x), 66.0)
        with self.assertRaises(ValueError) as error:
            t.fill(x, 0.0)
        self.assertIn("read-only", str(error.exception))
        self.assert_names_argument(error, x, "(t, x)")
        self.assertEqual(t.total(x), 66.0)

    def test_a_broadcast_array_is_read_with_stride_0(self):
        x = np.broadcast_to(np.arange(3.0), (4, 3))
        self.assertEqual(t.total(x), 12.0)
        np.testing.assert_array_equal(t.same_float64(x).values, x)

    def test_an_empty_array_crosses(self):
        x = xr.DataArray(np.zeros((0, 3)), dims=("t", "x"))
        result = t.same_float64(x)
        self.assertEqual(result.shape, (0, 3))
        self.assertEqual(result.dims, ("t", "x"))

    def test_the_argument_lives_while_cpp_keeps_it(self):
        values = np.arange(12.0).reshape(3, 4)[:, 1:]
        base = weakref.ref(values.base)
        view = weakref.ref(values)
        t.keep(xr.DataArray(values, dims=("t", "x")))
        del values
        gc.collect()
        self.assertIsNotNone(view())
        self.assertIsNotNone(base())
        self.assertEqual(t.kept_total(), 54.0)
        t.release()
        gc.collect()
        self.assertIsNone(view())
        self.assertIsNone(base())


class Results(Boundary):
    def test_the_result_buffer_is_handed_over_without_a_copy(self):
        result = t.twice(sample())
        self.assertEqual(address(result.data), t.last_result_address())
        self.assertFalse(result.data.flags.owndata)
        self.assertTrue(result.data.flags.writeable)

    def test_the_result_lives_after_the_input_is_collected(self):
        x = sample()
        data = weakref.ref(x.data)
        result = t.twice(x)
        del x
        gc.collect()
        self.assertIsNone(data())
        # Memory that the input held, now reused: the result does not see it.
        junk = [np.full((3, 4), 7.0) for _ in range(100)]
        np.testing.assert_array_equal(result.values, 2.0 * np.arange(12.0).reshape(3, 4))
        self.assertEqual(result.dims, ("t", "x"))
        np.testing.assert_array_equal(result.t.values, [0, 10, 20])
        del junk

    def test_the_result_outlives_its_array_handle(self):
        data = t.twice(sample()).data
        gc.collect()
        np.testing.assert_array_equal(data, 2.0 * np.arange(12.0).reshape(3, 4))

    def test_a_lazy_result_is_evaluated_without_the_gil(self):
        result = t.gil_probe(sample())
        np.testing.assert_array_equal(result.values, 2.0 * np.arange(12.0).reshape(3, 4))
        self.assertFalse(t.gil_was_held())

    def test_an_unnamed_axis_becomes_xarrays_default_name(self):
        result = t.unnamed()
        self.assertEqual(result.dims, ("dim_0", "x"))
        np.testing.assert_array_equal(result.values, [[1.0, 2.0], [3.0, 4.0]])

    def test_a_reduction_to_a_scalar_is_a_dataarray_of_rank_0(self):
        result = t.reduce_all(sample())
        self.assertEqual(result.dims, ())
        self.assertEqual(float(result), 66.0)


class BadInputs(Boundary):
    def test_another_dtype_is_a_type_error(self):
        for dtype in ("int16", "float32", "int64", "complex128", "bool"):
            x = sample(dtype)
            with self.subTest(dtype=dtype), self.assertRaises(TypeError) as error:
                t.total(x)
            self.assert_names_argument(error, x, "(t, x)")
            self.assertIn("takes float64", str(error.exception))

    def test_another_byte_order_is_a_type_error(self):
        x = sample(">f8")
        with self.assertRaises(TypeError) as error:
            t.total(x)
        self.assertIn("dtype >f8", str(error.exception))

    def test_a_numpy_array_is_described_with_unnamed_dims(self):
        x = np.zeros((2, 5), dtype=np.int16)
        with self.assertRaises(TypeError) as error:
            t.total(x)
        self.assert_names_argument(error, x, "(?, ?)")

    def test_another_rank_is_a_value_error(self):
        x = xr.DataArray(np.zeros((2, 3, 4)), dims=("a", "b", "c"))
        with self.assertRaises(ValueError) as error:
            t.matrix_total(x)
        self.assert_names_argument(error, x, "(a, b, c)")
        self.assertIn("rank 2", str(error.exception))
        self.assertEqual(t.matrix_total(x[0]), 0.0)

    def test_a_dim_that_is_not_an_identifier_is_a_value_error(self):
        for dim, shown in (("my dim", "'my dim'"), (5, "5, of type int"), (("a", 1), "('a', 1), of type tuple")):
            # DataArray() takes strings only; rename takes any hashable, as xarray allows.
            x = xr.DataArray(np.zeros((2, 3)), dims=("t", "x")).rename({"x": dim})
            with self.subTest(dim=dim), self.assertRaises(ValueError) as error:
                t.total(x)
            self.assertIn(f"dim 1 is {shown}", str(error.exception))
            self.assertIn("shape (2, 3)", str(error.exception))
            self.assertIn("dtype float64", str(error.exception))

    def test_coordinates_of_another_kind_are_a_value_error(self):
        kinds = {
            "float64": [0.5, 1.5],
            "datetime64[ns]": np.array(["2024-01-01", "2024-01-02"], dtype="datetime64[ns]"),
            "bool": [True, False],
        }
        for kind, labels in kinds.items():
            x = xr.DataArray(np.zeros((2, 3)), dims=("t", "x"), coords={"t": labels})
            with self.subTest(kind=kind), self.assertRaises(ValueError) as error:
                t.total(x)
            self.assert_names_argument(error, x, "(t, x)")
            self.assertIn(f"the coordinate of dim t has dtype {kind}", str(error.exception))

    def test_mixed_labels_are_a_value_error(self):
        x = xr.DataArray(np.zeros((2, 3)), dims=("t", "x"), coords={"x": np.array(["a", 1, "c"], dtype=object)})
        with self.assertRaises(ValueError) as error:
            t.total(x)
        self.assertIn("holds 1", str(error.exception))
        self.assert_names_argument(error, x, "(t, x)")

    def test_repeated_labels_are_a_value_error(self):
        x = xr.DataArray(np.zeros((2, 3)), dims=("t", "x"), coords={"x": [1, 2, 1]})
        with self.assertRaises(ValueError) as error:
            t.total(x)
        self.assert_names_argument(error, x, "(t, x)")
        self.assertIn("x", str(error.exception))

    def test_unsigned_labels_are_integers(self):
        x = xr.DataArray(np.zeros((2, 3)), dims=("t", "x"), coords={"x": np.array([1, 2, 3], dtype=np.uint32)})
        self.assertEqual(t.coords(x), "{x: [1, 2, 3]}")
        x = x.assign_coords(x=np.array([1, 2, 2**63], dtype=np.uint64))
        with self.assertRaises(ValueError) as error:
            t.total(x)
        self.assertIn("beyond int64", str(error.exception))

    def test_a_reversed_view_is_a_value_error(self):
        x = sample()[:, ::-1]
        with self.assertRaises(ValueError) as error:
            t.total(x)
        self.assert_names_argument(error, x, "(t, x)")
        self.assertIn("stride of dim x is -8 bytes", str(error.exception))

    def test_a_stride_that_is_not_a_multiple_of_the_item_size_is_a_value_error(self):
        record = np.zeros(4, dtype=[("a", "f8"), ("b", "i1")])["a"]
        with self.assertRaises(ValueError) as error:
            t.total(record)
        self.assertIn("stride of dim ? is 9 bytes", str(error.exception))

    def test_what_is_not_an_array_is_a_type_error(self):
        for value in ([1.0, 2.0], 3.0, xr.Dataset()):
            with self.subTest(value=type(value).__name__), self.assertRaises(TypeError) as error:
                t.total(value)
            self.assertIn("takes an xarray.DataArray or a numpy array", str(error.exception))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)
