/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A broadcasting strategy written outside the library: any type with
//     static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
// is one, and xn::plan<S> (and everything built on it) takes it like a built-in strategy.
// This one lines axes up from the LEFT (numpy lines them up from the right) and stretches size-1 axes.

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

struct left_aligned
{
    static xn::broadcast_plan plan(const xn::operand& a, const xn::operand& b)
    {
        if (a.shape.is_unknown() || b.shape.is_unknown())
        {
            throw xn::broadcast_error("left_aligned: both ranks must be known");
        }
        const xn::operand& longer = a.names.size() >= b.names.size() ? a : b;
        std::vector<std::string> names;
        std::vector<std::int64_t> sizes;
        xn::broadcast_plan result;
        for (std::size_t i = 0; i < longer.names.size(); ++i)
        {
            const bool in_a = i < a.names.size();
            const bool in_b = i < b.names.size();
            const std::int64_t size_a = in_a ? a.shape.sizes()[i] : 1;
            const std::int64_t size_b = in_b ? b.shape.sizes()[i] : 1;
            // An unknown size (xn::unknown) meeting 1 stays unknown; meeting anything else, takes it.
            if (size_a != size_b && size_a != 1 && size_b != 1 && size_a != xn::unknown &&
                size_b != xn::unknown)
            {
                throw xn::broadcast_error("left_aligned: axis " + std::to_string(i) + " has size " +
                                          std::to_string(size_a) + " in " + a.to_string() + " and " +
                                          std::to_string(size_b) + " in " + b.to_string());
            }
            const bool take_b = size_a == 1 || (size_a == xn::unknown && size_b != 1);
            names.push_back(in_a && a.names.is_named(i) ? a.names[i] : longer.names[i]);
            sizes.push_back(take_b ? size_b : size_a);
            // Each result axis records which operand axis lands there, or xn::no_axis where the operand
            // has no such axis and is broadcast along it.
            result.axes[0].push_back(in_a ? static_cast<std::int64_t>(i) : xn::no_axis);
            result.axes[1].push_back(in_b ? static_cast<std::int64_t>(i) : xn::no_axis);
        }
        result.names = xn::dims(names);
        result.shape = xn::partial_shape::of(sizes);
        return result;
    }
};

static_assert(xn::is_strategy_v<left_aligned>, "left_aligned has the static plan function of a strategy");

namespace
{
    std::string axes_text(const std::vector<std::int64_t>& axes)
    {
        std::string out = "{";
        for (std::size_t i = 0; i < axes.size(); ++i)
        {
            out += (i == 0 ? "" : ", ") + std::to_string(axes[i]);
        }
        return out + "}";
    }

    template <class S>
    void show(const char* strategy, const xn::operand& a, const xn::operand& b)
    {
        std::cout << strategy << ": " << a.to_string() << " and " << b.to_string() << "\n";
        try
        {
            const xn::broadcast_plan p = xn::plan<S>(a, b);
            std::cout << "    result " << p.names << " with shape " << p.shape << ", axes of a "
                      << axes_text(p.axes[0]) << ", axes of b " << axes_text(p.axes[1]) << "\n";
        }
        catch (const xn::broadcast_error& e)
        {
            std::cout << "    refused: " << e.what() << "\n";
        }
    }
} // namespace

int main()
{
    // A batch of 2 samples with 3 channels, and a per-sample weight: left-aligned, the weight's axis
    // meets the batch axis; numpy, aligning from the right, would meet the channel axis and refuse.
    const xn::operand samples{xn::partial_shape::of({2, 3}), {"batch", "channel"}};
    const xn::operand weights = xn::operand::unnamed(xn::partial_shape::of({2}));
    show<left_aligned>("left_aligned", samples, weights);
    show<xn::numpy>("xn::numpy", samples, weights);

    // Shape inference before data exists: the batch size is unknown.
    const xn::operand images{xn::partial_shape::of({xn::unknown, 1, 28}), {"batch", "?", "w"}};
    const xn::operand filters = xn::operand::unnamed(xn::partial_shape::of({1, 16}));
    show<left_aligned>("left_aligned", images, filters);
    return 0;
}
