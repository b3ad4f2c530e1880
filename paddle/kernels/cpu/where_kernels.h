// CPU where(condition, x, y): the ternary form of the elementwise engine.
#pragma once

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
namespace paddle {

template <typename T, typename Context>
void WhereKernel(const Context& ctx, const DenseTensor& condition, const DenseTensor& x,
                 const DenseTensor& y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const bool* c = condition.data<bool>();
  const T* a = x.data<T>();
  const T* b = y.data<T>();
  funcs::ForEachBroadcastRow<3>(out->dims(), {condition.dims(), x.dims(), y.dims()},
                                [&](int64_t begin, int64_t count, const std::array<int64_t, 3>& off,
                                    const std::array<int64_t, 3>& stride) {
                                  for (int64_t j = 0; j < count; ++j) {
                                    o[begin + j] = c[off[0] + j * stride[0]]
                                                       ? a[off[1] + j * stride[1]]
                                                       : b[off[2] + j * stride[2]];
                                  }
                                });
}

}  // namespace paddle
