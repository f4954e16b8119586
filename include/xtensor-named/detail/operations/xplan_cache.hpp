/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

#ifndef XTENSOR_NAMED_DETAIL_XPLAN_CACHE_HPP
#define XTENSOR_NAMED_DETAIL_XPLAN_CACHE_HPP

// The plans of an operation's last few operand layouts. A loop body builds the same operation on
// operands of the same dims and sizes again and again; asking the strategy, checking its answer and
// combining the dims each time costs a few tenths of a microsecond (benchmarks/bench_plans.cpp), a large
// share of an operation on small arrays. Only a strategy whose plan depends on nothing but the dims and
// sizes of its operands may have its plans reused (detail::builtin_strategy: the built-in ones, with a
// shaping strategy or not), and only operands without labels qualify: labels join into the result.

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "../../xdims.hpp"
#include "../../xnamed_expression.hpp"
#include "../expression/xaligned_view.hpp"
#include "xoperand_kinds.hpp"

namespace xt
{
    namespace named
    {
        namespace detail
        {
            /**
             * Up to `capacity` plans of one kind of operation (one strategy, `N` array operands), each
             * under the dims and shapes of the operands that it was made for. The oldest goes first.
             */
            template <class Plan, std::size_t N>
            class plan_cache
            {
            public:
                static constexpr std::size_t capacity = 8;

                /// The plan made for array operands of the dims and shapes of `args` (scalars are
                /// skipped), or nullptr.
                template <class... A>
                const Plan* find(const A&... args) const;

                /// Keeps `plan` for array operands of the dims and shapes of `args`, and returns it.
                template <class... A>
                const Plan& keep(Plan plan, const A&... args);

                std::size_t size() const noexcept;

            private:
                /// What a plan depends on, of one operand: its dims ("?" throughout for a plain
                /// expression) and its sizes.
                struct operand_key
                {
                    bool named = false;
                    named::dims names;
                    view_shape_type shape;
                };

                struct entry
                {
                    std::array<operand_key, N> key;
                    Plan plan;
                };

                template <class A>
                static bool matches(const operand_key& key, const A& a);

                template <class... A>
                static bool matches_all(const std::array<operand_key, N>& key, const A&... args);

                std::vector<entry> m_entries;
                std::size_t m_oldest = 0;
            };

            /// This thread's plan cache for `N`-operand operations under strategy `S`.
            template <class S, class Plan, std::size_t N>
            plan_cache<Plan, N>& thread_plan_cache();

            /*******************************
             * plan_cache implementation   *
             *******************************/

            template <class Plan, std::size_t N>
            template <class A>
            inline bool plan_cache<Plan, N>::matches(const operand_key& key, const A& a)
            {
                const auto& shape = a.shape();
                if (!std::equal(key.shape.begin(), key.shape.end(), shape.begin(), shape.end()))
                {
                    return false;
                }
                if constexpr (is_named_expression_v<A>)
                {
                    return key.named && key.names == a.dims();
                }
                else
                {
                    return !key.named;
                }
            }

            template <class Plan, std::size_t N>
            template <class... A>
            inline bool plan_cache<Plan, N>::matches_all(const std::array<operand_key, N>& key,
                                                         const A&... args)
            {
                std::size_t k = 0;
                bool same = true;
                (
                    [&]
                    {
                        if constexpr (is_array_operand_v<A>)
                        {
                            same = same && matches(key[k], args);
                            ++k;
                        }
                    }(),
                    ...);
                return same;
            }

            template <class Plan, std::size_t N>
            template <class... A>
            inline const Plan* plan_cache<Plan, N>::find(const A&... args) const
            {
                static_assert(array_count_v<A...> == N, "plan_cache: one key per array operand");
                for (const entry& e : m_entries)
                {
                    if (matches_all(e.key, args...))
                    {
                        return &e.plan;
                    }
                }
                return nullptr;
            }

            template <class Plan, std::size_t N>
            template <class... A>
            inline const Plan& plan_cache<Plan, N>::keep(Plan plan, const A&... args)
            {
                static_assert(array_count_v<A...> == N, "plan_cache: one key per array operand");
                entry fresh{{}, std::move(plan)};
                std::size_t k = 0;
                (
                    [&]
                    {
                        if constexpr (is_array_operand_v<A>)
                        {
                            operand_key& key = fresh.key[k++];
                            const auto& shape = args.shape();
                            key.shape.assign(shape.begin(), shape.end());
                            if constexpr (is_named_expression_v<A>)
                            {
                                key.named = true;
                                key.names = args.dims();
                            }
                        }
                    }(),
                    ...);
                if (m_entries.empty())
                {
                    // Once per thread and kind of operation: a later plan moves in without an allocation.
                    m_entries.reserve(capacity);
                }
                if (m_entries.size() < capacity)
                {
                    m_entries.push_back(std::move(fresh));
                    return m_entries.back().plan;
                }
                entry& replaced = m_entries[m_oldest];
                m_oldest = (m_oldest + 1) % capacity;
                replaced = std::move(fresh);
                return replaced.plan;
            }

            template <class Plan, std::size_t N>
            inline std::size_t plan_cache<Plan, N>::size() const noexcept
            {
                return m_entries.size();
            }

            template <class S, class Plan, std::size_t N>
            inline plan_cache<Plan, N>& thread_plan_cache()
            {
                thread_local plan_cache<Plan, N> cache;
                return cache;
            }
        } // namespace detail
    }     // namespace named
} // namespace xt

#endif
