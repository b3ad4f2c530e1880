// CPU creation kernels: full, full_like, arange, linspace, eye, and the random fills uniform and
// gaussian. Every kernel here is selected by its `dtype` attribute, so T is the output type.
#pragma once

#include <algorithm>
#include <cmath>

#include "paddle/common/place.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/funcs/random_fill.h"
namespace paddle {

namespace {

template <typename T>
T ScalarAs(const Scalar& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value.to<double>() != 0.0;
  } else {
    return value.to<T>();
  }
}

template <typename T>
void Fill(const CPUContext& ctx, DenseTensor* out, T value) {
  T* o = ctx.Alloc<T>(out);
  funcs::ParallelFor(out->numel(),
                     [&](int64_t begin, int64_t end) { std::fill(o + begin, o + end, value); });
}

}  // namespace

template <typename T, typename Context>
void FullKernel(const Context& ctx, const std::vector<int64_t>& shape, const Scalar& value,
                DataType dtype, const Place& place, DenseTensor* out) {
  Fill<T>(ctx, out, ScalarAs<T>(value));
}

template <typename T, typename Context>
void FullLikeKernel(const Context& ctx, const DenseTensor& x, const Scalar& value, DataType dtype,
                    DenseTensor* out) {
  Fill<T>(ctx, out, ScalarAs<T>(value));
}

// out[i] = start + i * step, in T for integers and in double for floats.
template <typename T, typename Context>
void ArangeKernel(const Context& ctx, const Scalar& start, const Scalar& end, const Scalar& step,
                  DataType dtype, const Place& place, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int64_t n = out->numel();
  if constexpr (std::is_integral_v<T>) {
    T first = start.to<T>(), delta = step.to<T>();
    PD_CHECK(n <= 1 || delta != 0,
             errors::InvalidArgument("arange: argument 'step' (", step.ToString(), ") is 0 as ",
                                     DataTypeName(dtype), "; expected a non-zero integer step"));
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(first + static_cast<T>(i) * delta);
  } else {
    double first = start.to<double>(), delta = step.to<double>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(first + static_cast<double>(i) * delta);
  }
}

// Computed from both ends, so the first value is exactly `start` and the last exactly `stop`.
template <typename T, typename Context>
void LinspaceKernel(const Context& ctx, const Scalar& start, const Scalar& stop, int64_t num,
                    DataType dtype, const Place& place, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int64_t n = out->numel();
  double first = start.to<double>(), last = stop.to<double>();
  if (n == 1) {
    o[0] = static_cast<T>(first);
    return;
  }
  double step = (last - first) / static_cast<double>(n - 1);
  int64_t half = n / 2;
  for (int64_t i = 0; i < n; ++i) {
    double v = i < half ? first + step * static_cast<double>(i)
                        : last - step * static_cast<double>(n - 1 - i);
    o[i] = static_cast<T>(v);
  }
}

template <typename T, typename Context>
void EyeKernel(const Context& ctx, int64_t num_rows, int64_t num_columns, DataType dtype,
               const Place& place, DenseTensor* out) {
  Fill<T>(ctx, out, static_cast<T>(0));
  T* o = out->data<T>();
  int64_t rows = out->dims()[0], cols = out->dims()[1];
  for (int64_t i = 0; i < std::min(rows, cols); ++i) o[i * cols + i] = static_cast<T>(1);
}

// Uniform in [min, max): canonical * (max - min) + min in T, as PaddlePaddle's
// std::uniform_real_distribution<T> (a draw may round up to max, as there).
template <typename T, typename Context>
void UniformKernel(const Context& ctx, const std::vector<int64_t>& shape, DataType dtype,
                   const Scalar& min, const Scalar& max, int32_t seed, const Place& place,
                   DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  // PaddlePaddle's min and max are float attributes: the bounds are rounded to float first.
  const MT low = static_cast<MT>(static_cast<float>(min.to<double>()));
  const MT high = static_cast<MT>(static_cast<float>(max.to<double>()));
  funcs::WithRandomEngine(seed, [&](random::Engine* engine) {
    funcs::FillFromDraws(o, out->numel(), [&](MT* values, int64_t n) {
      random::FillUniform(engine, values, n, low, high);
    });
  });
}

// N(mean, std^2) by the polar method (random::FillNormal). std == 0 still draws, so the stream
// advances as in PaddlePaddle.
template <typename T, typename Context>
void GaussianKernel(const Context& ctx, const std::vector<int64_t>& shape, float mean, float std,
                    int32_t seed, DataType dtype, const Place& place, DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  funcs::WithRandomEngine(seed, [&](random::Engine* engine) {
    funcs::FillFromDraws(o, out->numel(), [&](MT* values, int64_t n) {
      random::FillNormal(engine, values, n, static_cast<MT>(mean), static_cast<MT>(std));
    });
  });
}

}  // namespace paddle
