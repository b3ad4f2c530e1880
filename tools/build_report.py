"""Compile time of a build, from its .ninja_log: the slowest translation units, the total compile
CPU-seconds, and that total per op.

Usage: python3 tools/build_report.py [BUILD_DIR] [--top N] [--json FILE]

BUILD_DIR defaults to build/pip (the directory tools/build.sh uses). A unit's time is the wall
time ninja recorded for it; on a build whose jobs did not outnumber the cores that is its CPU
time. Only the newest entry of each output counts, so after an incremental build the report
covers what was rebuilt then plus the older entries of everything else. For a clean measurement,
build into a fresh directory with ccache off:

    CCACHE_DISABLE=1 cmake -S . -B build/report -G Ninja && CCACHE_DISABLE=1 ninja -C build/report
    python3 tools/build_report.py build/report
"""
import argparse
import json
import os
import sys

COMPILED = (".o", ".obj")


def read_log(build_dir):
    """{output: seconds} for the newest entry of each output of .ninja_log."""
    path = os.path.join(build_dir, ".ninja_log")
    with open(path) as f:
        header = f.readline()
        if not header.startswith("# ninja log"):
            raise SystemExit(f"{path}: not a ninja log")
        entries = {}
        for line in f:
            start, end, _, output, _ = line.rstrip("\n").split("\t")
            entries[output] = (int(end) - int(start)) / 1000.0
    return entries


def count_ops(build_dir):
    """The number of ops in the generated manifest of `build_dir`, or None."""
    path = os.path.join(build_dir, "python", "op_manifest.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return len(json.load(f))


def category(output):
    for marker, name in (("/kernels/generated/gpu/", "CUDA kernels"),
                         ("/kernels/generated/cpu/", "CPU kernels"),
                         ("/ops/generated/", "generated op glue"), ("/pybind/", "Python bindings"),
                         ("tests/", "C++ tests")):
        if marker in output:
            return name
    return "core (other)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default="build/pip")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args()
    units = {o: s for o, s in read_log(args.build_dir).items() if o.endswith(COMPILED)}
    if not units:
        raise SystemExit(f"{args.build_dir}: no compiled units in .ninja_log")
    total = sum(units.values())
    ops = count_ops(args.build_dir)
    slowest = sorted(units.items(), key=lambda item: -item[1])[:args.top]
    width = max(len(o) for o, _ in slowest)
    print(f"{'unit':<{width}}  seconds")
    for output, seconds in slowest:
        print(f"{output:<{width}}  {seconds:7.1f}")
    by_category = {}
    for output, seconds in units.items():
        name = category(output)
        count, sum_seconds = by_category.get(name, (0, 0.0))
        by_category[name] = (count + 1, sum_seconds + seconds)
    print()
    for name, (count, seconds) in sorted(by_category.items(), key=lambda item: -item[1][1]):
        print(f"{name:<20} {count:4d} units  {seconds:8.1f} s")
    print(f"\n{len(units)} units, {total:.1f} compile CPU-seconds", end="")
    if ops:
        print(f", {ops} ops: {total / ops:.2f} s per op")
    else:
        print()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"units": len(units), "total_seconds": total, "ops": ops,
                       "seconds_per_op": total / ops if ops else None,
                       "slowest": [{"unit": o, "seconds": s} for o, s in slowest],
                       "by_category": {k: {"units": c, "seconds": s}
                                       for k, (c, s) in by_category.items()}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
