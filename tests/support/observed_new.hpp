/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_TESTS_OBSERVED_NEW_HPP
#define XTENSOR_NAMED_TESTS_OBSERVED_NEW_HPP

// Replaces operator new of the one test program that includes this header: every allocation first
// calls allow_allocation(), which that program defines, to count allocations or to refuse one
// (std::bad_alloc).

#include <cstddef>
#include <cstdlib>
#include <new>

/// Called before every allocation of the test program; false makes it fail.
bool allow_allocation();

// ThreadSanitizer's runtime defines operator new itself, which cannot be replaced there: under it, every
// allocation is allowed.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XTENSOR_NAMED_TESTS_KEEP_NEW
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define XTENSOR_NAMED_TESTS_KEEP_NEW
#endif

#if !defined(XTENSOR_NAMED_TESTS_KEEP_NEW)

// Kept out of line: inlined, they let g++ (optimising) see a new-expression's pointer reach std::free,
// and warn of a mismatched deallocation (-Wmismatched-new-delete).
#if defined(__GNUC__)
#define XTENSOR_NAMED_TESTS_OUT_OF_LINE __attribute__((noinline))
#else
#define XTENSOR_NAMED_TESTS_OUT_OF_LINE
#endif

XTENSOR_NAMED_TESTS_OUT_OF_LINE void* operator new(std::size_t bytes)
{
    void* p = allow_allocation() ? std::malloc(bytes == 0 ? 1 : bytes) : nullptr;
    if (p == nullptr)
    {
        throw std::bad_alloc();
    }
    return p;
}

XTENSOR_NAMED_TESTS_OUT_OF_LINE void operator delete(void* p) noexcept
{
    std::free(p);
}

XTENSOR_NAMED_TESTS_OUT_OF_LINE void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

#endif

#endif
