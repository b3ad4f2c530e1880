# The CUDA kernels against the CPU kernels. Built only with CUDA; each test skips itself when the
# machine has no GPU (GetGPUDeviceCount() == 0).
if(WITH_GPU)
  paddle_add_cpp_test(gpu_kernels_test ${CMAKE_CURRENT_LIST_DIR}/gpu_kernels_test.cc)
endif()
# The ParallelExecutor's NCCL all-reduce across GPU places: skips unless two GPUs are visible.
if(WITH_GPU)
  paddle_add_cpp_test(parallel_executor_nccl_test
    ${CMAKE_CURRENT_LIST_DIR}/parallel_executor_nccl_test.cc)
endif()
