/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The named explicit broadcast xn::broadcast_like and its adjoint xn::unbroadcast on small
// named arrays, under every built-in strategy, with targets that are named arrays or xn::operands
// (concrete, or malformed: an unknown size or rank, names that do not fit the rank). Each call must
// refuse exactly what its rules refuse: a malformed operand (xn::name_error for its names, xn::shape_error
// for a shape that is not concrete), and, as xn::broadcast_error, an input that the strategy does not
// line up within the target's axes in their order, or whose axis lands on a size that is neither its own
// nor reached from 1 (strategy_model.hpp is the model of the strategies' line-up). Otherwise the result has
// the target's dims and shape, and the values of a naive loop: each target position reads the input
// at the positions its axes land on (broadcast_like), each gradient element adds into the position it
// was broadcast from (unbroadcast). No operand is ever modified.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xtensor-named.hpp>

#include "array_model.hpp"
#include "fuzz_check.hpp"
#include "strategy_model.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::absent;
    using xn_fuzz::expect_values;
    using xn_fuzz::flat;
    using xn_fuzz::for_each_index;
    using xn_fuzz::index_type;
    using xn_fuzz::input_operand;
    using xn_fuzz::model_plan;
    using xn_fuzz::naive_sum;
    using xn_fuzz::name_alphabet;
    using xn_fuzz::outcome;
    using xn_fuzz::shape_of;
    using xn_fuzz::shape_type;

    using line_up_type = std::optional<model_plan> (*)(const input_operand&, const input_operand&);

    /// One axis of a named operand as the fuzzer builds it.
    struct axis
    {
        std::string name;
        std::size_t size;
    };

    /// A name from the alphabet, or "?" where the name is taken already (xn::dims allows no repeats).
    std::string pick_name(FuzzedDataProvider& fdp, const std::vector<axis>& taken)
    {
        std::string name = name_alphabet[fdp.ConsumeIntegralInRange<std::size_t>(0, 5)];
        for (const auto& a : taken)
        {
            if (name != "?" && a.name == name)
            {
                return "?";
            }
        }
        return name;
    }

    std::vector<axis> make_axes(FuzzedDataProvider& fdp)
    {
        std::vector<axis> axes;
        const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 4);
        for (std::size_t i = 0; i < rank; ++i)
        {
            axes.push_back({pick_name(fdp, axes), fdp.ConsumeIntegralInRange<std::size_t>(0, 3)});
        }
        return axes;
    }

    /// Axes that `small` is likely to broadcast to: `small`'s axes, perhaps permuted, a size-1 axis
    /// perhaps stretched, new axes inserted; now and then a size changed or an axis dropped, so that
    /// the misfits near a fit are tried too.
    std::vector<axis> derive_larger(FuzzedDataProvider& fdp, std::vector<axis> axes)
    {
        if (fdp.ConsumeBool())
        {
            for (std::size_t i = axes.size(); i-- > 1;)
            {
                std::swap(axes[i], axes[fdp.ConsumeIntegralInRange<std::size_t>(0, i)]);
            }
        }
        for (auto& a : axes)
        {
            if ((a.size == 1 && fdp.ConsumeIntegralInRange<int>(0, 3) == 0) ||
                fdp.ConsumeIntegralInRange<int>(0, 15) == 0)
            {
                a.size = fdp.ConsumeIntegralInRange<std::size_t>(0, 3);
            }
        }
        const int added = fdp.ConsumeIntegralInRange<int>(0, 2);
        for (int k = 0; k < added; ++k)
        {
            const auto at = fdp.ConsumeIntegralInRange<std::size_t>(0, axes.size());
            axis a{pick_name(fdp, axes), fdp.ConsumeIntegralInRange<std::size_t>(0, 3)};
            axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(at), a);
        }
        if (!axes.empty() && fdp.ConsumeIntegralInRange<int>(0, 15) == 0)
        {
            axes.erase(axes.begin() + static_cast<std::ptrdiff_t>(
                                          fdp.ConsumeIntegralInRange<std::size_t>(0, axes.size() - 1)));
        }
        return axes;
    }

    /// An array of the axes' sizes with small integer values (their sums are exact in double).
    xt::xarray<double> make_values(FuzzedDataProvider& fdp, const std::vector<axis>& axes)
    {
        shape_type shape;
        for (const auto& a : axes)
        {
            shape.push_back(a.size);
        }
        xt::xarray<double> values = xt::zeros<double>(shape);
        for (auto& v : values)
        {
            v = static_cast<double>(fdp.ConsumeIntegralInRange<int>(-9, 9));
        }
        return values;
    }

    std::vector<std::string> names_of(const std::vector<axis>& axes)
    {
        std::vector<std::string> names;
        for (const auto& a : axes)
        {
            names.push_back(a.name);
        }
        return names;
    }

    input_operand model_of(const std::vector<axis>& axes)
    {
        input_operand in;
        for (const auto& a : axes)
        {
            in.sizes.push_back(static_cast<index_type>(a.size));
            in.names.push_back(a.name);
        }
        return in;
    }

    /// The target of broadcast_like (or `like` of unbroadcast) given as an xn::operand: well formed, or
    /// malformed in one of the ways check_operand and shape_arg::concrete refuse.
    enum class operand_kind
    {
        concrete,
        unknown_size,
        unknown_rank,
        unknown_rank_with_names,
        names_off_by_one
    };

    struct target_operand
    {
        xn::operand op;
        outcome refusal = outcome::ok;
    };

    target_operand make_operand(FuzzedDataProvider& fdp, const std::vector<axis>& axes)
    {
        const auto kind = fdp.ConsumeIntegralInRange<int>(0, 15);
        std::vector<std::int64_t> sizes;
        for (const auto& a : axes)
        {
            sizes.push_back(static_cast<std::int64_t>(a.size));
        }
        auto names = names_of(axes);
        target_operand t;
        operand_kind k = operand_kind::concrete;
        if (kind == 1 && !axes.empty())
        {
            k = operand_kind::unknown_size;
        }
        else if (kind == 2)
        {
            k = axes.empty() ? operand_kind::unknown_rank : operand_kind::unknown_rank_with_names;
        }
        else if (kind == 3)
        {
            k = operand_kind::names_off_by_one;
        }
        switch (k)
        {
            case operand_kind::concrete:
                t.op = xn::operand{xn::partial_shape::of(sizes), xn::dims(names)};
                break;
            case operand_kind::unknown_size:
                sizes[fdp.ConsumeIntegralInRange<std::size_t>(0, sizes.size() - 1)] = xn::unknown;
                t.op = xn::operand{xn::partial_shape::of(sizes), xn::dims(names)};
                t.refusal = outcome::shape_error;
                break;
            case operand_kind::unknown_rank:
                t.op = xn::operand{xn::partial_shape::unknown(), xn::dims()};
                t.refusal = outcome::shape_error;
                break;
            case operand_kind::unknown_rank_with_names:
                // An operand of unknown rank has no names; its names are refused first.
                t.op = xn::operand{xn::partial_shape::unknown(), xn::dims(names)};
                t.refusal = outcome::name_error;
                break;
            case operand_kind::names_off_by_one:
                if (names.empty() || fdp.ConsumeBool())
                {
                    names.push_back("?");
                }
                else
                {
                    names.pop_back();
                }
                t.op = xn::operand{xn::partial_shape::of(sizes), xn::dims(names)};
                t.refusal = outcome::name_error;
                break;
        }
        return t;
    }

    /// The model of lining `small` up within `big` (broadcast_like's rule): the strategy must
    /// line the two up, keep `big`'s axes in their order and add none, and each axis of `small` must land
    /// on an axis of its size, or have size 1 (under a strategy that stretches). For each axis of
    /// `small`, the axis of `big` it lands on; nothing when the broadcast is refused.
    std::optional<std::vector<std::size_t>> landing(line_up_type line_up, const input_operand& big,
                                                    const input_operand& small)
    {
        const auto lined = line_up(big, small);
        if (!lined || lined->axes.size() != big.names.size())
        {
            return std::nullopt;
        }
        std::vector<std::size_t> result(small.names.size());
        for (std::size_t i = 0; i < lined->axes.size(); ++i)
        {
            const auto& a = lined->axes[i];
            if (a.from[0] != static_cast<index_type>(i))
            {
                return std::nullopt;
            }
            if (a.from[1] == absent)
            {
                continue;
            }
            const auto j = static_cast<std::size_t>(a.from[1]);
            const auto big_size = big.sizes[i];
            const auto small_size = small.sizes[j];
            if (!xn_fuzz::pair_size(big_size, small_size, lined->stretch) ||
                (small_size != big_size && small_size != 1))
            {
                return std::nullopt;
            }
            result[j] = i;
        }
        return result;
    }

    template <class N>
    void expect_dims_and_shape(const char* what, const N& result, const std::vector<axis>& axes)
    {
        XN_FUZZ_CHECK(result.dims() == xn::dims(names_of(axes)),
                      (what, ": dims ", result.dims().to_string()));
        shape_type expected;
        for (const auto& a : axes)
        {
            expected.push_back(a.size);
        }
        XN_FUZZ_CHECK(shape_type(result.shape().begin(), result.shape().end()) == expected,
                      (what, ": shape"));
    }

    /// broadcast_like(a, target) with `a` named under `S`, the target a named array or an operand.
    template <class S>
    void fuzz_broadcast_like(FuzzedDataProvider& fdp, line_up_type line_up, const std::vector<axis>& a_axes,
                             const std::vector<axis>& target_axes)
    {
        const xt::xarray<double> a_values = make_values(fdp, a_axes);
        const xt::xarray<double> target_values = make_values(fdp, target_axes);
        const auto a_before = a_values;
        const auto target_before = target_values;
        const auto a = xn::name<S>(a_values, xn::dims(names_of(a_axes)));
        const bool by_operand = fdp.ConsumeBool();
        const target_operand t = make_operand(fdp, target_axes);
        const auto target = xn::name(target_values, xn::dims(names_of(target_axes)));

        const auto lands = landing(line_up, model_of(target_axes), model_of(a_axes));
        outcome expected = by_operand ? t.refusal : outcome::ok;
        if (expected == outcome::ok && !lands)
        {
            expected = outcome::broadcast_error;
        }
        if (by_operand)
        {
            XN_FUZZ_EXPECT(xn::broadcast_like(a, t.op), expected, ("broadcast_like onto ", t.op.to_string()));
        }
        else
        {
            XN_FUZZ_EXPECT(xn::broadcast_like(a, target), expected, ("broadcast_like"));
        }
        XN_FUZZ_CHECK(a_values == a_before && target_values == target_before,
                      ("broadcast_like: an operand changed"));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto t_shape = shape_of(target_values);
        const auto a_shape = shape_of(a_values);
        std::vector<double> values;
        for_each_index(t_shape,
                       [&](const shape_type& index)
                       {
                           shape_type from(a_shape.size());
                           for (std::size_t j = 0; j < a_shape.size(); ++j)
                           {
                               from[j] = a_shape[j] == 1 ? 0 : index[(*lands)[j]];
                           }
                           values.push_back(a_values.data()[flat(from, a_shape)]);
                       });
        auto check = [&](auto make)
        {
            expect_dims_and_shape("broadcast_like", make(), target_axes);
            expect_values(
                "broadcast_like", [&] { return make().expression(); }, t_shape, values);
            const auto evaluated = xn::eval(make());
            expect_dims_and_shape("broadcast_like through xn::eval", evaluated, target_axes);
        };
        if (by_operand)
        {
            check([&] { return xn::broadcast_like(a, t.op); });
        }
        else
        {
            check([&] { return xn::broadcast_like(a, target); });
        }
        XN_FUZZ_CHECK(a_values == a_before && target_values == target_before,
                      ("broadcast_like: an operand changed"));
    }

    /// unbroadcast(g, like) with the gradient `g` named under `S`, `like` a named array or an operand.
    template <class S>
    void fuzz_unbroadcast(FuzzedDataProvider& fdp, line_up_type line_up, const std::vector<axis>& like_axes,
                          const std::vector<axis>& g_axes)
    {
        const xt::xarray<double> like_values = make_values(fdp, like_axes);
        const xt::xarray<double> g_values = make_values(fdp, g_axes);
        const auto like_before = like_values;
        const auto g_before = g_values;
        const auto g = xn::name<S>(g_values, xn::dims(names_of(g_axes)));
        const bool by_operand = fdp.ConsumeBool();
        const target_operand t = make_operand(fdp, like_axes);
        const auto like = xn::name(like_values, xn::dims(names_of(like_axes)));

        const auto lands = landing(line_up, model_of(g_axes), model_of(like_axes));
        outcome expected = by_operand ? t.refusal : outcome::ok;
        if (expected == outcome::ok && !lands)
        {
            expected = outcome::broadcast_error;
        }
        if (by_operand)
        {
            XN_FUZZ_EXPECT(xn::unbroadcast(g, t.op), expected, ("unbroadcast to ", t.op.to_string()));
        }
        else
        {
            XN_FUZZ_EXPECT(xn::unbroadcast(g, like), expected, ("unbroadcast"));
        }
        XN_FUZZ_CHECK(g_values == g_before && like_values == like_before,
                      ("unbroadcast: an operand changed"));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto like_shape = shape_of(like_values);
        const auto values = naive_sum(g_values, like_shape,
                                      [&](const shape_type& index)
                                      {
                                          shape_type to(like_shape.size());
                                          for (std::size_t j = 0; j < like_shape.size(); ++j)
                                          {
                                              to[j] = like_shape[j] == 1 ? 0 : index[(*lands)[j]];
                                          }
                                          return to;
                                      });
        auto check = [&](auto make)
        {
            expect_dims_and_shape("unbroadcast", make(), like_axes);
            // xtensor 0.24's reducers misbehave on an empty gradient (see array_model.hpp).
            expect_values(
                "unbroadcast", [&] { return make().expression(); }, like_shape, values, g_values.size() != 0);
            const auto evaluated = xn::eval(make());
            expect_dims_and_shape("unbroadcast through xn::eval", evaluated, like_axes);
        };
        if (by_operand)
        {
            check([&] { return xn::unbroadcast(g, t.op); });
        }
        else
        {
            check([&] { return xn::unbroadcast(g, like); });
        }
        XN_FUZZ_CHECK(g_values == g_before && like_values == like_before,
                      ("unbroadcast: an operand changed"));
    }

    template <class S>
    void fuzz_strategy(FuzzedDataProvider& fdp, line_up_type line_up)
    {
        // Mostly a larger operand derived from the smaller one, so that most calls fit; now and then
        // two unrelated operands.
        const auto small = make_axes(fdp);
        const auto big =
            fdp.ConsumeIntegralInRange<int>(0, 7) == 0 ? make_axes(fdp) : derive_larger(fdp, small);
        if (fdp.ConsumeBool())
        {
            fuzz_broadcast_like<S>(fdp, line_up, small, big);
        }
        else
        {
            fuzz_unbroadcast<S>(fdp, line_up, small, big);
        }
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    switch (fdp.ConsumeIntegralInRange<int>(0, 5))
    {
        case 0:
            fuzz_strategy<xn::numpy>(fdp, xn_fuzz::numpy_model);
            break;
        case 1:
            fuzz_strategy<xn::leading>(fdp, xn_fuzz::leading_model);
            break;
        case 2:
            fuzz_strategy<xn::missing_dims>(fdp, xn_fuzz::missing_dims_model);
            break;
        case 3:
            fuzz_strategy<xn::basic_missing_dims<true>>(fdp, xn_fuzz::stretching_missing_dims_model);
            break;
        case 4:
            fuzz_strategy<xn::name_match>(fdp, xn_fuzz::line_up_name_match);
            break;
        default:
            fuzz_strategy<xn::exact>(fdp, xn_fuzz::line_up_exact);
            break;
    }
    return 0;
}
