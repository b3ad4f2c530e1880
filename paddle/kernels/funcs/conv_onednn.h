// The float and bfloat16 convolutions on oneDNN (conv_onednn.cc). ConvForward<float> and its
// siblings run them in the layout ChooseConvLayout picks for the geometry; the tests run both
// layouts.
#pragma once

#include "paddle/common/float16.h"
#include "paddle/kernels/funcs/conv_epilogue.h"
#include "paddle/kernels/funcs/conv_geometry.h"

namespace paddle::funcs {

// The layout of the data a primitive works on: the one oneDNN prefers (blocked, with reorders
// from and to the user's tensors), or the user's NCHW/NHWC as it is.
enum class ConvLayout { kOneDnnChoice, kUser };

// kOneDnnChoice for kernels larger than 1x1; for 1x1 kernels the faster of the two, timed once
// per geometry (and kind of epilogue, for a fused convolution).
ConvLayout ChooseConvLayout(const ConvGeometry& g, const ConvEpilogue<float>* epilogue = nullptr);

// As ConvForward (FusedConvForward with an epilogue), ConvBackwardData and ConvBackwardFilter,
// for geometries without zero-size dims. The bfloat16 ones (no epilogue) are for CPUs with native
// bf16 dot products (Bf16GemmOnOnednn()).
void OneDnnConvForward(const ConvGeometry& g, ConvLayout layout, const float* input,
                       const float* filter, float* output,
                       const ConvEpilogue<float>* epilogue = nullptr,
                       const ConvBlockedOperands& blocked = {});
void OneDnnConvForward(const ConvGeometry& g, ConvLayout layout, const bfloat16* input,
                       const bfloat16* filter, bfloat16* output);
template <typename T>  // float or bfloat16
void OneDnnConvBackwardData(const ConvGeometry& g, ConvLayout layout, const T* out_grad,
                            const T* filter, T* input_grad);
template <typename T>
void OneDnnConvBackwardFilter(const ConvGeometry& g, ConvLayout layout, const T* input,
                              const T* out_grad, T* filter_grad);

}  // namespace paddle::funcs
