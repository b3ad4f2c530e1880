#!/usr/bin/env bash
# Sets up the machine, builds, installs, and runs every test: lint, GoogleTest (ctest) and the
# Python suite. Any failure fails the script.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
cd "$ROOT"

./tools/bootstrap.sh
./tools/lint.sh

start=$(date +%s)
./tools/build.sh --config-settings=cmake.define.PADDLE_BUILD_TESTS=ON
echo "build: $(( $(date +%s) - start )) s"

ctest --test-dir build/pip --output-on-failure -j "$(nproc)"

# Run from outside the checkout so `import paddle` is the installed package.
cd "$(mktemp -d)"
"$PYTHON" -m pytest -q -p no:cacheprovider "$ROOT/tests/python"

# Hostile input: random op calls with a fixed seed and time budget (tools/fuzz_ops.py). A call that
# crashes, hangs or raises an untyped error fails the run and leaves a reproducer script in
# build/fuzz-failures.
"$PYTHON" "$ROOT/tools/fuzz_ops.py" --seconds "${PADDLE_FUZZ_SECONDS:-60}" --seed 0 \
  --out "$ROOT/build/fuzz-failures"
