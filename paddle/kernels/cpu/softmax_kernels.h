// CPU softmax and log_softmax over one axis: each (outer, inner) line is processed with the
// running maximum subtracted, in MathType for 16-bit floats.
#pragma once

#include <cmath>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

template <typename T, bool kLog>
void SoftmaxLines(const CPUContext& ctx, const DenseTensor& x, int32_t axis, DenseTensor* out) {
  using MT = MathType<T>;
  const DDim& dims = x.dims();
  int rank = dims.size();
  int a = NormalizeAxis(axis, rank, kLog ? "log_softmax" : "softmax");
  int64_t n = rank == 0 ? 1 : dims[a];
  int64_t inner = 1;
  for (int i = a + 1; i < rank; ++i) inner *= dims[i];
  T* o = ctx.Alloc<T>(out);
  if (x.numel() == 0) return;  // any zero-size dim, before or after the axis
  int64_t outer = x.numel() / (n * inner);
  const T* in = x.data<T>();
  funcs::ParallelFor(
      outer * inner,
      [&](int64_t begin, int64_t end) {
        for (int64_t line = begin; line < end; ++line) {
          const T* src = in + (line / inner) * n * inner + line % inner;
          T* dst = o + (line / inner) * n * inner + line % inner;
          MT max_value = static_cast<MT>(src[0]);
          for (int64_t j = 1; j < n; ++j)
            max_value = std::max(max_value, static_cast<MT>(src[j * inner]));
          MT total = 0;
          for (int64_t j = 0; j < n; ++j)
            total += std::exp(static_cast<MT>(src[j * inner]) - max_value);
          if (kLog) {
            MT log_total = std::log(total) + max_value;
            for (int64_t j = 0; j < n; ++j)
              dst[j * inner] = static_cast<T>(static_cast<MT>(src[j * inner]) - log_total);
          } else {
            for (int64_t j = 0; j < n; ++j) {
              dst[j * inner] =
                  static_cast<T>(std::exp(static_cast<MT>(src[j * inner]) - max_value) / total);
            }
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(n, 1) + 1);
}

}  // namespace

template <typename T, typename Context>
void SoftmaxKernel(const Context& ctx, const DenseTensor& x, int32_t axis, DenseTensor* out) {
  SoftmaxLines<T, false>(ctx, x, axis, out);
}

template <typename T, typename Context>
void LogSoftmaxKernel(const Context& ctx, const DenseTensor& x, int32_t axis, DenseTensor* out) {
  SoftmaxLines<T, true>(ctx, x, axis, out);
}

}  // namespace paddle
