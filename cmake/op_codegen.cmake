# Generates the op glue, kernel registrations and Python API from paddle/ops/yaml/*.yaml at
# configure time (tools/codegen/gen_ops.py), and sets the lists of generated C++ sources:
# PADDLE_GENERATED_OPS_SOURCES, PADDLE_GENERATED_CPU_KERNELS, PADDLE_GENERATED_GPU_KERNELS.
# Editing a YAML file, the generator, or the set of kernel headers reconfigures;
# the generator rewrites only files whose content changed, so the build recompiles those.
file(GLOB PADDLE_OP_YAML CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/paddle/ops/yaml/*.yaml)
file(GLOB PADDLE_CODEGEN_SCRIPTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/codegen/*.py)
file(GLOB PADDLE_GRAD_RULE_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/paddle/ops/backward/*_grad.cc)
file(GLOB PADDLE_KERNEL_HEADERS CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/paddle/kernels/cpu/*_kernels.h
  ${PROJECT_SOURCE_DIR}/paddle/kernels/gpu/*_kernels.h
  ${PROJECT_SOURCE_DIR}/paddle/kernels/gpu/*_kernels.cuh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PADDLE_OP_YAML} ${PADDLE_CODEGEN_SCRIPTS})

set(PADDLE_GENERATED_SOURCES_LIST ${PROJECT_BINARY_DIR}/paddle/generated_sources.cmake)
execute_process(
  COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/codegen/gen_ops.py
          --ops-dir ${PROJECT_SOURCE_DIR}/paddle/ops
          --kernels-dir ${PROJECT_SOURCE_DIR}/paddle/kernels
          --out ${PROJECT_BINARY_DIR}
          --sources-cmake ${PADDLE_GENERATED_SOURCES_LIST}
  RESULT_VARIABLE PADDLE_CODEGEN_RESULT
  ERROR_VARIABLE PADDLE_CODEGEN_ERROR)
if(NOT PADDLE_CODEGEN_RESULT EQUAL 0)
  message(FATAL_ERROR "Op code generation failed:\n${PADDLE_CODEGEN_ERROR}")
endif()
include(${PADDLE_GENERATED_SOURCES_LIST})
