include(CheckCXXCompilerFlag)
# Host-compiler warnings only: nvcc rejects g++ flags such as -Wall.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wall> $<$<COMPILE_LANGUAGE:CXX>:-Wno-sign-compare>
                    $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-function>)
# x86-64-v3 (AVX2, FMA) rather than -march=native: the library stays portable across the
# project's x86 machines (Intel with AVX-512, AMD without) and valgrind can run it. Our kernels
# are memory-bound; OpenBLAS and oneDNN pick their own ISA at run time.
if(PADDLE_WITH_AVX2)
  check_cxx_compiler_flag("-march=x86-64-v3" PADDLE_HAS_X86_64_V3)
  if(PADDLE_HAS_X86_64_V3)
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=x86-64-v3>)
  endif()
endif()

# Sanitizers (./tools/test.sh --sanitize): -DPADDLE_SANITIZE=address,undefined instruments the core,
# the extension and the C++ tests. Every report is fatal, so a test that triggers one fails.
# Optimised lightly (-O1) with line tables (-g1): readable reports, shorter builds.
set(PADDLE_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
if(PADDLE_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${PADDLE_SANITIZE}>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-O1> $<$<COMPILE_LANGUAGE:CXX>:-g1>)
  add_link_options(-fsanitize=${PADDLE_SANITIZE})
endif()
