"""Generates everything about the ops that is not their own code, from paddle/ops/yaml/*.yaml.

Usage: gen_ops.py --ops-dir paddle/ops --kernels-dir paddle/kernels [--out BUILD_DIR]
                  [--sources-cmake FILE] [--docs FILE | --check-docs FILE]

The ops directory holds yaml/ (the declarations) and backward/ (<family>_grad.cc, the backward
rules of each family).

Under BUILD_DIR:
  paddle/ops/generated/        the C++ glue, sharded per family and per op (emit_glue.py)
  paddle/kernels/generated/    kernel registrations per family and backend (emit_kernels.py)
  python/                      generated_api.py and op_manifest.json (emit_python.py)
--sources-cmake writes the generated C++ sources as CMake lists for the build; --docs writes the
op table (emit_docs.py), --check-docs fails when that file is out of date. Files are rewritten
only when their content changes, and generated files no longer produced are removed, so an edit
to one family rebuilds that family's units.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from emit_docs import op_table  # noqa: E402
from emit_glue import api_header, families_source, family_source, grad_rules_header  # noqa: E402
from emit_kernels import registration_units  # noqa: E402
from emit_python import generated_api, manifest  # noqa: E402
from op_model import SchemaError, load_families  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write_if_changed(path, content):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == content:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


def remove_stale(directory, keep):
    """Deletes generated files under `directory` that this run did not produce."""
    for dirpath, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(dirpath, name)
            if path not in keep:
                os.remove(path)


def check_rule_files(families, backward_dir):
    """A family with backward entries needs paddle/ops/backward/<family>_grad.cc, where its rules
    are written; without it the build would fail at link time."""
    for family in families:
        path = os.path.join(backward_dir, f"{family.name}_grad.cc")
        if family.backwards and not os.path.exists(path):
            bw = family.backwards[0]
            raise SchemaError(f"{family.path}:{bw.line}: family '{family.name}' declares backward "
                              f"rules ({bw.name}, ...), so paddle/ops/backward/{family.name}_grad.cc "
                              "must define them")


def generate(families, kernels_dir, out):
    """{path: content} of every generated file, and the C++ sources by CMake list name."""
    ops_dir = os.path.join(out, "paddle", "ops", "generated")
    kernels_out = os.path.join(out, "paddle", "kernels", "generated")
    files, sources = {}, {"PADDLE_GENERATED_OPS_SOURCES": [], "PADDLE_GENERATED_CPU_KERNELS": [],
                          "PADDLE_GENERATED_GPU_KERNELS": []}
    for family in families:
        path = os.path.join(ops_dir, f"{family.name}.cc")
        files[path] = family_source(family)
        sources["PADDLE_GENERATED_OPS_SOURCES"].append(path)
        for op in family.ops:
            files[os.path.join(ops_dir, "api", f"{op.name}.h")] = api_header(op)
        if family.backwards:
            files[os.path.join(ops_dir, "grad_rules", f"{family.name}.h")] = grad_rules_header(family)
        for backend, key in (("cpu", "PADDLE_GENERATED_CPU_KERNELS"),
                             ("gpu", "PADDLE_GENERATED_GPU_KERNELS")):
            for name, content in registration_units(family, backend, kernels_dir):
                path = os.path.join(kernels_out, backend, name)
                files[path] = content
                sources[key].append(path)
    path = os.path.join(ops_dir, "op_families.cc")
    files[path] = families_source(families)
    sources["PADDLE_GENERATED_OPS_SOURCES"].append(path)
    python_dir = os.path.join(out, "python")
    files[os.path.join(python_dir, "generated_api.py")] = generated_api(families)
    files[os.path.join(python_dir, "op_manifest.json")] = manifest(families)
    return files, sources


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops-dir", required=True, help="paddle/ops")
    parser.add_argument("--kernels-dir", required=True, help="paddle/kernels")
    parser.add_argument("--out", help="the build directory to generate into")
    parser.add_argument("--sources-cmake", help="write the generated C++ sources as CMake lists")
    parser.add_argument("--docs", help="write the op table (Markdown) to this file")
    parser.add_argument("--check-docs", help="fail unless this op table is current")
    args = parser.parse_args()
    try:
        families = load_families(os.path.join(args.ops_dir, "yaml"), ROOT)
        check_rule_files(families, os.path.join(args.ops_dir, "backward"))
        files, sources = generate(families, args.kernels_dir, args.out or "")
    except SchemaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.out:
        for path, content in files.items():
            write_if_changed(path, content)
        for sub in (("paddle", "ops", "generated"), ("paddle", "kernels", "generated")):
            remove_stale(os.path.join(args.out, *sub), set(files))
    if args.sources_cmake:
        lines = ["# Generated by tools/codegen/gen_ops.py. Do not edit."]
        for key, paths in sources.items():
            lines.append(f"set({key}")
            lines += [f"  {p}" for p in paths]
            lines.append(")")
        write_if_changed(args.sources_cmake, "\n".join(lines) + "\n")
    table = op_table(families)
    if args.docs:
        write_if_changed(args.docs, table)
    if args.check_docs:
        with open(args.check_docs) as f:
            if f.read() != table:
                print(f"error: {args.check_docs} is out of date; regenerate it with\n"
                      f"  python3 tools/codegen/gen_ops.py --ops-dir {args.ops_dir} "
                      f"--kernels-dir {args.kernels_dir} --docs {args.check_docs}",
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
