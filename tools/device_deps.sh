#!/usr/bin/env bash
# Prepares the Debian -dev packages the build needs for a machine that has no network and none
# of them (the lent GPU machine): downloads the .deb files here, and there unpacks them into a
# prefix that CMake is pointed at.
#
#   here:   tools/device_deps.sh download      # -> .device-deps/*.deb (git-ignored)
#   there:  source tools/device_deps.sh unpack # -> /tmp/device-deps, exports CMAKE_PREFIX_PATH,
#                                              #    LD_LIBRARY_PATH, CPATH, PADDLE_DEVICE_CMAKE_ARGS
# then e.g.  cmake -S . -B build/gpu -G Ninja $PADDLE_DEVICE_CMAKE_ARGS && ninja -C build/gpu
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEBS="$ROOT/.device-deps"
PREFIX=${PADDLE_DEVICE_PREFIX:-/tmp/device-deps}

# The build's libraries and headers, with the runtime libraries they link against.
PACKAGES=(
  libeigen3-dev libopenblas-openmp-dev libopenblas0-openmp libopenblas-dev
  libdnnl-dev libdnnl2 ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-c-headers opencl-clhpp-headers
  libprotobuf-dev libprotobuf32 protobuf-compiler libprotoc32
  libgoogle-glog-dev libgoogle-glog0v6 libgflags-dev libgflags2.2 libunwind-dev libunwind8
  libgtest-dev libgmock-dev pybind11-dev libgloo-dev libgloo0 libhiredis0.14 libibverbs1
  libnl-3-200 libnl-route-3-200 ccache
)

download() {
  mkdir -p "$DEBS"
  grep -qx "/.device-deps/" "$ROOT/.git/info/exclude" 2>/dev/null ||
    echo "/.device-deps/" >> "$ROOT/.git/info/exclude"
  (cd "$DEBS" && apt-get download "${PACKAGES[@]}")
  echo "downloaded $(ls "$DEBS" | wc -l) packages into $DEBS; carry '.device-deps' to the device"
}

unpack() {
  mkdir -p "$PREFIX"
  for deb in "$DEBS"/*.deb; do dpkg -x "$deb" "$PREFIX"; done
  local lib="$PREFIX/usr/lib/x86_64-linux-gnu"
  # The OpenBLAS alternatives symlinks are made by the package scripts, which dpkg -x skips.
  ln -sf "$lib/openblas-openmp/libblas.so.3" "$lib/libblas.so.3"
  ln -sf "$lib/openblas-openmp/libopenblas.so.0" "$lib/libopenblas.so.0"
  ln -sf "$lib/libopenblas.so.0" "$lib/libopenblas.so"
  # Gloo's and glog's CMake packages name their library and find modules by absolute path.
  sed -i "s#/usr/lib/libgloo#$PREFIX/usr/lib/libgloo#g" "$PREFIX"/usr/share/cmake/Gloo/*.cmake
  sed -i "s#\"/usr/share/glog#\"$PREFIX/usr/share/glog#g" "$lib"/cmake/glog/glog-modules.cmake
  export CMAKE_PREFIX_PATH="$PREFIX/usr:$PREFIX/usr/lib/x86_64-linux-gnu/cmake:$PREFIX/usr/share/cmake"
  export LD_LIBRARY_PATH="$lib:$PREFIX/usr/lib:${LD_LIBRARY_PATH:-}"
  export CPATH="$PREFIX/usr/include:$PREFIX/usr/include/eigen3:$PREFIX/usr/include/x86_64-linux-gnu:${CPATH:-}"
  export PATH="$PREFIX/usr/bin:$PATH"
  export PADDLE_DEVICE_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH \
    -DProtobuf_PROTOC_EXECUTABLE=$PREFIX/usr/bin/protoc \
    -DBLAS_LIBRARIES=$lib/libopenblas.so -DCBLAS_INCLUDE_DIR=$PREFIX/usr/include/x86_64-linux-gnu"
  echo "unpacked into $PREFIX"
}

case "${1:-}" in
  download) download ;;
  unpack) unpack ;;
  *) echo "usage: $0 download|unpack" >&2; exit 2 ;;
esac
