// The shape of one pooling with every attribute resolved: the window of each output position per
// spatial dim, the padding on both sides, and the output size, computed once from the op's
// attributes and shared by the InferMeta functions and the kernels of the pooling ops (pool2d,
// pool3d, lp_pool2d, max_pool*_with_index) and of unpool, which inverts a max pooling.
//
// Paddle's rules: paddings hold one value per spatial dim or a (before, after) pair per dim;
// "SAME" pads to ceil(in / stride) outputs and "VALID" pads nothing; global pooling takes the
// whole input as the window; adaptive pooling splits each dim into `kernel_size` bins
// [floor(i * in / out), ceil((i + 1) * in / out)); otherwise the output has
// (in + pads - k) / stride + 1 positions, rounded up instead of down in ceil_mode.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

struct PoolGeometry {
  bool channels_last = false;  // NHWC, NDHWC
  bool adaptive = false;
  int64_t batch = 0;
  int64_t channels = 0;
  // One entry per spatial dim; a size is -1 where a static program leaves it unknown. For an
  // adaptive pooling `kernel` and `strides` are unused (each output has its own bin).
  std::vector<int64_t> input, output, kernel, strides, pad_before, pad_after;

  int spatial_rank() const { return static_cast<int>(input.size()); }
  // [N, C, spatial...] or [N, spatial..., C] as the data format says.
  DDim InputDims() const;
  DDim OutputDims() const;
  // Whether every size is known (a kernel's geometry always is).
  bool Known() const;
  // The input positions [WindowBegin, WindowEnd) that output position `o` of spatial dim `d`
  // reads, clipped to the input (the padding holds no elements).
  int64_t WindowBegin(int d, int64_t o) const;
  int64_t WindowEnd(int d, int64_t o) const;
  // The elements of one input plane, and of one output plane.
  int64_t InputPlane() const;
  int64_t OutputPlane() const;
};

// The attributes every pooling op has, by reference.
struct PoolAttrs {
  const std::vector<int>& kernel_size;
  const std::vector<int>& strides;
  const std::vector<int>& paddings;  // one per spatial dim, or before/after pairs
  bool ceil_mode;
  const std::string& data_format;
  bool global_pooling;
  bool adaptive;
  const std::string& padding_algorithm;  // "EXPLICIT", "SAME" or "VALID"
};

// x: [N, C, spatial...] (or channels last) of spatial rank `spatial_rank`. Every bad attribute
// or shape is an InvalidArgument naming `op`, the argument, what was expected and what was
// received, including a window that would lie entirely in the padding (Paddle computes -FLT_MAX or
// 0 / 0 there).
PoolGeometry PoolingGeometry(const char* op, const DDim& x, int spatial_rank,
                             const PoolAttrs& attrs);

enum class PoolMode { kMax, kAvgExclusive, kAvgInclusive };

// pooling_type "max" or "avg"; an average counts only the input elements of each window when
// `exclusive` (or adaptive), else divides by the whole kernel's size, as Paddle does.
PoolMode ParsePoolMode(const char* op, const std::string& pooling_type, bool exclusive,
                       bool adaptive);

// unpool/unpool3d: x and indices [N, C, spatial...] of the same shape (indices int32 or int64,
// each a flat position in its output plane), the output [N, C, output_size...]. An empty or
// all-zero output_size means (in - 1) * stride - 2 * padding + ksize per dim, as in Paddle.
struct UnpoolGeometry {
  int64_t batch = 0;
  int64_t channels = 0;
  std::vector<int64_t> input, output;
  DDim OutputDims() const;
  int64_t InputPlane() const;
  int64_t OutputPlane() const;
};

UnpoolGeometry UnpoolingGeometry(const char* op, const DDim& x, const DDim& indices,
                                 int spatial_rank, const std::vector<int>& ksize,
                                 const std::vector<int>& strides, const std::vector<int>& paddings,
                                 const std::vector<int>& output_size,
                                 const std::string& data_format);

}  // namespace paddle::funcs
