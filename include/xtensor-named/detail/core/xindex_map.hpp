/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XINDEX_MAP_HPP
#define XTENSOR_NAMED_DETAIL_XINDEX_MAP_HPP

// Index maps: for each position of a result, the position of a source that it comes from, or a mark
// that it comes from nowhere. A broadcast plan's axes are index maps over axes (xn::no_axis marks an
// axis the operand lacks), a label alignment's are index maps over labels (xn::missing marks a label
// the operand lacks). The rules that both follow live here once.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace xt
{
    namespace named
    {
        namespace detail
        {
            using index_map = std::vector<std::int64_t>;

            /// `0, 1, ..., size - 1`: a source of `size` positions taken as it is; with room for `room` more
            /// entries, which a caller appends without a second allocation.
            index_map identity_map(std::size_t size, std::size_t room = 0);

            /// Whether `map` takes the `size` positions of its source in order, each once.
            bool is_identity_map(const index_map& map, std::size_t size) noexcept;

            /// `inner` seen through `outer`: position i takes `inner[outer[i]]`, and `absent` where
            /// `outer[i]` is `absent`.
            index_map compose_index_maps(const index_map& outer, const index_map& inner, std::int64_t absent);

            /**
             * Checks that every entry of `map` other than `absent` is a position of a source of `size`
             * positions, and that none is taken twice: `out_of_range(i)` is called for the first entry `i`
             * outside and must throw; `repeated(i)` for each entry that takes a position again, and may
             * return (to report a more telling fault first). Returns, for each source position, whether
             * the map takes it.
             */
            template <class OutOfRange, class Repeated>
            std::vector<bool> check_index_map(const index_map& map, std::size_t size, std::int64_t absent,
                                              const OutOfRange& out_of_range, const Repeated& repeated);

            /*************************************
             * implementation of the index maps *
             *************************************/

            inline index_map identity_map(std::size_t size, std::size_t room)
            {
                index_map map;
                map.reserve(size + room);
                for (std::size_t i = 0; i < size; ++i)
                {
                    map.push_back(static_cast<std::int64_t>(i));
                }
                return map;
            }

            inline bool is_identity_map(const index_map& map, std::size_t size) noexcept
            {
                if (map.size() != size)
                {
                    return false;
                }
                for (std::size_t i = 0; i < map.size(); ++i)
                {
                    if (map[i] != static_cast<std::int64_t>(i))
                    {
                        return false;
                    }
                }
                return true;
            }

            inline index_map compose_index_maps(const index_map& outer, const index_map& inner,
                                                std::int64_t absent)
            {
                index_map result(outer.size(), absent);
                for (std::size_t i = 0; i < outer.size(); ++i)
                {
                    if (outer[i] != absent)
                    {
                        result[i] = inner[static_cast<std::size_t>(outer[i])];
                    }
                }
                return result;
            }

            template <class OutOfRange, class Repeated>
            inline std::vector<bool> check_index_map(const index_map& map, std::size_t size,
                                                     std::int64_t absent, const OutOfRange& out_of_range,
                                                     const Repeated& repeated)
            {
                std::vector<bool> taken(size, false);
                for (std::size_t i = 0; i < map.size(); ++i)
                {
                    const std::int64_t position = map[i];
                    if (position == absent)
                    {
                        continue;
                    }
                    if (position < 0 || static_cast<std::uint64_t>(position) >= size)
                    {
                        out_of_range(i);
                    }
                    if (taken[static_cast<std::size_t>(position)])
                    {
                        repeated(i);
                    }
                    taken[static_cast<std::size_t>(position)] = true;
                }
                return taken;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
