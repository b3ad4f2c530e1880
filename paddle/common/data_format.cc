#include "paddle/common/data_format.h"

#include <vector>

#include "paddle/common/errors.h"

namespace paddle {

int ChannelAxis(const std::string& data_format, int rank, const char* op) {
  if (data_format == "NC" || data_format == "NCL" || data_format == "NCHW" ||
      data_format == "NCDHW") {
    return 1;
  }
  PD_CHECK(data_format == "NLC" || data_format == "NHWC" || data_format == "NDHWC",
           errors::InvalidArgument(op,
                                   ": 'data_format' must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                                   "'NLC', 'NHWC', 'NDHWC', received '",
                                   data_format, "'"));
  return rank - 1;
}

DDim PreluAlphaDims(const DDim& x_dims, const std::string& data_format, const std::string& mode) {
  const int rank = x_dims.size();
  if (mode == "channel") {
    const int channel = ChannelAxis(data_format, rank, "prelu");
    std::vector<int64_t> dims(rank - channel, 1);
    dims[0] = x_dims[channel];
    return DDim(dims);
  }
  if (mode == "element") {
    std::vector<int64_t> dims = x_dims.ToVector();
    return DDim(std::vector<int64_t>(dims.begin() + 1, dims.end()));
  }
  return DDim(std::vector<int64_t>{});
}

}  // namespace paddle
