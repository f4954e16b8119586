/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XPYTHON_HPP
#define XTENSOR_NAMED_XPYTHON_HPP

// xarray.DataArray in, xarray.DataArray out, for pybind11 modules: a DataArray (or a numpy array, its
// axes unnamed) becomes a named expression over the numpy buffer, and a named result a new DataArray
// that owns the result's buffer. The one header of the library that needs Python: the umbrella header
// leaves it out.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <xtl/xsequence.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "xcompat_xtensor.hpp"
#include "xcoords.hpp"
#include "xdims.hpp"
#include "xerrors.hpp"
#include "xevaluate.hpp"
#include "xnamed_expression.hpp"
#include "xpartial_shape.hpp"
#include "xstrategies.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define XTENSOR_NAMED_PYTHON_HIDDEN __attribute__((visibility("hidden")))
#else
#define XTENSOR_NAMED_PYTHON_HIDDEN
#endif

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// The element types that cross the boundary: numpy's float32, float64, int32, int64 and bool.
            template <class T>
            inline constexpr bool is_python_element_v =
                std::is_same<T, float>::value || std::is_same<T, double>::value ||
                std::is_same<T, std::int32_t>::value || std::is_same<T, std::int64_t>::value ||
                std::is_same<T, bool>::value;

            /// Keeps a Python object alive while copies of the adaptor over its buffer exist; the last
            /// copy may go on a thread without the GIL (an evaluation runs without it), so the release
            /// takes the GIL.
            using python_owner = std::shared_ptr<void>;

            template <class T>
            using python_buffer_t = xt::xbuffer_adaptor<T*, xt::smart_ownership, python_owner>;

            template <class T, std::int64_t Rank>
            struct python_adaptor
            {
                using type = xt::xtensor_adaptor<python_buffer_t<T>, static_cast<std::size_t>(Rank),
                                                 xt::layout_type::dynamic>;
            };

            template <class T>
            struct python_adaptor<T, unknown>
            {
                using type = xt::xarray_adaptor<python_buffer_t<T>, xt::layout_type::dynamic>;
            };

            template <class T, std::int64_t Rank>
            using python_adaptor_t = typename python_adaptor<T, Rank>::type;
        } // namespace detail

        /**
         * A named expression over the buffer of a numpy array or of an xarray.DataArray, without a copy:
         * the parameter type of a function bound with pybind11. `T` is the element type it takes (float,
         * double, std::int32_t, std::int64_t, bool; `const T` also takes read-only arrays), `Rank` the
         * rank (xn::unknown: any), `S` the broadcasting strategy of its operators.
         * @code
         * m.def("anomaly", [](const xn::pynamed<double>& x, const std::string& dim)
         *       { return x - xn::nanmean(x, {dim}); });   // evaluated without the GIL, a new DataArray
         * @endcode
         */
        template <class T, std::int64_t Rank = unknown, class S = missing_dims>
        using pynamed = xnamed<detail::python_adaptor_t<T, Rank>, S>;

        /**
         * A parameter that takes any of the element types `T...` (of any rank, under xn::missing_dims):
         * the function calls xn::visit on it, which instantiates its body once per element type.
         * @code
         * m.def("anomaly", [](const xn::pynamed_any<float, double>& x, const std::string& dim)
         *       { return xn::visit([&](const auto& a) { return a - xn::nanmean(a, {dim}); }, x); });
         * @endcode
         */
        template <class... T>
        class pynamed_any : public std::variant<pynamed<T>...>
        {
        public:

            static_assert((detail::is_python_element_v<std::remove_const_t<T>> && ...),
                          "xn::pynamed_any: the element types must be float, double, std::int32_t, "
                          "std::int64_t or bool (const for a function that only reads).");

            using variant_type = std::variant<pynamed<T>...>;
            using std::variant<pynamed<T>...>::variant;
        };

        /**
         * The named expression over the numpy buffer of `source`, a DataArray or a numpy array (every
         * axis `"?"`): its dims as names, its integer or string dimension coordinates as labels. A
         * TypeError (not an array, another element type) or a ValueError (another rank, a dim that is
         * not an identifier, coordinates of another kind, a read-only array for a non-const `T`, strides
         * that are negative or not a multiple of the element size) names the dims, shape and dtype.
         */
        template <class T, std::int64_t Rank = unknown, class S = missing_dims>
        pynamed<T, Rank, S> from_python(pybind11::handle source);

        /**
         * A new xarray.DataArray holding the values of the named expression `e` (evaluated first, without
         * the GIL, when it is lazy), its dims (an unnamed axis i is xarray's `dim_i`) and labels as
         * coordinates. The buffer of the evaluated container is handed over without a copy: a capsule,
         * the numpy array's base, owns it. Call it with the GIL held.
         */
        template <class E>
        pybind11::object to_python(E&& e);

        /// Calls `f` on the alternatives that the arguments hold, and converts its result with to_python.
        template <class F, class... A>
        pybind11::object visit(F&& f, const A&... args);

        /*****************************
         * implementation of inputs  *
         *****************************/

        namespace detail
        {
            /// What the boundary has seen of an argument, for the conversion and its messages. Hidden, as
            /// pybind11's own types are, whatever the visibility the module is compiled with.
            struct XTENSOR_NAMED_PYTHON_HIDDEN python_input
            {
                pybind11::array data;
                pybind11::tuple dims;
                pybind11::object coords; // None for a numpy array
                pybind11::object source;
                bool is_dataarray = false;
            };

            /// `float64`; `>f8` where the byte order is not the machine's.
            inline std::string dtype_name(const pybind11::dtype& dtype)
            {
                const bool native = dtype.attr("isnative").cast<bool>();
                return (native ? dtype.attr("name") : dtype.attr("str")).cast<std::string>();
            }

            /// A dim as messages write it: a string as it is, anything else as its repr.
            inline std::string dim_text(pybind11::handle dim)
            {
                if (pybind11::isinstance<pybind11::str>(dim))
                {
                    return dim.cast<std::string>();
                }
                return pybind11::repr(dim).cast<std::string>();
            }

            /// `a DataArray with dims (t, x), shape (3, 4) and dtype float32`.
            inline std::string describe(const python_input& in)
            {
                std::string dims = "(";
                for (std::size_t i = 0; i < in.dims.size(); ++i)
                {
                    dims += (i == 0 ? "" : ", ") + dim_text(in.dims[i]);
                }
                dims += ")";
                std::vector<pybind11::ssize_t> shape(in.data.shape(), in.data.shape() + in.data.ndim());
                return concat(in.is_dataarray ? "a DataArray with dims " : "a numpy array with dims ", dims,
                              ", shape ", shape_to_string(shape), " and dtype ", dtype_name(in.data.dtype()));
            }

            [[noreturn]] inline void throw_python_type_error(const python_input& in, std::string_view what)
            {
                throw pybind11::type_error(concat("xn::from_python: ", describe(in), ": ", what));
            }

            [[noreturn]] inline void throw_python_value_error(const python_input& in, std::string_view what)
            {
                throw pybind11::value_error(concat("xn::from_python: ", describe(in), ": ", what));
            }

            /// The array, dims and coordinates of `source`; a TypeError for anything but a numpy array
            /// or a DataArray over one.
            inline python_input inspect_python(pybind11::handle source)
            {
                namespace py = pybind11;
                python_input in;
                in.source = py::reinterpret_borrow<py::object>(source);
                if (py::isinstance<py::array>(source))
                {
                    in.data = py::reinterpret_borrow<py::array>(source);
                    in.dims = py::tuple(in.data.ndim());
                    for (py::ssize_t i = 0; i < in.data.ndim(); ++i)
                    {
                        in.dims[static_cast<std::size_t>(i)] = py::str(std::string(unnamed_axis));
                    }
                    in.coords = py::none();
                    return in;
                }
                const std::string type_name = py::str(py::type::handle_of(source).attr("__qualname__"));
                const py::object dataarray = py::module_::import("xarray").attr("DataArray");
                if (!py::isinstance(source, dataarray))
                {
                    throw py::type_error(
                        concat("xn::from_python: takes an xarray.DataArray or a numpy array, "
                               "got a ",
                               type_name));
                }
                in.is_dataarray = true;
                in.dims = py::tuple(source.attr("dims"));
                in.coords = source.attr("coords");
                const py::object data = source.attr("data");
                if (!py::isinstance<py::array>(data))
                {
                    const std::string data_type = py::str(py::type::handle_of(data).attr("__qualname__"));
                    throw py::type_error(concat(
                        "xn::from_python: a DataArray with dims ", py::str(in.dims).cast<std::string>(),
                        ", shape ", py::str(source.attr("shape")).cast<std::string>(), " and dtype ",
                        py::str(source.attr("dtype")).cast<std::string>(), ": its data is a ", data_type,
                        ", not a numpy array (load it first: .load() or .compute())"));
                }
                in.data = py::reinterpret_borrow<py::array>(data);
                return in;
            }

            /// Whether the dtype is T's, in the machine's byte order.
            template <class T>
            bool dtype_is(const pybind11::dtype& dtype)
            {
                using U = std::remove_const_t<T>;
                const char kind = std::is_same<U, bool>::value       ? 'b'
                                  : std::is_floating_point<U>::value ? 'f'
                                                                     : 'i';
                return dtype.kind() == kind &&
                       dtype.itemsize() == static_cast<pybind11::ssize_t>(sizeof(U)) &&
                       dtype.attr("isnative").cast<bool>();
            }

            /// `float32 or float64`, for the messages.
            template <class... T>
            std::string dtype_names()
            {
                std::vector<std::string> names{dtype_name(pybind11::dtype::of<std::remove_const_t<T>>())...};
                std::string out;
                for (std::size_t i = 0; i < names.size(); ++i)
                {
                    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
                }
                return out;
            }

            /// The names of the dims; a ValueError for a dim that is not an identifier.
            inline named::dims python_dims(const python_input& in)
            {
                std::vector<std::string> names;
                names.reserve(in.dims.size());
                for (std::size_t i = 0; i < in.dims.size(); ++i)
                {
                    const pybind11::handle dim = in.dims[i];
                    std::string name;
                    if (pybind11::isinstance<pybind11::str>(dim))
                    {
                        name = dim.cast<std::string>();
                    }
                    if (!pybind11::isinstance<pybind11::str>(dim) || !is_valid_axis_name(name))
                    {
                        const std::string type_name =
                            pybind11::str(pybind11::type::handle_of(dim).attr("__qualname__"));
                        throw_python_value_error(
                            in, concat("dim ", i, " is ", pybind11::repr(dim).cast<std::string>(),
                                       ", of type ", type_name,
                                       ", not an identifier: rename it to letters, digits and underscores "
                                       "(DataArray.rename)"));
                    }
                    names.push_back(std::move(name));
                }
                try
                {
                    return named::dims(std::move(names));
                }
                catch (const std::runtime_error& e)
                {
                    throw_python_value_error(in, e.what());
                }
            }

            /// The labels of one dimension coordinate: integers, or strings; a ValueError for any other
            /// kind (floats, datetimes, ...), which xn::label cannot hold.
            inline labels python_labels(const python_input& in, std::size_t axis,
                                        pybind11::handle values_object)
            {
                namespace py = pybind11;
                const py::array values = py::array::ensure(values_object);
                const std::string axis_name = dim_text(in.dims[axis]);
                if (!values)
                {
                    throw_python_value_error(in,
                                             concat("the coordinate of dim ", axis_name, " is not an array"));
                }
                const char kind = values.dtype().kind();
                const auto size = static_cast<std::size_t>(values.size());
                labels out;
                out.reserve(size);
                if (kind == 'i' || kind == 'u')
                {
                    const auto as_int64 = py::array_t<std::int64_t, py::array::forcecast>::ensure(values);
                    if (kind == 'u' && values.itemsize() == 8 && size > 0)
                    {
                        const auto largest = values.attr("max")().cast<std::uint64_t>();
                        if (largest > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                        {
                            throw_python_value_error(in, concat("the coordinate of dim ", axis_name,
                                                                " holds ", largest, ", beyond int64"));
                        }
                    }
                    const auto view = as_int64.template unchecked<1>();
                    for (py::ssize_t i = 0; i < view.shape(0); ++i)
                    {
                        out.emplace_back(std::int64_t(view(i)));
                    }
                    return out;
                }
                if (kind == 'U' || kind == 'O')
                {
                    for (const py::handle value : values)
                    {
                        if (!py::isinstance<py::str>(value))
                        {
                            throw_python_value_error(
                                in, concat("the coordinate of dim ", axis_name, " holds ",
                                           py::repr(value).cast<std::string>(),
                                           ": xtensor-named takes integer or string labels only"));
                        }
                        out.emplace_back(value.cast<std::string>());
                    }
                    return out;
                }
                throw_python_value_error(
                    in, concat("the coordinate of dim ", axis_name, " has dtype ", dtype_name(values.dtype()),
                               ": xtensor-named takes integer or string labels only (drop "
                               "it with drop_vars, or replace it by positions)"));
            }

            /// Labels read from an argument's int64 dimension coordinate, with the xarray index they came
            /// from: a result that keeps these labels on the same axis takes that index as it is, where
            /// xarray would build a pandas index again. The index is released under the GIL, by whichever
            /// thread drops the last copy of the labels.
            struct XTENSOR_NAMED_PYTHON_HIDDEN python_labels_origin
            {
                labels values;
                std::string axis;
                pybind11::object index;
            };

            using python_labels_origins_type =
                std::unordered_map<const labels*, std::weak_ptr<const python_labels_origin>>;

            /// The origins alive, by the address of their labels; changed and read with the GIL held only.
            /// Never destroyed: labels may outlive the module's statics.
            inline python_labels_origins_type& python_labels_origins()
            {
                static auto* origins = new python_labels_origins_type();
                return *origins;
            }

            /// The labels, shared by every copy of the coordinates, their origin registered while they live.
            inline std::shared_ptr<const labels> python_labels_with_origin(labels values, std::string axis,
                                                                           pybind11::object index)
            {
                auto origin = std::shared_ptr<python_labels_origin>(
                    new python_labels_origin{std::move(values), std::move(axis), std::move(index)},
                    [](python_labels_origin* o)
                    {
                        pybind11::gil_scoped_acquire gil;
                        python_labels_origins().erase(&o->values);
                        delete o;
                    });
                python_labels_origins().emplace(&origin->values, origin);
                return std::shared_ptr<const labels>(origin, &origin->values);
            }

            /// The origin of labels equal to `values` on `axis`: the same list first, else an equal one. It
            /// is held, since the Python calls that follow may let another thread drop the last labels.
            inline std::shared_ptr<const python_labels_origin> python_origin_of(const std::string& axis,
                                                                                const labels& values)
            {
                const auto& origins = python_labels_origins();
                const auto same = origins.find(&values);
                if (same != origins.end())
                {
                    auto origin = same->second.lock();
                    if (origin != nullptr && origin->axis == axis)
                    {
                        return origin;
                    }
                }
                for (const auto& entry : origins)
                {
                    auto origin = entry.second.lock();
                    if (origin != nullptr && origin->axis == axis && same_labels(origin->values, values))
                    {
                        return origin;
                    }
                }
                return nullptr;
            }

            /// xarray's PandasIndex class, or None where xarray has no such public class.
            inline pybind11::object python_pandas_index_type()
            {
                namespace py = pybind11;
                const py::module_ indexes = py::module_::import("xarray.indexes");
                return py::getattr(indexes, "PandasIndex", py::none());
            }

            /// The xarray index of the argument's coordinate `dim` when the result may take it as it is: a
            /// plain PandasIndex over int64 values (a result's integer coordinates are int64).
            inline pybind11::object python_reusable_index(const python_input& in, pybind11::handle dim,
                                                          pybind11::handle values)
            {
                namespace py = pybind11;
                if (!py::isinstance<py::array>(values) ||
                    !dtype_is<std::int64_t>(py::reinterpret_borrow<py::array>(values).dtype()))
                {
                    return py::none();
                }
                const py::object type = python_pandas_index_type();
                const py::object index = in.source.attr("xindexes").attr("get")(dim);
                if (type.is_none() || index.is_none() || !py::type::handle_of(index).is(type))
                {
                    return py::none();
                }
                return index;
            }

            /// The dimension coordinates of a DataArray; its other coordinates do not cross.
            inline named::coords python_coords(const python_input& in, const named::dims& names)
            {
                named::coords out;
                if (!in.is_dataarray)
                {
                    return out;
                }
                const pybind11::object variables = in.coords.attr("variables");
                for (std::size_t i = 0; i < names.size(); ++i)
                {
                    const pybind11::handle dim = in.dims[i];
                    if (in.coords.contains(dim))
                    {
                        const pybind11::object values_object = variables[dim].attr("values");
                        labels values = python_labels(in, i, values_object);
                        pybind11::object index = python_reusable_index(in, dim, values_object);
                        try
                        {
                            if (index.is_none())
                            {
                                out.set(names[i], std::move(values));
                            }
                            else
                            {
                                out.set_shared(names[i], python_labels_with_origin(
                                                             std::move(values), names[i], std::move(index)));
                            }
                        }
                        catch (const std::runtime_error& e)
                        {
                            throw_python_value_error(in, e.what());
                        }
                    }
                }
                return out;
            }

            inline python_owner keep_alive(pybind11::object owner)
            {
                return python_owner(owner.release().ptr(),
                                    [](void* object)
                                    {
                                        pybind11::gil_scoped_acquire gil;
                                        pybind11::handle(static_cast<PyObject*>(object)).dec_ref();
                                    });
            }

            /// The conversion, once the dtype is known to be T's.
            template <class T, std::int64_t Rank, class S>
            pynamed<T, Rank, S> python_to_named(const python_input& in)
            {
                using element = std::remove_const_t<T>;
                using adaptor = python_adaptor_t<T, Rank>;
                named::dims names = python_dims(in);
                const auto rank = static_cast<std::size_t>(in.data.ndim());
                if (Rank != unknown && rank != static_cast<std::size_t>(Rank))
                {
                    throw_python_value_error(in, concat("the function takes rank ", Rank, ", not ", rank));
                }
                if (!std::is_const<T>::value && !in.data.writeable())
                {
                    throw_python_value_error(
                        in, "the array is read-only, and the function may write to it (a function that "
                            "only reads takes xn::pynamed<const T>); pass a copy");
                }
                const auto address = reinterpret_cast<std::uintptr_t>(in.data.data());
                if (address % alignof(element) != 0)
                {
                    throw_python_value_error(in, "the buffer is not aligned for its dtype; pass a copy");
                }
                auto shape = xtl::make_sequence<typename adaptor::shape_type>(rank, 0);
                auto strides = xtl::make_sequence<typename adaptor::strides_type>(rank, 0);
                for (std::size_t i = 0; i < rank; ++i)
                {
                    const auto size = in.data.shape(static_cast<pybind11::ssize_t>(i));
                    const auto bytes = in.data.strides(static_cast<pybind11::ssize_t>(i));
                    shape[i] = static_cast<std::size_t>(size);
                    if (size <= 1)
                    {
                        // xtensor's strides are 0 along an axis of size 1, which numpy leaves unspecified.
                        strides[i] = 0;
                        continue;
                    }
                    if (bytes < 0 || bytes % static_cast<pybind11::ssize_t>(sizeof(element)) != 0)
                    {
                        throw_python_value_error(
                            in, concat("the stride of dim ", dim_text(in.dims[i]), " is ", bytes,
                                       " bytes, not a multiple of the item size, ", sizeof(element),
                                       ", that is 0 or more (a reversed or a record view): pass a copy, "
                                       "np.ascontiguousarray(x)"));
                    }
                    strides[i] = bytes / static_cast<pybind11::ssize_t>(sizeof(element));
                }
                named::coords labels = python_coords(in, names);
                auto* data = static_cast<T*>(const_cast<void*>(in.data.data()));
                // The buffer's size is the number of elements, as xtensor's containers require; a strided
                // view reaches its elements through its strides, past that size.
                python_buffer_t<T> buffer(data, static_cast<std::size_t>(in.data.size()),
                                          keep_alive(in.data));
                adaptor values(std::move(buffer), shape, strides);
                try
                {
                    return name<S>(std::move(values), std::move(names), std::move(labels));
                }
                catch (const std::runtime_error& e)
                {
                    throw_python_value_error(in, e.what());
                }
            }

            template <class T>
            struct python_parameter : std::false_type
            {
            };

            template <class T, std::size_t N, class Tag, class S>
            struct python_parameter<
                xnamed<xt::xtensor_adaptor<python_buffer_t<T>, N, xt::layout_type::dynamic, Tag>, S>>
                : std::true_type
            {
                using element = T;
                static constexpr auto rank = static_cast<std::int64_t>(N);
                using strategy = S;
            };

            template <class T, class SC, class Tag, class S>
            struct python_parameter<
                xnamed<xt::xarray_adaptor<python_buffer_t<T>, xt::layout_type::dynamic, SC, Tag>, S>>
                : std::true_type
            {
                using element = T;
                static constexpr std::int64_t rank = unknown;
                using strategy = S;
            };
        } // namespace detail

        template <class T, std::int64_t Rank, class S>
        inline pynamed<T, Rank, S> from_python(pybind11::handle source)
        {
            static_assert(
                detail::is_python_element_v<std::remove_const_t<T>>,
                "xn::pynamed: the element type must be float, double, std::int32_t, std::int64_t or "
                "bool (const for a function that only reads).");
            const detail::python_input in = detail::inspect_python(source);
            if (!detail::dtype_is<T>(in.data.dtype()))
            {
                detail::throw_python_type_error(
                    in, detail::concat("the function takes ", detail::dtype_names<T>(),
                                       " (convert with .astype(\"", detail::dtype_names<T>(), "\"))"));
            }
            return detail::python_to_named<T, Rank, S>(in);
        }

        /*****************************
         * implementation of results *
         *****************************/

        namespace detail
        {
            /// A named expression over an evaluated container: `e` itself when it owns one and is an
            /// rvalue, else its evaluation, computed without the GIL.
            template <class E>
            auto evaluated_for_python(E&& e)
            {
                using named_type = std::decay_t<E>;
                if constexpr (is_owning_container<std::decay_t<typename named_type::closure_type>>::value &&
                              !std::is_lvalue_reference<E>::value)
                {
                    return std::move(e);
                }
                else
                {
                    pybind11::gil_scoped_release release;
                    return named::eval(std::forward<E>(e));
                }
            }

            inline pybind11::object python_labels_of(const labels& values)
            {
                namespace py = pybind11;
                if (!values.empty() && std::holds_alternative<std::string>(values.front()))
                {
                    py::list out(values.size());
                    for (std::size_t i = 0; i < values.size(); ++i)
                    {
                        out[i] = py::str(std::get<std::string>(values[i]));
                    }
                    return py::reinterpret_steal<py::object>(out.release());
                }
                py::array_t<std::int64_t> out(static_cast<py::ssize_t>(values.size()));
                auto view = out.mutable_unchecked<1>();
                for (std::size_t i = 0; i < values.size(); ++i)
                {
                    view(static_cast<py::ssize_t>(i)) = std::get<std::int64_t>(values[i]);
                }
                return py::reinterpret_steal<py::object>(out.release());
            }

            /// Whether xarray.DataArray takes a variable, its coordinate variables and its indexes as they
            /// are (`fastpath`, as xarray's own operations build their results), checked once.
            inline bool python_dataarray_takes_indexes()
            {
                namespace py = pybind11;
                static const bool takes = []
                {
                    const py::object parameters =
                        py::module_::import("inspect")
                            .attr("signature")(py::module_::import("xarray").attr("DataArray"))
                            .attr("parameters");
                    return parameters.contains("fastpath") && parameters.contains("indexes") &&
                           !python_pandas_index_type().is_none();
                }();
                return takes;
            }
        } // namespace detail

        template <class E>
        inline pybind11::object to_python(E&& e)
        {
            namespace py = pybind11;
            static_assert(is_named_expression_v<E>,
                          "xn::to_python: the result must be a named expression; name a plain xtensor "
                          "expression with xn::name(e, dims) first.");
            auto result = detail::evaluated_for_python(std::forward<E>(e));
            using container = std::decay_t<decltype(std::move(result).expression())>;
            using value_type = typename container::value_type;
            static_assert(std::is_arithmetic<value_type>::value,
                          "xn::to_python: the result's element type must be arithmetic (numpy's dtypes).");
            const named::dims names = result.dims();
            const named::coords labels = result.coords();

            auto owned = std::make_unique<container>(std::move(result).expression());
            const py::capsule owner(owned.get(),
                                    [](void* values) { delete static_cast<container*>(values); });
            container& values = *owned.release();
            std::vector<py::ssize_t> shape(values.shape().begin(), values.shape().end());
            std::vector<py::ssize_t> strides(values.strides().begin(), values.strides().end());
            for (auto& stride : strides)
            {
                stride *= static_cast<py::ssize_t>(sizeof(value_type));
            }
            py::array data(py::dtype::of<value_type>(), std::move(shape), std::move(strides), values.data(),
                           owner);

            // An axis whose labels are an argument's takes the argument's index; when every labelled axis
            // does, the DataArray is built from them as they are, else xarray builds the others' indexes.
            py::tuple dims(names.size());
            std::vector<std::pair<py::str, std::shared_ptr<const detail::python_labels_origin>>> origins;
            py::dict coords;
            bool every_origin_known = true;
            for (std::size_t i = 0; i < names.size(); ++i)
            {
                const std::string dim = names.is_named(i) ? names[i] : detail::concat("dim_", i);
                dims[i] = py::str(dim);
                const auto* values_of_axis = names.is_named(i) ? labels.find(names[i]) : nullptr;
                if (values_of_axis != nullptr)
                {
                    auto origin = detail::python_origin_of(dim, *values_of_axis);
                    every_origin_known = every_origin_known && origin != nullptr;
                    coords[py::str(dim)] = origin != nullptr ? origin->index.attr("index")
                                                             : detail::python_labels_of(*values_of_axis);
                    origins.emplace_back(py::str(dim), std::move(origin));
                }
            }
            const py::module_ xarray = py::module_::import("xarray");
            if (!origins.empty() && every_origin_known && detail::python_dataarray_takes_indexes())
            {
                py::dict variables;
                py::dict indexes;
                for (const auto& [dim, origin] : origins)
                {
                    variables[dim] = origin->index.attr("create_variables")()[dim];
                    indexes[dim] = origin->index;
                }
                const py::object variable = xarray.attr("Variable")(dims, data, py::arg("fastpath") = true);
                return xarray.attr("DataArray")(variable, py::arg("coords") = variables,
                                                py::arg("name") = py::none(), py::arg("indexes") = indexes,
                                                py::arg("fastpath") = true);
            }
            return xarray.attr("DataArray")(data, py::arg("dims") = dims, py::arg("coords") = coords);
        }

        template <class F, class... A>
        inline pybind11::object visit(F&& f, const A&... args)
        {
            return std::visit([&](const auto&... alternatives) { return to_python(f(alternatives...)); },
                              static_cast<const typename A::variant_type&>(args)...);
        }
    } // namespace named
} // namespace xt

/*******************************
 * pybind11's type conversions *
 *******************************/

namespace pybind11
{
    namespace detail
    {
        /// A named expression: a parameter when it is an xn::pynamed, a result always.
        template <class CT, class S>
        struct type_caster<xt::named::xnamed<CT, S>>
        {
            using value_type = xt::named::xnamed<CT, S>;
            using parameter = xt::named::detail::python_parameter<value_type>;

            static constexpr auto name = const_name("xarray.DataArray");

            bool load(handle source, bool)
            {
                static_assert(
                    parameter::value,
                    "xn::xpython: a bound function takes a named array from Python as "
                    "xn::pynamed<T> (or const xn::pynamed<T>&); other named expressions are results "
                    "only.");
                if constexpr (parameter::value)
                {
                    m_value.emplace(xt::named::from_python<typename parameter::element, parameter::rank,
                                                           typename parameter::strategy>(source));
                }
                return true;
            }

            template <class E>
            static handle cast(E&& e, return_value_policy, handle)
            {
                return xt::named::to_python(std::forward<E>(e)).release();
            }

            operator value_type*()
            {
                return &*m_value;
            }

            operator value_type&()
            {
                return *m_value;
            }

            operator value_type&&() &&
            {
                return std::move(*m_value);
            }

            template <class U>
            using cast_op_type = movable_cast_op_type<U>;

        private:

            std::optional<value_type> m_value;
        };

        /// xn::pynamed_any<T...>: the alternative whose element type is the argument's dtype.
        template <class... T>
        struct type_caster<xt::named::pynamed_any<T...>>
        {
            using value_type = xt::named::pynamed_any<T...>;

            static constexpr auto name = const_name("xarray.DataArray");

            bool load(handle source, bool)
            {
                const xt::named::detail::python_input in = xt::named::detail::inspect_python(source);
                const pybind11::dtype dtype = in.data.dtype();
                const bool found = (load_as<T>(in, dtype) || ...);
                if (!found)
                {
                    const std::string names = xt::named::detail::dtype_names<T...>();
                    xt::named::detail::throw_python_type_error(
                        in, xt::named::detail::concat("the function takes ", names));
                }
                return true;
            }

            operator value_type*()
            {
                return &*m_value;
            }

            operator value_type&()
            {
                return *m_value;
            }

            operator value_type&&() &&
            {
                return std::move(*m_value);
            }

            template <class U>
            using cast_op_type = movable_cast_op_type<U>;

        private:

            template <class U>
            bool load_as(const xt::named::detail::python_input& in, const pybind11::dtype& dtype)
            {
                if (!xt::named::detail::dtype_is<U>(dtype))
                {
                    return false;
                }
                m_value.emplace(
                    xt::named::detail::python_to_named<U, xt::named::unknown, xt::named::missing_dims>(in));
                return true;
            }

            std::optional<value_type> m_value;
        };
    } // namespace detail
} // namespace pybind11

#endif
