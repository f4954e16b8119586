#!/usr/bin/env python3
"""Measures what xtensor-named costs the compiler, and writes the Compile cost section of benchmarks/README.md.

Compiles a few translation units, each beside its plain xtensor twin (the same work spelled with
xtensor's own broadcasting), with g++ -std=c++17 -O2 -c, and records the CPU time (user + system) and
the peak memory of the compiler, medians of --repetitions runs:

- one named binary operation (a column broadcast), evaluated with xn::assign;
- five expressions (the column, `(A - u) * v`, `exp`, `where`, `A / sum(A, y)`), so that what each
  further expression costs shows (the marginal row: the difference over four), and each of the five
  left out in turn, named and plain, so that what each one adds to the other four shows apart;
- a compound pipeline (per-channel normalisation of an image batch, masked, and a softmax);
- four reductions by name of one matrix, each with another fold (sum, maximum, minimum, product);
- the umbrella header <xtensor-named/xtensor-named.hpp> alone, against <xtensor/xarray.hpp> alone;
- the named units again with the umbrella header precompiled (as README.md suggests for a target of
  several units), and the precompiled header itself;
- the named units parsed and their templates instantiated with no code generated (-fsyntax-only): what
  the header and the named layer's types cost whatever the evaluation compiles to.

    /usr/bin/python3 benchmarks/compile_cost.py                 # measure, then write the README table
    /usr/bin/python3 benchmarks/compile_cost.py --repetitions 1 --readme /tmp/README.md   # a quick check

The bars: see the section it writes.
"""

import argparse
import datetime
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_all import replace_section, with_subsections  # noqa: E402

BINARY_NAMED = """
#include <xtensor/xtensor.hpp>
#include <xtensor-named/xtensor-named.hpp>
namespace xn = xt::named;
void column(xt::xtensor<double, 2>& out, const xt::xtensor<double, 2>& a, const xt::xtensor<double, 1>& u)
{
    auto named_out = xn::name(out, {"y", "x"});
    xn::assign(named_out, xn::name(a, {"y", "x"}) + xn::name(u, {"y"}));
}
"""

BINARY_PLAIN = """
#include <xtensor/xtensor.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xview.hpp>
void column(xt::xtensor<double, 2>& out, const xt::xtensor<double, 2>& a, const xt::xtensor<double, 1>& u)
{
    xt::noalias(out) = a + xt::view(u, xt::all(), xt::newaxis());
}
"""

PIPELINE_NAMED = """
#include <xtensor/xtensor.hpp>
#include <xtensor-named/xtensor-named.hpp>
namespace xn = xt::named;
using images = xt::xtensor<float, 4>;
using channels = xt::xtensor<float, 1>;
void normalize(images& out, const images& x, const channels& m, const channels& s,
               const xt::xtensor<float, 3>& label)
{
    const auto nx = xn::name(x, {"n", "c", "h", "w"});
    const auto normalized = (nx - xn::name(m, {"c"})) / xn::name(s, {"c"});
    const auto selected = xn::where(xn::equal(xn::name(label, {"n", "h", "w"}), 1.f), normalized, 0.f);
    auto named_out = xn::name(out, {"n", "c", "h", "w"});
    xn::assign(named_out, selected.transpose({"n", "c", "h", "w"}));
}
void softmax(images& out, const images& x)
{
    const auto nx = xn::name(x, {"n", "c", "h", "w"});
    const auto e = xn::exp(nx - xn::amax(nx, {"c"}));
    auto named_out = xn::name(out, {"n", "c", "h", "w"});
    xn::assign(named_out, e / xn::sum(e, {"c"}));
}
"""

PIPELINE_PLAIN = """
#include <xtensor/xtensor.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xview.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xsort.hpp>
using images = xt::xtensor<float, 4>;
using channels = xt::xtensor<float, 1>;
void normalize(images& out, const images& x, const channels& m, const channels& s,
               const xt::xtensor<float, 3>& label)
{
    auto per_channel = [](const channels& v) { return xt::view(v, xt::all(), xt::newaxis(), xt::newaxis()); };
    auto normalized = (x - per_channel(m)) / per_channel(s);
    auto mask = xt::view(label, xt::all(), xt::newaxis(), xt::all(), xt::all());
    xt::noalias(out) = xt::where(xt::equal(mask, 1.f), normalized, 0.f);
}
void softmax(images& out, const images& x)
{
    images e = xt::exp(x - xt::view(xt::eval(xt::amax(x, {1})), xt::all(), xt::newaxis(), xt::all(), xt::all()));
    xt::noalias(out) = e / xt::view(xt::eval(xt::sum(e, {1})), xt::all(), xt::newaxis(), xt::all(), xt::all());
}
"""

FIVE_NAMED = """
#include <xtensor/xtensor.hpp>
#include <xtensor-named/xtensor-named.hpp>
namespace xn = xt::named;
using matrix = xt::xtensor<double, 2>;
using vector = xt::xtensor<double, 1>;
void column(matrix& out, const matrix& a, const vector& u)
{
    auto named_out = xn::name(out, {"y", "x"});
    xn::assign(named_out, xn::name(a, {"y", "x"}) + xn::name(u, {"y"}));
}
void centred(matrix& out, const matrix& a, const vector& u, const vector& v)
{
    auto named_out = xn::name(out, {"y", "x"});
    xn::assign(named_out, (xn::name(a, {"y", "x"}) - xn::name(u, {"x"})) * xn::name(v, {"y"}));
}
void exponential(matrix& out, const matrix& a)
{
    auto named_out = xn::name(out, {"y", "x"});
    xn::assign(named_out, xn::exp(xn::name(a, {"y", "x"})));
}
void clipped(matrix& out, const matrix& a, const vector& u)
{
    auto named_out = xn::name(out, {"y", "x"});
    const auto na = xn::name(a, {"y", "x"});
    xn::assign(named_out, xn::where(na > xn::name(u, {"x"}), na, 0.0));
}
void shares(matrix& out, const matrix& a)
{
    auto named_out = xn::name(out, {"y", "x"});
    const auto na = xn::name(a, {"y", "x"});
    xn::assign(named_out, na / xn::sum(na, {"y"}));
}
"""

FIVE_PLAIN = """
#include <xtensor/xtensor.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xview.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>
using matrix = xt::xtensor<double, 2>;
using vector = xt::xtensor<double, 1>;
void column(matrix& out, const matrix& a, const vector& u)
{
    xt::noalias(out) = a + xt::view(u, xt::all(), xt::newaxis());
}
void centred(matrix& out, const matrix& a, const vector& u, const vector& v)
{
    xt::noalias(out) = (a - u) * xt::view(v, xt::all(), xt::newaxis());
}
void exponential(matrix& out, const matrix& a)
{
    xt::noalias(out) = xt::exp(a);
}
void clipped(matrix& out, const matrix& a, const vector& u)
{
    xt::noalias(out) = xt::where(a > u, a, 0.0);
}
void shares(matrix& out, const matrix& a)
{
    xt::noalias(out) = a / xt::sum(a, {0});
}
"""

FOLDS_NAMED = """
#include <xtensor/xtensor.hpp>
#include <xtensor-named/xtensor-named.hpp>
namespace xn = xt::named;
using matrix = xt::xtensor<double, 2>;
using vector = xt::xtensor<double, 1>;
void statistics(vector& total, vector& largest, vector& smallest, vector& product, const matrix& a)
{
    const auto na = xn::name(a, {"y", "x"});
    auto named_total = xn::name(total, {"x"});
    auto named_largest = xn::name(largest, {"x"});
    auto named_smallest = xn::name(smallest, {"x"});
    auto named_product = xn::name(product, {"x"});
    xn::assign(named_total, xn::sum(na, {"y"}));
    xn::assign(named_largest, xn::amax(na, {"y"}));
    xn::assign(named_smallest, xn::amin(na, {"y"}));
    xn::assign(named_product, xn::prod(na, {"y"}));
}
"""

FOLDS_PLAIN = """
#include <xtensor/xtensor.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xsort.hpp>
using matrix = xt::xtensor<double, 2>;
using vector = xt::xtensor<double, 1>;
void statistics(vector& total, vector& largest, vector& smallest, vector& product, const matrix& a)
{
    xt::noalias(total) = xt::sum(a, {0});
    xt::noalias(largest) = xt::amax(a, {0});
    xt::noalias(smallest) = xt::amin(a, {0});
    xt::noalias(product) = xt::prod(a, {0});
}
"""

UMBRELLA_NAMED = "#include <xtensor-named/xtensor-named.hpp>\n"
UMBRELLA_PLAIN = "#include <xtensor/xarray.hpp>\n"

# (case, what it compiles, named source, plain source, time bar, memory bar)
CASES = [("binary", "one named column broadcast, `xn::assign`", BINARY_NAMED, BINARY_PLAIN, 3.0, 2.0),
         ("five", "five expressions: `+` a column, `(A - u) * v`, `exp`, `where`, `A / sum(A, y)`", FIVE_NAMED,
          FIVE_PLAIN, 3.0, 2.0),
         ("pipeline", "masked normalisation and a softmax", PIPELINE_NAMED, PIPELINE_PLAIN, 2.0, 2.0),
         ("folds", "four reductions by name: `sum`, `amax`, `amin`, `prod`", FOLDS_NAMED, FOLDS_PLAIN, 3.0, 2.0),
         ("umbrella", "the umbrella header alone, against `<xtensor/xarray.hpp>`", UMBRELLA_NAMED, UMBRELLA_PLAIN,
          1.5, 1.5)]


def medians(runs):
    """The median of each field of `runs`, tuples of the same length."""
    return tuple(statistics.median(field) for field in zip(*runs))


def run_compiler(command):
    """CPU seconds (user + system) and peak resident kilobytes of one run of the compiler, its children
    included (wait4 reports the largest of the process and its waited-for descendants)."""
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    errors = process.stderr.read().decode()
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{shlex.join(command)} failed:\n{errors}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def compile_once(compiler, flags, source_path):
    """CPU seconds, peak resident kilobytes and code bytes (.text) of one compilation."""
    object_path = source_path.with_suffix(".o")
    seconds, kilobytes = run_compiler([compiler, *flags, "-c", str(source_path), "-o", str(object_path)])
    return seconds, kilobytes, text_bytes(object_path)


def text_bytes(object_path):
    """The bytes of every .text section of an object (one per function with inline and template code)."""
    output = subprocess.run(["size", "-A", str(object_path)], capture_output=True, text=True, check=True).stdout
    return sum(int(line.split()[1]) for line in output.splitlines() if line.startswith(".text"))


PRECOMPILED = "#include <xtensor/xtensor.hpp>\n#include <xtensor-named/xtensor-named.hpp>\n"


def precompile(compiler, flags, repetitions, directory):
    """Precompiles PRECOMPILED into `directory` (the median of `repetitions` builds): (time, memory, the
    flags that make a unit use it)."""
    header = Path(directory) / "precompiled.hpp"
    header.write_text(PRECOMPILED)
    command = [compiler, *flags, "-x", "c++-header", str(header), "-o", f"{header}.gch"]
    # An unusable precompiled header is an error, not a silent parse of the header.
    use = ["-include", str(header), "-Werror=invalid-pch"]
    return (*medians(run_compiler(command) for _ in range(repetitions)), use)


def measure(compiler, flags, source, repetitions, directory, name):
    path = Path(directory) / f"{name}.cpp"
    path.write_text(source)
    return medians(compile_once(compiler, flags, path) for _ in range(repetitions))


def measure_syntax(compiler, flags, source, repetitions, directory, name):
    """(time, memory) of `source` parsed and its templates instantiated, with no code generated."""
    path = Path(directory) / f"{name}.cpp"
    path.write_text(source)
    return medians(run_compiler([compiler, *flags, "-fsyntax-only", str(path)]) for _ in range(repetitions))


def by_case(results):
    """The (named, plain) result of each case, by the case's name."""
    return {case[0]: result for case, result in zip(CASES, results)}


def marginal(results):
    """What each of the four expressions that the five-expression TU adds to the one-expression TU costs:
    (named time, plain time, named code, plain code)."""
    cases = by_case(results)
    (one_named, one_plain), (five_named, five_plain) = cases["binary"], cases["five"]
    return ((five_named[0] - one_named[0]) / 4, (five_plain[0] - one_plain[0]) / 4,
            (five_named[2] - one_named[2]) / 4, (five_plain[2] - one_plain[2]) / 4)


def without_each_function(source):
    """(name, source without it) for each function that `source` defines at the start of a line."""
    head, *functions = re.split(r"(?m)^(?=void )", source)
    return [(re.match(r"void (\w+)", function).group(1),
             head + "".join(other for j, other in enumerate(functions) if j != i))
            for i, function in enumerate(functions)]


def left_out_rows(five, left_out):
    """The rows of the code that each expression adds to the other four of `five`: `five` is the (named,
    plain) result of the whole unit, `left_out` a (name, (named, plain)) result for each unit without one."""
    rows = ["| expression | named code | plain code | ratio |", "|---|---:|---:|---:|"]
    for name, (named, plain) in left_out:
        named_code, plain_code = five[0][2] - named[2], five[1][2] - plain[2]
        rows.append(f"| `{name}` | {named_code / 1024:.1f} KB | {plain_code / 1024:.1f} KB | "
                    f"{named_code / plain_code:.1f} |")
    return rows


def precompiled_rows(results, precompiled):
    """The rows of the named units as they are and with the umbrella header precompiled: `precompiled` is
    ((time, memory) of the header, [(case, result)] for the units)."""
    (header_time, header_memory), units = precompiled
    cases = by_case(results)
    rows = ["| case | named: time / memory | precompiled: time / memory |", "|---|---:|---:|"]
    for case, result in units:
        named = cases[case][0]
        rows.append(f"| `{case}` | {named[0]:.2f} s / {named[1] / 1024:.0f} MB | {result[0]:.2f} s / "
                    f"{result[1] / 1024:.0f} MB |")
    rows.append(f"| the precompiled header | – | {header_time:.2f} s / {header_memory / 1024:.0f} MB |")
    return rows


def syntax_rows(results, syntax):
    """The rows of the named units with no code generated, beside their plain twins and the time bar:
    `syntax` is a (case, (time, memory)) for each unit."""
    cases = by_case(results)
    bars = {case[0]: case[4] for case in CASES}
    rows = ["| case | named, no code generated: time / memory | plain, whole: time | ratio | time bar |",
            "|---|---:|---:|---:|---:|"]
    for case, (seconds, kilobytes) in syntax:
        plain = cases[case][1]
        rows.append(f"| `{case}` | {seconds:.2f} s / {kilobytes / 1024:.0f} MB | {plain[0]:.2f} s | "
                    f"{seconds / plain[0]:.2f} | {bars[case]} |")
    return rows


def compiler_version(compiler):
    return subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


def section(results, left_out, precompiled, syntax, compiler, flags, repetitions, command):
    rows = ["| case | compiles | named: time / memory / code | plain: time / memory / code | time ratio (bar) "
            "| memory ratio (bar) |",
            "|---|---|---:|---:|---:|---:|"]
    missed = []
    for (case, what, _, _, time_bar, memory_bar), (named, plain) in zip(CASES, results):
        time_ratio = named[0] / plain[0]
        memory_ratio = named[1] / plain[1]
        marks = []
        for label, ratio, bar in (("time", time_ratio, time_bar), ("memory", memory_ratio, memory_bar)):
            met = ratio <= bar
            marks.append(f"**{ratio:.2f}** (≤ {bar}){'' if met else ' ✗'}")
            if not met:
                missed.append(f"{case} ({label})")
        rows.append(f"| `{case}` | {what} | {named[0]:.2f} s / {named[1] / 1024:.0f} MB / {named[2] / 1024:.0f} KB | "
                    f"{plain[0]:.2f} s / {plain[1] / 1024:.0f} MB / {plain[2] / 1024:.0f} KB | {marks[0]} | "
                    f"{marks[1]} |")
    named_time, plain_time, named_code, plain_code = marginal(results)
    marginal_marks = []
    for label, ratio in (("time", named_time / plain_time), ("code", named_code / plain_code)):
        met = ratio <= 2.0
        marginal_marks.append(f"**{ratio:.1f}** (≤ 2){'' if met else ' ✗'}")
        if not met:
            missed.append(f"marginal expression ({label})")
    rows.append(f"| marginal | each further expression: (`five` − `binary`) / 4 | {named_time:.2f} s / – / "
                f"{named_code / 1024:.1f} KB | {plain_time:.2f} s / – / {plain_code / 1024:.1f} KB | "
                f"{marginal_marks[0]} | code {marginal_marks[1]} |")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"""## Compile cost

What a translation unit that uses xtensor-named costs the compiler, beside its plain xtensor twin (the
same work with xtensor's broadcasting spelled out). `compile_cost.py` compiles each with
`{compiler} {' '.join(flags)} -c` and takes the median of {repetitions} runs of the compiler's CPU time
(user + system) and peak memory (the largest resident set of the driver and `cc1plus`).

- Compiler: {compiler_version(compiler)}
- Date: {datetime.date.today().isoformat()}, load average {load} when the run ended
- Command: `{command}`

The bars: the one-expression, five-expression and four-fold units at most 3 times their twins in time
and 2 times in memory, the pipeline at most 2 times in both; each further expression (the marginal row)
at most 2 times what it costs plain xtensor in time and in code; the umbrella header at most 1.5 times
`<xtensor/xarray.hpp>`. Code is the size of the object's `.text` sections.

{chr(10).join(rows)}

{"Every case meets the bar." if not missed else "Missed in this run: " + ", ".join(missed) + "."}

The code that each expression of `five` adds to the other four: `five` less the same unit without it,
named and plain. The marginal row spreads over four expressions what the first reduction of a unit adds
once (the folds, the temporaries, their threads); these rows show it on `shares` alone, and what an
elementwise expression costs apart from it. Code does not vary from run to run; the times of these units
differ from `five`'s by less than the spread of a unit's time, but for `shares` (one to two seconds),
and are not compared.

{chr(10).join(left_out_rows(by_case(results)["five"], left_out))}

With the umbrella header precompiled (`-include` of a header that includes `<xtensor/xtensor.hpp>` and
the umbrella, made with `-x c++-header`), what each named unit costs, and the precompiled header itself,
which a target makes once:

{chr(10).join(precompiled_rows(results, precompiled))}

The named units parsed and their templates instantiated, with no code generated (`-fsyntax-only`), against
their plain twins compiled whole: what the headers and the named layer's types cost before any evaluation
is compiled, so that the ratio's distance to the time bar is what the code of the whole unit (the named
layer's plans, checks and messages, and the kernels) may take:

{chr(10).join(syntax_rows(results, syntax))}
"""


# Where the paragraphs written by hand under the table begin: each change measured against the tree before it.
HISTORY = "This table was taken after every change below."


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compiler", default="g++")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--readme", type=Path, default=ROOT / "benchmarks" / "README.md")
    args = parser.parse_args()
    flags = ["-std=c++17", "-O2", f"-I{ROOT / 'include'}"]
    command = " ".join(["/usr/bin/python3 benchmarks/compile_cost.py", *(shlex.quote(a) for a in sys.argv[1:])])

    results = []
    with tempfile.TemporaryDirectory() as directory:
        for case, _, named_source, plain_source, _, _ in CASES:
            start = time.monotonic()
            named = measure(args.compiler, flags, named_source, args.repetitions, directory, f"{case}_named")
            plain = measure(args.compiler, flags, plain_source, args.repetitions, directory, f"{case}_plain")
            print(f"{case:9s} named {named[0]:6.2f} s {named[1] / 1024:6.0f} MB {named[2] / 1024:5.0f} KB   "
                  f"plain {plain[0]:6.2f} s {plain[1] / 1024:6.0f} MB {plain[2] / 1024:5.0f} KB   "
                  f"ratios {named[0] / plain[0]:.2f} {named[1] / plain[1]:.2f}   ({time.monotonic() - start:.0f} s)")
            results.append((named, plain))
        named_time, plain_time, named_code, plain_code = marginal(results)
        print(f"marginal  named {named_time:6.2f} s {named_code / 1024:5.1f} KB   "
              f"plain {plain_time:6.2f} s {plain_code / 1024:5.1f} KB   per further expression")
        left_out = []
        for (name, named_source), (_, plain_source) in zip(without_each_function(FIVE_NAMED),
                                                           without_each_function(FIVE_PLAIN)):
            named = measure(args.compiler, flags, named_source, args.repetitions, directory, f"no_{name}_named")
            plain = measure(args.compiler, flags, plain_source, args.repetitions, directory, f"no_{name}_plain")
            print(f"five without {name:12s} named {named[0]:6.2f} s {named[2] / 1024:5.0f} KB   "
                  f"plain {plain[0]:6.2f} s {plain[2] / 1024:5.0f} KB")
            left_out.append((name, (named, plain)))
        header_time, header_memory, use = precompile(args.compiler, flags, args.repetitions, directory)
        print(f"precompiled header  {header_time:6.2f} s {header_memory / 1024:6.0f} MB")
        units, syntax = [], []
        for case, _, named_source, _, _, _ in CASES:
            if case == "umbrella":
                continue
            result = measure(args.compiler, flags + use, named_source, args.repetitions, directory,
                             f"{case}_precompiled")
            print(f"{case:9s} precompiled {result[0]:6.2f} s {result[1] / 1024:6.0f} MB")
            units.append((case, result))
            result = measure_syntax(args.compiler, flags, named_source, args.repetitions, directory,
                                    f"{case}_syntax")
            print(f"{case:9s} no code   {result[0]:6.2f} s {result[1] / 1024:6.0f} MB")
            syntax.append((case, result))

    text = args.readme.read_text() if args.readme.exists() else ""
    args.readme.parent.mkdir(parents=True, exist_ok=True)
    written = section(results, left_out, ((header_time, header_memory), units), syntax, args.compiler, flags[:2],
                      args.repetitions, command)
    args.readme.write_text(replace_section(text, "## Compile cost",
                                           with_subsections(written, text, "## Compile cost", HISTORY)))
    print(f"wrote {args.readme}")


if __name__ == "__main__":
    main()
