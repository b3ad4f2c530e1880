#include "paddle/common/data_format.h"

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

}  // namespace paddle
