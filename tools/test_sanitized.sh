#!/usr/bin/env bash
# The sanitizer run (./tools/test.sh --sanitize): builds the core, the extension and the C++ tests
# with AddressSanitizer and UndefinedBehaviorSanitizer in build/sanitize (ccache, no CUDA: nvcc
# does not take the sanitizer flags), then runs ctest, the Python op tests (tests/python/ops: the
# op harness and the hostile-input calls) and the fuzzing budgets (ops, model files) under them. Every report is fatal:
# it fails the test it happens in, and so this script.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
BUILD="$ROOT/build/sanitize"
export CCACHE_BASEDIR="$ROOT"
cd "$ROOT"

start=$(date +%s)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DWITH_GPU=OFF -DPADDLE_SANITIZE=address,undefined \
  -DPADDLE_BUILD_TESTS=ON -DPython_EXECUTABLE="$(command -v "$PYTHON")" > /dev/null
ninja -C "$BUILD"
echo "sanitizer build: $(( $(date +%s) - start )) s"

# The package as pip would install it: the Python sources, the extension, generated API and
# manifest in paddle/base, and the core library in paddle/lib (the install component's layout).
STAGE="$BUILD/python-root"
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp -r "$ROOT/python/paddle" "$STAGE/"
cmake --install "$BUILD" --component python --prefix "$STAGE/paddle" > /dev/null

# halt_on_error/abort_on_error: a report ends the process, so no report goes unnoticed.
# Leaks are checked in the C++ tests only: the Python interpreter leaves its own objects to the OS
# at exit, which LeakSanitizer would report.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" \
  ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)"

# Requests above 1 GiB fail (MemoryError) instead of filling the machine, and of taking longer
# than a call's timeout to fill under ASan: the fuzzing workers' address-space limit cannot be
# used under ASan, which reserves terabytes of it.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024"
# A Python host is not built with ASan: its runtime must be the first library loaded, with the C++
# runtime beside it, or ASan cannot intercept the throwing of C++ exceptions.
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
export LD_PRELOAD
export PYTHONPATH="$STAGE"
cd "$(mktemp -d)"
"$PYTHON" -m pytest -q -p no:cacheprovider "$ROOT/tests/python/ops"
"$PYTHON" "$ROOT/tools/fuzz_ops.py" --seconds "${PADDLE_FUZZ_SECONDS:-60}" --seed 0 \
  --out "$BUILD/fuzz-failures"
"$PYTHON" "$ROOT/tools/fuzz_model_files.py" --seconds "${PADDLE_FUZZ_SECONDS:-60}" --seed 0 \
  --out "$BUILD/fuzz-failures"
echo "sanitizer run: $(( $(date +%s) - start )) s"
