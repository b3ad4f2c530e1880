#include "paddle/kernels/funcs/interpolate_geometry.h"

#include "paddle/common/errors.h"

namespace paddle::funcs {

namespace {

// The ranks interp_method resamples, as a message fragment; empty for an unknown method.
std::string RanksOf(const std::string& interp_method) {
  if (interp_method == "linear") return "3-D";
  if (interp_method == "bilinear" || interp_method == "bicubic") return "4-D";
  if (interp_method == "nearest") return "4-D or 5-D";
  if (interp_method == "trilinear") return "5-D";
  return "";
}

bool MethodTakesRank(const std::string& interp_method, int rank) {
  if (interp_method == "linear") return rank == 3;
  if (interp_method == "bilinear" || interp_method == "bicubic") return rank == 4;
  if (interp_method == "nearest") return rank == 4 || rank == 5;
  return rank == 5;  // trilinear
}

}  // namespace

InterpolateLayout CheckInterpolateArgs(const DDim& dims, const std::string& data_format,
                                       const std::string& interp_method, int align_mode,
                                       const char* op, const char* arg) {
  const std::string ranks = RanksOf(interp_method);
  PD_CHECK(!ranks.empty(),
           errors::InvalidArgument(op,
                                   ": argument 'interp_method' must be 'linear', 'bilinear', "
                                   "'bicubic', 'trilinear' or 'nearest', received '",
                                   interp_method, "'"));
  PD_CHECK(
      MethodTakesRank(interp_method, dims.size()),
      errors::InvalidArgument(op, ": interp_method '", interp_method, "' resamples ", ranks,
                              " tensors, but argument '", arg, "' has shape ", dims.ToString()));
  const bool channel_first =
      data_format == "NCHW" || data_format == (dims.size() == 3 ? "NCW" : "NCDHW");
  const bool channel_last =
      data_format == "NHWC" || data_format == (dims.size() == 3 ? "NWC" : "NDHWC");
  PD_CHECK(
      channel_first || channel_last,
      errors::InvalidArgument(op, ": argument 'data_format' must be 'NCHW' or 'NHWC' (or ",
                              dims.size() == 3 ? "'NCW' or 'NWC'" : "'NCDHW' or 'NDHWC'",
                              ") for a ", dims.size(), "-D tensor, received '", data_format, "'"));
  PD_CHECK(
      align_mode == 0 || align_mode == 1,
      errors::InvalidArgument(op, ": argument 'align_mode' must be 0 or 1, received ", align_mode));
  return {channel_last, dims.size() - 2};
}

std::vector<int64_t> SpatialDims(const DDim& dims, const InterpolateLayout& layout) {
  const int first = layout.channel_last ? 1 : 2;
  return std::vector<int64_t>(dims.data() + first, dims.data() + first + layout.spatial);
}

DDim WithSpatialDims(const DDim& dims, const InterpolateLayout& layout,
                     const std::vector<int64_t>& spatial) {
  DDim out = dims;
  const int first = layout.channel_last ? 1 : 2;
  for (int i = 0; i < layout.spatial; ++i) out[first + i] = spatial[i];
  return out;
}

std::vector<float> ScaleFactors(const std::vector<float>& scale, int spatial, const char* op) {
  if (scale.empty()) return {};
  PD_CHECK(scale.size() == 1 || static_cast<int>(scale.size()) == spatial,
           errors::InvalidArgument(op, ": argument 'scale' must hold 1 or ", spatial,
                                   " factors (one per spatial dim), received ", scale.size()));
  std::vector<float> factors(spatial, scale[0]);
  for (int i = 0; i < spatial; ++i) {
    if (scale.size() > 1) factors[i] = scale[i];
    // Also rejects NaN; a factor past int range gives a size no tensor can have.
    PD_CHECK(factors[i] > 0.0f && factors[i] < 1e18f,
             errors::InvalidArgument(op,
                                     ": the scale factors must be positive and finite, "
                                     "received ",
                                     factors[i]));
  }
  return factors;
}

std::vector<int64_t> SizeAttrs(int spatial, int32_t out_d, int32_t out_h, int32_t out_w) {
  const std::vector<int64_t> all = {out_d, out_h, out_w};
  return std::vector<int64_t>(all.end() - spatial, all.end());
}

}  // namespace paddle::funcs
