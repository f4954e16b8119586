/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_XSHAPING_HPP
#define XTENSOR_NAMED_XSHAPING_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xbroadcast_plan.hpp"
#include "xcoords.hpp"
#include "xerrors.hpp"
#include "xstrategies.hpp"
#include "detail/core/xindex_map.hpp"
#include "detail/core/xlabel_rules.hpp"

namespace xt
{
    namespace named
    {
        /**
         * How the labels of one axis line up between two operands: the result's labels, and for each
         * operand and each result position the operand position that holds that label, or xn::missing
         * where the operand lacks it (a value to fill, under xn::join_outer and the one-sided joins).
         */
        struct label_alignment
        {
            named::labels result;
            std::array<std::vector<std::int64_t>, 2> index;

            /// Whether operand `k`, of `operand_size` labels, lands on the result as it is (no reindex).
            bool is_identity(std::size_t k, std::size_t operand_size) const noexcept;

            /// Whether some result position lacks a value of operand `k` (it must be filled).
            bool has_missing(std::size_t k) const noexcept;
        };

        /*
         * The shaping strategies (tensorics' ShapingStrategy, xarray's `join`). Each is a type with
         * `static std::optional<label_alignment> align(const labels& a, const labels& b)`, which sees two
         * different, checked label lists of one axis (one type, unique labels) and returns how they line
         * up, or std::nullopt to refuse. The label order of the result is pandas' (so xarray's):
         */

        /// Labels must be equal (xarray's join='exact'): the default, never reorders or fills.
        struct join_exact
        {
            static std::optional<label_alignment> align(const labels& a, const labels& b);
        };

        /// The labels both operands have, in the left operand's order (join='inner', tensorics' default).
        struct join_inner
        {
            static std::optional<label_alignment> align(const labels& a, const labels& b);
        };

        /**
         * The labels either operand has (join='outer'): sorted (integers numerically, strings by their
         * bytes), except that a list meeting an equal list or an empty list keeps its order, as pandas'
         * `Index.union` does. Values an operand lacks are filled.
         */
        struct join_outer
        {
            static std::optional<label_alignment> align(const labels& a, const labels& b);
        };

        /// The left operand's labels in its order (join='left'); the right operand is reindexed or filled.
        struct join_left
        {
            static std::optional<label_alignment> align(const labels& a, const labels& b);
        };

        /// The right operand's labels in its order (join='right'); the left operand is reindexed or filled.
        struct join_right
        {
            static std::optional<label_alignment> align(const labels& a, const labels& b);
        };

        /// Whether `S` is a shaping strategy: it has
        /// `static std::optional<label_alignment> align(const labels&, const labels&)`.
        template <class S, class = void>
        struct is_shaping : std::false_type
        {
        };

        template <class S>
        struct is_shaping<S, std::enable_if_t<std::is_same<decltype(S::align(std::declval<const labels&>(),
                                                                             std::declval<const labels&>())),
                                                           std::optional<label_alignment>>::value>>
            : std::true_type
        {
        };

        template <class S>
        inline constexpr bool is_shaping_v = is_shaping<S>::value;

// The requirement on a shaping strategy `S` at a public entry point OPERATION ("xn::apply"), in one
// sentence.
#define XTENSOR_NAMED_REQUIRE_SHAPING(S, OPERATION)                                                          \
    static_assert(::xt::named::is_shaping_v<S>, OPERATION                                                    \
                  ": a shaping strategy must be a type with static "                                         \
                  "std::optional<xn::label_alignment> align(const xn::labels&, const xn::labels&).")

        /// The names that the shaping strategies had before they took xarray's (tensorics' words: the
        /// union, the intersection): aliases, the same types.
        using shape_exact = join_exact;
        using shape_intersection = join_inner;
        using shape_union = join_outer;
        using shape_left = join_left;
        using shape_right = join_right;

        /**
         * Broadcasting strategy `S` with shaping strategy `Shaping` attached: the operators of named
         * expressions made with it align differing labels under `Shaping`, and broadcast as `S`.
         * @code
         * using joined = xn::with_shaping<xn::missing_dims, xn::join_outer>;
         * auto a = xn::name<joined>(x, {"t"}, {{"t", {10, 20, 30}}});
         * @endcode
         */
        template <class S, class Shaping>
        struct with_shaping
        {
            XTENSOR_NAMED_REQUIRE_STRATEGY(S, "xn::with_shaping");
            XTENSOR_NAMED_REQUIRE_SHAPING(Shaping, "xn::with_shaping");

            using strategy_type = S;
            using shaping_type = Shaping;

            static broadcast_plan plan(const operand& a, const operand& b);
        };

        /// The shaping strategy attached to broadcasting strategy `S`: xn::join_exact unless `S` is an
        /// xn::with_shaping (or has a `shaping_type` of its own).
        template <class S, class = void>
        struct shaping_of
        {
            using type = join_exact;
        };

        template <class S>
        struct shaping_of<S, std::void_t<typename S::shaping_type>>
        {
            using type = typename S::shaping_type;
        };

        template <class S>
        using shaping_of_t = typename shaping_of<S>::type;

        namespace detail
        {
            // A built-in strategy with a shaping strategy attached plans as the built-in one does: labels
            // are aligned before it is asked, and an operation on labelled operands reuses no plan.
            template <class S, class Shaping>
            struct builtin_strategy<with_shaping<S, Shaping>> : builtin_strategy<S>
            {
            };
        } // namespace detail

        /**
         * Aligns two label lists of one axis under shaping strategy `S`, touching no element.
         * Checks both lists (one type between them, unique labels), and the strategy's answer after.
         * Equal lists are aligned as they are without asking the strategy: that is what keeps aligned
         * operations lazy. Throws xn::shape_error when the lists have different types or `S` refuses.
         * @code
         * auto a = xn::align_labels<xn::join_outer>({30, 10}, {20, 10});
         * a.result;    // [10, 20, 30]
         * a.index[0];  // {1, xn::missing, 0}
         * @endcode
         */
        template <class S>
        label_alignment align_labels(const labels& a, const labels& b);

        namespace detail
        {
            /// For each label of `wanted`, its position in `in` (checked, unique), or xn::missing.
            std::vector<std::int64_t> positions_in(const labels& wanted, const labels& in);
            std::vector<std::int64_t> positions_in(const labels& wanted, const label_index& in);

            /**
             * align_labels for lists already checked one by one (as a coords holds them). `where` names
             * the axis and its positions for messages, as in "axis 'x' (axis 0 of the left operand, axis 1
             * of the right operand)", or is empty.
             */
            template <class S>
            label_alignment align_checked(std::string_view operation, std::string_view where, const labels& a,
                                          const labels& b);

            /// Whether `S` is a strategy of this header, whose alignments are consistent by construction
            /// (and tested so): only a user's strategy has its alignments checked (check_alignment), which
            /// would cost a built-in one's walk through long lists of times again.
            template <class S>
            inline constexpr bool is_builtin_shaping_v =
                std::is_same<S, join_exact>::value || std::is_same<S, join_inner>::value ||
                std::is_same<S, join_outer>::value || std::is_same<S, join_left>::value ||
                std::is_same<S, join_right>::value;

            /// Throws xn::shape_error unless `result` is a consistent alignment of `a` and `b`.
            void check_alignment(std::string_view operation, std::string_view where,
                                 const label_alignment& result, const labels& a, const labels& b);
        } // namespace detail

        /**************************************
         * implementation of label_alignment *
         **************************************/

        inline bool label_alignment::is_identity(std::size_t k, std::size_t operand_size) const noexcept
        {
            return detail::is_identity_map(index[k], operand_size);
        }

        inline bool label_alignment::has_missing(std::size_t k) const noexcept
        {
            return std::find(index[k].begin(), index[k].end(), named::missing) != index[k].end();
        }

        namespace detail
        {
            inline std::vector<std::int64_t> positions_in(const labels& wanted, const label_index& in)
            {
                std::vector<std::int64_t> result;
                result.reserve(wanted.size());
                for (const auto& l : wanted)
                {
                    result.push_back(in.position_of(l));
                }
                return result;
            }

            inline std::vector<std::int64_t> positions_in(const labels& wanted, const labels& in)
            {
                if (!strictly_increasing(wanted) || !strictly_increasing(in))
                {
                    return positions_in(wanted, label_index(in));
                }
                // Both sorted: one walk through `in` finds every wanted label, or passes where it would be.
                std::vector<std::int64_t> result;
                result.reserve(wanted.size());
                std::size_t at = 0;
                for (const auto& l : wanted)
                {
                    while (at < in.size() && label_less(in[at], l))
                    {
                        ++at;
                    }
                    const bool found = at < in.size() && !label_less(l, in[at]);
                    result.push_back(found ? static_cast<std::int64_t>(at) : named::missing);
                }
                return result;
            }

            /// join_outer of two sorted lists of unique labels: their merge, which is the sorted union.
            inline label_alignment merged_union(const labels& a, const labels& b)
            {
                label_alignment result;
                const std::size_t most = a.size() + b.size();
                result.result.reserve(most);
                result.index[0].reserve(most);
                result.index[1].reserve(most);
                std::size_t i = 0;
                std::size_t j = 0;
                while (i < a.size() || j < b.size())
                {
                    const bool take_a = j == b.size() || (i < a.size() && !label_less(b[j], a[i]));
                    const bool take_b = i == a.size() || (j < b.size() && !label_less(a[i], b[j]));
                    result.result.push_back(take_a ? a[i] : b[j]);
                    result.index[0].push_back(take_a ? static_cast<std::int64_t>(i++) : named::missing);
                    result.index[1].push_back(take_b ? static_cast<std::int64_t>(j++) : named::missing);
                }
                return result;
            }

            inline label_alignment as_they_are(const labels& a)
            {
                return label_alignment{a, {identity_map(a.size()), identity_map(a.size())}};
            }
        } // namespace detail

        /*****************************************
         * implementation of shaping strategies *
         *****************************************/

        inline std::optional<label_alignment> join_exact::align(const labels& a, const labels& b)
        {
            if (detail::same_labels(a, b))
            {
                return detail::as_they_are(a);
            }
            return std::nullopt;
        }

        inline std::optional<label_alignment> join_inner::align(const labels& a, const labels& b)
        {
            const auto in_b = detail::positions_in(a, b);
            label_alignment result;
            for (std::size_t i = 0; i < a.size(); ++i)
            {
                if (in_b[i] != named::missing)
                {
                    result.result.push_back(a[i]);
                    result.index[0].push_back(static_cast<std::int64_t>(i));
                    result.index[1].push_back(in_b[i]);
                }
            }
            return result;
        }

        inline std::optional<label_alignment> join_outer::align(const labels& a, const labels& b)
        {
            // pandas' Index.union returns an equal or an empty side's partner unsorted, and sorts
            // everything else; xarray's join='outer' inherits it.
            if (detail::same_labels(a, b) || b.empty())
            {
                return label_alignment{a, {detail::identity_map(a.size()), detail::positions_in(a, b)}};
            }
            if (a.empty())
            {
                return label_alignment{b, {detail::positions_in(b, a), detail::identity_map(b.size())}};
            }
            if (detail::strictly_increasing(a) && detail::strictly_increasing(b))
            {
                return detail::merged_union(a, b);
            }
            label_alignment result;
            result.result = a;
            const detail::label_index in_a(a);
            const detail::label_index in_b(b);
            for (const auto& l : b)
            {
                if (in_a.position_of(l) == named::missing)
                {
                    result.result.push_back(l);
                }
            }
            std::sort(result.result.begin(), result.result.end(), detail::label_less);
            result.index[0] = detail::positions_in(result.result, in_a);
            result.index[1] = detail::positions_in(result.result, in_b);
            return result;
        }

        inline std::optional<label_alignment> join_left::align(const labels& a, const labels& b)
        {
            return label_alignment{a, {detail::identity_map(a.size()), detail::positions_in(a, b)}};
        }

        inline std::optional<label_alignment> join_right::align(const labels& a, const labels& b)
        {
            return label_alignment{b, {detail::positions_in(b, a), detail::identity_map(b.size())}};
        }

        template <class S, class Shaping>
        inline broadcast_plan with_shaping<S, Shaping>::plan(const operand& a, const operand& b)
        {
            return S::plan(a, b);
        }

        /************************************
         * implementation of align_labels *
         ************************************/

        namespace detail
        {
            inline void check_alignment(std::string_view operation, std::string_view where,
                                        const label_alignment& result, const labels& a, const labels& b)
            {
                const auto fail = [&](const auto&... why)
                {
                    throw_shape_error(operation, where, where.empty() ? "" : ": ",
                                      "the shaping strategy returned an inconsistent alignment of ",
                                      format_labels(a), " and ", format_labels(b), ": ", why...);
                };
                const labels* operands[2] = {&a, &b};
                // A position taken twice is reported last: a label it points at wrongly says more.
                std::optional<std::pair<std::size_t, std::int64_t>> repeat;
                for (std::size_t k = 0; k < 2; ++k)
                {
                    if (result.index[k].size() != result.result.size())
                    {
                        fail("index[", k, "] has ", result.index[k].size(), " entries for ",
                             result.result.size(), " labels");
                    }
                    check_index_map(
                        result.index[k], operands[k]->size(), named::missing,
                        [&](std::size_t i) {
                            fail("index[", k, "][", i, "] = ", result.index[k][i],
                                 " is no position of operand ", k);
                        },
                        [&](std::size_t i)
                        {
                            if (!repeat)
                            {
                                repeat.emplace(k, result.index[k][i]);
                            }
                        });
                    for (std::size_t i = 0; i < result.result.size(); ++i)
                    {
                        const auto position = result.index[k][i];
                        if (position == named::missing)
                        {
                            continue;
                        }
                        const auto& found = (*operands[k])[static_cast<std::size_t>(position)];
                        if (!label_equal(found, result.result[i]))
                        {
                            fail("index[", k, "][", i, "] = ", position, " points at label ",
                                 format_label(found), " for result label ", format_label(result.result[i]));
                        }
                    }
                }
                // Distinct positions in unique lists give unique result labels, except where both
                // operands are missing: such a label comes from nowhere.
                for (std::size_t i = 0; i < result.result.size(); ++i)
                {
                    if (result.index[0][i] == named::missing && result.index[1][i] == named::missing)
                    {
                        fail("result label ", format_label(result.result[i]), " at position ", i,
                             " is in neither operand");
                    }
                }
                if (repeat)
                {
                    fail("position ", repeat->second, " of operand ", repeat->first,
                         " lands twice in the result");
                }
            }

            template <class S>
            inline label_alignment align_checked(std::string_view operation, std::string_view where,
                                                 const labels& a, const labels& b)
            {
                if (same_labels(a, b))
                {
                    return as_they_are(a);
                }
                // A message about one axis of an operation starts with that axis; align_labels has none.
                const std::string prefix = where.empty() ? std::string() : concat(where, ": ");
                if (!a.empty() && !b.empty() && a.front().index() != b.front().index())
                {
                    throw_label_types_differ(operation, prefix, a, b);
                }
                std::optional<label_alignment> result = S::align(a, b);
                if (!result)
                {
                    throw_labels_not_aligned(operation, prefix, a, b);
                }
                if constexpr (!is_builtin_shaping_v<S>)
                {
                    check_alignment(operation, where, *result, a, b);
                }
                return std::move(*result);
            }
        } // namespace detail

        template <class S>
        inline label_alignment align_labels(const labels& a, const labels& b)
        {
            XTENSOR_NAMED_REQUIRE_SHAPING(S, "xn::align_labels");
            // Only the sentence above is reported for a type that is no shaping strategy.
            if constexpr (is_shaping_v<S>)
            {
                detail::check_labels("align_labels", "the left labels", a);
                detail::check_labels("align_labels", "the right labels", b);
                return detail::align_checked<S>("align_labels", "", a, b);
            }
            else
            {
                return label_alignment();
            }
        }
    } // namespace named
} // namespace xt

#endif
