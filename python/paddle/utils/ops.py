"""Lists the registered ops: `python -m paddle.utils.ops [--json]`.

One row per op: its name, the dtypes of its CPU and GPU kernels, whether it has a backward (all
read from op_manifest.json, which the build generates from the op declarations in
paddle/ops/yaml), and whether the op test harness covers it (the list in op_coverage.txt, kept
current by tools/update_op_coverage.py and checked by the test suite).
"""
import argparse
import functools
import json
import os
import sys

_COVERAGE_FILE = os.path.join(os.path.dirname(__file__), "op_coverage.txt")
_MANIFEST_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "base", "op_manifest.json")


@functools.lru_cache(maxsize=None)
def manifest():
    """Every op's declaration as generated from paddle/ops/yaml: name, family, dtypes per backend,
    backward, inplace, view, legacy type and Python surface."""
    with open(_MANIFEST_FILE) as f:
        return json.load(f)


def harness_coverage():
    """The ops the harness covers, from the file shipped with the package."""
    with open(_COVERAGE_FILE) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def op_table():
    covered = harness_coverage()
    return [{"name": op["name"], "cpu": op["dtypes"]["cpu"], "gpu": op["dtypes"]["gpu"],
             "backward": bool(op["backward"]), "tested": op["name"] in covered}
            for op in manifest()]


def _format(rows):
    header = ("op", "CPU dtypes", "GPU dtypes", "backward", "tested")
    lines = [[r["name"], ",".join(r["cpu"]) or "-", ",".join(r["gpu"]) or "-",
              "yes" if r["backward"] else "no", "yes" if r["tested"] else "no"] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(line, widths)) for line in lines]
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m paddle.utils.ops",
                                     description="List the registered ops.")
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    args = parser.parse_args(argv)
    rows = op_table()
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(_format(rows))
        print(f"\n{len(rows)} ops, {sum(r['backward'] for r in rows)} with backward, "
              f"{sum(r['tested'] for r in rows)} covered by the harness")
    return 0


if __name__ == "__main__":
    sys.exit(main())
