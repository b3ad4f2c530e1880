#!/usr/bin/env bash
# Installs every system package (apt-get) and Python tool (pip) that the build and the tests
# need. Idempotent: a machine that has everything is left alone.
set -euo pipefail

APT_PACKAGES=(
  cmake ninja-build ccache g++ git
  libeigen3-dev libopenblas-openmp-dev
  libdnnl-dev ocl-icd-opencl-dev opencl-c-headers   # oneDNN's CMake config needs OpenCL
  libprotobuf-dev protobuf-compiler
  libgoogle-glog-dev libgflags-dev libgtest-dev libgmock-dev
  pybind11-dev libgloo-dev python3-dev clang-format
  libkissfft-dev          # paddle.fft and paddle.signal
  dataset-fashion-mnist   # the main job's data, found by paddle.vision.datasets.FashionMNIST
)
# onnx and onnxruntime are for the tests of paddle.onnx.export only (wheels of about 9 MB and
# 28 MB; paddle itself does not depend on them).
# Pillow is paddle.vision's image backend (transforms on PIL images, image_load, the datasets).
PIP_PACKAGES=(numpy Pillow pytest pyyaml "scikit-build-core>=0.10" flake8 onnx onnxruntime)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" - "${PIP_PACKAGES[@]}" <<'PY'
import importlib.metadata, re, sys
for spec in sys.argv[1:]:
    name = re.split(r"[<>=]", spec)[0]
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        sys.exit(1)
PY
then
  "$PYTHON" -m pip install -q --disable-pip-version-check "${PIP_PACKAGES[@]}"
fi
