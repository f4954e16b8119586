/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// The first program to run: axis names, shapes that are partly unknown, and the errors that say what
// went wrong. Every step prints one line.

#include <iostream>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

int main()
{
    // 1. Axis names. "?" marks an axis without a name (a batch axis, say).
    const xn::dims image_dims{"?", "channel", "h", "w"};
    std::cout << "1. image axes " << image_dims << ": " << image_dims.size() << " axes, 'h' is axis "
              << image_dims.index_of("h") << ", axis 0 named: " << std::boolalpha << image_dims.is_named(0)
              << "\n";

    // 2. A plain xtensor expression has unnamed axes only.
    std::cout << "2. the axes of a plain rank-3 array: " << xn::dims::unnamed(3) << "\n";

    // 3. Shapes known before any data exists; xn::unknown is a size not known yet.
    const auto batch = xn::partial_shape::of({xn::unknown, 3, 256, 384});
    const auto one_image = xn::partial_shape::of({1, 3, 256, 384});
    std::cout << "3. a batch of images has shape " << batch << " (rank " << batch.rank()
              << ", element count known: " << !batch.has_unknown_dimension() << ")\n";

    // 4. Compatible shapes could be the same concrete shape; merging gives the most specific one.
    std::cout << "4. " << batch << " compatible with " << one_image << ": "
              << batch.is_compatible_with(one_image) << ", merged: " << batch.merge_with(one_image) << "\n";

    // 5. Compatibility is not broadcasting: a size 1 does not stretch.
    const auto rgb_planes = xn::partial_shape::of({3, 256, 384});
    std::cout << "5. " << rgb_planes << " compatible with " << batch << ": "
              << rgb_planes.is_compatible_with(batch) << "\n";

    // 6. A shape of unknown rank is compatible with everything.
    std::cout << "6. " << xn::partial_shape::unknown() << " compatible with " << rgb_planes << ": "
              << xn::partial_shape::unknown().is_compatible_with(rgb_planes) << "\n";

    // 7. Shapes are built up and taken apart like TensorFlow's Shape.
    std::cout << "7. " << rgb_planes.take_last(2) << " prepended with 10 gives "
              << rgb_planes.take_last(2).prepend(10) << ", its element count is "
              << rgb_planes.take_last(2).prepend(10).num_elements() << "\n";

    // 8. Every error is a std::runtime_error whose message names the operation, the axes and the sizes.
    try
    {
        const xn::dims duplicated{"h", "w", "h"};
        std::cout << "8. unexpected: " << duplicated << " was accepted\n";
        return 1;
    }
    catch (const xn::name_error& e)
    {
        std::cout << "8. caught xn::name_error: " << e.what() << "\n";
    }

    // 9. Merging incompatible shapes is an xn::shape_error; the message gives both shapes and the axis.
    try
    {
        const auto merged = one_image.merge_with(xn::partial_shape::of({2, 3, 256, 384}));
        std::cout << "9. unexpected: merged into " << merged << "\n";
        return 1;
    }
    catch (const xn::shape_error& e)
    {
        std::cout << "9. caught xn::shape_error: " << e.what() << "\n";
    }
    return 0;
}
