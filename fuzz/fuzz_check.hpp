/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_FUZZ_CHECK_HPP
#define XTENSOR_NAMED_FUZZ_CHECK_HPP

// What every fuzz target shares: a failed property aborts (libFuzzer then saves the input as a crash),
// and an operation may throw only the error types that its contract names.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include <xtensor-named/xerrors.hpp>

namespace xn_fuzz
{
    [[noreturn]] inline void fail(const char* file, int line, const char* condition,
                                  const std::string& detail)
    {
        std::fprintf(stderr, "%s:%d: property violated: %s\n  %s\n", file, line, condition, detail.c_str());
        std::abort();
    }

    /// Every message of the library reads "xn::<operation>: <details>" and holds only printable ASCII, so
    /// that a name made of arbitrary bytes cannot garble a log line.
    inline bool is_readable_message(const std::string& message)
    {
        if (message.rfind("xn::", 0) != 0 || message.find(": ") == std::string::npos)
        {
            return false;
        }
        for (char c : message)
        {
            const auto byte = static_cast<unsigned char>(c);
            if (byte < 0x20 || byte >= 0x7f)
            {
                return false;
            }
        }
        return true;
    }

    /// The outcome of one call: nothing thrown, or the exact error type that was thrown.
    enum class outcome
    {
        ok,
        name_error,
        shape_error,
        broadcast_error
    };

    inline const char* outcome_name(outcome o)
    {
        switch (o)
        {
            case outcome::ok:
                return "success";
            case outcome::name_error:
                return "xn::name_error";
            case outcome::shape_error:
                return "xn::shape_error";
            case outcome::broadcast_error:
                return "xn::broadcast_error";
        }
        return "?";
    }

    /// Runs `f`, and classifies what it threw. Anything but the library's three error types, or a
    /// message that is not readable, is a finding: it aborts.
    template <class F>
    outcome run(const char* what, F&& f)
    {
        namespace xn = xt::named;
        auto check_message = [&](const std::exception& e)
        {
            if (!is_readable_message(e.what()))
            {
                fail(__FILE__, __LINE__, what, std::string("unreadable message: ") + e.what());
            }
        };
        try
        {
            f();
            return outcome::ok;
        }
        catch (const xn::name_error& e)
        {
            check_message(e);
            return outcome::name_error;
        }
        catch (const xn::shape_error& e)
        {
            check_message(e);
            return outcome::shape_error;
        }
        catch (const xn::broadcast_error& e)
        {
            check_message(e);
            return outcome::broadcast_error;
        }
        catch (const std::exception& e)
        {
            fail(__FILE__, __LINE__, what, std::string("unexpected ") + typeid(e).name() + ": " + e.what());
        }
        catch (...)
        {
            fail(__FILE__, __LINE__, what, "a non-standard exception");
        }
    }
} // namespace xn_fuzz

/// Aborts with the condition, where it failed, and `parts`: a parenthesized list of things to stream.
#define XN_FUZZ_CHECK(condition, parts)                                                                      \
    do                                                                                                       \
    {                                                                                                        \
        if (!(condition))                                                                                    \
        {                                                                                                    \
            ::xn_fuzz::fail(__FILE__, __LINE__, #condition, ::xt::named::detail::concat parts);              \
        }                                                                                                    \
    } while (false)

/// Aborts unless `statement` ends with `expected` (an xn_fuzz::outcome).
#define XN_FUZZ_EXPECT(statement, expected, parts)                                                           \
    do                                                                                                       \
    {                                                                                                        \
        const auto xn_fuzz_got = ::xn_fuzz::run(#statement, [&] { (void)(statement); });                     \
        XN_FUZZ_CHECK(xn_fuzz_got == (expected), ("expected ", ::xn_fuzz::outcome_name(expected), ", got ",  \
                                                  ::xn_fuzz::outcome_name(xn_fuzz_got), " from ",            \
                                                  #statement, ": ", ::xt::named::detail::concat parts));     \
    } while (false)

#endif
