#!/usr/bin/env bash
# Sets up a fresh machine, builds and installs paddle, and runs the main job: train a small
# model in dygraph and print its loss falling, then train it as a static program, save it as an
# inference model (.pdmodel/.pdiparams) and serve predictions from the loaded files; last, build
# the C++ program examples/cpp_inference against the installed libpaddle_inference and serve the
# same model from it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
cd "$ROOT"
./tools/bootstrap.sh
./tools/build.sh
cd "$(mktemp -d)"
"$PYTHON" "$ROOT/examples/train_mlp.py"
"$PYTHON" "$ROOT/examples/train_static_and_serve.py" "$PWD/spirals"
cmake -S "$ROOT/examples/cpp_inference" -B cpp_inference -DCMAKE_BUILD_TYPE=Release \
  -DPaddleInference_DIR="$("$PYTHON" -m paddle.sysconfig --cmake-dir)" >/dev/null
cmake --build cpp_inference >/dev/null
echo "C++ (examples/cpp_inference) serving three points; the output is each point's class probabilities:"
printf '3 2\n0.5 0.5 -1.0 0.2 0.0 -0.8\n' |
  ./cpp_inference/serve_model "$PWD/spirals.pdmodel" "$PWD/spirals.pdiparams"
