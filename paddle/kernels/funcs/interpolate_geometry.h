// The geometry of the interpolate ops (paddle/ops/yaml/interpolate.yaml), shared by their
// InferMeta and kernels: where the channels and spatial dims of an operand are, and how a scale
// factor turns into an output size. Errors name the op (`op`) and the argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

struct InterpolateLayout {
  bool channel_last;  // N, spatial..., C (else N, C, spatial...)
  int spatial;        // 1, 2 or 3 spatial dims
};

// Checks that an operand of `dims` (3-D to 5-D) in `data_format` suits `interp_method` (linear:
// 3-D; bilinear, bicubic: 4-D; nearest: 4-D or 5-D; trilinear: 5-D) and that align_mode is 0
// or 1. data_format is NCHW or NHWC (Paddle's data_layout, for any rank) or the rank's own
// name (NCW, NWC, NCDHW, NDHWC).
InterpolateLayout CheckInterpolateArgs(const DDim& dims, const std::string& data_format,
                                       const std::string& interp_method, int align_mode,
                                       const char* op, const char* arg);

// The spatial dims of `dims`, outermost first.
std::vector<int64_t> SpatialDims(const DDim& dims, const InterpolateLayout& layout);
// `dims` with its spatial dims replaced.
DDim WithSpatialDims(const DDim& dims, const InterpolateLayout& layout,
                     const std::vector<int64_t>& spatial);

// One positive scale factor per spatial dim from the `scale` attribute (empty: none). Paddle
// writes one per spatial dim; a single one serves every dim.
std::vector<float> ScaleFactors(const std::vector<float>& scale, int spatial, const char* op);

// The output size a factor gives: floor(in * factor) computed in float, as Paddle does.
inline int64_t ScaledSize(int64_t in, float factor) {
  return static_cast<int64_t>(static_cast<float>(in) * factor);
}

// The out_d / out_h / out_w attributes of the spatial dims, outermost first.
std::vector<int64_t> SizeAttrs(int spatial, int32_t out_d, int32_t out_h, int32_t out_w);

}  // namespace paddle::funcs
