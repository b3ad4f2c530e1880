# Every dependency comes from a Debian package (tools/bootstrap.sh installs them).
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED)
find_package(Eigen3 3.4 CONFIG REQUIRED)
set(BLA_VENDOR OpenBLAS)
find_package(BLAS REQUIRED)
find_path(CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas REQUIRED)
find_package(dnnl CONFIG REQUIRED)       # oneDNN; its config needs the OpenCL headers
find_package(Protobuf REQUIRED)          # module mode: Debian ships no CONFIG package
find_package(Gloo CONFIG REQUIRED)       # CPU collectives (target `gloo`)
find_package(gflags CONFIG REQUIRED)
# paddle.fft: KISS FFT's float library and its header-only C++ template kissfft.hh. Only the
# library file is linked (paddle/kernels/CMakeLists.txt): the target's interface definitions
# would change the command line, and so the ccache key, of every source of paddle_core.
find_package(kissfft CONFIG REQUIRED COMPONENTS SHARED float)
get_target_property(KISSFFT_FLOAT_LIBRARY kissfft::kissfft-float LOCATION)
find_package(glog CONFIG REQUIRED)
find_package(Python 3.8 COMPONENTS Interpreter Development.Module REQUIRED)
find_package(pybind11 CONFIG REQUIRED)
if(PADDLE_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
