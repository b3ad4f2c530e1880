// CPU kernels of the fused inference ops. fused_elemwise_activation runs its two functors in one
// pass of the broadcasting engine, so a bias add and its activation read and write memory once;
// fused_conv2d_add_act adds the bias and the residual and applies the activation as the
// convolution writes its output (funcs/conv_epilogue.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/conv_compute.h"
#include "paddle/kernels/funcs/conv_geometry.h"
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

template <typename T, typename Context>
void FusedConv2dAddActKernel(const Context& ctx, const DenseTensor& input,
                             const DenseTensor& filter, const DenseTensor& bias,
                             const DenseTensor* residual_data, const std::vector<int>& strides,
                             const std::vector<int>& paddings, const std::string& padding_algorithm,
                             const std::vector<int>& dilations, int groups,
                             const std::string& data_format, const std::string& activation,
                             const std::vector<int>& split_channels, bool exhaustive_search,
                             int workspace_size_MB, float fuse_alpha, bool onednn_blocked_input,
                             bool onednn_blocked_residual, bool onednn_blocked_output,
                             DenseTensor* output, std::vector<DenseTensor*> outputs) {
  const char* op = "fused_conv2d_add_act";
  funcs::ConvGeometry g = funcs::ConvolutionGeometry(
      op, input.dims(), filter.dims(), 2,
      {strides, paddings, padding_algorithm, dilations, groups, data_format});
  funcs::ConvEpilogue<T> epilogue;
  epilogue.bias = bias.data<T>();
  epilogue.residual = residual_data ? residual_data->data<T>() : nullptr;
  epilogue.activation = funcs::ParseConvActivation(activation, op);
  epilogue.alpha = fuse_alpha;
  T* y = ctx.template Alloc<T>(output);
  if (output->numel() > 0) {
    funcs::FusedConvForward<T>(
        g, input.data<T>(), filter.data<T>(), epilogue, y,
        {onednn_blocked_input, onednn_blocked_residual && residual_data, onednn_blocked_output});
  }
  // Each of outputs is a run of channels: [rows, part, inner] out of [rows, C, inner].
  const DDim& dims = output->dims();
  const int axis = g.channels_last ? dims.size() - 1 : 1;
  int64_t rows = 1, inner = 1;
  for (int i = 0; i < axis; ++i) rows *= dims[i];
  for (int i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  int64_t first = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    T* part = ctx.template Alloc<T>(outputs[k]);
    const int64_t width = split_channels[k] * inner;
    for (int64_t r = 0; r < rows; ++r) {
      std::copy(y + (r * g.out_channels + first) * inner,
                y + (r * g.out_channels + first) * inner + width, part + r * width);
    }
    first += split_channels[k];
  }
}

}  // namespace paddle
