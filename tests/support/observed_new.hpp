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

void* operator new(std::size_t bytes)
{
    void* p = allow_allocation() ? std::malloc(bytes == 0 ? 1 : bytes) : nullptr;
    if (p == nullptr)
    {
        throw std::bad_alloc();
    }
    return p;
}

void operator delete(void* p) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

#endif

#endif
