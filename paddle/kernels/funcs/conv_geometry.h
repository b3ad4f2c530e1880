// The shape of one convolution with every attribute resolved (explicit padding on both sides of
// each spatial dim, "SAME"/"VALID" applied, dilations and strides per dim), computed once from
// the op's attributes and shared by the InferMeta functions and the kernels of the conv ops.
//
// A transposed convolution is described by the convolution whose data gradient it is: its x is
// that convolution's output, its out the convolution's input, and its filter
// [C_x, C_out / groups, k...] is exactly the convolution's [out_channels, in_channels / groups,
// k...]. So conv2d_transpose runs the backward-data routine of conv2d, and its gradient the
// forward and backward-filter routines, on one geometry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

struct ConvGeometry {
  bool channels_last = false;  // NLC, NHWC, NDHWC
  int64_t batch = 0;
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  int64_t groups = 1;
  // One entry per spatial dim; a size is -1 where a static program leaves it unknown.
  std::vector<int64_t> input, filter, output;
  std::vector<int64_t> strides, dilations, pad_before, pad_after;

  int spatial_rank() const { return static_cast<int>(input.size()); }
  // [N, C, spatial...] or [N, spatial..., C] as the data format says.
  DDim InputDims() const;
  DDim OutputDims() const;
  // [out_channels, in_channels / groups, filter...]
  DDim FilterDims() const;
  // Whether every size is known (a kernel's geometry always is).
  bool Known() const;
};

// The attributes every conv op has, by reference.
struct ConvAttrs {
  const std::vector<int>& strides;
  const std::vector<int>& paddings;      // one per spatial dim, or before/after pairs
  const std::string& padding_algorithm;  // "EXPLICIT", "SAME" or "VALID"
  const std::vector<int>& dilations;
  int groups;
  const std::string& data_format;
};

// conv1d/2d/3d: input [N, C_in, spatial...] (or channels last), filter
// [C_out, C_in / groups, k...]. Every bad attribute or shape is an InvalidArgument naming `op`,
// the argument, what was expected and what was received.
ConvGeometry ConvolutionGeometry(const char* op, const DDim& input, const DDim& filter,
                                 int spatial_rank, const ConvAttrs& attrs);

// conv*_transpose: x [N, C_x, spatial...], filter [C_x, C_out / groups, k...]. The output size
// is output_size where given (it must lie in [s, s + stride) with s the size without it), else
// s + output_padding (each below the stride or the dilation, as in Paddle).
ConvGeometry TransposedConvolutionGeometry(const char* op, const DDim& x, const DDim& filter,
                                           int spatial_rank, const ConvAttrs& attrs,
                                           const std::vector<int>& output_padding,
                                           const std::vector<int>& output_size);

}  // namespace paddle::funcs
