// The view batch_norm's CPU and CUDA kernels take of x: [outer, C, inner], which is
// [N, C, H*W...] for the NC* data formats and [N*H*W..., C, 1] for N*C.
#pragma once

#include <cstdint>
#include <string>

#include "paddle/common/data_format.h"
#include "paddle/common/ddim.h"
#include "paddle/common/float16.h"

namespace paddle::funcs {

struct BatchNormView {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;

  BatchNormView(const DDim& dims, const std::string& data_format, const char* op) {
    const int axis = ChannelAxis(data_format, dims.size(), op);
    for (int i = 0; i < dims.size(); ++i) {
      if (i < axis) {
        outer *= dims[i];
      } else if (i == axis) {
        channels = dims[i];
      } else {
        inner *= dims[i];
      }
    }
  }

  // The number of elements of each channel.
  PD_HOSTDEVICE int64_t per_channel() const { return outer * inner; }
  // The offset in x of element j of channel c, elements in memory order.
  PD_HOSTDEVICE int64_t Offset(int64_t c, int64_t j) const {
    return ((j / inner) * channels + c) * inner + j % inner;
  }
};

}  // namespace paddle::funcs
