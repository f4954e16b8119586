/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Built against the installed package by the tests find_package_consumer and pkg_config_consumer.

#include <iostream>
#include <string>

#include <xtensor-named/xtensor-named.hpp>

int main()
{
    xt::named::dims d{"?", "h", "w"};
    const std::string text = d.to_string();
    std::cout << text << '\n';
    if (text != "(?, h, w)")
    {
        std::cerr << "expected (?, h, w)\n";
        return 1;
    }
    return 0;
}
