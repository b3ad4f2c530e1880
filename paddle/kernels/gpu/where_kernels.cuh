// CUDA where(condition, x, y): the ternary form of the GPU elementwise engine. Same signature,
// name and dtypes as cpu/where_kernels.h.
#pragma once

#include "paddle/kernels/funcs/elementwise_gpu.cuh"
namespace paddle {

namespace {

template <typename T>
struct WhereFunctor {
  PD_HOSTDEVICE T operator()(bool condition, T x, T y) const { return condition ? x : y; }
};

}  // namespace

template <typename T, typename Context>
void WhereKernel(const Context& ctx, const DenseTensor& condition, const DenseTensor& x,
                 const DenseTensor& y, DenseTensor* out) {
  funcs::TernaryElementwiseGPU<bool, T, T, T>(ctx, condition, x, y, out, WhereFunctor<T>());
}

}  // namespace paddle
