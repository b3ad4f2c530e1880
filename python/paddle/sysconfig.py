"""Where the installed package keeps the C++ inference library: headers in paddle/include,
libpaddle_inference.so (and the core it links) in paddle/lib, and the CMake package
PaddleInference in paddle/lib/cmake/PaddleInference. `python -m paddle.sysconfig --cmake-dir`
prints the folder to pass to CMake as PaddleInference_DIR."""
import argparse
import os

_ROOT = os.path.dirname(os.path.abspath(__file__))


def get_include():
    """The directory of paddle_inference_api.h and the C API headers."""
    return os.path.join(_ROOT, "include")


def get_lib():
    """The directory of libpaddle_inference.so."""
    return os.path.join(_ROOT, "lib")


def get_cmake_dir():
    """The directory holding PaddleInferenceConfig.cmake."""
    return os.path.join(get_lib(), "cmake", "PaddleInference")


def _main():
    parser = argparse.ArgumentParser(prog="python -m paddle.sysconfig",
                                     description="Paths of the installed inference library.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--include-dir", action="store_true", help="print get_include()")
    group.add_argument("--lib-dir", action="store_true", help="print get_lib()")
    group.add_argument("--cmake-dir", action="store_true",
                       help="print the folder to pass as PaddleInference_DIR")
    args = parser.parse_args()
    print(get_include() if args.include_dir else get_lib() if args.lib_dir else get_cmake_dir())


if __name__ == "__main__":
    _main()
