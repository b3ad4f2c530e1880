"""Checks the dependency rules of DESIGN.md (Dependency rules) on every C++ file under paddle/:
a file includes only its own layer and the layers named before it, in the order

    common; memory; core; kernels; ops; framework and imperative; inference and distributed; pybind

and only paddle/pybind includes Python (pybind11 or Python.h), so the C++ core and the inference
library work without it. Generated code counts as the layer it is generated into
(paddle/ops/generated is ops, paddle/kernels/generated is kernels).

Usage: python3 tools/check_layers.py [ROOT]   (exit status 1 and one line per violation)
"""
import os
import re
import sys

LAYERS = [("common",), ("memory",), ("core",), ("kernels",), ("ops",), ("framework", "imperative"),
          ("inference", "distributed"), ("pybind",)]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
SOURCE_SUFFIXES = (".h", ".cc", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
PYTHON_HEADERS = re.compile(r"^(pybind11/|Python\.h$)")


def violations(root):
    found = []
    paddle_dir = os.path.join(root, "paddle")
    for layer in sorted(os.listdir(paddle_dir)):
        layer_dir = os.path.join(paddle_dir, layer)
        if not os.path.isdir(layer_dir):
            continue
        if layer not in RANK:
            found.append(f"paddle/{layer}: not a layer of DESIGN.md; add it to tools/check_layers.py")
            continue
        for dirpath, _, files in os.walk(layer_dir):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                shown = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header = m.group(2)
                        if PYTHON_HEADERS.match(header) and layer != "pybind":
                            found.append(f"{shown}:{number}: includes Python ({header}); only "
                                         "paddle/pybind may")
                        target = re.match(r"paddle/([a-z_]+)/", header)
                        if m.group(1) == '"' and target and target.group(1) in RANK:
                            other = target.group(1)
                            if RANK[other] > RANK[layer]:
                                found.append(f"{shown}:{number}: layer '{layer}' includes {header} "
                                             f"from layer '{other}', which comes after it")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    found = violations(root)
    for line in found:
        print(line)
    if found:
        print(f"check_layers: {len(found)} include(s) break the dependency rules of DESIGN.md")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
