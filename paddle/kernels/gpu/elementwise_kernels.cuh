// CUDA kernels of the elementwise binary ops: their templates (impl/) over the GPU elementwise
// engine.
#pragma once

#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/impl/elementwise_kernel_impl.h"
