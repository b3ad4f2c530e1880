// The three routines the conv ops are made of, on dense tensors laid out as the geometry's data
// format says (input [N, C_in, spatial...] or channels last, filter [C_out, C_in / groups, k...]):
//   ConvForward:        output = input (*) filter
//   ConvBackwardData:   input_grad = the adjoint of ConvForward in its input, applied to out_grad
//                       (this is also the transposed convolution's forward)
//   ConvBackwardFilter: filter_grad = the adjoint in the filter, applied to out_grad
// Every output is overwritten. float and bfloat16 run on oneDNN (conv_onednn.cc; bfloat16 through
// float32 on CPUs without native bf16), double on im2col and OpenBLAS (conv_im2col.cc); all accept
// any geometry ConvolutionGeometry produces, including zero-size batches and channels.
#pragma once

#include "paddle/kernels/funcs/conv_epilogue.h"
#include "paddle/kernels/funcs/conv_geometry.h"

namespace paddle::funcs {

template <typename T>
void ConvForward(const ConvGeometry& g, const T* input, const T* filter, T* output);
// output = the epilogue (conv_epilogue.h) applied to input (*) filter, the operands `blocked`
// names in oneDNN's blocked layout (float only).
template <typename T>
void FusedConvForward(const ConvGeometry& g, const T* input, const T* filter,
                      const ConvEpilogue<T>& epilogue, T* output,
                      const ConvBlockedOperands& blocked = {});
template <typename T>
void ConvBackwardData(const ConvGeometry& g, const T* out_grad, const T* filter, T* input_grad);
template <typename T>
void ConvBackwardFilter(const ConvGeometry& g, const T* input, const T* out_grad, T* filter_grad);

// The im2col path for every type, which the double specialisations use and the tests compare the
// oneDNN path against.
template <typename T>
void Im2colConvForward(const ConvGeometry& g, const T* input, const T* filter, T* output);
template <typename T>
void Im2colConvBackwardData(const ConvGeometry& g, const T* out_grad, const T* filter,
                            T* input_grad);
template <typename T>
void Im2colConvBackwardFilter(const ConvGeometry& g, const T* input, const T* out_grad,
                              T* filter_grad);

}  // namespace paddle::funcs
