#include "paddle/ops/infermeta/activation.h"

#include <vector>

#include "paddle/common/data_format.h"
#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

void HardtanhInferMeta(const TensorMeta& x, float min, float max, TensorMeta* out) {
  PD_CHECK(min <= max, errors::InvalidArgument("hardtanh: argument 'min' (", min,
                                               ") must not exceed 'max' (", max, ")"));
  *out = x;
}

void CeluInferMeta(const TensorMeta& x, float alpha, TensorMeta* out) {
  PD_CHECK(alpha != 0.0f,
           errors::InvalidArgument("celu: argument 'alpha' must not be 0 (x / alpha is taken)"));
  *out = x;
}

void SeluInferMeta(const TensorMeta& x, float scale, float alpha, TensorMeta* out) {
  PD_CHECK(scale > 1.0f, errors::InvalidArgument(
                             "selu: argument 'scale' must be greater than 1.0, received ", scale));
  PD_CHECK(alpha >= 0.0f, errors::InvalidArgument(
                              "selu: argument 'alpha' must be no less than 0, received ", alpha));
  *out = x;
}

void SoftshrinkInferMeta(const TensorMeta& x, float threshold, TensorMeta* out) {
  PD_CHECK(threshold >= 0.0f,
           errors::InvalidArgument("softshrink: argument 'threshold' must be no less than 0, "
                                   "received ",
                                   threshold));
  *out = x;
}

void RreluInferMeta(const TensorMeta& x, float lower, float upper, bool is_test, TensorMeta* out,
                    TensorMeta* noise) {
  PD_CHECK(lower >= 0.0f && lower <= 1.0f,
           errors::InvalidArgument("rrelu: argument 'lower' must be in [0, 1], received ", lower));
  PD_CHECK(upper >= lower && upper <= 1.0f,
           errors::InvalidArgument("rrelu: argument 'upper' must be in [lower, 1] = [", lower,
                                   ", 1], received ", upper));
  *out = x;
  *noise = x;
}

void MaxoutInferMeta(const TensorMeta& x, int32_t groups, int32_t axis, TensorMeta* out) {
  PD_CHECK(groups > 1, errors::InvalidArgument(
                           "maxout: argument 'groups' must be larger than 1, received ", groups));
  PD_CHECK(axis == 1 || axis == 3 || axis == -1,
           errors::InvalidArgument("maxout: argument 'axis' must be 1 (NCHW), 3 or -1 (NHWC), "
                                   "received ",
                                   axis));
  PD_CHECK(x.dims.size() == 4,
           errors::InvalidArgument("maxout: argument 'x' must be a 4-D tensor, received shape ",
                                   x.dims.ToString()));
  const int channel_axis = axis == 1 ? 1 : 3;
  const int64_t channels = x.dims[channel_axis];
  PD_CHECK(
      IsUnknown(channels) || channels % groups == 0,
      errors::InvalidArgument("maxout: the channels of argument 'x' (", channels, ", shape ",
                              x.dims.ToString(), ") must be divisible by 'groups' = ", groups));
  *out = x;
  std::vector<int64_t> dims = x.dims.ToVector();
  dims[channel_axis] = IsUnknown(channels) ? kUnknownDim : channels / groups;
  out->dims = DDim(dims);
}

void PreluInferMeta(const TensorMeta& x, const TensorMeta& alpha, const std::string& data_format,
                    const std::string& mode, TensorMeta* out) {
  PD_CHECK(alpha.dtype == x.dtype,
           errors::InvalidType("prelu: argument 'alpha' must have x's dtype ",
                               DataTypeName(x.dtype), ", received ", DataTypeName(alpha.dtype)));
  const int rank = x.dims.size();
  const int64_t size = KnownNumel(alpha.dims);
  int64_t expected = 1;
  std::string what = "one value";
  if (mode == "channel") {
    PD_CHECK(rank >= 2,
             errors::InvalidArgument("prelu: mode 'channel' needs argument 'x' of rank 2 or more, "
                                     "received shape ",
                                     x.dims.ToString()));
    expected = x.dims[ChannelAxis(data_format, rank, "prelu")];
    what = "one value per channel of x";
  } else if (mode == "element") {
    PD_CHECK(rank >= 1, errors::InvalidArgument(
                            "prelu: mode 'element' needs argument 'x' of rank 1 or more, received "
                            "a 0-D tensor"));
    std::vector<int64_t> sample = x.dims.ToVector();
    expected = KnownNumel(DDim(std::vector<int64_t>(sample.begin() + 1, sample.end())));
    what = "one value per element of a sample of x";
  } else {
    PD_CHECK(mode == "all",
             errors::InvalidArgument("prelu: argument 'mode' must be 'all', 'channel' or "
                                     "'element', received '",
                                     mode, "'"));
  }
  PD_CHECK(IsUnknown(size) || IsUnknown(expected) || size == expected,
           errors::InvalidArgument("prelu: argument 'alpha' must hold ", what, " (", expected,
                                   " for x of shape ", x.dims.ToString(), " in mode '", mode,
                                   "'), received shape ", alpha.dims.ToString()));
  *out = x;
}

}  // namespace paddle
