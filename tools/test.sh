#!/usr/bin/env bash
# Sets up the machine, builds, installs, and runs every test: lint, GoogleTest (ctest), the Python
# suite and a fuzzing budget. With --sanitize it then runs the sanitizer build and tests too
# (tools/test_sanitized.sh). Any failure fails the script.
set -euo pipefail
SANITIZE=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) SANITIZE=1 ;;
    *) echo "usage: $0 [--sanitize]" >&2; exit 2 ;;
  esac
done
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

# Hostile input, with a fixed seed and time budget: random op calls (tools/fuzz_ops.py) and loads of
# corrupted model files (tools/fuzz_model_files.py). A call that crashes, hangs or raises an
# untyped error fails the run and leaves a reproducer script in build/fuzz-failures.
"$PYTHON" "$ROOT/tools/fuzz_ops.py" --seconds "${PADDLE_FUZZ_SECONDS:-60}" --seed 0 \
  --out "$ROOT/build/fuzz-failures"
"$PYTHON" "$ROOT/tools/fuzz_model_files.py" --seconds "${PADDLE_FUZZ_SECONDS:-60}" --seed 0 \
  --out "$ROOT/build/fuzz-failures"

if ((SANITIZE)); then
  "$ROOT/tools/test_sanitized.sh"
fi
