/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XREADONLY_BROADCAST_HPP
#define XTENSOR_NAMED_DETAIL_XREADONLY_BROADCAST_HPP

// The read-only view that every explicit broadcast returns: writing through it does not compile (the
// core.matrix wiki: "you should not attempt to mutate a broadcasted array"). xt::xbroadcast is
// read-only already, but a write through it fails deep in the user's code with "assignment of read-only
// location"; a static_assert gives one sentence instead.
// Decisions:
// - xreadonly_broadcast<B> IS-A B, the xt::xbroadcast that xt::broadcast builds, and adds nothing but
//   element accessors for a non-const lvalue. So it is the xtensor expression it was before for
//   everything else: the CRTP bases, steppers, iterators, shape, expression() and the assignment
//   machinery are B's, every function that takes a `const xt::xexpression<B>&` takes it, and the
//   kernels read it as the B it is (a `const B&` binds to it).
// - One template parameter, the whole xt::xbroadcast: xt::is_xexpression (is_crtp_base_of) finds the
//   CRTP base xt::xexpression<B> of a class template F<B> of one parameter; for a class template of two
//   parameters (CT and X) it would answer false, and xtensor would not take the view as an expression.
// - The element accessors of a non-const lvalue (operator(), [], at, element, unchecked, periodic,
//   front, back) return an xreadonly_element: it converts implicitly to the element (`double x =
//   rows(0, 1);` still reads, and so do xtensor's views over a non-const view, which convert it to their
//   `reference`, xbroadcast's const_reference), and every assignment to it is a template whose
//   static_assert gives the one sentence. A const or rvalue view returns B's const_reference unchanged.
//   The cost of the proxy: `auto x = rows(0, 1);` on a non-const view is the proxy, not a copy of the
//   element, so `x += 1.` does not compile either (write `double x = ...`); and a function template
//   that deduces one type from two arguments (std::max(rows(0, 1), 1.)) needs the element type named.
// - Iterators are B's const iterators: `*rows.begin() = 1.` fails with the compiler's "read-only"
//   error, not the sentence. Wrapping them would change the iterator types that xtensor's algorithms
//   and the standard library see, for a misuse that the accessors already cover.
// - The alternatives weighed: a proxy from the const accessors too (it would change the
//   const_reference that xtensor's views, functions and reducers take from a const operand, and every
//   lazy expression over a broadcast); an expression class of its own that wraps B without deriving
//   (every xtensor trait, closure and the kernels would have to learn it); leaving xt::xbroadcast as it
//   is (the misuse costs a page of diagnostics, not a sentence).

#include <initializer_list>
#include <type_traits>
#include <utility>

#include "../../xcompat_xtensor.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// Whether `B` is an xt::xbroadcast: what xreadonly_broadcast derives from.
            template <class B>
            struct is_xbroadcast : std::false_type
            {
            };

            template <class CT, class X>
            struct is_xbroadcast<xt::xbroadcast<CT, X>> : std::true_type
            {
            };

            /// False for every `T`, so that a static_assert fires only where its template is used.
            template <class T>
            inline constexpr bool always_false_v = false;

            /// An element of a read-only view reached through a non-const view: read it, never write it.
            template <class R>
            class xreadonly_element;

            /// The read-only view of an explicit broadcast: the xt::xbroadcast `B`, whose non-const element
            /// accessors give an xreadonly_element.
            template <class B>
            class xreadonly_broadcast;

            /// `xt::broadcast(e, shape)` as an xreadonly_broadcast.
            template <class E, class S>
            auto readonly_broadcast(E&& e, S&& shape);

            /**************************************
             * implementation of xreadonly_element *
             **************************************/

// The one sentence of every write through an explicit broadcast.
#define XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE                                                             \
    "xn::broadcast_to, xn::broadcast, xn::broadcast_in_dim and xn::broadcast_like give read-only views: "    \
    "many positions share one element; evaluate the view (xn::eval) before writing to it."

#define XTENSOR_NAMED_READONLY_ASSIGNMENT(op)                                                                \
    template <class T>                                                                                       \
    xreadonly_element& operator op(T&&)                                                                      \
    {                                                                                                        \
        static_assert(always_false_v<T>, XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE);                          \
        return *this;                                                                                        \
    }

            template <class R>
            class xreadonly_element
            {
            public:
                explicit xreadonly_element(R element) noexcept : m_element(element) {}

                xreadonly_element(const xreadonly_element&) = default;

                // A copy assignment operator of this form is declared so that the compiler declares no
                // other one (which would be deleted, or would assign the proxy): the templates below then
                // take every assignment, from another element too.
                xreadonly_element& operator=(const volatile xreadonly_element&) = delete;

                XTENSOR_NAMED_READONLY_ASSIGNMENT(=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(+=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(-=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(*=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(/=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(%=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(&=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(|=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(^=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(<<=)
                XTENSOR_NAMED_READONLY_ASSIGNMENT(>>=)

                template <class T = void>
                xreadonly_element& operator++()
                {
                    static_assert(always_false_v<T>, XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE);
                    return *this;
                }

                template <class T = void>
                xreadonly_element& operator--()
                {
                    static_assert(always_false_v<T>, XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE);
                    return *this;
                }

                template <class T = void>
                xreadonly_element& operator++(int)
                {
                    static_assert(always_false_v<T>, XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE);
                    return *this;
                }

                template <class T = void>
                xreadonly_element& operator--(int)
                {
                    static_assert(always_false_v<T>, XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE);
                    return *this;
                }

                /// The element, as the view's const_reference.
                operator R() const noexcept
                {
                    return m_element;
                }

            private:
                R m_element;
            };

#undef XTENSOR_NAMED_READONLY_ASSIGNMENT
#undef XTENSOR_NAMED_READONLY_BROADCAST_MESSAGE

            /****************************************
             * implementation of xreadonly_broadcast *
             ****************************************/

            template <class B>
            class xreadonly_broadcast : public B
            {
                static_assert(is_xbroadcast<B>::value,
                              "xreadonly_broadcast: the base must be the xt::xbroadcast of xt::broadcast.");

            public:
                using base_type = B;
                using const_reference = typename B::const_reference;
                using size_type = typename B::size_type;
                using element_type = xreadonly_element<const_reference>;

                explicit xreadonly_broadcast(B&& b) noexcept(std::is_nothrow_move_constructible<B>::value)
                    : B(std::move(b))
                {
                }

                template <class... Args>
                element_type operator()(Args... args) &
                {
                    return element_type(base()(args...));
                }

                template <class... Args>
                const_reference operator()(Args... args) const&
                {
                    return base()(args...);
                }

                template <class... Args>
                element_type unchecked(Args... args) &
                {
                    return element_type(base().unchecked(args...));
                }

                template <class... Args>
                const_reference unchecked(Args... args) const&
                {
                    return base().unchecked(args...);
                }

                template <class... Args>
                element_type at(Args... args) &
                {
                    return element_type(base().at(args...));
                }

                template <class... Args>
                const_reference at(Args... args) const&
                {
                    return base().at(args...);
                }

                template <class... Args>
                element_type periodic(Args... args) &
                {
                    return element_type(base().periodic(args...));
                }

                template <class... Args>
                const_reference periodic(Args... args) const&
                {
                    return base().periodic(args...);
                }

                template <class It>
                element_type element(It first, It last) &
                {
                    return element_type(base().element(first, last));
                }

                template <class It>
                const_reference element(It first, It last) const&
                {
                    return base().element(first, last);
                }

                template <class S>
                xt::disable_integral_t<S, element_type> operator[](const S& index) &
                {
                    return element_type(base()[index]);
                }

                template <class S>
                xt::disable_integral_t<S, const_reference> operator[](const S& index) const&
                {
                    return base()[index];
                }

                template <class I>
                element_type operator[](std::initializer_list<I> index) &
                {
                    return element_type(base()[index]);
                }

                template <class I>
                const_reference operator[](std::initializer_list<I> index) const&
                {
                    return base()[index];
                }

                element_type operator[](size_type i) &
                {
                    return element_type(base()[i]);
                }

                const_reference operator[](size_type i) const&
                {
                    return base()[i];
                }

                element_type front() &
                {
                    return element_type(base().front());
                }

                const_reference front() const&
                {
                    return base().front();
                }

                element_type back() &
                {
                    return element_type(base().back());
                }

                const_reference back() const&
                {
                    return base().back();
                }

            private:
                const B& base() const noexcept
                {
                    return *this;
                }
            };

            template <class E, class S>
            inline auto readonly_broadcast(E&& e, S&& shape)
            {
                auto view = xt::broadcast(std::forward<E>(e), std::forward<S>(shape));
                return xreadonly_broadcast<decltype(view)>(std::move(view));
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
