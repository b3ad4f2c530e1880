#!/usr/bin/env bash
# The GPU checks, as one script for a lent GPU machine (no network, none of our Debian packages):
# builds with CUDA for the machine's architecture, runs the C++ tests, then the op harness's
# GPU-against-CPU comparisons and the Python tests that use the GPU, from a staged package.
#
#   here:   tools/device_deps.sh download           # once, -> .device-deps (carried)
#   there:  tools/device_check.sh [pytest -k expression]
# Logs go to $OUT (or /tmp/device-check) as build.log, ctest.log and pytest.log.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=${OUT:-/tmp/device-check}
mkdir -p "$LOGS"
cd "$ROOT"
source tools/device_deps.sh unpack
set +e  # device_deps.sh sets -e; every step below reports its own status
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

PYTHON=$(command -v python3)
# The machine's Python may be newer than Debian's pybind11 supports; prefer its own pybind11.
PYBIND11_DIR=$("$PYTHON" -m pybind11 --cmakedir 2>/dev/null || true)
BUILD=build/gpu
start=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DPADDLE_BUILD_TESTS=ON -DWITH_GPU=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DPython_EXECUTABLE="$PYTHON" \
  ${PYBIND11_DIR:+-Dpybind11_DIR=$PYBIND11_DIR} $PADDLE_DEVICE_CMAKE_ARGS >"$LOGS/build.log" 2>&1 &&
  ninja -C "$BUILD" >>"$LOGS/build.log" 2>&1
status=$?
echo "build: exit $status after $(($(date +%s) - start)) s"
if [ $status -ne 0 ]; then
  grep -E "error|Error" -m 40 "$LOGS/build.log"
  exit $status
fi

ctest --test-dir "$BUILD" -j 8 --output-on-failure >"$LOGS/ctest.log" 2>&1
echo "ctest: exit $?"; tail -n 15 "$LOGS/ctest.log"

# The package as pip would install it: the Python sources with the extension and the generated
# files in paddle/base, the core (which the extension links) in paddle/lib.
SITE=/tmp/device-site
rm -rf "$SITE" && mkdir -p "$SITE"
cp -r python/paddle "$SITE/"
mkdir -p "$SITE/paddle/lib"
cp "$BUILD"/libpaddle_core.so "$SITE/paddle/lib/"
cp "$BUILD"/paddle/pybind/libpaddle*.so "$BUILD"/python/generated_api.py \
  "$BUILD"/python/op_manifest.json "$SITE/paddle/base/"
cd /tmp
PYTHONPATH="$SITE" "$PYTHON" -c "import paddle; paddle.utils.run_check()" 2>&1 | tail -n 3
PYTHONPATH="$SITE" "$PYTHON" -m pytest -q -p no:cacheprovider -rs -n 8 "$ROOT/tests/python" \
  -k "${1:-gpu or cuda or GPU or place}" >"$LOGS/pytest.log" 2>&1
echo "pytest: exit $?"
grep -E "^(FAILED|ERROR)" "$LOGS/pytest.log" | head -n 60
tail -n 3 "$LOGS/pytest.log"
