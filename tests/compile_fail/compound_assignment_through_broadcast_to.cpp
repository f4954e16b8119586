// expect: xn::broadcast_to, xn::broadcast, xn::broadcast_in_dim and xn::broadcast_like give read-only views: many positions share one element; evaluate the view \(xn::eval\) before writing to it\.
// A compound assignment reads and writes: it writes all the positions that share the element too, so it
// is refused with the same sentence as a plain assignment.

#include <xtensor-named/xexplicit_broadcast.hpp>

int main()
{
    xt::xarray<double> row = {1., 2., 3.};
    auto rows = xt::named::broadcast_to(row, {2, 3});
    rows(0, 1) += 1.;
    return 0;
}
