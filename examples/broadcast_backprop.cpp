/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A forward and a backward pass through a broadcast: a bias add y = x + b, where the bias b (one value
// per feature) is broadcast over the batch, and the loss L = sum(sin(y)). Backpropagation hands the
// gradient dL/dy = cos(y) back through the broadcast: the gradient of b sums it over the batch axis
// (nGraph: the backprop of Broadcast is Sum(delta, broadcast_axes)). The same pass is written three
// ways, with positional axes, with nGraph's explicit axes and with named axes, and checked against
// finite differences.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

namespace
{
    double loss(const xt::xarray<double>& x, const xt::xarray<double>& b)
    {
        return xt::sum(xt::sin(x + xn::broadcast_to(b, x.shape())))();
    }
} // namespace

int main()
{
    const xt::xarray<double> x = {{0.1, 0.2, 0.3}, {0.4, 0.5, 0.6}, {0.7, 0.8, 0.9}, {1.0, 1.1, 1.2}};
    const xt::xarray<double> b = {0.5, -0.25, 1.0};
    std::cout << "x, shape (batch 4, feature 3):\n" << x << "\nb, shape (feature 3):\n" << b << "\n\n";

    // Positional: numpy's rule forward, its reverse backward.
    const xt::xarray<double> y = x + xn::broadcast_to(b, x.shape());
    const xt::xarray<double> dy = xt::cos(y);
    const xt::xarray<double> db = xn::sum_to(dy, b.shape());
    std::cout << "forward   y = x + broadcast_to(b, (4, 3)):\n" << y << "\n";
    std::cout << "loss      L = sum(sin(y)) = " << xt::sum(xt::sin(y))() << "\n";
    std::cout << "backward  dL/db = sum_to(cos(y), (3)):\n" << db << "\n\n";

    // nGraph's form: the broadcast says which axis is new, the backprop sums over exactly that axis.
    const xt::xarray<double> y_axes = x + xn::broadcast(b, {4, 3}, {0});
    const xt::xarray<double> db_axes = xn::reduce_broadcast_axes(xt::cos(y_axes), {0});
    std::cout << "nGraph    dL/db = Sum(cos(Broadcast(b, Shape{4, 3}, AxisSet{0}) + x), AxisSet{0}):\n"
              << db_axes << "\n\n";

    // Named axes: the bias lines up with x by name, and its gradient keeps the name.
    const auto named_x = xn::name(x, {"batch", "feature"});
    const auto named_b = xn::name(b, {"feature"});
    const auto named_y = xn::eval(named_x + named_b);
    const auto named_dy = xn::eval(xn::cos(named_y));
    const auto named_db = xn::eval(xn::unbroadcast(named_dy, named_b));
    std::cout << "named     y = x + b:\n" << named_y << "\n";
    std::cout << "named     dL/db = unbroadcast(cos(y), b):\n" << named_db << "\n\n";

    // Which axes each operand's gradient sums over, from the shapes alone (TensorFlow's
    // BroadcastGradientArgs), with the batch size unknown before any data exists.
    const auto [for_x, for_b] =
        xn::broadcast_gradient_axes(xn::partial_shape::of({xn::unknown, 3}), xn::partial_shape::of({3}));
    std::cout << "broadcast_gradient_axes((?, 3), (3)): x sums over " << for_x.size() << " axes, b over axis "
              << for_b.at(0) << "\n\n";

    // Finite differences: (L(b + h e_j) - L(b - h e_j)) / 2h for each feature j.
    constexpr double h = 1e-6;
    double worst = 0.;
    std::cout << "finite differences of dL/db:";
    for (std::size_t j = 0; j < b.size(); ++j)
    {
        xt::xarray<double> up = b;
        xt::xarray<double> down = b;
        up(j) += h;
        down(j) -= h;
        const double estimate = (loss(x, up) - loss(x, down)) / (2. * h);
        std::cout << ' ' << estimate;
        worst = std::max(worst, std::abs(estimate - db(j)));
        worst = std::max(worst, std::abs(db_axes(j) - db(j)));
        worst = std::max(worst, std::abs(named_db.expression()(j) - db(j)));
    }
    std::cout << "\nlargest difference between the three gradients and finite differences: " << worst << "\n";
    if (worst > 1e-6)
    {
        std::cerr << "the gradients disagree\n";
        return 1;
    }
    return 0;
}
