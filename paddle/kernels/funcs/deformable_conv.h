// Deformable convolution (DCN v1 and v2) as bilinear-sampled im2col + GEMM. For each sample and
// group, the columns col [C / groups * kh * kw, H_out * W_out] hold, per input channel c and
// kernel tap k at output position p, the value of x[c] at the tap's position moved by the
// offset of c's deformable group (bilinear, 0 outside the map), times the mask there; the output
// is filter_g [C_out / groups, C / groups * kh * kw] x col. The backward pass forms the column
// gradient filter_g^T x out_grad and scatters it: into x through the bilinear weights, into the
// offsets through the weights' derivatives and into the mask through the sampled values; the
// filter gradient is out_grad x col^T. The geometry is shared with InferMeta
// (paddle/ops/infermeta/roi.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

struct DeformableConvGeometry {
  int64_t batch = 0, in_channels = 0, height = 0, width = 0;
  int64_t out_channels = 0, kernel_h = 0, kernel_w = 0;
  int64_t out_h = 0, out_w = 0;  // -1 where a static program leaves them unknown
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
  int64_t groups = 1, deformable_groups = 1;

  int64_t taps() const { return kernel_h * kernel_w; }
  DDim OutputDims() const;  // [N, C_out, H_out, W_out]
  DDim OffsetDims() const;  // [N, deformable_groups * 2 * kh * kw, H_out, W_out]
  DDim MaskDims() const;    // [N, deformable_groups * kh * kw, H_out, W_out]
};

// x [N, C, H, W] and filter [C_out, C / groups, kh, kw] with strides, paddings and dilations of
// two values each (H, W). Every bad shape or attribute is an InvalidArgument naming `op`, the
// argument, what was expected and what was received; dims of -1 (unknown) pass and give -1.
DeformableConvGeometry DeformableConvolutionGeometry(const char* op, const DDim& x,
                                                     const DDim& filter,
                                                     const std::vector<int>& strides,
                                                     const std::vector<int>& paddings,
                                                     const std::vector<int>& dilations,
                                                     int deformable_groups, int groups);

// out = the deformable convolution of x; mask may be null (v1). Every output is overwritten.
template <typename T>
void DeformableConvForward(const DeformableConvGeometry& g, const T* x, const T* offset,
                           const T* mask, const T* filter, T* out);

// The gradients of the forward's inputs from out_grad; any gradient pointer may be null (not
// wanted), and mask_grad is ignored without a mask.
template <typename T>
void DeformableConvBackward(const DeformableConvGeometry& g, const T* x, const T* offset,
                            const T* mask, const T* filter, const T* out_grad, T* x_grad,
                            T* offset_grad, T* filter_grad, T* mask_grad);

}  // namespace paddle::funcs
