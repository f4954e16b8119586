"""The anomaly of a (station: 256, time: 5000) float64 DataArray, x - mean(x over time), three ways:
through the example module (xn_example.anomaly, examples/python/xn_example.cpp), by the same C++
called directly (bench_python.cpp: over an owning xt::xarray, and over an adaptor of the buffer as the
module sees it; both with the labels), through the module on x without coordinates (what the labels
cost at the boundary), and by xarray itself (x - x.mean("time")). The ways run in turns, several rounds, so
that a busy machine slows each alike; the bars are judged on medians of CPU time (as the other
benchmarks are: on a shared machine it leaves out the time a process waits for a core), the wall times
are printed beside them.

    /usr/bin/python3 benchmarks/bench_python.py [--build-dir build/bench] [--rounds 5]

Builds the targets xn_example and bench_python in the build directory (the preset `bench`: Release,
-march=native through xtensor-named::optimize, configured when the directory has no build yet).
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STATIONS, TIMES = 256, 5000


def build(build_dir):
    if not (build_dir / "CMakeCache.txt").exists():
        subprocess.run(["cmake", "--preset", "bench", "-B", str(build_dir),
                        "-DXTENSOR_NAMED_PYTHON=/usr/bin/python3"], cwd=ROOT, check=True)
    subprocess.run(["cmake", "--build", str(build_dir), "--target", "xn_example", "bench_python", "-j1"],
                   cwd=ROOT, check=True)


def cpp_times(build_dir, repetitions):
    """Per benchmark, the CPU times and the wall times of one call in each repetition, in seconds."""
    output = subprocess.run(
        [str(build_dir / "benchmarks" / "bench_python"), "--benchmark_format=json",
         f"--benchmark_repetitions={repetitions}"],
        check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(output)["benchmarks"]:
        if b.get("run_type") == "iteration":
            assert b["time_unit"] == "us"
            entry = times.setdefault(b["run_name"].split("/")[1], {"cpu": [], "wall": []})
            entry["cpu"].append(b["cpu_time"] * 1e-6)
            entry["wall"].append(b["real_time"] * 1e-6)
    return times


def per_call(f, seconds):
    """The CPU times and the wall times of calls of f made for about `seconds`."""
    cpu, wall = [], []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(cpu) < 5:
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        f()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return {"cpu": cpu, "wall": wall}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "bench")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="of calls per way and round")
    parser.add_argument("--no-build", action="store_true", help="use the targets as they are")
    args = parser.parse_args()
    if not args.no_build:
        build(args.build_dir)
    sys.path.insert(0, str(args.build_dir / "examples" / "python"))
    import numpy as np
    import xarray as xr
    import xn_example

    values = ((np.arange(STATIONS * TIMES) * 7919) % 1000 / 10.0).reshape(STATIONS, TIMES)
    x = xr.DataArray(values, dims=("station", "time"),
                     coords={"station": np.arange(STATIONS), "time": np.arange(TIMES) * 60})
    ours = xn_example.anomaly(x, "time")
    theirs = x - x.mean("time")
    xr.testing.assert_allclose(ours, theirs)
    assert ours.dims == theirs.dims

    bare = xr.DataArray(values, dims=("station", "time"))
    ways = ("cpp_xarray", "cpp_adaptor", "module", "module_bare", "xarray")
    samples = {w: {"cpu": [], "wall": []} for w in ways}

    def add(way, times):
        for clock in ("cpu", "wall"):
            samples[way][clock] += times[clock]

    for _ in range(args.rounds):
        add("module", per_call(lambda: xn_example.anomaly(x, "time"), args.seconds))
        add("module_bare", per_call(lambda: xn_example.anomaly(bare, "time"), args.seconds))
        add("xarray", per_call(lambda: x - x.mean("time"), args.seconds))
        cpp = cpp_times(args.build_dir, 5)
        add("cpp_xarray", cpp["xarray"])
        add("cpp_adaptor", cpp["adaptor"])

    labels = {
        "cpp_xarray": "C++ called directly, x over an xt::xarray",
        "cpp_adaptor": "C++ called directly, x over an adaptor",
        "module": "xn_example.anomaly(x, 'time')",
        "module_bare": "the same, x without coordinates",
        "xarray": "xarray: x - x.mean('time')",
    }
    median = {w: {c: statistics.median(samples[w][c]) for c in ("cpu", "wall")} for w in ways}
    least = {w: min(samples[w]["wall"]) for w in ways}
    direct = {c: min(median["cpp_xarray"][c], median["cpp_adaptor"][c]) for c in ("cpu", "wall")}
    print(f"anomaly of a ({STATIONS}, {TIMES}) float64 DataArray over time, {args.rounds} rounds; "
          "medians of the CPU and the wall time of a call, and the least wall time:")
    print(f"  {'':44} {'CPU':>9} {'wall':>9} {'least':>9}")
    for w in ways:
        print(f"  {labels[w]:44} {median[w]['cpu'] * 1e6:7.0f}us {median[w]['wall'] * 1e6:7.0f}us"
              f" {least[w] * 1e6:7.0f}us")
    ratio = median["module"]["cpu"] / direct["cpu"]
    ratio_wall = median["module"]["wall"] / direct["wall"]
    speedup = median["xarray"]["cpu"] / median["module"]["cpu"]
    print(f"module / C++ called directly (the faster): {ratio:.2f} (CPU), {ratio_wall:.2f} (wall); bar 1.5")
    print(f"xarray / module: {speedup:.2f} (CPU), "
          f"{median['xarray']['wall'] / median['module']['wall']:.2f} (wall); bar > 1")
    ok = ratio <= 1.5 and speedup > 1
    print("bars met" if ok else "a bar is not met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
