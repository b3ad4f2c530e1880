// The float convolutions on oneDNN (conv_onednn.cc). ConvForward<float> and its siblings run
// them in the layout ChooseConvLayout picks for the geometry; the tests run both layouts.
#pragma once

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
// for geometries without zero-size dims.
void OneDnnConvForward(const ConvGeometry& g, ConvLayout layout, const float* input,
                       const float* filter, float* output,
                       const ConvEpilogue<float>* epilogue = nullptr,
                       const ConvBlockedOperands& blocked = {});
void OneDnnConvBackwardData(const ConvGeometry& g, ConvLayout layout, const float* out_grad,
                            const float* filter, float* input_grad);
void OneDnnConvBackwardFilter(const ConvGeometry& g, ConvLayout layout, const float* input,
                              const float* out_grad, float* filter_grad);

}  // namespace paddle::funcs
