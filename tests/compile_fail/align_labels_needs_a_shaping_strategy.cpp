// expect: xn::align_labels: a shaping strategy must be a type with static std::optional
// A type without the static align function is refused with one sentence, not a template backtrace.

#include <xtensor-named/xshaping.hpp>

namespace xn = xt::named;

struct not_a_shaping_strategy
{
};

int main()
{
    const auto alignment = xn::align_labels<not_a_shaping_strategy>({1, 2}, {2, 3});
    return static_cast<int>(alignment.result.size());
}
