/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Axis names and xn::dims from arbitrary bytes, against a reference written from the naming rule:
// a name is [A-Za-z_][A-Za-z0-9_]* or "?", a name appears once in a dims, "?" may repeat, index_of gives
// the first position or -1. Every refusal must be an xn::name_error with a readable message.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xdims.hpp>

#include "fuzz_check.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::outcome;

    bool reference_is_identifier(const std::string& name)
    {
        if (name.empty())
        {
            return false;
        }
        for (std::size_t i = 0; i < name.size(); ++i)
        {
            const char c = name[i];
            const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            const bool digit = c >= '0' && c <= '9';
            if (!(letter || (i > 0 && digit)))
            {
                return false;
            }
        }
        return true;
    }

    bool reference_is_valid(const std::string& name)
    {
        return name == "?" || reference_is_identifier(name);
    }

    std::ptrdiff_t reference_index_of(const std::vector<std::string>& names, const std::string& name)
    {
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            if (names[i] == name)
            {
                return static_cast<std::ptrdiff_t>(i);
            }
        }
        return -1;
    }

    /// Undoes detail::quoted: the quotes go, `\xNN` becomes its byte. Fails on anything quoted() never
    /// writes.
    std::string unquote(const std::string& text)
    {
        XN_FUZZ_CHECK(text.size() >= 2 && text.front() == '\'' && text.back() == '\'',
                      ("not quoted: ", text));
        auto hex_digit = [&](char c) -> int
        {
            if (c >= '0' && c <= '9')
            {
                return c - '0';
            }
            XN_FUZZ_CHECK(c >= 'a' && c <= 'f', ("bad escape in ", text));
            return c - 'a' + 10;
        };
        std::string out;
        for (std::size_t i = 1; i + 1 < text.size(); ++i)
        {
            const char c = text[i];
            XN_FUZZ_CHECK(c != '\'', ("an unescaped quote inside ", text));
            if (c == '\\')
            {
                XN_FUZZ_CHECK(i + 3 < text.size() && text[i + 1] == 'x', ("bad escape in ", text));
                out += static_cast<char>(hex_digit(text[i + 2]) * 16 + hex_digit(text[i + 3]));
                i += 3;
            }
            else
            {
                out += c;
            }
        }
        return out;
    }

    void check_one_name(const std::string& name)
    {
        const bool valid = reference_is_valid(name);
        XN_FUZZ_CHECK(xn::is_identifier(name) == reference_is_identifier(name), ("is_identifier of ", name));
        XN_FUZZ_CHECK(xn::is_valid_axis_name(name) == valid, ("is_valid_axis_name of ", name));
        XN_FUZZ_EXPECT(xn::detail::check_axis_name("fuzz", name), valid ? outcome::ok : outcome::name_error,
                       ("name of ", name.size(), " bytes"));
        const std::string q = xn::detail::quoted(name);
        XN_FUZZ_CHECK(xn_fuzz::is_readable_message("xn::fuzz: " + q), ("quoted() is not printable: ", q));
        XN_FUZZ_CHECK(unquote(q) == name, ("quoted() loses bytes: ", q));
    }

    void check_dims(const xn::dims& d, const std::vector<std::string>& names, FuzzedDataProvider& fdp)
    {
        XN_FUZZ_CHECK(d.size() == names.size(), ("size ", d.size(), " for ", names.size(), " names"));
        XN_FUZZ_CHECK(d.empty() == names.empty(), ("empty"));
        XN_FUZZ_CHECK(d.names() == names, ("names()"));
        std::string expected_string = "(";
        bool all_named = true;
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            XN_FUZZ_CHECK(d[i] == names[i], ("operator[] at ", i));
            XN_FUZZ_CHECK(d.is_named(i) == (names[i] != "?"), ("is_named at ", i));
            XN_FUZZ_CHECK(d.index_of(names[i]) == reference_index_of(names, names[i]),
                          ("index_of ", names[i]));
            XN_FUZZ_CHECK(d.contains(names[i]), ("contains ", names[i]));
            expected_string += (i == 0 ? "" : ", ") + names[i];
            all_named = all_named && names[i] != "?";
        }
        expected_string += ")";
        XN_FUZZ_CHECK(d.to_string() == expected_string, (d.to_string(), " instead of ", expected_string));
        XN_FUZZ_CHECK(xn::to_string(d) == expected_string, ("xn::to_string"));
        XN_FUZZ_CHECK(d.all_named() == all_named, ("all_named"));
        std::size_t walked = 0;
        for (const auto& n : d)
        {
            XN_FUZZ_CHECK(n == names[walked], ("iteration at ", walked));
            ++walked;
        }
        XN_FUZZ_CHECK(walked == names.size(), ("iteration length"));

        // Out-of-range positions, up to the largest size_t: a name_error, never a read past the end.
        const auto beyond = fdp.ConsumeIntegral<std::size_t>();
        const std::size_t bad = beyond < names.size() ? names.size() + beyond : beyond;
        XN_FUZZ_EXPECT(d[bad], outcome::name_error, ("axis ", bad, " of ", names.size()));
        XN_FUZZ_EXPECT(d.is_named(bad), outcome::name_error, ("axis ", bad, " of ", names.size()));

        // A probe that may be anything, valid or not.
        const std::string probe = fdp.ConsumeRandomLengthString(16);
        XN_FUZZ_CHECK(d.index_of(probe) == reference_index_of(names, probe), ("index_of a probe"));
        XN_FUZZ_CHECK(d.contains(probe) == (reference_index_of(names, probe) >= 0), ("contains a probe"));

        XN_FUZZ_CHECK(d == xn::dims(names), ("a copy compares unequal"));
        XN_FUZZ_CHECK(!(d != xn::dims(names)), ("operator!= on a copy"));
        XN_FUZZ_CHECK(d != xn::dims::unnamed(names.size() + 1), ("dims of another rank compare equal"));
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    const auto count = fdp.ConsumeIntegralInRange<std::size_t>(0, 12);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < count && fdp.remaining_bytes() > 0; ++i)
    {
        names.push_back(fdp.ConsumeRandomLengthString(32));
    }

    bool all_valid = true;
    bool duplicate = false;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        check_one_name(names[i]);
        all_valid = all_valid && reference_is_valid(names[i]);
        if (names[i] != "?" && reference_index_of(names, names[i]) != static_cast<std::ptrdiff_t>(i))
        {
            duplicate = true;
        }
    }

    const bool expect_ok = all_valid && !duplicate;
    const auto got = xn_fuzz::run("dims(names)", [&] { check_dims(xn::dims(names), names, fdp); });
    XN_FUZZ_CHECK(got == (expect_ok ? outcome::ok : outcome::name_error),
                  ("dims of ", names.size(), " names: ", xn_fuzz::outcome_name(got)));

    const xn::dims unnamed = xn::dims::unnamed(names.size());
    XN_FUZZ_CHECK(unnamed.size() == names.size() && !(names.size() > 0 && unnamed.all_named()),
                  ("dims::unnamed(", names.size(), ")"));
    for (const auto& n : unnamed)
    {
        XN_FUZZ_CHECK(n == "?", ("dims::unnamed has a name"));
    }
    return 0;
}
