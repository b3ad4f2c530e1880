// CUDA registration of increment (paddle/kernels/impl/increment_kernel_impl.h).
#include "paddle/kernels/dtype_lists.h"
#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/impl/increment_kernel_impl.h"
#include "paddle/kernels/kernel_registry.h"

PD_REGISTER_KERNEL(increment, GPU, paddle::IncrementKernel, PD_FLOAT_TYPES, int32_t, int64_t);
