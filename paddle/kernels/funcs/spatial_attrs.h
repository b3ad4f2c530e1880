// The attribute checks and dims the convolution and pooling geometries share (conv_geometry.h,
// pool_geometry.h): per-spatial-dim attributes, their rendering in errors, and the
// [N, C, spatial...] / [N, spatial..., C] dims of a data format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

// "[1, 2, 3]"
std::string JoinInts(const std::vector<int>& values);

// Exactly one value per spatial dim, each positive; else InvalidArgument naming `op` and `name`.
std::vector<int64_t> PositivePerDim(const char* op, const char* name,
                                    const std::vector<int>& values, int spatial_rank);

// [batch, channels, spatial...], or [batch, spatial..., channels] when channels_last.
DDim DataFormatDims(int64_t batch, int64_t channels, const std::vector<int64_t>& spatial,
                    bool channels_last);

}  // namespace paddle::funcs
