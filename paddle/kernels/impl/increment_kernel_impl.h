// increment, shared by the CPU (cpu/assign_kernels.h) and CUDA (gpu/assign_kernels.cuh)
// registrations. The including file provides the device's engine first (funcs::UnaryElementwise
// is overloaded per context).
#pragma once

#include "paddle/kernels/funcs/elementwise_functors.h"

namespace paddle {

// out = x + value, with value first converted to T as Paddle does (an int counter stepped by
// 2.5 moves by 2).
template <typename T, typename Context>
void IncrementKernel(const Context& ctx, const DenseTensor& x, float value, DenseTensor* out) {
  using MT = MathType<T>;
  MT step = static_cast<MT>(static_cast<T>(value));
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::ScaleFunctor<T>{MT(1), step, true});
}

}  // namespace paddle
