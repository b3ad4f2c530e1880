#include "paddle/kernels/funcs/conv_geometry.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/spatial_attrs.h"

namespace paddle::funcs {

namespace {

bool Unknown(int64_t dim) { return dim < 0; }

bool ChannelsLast(const char* op, const std::string& data_format, int spatial_rank) {
  static const char* const kFirst[] = {"NCL", "NCHW", "NCDHW"};
  static const char* const kLast[] = {"NLC", "NHWC", "NDHWC"};
  const int i = spatial_rank - 1;
  // Paddle's conv1d passes its 1-D formats through to the 2-D ops, which accept NCHW/NHWC too;
  // older Paddle programs write "AnyLayout", which its kernels read as channels first.
  if (data_format == kFirst[i] || data_format == "NCHW" || data_format == "AnyLayout") {
    return false;
  }
  if (data_format == kLast[i] || data_format == "NHWC") return true;
  PD_THROW(errors::InvalidArgument(op, ": 'data_format' must be '", kFirst[i], "' or '", kLast[i],
                                   "', received '", data_format, "'"));
}

// Splits data dims, channels and batch out of an input of the expected rank.
void ReadInput(const char* op, const char* name, const DDim& dims, int spatial_rank,
               ConvGeometry* g, int64_t* channels) {
  PD_CHECK(dims.size() == spatial_rank + 2,
           errors::InvalidArgument(op, ": argument '", name, "' must be a ", spatial_rank + 2,
                                   "-D tensor, received shape ", dims.ToString()));
  g->batch = dims[0];
  *channels = g->channels_last ? dims[dims.size() - 1] : dims[1];
  g->input.clear();
  for (int i = 0; i < spatial_rank; ++i) g->input.push_back(dims[(g->channels_last ? 1 : 2) + i]);
}

void ReadFilter(const char* op, const DDim& filter, int spatial_rank, ConvGeometry* g) {
  PD_CHECK(filter.size() == spatial_rank + 2,
           errors::InvalidArgument(op, ": argument 'filter' must be a ", spatial_rank + 2,
                                   "-D tensor, received shape ", filter.ToString()));
  g->filter.clear();
  for (int i = 0; i < spatial_rank; ++i) {
    const int64_t k = filter[2 + i];
    PD_CHECK(k > 0 || Unknown(k), errors::InvalidArgument(op,
                                                          ": the kernel size of 'filter' "
                                                          "must be positive in every spatial "
                                                          "dim, received shape ",
                                                          filter.ToString()));
    g->filter.push_back(k);
  }
}

// Fills the pads (and resets dilations for "SAME") from `paddings` and the padding algorithm;
// `sizes` are the spatial sizes the padding applies to.
void ResolvePadding(const char* op, const ConvAttrs& attrs, const std::vector<int64_t>& sizes,
                    ConvGeometry* g) {
  const int rank = static_cast<int>(sizes.size());
  const std::string& algorithm = attrs.padding_algorithm;
  PD_CHECK(algorithm == "EXPLICIT" || algorithm == "SAME" || algorithm == "VALID",
           errors::InvalidArgument(op,
                                   ": 'padding_algorithm' must be 'EXPLICIT', 'SAME' or "
                                   "'VALID', received '",
                                   algorithm, "'"));
  g->pad_before.assign(rank, 0);
  g->pad_after.assign(rank, 0);
  if (algorithm == "VALID") return;
  if (algorithm == "SAME") {
    for (int i = 0; i < rank; ++i) {
      g->dilations[i] = 1;
      if (Unknown(sizes[i])) continue;
      const int64_t out = (sizes[i] + g->strides[i] - 1) / g->strides[i];
      const int64_t total =
          std::max<int64_t>((out - 1) * g->strides[i] + g->filter[i] - sizes[i], 0);
      g->pad_before[i] = total / 2;
      g->pad_after[i] = total - total / 2;
    }
    return;
  }
  const std::vector<int>& p = attrs.paddings;
  PD_CHECK(static_cast<int>(p.size()) == rank || static_cast<int>(p.size()) == 2 * rank,
           errors::InvalidArgument(op, ": 'paddings' must have ", rank, " or ", 2 * rank,
                                   " values (per spatial dim, or before and after each), "
                                   "received ",
                                   JoinInts(p)));
  for (int v : p) {
    PD_CHECK(v >= 0, errors::InvalidArgument(op, ": 'paddings' must not be negative, received ",
                                             JoinInts(p)));
  }
  for (int i = 0; i < rank; ++i) {
    const bool pairs = static_cast<int>(p.size()) == 2 * rank;
    g->pad_before[i] = pairs ? p[2 * i] : p[i];
    g->pad_after[i] = pairs ? p[2 * i + 1] : p[i];
  }
}

void CheckGroups(const char* op, int groups) {
  PD_CHECK(groups > 0,
           errors::InvalidArgument(op, ": 'groups' must be positive, received ", groups));
}

// The extent of the dilated kernel of dim i.
int64_t KernelExtent(const ConvGeometry& g, int i) {
  return g.dilations[i] * (g.filter[i] - 1) + 1;
}

}  // namespace

DDim ConvGeometry::InputDims() const {
  return DataFormatDims(batch, in_channels, input, channels_last);
}

DDim ConvGeometry::OutputDims() const {
  return DataFormatDims(batch, out_channels, output, channels_last);
}

DDim ConvGeometry::FilterDims() const {
  std::vector<int64_t> d{out_channels, Unknown(in_channels) ? -1 : in_channels / groups};
  d.insert(d.end(), filter.begin(), filter.end());
  return DDim(d);
}

bool ConvGeometry::Known() const {
  auto known = [](const std::vector<int64_t>& v) {
    return std::none_of(v.begin(), v.end(), Unknown);
  };
  return !Unknown(batch) && !Unknown(in_channels) && !Unknown(out_channels) && known(input) &&
         known(output) && known(filter);
}

ConvGeometry ConvolutionGeometry(const char* op, const DDim& input, const DDim& filter,
                                 int spatial_rank, const ConvAttrs& attrs) {
  ConvGeometry g;
  g.channels_last = ChannelsLast(op, attrs.data_format, spatial_rank);
  ReadInput(op, "input", input, spatial_rank, &g, &g.in_channels);
  ReadFilter(op, filter, spatial_rank, &g);
  CheckGroups(op, attrs.groups);
  g.groups = attrs.groups;
  g.out_channels = filter[0];
  PD_CHECK(Unknown(g.out_channels) || g.out_channels % g.groups == 0,
           errors::InvalidArgument(op, ": the output channels (filter dim 0 = ", g.out_channels,
                                   ") must be divisible by 'groups' = ", g.groups));
  PD_CHECK(Unknown(g.in_channels) || Unknown(filter[1]) || g.in_channels == filter[1] * g.groups,
           errors::InvalidArgument(op, ": the channels of 'input' (", g.in_channels, ", shape ",
                                   input.ToString(), ") must equal the filter's dim 1 (", filter[1],
                                   ") times 'groups' (", g.groups, ")"));
  g.strides = PositivePerDim(op, "strides", attrs.strides, spatial_rank);
  g.dilations = PositivePerDim(op, "dilations", attrs.dilations, spatial_rank);
  ResolvePadding(op, attrs, g.input, &g);
  for (int i = 0; i < spatial_rank; ++i) {
    if (Unknown(g.input[i]) || Unknown(g.filter[i])) {
      g.output.push_back(-1);
      continue;
    }
    const int64_t span = g.input[i] + g.pad_before[i] + g.pad_after[i] - KernelExtent(g, i);
    PD_CHECK(span >= 0,
             errors::InvalidArgument(op, ": the padded input (size ", g.input[i], " + padding ",
                                     g.pad_before[i] + g.pad_after[i], " in spatial dim ", i,
                                     ") is smaller than the dilated kernel (", KernelExtent(g, i),
                                     "); 'input' has shape ", input.ToString()));
    g.output.push_back(span / g.strides[i] + 1);
  }
  return g;
}

ConvGeometry TransposedConvolutionGeometry(const char* op, const DDim& x, const DDim& filter,
                                           int spatial_rank, const ConvAttrs& attrs,
                                           const std::vector<int>& output_padding,
                                           const std::vector<int>& output_size) {
  ConvGeometry g;
  g.channels_last = ChannelsLast(op, attrs.data_format, spatial_rank);
  // x plays the convolution's output.
  std::vector<int64_t> x_sizes;
  {
    ConvGeometry read;
    read.channels_last = g.channels_last;
    ReadInput(op, "x", x, spatial_rank, &read, &g.out_channels);
    g.batch = read.batch;
    x_sizes = read.input;
  }
  ReadFilter(op, filter, spatial_rank, &g);
  CheckGroups(op, attrs.groups);
  g.groups = attrs.groups;
  PD_CHECK(
      Unknown(g.out_channels) || Unknown(filter[0]) || g.out_channels == filter[0],
      errors::InvalidArgument(op, ": the channels of 'x' (", g.out_channels, ", shape ",
                              x.ToString(), ") must equal the filter's dim 0 (", filter[0], ")"));
  PD_CHECK(Unknown(filter[0]) || filter[0] % g.groups == 0,
           errors::InvalidArgument(op, ": the filter's dim 0 (", filter[0],
                                   ") must be divisible by 'groups' = ", g.groups));
  g.out_channels = Unknown(g.out_channels) ? filter[0] : g.out_channels;
  g.in_channels = Unknown(filter[1]) ? -1 : filter[1] * g.groups;
  g.strides = PositivePerDim(op, "strides", attrs.strides, spatial_rank);
  g.dilations = PositivePerDim(op, "dilations", attrs.dilations, spatial_rank);
  ResolvePadding(op, attrs, x_sizes, &g);
  PD_CHECK(output_padding.empty() || static_cast<int>(output_padding.size()) == spatial_rank,
           errors::InvalidArgument(op, ": 'output_padding' must be empty or have ", spatial_rank,
                                   " values, received ", JoinInts(output_padding)));
  PD_CHECK(output_size.empty() || static_cast<int>(output_size.size()) == spatial_rank,
           errors::InvalidArgument(op, ": 'output_size' must be empty or have ", spatial_rank,
                                   " values, received ", JoinInts(output_size)));
  g.output = x_sizes;
  for (int i = 0; i < spatial_rank; ++i) {
    if (Unknown(x_sizes[i]) || Unknown(g.filter[i])) {
      g.input.push_back(output_size.empty() ? -1 : output_size[i]);
      continue;
    }
    const int64_t natural =
        (x_sizes[i] - 1) * g.strides[i] - g.pad_before[i] - g.pad_after[i] + KernelExtent(g, i);
    int64_t size = natural;
    if (!output_size.empty()) {
      size = output_size[i];
      PD_CHECK(size >= natural && size < natural + g.strides[i],
               errors::InvalidArgument(op, ": 'output_size' ", JoinInts(output_size),
                                       " is impossible: spatial dim ", i, " must lie in [", natural,
                                       ", ", natural + g.strides[i], ") for 'x' of shape ",
                                       x.ToString()));
    } else if (!output_padding.empty()) {
      const int64_t extra = output_padding[i];
      PD_CHECK(extra >= 0 && (extra < g.strides[i] || extra < g.dilations[i]),
               errors::InvalidArgument(op, ": 'output_padding' ", JoinInts(output_padding),
                                       " must be non-negative and smaller than the stride or "
                                       "the dilation in each spatial dim"));
      size = natural + extra;
    }
    PD_CHECK(size > 0, errors::InvalidArgument(op, ": the output would have size ", size,
                                               " in spatial dim ", i, " for 'x' of shape ",
                                               x.ToString(), "; it must be positive"));
    g.input.push_back(size);
  }
  return g;
}

}  // namespace paddle::funcs
