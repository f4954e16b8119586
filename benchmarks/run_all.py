#!/usr/bin/env python3
############################################################################
# Copyright (c) the xtensor-named contributors                             #
#                                                                          #
# Distributed under the terms of the BSD 3-Clause License.                 #
#                                                                          #
# The full license is in the file LICENSE, distributed with this software. #
############################################################################
"""Runs the benchmarks and writes their report.

Builds bench_kernels, bench_pipelines and bench_layouts (Release, -march=native through
xtensor-named::optimize) unless given them, runs bench_kernels (xtensor, xtensor-named, Eigen and a copy,
interleaved, medians of 15) and bench_numpy.py, then bench_pipelines (a hand-written loop, xtensor and
xtensor-named on realistic pipelines) and bench_pipelines.py (numpy and PyTorch on the same pipelines) in
turn, 5 rounds of 3 repetitions each (--rounds, --repetitions), then bench_layouts and bench_layouts.py
(the same on hard memory layouts) the same way, and writes benchmarks/README.md (the ratio table, the
machine, the command, the benchmark's own output, and the Pipelines and Layouts sections),
docs/benchmarks.png and docs/benchmarks_pipelines.png. Needs numpy and matplotlib
(and PyTorch for its column): on Debian, run it with /usr/bin/python3.

    /usr/bin/python3 benchmarks/run_all.py                  # build in build/bench, run, write
    /usr/bin/python3 benchmarks/run_all.py --bench path/to/bench_kernels
    /usr/bin/python3 benchmarks/run_all.py --pipelines-only # only the pipelines: their section and plot
    /usr/bin/python3 benchmarks/run_all.py --layouts-only   # only the layouts: their section
    /usr/bin/python3 benchmarks/run_all.py --pipelines-only --scale small --min-time 0.02   # a quick check

Small sizes (--scale small) check that the chain works; they are no measurement, so their report goes
to build/bench/report/ unless --readme, --plot and --pipelines-plot say otherwise.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CONFIGS = [("f64_2000x2000", "f64 2000×2000", 2000, 2000, 8),
           ("f32_2000x2000", "f32 2000×2000", 2000, 2000, 4),
           ("f64_256x256", "f64 256×256", 256, 256, 8)]

# The cases and their bars (smallest ratio xtensor / xtensor-named), per configuration.
CASES = [("same_shape", "A(M,N) + B(M,N)", [0.95, 0.95, 0.95]),
         ("row", "A(M,N) + v(N)", [0.95, 0.95, 0.95]),
         ("column", "A(M,N) + u(M,1)", [4, 8, 10]),
         ("outer", "u(M,1) + v(N)", [5, 10, 20]),
         ("broadcast_to", "broadcast_to(v(N), (M,N))", [5, 10, 15]),
         ("broadcast_column", "broadcast(u(M), (M,N), {1})", [5, 10, 15]),
         ("sum_to_axis0", "sum_to(G(M,N), (N))", [3, 6, 10])]

# Large cases must reach these shares of the bandwidth bound: ordinary stores, streaming stores.
SHARE_BAR = {"ordinary": 0.5, "streaming": 0.7}
# Where the kernels stream, on bytes written and read, unless bench_kernels says (streaming_min_bytes).
STREAMING_MIN_BYTES = 24 << 20

# Cases whose cost is writing the output: no loop can beat a loop that only stores (bench_store).
WRITES_MOSTLY = {"outer", "broadcast_to", "broadcast_column"}


def store_floor(medians, config):
    """The faster of the two store loops of bench_kernels (ordinary, streaming), or None."""
    times = [medians.get(f"{config}/store/{kind}") for kind in ("ordinary", "streaming")]
    times = [t for t in times if t]
    return min(times) if times else None


def ceiling(medians, config, case):
    """The largest ratio over xtensor any loop that writes the output can reach, for WRITES_MOSTLY."""
    floor = store_floor(medians, config)
    t_xt = medians.get(f"{config}/{case}/xtensor")
    return t_xt / floor if case in WRITES_MOSTLY and floor and t_xt else None


def bytes_moved(case, m, n, s):
    """What a perfect loop reads and writes once, as bench_kernels.cpp counts it."""
    mn = m * n * s
    return {"same_shape": 3 * mn, "row": 2 * mn + n * s, "column": 2 * mn + m * s, "outer": mn + (m + n) * s,
            "broadcast_to": mn + n * s, "broadcast_column": mn + m * s, "sum_to_axis0": mn + n * s,
            "copy": 2 * mn}[case]


# numpy advises transparent huge pages for each array of 4 MiB or more (numpy/core/src/multiarray/alloc.c),
# which a C++ allocation does not get by default: a streaming read of a 9.6 MB batch then takes more TLB
# misses in C++ (channel_max: numpy 5% faster with its advice than without). glibc's malloc gives the same
# advice to its large blocks under this tunable, so every program of the run reads the same kind of memory.
SAME_PAGES = "glibc.malloc.hugetlb=1"
# What both sections of the report say of it.
MEMORY_LINE = (f"- Memory: every program of the run with `GLIBC_TUNABLES={SAME_PAGES}`: glibc's malloc then advises\n"
               "  transparent huge pages for its large blocks, as numpy does for its arrays of 4 MiB or more")


def same_pages_environment():
    """This process's environment with SAME_PAGES among its glibc tunables."""
    env = dict(os.environ)
    tunables = [t for t in env.get("GLIBC_TUNABLES", "").split(":")
                if t and not t.startswith("glibc.malloc.hugetlb=")]
    env["GLIBC_TUNABLES"] = ":".join([*tunables, SAME_PAGES])
    return env


def run(command, **kwargs):
    """Runs `command` under SAME_PAGES; on failure prints what it printed (when captured) and stops."""
    print("$", " ".join(str(c) for c in command), flush=True)
    result = subprocess.run(command, env=same_pages_environment(), **kwargs)
    if result.returncode != 0:
        for stream in (result.stdout, result.stderr):
            if stream:
                print(stream, file=sys.stderr)
        sys.exit(f"{Path(str(command[0])).name} failed with status {result.returncode}")
    return result


def build(build_dir, targets):
    """Configures build_dir for the benchmarks and builds `targets`; their paths, by name."""
    run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
         "-DXTENSOR_NAMED_BUILD_BENCHMARKS=ON", "-DXTENSOR_NAMED_BUILD_TESTS=OFF",
         "-DXTENSOR_NAMED_BUILD_EXAMPLES=OFF"])
    run(["cmake", "--build", str(build_dir), "--target", *targets])
    found = {}
    for target in targets:
        for candidate in [build_dir / "benchmarks" / target, build_dir / "benchmarks" / "Release" / target]:
            if candidate.exists():
                found[target] = candidate
                break
        else:
            sys.exit(f"{target} not found under {build_dir}")
    return found


# Google Benchmark's time units.
SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def timed_runs(report, clock="cpu_time"):
    """Every run of a Google Benchmark JSON report (repetitions and aggregates): the run, its benchmark's
    name without the "/real_time" that wall-clock benchmarks add, and its time in seconds (`clock`:
    "cpu_time" or "real_time")."""
    for b in report["benchmarks"]:
        yield b, b["run_name"].removesuffix("/real_time"), b[clock] * SECONDS_PER_UNIT[b.get("time_unit", "ns")]


def medians_of(report, clock="cpu_time"):
    """Median time in seconds of every benchmark of a Google Benchmark JSON report, by name."""
    return {name: seconds for b, name, seconds in timed_runs(report, clock)
            if b.get("run_type") != "aggregate" or b.get("aggregate_name") == "median"}


def cpu_description():
    """`- CPU: <model>, <n> cores seen (<caches>)`, from lscpu where there is one."""
    model = platform.processor() or platform.machine()
    if not shutil.which("lscpu"):
        return f"- CPU: {model}, {os.cpu_count()} cores seen"
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
    model = fields.get("Model name", model).strip()
    caches = ", ".join(f"{k.strip()} {fields[k].strip()}" for k in fields if k.strip().endswith("cache"))
    # A virtual machine's lscpu may list no caches.
    return f"- CPU: {model}, {os.cpu_count()} cores seen" + (f" ({caches})" if caches else "")


def machine_description(bench_output, build_dir):
    lines = [cpu_description()]
    arch = re.search(r"SIMD architecture (\S+)", bench_output)
    lines.append(f"- SIMD: {arch.group(1) if arch else 'unknown'} (xsimd's default architecture for "
                 f"`-march=native`)")
    compiler = None
    cache = build_dir / "CMakeCache.txt" if build_dir else None
    if cache and cache.exists():
        match = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.*)$", cache.read_text(), re.M)
        if match:
            version = subprocess.run([match.group(1), "--version"], capture_output=True, text=True).stdout
            compiler = version.splitlines()[0] if version else match.group(1)
    lines.append(f"- Compiler: {compiler or 'the one that built the given binary'}; Release "
                 f"(`-O3 -DNDEBUG`), `-march=native` (xtensor-named::optimize), `XTENSOR_USE_XSIMD`")
    lines.append(f"- System: {platform.system()} {platform.release()}, load average "
                 f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} when the run ended")
    return "\n".join(lines)


def table(medians, numpy, streaming_min_bytes=STREAMING_MIN_BYTES):
    rows = ["| case | size | xtensor | xtensor-named | ratio (bar) | ceiling | numpy | numpy / xtensor-named | "
            "Eigen | bandwidth share |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    verdicts = []
    for case, what, bars in CASES:
        for (config, label, m, n, s), bar in zip(CONFIGS, bars):
            t_xt = medians.get(f"{config}/{case}/xtensor")
            t_xn = medians.get(f"{config}/{case}/xtensor-named")
            t_eigen = medians.get(f"{config}/{case}/eigen")
            t_np = numpy.get(f"{config}/{case}/numpy")
            t_copy = medians.get(f"{config}/copy/memcpy")
            if not t_xt or not t_xn:
                continue
            ratio = t_xt / t_xn
            met = ratio >= bar
            top = ceiling(medians, config, case)
            verdicts.append((config, case, met, top is not None and top < bar))
            share = ""
            if t_copy and m * n >= 1000000:
                share_value = bytes_moved(case, m, n, s) / bytes_moved("copy", m, n, s) * t_copy / t_xn
                streaming = bytes_moved(case, m, n, s) >= streaming_min_bytes and case != "sum_to_axis0"
                need = SHARE_BAR["streaming" if streaming else "ordinary"]
                share = f"{share_value:.2f} (≥ {need})"
            cells = [f"`{what}`", label, f"{t_xt * 1e6:.0f} µs", f"{t_xn * 1e6:.0f} µs",
                     f"**{ratio:.1f}** (≥ {bar}){'' if met else ' ✗'}",
                     f"{top:.1f}" if top else "–",
                     f"{t_np * 1e6:.0f} µs" if t_np else "–",
                     f"{t_np / t_xn:.2f}" if t_np else "–",
                     f"{t_eigen * 1e6:.0f} µs" if t_eigen else "–", share]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows), verdicts


def plot(medians, numpy, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(CONFIGS), figsize=(16, 5.2), sharey=True)
    names = [case for case, _, _ in CASES]
    series = [("xtensor-named", "xtensor-named", "#1f6fb4"), ("numpy", "numpy", "#e8912d"), ("eigen", "Eigen", "#6aa84f")]
    width = 0.26
    for ax, (config, label, *_), index in zip(axes, CONFIGS, range(len(CONFIGS))):
        for k, (key, legend, color) in enumerate(series):
            values = []
            for case in names:
                t_xt = medians.get(f"{config}/{case}/xtensor")
                t = numpy.get(f"{config}/{case}/numpy") if key == "numpy" else medians.get(f"{config}/{case}/{key}")
                values.append(t_xt / t if t_xt and t else 0)
            positions = [i + (k - 1) * width for i in range(len(names))]
            ax.bar(positions, values, width, label=legend, color=color)
        for i, (case, _, bars) in enumerate(CASES):
            ax.plot([i - 1.5 * width, i - 0.5 * width], [bars[index]] * 2, color="black", linewidth=2.5)
            top = ceiling(medians, config, case)
            if top:
                ax.plot([i - 1.5 * width, i - 0.5 * width], [top] * 2, color="#b42d1f", linewidth=1.5,
                        linestyle=":")
        ax.axhline(1, color="grey", linewidth=0.8, linestyle="--")
        ax.set_yscale("log")
        ax.set_title(label)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([n.replace("_", "\n") for n in names], fontsize=8)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("speed-up over xtensor's xt::noalias(out) = expr\n(higher is faster; log scale)")
    axes[0].plot([], [], color="black", linewidth=2.5, label="the bar for xtensor-named")
    axes[0].plot([], [], color="#b42d1f", linewidth=1.5, linestyle=":",
                 label="ceiling: a loop that only stores the output")
    axes[0].legend(fontsize=8, loc="upper left")
    figure.suptitle("Broadcasting kernels: speed-up over xtensor (median CPU time, same process, interleaved)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    print(f"wrote {path}")


def kernels_readme(args, bench, build_dir, command):
    """Runs bench_kernels and bench_numpy.py and returns the README without its Pipelines section."""
    json_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_kernels_{os.getpid()}.json"
    result = run([str(bench), f"--benchmark_out={json_path}", "--benchmark_out_format=json",
                  "--benchmark_color=false", *args.bench_args], capture_output=True, text=True)
    print(result.stdout)
    bench_output = result.stdout
    medians = medians_of(json.loads(json_path.read_text()))
    json_path.unlink()

    python = args.numpy_python or sys.executable
    numpy_run = run([python, str(ROOT / "benchmarks" / "bench_numpy.py"), "--json"], capture_output=True, text=True)
    numpy_report = json.loads(numpy_run.stdout)
    numpy = numpy_report["medians"]

    threshold = re.search(r"streaming stores from (\d+) bytes", bench_output)
    streaming_min_bytes = int(threshold.group(1)) if threshold else STREAMING_MIN_BYTES
    threshold_text = f"{streaming_min_bytes / (1 << 20):.0f} MiB"
    rows, verdicts = table(medians, numpy, streaming_min_bytes)
    own_table = bench_output[bench_output.find("Ratios of median"):].strip()
    header = bench_output.splitlines()[0] if bench_output else ""
    missed = [f"{config} {case}" for config, case, met, _ in verdicts if not met]
    out_of_reach = [f"{config} {case}" for config, case, _, above in verdicts if above]
    slower_than_numpy = []
    for case, _, _ in CASES:
        for config, *_ in CONFIGS:
            t_xn = medians.get(f"{config}/{case}/xtensor-named")
            t_np = numpy.get(f"{config}/{case}/numpy")
            if t_xn and t_np and t_np < t_xn:
                slower_than_numpy.append(f"{config} {case}")
    given = [a.split("=", 1)[1] for a in args.bench_args if a.startswith("--benchmark_repetitions=")]
    repetitions = given[-1] if given else "15"
    image = os.path.relpath(args.plot, args.readme.parent)
    readme = f"""# Benchmarks of the broadcasting kernels

xtensor-named's kernels must beat xtensor's own assignment by fixed ratios on
broadcasting cases. `bench_kernels.cpp` times, in one process and in random interleaved order,
`xt::noalias(out) = expr` (xtensor), `xn::assign(out, named expr)` (xtensor-named), Eigen where it has
the same operation, and a `memcpy` of the same size for the machine's bandwidth; `bench_numpy.py` times
numpy ({numpy_report['numpy']}) on the same shapes with preallocated outputs. Times are medians of {repetitions}
repetitions of CPU time (the machine is shared: CPU time leaves out the time the process waits for a
core, and xtensor and xtensor-named are measured alike).

## Run them

```sh
/usr/bin/python3 benchmarks/run_all.py
```

builds `bench_kernels` and `bench_pipelines` in `build/bench` (Release, `-march=native` through the
opt-in target `xtensor-named::optimize`), runs them, `bench_numpy.py` and `bench_pipelines.py`, and
writes this file, `docs/benchmarks.png` and `docs/benchmarks_pipelines.png`. With `--pipelines-only`
it runs only the pipelines and rewrites only their section and plot. Each benchmark alone prints its
own table (`cmake --workflow --preset bench` runs them all). `/usr/bin/python3 benchmarks/compile_cost.py`
measures what the library costs the compiler and rewrites the Compile cost section.

## Machine

{machine_description(bench_output, build_dir)}
{MEMORY_LINE}
- Date: {datetime.date.today().isoformat()}
- Command: `{command}`

## Results

![speed-up over xtensor]({image})

{rows}

Ratio: xtensor's time over xtensor-named's (higher is better), with the bar it must reach. numpy /
xtensor-named: above 1 where xtensor-named is faster. Bandwidth share (2000×2000 only): the time a
copy at the measured `memcpy` bandwidth would take to move the bytes of the case, over xtensor-named's
time. Ceiling (cases whose cost is writing the output): xtensor's time over that of the faster of two
loops that do nothing but store one splatted register over the whole output, with ordinary or with
streaming stores (`store/ordinary`, `store/streaming` in `bench_kernels`): the largest ratio any
implementation can reach on this machine. Evaluations that move {threshold_text} or more (this machine's
threshold, docs/kernels.md) write with streaming stores, and smaller plain copies go through `memcpy`'s
fast strings: neither reads the output before writing it, so that this share can exceed 1 where the
measured `memcpy` reads the output first.

{"Every ratio meets its bar." if not missed else "Below the bar in this run: " + ", ".join(missed) + "."}
{"" if not out_of_reach else "Bars above the ceiling of this machine (no loop that writes the output can reach them): " + ", ".join(out_of_reach) + "."}
{"xtensor-named is at least as fast as numpy in every case." if not slower_than_numpy else "Slower than numpy in this run: " + ", ".join(slower_than_numpy) + "."}

The benchmark's own output:

```
{header}
{own_table}
```

## Reading the results

- The bars are ratios to xtensor, and xtensor's times are mostly those of its element-by-element loop;
  the kernels' times are bounded by the memory system. Where the bandwidth share is near or above 1,
  xtensor-named moves the case's bytes at the speed of a `memcpy` of the same size: a bar it misses
  there cannot be met on this machine by any loop. Materialised broadcasts are such cases: their whole
  cost is writing the output.
- Materialised broadcasts do nothing but write their output. xtensor writes a `broadcast_to` of a row
  at 3 to 4 times the store loop's time, so the bars of 5 and 15 are above this machine's ceiling for
  that case. The kernels' share of the store loop's speed is their ratio over the ceiling: near 1 for
  the 2000×2000 cases, lower for 256×256, whose runs of a few microseconds include a call's fixed cost.
- The 256×256 cases take a few microseconds, and building the named expression is part of that:
  `bench_plans` times building `a(i, j) + v(j)` alone, with its plan from the thread's plan cache
  (operands of dims and shapes seen before) and with a new plan at every call, against building the
  xtensor expression. That cost decides the same-shape and row ratios there: the kernels' own loops
  run within a few per cent of xtensor's SIMD loops.
- The machine is a shared virtual machine: runs differ by 10 to 20 % from one another, and a ratio
  near its bar may fall on either side.

## What the cases measure

- Same shape and row broadcasts already run in xtensor's SIMD loops: the bar only asks that the
  library's own loops lose nothing.
- Column broadcasts, outer sums, materialised broadcasts and sums over the outer axis run in xtensor
  through its stepper, one element at a time; the kernels run them in SIMD batches (a stride-0
  operand is a splatted register) and sum over outer axes row by row.
- The 256×256 cases fit the L2 and L3 caches: there the fixed cost of a call counts, including
  building the named expression (`bench_plans`).
- Results of the kernels equal xtensor's bit for bit for `+ - * /` (tests/test_xkernels.cpp); sums
  over outer axes too, sums along the innermost axis within the bound of recursive summation.
"""
    plot(medians, numpy, args.plot)
    return readme


# The pipelines of bench_pipelines.cpp, in its order: name, what it computes, and the bar for
# xtensor-named / the hand loop.
PIPELINES = [("normalize", "(x - m[c]) / s[c]", 1.3),
             ("normalize_large", "(x - m[c]) / s[c], x (1024, 3, 224, 224): 1.15 GiB moved", 1.3),
             ("normalize_masked", "where(lbl == 1, (x - m[c]) / s[c], 0)", 1.3),
             ("exp", "exp(x)", 1.3),
             ("relu", "where(x > 0, x, 0)", 1.3),
             ("channel_mean", "mean of x over (n, h, w)", 1.3),
             ("channel_max", "max of x over (n, h, w)", 1.3),
             ("image_sum", "sum of x over (c, h, w)", 1.3),
             ("softmax", "e = exp(x - max over c); e / sum(e over c)", 2.0),
             ("row_column", "(A + u[x]) * v[y]", 1.3),
             ("chain3", "(A + B) * C - A", 1.3),
             ("anomaly", "x - nanmean(x over time), x an outer join with NaN", 2.0),
             ("join_anomaly", "j = a + b (outer join on time); j - nanmean(j over time)", 2.0)]

# The columns of the pipelines' table and plot: label, the implementation's name in the benchmarks.
PIPELINE_COLUMNS = [("hand", "hand"), ("xtensor", "xtensor"), ("xtensor-named", "named"), ("numpy", "numpy"),
                    ("PyTorch", "torch")]


def repetition_samples(report, clock="cpu_time"):
    """Every repetition's time in seconds of a Google Benchmark JSON report, by benchmark name."""
    samples = {}
    for b, name, seconds in timed_runs(report, clock):
        if b.get("run_type") == "iteration":
            samples.setdefault(name, []).append(seconds)
    return samples


def run_pipelines(args, bench, family="pipelines"):
    """Runs bench_<family> and bench_<family>.py (family: pipelines or layouts) in turn, args.rounds times
    each; the medians (seconds) of every case's repetitions over all rounds and of each round's, context and
    notes.

    Alternating the programs spreads what a shared machine does over minutes across every implementation,
    rather than into the one program that happened to run then."""
    json_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_{family}_{os.getpid()}.json"
    extra_args = args.pipelines_arg if family == "pipelines" else args.layouts_arg
    given = [a.split("=", 1)[1] for a in extra_args if a.startswith("--benchmark_repetitions=")]
    repetitions = int(given[-1]) if given else args.repetitions
    timing = [f"--benchmark_min_time={args.min_time}"] if args.min_time else []
    python = args.numpy_python or sys.executable
    python_timing = [f"--min-time={args.min_time}"] if args.min_time else []
    samples, notes = {}, {}  # samples: by name, each round's repetitions
    for round_index in range(args.rounds):
        print(f"Round {round_index + 1} of {args.rounds}", flush=True)
        # Every repetition goes to the JSON file; the console shows the medians of this round.
        result = run([str(bench), f"--scale={args.scale}", f"--benchmark_out={json_path}",
                      "--benchmark_out_format=json", "--benchmark_color=false",
                      f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=false",
                      "--benchmark_display_aggregates_only=true", *timing, *extra_args],
                     capture_output=True, text=True)
        print(result.stdout)
        report = json.loads(json_path.read_text())
        json_path.unlink()
        for name, times in repetition_samples(report).items():
            samples.setdefault(name, []).append(times)

        python_run = run([python, str(ROOT / "benchmarks" / f"bench_{family}.py"), "--json",
                          f"--scale={args.scale}", f"--repetitions={repetitions}", f"--seed={round_index}",
                          *python_timing], capture_output=True, text=True)
        print(python_run.stderr)
        python_report = json.loads(python_run.stdout)
        for name, times in python_report["samples"].items():
            samples.setdefault(name, []).append(times)
        notes.update(python_report.get("notes", {}))

    medians = {name: statistics.median(t for times in rounds for t in times) for name, rounds in samples.items()}
    round_medians = {name: [statistics.median(times) for times in rounds] for name, rounds in samples.items()}
    output = result.stdout
    return {"medians": medians, "round_medians": round_medians, "context": report.get("context", {}), "notes": notes,
            "numpy": python_report.get("numpy"), "torch": python_report.get("torch"),
            "rounds": args.rounds, "repetitions": repetitions,
            "table": output[output.find(f"{family.capitalize()} ("):].strip()}


# The layouts of bench_layouts.cpp, in its order: name, what it computes, and the bar of xtensor-named's
# time over the hand loop's (1.5, or 2 with a reduction).
LAYOUTS = [("points_offset", "(p - c[xyz]) * w[n], p (n, xyz)", 1.5),
           ("points_distance", "sqrt(sum((p - c[xyz])^2, xyz))", 2),
           ("points_centroid", "sum(p, n)", 2),
           ("nhwc_normalize", "(x - m[c]) / s[c], x (n, h, w, c)", 1.5),
           ("nhwc_sum_c", "sum(x, c)", 2),
           ("nhwc_channel_max", "amax(x, (n, h, w))", 2),
           ("nhwc_softmax", "e = exp(x - amax(x, c)); e / sum(e, c)", 2),
           ("column_major_column", "A(x, y) + u[x], A and the output column-major, f64", 1.5),
           ("other_order", "B(x, y) + C(y, x), f64", 1.5),
           ("other_order_sum", "sum(B(x, y) * C(y, x), x), f64", 2),
           ("other_order_sum_y", "sum(B(x, y) * C(y, x), y), f64", 2),
           ("strided_row", "B[:, ::2](x, y) * v[y], f64", 1.5),
           ("rank5_mean", "x - mean(x, d), x (a, b, c, d, e), d short", 2),
           ("rank6_scale", "x * g[c] + k[e], x (a, b, c, d, e, f), b, c, e short", 1.5)]


def pipeline_time(p, case, key):
    """The median of `case` by one implementation, in seconds, or None."""
    return p["medians"].get(f"{case}/{key}")


def rounds_won(p, case, other):
    """` (k/n)`: in how many of the n rounds xtensor-named's median of `case` was no slower than `other`'s.
    A tie of one memory pass shows here as a split, where a slower path loses every round."""
    named, theirs = (p["round_medians"].get(f"{case}/{key}") for key in ("named", other))
    if not named or not theirs:
        return ""
    return f" ({sum(n <= t for n, t in zip(named, theirs))}/{len(named)})"


def format_time(seconds):
    """`12 µs`, `1.23 ms`: the unit that keeps three digits."""
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs" if seconds < 1e-4 else f"{seconds * 1e6:.0f} µs"


def pipelines_section(p, args, command, image):
    """The Pipelines section of benchmarks/README.md, from its heading to its end."""
    rows = ["| case | computes | hand | xtensor | xtensor-named | numpy | PyTorch | named / hand (bar) | "
            "xtensor / named | numpy / named | PyTorch / named |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    missed = []
    for case, what, bar in PIPELINES:
        times = {label: pipeline_time(p, case, key) for label, key in PIPELINE_COLUMNS}
        named, hand, xtensor = times["xtensor-named"], times["hand"], times["xtensor"]
        cells = [f"`{case}`", f"`{what}`"] + [format_time(t) if t else "–" for t in times.values()]
        if named and hand:
            met = named / hand <= bar
            cells.append(f"**{named / hand:.2f}** (≤ {bar}){'' if met else ' ✗'}")
            if not met:
                missed.append(f"{case} (named / hand)")
        else:
            cells.append("–")
        if named and xtensor:
            met = named <= xtensor
            cells.append(f"{xtensor / named:.2f}{rounds_won(p, case, 'xtensor')}{'' if met else ' ✗'}")
            if not met:
                missed.append(f"{case} (slower than xtensor)")
        else:
            cells.append("–")
        if named and times["numpy"]:
            met = named <= times["numpy"]
            cells.append(f"{times['numpy'] / named:.2f}{rounds_won(p, case, 'numpy')}{'' if met else ' ✗'}")
            if not met:
                missed.append(f"{case} (slower than numpy)")
        else:
            cells.append("–")
        cells.append(f"{times['PyTorch'] / named:.2f}" if named and times["PyTorch"] else "–")
        rows.append("| " + " | ".join(cells) + " |")
    context = p["context"]
    sizes = "; ".join(f"{what} {context[f'pipelines_{key}']}" for key, what in
                      [("images", "images x"), ("matrices", "matrices A, B, C"), ("series", "series a, b")]
                      if f"pipelines_{key}" in context)
    scale = context.get("pipelines_scale", args.scale)
    warning = ("\n**Small sizes: a check that the chain works, not a measurement.**\n" if scale == "small" else "")
    notes = "\n".join(f"- `{name}`: {note}" for name, note in p["notes"].items())
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"""## Pipelines

What users write: several operations, math functions and reductions by name in one expression (speed is
judged on such pipelines). `bench_pipelines.cpp` times each case, in one process and in random
interleaved order, on the same inputs into preallocated outputs: a loop written by hand over raw pointers
(the floor: what a good C++ programmer writes without intrinsics; the compiler vectorises what it may
without `-ffast-math`, reductions in independent lanes), xtensor's own evaluation with its broadcasting
spelled out (`xt::noalias(out) = ...`; a reduction that feeds an operation evaluated first into a buffer,
as xtensor's lazy reducers would recompute it at every element), and xtensor-named
(`xn::assign(out, named expression)`, the expression built in the timed loop, default strategy
`xn::missing_dims`). `bench_pipelines.py` times numpy ({p['numpy']}) and PyTorch ({p['torch']}, one
thread, inference mode) on the same shapes and the same data, with `out=` where the API has it. Every
implementation is checked against the hand loop (numpy and PyTorch against a float64 reference) before
anything is timed. The two programs run in turn, {p['rounds']} times each, {p['repetitions']} repetitions of
each case a time: a time is the median CPU time of a case's {p['rounds'] * p['repetitions']} repetitions
over all rounds, so that what the shared machine does over minutes falls on every implementation alike.
{warning}
{cpu_description()} (the pipelines may have run on another machine than the section above)
- Sizes ({scale}): {sizes}
{MEMORY_LINE}
- Date: {datetime.date.today().isoformat()}, load average {load} when the run ended
- Command: `{command}`

The bar: xtensor-named within 1.3 times the hand loop (2 times where a reduction feeds an operation:
softmax, anomaly, join_anomaly), and no slower than xtensor or numpy.

![time over the hand loop's, per pipeline]({image})

{chr(10).join(rows)}

Ratios of median CPU times. named / hand: xtensor-named's time over the hand loop's, with the bar.
xtensor / named, numpy / named, PyTorch / named: above 1 where xtensor-named is faster; (k/n): in k of
the n rounds, xtensor-named's median was no slower (a split is a tie within the machine's noise). ✗ marks
a missed bar.

{"Every pipeline meets the bar." if not missed else "Missed in this run: " + ", ".join(missed) + "."}

{notes}

The benchmark's own table, from its last round (medians of that round's repetitions only):

```
{p['table']}
```

Only the pipelines, quickly (this section and its plot):

```sh
/usr/bin/python3 benchmarks/run_all.py --pipelines-only
/usr/bin/python3 benchmarks/run_all.py --pipelines-only --scale small --min-time 0.02   # into build/bench/report/
```
"""


def layouts_section(p, args, command):
    """The Layouts section of benchmarks/README.md, from its heading to its end."""
    rows = ["| case | computes | hand | xtensor | xtensor-named | numpy | PyTorch | xtensor / hand | "
            "named / hand (bar) | numpy / hand | PyTorch / hand |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    missed = []
    for case, what, bar in LAYOUTS:
        times = {label: pipeline_time(p, case, key) for label, key in PIPELINE_COLUMNS}
        hand, named = times["hand"], times["xtensor-named"]
        cells = [f"`{case}`", f"`{what}`"] + [format_time(t) if t else "–" for t in times.values()]
        for label in ("xtensor", "xtensor-named", "numpy", "PyTorch"):
            if not (times[label] and hand):
                cells.append("–")
            elif label == "xtensor-named":
                met = named / hand <= bar
                cells.append(f"**{named / hand:.2f}** (≤ {bar}){'' if met else ' ✗'}")
                if not met:
                    missed.append(f"{case} (named / hand)")
            else:
                # xtensor-named is to be no slower than each of the others.
                slower = named is not None and named > times[label]
                cells.append(f"{times[label] / hand:.2f}{' ✗' if slower else ''}")
                if slower:
                    missed.append(f"{case} (slower than {label})")
        rows.append("| " + " | ".join(cells) + " |")
    context = p["context"]
    sizes = "; ".join(f"{what} {context[f'layouts_{key}']}" for key, what in
                      [("points", "points p"), ("images", "images x (n, h, w, c)"), ("matrices", "matrices A, B, C"),
                       ("rank5", "rank 5"), ("rank6", "rank 6")] if f"layouts_{key}" in context)
    scale = context.get("layouts_scale", args.scale)
    warning = ("\n**Small sizes: a check that the chain works, not a measurement.**\n" if scale == "small" else "")
    notes = "\n".join(f"- `{name}`: {note}" for name, note in p["notes"].items())
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"""## Layouts

The layouts that make a traversal hard: a short innermost axis (a point cloud (n, xyz), images with their
channels last), a column-major matrix, an operand stored in the other axis order, a strided view, and
ranks 5 and 6 with short axes between long ones. `bench_layouts.cpp` times each case as
`bench_pipelines.cpp` does (the same protocol, in one process and in random interleaved order, into
preallocated outputs): a loop written by hand over raw pointers (the floor; the transposed operand read in
tiles of 32 × 32, or down its columns for a sum along its lines), xtensor's own evaluation of the plain
expression (`xt::noalias(out) = ...`, a reduction that feeds an operation evaluated first into a
buffer), and xtensor-named (`xn::assign(out, named expression)`, the expression built in the timed
loop). xtensor's values are the reference: the hand
loop and xtensor-named are checked against them before anything is timed. `bench_layouts.py` times numpy
({p['numpy']}) and PyTorch ({p['torch']}, one thread, inference mode) on the same shapes, memory orders
and data, with `out=` where the API has it, checked against a float64 reference. The two programs run in
turn, {p['rounds']} times each, {p['repetitions']} repetitions of each case a time: a time is the median
CPU time of a case's {p['rounds'] * p['repetitions']} repetitions over all rounds. The machine was shared
with other work during the run (other builds on its cores): CPU time leaves out the time a process waits
for a core, but a shared cache and memory bus still add noise of 10 to 20 %.
{warning}
{cpu_description()}
- Sizes ({scale}): {sizes}
{MEMORY_LINE}
- Date: {datetime.date.today().isoformat()}, load average {load} when the run ended
- Command: `{command}`

The bar: xtensor-named within 1.5 times the hand loop (2 times with a reduction), and no slower than
xtensor, numpy or PyTorch.

{chr(10).join(rows)}

Ratios of median CPU times to the hand loop's (below 1: faster than the hand loop). ✗ marks a missed
bar: named / hand above its bar, or another implementation's ratio where it is faster than xtensor-named.

{"Every layout meets the bar." if not missed else "Missed in this run: " + ", ".join(missed) + "."}
{chr(10) + notes + chr(10) if notes else ""}
The benchmark's own table, from its last round (medians of that round's repetitions only):

```
{p['table']}
```
"""


def plot_pipelines(p, path):
    """Bars per pipeline: each implementation's time over the hand loop's, with the bar of xtensor-named."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [("xtensor", "#6aa84f"), ("xtensor-named", "#1f6fb4"), ("numpy", "#e8912d"), ("PyTorch", "#a64d79")]
    keys = dict(PIPELINE_COLUMNS)
    figure, ax = plt.subplots(figsize=(14, 5.2))
    width = 0.2
    for k, (label, color) in enumerate(series):
        positions, values = [], []
        for i, (case, *_rest) in enumerate(PIPELINES):
            hand = pipeline_time(p, case, "hand")
            t = pipeline_time(p, case, keys[label])
            if hand and t:
                positions.append(i + (k - 1.5) * width)
                values.append(t / hand)
        ax.bar(positions, values, width, label=label, color=color)
    # The bar over xtensor-named's column (the second of four).
    for i, (_, _, bar) in enumerate(PIPELINES):
        ax.plot([i - width, i], [bar, bar], color="black", linewidth=2.5)
    ax.axhline(1, color="grey", linewidth=0.8, linestyle="--", label="the hand loop")
    ax.set_yscale("log")
    ax.set_xticks(range(len(PIPELINES)))
    ax.set_xticklabels([case.replace("_", "\n") for case, *_ in PIPELINES], fontsize=8)
    ax.set_ylabel("median CPU time / the hand loop's\n(lower is faster; log scale)")
    ax.plot([], [], color="black", linewidth=2.5, label="bar for xtensor-named")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=6, frameon=False)
    ax.grid(axis="y", which="both", alpha=0.3)
    scale = p["context"].get("pipelines_scale", "")
    ax.set_title("Pipelines: time over a hand-written loop (median CPU time; C++ in one process, interleaved)"
                 + (" — SMALL SIZES, not a measurement" if scale == "small" else ""))
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    print(f"wrote {path}")


def section_span(text, heading):
    """Where the section that starts at `heading` is in `text` (up to the next heading of its level): its
    start and end offsets, the end None for the last section; None when there is no such section."""
    # A newline before the text finds a heading on its first line too; offsets in `padded` less one are
    # offsets in `text`, and a heading's own offset is that of the newline before it in `padded`.
    padded = "\n" + text
    start = padded.find(f"\n{heading}\n")
    if start < 0:
        return None
    level = heading.split(" ", 1)[0]
    end = padded.find(f"\n{level} ", start + 1)
    return start, (end if end >= 0 else None)


def replace_section(text, heading, section):
    """`text` with the section that starts at `heading` (up to the next one of its level) replaced."""
    span = section_span(text, heading)
    if span is None:
        return text.rstrip() + "\n\n" + section if text.strip() else section
    start, end = span
    return text[:start] + section + (text[end - 1:] if end is not None else "")


def with_subsections(section, text, heading, marker="\n### "):
    """`section` followed by what was written by hand under the generated part of the section at `heading`
    in `text`, from the first `marker` on (by default its subsections, `### ` headings), so that rewriting
    a section keeps it."""
    span = section_span(text, heading)
    if span is None:
        return section
    start, end = span
    previous = text[start:end - 1] if end is not None else text[start:]
    at = previous.find(marker)
    if at < 0:
        return section
    return section.rstrip("\n") + "\n\n" + previous[at:].strip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", type=Path, help="an existing bench_kernels; built otherwise")
    parser.add_argument("--pipelines-bench", type=Path, help="an existing bench_pipelines; built otherwise")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "bench")
    parser.add_argument("--numpy-python", default=None,
                        help="the Python with numpy and PyTorch (default: this one)")
    parser.add_argument("--pipelines-only", action="store_true",
                        help="run only the pipelines; rewrite only their README section and plot")
    parser.add_argument("--layouts-only", action="store_true",
                        help="run only the layouts; rewrite only their README section (with --pipelines-only: both)")
    parser.add_argument("--layouts-bench", type=Path, help="an existing bench_layouts; built otherwise")
    parser.add_argument("--scale", choices=["full", "small"], default="full",
                        help="sizes of the pipelines and layouts (small: a quick check, reported under the build directory)")
    parser.add_argument("--min-time", type=float, default=None,
                        help="seconds per repetition of each pipeline (default: the tools' own)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="how many times bench_pipelines and bench_pipelines.py run, in turn (default 5)")
    parser.add_argument("--repetitions", type=int, default=3,
                        help="repetitions of each pipeline case in each round (default 3)")
    parser.add_argument("--pipelines-arg", action="append", default=[],
                        help="one more argument for bench_pipelines, e.g. --pipelines-arg=--benchmark_filter=exp")
    parser.add_argument("--layouts-arg", action="append", default=[],
                        help="one more argument for bench_layouts, e.g. --layouts-arg=--benchmark_filter=nhwc")
    parser.add_argument("--readme", type=Path, default=None, help="default: benchmarks/README.md")
    parser.add_argument("--plot", type=Path, default=None, help="default: docs/benchmarks.png")
    parser.add_argument("--pipelines-plot", type=Path, default=None, help="default: docs/benchmarks_pipelines.png")
    parser.add_argument("bench_args", nargs="*", help="more arguments for bench_kernels (after --)")
    args = parser.parse_args()
    if args.rounds < 1 or args.repetitions < 1:
        parser.error("--rounds and --repetitions take a positive count")

    # Small sizes are no measurement: their report stays out of the repository unless asked for.
    report_dir = args.build_dir / "report" if args.scale == "small" else None
    args.readme = args.readme or (report_dir or ROOT / "benchmarks") / "README.md"
    args.plot = args.plot or (report_dir or ROOT / "docs") / "benchmarks.png"
    args.pipelines_plot = args.pipelines_plot or (report_dir or ROOT / "docs") / "benchmarks_pipelines.png"
    command = " ".join(["/usr/bin/python3 benchmarks/run_all.py", *(shlex.quote(a) for a in sys.argv[1:])])

    # Without --pipelines-only or --layouts-only everything runs; with either, only what it names.
    only = args.pipelines_only or args.layouts_only
    run_kernels = not only
    run_pipeline_family = args.pipelines_only or not only
    run_layouts = args.layouts_only or not only
    targets = [t for t, skipped in [("bench_kernels", args.bench or not run_kernels),
                                    ("bench_pipelines", args.pipelines_bench or not run_pipeline_family),
                                    ("bench_layouts", args.layouts_bench or not run_layouts)] if not skipped]
    built = build(args.build_dir, targets) if targets else {}
    build_dir = args.build_dir if "bench_kernels" in built else None

    # What other scripts or a hand wrote stays as it was: whole sections, and the subsections under the
    # Pipelines and Layouts sections.
    previous = args.readme.read_text() if args.readme.exists() else ""
    readme = None
    if run_kernels:
        readme = kernels_readme(args, args.bench or built["bench_kernels"], build_dir, command)
        # The sections compile_cost.py and configurations.py give figures for stay as they were.
        for heading in ("## Compile cost", "## Threads", "## Instruction sets", "## Python"):
            span = section_span(previous, heading)
            if span is not None:
                readme = replace_section(readme, heading, previous[span[0]:span[1]])
    elif args.readme.exists():
        readme = previous
    args.readme.parent.mkdir(parents=True, exist_ok=True)
    if run_pipeline_family:
        pipelines = run_pipelines(args, args.pipelines_bench or built["bench_pipelines"])
        section = pipelines_section(pipelines, args, command,
                                    os.path.relpath(args.pipelines_plot, args.readme.parent))
        readme = replace_section(readme or "", "## Pipelines", with_subsections(section, previous, "## Pipelines"))
        args.readme.write_text(readme)
        print(f"wrote {args.readme}")
        plot_pipelines(pipelines, args.pipelines_plot)
    if run_layouts:
        layouts = run_pipelines(args, args.layouts_bench or built["bench_layouts"], "layouts")
        section = layouts_section(layouts, args, command)
        readme = replace_section(readme or "", "## Layouts", with_subsections(section, previous, "## Layouts"))
        # The last section, by bench_small and a hand: after the Layouts where a full run rebuilt the rest.
        span = section_span(previous, "## Small arrays")
        if run_kernels and span is not None:
            readme = replace_section(readme, "## Small arrays", previous[span[0]:span[1]])
        args.readme.write_text(readme)
        print(f"wrote {args.readme}")


if __name__ == "__main__":
    main()
