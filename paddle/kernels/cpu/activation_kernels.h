// CPU kernels of the unary elementwise and activation ops: their templates (impl/) over the CPU
// elementwise engine, and the CPU-only maxout and rrelu.
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/random_fill.h"
#include "paddle/kernels/impl/activation_kernel_impl.h"

namespace paddle {

// x is viewed as [outer, C / groups, groups, inner] around its channel axis (outer = N and
// inner = H * W for NCHW, outer = N * H * W and inner = 1 for NHWC); out[o, c, j] is the maximum
// over the group. A NaN in a group is its maximum, as in NumPy.
template <typename T, typename Context>
void MaxoutKernel(const Context& ctx, const DenseTensor& x, int32_t groups, int32_t axis,
                  DenseTensor* out) {
  using MT = MathType<T>;
  const DDim& d = x.dims();
  const int64_t inner = axis == 1 ? d[2] * d[3] : 1;
  const T* in = x.data<T>();
  T* o = ctx.template Alloc<T>(out);
  const int64_t n = out->numel();
  funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t j = i % inner;
      const int64_t oc = i / inner;  // (o, c) flattened: the group starts at channel c * groups
      const T* group = in + oc * groups * inner + j;
      MT best = static_cast<MT>(group[0]);
      for (int32_t k = 1; k < groups && best == best; ++k) {  // once NaN, the maximum is NaN
        const MT v = static_cast<MT>(group[k * inner]);
        if (v > best || v != v) best = v;
      }
      o[i] = static_cast<T>(best);
    }
  });
}

// rrelu (Paddle's RReluKernel): x where x >= 0; below 0, x times a slope drawn uniformly from
// [lower, upper) in training, or (lower + upper) / 2 when is_test. noise holds each element's
// factor (1 where x >= 0), which the gradient multiplies by. The draws follow Note [Random
// streams] from the default generator (paddle.seed), one per element.
template <typename T, typename Context>
void RreluKernel(const Context& ctx, const DenseTensor& x, float lower, float upper, bool is_test,
                 DenseTensor* out, DenseTensor* noise) {
  using MT = MathType<T>;
  const T* in = x.data<T>();
  T* o = ctx.template Alloc<T>(out);
  T* factor = ctx.template Alloc<T>(noise);
  const int64_t n = x.numel();
  if (n == 0) return;
  auto apply = [&](int64_t i, MT slope) {
    const MT v = static_cast<MT>(in[i]);
    const bool negative = v < MT(0);
    factor[i] = static_cast<T>(negative ? slope : MT(1));
    o[i] = static_cast<T>(negative ? static_cast<MT>(factor[i]) * v : v);
  };
  if (is_test) {
    const MT middle = static_cast<MT>((lower + upper) / 2.0f);
    funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) apply(i, middle);
    });
    return;
  }
  std::vector<float> slopes(static_cast<size_t>(n));
  funcs::WithRandomEngine(0, [&](random::Engine* engine) {
    random::FillUniform(engine, slopes.data(), n, lower, upper);
  });
  for (int64_t i = 0; i < n; ++i) apply(i, static_cast<MT>(slopes[i]));
}

}  // namespace paddle
