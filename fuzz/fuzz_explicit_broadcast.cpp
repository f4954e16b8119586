/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The explicit broadcasts and their adjoints on small real arrays, with target shapes and
// axes made of arbitrary integers. Each call must refuse exactly what docs/explicit_broadcasting.md refuses
// (xn::shape_error for a malformed argument, xn::broadcast_error for shapes that do not fit), and
// otherwise give, through xtensor's assignment, xn::eval and xn::assign alike, the values of a naive
// loop written here from the same rules.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xtensor-named.hpp>

#include "array_model.hpp"
#include "fuzz_check.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::element_count;
    using xn_fuzz::expect_values;
    using xn_fuzz::flat;
    using xn_fuzz::for_each_index;
    using xn_fuzz::largest_evaluated;
    using xn_fuzz::make_array;
    using xn_fuzz::naive_sum;
    using xn_fuzz::outcome;
    using xn_fuzz::shape_of;
    using xn_fuzz::shape_type;

    /// A target shape or an axis list as a caller may write it: any integers, or an unknown rank.
    struct integers
    {
        std::vector<std::int64_t> values;
        bool unknown_rank = false;
        bool as_unsigned = false;

        bool has_negative() const
        {
            for (auto v : values)
            {
                if (v < 0)
                {
                    return true;
                }
            }
            return false;
        }

        /// Whether the values form a concrete shape (a broadcast takes no unknown or negative size).
        bool concrete() const
        {
            return !unknown_rank && !has_negative();
        }

        shape_type sizes() const
        {
            return shape_type(values.begin(), values.end());
        }

        xn::detail::shape_arg shape() const
        {
            if (unknown_rank)
            {
                return xn::partial_shape::unknown();
            }
            if (as_unsigned)
            {
                // A negative value wraps around to a size_t larger than any size.
                return std::vector<std::size_t>(values.begin(), values.end());
            }
            return values;
        }

        xn::detail::axes_arg axes() const
        {
            if (as_unsigned)
            {
                return std::vector<std::size_t>(values.begin(), values.end());
            }
            return values;
        }
    };

    integers make_shape(FuzzedDataProvider& fdp)
    {
        integers s;
        s.unknown_rank = fdp.ConsumeIntegralInRange<int>(0, 31) == 0;
        s.as_unsigned = fdp.ConsumeIntegralInRange<int>(0, 7) == 0;
        const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 5);
        // At most one large size, so that an element count never overflows (overflow has its own tests).
        bool large_used = false;
        for (std::size_t i = 0; i < rank; ++i)
        {
            const int kind = fdp.ConsumeIntegralInRange<int>(0, 15);
            if (kind == 0)
            {
                s.values.push_back(fdp.ConsumeIntegralInRange<std::int64_t>(-3, -1));
            }
            else if (kind == 1 && !large_used)
            {
                s.values.push_back(std::int64_t(1) << fdp.ConsumeIntegralInRange<int>(5, 20));
                large_used = true;
            }
            else
            {
                s.values.push_back(fdp.ConsumeIntegralInRange<std::int64_t>(0, 4));
            }
        }
        return s;
    }

    integers make_axes(FuzzedDataProvider& fdp)
    {
        integers a;
        a.as_unsigned = fdp.ConsumeIntegralInRange<int>(0, 7) == 0;
        const std::size_t n = fdp.ConsumeIntegralInRange<std::size_t>(0, 5);
        for (std::size_t i = 0; i < n; ++i)
        {
            a.values.push_back(fdp.ConsumeIntegralInRange<int>(0, 15) == 0
                                   ? fdp.ConsumeIntegral<std::int64_t>()
                                   : fdp.ConsumeIntegralInRange<std::int64_t>(-1, 5));
        }
        return a;
    }

    /// An axis list that is a set of axes of a shape of rank `rank`: no negative, out-of-range or
    /// repeated axis.
    bool is_axis_set(const integers& axes, std::size_t rank)
    {
        for (std::size_t i = 0; i < axes.values.size(); ++i)
        {
            const auto v = axes.values[i];
            if (v < 0 || static_cast<std::uint64_t>(v) >= rank)
            {
                return false;
            }
            for (std::size_t j = 0; j < i; ++j)
            {
                if (axes.values[j] == v)
                {
                    return false;
                }
            }
        }
        return true;
    }

    /// A mapping of `input_rank` axes into `output_rank` axes: one entry each, in range, increasing.
    bool is_mapping(const integers& mapping, std::size_t input_rank, std::size_t output_rank)
    {
        if (mapping.values.size() != input_rank || !is_axis_set(mapping, output_rank))
        {
            return false;
        }
        for (std::size_t i = 1; i < mapping.values.size(); ++i)
        {
            if (mapping.values[i] <= mapping.values[i - 1])
            {
                return false;
            }
        }
        return true;
    }

    void fuzz_broadcast_to(const xt::xarray<double>& x, const integers& target)
    {
        const auto in = shape_of(x);
        outcome expected = outcome::ok;
        const auto t = target.sizes();
        if (!target.concrete())
        {
            expected = outcome::shape_error;
        }
        else if (in.size() > t.size())
        {
            expected = outcome::broadcast_error;
        }
        else
        {
            for (std::size_t i = 0; i < in.size(); ++i)
            {
                const auto out_size = t[i + t.size() - in.size()];
                if (in[i] != out_size && in[i] != 1)
                {
                    expected = outcome::broadcast_error;
                }
            }
        }
        XN_FUZZ_EXPECT(xn::broadcast_to(x, target.shape()), expected, ("broadcast_to"));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto view = xn::broadcast_to(x, target.shape());
        XN_FUZZ_CHECK(shape_type(view.shape().begin(), view.shape().end()) == t,
                      ("broadcast_to: the view's shape"));
        if (element_count(t) > largest_evaluated)
        {
            return;
        }
        std::vector<double> values;
        for_each_index(t,
                       [&](const shape_type& index)
                       {
                           shape_type from(in.size());
                           for (std::size_t i = 0; i < in.size(); ++i)
                           {
                               from[i] = in[i] == 1 ? 0 : index[i + t.size() - in.size()];
                           }
                           values.push_back(x.data()[flat(from, in)]);
                       });
        expect_values(
            "broadcast_to", [&] { return xn::broadcast_to(x, target.shape()); }, t, values);
        if (in.empty())
        {
            // A number broadcasts as a rank-0 expression does.
            const double number = x();
            expect_values(
                "broadcast_to(number)", [&] { return xn::broadcast_to(number, target.shape()); }, t, values);
        }
    }

    void fuzz_broadcast(const xt::xarray<double>& x, const integers& target, const integers& axes)
    {
        const auto in = shape_of(x);
        const auto t = target.sizes();
        outcome expected = outcome::ok;
        std::vector<bool> is_new(t.size(), false);
        if (!target.concrete() || !is_axis_set(axes, t.size()))
        {
            expected = outcome::shape_error;
        }
        else
        {
            // nGraph's Broadcast: the shape without the broadcast axes must equal the input's shape exactly.
            shape_type kept;
            for (auto a : axes.values)
            {
                is_new[static_cast<std::size_t>(a)] = true;
            }
            for (std::size_t i = 0; i < t.size(); ++i)
            {
                if (!is_new[i])
                {
                    kept.push_back(t[i]);
                }
            }
            expected = kept == in ? outcome::ok : outcome::broadcast_error;
        }
        XN_FUZZ_EXPECT(xn::broadcast(x, target.shape(), axes.axes()), expected, ("broadcast"));
        if (expected != outcome::ok || element_count(t) > largest_evaluated)
        {
            return;
        }
        std::vector<double> values;
        for_each_index(t,
                       [&](const shape_type& index)
                       {
                           shape_type from;
                           for (std::size_t i = 0; i < t.size(); ++i)
                           {
                               if (!is_new[i])
                               {
                                   from.push_back(index[i]);
                               }
                           }
                           values.push_back(x.data()[flat(from, in)]);
                       });
        expect_values(
            "broadcast", [&] { return xn::broadcast(x, target.shape(), axes.axes()); }, t, values);
    }

    void fuzz_broadcast_in_dim(const xt::xarray<double>& x, const integers& target, const integers& mapping)
    {
        const auto in = shape_of(x);
        const auto t = target.sizes();
        outcome expected = outcome::ok;
        if (!target.concrete() || !is_mapping(mapping, in.size(), t.size()))
        {
            expected = outcome::shape_error;
        }
        else
        {
            for (std::size_t i = 0; i < in.size(); ++i)
            {
                const auto out_size = t[static_cast<std::size_t>(mapping.values[i])];
                if (in[i] != out_size && in[i] != 1)
                {
                    expected = outcome::broadcast_error;
                }
            }
        }
        XN_FUZZ_EXPECT(xn::broadcast_in_dim(x, target.shape(), mapping.axes()), expected,
                       ("broadcast_in_dim"));
        if (expected != outcome::ok || element_count(t) > largest_evaluated)
        {
            return;
        }
        std::vector<double> values;
        for_each_index(t,
                       [&](const shape_type& index)
                       {
                           shape_type from(in.size());
                           for (std::size_t i = 0; i < in.size(); ++i)
                           {
                               from[i] = in[i] == 1 ? 0 : index[static_cast<std::size_t>(mapping.values[i])];
                           }
                           values.push_back(x.data()[flat(from, in)]);
                       });
        expect_values(
            "broadcast_in_dim", [&] { return xn::broadcast_in_dim(x, target.shape(), mapping.axes()); }, t,
            values);
    }

    void fuzz_sum_to(const xt::xarray<double>& g, const integers& target)
    {
        const auto gs = shape_of(g);
        const auto t = target.sizes();
        outcome expected = outcome::ok;
        if (!target.concrete())
        {
            expected = outcome::shape_error;
        }
        else if (t.size() > gs.size())
        {
            expected = outcome::broadcast_error;
        }
        else
        {
            for (std::size_t j = 0; j < t.size(); ++j)
            {
                const auto grad_size = gs[j + gs.size() - t.size()];
                if (t[j] != grad_size && t[j] != 1)
                {
                    expected = outcome::broadcast_error;
                }
            }
        }
        XN_FUZZ_EXPECT(xn::sum_to(g, target.shape()), expected, ("sum_to"));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto values = naive_sum(g, t,
                                      [&](const shape_type& index)
                                      {
                                          shape_type to(t.size());
                                          for (std::size_t j = 0; j < t.size(); ++j)
                                          {
                                              to[j] = t[j] == 1 ? 0 : index[j + gs.size() - t.size()];
                                          }
                                          return to;
                                      });
        expect_values(
            "sum_to", [&] { return xn::sum_to(g, target.shape()); }, t, values, g.size() != 0);
    }

    void fuzz_reduce_broadcast_axes(const xt::xarray<double>& g, const integers& axes)
    {
        const auto gs = shape_of(g);
        const bool valid = is_axis_set(axes, gs.size());
        XN_FUZZ_EXPECT(xn::reduce_broadcast_axes(g, axes.axes()), valid ? outcome::ok : outcome::shape_error,
                       ("reduce_broadcast_axes"));
        if (!valid)
        {
            return;
        }
        std::vector<bool> summed(gs.size(), false);
        for (auto a : axes.values)
        {
            summed[static_cast<std::size_t>(a)] = true;
        }
        shape_type result;
        for (std::size_t i = 0; i < gs.size(); ++i)
        {
            if (!summed[i])
            {
                result.push_back(gs[i]);
            }
        }
        const auto values = naive_sum(g, result,
                                      [&](const shape_type& index)
                                      {
                                          shape_type to;
                                          for (std::size_t i = 0; i < gs.size(); ++i)
                                          {
                                              if (!summed[i])
                                              {
                                                  to.push_back(index[i]);
                                              }
                                          }
                                          return to;
                                      });
        expect_values(
            "reduce_broadcast_axes", [&] { return xn::reduce_broadcast_axes(g, axes.axes()); }, result,
            values, g.size() != 0);
    }

    void fuzz_sum_in_dim(const xt::xarray<double>& g, const integers& target, const integers& mapping)
    {
        const auto gs = shape_of(g);
        const auto t = target.sizes();
        outcome expected = outcome::ok;
        if (!target.concrete() || !is_mapping(mapping, t.size(), gs.size()))
        {
            expected = outcome::shape_error;
        }
        else
        {
            for (std::size_t i = 0; i < t.size(); ++i)
            {
                const auto grad_size = gs[static_cast<std::size_t>(mapping.values[i])];
                if (t[i] != grad_size && t[i] != 1)
                {
                    expected = outcome::broadcast_error;
                }
            }
        }
        XN_FUZZ_EXPECT(xn::sum_in_dim(g, target.shape(), mapping.axes()), expected, ("sum_in_dim"));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto values =
            naive_sum(g, t,
                      [&](const shape_type& index)
                      {
                          shape_type to(t.size());
                          for (std::size_t i = 0; i < t.size(); ++i)
                          {
                              to[i] = t[i] == 1 ? 0 : index[static_cast<std::size_t>(mapping.values[i])];
                          }
                          return to;
                      });
        expect_values(
            "sum_in_dim", [&] { return xn::sum_in_dim(g, target.shape(), mapping.axes()); }, t, values,
            g.size() != 0);
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    const xt::xarray<double> x = make_array(fdp);
    const integers target = make_shape(fdp);
    const integers axes = make_axes(fdp);
    const xt::xarray<double> before = x;
    switch (fdp.ConsumeIntegralInRange<int>(0, 5))
    {
        case 0:
            fuzz_broadcast_to(x, target);
            break;
        case 1:
            fuzz_broadcast(x, target, axes);
            break;
        case 2:
            fuzz_broadcast_in_dim(x, target, axes);
            break;
        case 3:
            fuzz_sum_to(x, target);
            break;
        case 4:
            fuzz_reduce_broadcast_axes(x, axes);
            break;
        default:
            fuzz_sum_in_dim(x, target, axes);
            break;
    }
    // The operand is read, never written, whatever happened.
    XN_FUZZ_CHECK(x == before, ("the input changed"));
    return 0;
}
