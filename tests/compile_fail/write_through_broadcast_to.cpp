// expect: read-only location|returns a const value
// A broadcast is a view in which many positions share one element: writing through it would write
// them all, so xn::broadcast_to gives a read-only view (seed 003: "you should not attempt to mutate a
// broadcasted array"). This must not compile.

#include <xtensor-named/xexplicit_broadcast.hpp>

int main()
{
    xt::xarray<double> row = {1., 2., 3.};
    auto rows = xt::named::broadcast_to(row, {2, 3});
    rows(0, 1) = 5.;
    return 0;
}
