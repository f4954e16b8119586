/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_FUZZ_ARRAY_MODEL_HPP
#define XTENSOR_NAMED_FUZZ_ARRAY_MODEL_HPP

// What the fuzz targets over real arrays share (fuzz_explicit_broadcast, fuzz_named_broadcast): small
// arrays made from the input, the row-major index arithmetic of their naive loops, and the comparison of
// an expression, evaluated by xtensor's assignment, xn::eval and xn::assign, with a naive loop's values.

#include <cstddef>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xevaluate.hpp>

#include "fuzz_check.hpp"

namespace xn_fuzz
{
    namespace xn = xt::named;

    using shape_type = std::vector<std::size_t>;

    /// Results with more elements than this are checked for their refusals and shapes only.
    inline constexpr std::size_t largest_evaluated = 4096;

    inline std::size_t element_count(const shape_type& shape)
    {
        std::size_t n = 1;
        for (auto s : shape)
        {
            n *= s;
        }
        return n;
    }

    /// Row-major position of `index` in `shape`.
    inline std::size_t flat(const shape_type& index, const shape_type& shape)
    {
        std::size_t at = 0;
        for (std::size_t i = 0; i < shape.size(); ++i)
        {
            at = at * shape[i] + index[i];
        }
        return at;
    }

    /// Calls `f(index)` for every index of `shape`, in row-major order.
    template <class F>
    void for_each_index(const shape_type& shape, F&& f)
    {
        const std::size_t n = element_count(shape);
        shape_type index(shape.size(), 0);
        for (std::size_t k = 0; k < n; ++k)
        {
            f(index);
            for (std::size_t i = shape.size(); i-- > 0;)
            {
                if (++index[i] < shape[i])
                {
                    break;
                }
                index[i] = 0;
            }
        }
    }

    /// An array of rank 0-4, sizes 0-3, small integer values (so that every sum is exact in double).
    inline xt::xarray<double> make_array(FuzzedDataProvider& fdp)
    {
        const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 4);
        shape_type shape;
        for (std::size_t i = 0; i < rank; ++i)
        {
            shape.push_back(fdp.ConsumeIntegralInRange<std::size_t>(0, 3));
        }
        xt::xarray<double> a = xt::zeros<double>(shape);
        for (auto& v : a)
        {
            v = static_cast<double>(fdp.ConsumeIntegralInRange<int>(-9, 9));
        }
        return a;
    }

    inline shape_type shape_of(const xt::xarray<double>& a)
    {
        return shape_type(a.shape().begin(), a.shape().end());
    }

    /// Compares the expression that `make` builds, evaluated three ways, with `expected` of shape `shape`.
    /// xtensor 0.24's own reducers offset the null data pointer of an empty container (UBSan: "applying
    /// non-zero offset to null pointer" in xiterator.hpp), for any xt::sum, so an empty sum is evaluated
    /// through the library's xn::eval and xn::assign only (`through_xtensor` false).
    template <class F>
    void expect_values(const char* what, F&& make, const shape_type& shape,
                       const std::vector<double>& expected, bool through_xtensor = true)
    {
        auto check = [&](const xt::xarray<double>& got, const char* how)
        {
            XN_FUZZ_CHECK(shape_of(got) == shape, (what, " through ", how, ": shape"));
            std::size_t k = 0;
            for (double v : got)
            {
                XN_FUZZ_CHECK(v == expected[k],
                              (what, " through ", how, ": element ", k, " is ", v, ", not ", expected[k]));
                ++k;
            }
        };
        if (through_xtensor)
        {
            const xt::xarray<double> by_xtensor = make();
            check(by_xtensor, "xtensor's assignment");
        }
        check(xn::eval(make()), "xn::eval");
        xt::xarray<double> out = xt::ones<double>({2, 2});
        xn::assign(out, make());
        check(out, "xn::assign");
    }
    /// The adjoint sums: every element of `g` adds into the result element it was broadcast from.
    /// `source(index of g)` gives that element's index in the result of shape `result`.
    template <class F>
    std::vector<double> naive_sum(const xt::xarray<double>& g, const shape_type& result, F&& source)
    {
        std::vector<double> values(element_count(result), 0.0);
        const auto gs = shape_of(g);
        for_each_index(gs, [&](const shape_type& index)
                       { values[flat(source(index), result)] += g.data()[flat(index, gs)]; });
        return values;
    }
} // namespace xn_fuzz

#endif
