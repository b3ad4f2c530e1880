#include "paddle/kernels/funcs/spatial_attrs.h"

#include "paddle/common/errors.h"

namespace paddle::funcs {

std::string JoinInts(const std::vector<int>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::vector<int64_t> PositivePerDim(const char* op, const char* name,
                                    const std::vector<int>& values, int spatial_rank) {
  PD_CHECK(static_cast<int>(values.size()) == spatial_rank,
           errors::InvalidArgument(op, ": '", name, "' must have ", spatial_rank,
                                   " values (one per spatial dim), received ", JoinInts(values)));
  std::vector<int64_t> out;
  for (int v : values) {
    PD_CHECK(v > 0, errors::InvalidArgument(op, ": every value of '", name,
                                            "' must be positive, received ", JoinInts(values)));
    out.push_back(v);
  }
  return out;
}

DDim DataFormatDims(int64_t batch, int64_t channels, const std::vector<int64_t>& spatial,
                    bool channels_last) {
  std::vector<int64_t> d{batch};
  if (!channels_last) d.push_back(channels);
  d.insert(d.end(), spatial.begin(), spatial.end());
  if (channels_last) d.push_back(channels);
  return DDim(d);
}

}  // namespace paddle::funcs
