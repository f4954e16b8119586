// expect: xn::with_coords: the expression must be a named expression
// Labels go on named axes: a plain xtensor expression is named (and labelled) with xn::name.

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

int main()
{
    xt::xarray<double> values = {1., 2.};
    auto labelled = xn::with_coords(values, {{"t", {10, 20}}});
    (void)labelled;
    return 0;
}
