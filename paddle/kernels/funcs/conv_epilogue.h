// What a fused convolution (Paddle's fused_conv2d_add_act, which the predictor's conv fusion
// writes) does after the convolution itself: out = activation(conv + bias + residual). oneDNN
// runs it as the primitive's bias and post-ops, in the same pass over the output; the double path
// and the tests run ApplyConvEpilogue over a finished convolution.
#pragma once

#include <cstdint>
#include <string>

#include "paddle/kernels/funcs/conv_geometry.h"

namespace paddle::funcs {

// The activations Paddle's fused_conv2d_add_act accepts; kReluX clips at `alpha`.
enum class ConvActivation { kIdentity, kRelu, kRelu6, kReluX, kSigmoid, kTanh };

// The activation Paddle names `name`; an InvalidArgument error naming `op` for any other.
ConvActivation ParseConvActivation(const std::string& name, const char* op);

template <typename T>
struct ConvEpilogue {
  const T* bias = nullptr;      // [out_channels]
  const T* residual = nullptr;  // the output's shape and layout, or null
  ConvActivation activation = ConvActivation::kIdentity;
  float alpha = 0.0f;  // kReluX's ceiling
};

// Which of a fused convolution's 4-D tensors hold oneDNN's blocked layout (nChw16c, nChw8c below
// AVX-512) instead of NCHW. The predictor keeps a tensor blocked from one fused convolution to
// the next (inference_passes.h), saving the reorders to NCHW and back. float32 only.
struct ConvBlockedOperands {
  bool input = false;
  bool residual = false;
  bool output = false;
  bool any() const { return input || residual || output; }
};

// out = activation(out + bias + residual), over an output in the geometry's plain layout.
template <typename T>
void ApplyConvEpilogue(const ConvGeometry& g, const ConvEpilogue<T>& epilogue, T* out);

}  // namespace paddle::funcs
