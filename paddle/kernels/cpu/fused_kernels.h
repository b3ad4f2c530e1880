// CPU kernels of the fused inference ops. fused_elemwise_activation runs its two functors in one
// pass of the broadcasting engine, so a bias add and its activation read and write memory once.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/fused_elemwise_plan.h"

namespace paddle {

namespace fused_detail {

// Calls fn with the plan's unary functor as a lambda over T.
template <typename T, typename Fn>
void WithUnary(funcs::FusedElemwisePlan::Unary unary, T scale, Fn&& fn) {
  using Unary = funcs::FusedElemwisePlan::Unary;
  switch (unary) {
    case Unary::kRelu:
      return fn([](T v) { return v > T(0) ? v : T(0); });
    case Unary::kTanh:
      return fn([](T v) { return std::tanh(v); });
    case Unary::kSigmoid:
      return fn([](T v) { return T(1) / (T(1) + std::exp(-v)); });
    case Unary::kScale:
      return fn([scale](T v) { return v * scale; });
  }
}

template <typename T, typename Fn>
void WithBinary(funcs::FusedElemwisePlan::Binary binary, Fn&& fn) {
  if (binary == funcs::FusedElemwisePlan::Binary::kAdd) {
    fn([](T a, T b) { return a + b; });
  } else {
    fn([](T a, T b) { return a * b; });
  }
}

}  // namespace fused_detail

template <typename T, typename Context>
void FusedElemwiseActivationKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
                                   const std::vector<std::string>& functor_list, int32_t axis,
                                   float scale, bool save_intermediate_out, DenseTensor* out,
                                   DenseTensor* intermediate_out) {
  const funcs::FusedElemwisePlan plan = funcs::ParseFusedElemwisePlan(functor_list);
  // y viewed with the dims Paddle's axis gives it against x (the same buffer).
  DenseTensor aligned = y;
  aligned.Resize(funcs::AlignedOperandDims(x.dims(), y.dims(), axis, "fused_elemwise_activation"));
  fused_detail::WithUnary<T>(plan.unary, static_cast<T>(scale), [&](auto unary) {
    fused_detail::WithBinary<T>(plan.binary, [&](auto binary) {
      if (plan.unary_outside) {
        funcs::BinaryElementwise<T, T>(ctx, x, aligned, out,
                                       [=](T a, T b) { return unary(binary(a, b)); });
        if (save_intermediate_out) {
          funcs::BinaryElementwise<T, T>(ctx, x, aligned, intermediate_out, binary);
        }
      } else {
        funcs::BinaryElementwise<T, T>(ctx, x, aligned, out,
                                       [=](T a, T b) { return binary(a, unary(b)); });
        if (save_intermediate_out) {
          funcs::UnaryElementwise<T, T>(ctx, y, intermediate_out, unary);
        }
      }
    });
  });
  if (!save_intermediate_out) ctx.template Alloc<T>(intermediate_out);
}

}  // namespace paddle
