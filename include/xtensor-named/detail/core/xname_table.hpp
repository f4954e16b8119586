/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XNAME_TABLE_HPP
#define XTENSOR_NAMED_DETAIL_XNAME_TABLE_HPP

// Axis names are interned: each distinct name is one string in a table of the whole process, never
// freed, and an xn::dims holds pointers to these strings. Dims then copy and compare as a few pointers,
// with no allocation, and a name is checked once, when it is first met, not by every dims that holds it.
// A thread takes the table's lock only for a name it has not met lately: it keeps the names it met last
// in a small cache of its own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /// A name in the table: the same pointer for equal names (within one table, see dims's ==).
            using interned_name = const std::string*;

            /// The interned string equal to `name` if this thread met it lately, else nullptr.
            interned_name cached_name(std::string_view name) noexcept;

            /// The interned string equal to `name`, added to the table if it is not there yet. The caller
            /// checks the name first: the table takes any string.
            interned_name intern(std::string_view name);

            /// The interned `"?"`.
            interned_name interned_unnamed_axis();

            /*********************************
             * implementation of the table   *
             *********************************/

            /// Whether `name` is the string `known`, compared byte by byte in place: names are short, and
            /// a call to the library's compare costs more than the loop.
            inline bool same_name(const std::string& known, std::string_view name) noexcept
            {
                if (known.size() != name.size())
                {
                    return false;
                }
                for (std::size_t i = 0; i < name.size(); ++i)
                {
                    if (known[i] != name[i])
                    {
                        return false;
                    }
                }
                return true;
            }

            /// FNV-1a: names are short, and this hash is computed at every lookup.
            inline std::uint64_t name_hash(std::string_view name) noexcept
            {
                std::uint64_t hash = 14695981039346656037ULL;
                for (char c : name)
                {
                    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
                }
                return hash;
            }

            struct name_cache_slot
            {
                std::uint64_t hash;
                interned_name name;
            };

            /// This thread's names met last, by hash; zero-initialised, so that it needs no guard.
            inline std::array<name_cache_slot, 64>& thread_name_cache() noexcept
            {
                thread_local std::array<name_cache_slot, 64> cache{};
                return cache;
            }

            /// The slot of this thread's cache that a name of `hash` takes.
            inline name_cache_slot& name_cache_slot_of(std::uint64_t hash) noexcept
            {
                auto& cache = thread_name_cache();
                return cache[hash % cache.size()];
            }

            struct name_table
            {
                std::mutex lock;
                // Node-based: a name's address never changes, however many are added after it.
                std::unordered_set<std::string> names;
            };

            inline name_table& the_name_table()
            {
                // Never destroyed: dims held by static objects may outlive any order of destruction.
                static name_table* const table = new name_table;
                return *table;
            }

            inline interned_name cached_name(std::string_view name) noexcept
            {
                const std::uint64_t hash = name_hash(name);
                const name_cache_slot& slot = name_cache_slot_of(hash);
                return slot.name != nullptr && slot.hash == hash && same_name(*slot.name, name) ? slot.name
                                                                                                : nullptr;
            }

            inline interned_name intern(std::string_view name)
            {
                name_table& table = the_name_table();
                interned_name found = nullptr;
                {
                    const std::lock_guard<std::mutex> guard(table.lock);
                    found = &*table.names.emplace(name).first;
                }
                const std::uint64_t hash = name_hash(name);
                name_cache_slot_of(hash) = name_cache_slot{hash, found};
                return found;
            }

            inline interned_name interned_unnamed_axis()
            {
                static const interned_name unnamed = intern("?");
                return unnamed;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
