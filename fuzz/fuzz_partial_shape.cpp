/***************************************************************************
 * Copyright (c) the xtensor-named contributors                             *
 *                                                                          *
 * Distributed under the terms of the BSD 3-Clause License.                 *
 *                                                                          *
 * The full license is in the file LICENSE, distributed with this software. *
 ****************************************************************************/

// xn::partial_shape (TensorFlow's `Shape`) built from arbitrary integers, negative and huge ones included,
// then driven through every operation with arbitrary indices. Each call must either succeed with the
// value that a small reference model (written here from the documented rules) gives, or throw xn::shape_error
// exactly where the model says the call is refused. The algebraic laws of TensorFlow's Shape are checked too.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <xtensor-named/xpartial_shape.hpp>

#include "fuzz_check.hpp"

namespace xn = xt::named;

namespace
{
    using xn_fuzz::outcome;
    using size_type = std::int64_t;

    constexpr size_type unknown_size = -1;

    /// The model: a known rank and its sizes, or an unknown rank.
    struct model
    {
        bool known_rank = true;
        std::vector<size_type> sizes;
    };

    bool has_unknown(const model& m)
    {
        if (!m.known_rank)
        {
            return true;
        }
        for (auto s : m.sizes)
        {
            if (s == unknown_size)
            {
                return true;
            }
        }
        return false;
    }

    bool compatible_sizes(size_type a, size_type b)
    {
        return a == unknown_size || b == unknown_size || a == b;
    }

    bool compatible(const model& a, const model& b)
    {
        if (!a.known_rank || !b.known_rank)
        {
            return true;
        }
        if (a.sizes.size() != b.sizes.size())
        {
            return false;
        }
        for (std::size_t i = 0; i < a.sizes.size(); ++i)
        {
            if (!compatible_sizes(a.sizes[i], b.sizes[i]))
            {
                return false;
            }
        }
        return true;
    }

    std::string model_string(const model& m)
    {
        if (!m.known_rank)
        {
            return "<unknown>";
        }
        std::string out = "(";
        for (std::size_t i = 0; i < m.sizes.size(); ++i)
        {
            out += (i == 0 ? "" : ", ") +
                   (m.sizes[i] == unknown_size ? std::string("?") : std::to_string(m.sizes[i]));
        }
        return out + ")";
    }

    /// Aborts unless `s` is exactly what `m` describes.
    void expect_same(const xn::partial_shape& s, const model& m, const char* where)
    {
        XN_FUZZ_CHECK(s.is_unknown() == !m.known_rank, (where, ": ", s.to_string(), " vs ", model_string(m)));
        XN_FUZZ_CHECK(s.to_string() == model_string(m),
                      (where, ": ", s.to_string(), " vs ", model_string(m)));
        if (m.known_rank)
        {
            XN_FUZZ_CHECK(s.rank() == static_cast<size_type>(m.sizes.size()), (where, ": rank"));
            XN_FUZZ_CHECK(s.sizes() == m.sizes, (where, ": sizes"));
        }
        else
        {
            XN_FUZZ_CHECK(s.rank() == xn::unknown, (where, ": rank of an unknown shape"));
        }
    }

    size_type interesting_integer(FuzzedDataProvider& fdp)
    {
        switch (fdp.ConsumeIntegralInRange<int>(0, 3))
        {
            case 0:
                return fdp.ConsumeIntegralInRange<size_type>(-3, 6);
            case 1:
                return fdp.ConsumeIntegral<size_type>();
            case 2:
                return std::numeric_limits<size_type>::max() - fdp.ConsumeIntegralInRange<size_type>(0, 2);
            default:
                return size_type(1) << fdp.ConsumeIntegralInRange<int>(0, 62);
        }
    }

    /// A shape built through one of the public constructors; `m` receives what it must be. Returns
    /// nothing where construction must be, and was, refused.
    std::optional<xn::partial_shape> build(FuzzedDataProvider& fdp, model& m)
    {
        const int how = fdp.ConsumeIntegralInRange<int>(0, 4);
        const std::size_t rank = fdp.ConsumeIntegralInRange<std::size_t>(0, 7);
        m = model();
        if (how == 0)
        {
            m.known_rank = false;
            return xn::partial_shape::unknown();
        }
        if (how == 1)
        {
            return xn::partial_shape::scalar();
        }
        bool valid = true;
        std::optional<xn::partial_shape> result;
        outcome got = outcome::ok;
        if (how == 2 || how == 3)
        {
            std::vector<size_type> sizes;
            for (std::size_t i = 0; i < rank; ++i)
            {
                sizes.push_back(interesting_integer(fdp));
                valid = valid && sizes.back() >= unknown_size;
            }
            m.sizes = sizes;
            got = xn_fuzz::run("partial_shape::of",
                               [&]
                               {
                                   if (how == 2)
                                   {
                                       result = xn::partial_shape::of(sizes);
                                   }
                                   else
                                   {
                                       // Another integer type: sizes that do not fit an int narrow first.
                                       std::vector<int> narrow(sizes.begin(), sizes.end());
                                       m.sizes.assign(narrow.begin(), narrow.end());
                                       valid = true;
                                       for (int s : narrow)
                                       {
                                           valid = valid && s >= -1;
                                       }
                                       result = xn::partial_shape::of(narrow);
                                   }
                               });
        }
        else
        {
            // Unsigned sizes: anything above the largest int64 is refused, and nothing is unknown.
            std::vector<std::uint64_t> sizes;
            for (std::size_t i = 0; i < rank; ++i)
            {
                sizes.push_back(static_cast<std::uint64_t>(interesting_integer(fdp)));
                valid = valid &&
                        sizes.back() <= static_cast<std::uint64_t>(std::numeric_limits<size_type>::max());
                m.sizes.push_back(static_cast<size_type>(sizes.back()));
            }
            got = xn_fuzz::run("partial_shape::of(unsigned)", [&] { result = xn::partial_shape::of(sizes); });
        }
        XN_FUZZ_CHECK(got == (valid ? outcome::ok : outcome::shape_error),
                      ("construction of ", model_string(m), ": ", xn_fuzz::outcome_name(got)));
        if (result)
        {
            expect_same(*result, m, "construction");
        }
        return result;
    }

    std::optional<size_type> model_num_elements(const model& m, bool& overflow)
    {
        overflow = false;
        if (has_unknown(m))
        {
            return std::nullopt;
        }
        for (auto s : m.sizes)
        {
            if (s == 0)
            {
                return 0;
            }
        }
        size_type product = 1;
        for (auto s : m.sizes)
        {
            if (__builtin_mul_overflow(product, s, &product))
            {
                overflow = true;
                return std::nullopt;
            }
        }
        return product;
    }

    /// Whether a container of this shape can exist: nothing unknown, and neither the element count nor
    /// any row-major stride (the product of the sizes after an axis) overflows.
    bool model_concrete(const model& m)
    {
        if (has_unknown(m))
        {
            return false;
        }
        size_type product = 1;
        for (std::size_t i = m.sizes.size(); i-- > 0;)
        {
            if (__builtin_mul_overflow(product, m.sizes[i], &product))
            {
                return false;
            }
        }
        return true;
    }

    model slice(const model& m, size_type begin, size_type end)
    {
        model r;
        r.sizes.assign(m.sizes.begin() + begin, m.sizes.begin() + end);
        return r;
    }

    /// Runs `f` (which returns a shape) expecting a refusal when `refused`, else `expected`.
    template <class F>
    std::optional<xn::partial_shape> expect_shape(const char* what, F&& f, bool refused,
                                                  const model& expected)
    {
        std::optional<xn::partial_shape> got_shape;
        const auto got = xn_fuzz::run(what, [&] { got_shape = f(); });
        XN_FUZZ_CHECK(
            got == (refused ? outcome::shape_error : outcome::ok),
            (what, ": expected ", refused ? "a refusal" : "success", ", got ", xn_fuzz::outcome_name(got)));
        if (got_shape)
        {
            expect_same(*got_shape, expected, what);
        }
        return got_shape;
    }

    /// The laws that hold between any two shapes (TensorFlow's `Shape`).
    void check_laws(const xn::partial_shape& a, const model& ma, const xn::partial_shape& b, const model& mb)
    {
        XN_FUZZ_CHECK(a.is_compatible_with(a), ("compatibility is not reflexive for ", a.to_string()));
        XN_FUZZ_CHECK(a.is_compatible_with(b) == b.is_compatible_with(a),
                      ("compatibility is not symmetric: ", a.to_string(), ", ", b.to_string()));
        XN_FUZZ_CHECK(a.is_compatible_with(b) == compatible(ma, mb),
                      ("is_compatible_with: ", a.to_string(), ", ", b.to_string()));

        // merge_with: refused exactly when incompatible; the merge is compatible with both, symmetric,
        // and at least as specific as each.
        model merged;
        if (!ma.known_rank)
        {
            merged = mb;
        }
        else if (!mb.known_rank)
        {
            merged = ma;
        }
        else if (compatible(ma, mb))
        {
            merged = ma;
            for (std::size_t i = 0; i < merged.sizes.size(); ++i)
            {
                merged.sizes[i] = ma.sizes[i] == unknown_size ? mb.sizes[i] : ma.sizes[i];
            }
        }
        const bool refuse_merge = !compatible(ma, mb);
        const auto ab = expect_shape(
            "merge_with", [&] { return a.merge_with(b); }, refuse_merge, merged);
        const auto ba = expect_shape(
            "merge_with", [&] { return b.merge_with(a); }, refuse_merge, merged);
        if (ab && ba)
        {
            XN_FUZZ_CHECK(*ab == *ba, ("merge is not symmetric"));
            XN_FUZZ_CHECK(ab->is_compatible_with(a) && ab->is_compatible_with(b), ("merge is incompatible"));
            XN_FUZZ_CHECK(ab->merge_with(a) == *ab, ("merge is not idempotent"));
        }
        XN_FUZZ_CHECK(a.merge_with(a) == a, ("a shape merged with itself changes: ", a.to_string()));

        // most_specific_compatible_shape: compatible with both, symmetric, the identity on itself.
        model common;
        if (!ma.known_rank || !mb.known_rank || ma.sizes.size() != mb.sizes.size())
        {
            common.known_rank = false;
        }
        else
        {
            common = ma;
            for (std::size_t i = 0; i < common.sizes.size(); ++i)
            {
                common.sizes[i] = ma.sizes[i] == mb.sizes[i] ? ma.sizes[i] : unknown_size;
            }
        }
        const auto c = expect_shape(
            "most_specific_compatible_shape", [&] { return a.most_specific_compatible_shape(b); }, false,
            common);
        XN_FUZZ_CHECK(c->is_compatible_with(a) && c->is_compatible_with(b),
                      ("the common shape is incompatible"));
        XN_FUZZ_CHECK(b.most_specific_compatible_shape(a) == *c, ("the common shape is not symmetric"));
        XN_FUZZ_CHECK(a.most_specific_compatible_shape(a) == a, ("the common shape of a shape and itself"));

        // Equality is structural; TensorFlow's Shape.equals is false for anything unknown, except on one
        // object.
        const bool same = ma.known_rank == mb.known_rank && ma.sizes == mb.sizes;
        XN_FUZZ_CHECK((a == b) == same && (a != b) == !same,
                      ("operator==: ", a.to_string(), ", ", b.to_string()));
        XN_FUZZ_CHECK(xn::known_equal(a, a), ("known_equal of an object with itself"));
        XN_FUZZ_CHECK(xn::known_equal(a, b) == (same && !has_unknown(ma)),
                      ("known_equal: ", a.to_string(), ", ", b.to_string()));
    }

    /// One operation on `a`, chosen and parametrised by the input. Returns the shape it produced, if any.
    std::optional<xn::partial_shape> step(FuzzedDataProvider& fdp, const xn::partial_shape& a,
                                          const model& ma, const xn::partial_shape& b, const model& mb,
                                          model& produced)
    {
        const auto n = static_cast<size_type>(ma.sizes.size());
        const auto x = interesting_integer(fdp);
        const auto y = interesting_integer(fdp);
        produced = model();
        switch (fdp.ConsumeIntegralInRange<int>(0, 14))
        {
            case 0:
            {
                size_type got = 0;
                const auto o = xn_fuzz::run("size", [&] { got = a.size(x); });
                if (!ma.known_rank)
                {
                    XN_FUZZ_CHECK(o == outcome::ok && got == xn::unknown, ("size of an unknown rank"));
                }
                else if (x >= -n && x < n)
                {
                    XN_FUZZ_CHECK(o == outcome::ok &&
                                      got == ma.sizes[static_cast<std::size_t>(x < 0 ? x + n : x)],
                                  ("size(", x, ") of ", a.to_string()));
                }
                else
                {
                    XN_FUZZ_CHECK(o == outcome::shape_error,
                                  ("size(", x, ") of ", a.to_string(), " not refused"));
                }
                return std::nullopt;
            }
            case 1:
            {
                bool overflow = false;
                const auto expected = model_num_elements(ma, overflow);
                size_type got = 0;
                const auto o = xn_fuzz::run("num_elements", [&] { got = a.num_elements(); });
                XN_FUZZ_CHECK(o == (overflow ? outcome::shape_error : outcome::ok),
                              ("num_elements of ", a.to_string()));
                if (!overflow)
                {
                    XN_FUZZ_CHECK(got == (expected ? *expected : xn::unknown),
                                  ("num_elements of ", a.to_string()));
                }
                std::vector<std::size_t> concrete;
                const auto oc = xn_fuzz::run("to_concrete", [&] { concrete = a.to_concrete("fuzz"); });
                XN_FUZZ_CHECK(oc == (model_concrete(ma) ? outcome::ok : outcome::shape_error),
                              ("to_concrete of ", a.to_string()));
                if (oc == outcome::ok)
                {
                    XN_FUZZ_CHECK(concrete.size() == ma.sizes.size(), ("to_concrete rank"));
                    for (std::size_t i = 0; i < concrete.size(); ++i)
                    {
                        XN_FUZZ_CHECK(concrete[i] == static_cast<std::size_t>(ma.sizes[i]),
                                      ("to_concrete at ", i));
                    }
                }
                return std::nullopt;
            }
            case 2:
            {
                const bool unknown_dim = has_unknown(ma);
                XN_FUZZ_CHECK(a.is_unknown() == !ma.known_rank, ("is_unknown"));
                XN_FUZZ_CHECK(a.has_unknown_dimension() == unknown_dim, ("has_unknown_dimension"));
                XN_FUZZ_CHECK(a.is_fully_known() == !unknown_dim, ("is_fully_known"));
                XN_FUZZ_CHECK(a.is_scalar() == (ma.known_rank && n == 0), ("is_scalar"));
                XN_FUZZ_CHECK(a.is_vector() == (ma.known_rank && n == 1), ("is_vector"));
                XN_FUZZ_CHECK(a.is_matrix() == (ma.known_rank && n == 2), ("is_matrix"));
                XN_FUZZ_EXPECT(a.sizes(), ma.known_rank ? outcome::ok : outcome::shape_error, ("sizes()"));
                return std::nullopt;
            }
            case 3:
                produced = ma;
                produced.sizes.push_back(x);
                return expect_shape(
                    "append(size)", [&] { return a.append(x); }, !ma.known_rank || x < -1, produced);
            case 4:
                produced = ma;
                produced.sizes.insert(produced.sizes.begin(), x);
                return expect_shape(
                    "prepend(size)", [&] { return a.prepend(x); }, !ma.known_rank || x < -1, produced);
            case 5:
                produced = ma;
                produced.sizes.insert(produced.sizes.end(), mb.sizes.begin(), mb.sizes.end());
                return expect_shape(
                    "append(shape)", [&] { return a.append(b); }, !ma.known_rank || !mb.known_rank, produced);
            case 6:
                produced = mb;
                produced.sizes.insert(produced.sizes.end(), ma.sizes.begin(), ma.sizes.end());
                return expect_shape(
                    "prepend(shape)", [&] { return a.prepend(b); }, !ma.known_rank || !mb.known_rank,
                    produced);
            case 7:
            {
                // Indices near the rank are the interesting ones; arbitrary ones must be refused cleanly.
                const size_type begin =
                    fdp.ConsumeBool() ? x : fdp.ConsumeIntegralInRange<size_type>(-1, n + 1);
                const size_type end =
                    fdp.ConsumeBool() ? y : fdp.ConsumeIntegralInRange<size_type>(-1, n + 1);
                const bool refused = !ma.known_rank || begin < 0 || end < begin || end > n;
                if (!refused)
                {
                    produced = slice(ma, begin, end);
                }
                return expect_shape(
                    "sub_shape", [&] { return a.sub_shape(begin, end); }, refused, produced);
            }
            case 8:
            case 9:
            {
                const size_type count =
                    fdp.ConsumeBool() ? x : fdp.ConsumeIntegralInRange<size_type>(-1, n + 1);
                const bool refused = !ma.known_rank || count < 0 || count > n;
                const bool first = fdp.ConsumeBool();
                if (!refused)
                {
                    produced = first ? slice(ma, 0, count) : slice(ma, n - count, n);
                }
                auto got = first ? expect_shape(
                                       "take", [&] { return a.take(count); }, refused, produced)
                                 : expect_shape(
                                       "take_last", [&] { return a.take_last(count); }, refused, produced);
                if (got && first)
                {
                    // take(k) followed by the rest gives the shape back.
                    XN_FUZZ_CHECK(got->append(a.sub_shape(count, n)) == a, ("take then the rest"));
                }
                return got;
            }
            case 10:
            case 11:
            {
                const bool first = fdp.ConsumeBool();
                // TensorFlow's Shape: the head of the scalar shape is refused, its tail is the scalar shape.
                const bool refused = !ma.known_rank || (n == 0 && first);
                if (!refused)
                {
                    produced = first ? slice(ma, 0, 1) : (n == 0 ? ma : slice(ma, 1, n));
                }
                auto got = first ? expect_shape(
                                       "head", [&] { return a.head(); }, refused, produced)
                                 : expect_shape(
                                       "tail", [&] { return a.tail(); }, refused, produced);
                if (got && !refused && n > 0)
                {
                    XN_FUZZ_CHECK(a.head().append(a.tail()) == a, ("head then tail"));
                }
                return got;
            }
            case 12:
                check_laws(a, ma, b, mb);
                return std::nullopt;
            case 13:
            {
                // Copies compare equal and print the same.
                const xn::partial_shape copy = a;
                XN_FUZZ_CHECK(copy == a && copy.to_string() == a.to_string() &&
                                  xn::to_string(a) == a.to_string(),
                              ("a copy differs"));
                XN_FUZZ_CHECK(xn::known_equal(copy, a) == !has_unknown(ma), ("known_equal of a copy"));
                return std::nullopt;
            }
            default:
                produced = mb;
                return b;
        }
    }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    model ma;
    model mb;
    auto a = build(fdp, ma);
    auto b = build(fdp, mb);
    if (!a || !b)
    {
        return 0;
    }
    for (int i = 0; i < 12 && fdp.remaining_bytes() > 0; ++i)
    {
        model produced;
        auto next = step(fdp, *a, ma, *b, mb, produced);
        // Keep the results small enough to stay fast: a long chain of appends adds nothing new.
        if (next && produced.sizes.size() <= 12)
        {
            if (fdp.ConsumeBool())
            {
                a = next;
                ma = produced;
            }
            else
            {
                b = next;
                mb = produced;
            }
        }
    }
    check_laws(*a, ma, *b, mb);
    return 0;
}
