#!/usr/bin/env bash
# Sets up a fresh machine, builds and installs paddle, and runs the main job: train a small
# model in dygraph and print its loss falling, then train it as a static program, save it as an
# inference model (.pdmodel/.pdiparams) and serve predictions from the loaded files.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
cd "$ROOT"
./tools/bootstrap.sh
./tools/build.sh
cd "$(mktemp -d)"
"$PYTHON" "$ROOT/examples/train_mlp.py"
"$PYTHON" "$ROOT/examples/train_static_and_serve.py"
