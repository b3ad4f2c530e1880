#include "paddle/kernels/funcs/pool_geometry.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/spatial_attrs.h"

namespace paddle::funcs {

namespace {

bool Unknown(int64_t dim) { return dim < 0; }

// Paddle's pooling ops treat every format but the channels-last one as channels first; programs
// from old Paddle versions say "AnyLayout".
bool ChannelsLast(const char* op, const std::string& data_format, int spatial_rank) {
  static const char* const kFirst[] = {"NCL", "NCHW", "NCDHW"};
  static const char* const kLast[] = {"NLC", "NHWC", "NDHWC"};
  const int i = spatial_rank - 1;
  if (data_format == kFirst[i] || data_format == "AnyLayout") return false;
  if (data_format == kLast[i]) return true;
  PD_THROW(errors::InvalidArgument(op, ": 'data_format' must be '", kFirst[i], "' or '", kLast[i],
                                   "', received '", data_format, "'"));
}

// (before, after) per spatial dim from one value per dim or a pair per dim.
void ReadPaddings(const char* op, const char* name, const std::vector<int>& p, int rank,
                  std::vector<int64_t>* before, std::vector<int64_t>* after) {
  const int n = static_cast<int>(p.size());
  PD_CHECK(n == rank || n == 2 * rank,
           errors::InvalidArgument(op, ": '", name, "' must have ", rank, " or ", 2 * rank,
                                   " values (per spatial dim, or before and after each), "
                                   "received ",
                                   JoinInts(p)));
  for (int v : p) {
    PD_CHECK(v >= 0, errors::InvalidArgument(op, ": '", name, "' must not be negative, received ",
                                             JoinInts(p)));
  }
  before->clear();
  after->clear();
  for (int i = 0; i < rank; ++i) {
    before->push_back(n == rank ? p[i] : p[2 * i]);
    after->push_back(n == rank ? p[i] : p[2 * i + 1]);
  }
}

int64_t OutputSize(const char* op, int d, int64_t in, int64_t k, int64_t before, int64_t after,
                   int64_t stride, bool ceil_mode) {
  const int64_t span = in + before + after - k;
  PD_CHECK(span >= 0, errors::InvalidArgument(op, ": the padded input (size ", in, " + padding ",
                                              before + after, " in spatial dim ", d,
                                              ") is smaller than the kernel (", k, ")"));
  return (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
}

// Every window must hold an input element: the input may not be empty, the first window may not
// end in the leading padding, the last may not start in the trailing padding (ceil_mode can
// place it there).
void CheckWindowsOverlapInput(const char* op, const PoolGeometry& g, int d,
                              const std::vector<int>& paddings) {
  PD_CHECK(g.input[d] > 0, errors::InvalidArgument(op, ": argument 'x' is empty in spatial dim ", d,
                                                   "; pooling needs an element in every "
                                                   "window"));
  const int64_t last_begin = (g.output[d] - 1) * g.strides[d] - g.pad_before[d];
  PD_CHECK(g.pad_before[d] < g.kernel[d] && last_begin < g.input[d],
           errors::InvalidArgument(op, ": 'paddings' ", JoinInts(paddings),
                                   " leave a pooling window entirely in the padding of spatial "
                                   "dim ",
                                   d, " (input size ", g.input[d], ", kernel ", g.kernel[d],
                                   ", stride ", g.strides[d],
                                   "); the padding on each side must be smaller than the kernel "
                                   "and every window must start inside the input"));
}

}  // namespace

DDim PoolGeometry::InputDims() const {
  return DataFormatDims(batch, channels, input, channels_last);
}

DDim PoolGeometry::OutputDims() const {
  return DataFormatDims(batch, channels, output, channels_last);
}

bool PoolGeometry::Known() const {
  auto known = [](const std::vector<int64_t>& v) {
    return std::none_of(v.begin(), v.end(), Unknown);
  };
  return !Unknown(batch) && !Unknown(channels) && known(input) && known(output);
}

int64_t PoolGeometry::WindowBegin(int d, int64_t o) const {
  if (adaptive) return o * input[d] / output[d];
  return std::max<int64_t>(o * strides[d] - pad_before[d], 0);
}

int64_t PoolGeometry::WindowEnd(int d, int64_t o) const {
  if (adaptive) return ((o + 1) * input[d] + output[d] - 1) / output[d];
  return std::min<int64_t>(o * strides[d] - pad_before[d] + kernel[d], input[d]);
}

int64_t PoolGeometry::InputPlane() const {
  int64_t n = 1;
  for (int64_t s : input) n *= s;
  return n;
}

int64_t PoolGeometry::OutputPlane() const {
  int64_t n = 1;
  for (int64_t s : output) n *= s;
  return n;
}

PoolGeometry PoolingGeometry(const char* op, const DDim& x, int spatial_rank,
                             const PoolAttrs& attrs) {
  PoolGeometry g;
  g.channels_last = ChannelsLast(op, attrs.data_format, spatial_rank);
  PD_CHECK(x.size() == spatial_rank + 2,
           errors::InvalidArgument(op, ": argument 'x' must be a ", spatial_rank + 2,
                                   "-D tensor, received shape ", x.ToString()));
  g.batch = x[0];
  g.channels = g.channels_last ? x[x.size() - 1] : x[1];
  for (int i = 0; i < spatial_rank; ++i) g.input.push_back(x[(g.channels_last ? 1 : 2) + i]);

  const std::string& algorithm = attrs.padding_algorithm;
  PD_CHECK(algorithm == "EXPLICIT" || algorithm == "SAME" || algorithm == "VALID",
           errors::InvalidArgument(op,
                                   ": 'padding_algorithm' must be 'EXPLICIT', 'SAME' or "
                                   "'VALID', received '",
                                   algorithm, "'"));
  g.kernel = PositivePerDim(op, "kernel_size", attrs.kernel_size, spatial_rank);
  g.strides = PositivePerDim(op, "strides", attrs.strides, spatial_rank);
  ReadPaddings(op, "paddings", attrs.paddings, spatial_rank, &g.pad_before, &g.pad_after);

  if (attrs.global_pooling) {
    // The whole input is the one window (Paddle ignores kernel_size, paddings and adaptive).
    g.kernel = g.input;
    g.pad_before.assign(spatial_rank, 0);
    g.pad_after.assign(spatial_rank, 0);
    g.output.assign(spatial_rank, 1);
    for (int i = 0; i < spatial_rank; ++i) {
      PD_CHECK(Unknown(g.input[i]) || g.input[i] > 0,
               errors::InvalidArgument(op,
                                       ": global pooling needs a non-empty input, received "
                                       "shape ",
                                       x.ToString()));
    }
    return g;
  }
  if (attrs.adaptive) {
    g.adaptive = true;
    g.output = g.kernel;  // kernel_size is the output size
    g.pad_before.assign(spatial_rank, 0);
    g.pad_after.assign(spatial_rank, 0);
    for (int i = 0; i < spatial_rank; ++i) {
      PD_CHECK(Unknown(g.input[i]) || g.input[i] > 0,
               errors::InvalidArgument(op,
                                       ": adaptive pooling needs a non-empty input, "
                                       "received shape ",
                                       x.ToString()));
    }
    return g;
  }
  for (int i = 0; i < spatial_rank; ++i) {
    if (algorithm == "VALID") {
      g.pad_before[i] = g.pad_after[i] = 0;
    } else if (algorithm == "SAME" && !Unknown(g.input[i])) {
      const int64_t out = (g.input[i] + g.strides[i] - 1) / g.strides[i];
      const int64_t total =
          std::max<int64_t>((out - 1) * g.strides[i] + g.kernel[i] - g.input[i], 0);
      g.pad_before[i] = total / 2;
      g.pad_after[i] = total - total / 2;
    }
    if (Unknown(g.input[i])) {
      g.output.push_back(-1);
      continue;
    }
    g.output.push_back(OutputSize(op, i, g.input[i], g.kernel[i], g.pad_before[i], g.pad_after[i],
                                  g.strides[i], attrs.ceil_mode));
    CheckWindowsOverlapInput(op, g, i, attrs.paddings);
  }
  return g;
}

PoolMode ParsePoolMode(const char* op, const std::string& pooling_type, bool exclusive,
                       bool adaptive) {
  if (pooling_type == "max") return PoolMode::kMax;
  PD_CHECK(pooling_type == "avg",
           errors::InvalidArgument(op, ": 'pooling_type' must be 'max' or 'avg', received '",
                                   pooling_type, "'"));
  return exclusive || adaptive ? PoolMode::kAvgExclusive : PoolMode::kAvgInclusive;
}

DDim UnpoolGeometry::OutputDims() const {
  std::vector<int64_t> d{batch, channels};
  d.insert(d.end(), output.begin(), output.end());
  return DDim(d);
}

int64_t UnpoolGeometry::InputPlane() const {
  int64_t n = 1;
  for (int64_t s : input) n *= s;
  return n;
}

int64_t UnpoolGeometry::OutputPlane() const {
  int64_t n = 1;
  for (int64_t s : output) n *= s;
  return n;
}

UnpoolGeometry UnpoolingGeometry(const char* op, const DDim& x, const DDim& indices,
                                 int spatial_rank, const std::vector<int>& ksize,
                                 const std::vector<int>& strides, const std::vector<int>& paddings,
                                 const std::vector<int>& output_size,
                                 const std::string& data_format) {
  static const char* const kFormats[] = {"NCL", "NCHW", "NCDHW"};
  PD_CHECK(data_format == kFormats[spatial_rank - 1],
           errors::InvalidArgument(op, ": 'data_format' must be '", kFormats[spatial_rank - 1],
                                   "', received '", data_format, "'"));
  PD_CHECK(x.size() == spatial_rank + 2,
           errors::InvalidArgument(op, ": argument 'x' must be a ", spatial_rank + 2,
                                   "-D tensor, received shape ", x.ToString()));
  bool same_shape = indices.size() == x.size();
  for (int i = 0; same_shape && i < x.size(); ++i) {
    same_shape = x[i] == indices[i] || Unknown(x[i]) || Unknown(indices[i]);
  }
  PD_CHECK(same_shape, errors::InvalidArgument(op, ": 'indices' must have the shape of 'x' ",
                                               x.ToString(), ", received ", indices.ToString()));
  std::vector<int64_t> k = PositivePerDim(op, "ksize", ksize, spatial_rank);
  std::vector<int64_t> s = PositivePerDim(op, "strides", strides, spatial_rank);
  std::vector<int64_t> before, after;
  ReadPaddings(op, "paddings", paddings, spatial_rank, &before, &after);
  const bool given = std::any_of(output_size.begin(), output_size.end(), [](int v) { return v; });
  PD_CHECK(
      !given || static_cast<int>(output_size.size()) == spatial_rank,
      errors::InvalidArgument(op, ": 'output_size' must have ", spatial_rank,
                              " values (one per spatial dim), received ", JoinInts(output_size)));
  UnpoolGeometry g;
  g.batch = x[0];
  g.channels = x[1];
  for (int i = 0; i < spatial_rank; ++i) {
    const int64_t in = x[2 + i];
    g.input.push_back(in);
    int64_t size = given ? output_size[i] : -1;
    if (!given && !Unknown(in)) size = (in - 1) * s[i] - before[i] - after[i] + k[i];
    PD_CHECK(Unknown(size) || size > 0 || (!given && in == 0),
             errors::InvalidArgument(op, ": the output would have size ", size, " in spatial dim ",
                                     i, " for 'x' of shape ", x.ToString(), " ('output_size' ",
                                     JoinInts(output_size), "); it must be positive"));
    g.output.push_back(std::max<int64_t>(size, Unknown(size) ? -1 : 0));
  }
  return g;
}

}  // namespace paddle::funcs
