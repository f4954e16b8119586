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

#include "../../xdims.hpp"
#include "../../xnamed_expression.hpp"
#include "../expression/xaligned_view.hpp"
#include "xoperand_refs.hpp"

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

                /// The plan made for operands of the dims and shapes of `refs`, or nullptr.
                const Plan* find(const operand_refs<N>& refs) const;

                /// Keeps `plan` for operands of the dims and shapes of `refs`, and returns it.
                const Plan& keep(Plan plan, const operand_refs<N>& refs);

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

                static bool matches(const std::array<operand_key, N>& key, const operand_refs<N>& refs);

                // In place, not in a std::vector: no allocation, and no code to grow it in every unit.
                std::array<entry, capacity> m_entries{};
                std::size_t m_size = 0;
                std::size_t m_oldest = 0;
            };

            /// This thread's plan cache for `N`-operand operations under strategy `S`.
            template <class S, class Plan, std::size_t N>
            plan_cache<Plan, N>& thread_plan_cache();

            /*******************************
             * plan_cache implementation   *
             *******************************/

            template <class Plan, std::size_t N>
            inline bool plan_cache<Plan, N>::matches(const std::array<operand_key, N>& key,
                                                     const operand_refs<N>& refs)
            {
                for (std::size_t k = 0; k < N; ++k)
                {
                    const operand_ref& ref = refs[k];
                    if (!std::equal(key[k].shape.begin(), key[k].shape.end(), ref.begin(), ref.end()))
                    {
                        return false;
                    }
                    if (ref.metadata != nullptr ? !(key[k].named && key[k].names == ref.metadata->names)
                                                : key[k].named)
                    {
                        return false;
                    }
                }
                return true;
            }

            template <class Plan, std::size_t N>
            inline const Plan* plan_cache<Plan, N>::find(const operand_refs<N>& refs) const
            {
                for (std::size_t i = 0; i < m_size; ++i)
                {
                    if (matches(m_entries[i].key, refs))
                    {
                        return &m_entries[i].plan;
                    }
                }
                return nullptr;
            }

            template <class Plan, std::size_t N>
            inline const Plan& plan_cache<Plan, N>::keep(Plan plan, const operand_refs<N>& refs)
            {
                entry fresh{{}, std::move(plan)};
                for (std::size_t k = 0; k < N; ++k)
                {
                    operand_key& key = fresh.key[k];
                    key.shape.assign(refs[k].begin(), refs[k].end());
                    if (refs[k].metadata != nullptr)
                    {
                        key.named = true;
                        key.names = refs[k].metadata->names;
                    }
                }
                if (m_size < capacity)
                {
                    m_entries[m_size] = std::move(fresh);
                    return m_entries[m_size++].plan;
                }
                entry& replaced = m_entries[m_oldest];
                m_oldest = (m_oldest + 1) % capacity;
                replaced = std::move(fresh);
                return replaced.plan;
            }

            template <class Plan, std::size_t N>
            inline std::size_t plan_cache<Plan, N>::size() const noexcept
            {
                return m_size;
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
