/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// A batch of images img (?, channel, h, w) and their label maps lbl (?, h, w).
// Under xn::name_match the label map lines up with every channel by name, the unnamed batch axes with
// each other; lbl_prob and lbl_pred, whose named axes do not match, are refused, and the same tensors
// make an outer product under xn::missing_dims once every axis has a name.

#include <cstddef>
#include <iostream>
#include <string>

#include <xtensor-named/xtensor-named.hpp>

namespace xn = xt::named;

int main()
{
    // img: shape (10, 3, 256, 384), names (?, channel, h, w); lbl: shape (10, 256, 384), names (?, h, w).
    xt::xarray<float> pixels = xt::ones<float>({10, 3, 256, 384});
    xt::xarray<float> labels = xt::zeros<float>({10, 256, 384});
    pixels(4, 2, 100, 200) = 0.25f;
    labels(4, 100, 200) = 1.f;
    labels(9, 255, 383) = 1.f;

    auto img = xn::name<xn::name_match>(pixels, {"?", "channel", "h", "w"});
    auto lbl = xn::name<xn::name_match>(labels, {"?", "h", "w"});
    std::cout << "img " << xn::sizes_to_string(img) << "\n";
    std::cout << "lbl " << xn::sizes_to_string(lbl) << "\n";

    // The plan pairs the axes by name: lbl's ? with img's ?, lbl's h and w with img's h and w, and lbl
    // has nothing on channel (-1), so that it repeats along it.
    auto p = xn::plan<xn::name_match>(xn::operand{xn::partial_shape::of(img.shape()), img.dims()},
                                      xn::operand{xn::partial_shape::of(lbl.shape()), lbl.dims()});
    std::cout << "plan: result " << p.names << " of shape " << p.shape << "\n";
    for (std::size_t i = 0; i < p.axes[1].size(); ++i)
    {
        const auto from = p.axes[1][i];
        const std::string source = from < 0 ? "nothing of lbl: repeated"
                                            : "lbl's axis " + lbl.dims()[static_cast<std::size_t>(from)];
        std::cout << "  result axis " << p.names[i] << " reads " << source << "\n";
    }

    // Masking every channel with the label map: lazy until xn::eval.
    auto masked = xn::eval(img * lbl);
    std::cout << "img * lbl: " << xn::sizes_to_string(masked) << "\n";
    std::cout << "  at (4, c, 100, 200): " << masked.expression()(4, 0, 100, 200) << " "
              << masked.expression()(4, 1, 100, 200) << " " << masked.expression()(4, 2, 100, 200) << "\n";
    std::cout << "  at (9, 0, 255, 383): " << masked.expression()(9, 0, 255, 383)
              << ", at (0, 0, 0, 0): " << masked.expression()(0, 0, 0, 0) << "\n";
    auto per_channel = xn::eval(xn::sum(masked, {"h", "w"}));
    std::cout << "  sum over h and w:\n" << per_channel << "\n";

    // The broadcaster: lbl as a view of img's shape, without a copy (stride 0 along channel).
    auto [img_view, lbl_view] = xn::broadcast(img, lbl);
    std::cout << "broadcast lbl: " << xn::sizes_to_string(lbl_view) << ", strides "
              << xn::shape_to_string(lbl_view.expression().strides()) << " (0 along channel: no copy)\n";

    // lbl_prob (?, class, h, w) and lbl_pred (?, scale1, scale2, scale3, h, w): 'class' has no match.
    xt::xarray<float> prob = xt::zeros<float>({20, 3, 8, 8});
    xt::xarray<float> pred = xt::zeros<float>({20, 1, 17, 15, 8, 8});
    auto lbl_prob = xn::name<xn::name_match>(prob, {"?", "class", "h", "w"});
    auto lbl_pred = xn::name<xn::name_match>(pred, {"?", "scale1", "scale2", "scale3", "h", "w"});
    try
    {
        auto refused = lbl_prob * lbl_pred;
        std::cout << "unexpected: " << refused.dims() << "\n";
        return 1;
    }
    catch (const xn::broadcast_error& e)
    {
        std::cout << "name_match refuses: " << e.what() << "\n";
    }

    // With the batch axis named, missing_dims gives the outer product (not evaluated here).
    auto named_prob = xn::name(prob, {"batch", "class", "h", "w"});
    auto named_pred = xn::name(pred, {"batch", "scale1", "scale2", "scale3", "h", "w"});
    auto outer = named_prob * named_pred;
    std::cout << "missing_dims: " << xn::sizes_to_string(outer) << "\n";
    return 0;
}
