/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_EXPECT_ERROR_HPP
#define XTENSOR_NAMED_TESTS_EXPECT_ERROR_HPP

// Assertions on thrown errors: the exact dynamic type, and the exact message or parts of it.
//
//   XN_EXPECT_THROW_MSG(d[4], xn::name_error, "xn::dims: axis 4 is out of range for (x) of rank 1");
//   XN_EXPECT_THROW_HAS(s.take(9), xn::shape_error, {"xn::partial_shape::take", "(2, 3)", "9"});
//
// A derived type does not pass for its base: an xn::broadcast_error expected as xt::broadcast_error
// fails, so that every test states the type it means.

#include <initializer_list>
#include <string>
#include <typeinfo>

#include <gtest/gtest.h>

namespace xn_test
{
    /// Runs `f`; returns the message of the error it throws when that error's type is exactly `E`,
    /// and records a failure (returning a marker text) when it throws something else or nothing.
    template <class E, class F>
    std::string thrown_message(F&& f)
    {
        try
        {
            f();
        }
        catch (const E& e)
        {
            if (typeid(e) != typeid(E))
            {
                ADD_FAILURE() << "expected exactly " << typeid(E).name() << ", got the derived "
                              << typeid(e).name() << ": " << e.what();
            }
            return e.what();
        }
        catch (const std::exception& e)
        {
            ADD_FAILURE() << "expected " << typeid(E).name() << ", got " << typeid(e).name() << ": "
                          << e.what();
            return "<another exception>";
        }
        catch (...)
        {
            ADD_FAILURE() << "expected " << typeid(E).name() << ", got a non-standard exception";
            return "<another exception>";
        }
        ADD_FAILURE() << "expected " << typeid(E).name() << ", nothing was thrown";
        return "<no exception>";
    }

    /// Records a failure for every part that `message` lacks.
    inline void expect_has_parts(const std::string& message, std::initializer_list<std::string> parts)
    {
        for (const auto& part : parts)
        {
            EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
        }
    }
} // namespace xn_test

/// Expects `statement` to throw exactly `error_type` with exactly the message `expected`.
#define XN_EXPECT_THROW_MSG(statement, error_type, expected)                                                 \
    do                                                                                                       \
    {                                                                                                        \
        SCOPED_TRACE(#statement);                                                                            \
        EXPECT_EQ(::xn_test::thrown_message<error_type>([&] { (void)(statement); }), std::string(expected)); \
    } while (false)

/// Expects `statement` to throw exactly `error_type` with a message holding every string of `parts`
/// (a braced list).
#define XN_EXPECT_THROW_HAS(statement, error_type, ...)                                                      \
    do                                                                                                       \
    {                                                                                                        \
        SCOPED_TRACE(#statement);                                                                            \
        ::xn_test::expect_has_parts(::xn_test::thrown_message<error_type>([&] { (void)(statement); }),       \
                                    __VA_ARGS__);                                                            \
    } while (false)

#endif
