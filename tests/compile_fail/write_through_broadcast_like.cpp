// expect: xn::broadcast_to, xn::broadcast, xn::broadcast_in_dim and xn::broadcast_like give read-only views: many positions share one element; evaluate the view \(xn::eval\) before writing to it\.
// The named broadcast is the same read-only view under its names: writing an element of its expression
// through operator[] is refused with the same sentence.

#include <xtensor-named/xexplicit_broadcast.hpp>

int main()
{
    xt::xarray<double> bias = {1., 2., 3.};
    xt::xarray<double> batch = xt::zeros<double>({2, 3});
    auto x = xt::named::name(batch, {"batch", "feature"});
    auto wide = xt::named::broadcast_like(xt::named::name(bias, {"feature"}), x);
    wide.expression()[{0, 1}] = 5.;
    return 0;
}
