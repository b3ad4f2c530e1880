// Where the channel dimension sits in a tensor of a named data format, shared by the
// normalisation ops' and prelu's InferMeta, kernels and gradients.
#pragma once

#include <string>

#include "paddle/common/ddim.h"

namespace paddle {

// The channel axis of a `rank`-D input in `data_format`: 1 for NC, NCL, NCHW and NCDHW, the last
// axis for NLC, NHWC and NDHWC (only the position of C matters, as in Paddle, which maps every
// format to NCHW or NHWC). Any other format is an InvalidArgument naming `op`.
int ChannelAxis(const std::string& data_format, int rank, const char* op);

// The dims prelu views its weight `alpha` with so that it broadcasts against x of `x_dims`:
// mode "all" one value ([]), "channel" one per channel ([C, 1, ..., 1] with C at x's channel
// axis, [C] for channels-last), "element" one per element of a sample (x's dims after the
// first). prelu's InferMeta has checked the mode, the format and alpha's size.
DDim PreluAlphaDims(const DDim& x_dims, const std::string& data_format, const std::string& mode);

}  // namespace paddle
