// expect: xn::broadcast_to: the input must be an xtensor expression or a number
// The positional broadcasts take plain xtensor expressions; a named one goes through broadcast_like.

#include <xtensor-named/xexplicit_broadcast.hpp>

int main()
{
    xt::xarray<double> values = {1., 2., 3.};
    auto named = xt::named::name(values, {"x"});
    auto wide = xt::named::broadcast_to(named, {2, 3});
    return 0;
}
