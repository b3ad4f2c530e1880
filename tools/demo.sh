#!/usr/bin/env bash
# The main job, on a fresh machine: installs every dependency (Fashion-MNIST included, from
# Debian's dataset-fashion-mnist), builds and installs paddle, trains LeNet on Fashion-MNIST with
# paddle.Model and its progress bar, saves the inference model, serves test images from it
# through the C++ inference library (examples/cpp_inference), and draws the loss and accuracy
# curves into a PNG. Everything it writes goes to $DEMO_OUT (default ./demo_output).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
OUT=$(mkdir -p "${DEMO_OUT:-$PWD/demo_output}" && cd "${DEMO_OUT:-$PWD/demo_output}" && pwd)
START=$SECONDS

step() { printf '\n==> [%d s] %s\n' $((SECONDS - START)) "$*"; }

step "1/5 installing the system packages and Python tools (tools/bootstrap.sh)"
cd "$ROOT"
./tools/bootstrap.sh
step "2/5 building paddle and installing it into $("$PYTHON" -c 'import sys; print(sys.prefix)')"
./tools/build.sh
cd "$OUT"
step "3/5 training LeNet on Fashion-MNIST (examples/lenet_fashion_mnist/train.py)"
"$PYTHON" "$ROOT/examples/lenet_fashion_mnist/train.py" --out "$OUT/lenet"
step "4/5 building the C++ inference example against the installed libpaddle_inference"
cmake -S "$ROOT/examples/cpp_inference" -B "$OUT/cpp_inference" -DCMAKE_BUILD_TYPE=Release \
  -DPaddleInference_DIR="$("$PYTHON" -m paddle.sysconfig --cmake-dir)" >/dev/null
cmake --build "$OUT/cpp_inference" >/dev/null
step "5/5 serving Fashion-MNIST test images through the C++ inference library"
"$PYTHON" "$ROOT/examples/lenet_fashion_mnist/serve_cpp.py" "$OUT/cpp_inference/serve_model" \
  "$OUT/lenet/lenet" --count 10
step "done: the loss and accuracy curves are in $OUT/lenet/curves.png"
