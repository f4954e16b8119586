/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// Evaluation (docs/named_expressions.md, "What a failure leaves"): named operations, reductions
// by name and explicit broadcasts evaluated by xn::eval and xn::assign into outputs of every kind, at
// sizes from 0 to the limits of a 64-bit size, with allocations that fail on demand.
// - Sizes: an operand broadcast by xn::broadcast_to to sizes up to 2^63 - 1 (2^32, 6148914691236517206,
//   arbitrary ones) and combined with another: a result whose element count, row-major strides or bytes
//   do not fit is an xn::shape_error when the operation is built, or when it is assigned to a container
//   of elements of more than one byte, never a wrapped size.
// - Outputs: xt::xarray (xtensor's aligned allocator, or std::allocator), xt::xtensor of rank 2,
//   xt::xtensor_fixed, an xt::view of an array, an xt::adapt of a pointer (no ownership) and of a
//   std::vector, a named array with the expression's axes, perhaps permuted. An output that cannot take the
//   expression's shape refuses it with an xn::shape_error naming both shapes and stays as it was; an
//   output that takes it holds a naive loop's values.
// - Reductions: sum, prod, mean, amax, amin, nansum, nanmean, nanmax, nanmin by name or over every axis,
//   of double (with NaN) and int elements, empty axes included, against a naive loop over the reduced
//   elements.
// - Allocation failure: the operator new of this target throws std::bad_alloc after N allocations (N from
//   the input, then once or from then on), and for any request above 1 GiB, while armed. After a
//   bad_alloc, an output that was to take a new shape is unchanged; one that keeps its shape has its
//   shape, and each element is the old or the new value.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xtensor-named.hpp>

#if XTENSOR_NAMED_XTENSOR_HAS_SUBFOLDERS
#include <xtensor/containers/xfixed.hpp>
#else
#include <xtensor/xfixed.hpp>
#endif

#include "array_model.hpp"
#include "fuzz_check.hpp"

namespace xn = xt::named;

/*************************************
 * allocations that fail on demand *
 *************************************/

namespace
{
    /// While armed, operator new fails the allocation after `countdown` more (once, or every one from
    /// then on when `sticky`), and any request larger than `largest`.
    struct failing_allocations
    {
        bool armed = false;
        long long countdown = -1;
        bool sticky = false;
        std::size_t largest = std::numeric_limits<std::size_t>::max();
        bool failed = false;
    };

    failing_allocations g_alloc;

    void* allocate(std::size_t bytes, std::size_t alignment)
    {
        if (g_alloc.armed)
        {
            bool fail = bytes > g_alloc.largest;
            if (g_alloc.countdown == 0)
            {
                fail = true;
                g_alloc.countdown = g_alloc.sticky ? 0 : -1;
            }
            else if (g_alloc.countdown > 0)
            {
                --g_alloc.countdown;
            }
            if (fail)
            {
                g_alloc.failed = true;
                throw std::bad_alloc();
            }
        }
        bytes = bytes == 0 ? 1 : bytes;
        void* p = alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__
                      ? std::malloc(bytes)
                      : std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
        if (p == nullptr)
        {
            throw std::bad_alloc();
        }
        return p;
    }

    void* allocate_nothrow(std::size_t bytes, std::size_t alignment) noexcept
    {
        try
        {
            return allocate(bytes, alignment);
        }
        catch (const std::bad_alloc&)
        {
            return nullptr;
        }
    }
} // namespace

void* operator new(std::size_t n)
{
    return allocate(n, 0);
}

void* operator new[](std::size_t n)
{
    return allocate(n, 0);
}

void* operator new(std::size_t n, std::align_val_t a)
{
    return allocate(n, static_cast<std::size_t>(a));
}

void* operator new[](std::size_t n, std::align_val_t a)
{
    return allocate(n, static_cast<std::size_t>(a));
}

void* operator new(std::size_t n, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(n, 0);
}

void* operator new[](std::size_t n, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(n, 0);
}

void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(n, static_cast<std::size_t>(a));
}

void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
    return allocate_nothrow(n, static_cast<std::size_t>(a));
}

void operator delete(void* p) noexcept
{
    std::free(p);
}

void operator delete[](void* p) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete[](void* p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::align_val_t) noexcept
{
    std::free(p);
}

void operator delete[](void* p, std::align_val_t) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}

void operator delete[](void* p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}

void operator delete(void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}

void operator delete[](void* p, const std::nothrow_t&) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    std::free(p);
}

void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    std::free(p);
}

namespace
{
    using xn_fuzz::element_count;
    using xn_fuzz::flat;
    using xn_fuzz::for_each_index;
    using xn_fuzz::largest_evaluated;
    using xn_fuzz::outcome;
    using xn_fuzz::shape_type;

    /// How the allocations of one call fail: never, or as failing_allocations says.
    struct alloc_plan
    {
        bool on = false;
        long long after = -1;
        bool sticky = false;
        std::size_t largest = std::numeric_limits<std::size_t>::max();
    };

    /// Arms the failing allocations for its lifetime.
    class armed_scope
    {
    public:
        explicit armed_scope(const alloc_plan& plan)
        {
            g_alloc.failed = false;
            if (plan.on)
            {
                g_alloc.countdown = plan.after;
                g_alloc.sticky = plan.sticky;
                g_alloc.largest = plan.largest;
                g_alloc.armed = true;
            }
        }

        ~armed_scope()
        {
            g_alloc.armed = false;
        }

        armed_scope(const armed_scope&) = delete;
        armed_scope& operator=(const armed_scope&) = delete;
    };

    constexpr std::size_t one_gib = std::size_t(1) << 30;

    // Products of two 64-bit sizes, exactly.
    __extension__ typedef unsigned __int128 wide_size;

    /// What one call did: an outcome of xn_fuzz::run, or a std::bad_alloc of the armed allocations.
    struct attempt_result
    {
        outcome got = outcome::ok;
        bool out_of_memory = false;
    };

    template <class F>
    attempt_result attempt(const char* what, const alloc_plan& plan, F&& f)
    {
        attempt_result r;
        r.got = xn_fuzz::run(what,
                             [&]
                             {
                                 try
                                 {
                                     armed_scope scope(plan);
                                     f();
                                 }
                                 catch (const std::bad_alloc&)
                                 {
                                     if (!plan.on || !g_alloc.failed)
                                     {
                                         throw;
                                     }
                                     r.out_of_memory = true;
                                 }
                             });
        return r;
    }

    /*****************
     * sizes, shapes *
     *****************/

    constexpr std::uint64_t int64_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

    /// Sizes whose products wrap: 3 x 6148914691236517206 = 2^64 + 2, (2^32)^2 = 2^64, and their kin.
    constexpr std::uint64_t huge_sizes[] = {
        std::uint64_t(1) << 32,
        (std::uint64_t(1) << 32) + 1,
        std::uint64_t(1) << 31,
        6148914691236517206ull,
        3074457345618258603ull,
        3689348814741910324ull,
        std::uint64_t(1) << 60,
        (std::uint64_t(1) << 60) + 1,
        std::uint64_t(1) << 61,
        std::uint64_t(1) << 62,
        int64_max,
        std::uint64_t(1) << 21,
        std::uint64_t(1) << 40,
        1152921504606846977ull,
        4294967297ull * 3,
        std::uint64_t(1) << 63,
    };

    std::uint64_t pick_size(FuzzedDataProvider& fdp)
    {
        const int how = fdp.ConsumeIntegralInRange<int>(0, 15);
        if (how < 8)
        {
            return fdp.ConsumeIntegralInRange<std::uint64_t>(0, 3);
        }
        if (how < 14)
        {
            return huge_sizes[fdp.ConsumeIntegralInRange<std::size_t>(0, std::size(huge_sizes) - 1)];
        }
        return fdp.ConsumeIntegral<std::uint64_t>();
    }

    /// The names of the axes of rank `rank` by position from the right: numpy's line-up gives the same
    /// axes the same names.
    xn::dims positional_dims(std::size_t rank)
    {
        static const char* const names[] = {"w", "x", "y", "z"};
        std::vector<std::string> out;
        for (std::size_t i = 4 - rank; i < 4; ++i)
        {
            out.emplace_back(names[i]);
        }
        return xn::dims(std::move(out));
    }

    /// Whether xtensor can make a container of `shape` with elements of `bytes` bytes: every product of
    /// the sizes from the right (the strides, then the count) fits in xtensor's strides, std::ptrdiff_t,
    /// and the bytes in the largest object. A 0 makes every product to its left 0.
    bool fits(const shape_type& shape, std::size_t bytes, wide_size limit = int64_max)
    {
        wide_size product = 1;
        for (std::size_t i = shape.size(); i-- > 0;)
        {
            product *= shape[i];
            if (product > limit)
            {
                return false;
            }
        }
        return product * bytes <= static_cast<wide_size>(std::numeric_limits<std::ptrdiff_t>::max());
    }

    /// numpy's broadcast of two shapes, or nothing.
    std::optional<shape_type> numpy_broadcast(const shape_type& a, const shape_type& b)
    {
        const std::size_t rank = std::max(a.size(), b.size());
        shape_type out(rank);
        for (std::size_t i = 0; i < rank; ++i)
        {
            const std::size_t sa = i < a.size() ? a[a.size() - 1 - i] : 1;
            const std::size_t sb = i < b.size() ? b[b.size() - 1 - i] : 1;
            if (sa != sb && sa != 1 && sb != 1)
            {
                return std::nullopt;
            }
            out[rank - 1 - i] = sa == 1 ? sb : sa;
        }
        return out;
    }

    /// Position in `source` (right-aligned under `index`, size-1 axes read at 0).
    std::size_t broadcast_flat(const shape_type& index, const shape_type& source)
    {
        shape_type from(source.size());
        const std::size_t offset = index.size() - source.size();
        for (std::size_t j = 0; j < source.size(); ++j)
        {
            from[j] = source[j] == 1 ? 0 : index[offset + j];
        }
        return flat(from, source);
    }

    template <class A>
    shape_type shape_of(const A& a)
    {
        return shape_type(a.shape().begin(), a.shape().end());
    }

    /// What an output shows: its shape and its values as double, in row-major order.
    struct observed
    {
        shape_type shape;
        std::vector<double> values;
    };

    template <class A>
    observed observe(const A& a)
    {
        observed o{shape_of(a), {}};
        for (auto it = a.cbegin(); it != a.cend(); ++it)
        {
            o.values.push_back(static_cast<double>(*it));
        }
        return o;
    }

    bool same_value(double a, double b)
    {
        return (std::isnan(a) && std::isnan(b)) || a == b;
    }

    bool same_values(const std::vector<double>& a, const std::vector<double>& b)
    {
        if (a.size() != b.size())
        {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i)
        {
            if (!same_value(a[i], b[i]))
            {
                return false;
            }
        }
        return true;
    }

    std::string sizes_text(const shape_type& s)
    {
        std::string out = "(";
        for (std::size_t i = 0; i < s.size(); ++i)
        {
            out += (i == 0 ? "" : ", ") + std::to_string(s[i]);
        }
        return out + ")";
    }

    /// The expression being evaluated, for messages.
    std::string g_expression;

    std::string values_text(const std::vector<double>& v)
    {
        std::string out = "{";
        for (std::size_t i = 0; i < v.size() && i < 16; ++i)
        {
            out += (i == 0 ? "" : ", ") + std::to_string(v[i]);
        }
        return out + (v.size() > 16 ? ", ...}" : "}");
    }

    /// What an evaluation must give: the result's shape, and its values where it is small enough.
    struct expectation
    {
        shape_type shape;
        std::optional<std::vector<double>> values;
    };

    /****************************************
     * one call of xn::assign, and its model *
     ****************************************/

    /// How an output takes a result: resizable (a new shape if needed), of static rank 2 (resizable),
    /// or fixed (a view, a fixed shape, an adaptor of memory it does not own: only its own shape).
    enum class output_rule
    {
        resizable,
        rank_two,
        fixed
    };

    /**
     * xn::assign(out, make()), where `out` shows `seen()` (the output, or the array a view is of), and
     * `region(observed before)` gives what `seen()` must show after a successful assignment. The call
     * must refuse with xn::shape_error exactly what `rule` refuses, and never write when it does; after
     * an allocation failure the output keeps its shape, and its values where it was to take a new shape.
     * `can_grow_huge` says whether its allocations go through this target's operator new, so that a
     * result too large to evaluate here may be tried with allocations above 1 GiB failing.
     */
    template <class Out, class Make, class Seen, class Region>
    void check_assign(const char* kind, Out&& out, Make& make, Seen&& seen, Region&& region, output_rule rule,
                      const shape_type& current, const expectation& want, std::size_t element_bytes,
                      bool can_grow_huge, alloc_plan plan, bool may_refuse_by_name = false)
    {
        const shape_type& result = want.shape;
        bool refused = false;
        bool new_shape = current != result;
        if (rule == output_rule::rank_two && result.size() != 2)
        {
            refused = true;
        }
        else if (rule == output_rule::fixed && new_shape)
        {
            refused = true;
        }
        else if (new_shape && !fits(result, element_bytes))
        {
            refused = true;
        }
        if (!refused && !want.values)
        {
            // Too large to evaluate: tried only where the allocation of more than 1 GiB fails first.
            if (!can_grow_huge || !new_shape || element_count(result) <= one_gib / element_bytes)
            {
                return;
            }
            plan.on = true;
            plan.largest = one_gib;
        }
        const observed before = seen();
        std::string message;
        const auto r = attempt(kind, plan,
                               [&]
                               {
                                   try
                                   {
                                       xn::assign(out, make());
                                   }
                                   catch (const xn::shape_error& e)
                                   {
                                       message = e.what();
                                       throw;
                                   }
                               });
        const observed after = seen();
        if (r.out_of_memory)
        {
            XN_FUZZ_CHECK(after.shape == before.shape,
                          (kind, ": after std::bad_alloc the output's shape changed from ",
                           sizes_text(before.shape), " to ", sizes_text(after.shape)));
            if (refused || new_shape)
            {
                XN_FUZZ_CHECK(
                    same_values(after.values, before.values),
                    (kind, ": after std::bad_alloc an output that was to take a new shape changed"));
            }
            else
            {
                const observed full = region(before);
                for (std::size_t i = 0; i < after.values.size(); ++i)
                {
                    XN_FUZZ_CHECK(same_value(after.values[i], before.values[i]) ||
                                      same_value(after.values[i], full.values[i]),
                                  (kind, ": after std::bad_alloc element ", i, " is ", after.values[i],
                                   ", neither the old ", before.values[i], " nor the new ", full.values[i]));
                }
            }
            return;
        }
        if (may_refuse_by_name && r.got == outcome::name_error)
        {
            XN_FUZZ_CHECK(after.shape == before.shape && same_values(after.values, before.values),
                          (kind, ": an assignment refused by name changed the output"));
            return;
        }
        if (refused)
        {
            XN_FUZZ_CHECK(r.got == outcome::shape_error,
                          (kind, ": expected xn::shape_error for the result ", sizes_text(result),
                           " into the output ", sizes_text(current), ", got ", xn_fuzz::outcome_name(r.got)));
            XN_FUZZ_CHECK(after.shape == before.shape && same_values(after.values, before.values),
                          (kind, ": a refused assignment changed the output"));
            if (rule == output_rule::fixed || fits(result, 1))
            {
                XN_FUZZ_CHECK(message.find(sizes_text(result)) != std::string::npos,
                              (kind, ": the message does not name the result's shape ", sizes_text(result),
                               ": ", message));
            }
            if (rule == output_rule::fixed)
            {
                XN_FUZZ_CHECK(message.find(sizes_text(current)) != std::string::npos,
                              (kind, ": the message does not name the output's shape ", sizes_text(current),
                               ": ", message));
            }
            return;
        }
        XN_FUZZ_CHECK(r.got == outcome::ok,
                      (kind, ": expected success for the result ", sizes_text(result), " into the output ",
                       sizes_text(current), ", got ", xn_fuzz::outcome_name(r.got), ": ", message));
        XN_FUZZ_CHECK(want.values.has_value(), (kind, ": a result too large to evaluate was assigned"));
        const observed full = region(before);
        XN_FUZZ_CHECK(after.shape == full.shape,
                      (kind, ": shape ", sizes_text(after.shape), ", not ", sizes_text(full.shape)));
        for (std::size_t i = 0; i < full.values.size(); ++i)
        {
            XN_FUZZ_CHECK(same_value(after.values[i], full.values[i]),
                          (kind, " of ", g_expression, ": element ", i, " is ", after.values[i], ", not ",
                           full.values[i]));
        }
    }

    /// The values of the outputs and of the broadcast sources come from a generator seeded by the input,
    /// so that the input's bytes go to the shapes, the operations and the failures.
    std::uint32_t g_seed = 0;

    template <class V>
    std::vector<V> some_values(std::size_t n)
    {
        std::vector<V> v(n);
        for (auto& x : v)
        {
            g_seed = g_seed * 1664525u + 1013904223u;
            x = static_cast<V>(static_cast<int>((g_seed >> 16) % 199) - 99);
        }
        return v;
    }

    shape_type small_shape(FuzzedDataProvider& fdp, std::size_t max_rank)
    {
        shape_type s(fdp.ConsumeIntegralInRange<std::size_t>(0, max_rank));
        for (auto& x : s)
        {
            x = fdp.ConsumeIntegralInRange<std::size_t>(0, 3);
        }
        return s;
    }

    /// The output's shape: the result's now and then, so that the in-place paths are taken too.
    shape_type output_shape(FuzzedDataProvider& fdp, const shape_type& result, std::size_t max_rank)
    {
        if (fdp.ConsumeBool() && result.size() <= max_rank && fits(result, 8) && element_count(result) <= 64)
        {
            return result;
        }
        return small_shape(fdp, max_rank);
    }

    /// Which call of check_outputs fails its allocations (in the order of the calls: xn::eval, then each
    /// output), and how; chosen at the start of the input, so that a short input reaches every call.
    int g_failing_call = -1;
    alloc_plan g_failing_plan;

    alloc_plan make_plan(bool failing, int call)
    {
        return failing && call == g_failing_call ? g_failing_plan : alloc_plan{};
    }

    /// `observed` of a result: `want`'s shape and values.
    observed result_of(const expectation& want)
    {
        return {want.shape, want.values ? *want.values : std::vector<double>{}};
    }

    /**
     * Assigns the named expression `make()` (value type V, dims `dims`) to outputs of every kind (only
     * the resizable ones and xn::eval when `all_kinds` is false), each from its own state.
     */
    template <class V, class Make>
    void check_outputs(FuzzedDataProvider& fdp, Make make, const xn::dims& dims, const expectation& want,
                       bool all_kinds, bool failing)
    {
        const shape_type& result = want.shape;
        const auto same = [&](const observed&) { return result_of(want); };

        // xn::eval: a new container, or a refusal.
        {
            const bool refused = !fits(result, sizeof(V));
            if (refused || want.values)
            {
                std::optional<observed> got;
                const auto r =
                    attempt("xn::eval", make_plan(failing, 0),
                            [&]
                            {
                                const auto e = xn::eval(make());
                                XN_FUZZ_CHECK(e.dims() == dims, ("xn::eval: dims ", e.dims().to_string()));
                                got = observe(e.expression());
                            });
                if (!r.out_of_memory)
                {
                    XN_FUZZ_CHECK(r.got == (refused ? outcome::shape_error : outcome::ok),
                                  ("xn::eval of ", sizes_text(result), ": ", xn_fuzz::outcome_name(r.got)));
                    if (!refused)
                    {
                        XN_FUZZ_CHECK(got->shape == result && same_values(got->values, *want.values),
                                      ("xn::eval of ", g_expression, ": shape ", sizes_text(got->shape),
                                       " and values ", values_text(got->values), ", not ", sizes_text(result),
                                       " and ", values_text(*want.values)));
                    }
                }
            }
        }

        // xt::xarray with xtensor's allocator (not this target's operator new).
        {
            const auto s = output_shape(fdp, result, 4);
            xt::xarray<V> out = xt::adapt(some_values<V>(element_count(s)), s);
            check_assign(
                "xt::xarray", out, make, [&] { return observe(out); }, same, output_rule::resizable, s, want,
                sizeof(V), false, make_plan(failing, 1));
        }
        // xt::xarray with std::allocator: its elements come from this target's operator new.
        {
            const auto s = output_shape(fdp, result, 4);
            using array_type = xt::xarray<V, XTENSOR_DEFAULT_LAYOUT, std::allocator<V>>;
            array_type out = xt::adapt(some_values<V>(element_count(s)), s);
            check_assign(
                "xt::xarray<std::allocator>", out, make, [&] { return observe(out); }, same,
                output_rule::resizable, s, want, sizeof(V), true, make_plan(failing, 2));
        }
        // A named output, its axes a permutation of the expression's: assigned by name, or refused with
        // an xn::name_error that leaves it as it was.
        {
            std::vector<std::size_t> perm(result.size());
            for (std::size_t i = 0; i < perm.size(); ++i)
            {
                perm[i] = i;
            }
            for (std::size_t i = perm.size(); i-- > 1;)
            {
                std::swap(perm[i], perm[fdp.ConsumeIntegralInRange<std::size_t>(0, i)]);
            }
            std::vector<std::string> names;
            shape_type permuted;
            for (auto p : perm)
            {
                names.push_back(dims[p]);
                permuted.push_back(result[p]);
            }
            expectation moved{permuted, std::nullopt};
            if (want.values)
            {
                std::vector<double> values(want.values->size());
                for_each_index(permuted,
                               [&](const shape_type& index)
                               {
                                   shape_type from(result.size());
                                   for (std::size_t i = 0; i < perm.size(); ++i)
                                   {
                                       from[perm[i]] = index[i];
                                   }
                                   values[flat(index, permuted)] = (*want.values)[flat(from, result)];
                               });
                moved.values = std::move(values);
            }
            // A permutation of a shape of no element may not fit: (2, 2^62, 0) as (0, 2, 2^62).
            const auto s = fdp.ConsumeBool() && want.values && fits(permuted, 8) ? shape_type(permuted)
                                                                                 : small_shape(fdp, 4);
            if (s.size() == permuted.size())
            {
                using array_type = xt::xarray<V, XTENSOR_DEFAULT_LAYOUT, std::allocator<V>>;
                array_type values = xt::adapt(some_values<V>(element_count(s)), s);
                auto out = xn::name(values, xn::dims(names));
                check_assign(
                    "a named xt::xarray", out, make, [&] { return observe(values); },
                    [&](const observed&) { return result_of(moved); }, output_rule::resizable, s, moved,
                    sizeof(V), true, make_plan(failing, 3), xn::dims(names) != dims);
            }
        }
        if (!all_kinds)
        {
            return;
        }
        // xt::xtensor of static rank 2.
        {
            const auto s = output_shape(fdp, result, 2);
            if (s.size() == 2)
            {
                using tensor_type = xt::xtensor<V, 2, XTENSOR_DEFAULT_LAYOUT, std::allocator<V>>;
                tensor_type out = xt::adapt(some_values<V>(element_count(s)), s);
                check_assign(
                    "xt::xtensor<2>", out, make, [&] { return observe(out); }, same, output_rule::rank_two, s,
                    want, sizeof(V), true, make_plan(failing, 4));
            }
        }
        // xt::xtensor_fixed of shapes (3) and (2, 3).
        {
            xt::xtensor_fixed<V, xt::xshape<3>> out;
            const auto v = some_values<V>(3);
            std::copy(v.begin(), v.end(), out.begin());
            check_assign(
                "xt::xtensor_fixed<3>", out, make, [&] { return observe(out); }, same, output_rule::fixed,
                shape_type{3}, want, sizeof(V), false, make_plan(failing, 5));
        }
        {
            xt::xtensor_fixed<V, xt::xshape<2, 3>> out;
            const auto v = some_values<V>(6);
            std::copy(v.begin(), v.end(), out.begin());
            check_assign(
                "xt::xtensor_fixed<2, 3>", out, make, [&] { return observe(out); }, same, output_rule::fixed,
                shape_type{2, 3}, want, sizeof(V), false, make_plan(failing, 6));
        }
        // An xt::view of rows and columns of a 4 x 4 array: the elements outside it stay as they were.
        {
            xt::xarray<V> base = xt::adapt(some_values<V>(16), shape_type{4, 4});
            const auto r0 = fdp.ConsumeIntegralInRange<std::size_t>(0, 4);
            const auto r1 = fdp.ConsumeIntegralInRange<std::size_t>(r0, 4);
            const auto c0 = fdp.ConsumeIntegralInRange<std::size_t>(0, 4);
            const auto c1 = fdp.ConsumeIntegralInRange<std::size_t>(c0, 4);
            auto out = xt::view(base, xt::range(r0, r1), xt::range(c0, c1));
            const auto region = [&](const observed& before)
            {
                observed full = before;
                if (want.values && result == shape_type{r1 - r0, c1 - c0})
                {
                    for (std::size_t i = r0; i < r1; ++i)
                    {
                        for (std::size_t j = c0; j < c1; ++j)
                        {
                            full.values[i * 4 + j] = (*want.values)[(i - r0) * (c1 - c0) + (j - c0)];
                        }
                    }
                }
                return full;
            };
            check_assign(
                "xt::view", out, make, [&] { return observe(base); }, region, output_rule::fixed,
                shape_type{r1 - r0, c1 - c0}, want, sizeof(V), false, make_plan(failing, 7));
        }
        // An xt::adapt of a pointer, without ownership: it keeps its shape.
        {
            const auto s = output_shape(fdp, result, 4);
            std::vector<V> storage = some_values<V>(element_count(s));
            auto out = xt::adapt(storage.data(), storage.size(), xt::no_ownership(), s);
            check_assign(
                "xt::adapt(pointer, no_ownership)", out, make, [&] { return observe(out); }, same,
                output_rule::fixed, s, want, sizeof(V), false, make_plan(failing, 8));
            XN_FUZZ_CHECK(storage.size() == element_count(s),
                          ("xt::adapt(pointer): the storage changed size"));
        }
        // An xt::adapt of a std::vector, which grows: it takes a new shape. Its new elements are first
        // evaluated into xtensor's own container, so a result too large to evaluate is not tried.
        {
            const auto s = output_shape(fdp, result, 4);
            std::vector<V> storage = some_values<V>(element_count(s));
            auto out = xt::adapt(storage, s);
            check_assign(
                "xt::adapt(std::vector)", out, make,
                [&]
                {
                    XN_FUZZ_CHECK(storage.size() >= out.size(),
                                  ("xt::adapt(std::vector): ", storage.size(), " elements for the shape ",
                                   sizes_text(shape_of(out))));
                    return observe(out);
                },
                same, output_rule::resizable, s, want, sizeof(V), false, make_plan(failing, 9));
        }
    }

    /***********************************************
     * sizes near the limits: broadcast_to + an op *
     ***********************************************/

    /// An operand: a small array broadcast by xn::broadcast_to to `shape` (any sizes).
    struct big_operand
    {
        shape_type shape;
        xt::xarray<double> source;
    };

    big_operand make_big(FuzzedDataProvider& fdp)
    {
        big_operand o;
        const auto rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 3);
        for (std::size_t i = 0; i < rank; ++i)
        {
            o.shape.push_back(static_cast<std::size_t>(pick_size(fdp)));
        }
        // The source: trailing axes of the target, each of size 1 or (when small) the target's size.
        shape_type source_shape;
        const auto kept = fdp.ConsumeIntegralInRange<std::size_t>(0, rank);
        for (std::size_t i = rank - kept; i < rank; ++i)
        {
            source_shape.push_back(o.shape[i] <= 3 && fdp.ConsumeBool() ? o.shape[i] : 1);
        }
        o.source = xt::adapt(some_values<double>(element_count(source_shape)), source_shape);
        return o;
    }

    /// broadcast_to's refusal of a target shape: a size or a product beyond 2^63 - 1.
    bool broadcast_to_refuses(const shape_type& shape)
    {
        for (auto s : shape)
        {
            if (s > int64_max)
            {
                return true;
            }
        }
        return !fits(shape, 0, int64_max);
    }

    void fuzz_limits(FuzzedDataProvider& fdp, bool failing)
    {
        const big_operand a = make_big(fdp);
        const big_operand b = make_big(fdp);
        for (const auto* o : {&a, &b})
        {
            XN_FUZZ_EXPECT(xn::broadcast_to(o->source, o->shape),
                           broadcast_to_refuses(o->shape) ? outcome::shape_error : outcome::ok,
                           ("broadcast_to ", sizes_text(o->shape)));
        }
        if (broadcast_to_refuses(a.shape) || broadcast_to_refuses(b.shape))
        {
            return;
        }
        const auto na =
            xn::name<xn::numpy>(xn::broadcast_to(a.source, a.shape), positional_dims(a.shape.size()));
        const auto nb =
            xn::name<xn::numpy>(xn::broadcast_to(b.source, b.shape), positional_dims(b.shape.size()));
        const auto result = numpy_broadcast(a.shape, b.shape);
        outcome expected = outcome::ok;
        if (!result)
        {
            expected = outcome::broadcast_error;
        }
        else if (!fits(*result, 1))
        {
            expected = outcome::shape_error;
        }
        XN_FUZZ_EXPECT(na + nb, expected, ("the sum of ", sizes_text(a.shape), " and ", sizes_text(b.shape)));
        if (expected != outcome::ok)
        {
            return;
        }
        const auto make = [&] { return na + nb; };
        const auto dims = positional_dims(result->size());
        {
            const auto e = make();
            XN_FUZZ_CHECK(e.dims() == dims && shape_of(e) == *result,
                          ("the sum: dims ", e.dims().to_string(), ", shape ", sizes_text(shape_of(e))));
        }
        expectation want{*result, std::nullopt};
        if (element_count(*result) <= largest_evaluated)
        {
            std::vector<double> values;
            for_each_index(*result,
                           [&](const shape_type& index)
                           {
                               values.push_back(a.source.data()[broadcast_flat(index, shape_of(a.source))] +
                                                b.source.data()[broadcast_flat(index, shape_of(b.source))]);
                           });
            want.values = std::move(values);
        }
        check_outputs<double>(fdp, make, dims, want, fdp.ConsumeBool(), failing);

        // A reduction of the sum by name is built lazily whatever its size: its refusals and shape.
        if (!result->empty())
        {
            const auto axis = fdp.ConsumeIntegralInRange<std::size_t>(0, result->size() - 1);
            const std::vector<std::string> names{dims[axis]};
            const bool empty_axis = (*result)[axis] == 0;
            XN_FUZZ_EXPECT(xn::amax(na + nb, names), empty_axis ? outcome::shape_error : outcome::ok,
                           ("amax over ", dims[axis], " of ", sizes_text(*result)));
            XN_FUZZ_EXPECT(xn::sum(na + nb, names), outcome::ok, ("sum over ", dims[axis]));
            const auto s = xn::sum(na + nb, names);
            shape_type kept = *result;
            kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(axis));
            XN_FUZZ_CHECK(shape_of(s) == kept,
                          ("sum over ", dims[axis], ": shape ", sizes_text(shape_of(s))));
        }
    }

    /********************************************
     * values: elementwise and every reduction *
     ********************************************/

    enum class reducer_kind
    {
        sum,
        prod,
        mean,
        amax,
        amin,
        nansum,
        nanmean,
        nanmax,
        nanmin
    };

    constexpr const char* reducer_names[] = {"sum",    "prod",    "mean",   "amax",  "amin",
                                             "nansum", "nanmean", "nanmax", "nanmin"};

    bool needs_elements(reducer_kind k)
    {
        return k == reducer_kind::amax || k == reducer_kind::amin || k == reducer_kind::nanmax ||
               k == reducer_kind::nanmin;
    }

    /// The naive reduction of `values` (the reduced elements of one result element).
    double naive_reduce(reducer_kind k, const std::vector<double>& values)
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        double sum = 0.0;
        double nansum = 0.0;
        double prod = 1.0;
        std::size_t not_nan = 0;
        bool any_nan = false;
        std::optional<double> nanmax, nanmin;
        for (double v : values)
        {
            sum += v;
            prod *= v;
            if (std::isnan(v))
            {
                any_nan = true;
                continue;
            }
            nansum += v;
            ++not_nan;
            nanmax = nanmax ? std::max(*nanmax, v) : v;
            nanmin = nanmin ? std::min(*nanmin, v) : v;
        }
        switch (k)
        {
            case reducer_kind::sum:
                return sum;
            case reducer_kind::prod:
                return prod;
            case reducer_kind::mean:
                return sum / static_cast<double>(values.size());
            case reducer_kind::amax:
                return any_nan ? nan : *nanmax;
            case reducer_kind::amin:
                return any_nan ? nan : *nanmin;
            case reducer_kind::nansum:
                return nansum;
            case reducer_kind::nanmean:
                return nansum / static_cast<double>(not_nan);
            case reducer_kind::nanmax:
                return nanmax ? *nanmax : nan;
            case reducer_kind::nanmin:
                return nanmin ? *nanmin : nan;
        }
        return nan;
    }

    template <class T>
    xt::xarray<T> make_values(FuzzedDataProvider& fdp, const shape_type& shape, bool with_nan, int low,
                              int high)
    {
        xt::xarray<T> a = xt::zeros<T>(shape);
        for (auto& v : a)
        {
            if constexpr (std::is_floating_point<T>::value)
            {
                if (with_nan && fdp.ConsumeIntegralInRange<int>(0, 5) == 0)
                {
                    v = fdp.ConsumeBool() ? std::numeric_limits<T>::quiet_NaN()
                                          : -std::numeric_limits<T>::quiet_NaN();
                    continue;
                }
            }
            v = static_cast<T>(fdp.ConsumeIntegralInRange<int>(low, high));
        }
        return a;
    }

    template <class R>
    void fuzz_reduction(FuzzedDataProvider& fdp, reducer_kind k, const xn::dims& dims,
                        const shape_type& shape, const std::vector<double>& input, R reduce, bool failing)
    {
        const char* name = reducer_names[static_cast<int>(k)];
        // The axes: every axis (no list), or a list of names, now and then one unknown or repeated. The
        // names are taken in their order, and the first that is unknown, repeated or (for a reduction
        // that needs elements) an empty axis is refused.
        const bool all = fdp.ConsumeIntegralInRange<int>(0, 4) == 0;
        std::vector<std::size_t> listed;
        std::vector<std::string> names;
        if (all)
        {
            for (std::size_t i = 0; i < shape.size(); ++i)
            {
                listed.push_back(i);
            }
        }
        else
        {
            const auto n = fdp.ConsumeIntegralInRange<std::size_t>(0, shape.size() + 1);
            for (std::size_t i = 0; i < n; ++i)
            {
                const auto at = fdp.ConsumeIntegralInRange<std::size_t>(0, shape.size());
                listed.push_back(at);
                names.push_back(at == shape.size() ? std::string("q") : dims[at]);
            }
        }
        std::vector<bool> reduced(shape.size(), false);
        outcome expected = outcome::ok;
        for (auto at : listed)
        {
            if (at == shape.size() || reduced[at])
            {
                expected = outcome::name_error;
                break;
            }
            if (needs_elements(k) && shape[at] == 0)
            {
                expected = outcome::shape_error;
                break;
            }
            reduced[at] = true;
        }
        const auto make = [&] { return all ? reduce(nullptr) : reduce(&names); };
        g_expression = std::string(name) + " over " +
                       (all ? std::string("every axis") : std::to_string(names.size()) + " names") + " of " +
                       sizes_text(shape);
        XN_FUZZ_EXPECT(
            make(), expected,
            (name, " over ", all ? std::string("every axis") : std::to_string(names.size()) + " names"));
        if (expected != outcome::ok)
        {
            return;
        }
        shape_type kept;
        std::vector<std::string> kept_names;
        for (std::size_t i = 0; i < shape.size(); ++i)
        {
            if (!reduced[i])
            {
                kept.push_back(shape[i]);
                kept_names.push_back(dims[i]);
            }
        }
        std::vector<std::vector<double>> groups(element_count(kept));
        for_each_index(shape,
                       [&](const shape_type& index)
                       {
                           shape_type to;
                           for (std::size_t i = 0; i < shape.size(); ++i)
                           {
                               if (!reduced[i])
                               {
                                   to.push_back(index[i]);
                               }
                           }
                           groups[flat(to, kept)].push_back(input[flat(index, shape)]);
                       });
        std::vector<double> values;
        for (const auto& g : groups)
        {
            values.push_back(naive_reduce(k, g));
        }
        using value_type = typename std::decay_t<decltype(make().expression())>::value_type;
        check_outputs<value_type>(fdp, make, xn::dims(kept_names), expectation{kept, values},
                                  k == reducer_kind::sum || fdp.ConsumeIntegralInRange<int>(0, 7) == 0,
                                  failing);
    }

    template <class T>
    void fuzz_values(FuzzedDataProvider& fdp, bool failing)
    {
        const auto shape = small_shape(fdp, 4);
        const auto dims = positional_dims(shape.size());
        const int what = fdp.ConsumeIntegralInRange<int>(0, 9);
        if (what == 9)
        {
            // Elementwise: a + b, b numpy-broadcastable to a (or, now and then, not).
            const auto a_values = make_values<T>(fdp, shape, true, -9, 9);
            shape_type b_shape(shape.begin() + static_cast<std::ptrdiff_t>(
                                                   fdp.ConsumeIntegralInRange<std::size_t>(0, shape.size())),
                               shape.end());
            for (auto& s : b_shape)
            {
                const int how = fdp.ConsumeIntegralInRange<int>(0, 7);
                s = how == 0 ? 1 : how == 1 ? fdp.ConsumeIntegralInRange<std::size_t>(0, 3) : s;
            }
            const auto b_values = make_values<T>(fdp, b_shape, true, -9, 9);
            const auto a = xn::name<xn::numpy>(a_values, dims);
            const auto b = xn::name<xn::numpy>(b_values, positional_dims(b_shape.size()));
            const auto result = numpy_broadcast(shape, b_shape);
            XN_FUZZ_EXPECT(a + b, result ? outcome::ok : outcome::broadcast_error, ("a + b"));
            if (!result)
            {
                return;
            }
            std::vector<double> values;
            for_each_index(*result,
                           [&](const shape_type& index)
                           {
                               values.push_back(
                                   static_cast<double>(a_values.data()[broadcast_flat(index, shape)]) +
                                   static_cast<double>(b_values.data()[broadcast_flat(index, b_shape)]));
                           });
            check_outputs<T>(
                fdp, [&] { return a + b; }, positional_dims(result->size()), expectation{*result, values},
                true, failing);
            return;
        }
        const auto k = static_cast<reducer_kind>(what);
        // Products of -2..2 (-1..1 for int) are exact in any order; sums of -9..9 are exact.
        const bool narrow = k == reducer_kind::prod;
        const auto a_values =
            make_values<T>(fdp, shape, true, narrow ? (std::is_integral<T>::value ? -1 : -2) : -9,
                           narrow ? (std::is_integral<T>::value ? 1 : 2) : 9);
        std::vector<double> input;
        for (auto v : a_values)
        {
            input.push_back(static_cast<double>(v));
        }
        const auto a = xn::name(a_values, dims);
        const auto go = [&](auto reduce) { fuzz_reduction(fdp, k, dims, shape, input, reduce, failing); };
#define XN_FUZZ_REDUCER(NAME)                                                                                \
    case reducer_kind::NAME:                                                                                 \
        go([&](const std::vector<std::string>* names)                                                        \
           { return names ? xn::NAME(a, *names) : xn::NAME(a); });                                           \
        break;
        switch (k)
        {
            XN_FUZZ_REDUCER(sum)
            XN_FUZZ_REDUCER(prod)
            XN_FUZZ_REDUCER(mean)
            XN_FUZZ_REDUCER(amax)
            XN_FUZZ_REDUCER(amin)
            XN_FUZZ_REDUCER(nansum)
            XN_FUZZ_REDUCER(nanmean)
            XN_FUZZ_REDUCER(nanmax)
            XN_FUZZ_REDUCER(nanmin)
        }
#undef XN_FUZZ_REDUCER
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    const int mode = fdp.ConsumeIntegralInRange<int>(0, 5);
    // The allocation failures in one input of four.
    const bool failing = fdp.ConsumeIntegralInRange<int>(0, 3) == 0;
    if (failing)
    {
        g_failing_call = fdp.ConsumeIntegralInRange<int>(0, 9);
        g_failing_plan.on = true;
        g_failing_plan.after = fdp.ConsumeIntegralInRange<long long>(0, 63);
        g_failing_plan.sticky = fdp.ConsumeBool();
    }
    g_seed = fdp.ConsumeIntegral<std::uint8_t>();
    switch (mode)
    {
        case 0:
        case 1:
            fuzz_limits(fdp, failing);
            break;
        case 2:
        case 3:
            fuzz_values<double>(fdp, failing);
            break;
        default:
            fuzz_values<int>(fdp, failing);
            break;
    }
    return 0;
}
