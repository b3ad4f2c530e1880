// CUDA kernels of the unary elementwise and activation ops: their templates (impl/) over the
// GPU elementwise engine.
#pragma once

#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/impl/activation_kernel_impl.h"
