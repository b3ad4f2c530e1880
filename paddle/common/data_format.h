// Where the channel dimension sits in a tensor of a named data format, shared by the
// normalisation ops' InferMeta and kernels.
#pragma once

#include <string>

namespace paddle {

// The channel axis of a `rank`-D input in `data_format`: 1 for NC, NCL, NCHW and NCDHW, the last
// axis for NLC, NHWC and NDHWC (only the position of C matters, as in Paddle, which maps every
// format to NCHW or NHWC). Any other format is an InvalidArgument naming `op`.
int ChannelAxis(const std::string& data_format, int rank, const char* op);

}  // namespace paddle
