/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XERRORS_HPP
#define XTENSOR_NAMED_XERRORS_HPP

#include <cstddef>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "xcompat_xtensor_exception.hpp"

namespace xt
{
    namespace named
    {
        /**
         * Thrown for an invalid axis name, a duplicate name, or a name that an operation cannot find.
         */
        class name_error : public std::runtime_error
        {
        public:

            using std::runtime_error::runtime_error;
        };

        /**
         * Thrown for a shape that an operation cannot use: a negative size, an index out of range,
         * an unknown rank or size where a known one is needed, an element count that overflows.
         */
        class shape_error : public std::runtime_error
        {
        public:

            using std::runtime_error::runtime_error;
        };

        /**
         * Thrown when two operands cannot be broadcast together. It is also an xt::broadcast_error,
         * so that catch blocks written for xtensor keep working.
         */
        class broadcast_error : public xt::broadcast_error
        {
        public:

            explicit broadcast_error(const std::string& message) : xt::broadcast_error(message.c_str()) {}
        };

        namespace detail
        {
            /// One argument of a message and how to stream it.
            struct message_piece
            {
                const void* value;
                void (*write)(std::ostream&, const void*);
            };

            template <class T>
            void write_piece(std::ostream& out, const void* value)
            {
                out << *static_cast<const T*>(value);
            }

            inline void write_text(std::ostream& out, const void* value)
            {
                out << static_cast<const char*>(value);
            }

            /// A string literal is streamed as a `const char*`, whatever its length, and any other argument
            /// as its own type: the writers are compiled once per kind of argument, not per message.
            inline message_piece piece_of(const char* text)
            {
                return {text, &write_text};
            }

            template <class T>
            message_piece piece_of(const T& value)
            {
                return {&value, &write_piece<T>};
            }

            /// Streams every piece into one string, compiled once for all messages.
            inline std::string join_pieces(const message_piece* pieces, std::size_t count)
            {
                std::ostringstream out;
                // A stream swallows an exception of an insertion (a std::bad_alloc) and stops writing: the
                // message would be cut short. Rethrown instead, as any failure to allocate is.
                out.exceptions(std::ios_base::badbit);
                for (std::size_t i = 0; i < count; ++i)
                {
                    pieces[i].write(out, pieces[i].value);
                }
                return out.str();
            }

            /// Streams every argument into one string: the single way messages are built.
            template <class... Args>
            std::string concat(const Args&... args)
            {
                if constexpr (sizeof...(Args) == 0)
                {
                    return std::string();
                }
                else
                {
                    const message_piece pieces[] = {piece_of(args)...};
                    return join_pieces(pieces, sizeof...(Args));
                }
            }

            /// Every name_error goes through here: "xn::<operation>: <details>".
            template <class... Args>
            [[noreturn]] void throw_name_error(std::string_view operation, const Args&... details)
            {
                throw name_error(concat("xn::", operation, ": ", details...));
            }

            /// Every shape_error goes through here: "xn::<operation>: <details>".
            template <class... Args>
            [[noreturn]] void throw_shape_error(std::string_view operation, const Args&... details)
            {
                throw shape_error(concat("xn::", operation, ": ", details...));
            }

            /// Every broadcast_error goes through here: "xn::<operation>: <details>".
            template <class... Args>
            [[noreturn]] void throw_broadcast_error(std::string_view operation, const Args&... details)
            {
                throw broadcast_error(concat("xn::", operation, ": ", details...));
            }

            /**
             * `attempt()`, with an `Error` that it throws thrown again as "xn::<operation>: <context()><its
             * message>": a refusal from inside (a strategy's, xn::dims's) then also names the operation
             * that asked. `context` is called only on failure.
             */
            template <class Error, class Attempt, class Context>
            auto rethrow_within(std::string_view operation, Attempt&& attempt, const Context& context)
                -> decltype(std::forward<Attempt>(attempt)())
            {
                try
                {
                    return std::forward<Attempt>(attempt)();
                }
                catch (const Error& e)
                {
                    throw Error(concat("xn::", operation, ": ", context(), e.what()));
                }
            }

            /// As above, with nothing between the operation and the message.
            template <class Error, class Attempt>
            auto rethrow_within(std::string_view operation, Attempt&& attempt)
                -> decltype(std::forward<Attempt>(attempt)())
            {
                return rethrow_within<Error>(operation, std::forward<Attempt>(attempt), [] { return ""; });
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
