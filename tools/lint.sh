#!/usr/bin/env bash
# Style, layering and schema checks: clang-format on the C++ sources, flake8 on the Python, the
# dependency rules of DESIGN.md (tools/check_layers.py), and the op generator's validation of
# paddle/ops/yaml/*.yaml, including that docs/ops.md is the table it generates.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
cd "$ROOT"

mapfile -t cpp_files < <(git ls-files 'paddle/*.h' 'paddle/*.cc' 'paddle/*.cu' 'paddle/*.cuh' \
                                      'tests/cpp/*.h' 'tests/cpp/*.cc')
clang-format --dry-run --Werror "${cpp_files[@]}"

"$PYTHON" -m flake8 python tests/python tools benchmarks examples

"$PYTHON" tools/check_layers.py

"$PYTHON" tools/codegen/gen_ops.py --ops-dir paddle/ops --kernels-dir paddle/kernels \
  --check-docs docs/ops.md
echo "lint: ok"
