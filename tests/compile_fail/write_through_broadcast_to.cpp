// expect: xn::broadcast_to, xn::broadcast, xn::broadcast_in_dim and xn::broadcast_like give read-only views: many positions share one element; evaluate the view \(xn::eval\) before writing to it\.
// A broadcast is a view in which many positions share one element: writing through it would write
// them all, so xn::broadcast_to gives a read-only view (core.matrix: "you should not attempt to mutate a
// broadcasted array"). This must not compile, and the first error must be the static_assert's sentence
// (detail/kernels/xreadonly_broadcast.hpp), not xtensor's "assignment of read-only location".

#include <xtensor-named/xexplicit_broadcast.hpp>

int main()
{
    xt::xarray<double> row = {1., 2., 3.};
    auto rows = xt::named::broadcast_to(row, {2, 3});
    rows(0, 1) = 5.;
    return 0;
}
