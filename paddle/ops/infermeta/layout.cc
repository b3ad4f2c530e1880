#include "paddle/ops/infermeta/layout.h"

#include <sstream>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

template <typename T>
std::string ListString(const std::vector<T>& values) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << values[i];
  os << "]";
  return os.str();
}

void CheckRank(const TensorMeta& t, int rank, const char* op, const char* arg) {
  PD_CHECK(t.dims.size() == rank,
           errors::InvalidArgument(op, ": argument '", arg, "' must be a ", rank,
                                   "-D tensor, received shape ", t.dims.ToString()));
}

// `dim` * `factor` (factor >= 0), unknown when `dim` is; a size past int64 is a MemoryError.
int64_t ScaledDim(int64_t dim, int64_t factor, const char* op) {
  if (factor == 0) return 0;
  if (IsUnknown(dim)) return kUnknownDim;
  int64_t product;
  PD_CHECK(!__builtin_mul_overflow(dim, factor, &product),
           errors::ResourceExhausted(op, ": an output dimension of ", dim, " * ", factor,
                                     " elements does not fit in 64 bits"));
  return product;
}

// ---------------------------------------------------------------- pad3d

// The axes of D, H and W in a 5-D tensor of `data_format`.
struct SpatialAxes {
  int axis[3];
};

// The (before, after) paddings of spatial axis s (0: D, 1: H, 2: W) in pad3d's
// [left, right, top, bottom, front, back].
std::pair<int32_t, int32_t> SpatialPadding(const std::vector<int32_t>& paddings, int s) {
  int pair = 2 - s;
  return {paddings[2 * pair], paddings[2 * pair + 1]};
}

SpatialAxes CheckPad3dArgs(const TensorMeta& t, const char* arg,
                           const std::vector<int32_t>& paddings, const std::string& mode,
                           const std::string& data_format, const char* op) {
  PD_CHECK(t.dims.size() == 5,
           errors::InvalidArgument(op, ": argument '", arg,
                                   "' must be a 5-D tensor (F.pad gives 3-D and 4-D inputs two or "
                                   "one unit dims), received shape ",
                                   t.dims.ToString()));
  PD_CHECK(paddings.size() == 6,
           errors::InvalidArgument(op,
                                   ": argument 'paddings' must hold 6 values [left, right, "
                                   "top, bottom, front, back], received ",
                                   ListString(paddings)));
  for (int32_t p : paddings) {
    PD_CHECK(p >= 0, errors::InvalidArgument(op,
                                             ": argument 'paddings' must be non-negative, "
                                             "received ",
                                             ListString(paddings)));
  }
  PD_CHECK(mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular",
           errors::InvalidArgument(op,
                                   ": argument 'mode' must be 'constant', 'reflect', 'replicate' "
                                   "or 'circular', received '",
                                   mode, "'"));
  PD_CHECK(
      data_format == "NCDHW" || data_format == "NDHWC",
      errors::InvalidArgument(op, ": argument 'data_format' must be 'NCDHW' or 'NDHWC', received '",
                              data_format, "'"));
  return data_format == "NCDHW" ? SpatialAxes{{2, 3, 4}} : SpatialAxes{{1, 2, 3}};
}

// Whether `mode` can fill (before, after) around a dimension of `size` (unknown: checked when
// the program runs): reflect mirrors about the edge element, so it needs more elements than it
// pads; replicate and circular need one to copy.
void CheckPaddingFits(int64_t size, std::pair<int32_t, int32_t> padding, const std::string& mode,
                      int spatial, const char* op) {
  if (IsUnknown(size)) return;
  static const char* const kNames[] = {"D", "H", "W"};
  auto [before, after] = padding;
  if (mode == "reflect") {
    PD_CHECK((before == 0 || before < size) && (after == 0 || after < size),
             errors::InvalidArgument(op,
                                     ": in 'reflect' mode each padding must be less than the size "
                                     "of the dimension it pads, but dimension ",
                                     kNames[spatial], " of size ", size, " gets paddings (", before,
                                     ", ", after, ")"));
  } else if (mode == "replicate" || mode == "circular") {
    PD_CHECK(size > 0 || (before == 0 && after == 0),
             errors::InvalidArgument(op, ": in '", mode,
                                     "' mode an empty dimension cannot be "
                                     "padded, but dimension ",
                                     kNames[spatial],
                                     " of size 0 gets "
                                     "paddings (",
                                     before, ", ", after, ")"));
  }
}

// ---------------------------------------------------------------- unfold and fold

struct BlockArgs {
  int64_t kernel[2], stride[2], dilation[2];
  int64_t pad_begin[2], pad_end[2];  // [top, left], [bottom, right]
};

BlockArgs CheckBlockArgs(const std::vector<int32_t>& kernel_sizes,
                         const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                         const std::vector<int32_t>& dilations, const char* op) {
  auto check_pair = [op](const std::vector<int32_t>& v, const char* arg) {
    PD_CHECK(v.size() == 2 && v[0] > 0 && v[1] > 0,
             errors::InvalidArgument(op, ": argument '", arg,
                                     "' must hold 2 positive values, received ", ListString(v)));
  };
  check_pair(kernel_sizes, "kernel_sizes");
  check_pair(strides, "strides");
  check_pair(dilations, "dilations");
  PD_CHECK(paddings.size() == 4 && paddings[0] >= 0 && paddings[1] >= 0 && paddings[2] >= 0 &&
               paddings[3] >= 0,
           errors::InvalidArgument(op,
                                   ": argument 'paddings' must hold 4 non-negative values [top, "
                                   "left, bottom, right], received ",
                                   ListString(paddings)));
  BlockArgs b;
  for (int i = 0; i < 2; ++i) {
    b.kernel[i] = kernel_sizes[i];
    b.stride[i] = strides[i];
    b.dilation[i] = dilations[i];
    b.pad_begin[i] = paddings[i];
    b.pad_end[i] = paddings[i + 2];
  }
  return b;
}

// The number of blocks along spatial axis i of an image of `size` (unknown stays unknown); the
// kernel must fit the padded size.
int64_t BlockCount(const BlockArgs& b, int i, int64_t size, const char* op, const char* arg) {
  if (IsUnknown(size)) return kUnknownDim;
  int64_t span = b.dilation[i] * (b.kernel[i] - 1) + 1;
  int64_t padded = size + b.pad_begin[i] + b.pad_end[i];
  PD_CHECK(padded >= span,
           errors::InvalidArgument(op, ": the dilated kernel (", span, " elements along ",
                                   i == 0 ? "H" : "W", ") does not fit the padded ", arg, " (",
                                   padded, " = ", size, " + paddings ", b.pad_begin[i], " + ",
                                   b.pad_end[i], ")"));
  return (padded - span) / b.stride[i] + 1;
}

}  // namespace

void PadInferMeta(const TensorMeta& x, const std::vector<int32_t>& paddings, float pad_value,
                  TensorMeta* out) {
  const int rank = x.dims.size();
  PD_CHECK(paddings.size() == static_cast<size_t>(2 * rank),
           errors::InvalidArgument("pad: argument 'paddings' must hold 2 values per dimension of "
                                   "'x' (",
                                   2 * rank, " for shape ", x.dims.ToString(), "), received ",
                                   ListString(paddings)));
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    PD_CHECK(paddings[2 * i] >= 0 && paddings[2 * i + 1] >= 0,
             errors::InvalidArgument("pad: argument 'paddings' must be non-negative, received ",
                                     ListString(paddings)));
    dims[i] = AddDims(x.dims[i], int64_t{paddings[2 * i]} + paddings[2 * i + 1]);
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void Pad3dInferMeta(const TensorMeta& x, const std::vector<int32_t>& paddings,
                    const std::string& mode, float pad_value, const std::string& data_format,
                    TensorMeta* out) {
  SpatialAxes axes = CheckPad3dArgs(x, "x", paddings, mode, data_format, "pad3d");
  DDim dims = x.dims;
  for (int s = 0; s < 3; ++s) {
    int a = axes.axis[s];
    std::pair<int32_t, int32_t> padding = SpatialPadding(paddings, s);
    CheckPaddingFits(x.dims[a], padding, mode, s, "pad3d");
    dims[a] = AddDims(x.dims[a], int64_t{padding.first} + padding.second);
  }
  out->dims = dims;
  out->dtype = x.dtype;
}

void Pad3dGradInferMeta(const TensorMeta& out_grad, const std::vector<int32_t>& paddings,
                        const std::string& mode, const std::string& data_format,
                        TensorMeta* x_grad) {
  SpatialAxes axes =
      CheckPad3dArgs(out_grad, "out_grad", paddings, mode, data_format, "pad3d_grad");
  DDim dims = out_grad.dims;
  for (int s = 0; s < 3; ++s) {
    int a = axes.axis[s];
    std::pair<int32_t, int32_t> padding = SpatialPadding(paddings, s);
    if (!IsUnknown(dims[a])) {
      dims[a] -= int64_t{padding.first} + padding.second;
      PD_CHECK(dims[a] >= 0,
               errors::InvalidArgument("pad3d_grad: argument 'out_grad' of shape ",
                                       out_grad.dims.ToString(), " is smaller than the paddings ",
                                       ListString(paddings)));
    }
    CheckPaddingFits(dims[a], padding, mode, s, "pad3d_grad");
  }
  x_grad->dims = dims;
  x_grad->dtype = out_grad.dtype;
}

void FlipInferMeta(const TensorMeta& x, const std::vector<int32_t>& axis, TensorMeta* out) {
  const int rank = x.dims.size();
  std::vector<bool> seen(rank, false);
  for (int32_t a : axis) {
    int d = AxisOfDim(a, rank, "flip");
    PD_CHECK(!seen[d], errors::InvalidArgument("flip: argument 'axis' names dimension ", d,
                                               " twice: ", ListString(axis)));
    seen[d] = true;
  }
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void RollInferMeta(const TensorMeta& x, const std::vector<int64_t>& shifts,
                   const std::vector<int64_t>& axis, TensorMeta* out) {
  if (axis.empty()) {
    PD_CHECK(shifts.size() == 1,
             errors::InvalidArgument("roll: without 'axis' the tensor rolls as a flat sequence "
                                     "and 'shifts' must hold one value, received ",
                                     ListString(shifts)));
  } else {
    PD_CHECK(shifts.size() == axis.size(),
             errors::InvalidArgument("roll: arguments 'shifts' and 'axis' must have the same "
                                     "length, received ",
                                     ListString(shifts), " and ", ListString(axis)));
    for (int64_t a : axis) AxisOfDim(a, x.dims.size(), "roll");
  }
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void TileInferMeta(const TensorMeta& x, const std::vector<int32_t>& repeat_times, TensorMeta* out) {
  for (int32_t r : repeat_times) {
    PD_CHECK(r >= 0, errors::InvalidArgument("tile: argument 'repeat_times' must be "
                                             "non-negative, received ",
                                             ListString(repeat_times)));
  }
  const int x_rank = x.dims.size();
  const int rank = std::max<int>(x_rank, static_cast<int>(repeat_times.size()));
  PD_CHECK(rank <= DDim::kMaxRank,
           errors::InvalidArgument("tile: the result may have at most ", DDim::kMaxRank,
                                   " dimensions, but argument 'repeat_times' ",
                                   ListString(repeat_times), " has ", repeat_times.size()));
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    int xi = i - (rank - x_rank), ri = i - (rank - static_cast<int>(repeat_times.size()));
    int64_t d = xi >= 0 ? x.dims[xi] : 1;
    int64_t r = ri >= 0 ? repeat_times[ri] : 1;
    dims[i] = ScaledDim(d, r, "tile");
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void ExpandAsInferMeta(const TensorMeta& x, const TensorMeta* y,
                       const std::vector<int32_t>& target_shape, TensorMeta* out) {
  PD_CHECK(y || !target_shape.empty(),
           errors::InvalidArgument("expand_as: needs argument 'y' or a 'target_shape'"));
  std::vector<int64_t> target;
  if (target_shape.empty()) {
    target = y->dims.ToVector();
  } else {
    target.assign(target_shape.begin(), target_shape.end());
    bool y_matches = y && y->dims.size() == static_cast<int>(target.size());
    for (size_t i = 0; i < target.size(); ++i) {
      // A static program records y's unknown dims as -1; y's meta knows them when it runs.
      if (target[i] == -1 && y_matches) target[i] = y->dims[i];
      PD_CHECK(target[i] >= -1,
               errors::InvalidArgument("expand_as: argument 'target_shape' must hold sizes (or -1 "
                                       "for unknown), received ",
                                       ListString(target_shape)));
    }
  }
  const int rank = static_cast<int>(target.size());
  const int x_rank = x.dims.size();
  PD_CHECK(rank >= x_rank, errors::InvalidArgument("expand_as: 'x' of shape ", x.dims.ToString(),
                                                   " has more dimensions than the target shape ",
                                                   DDim(target).ToString()));
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    int64_t in = i >= rank - x_rank ? x.dims[i - (rank - x_rank)] : 1;
    int64_t want = target[i];
    PD_CHECK(in == want || in == 1 || IsUnknown(in) || IsUnknown(want),
             errors::InvalidArgument("expand_as: cannot expand 'x' of shape ", x.dims.ToString(),
                                     " to ", DDim(target).ToString(), ": dimension ", i, " is ", in,
                                     ", expected 1 or ", want));
    dims[i] = IsUnknown(want) && !IsUnknown(in) && in != 1 ? in : want;
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void PixelUnshuffleInferMeta(const TensorMeta& x, int32_t downscale_factor,
                             const std::string& data_format, TensorMeta* out) {
  CheckRank(x, 4, "pixel_unshuffle", "x");
  PD_CHECK(downscale_factor > 0,
           errors::InvalidArgument("pixel_unshuffle: argument 'downscale_factor' must be "
                                   "positive, received ",
                                   downscale_factor));
  PD_CHECK(data_format == "NCHW" || data_format == "NHWC",
           errors::InvalidArgument("pixel_unshuffle: argument 'data_format' must be 'NCHW' or "
                                   "'NHWC', received '",
                                   data_format, "'"));
  const bool nchw = data_format == "NCHW";
  const int channel = nchw ? 1 : 3;
  std::vector<int64_t> dims = x.dims.ToVector();
  for (int a : {nchw ? 2 : 1, nchw ? 3 : 2}) {
    PD_CHECK(
        IsUnknown(dims[a]) || dims[a] % downscale_factor == 0,
        errors::InvalidArgument("pixel_unshuffle: the height and width of argument 'x' "
                                "(shape ",
                                x.dims.ToString(),
                                ") must be divisible by downscale_factor = ", downscale_factor));
    dims[a] = IsUnknown(dims[a]) ? kUnknownDim : dims[a] / downscale_factor;
  }
  dims[channel] =
      ScaledDim(dims[channel], int64_t{downscale_factor} * downscale_factor, "pixel_unshuffle");
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void ChannelShuffleInferMeta(const TensorMeta& x, int32_t groups, const std::string& data_format,
                             TensorMeta* out) {
  CheckRank(x, 4, "channel_shuffle", "x");
  PD_CHECK(groups > 0,
           errors::InvalidArgument("channel_shuffle: argument 'groups' must be positive, received ",
                                   groups));
  PD_CHECK(data_format == "NCHW" || data_format == "NHWC",
           errors::InvalidArgument("channel_shuffle: argument 'data_format' must be 'NCHW' or "
                                   "'NHWC', received '",
                                   data_format, "'"));
  int64_t channels = x.dims[data_format == "NCHW" ? 1 : 3];
  PD_CHECK(IsUnknown(channels) || channels % groups == 0,
           errors::InvalidArgument("channel_shuffle: the channels of argument 'x' (", channels,
                                   ", shape ", x.dims.ToString(),
                                   ") must be divisible by groups = ", groups));
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void UnfoldInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_sizes,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::vector<int32_t>& dilations, TensorMeta* out) {
  CheckRank(x, 4, "unfold", "x");
  BlockArgs b = CheckBlockArgs(kernel_sizes, strides, paddings, dilations, "unfold");
  int64_t blocks_h = BlockCount(b, 0, x.dims[2], "unfold", "input");
  int64_t blocks_w = BlockCount(b, 1, x.dims[3], "unfold", "input");
  int64_t blocks = IsUnknown(blocks_h) || IsUnknown(blocks_w) ? kUnknownDim : blocks_h * blocks_w;
  out->dims = DDim({x.dims[0], ScaledDim(x.dims[1], b.kernel[0] * b.kernel[1], "unfold"), blocks});
  out->dtype = x.dtype;
}

void FoldInferMeta(const TensorMeta& x, const std::vector<int32_t>& output_sizes,
                   const std::vector<int32_t>& kernel_sizes, const std::vector<int32_t>& strides,
                   const std::vector<int32_t>& paddings, const std::vector<int32_t>& dilations,
                   TensorMeta* out) {
  CheckRank(x, 3, "fold", "x");
  PD_CHECK(output_sizes.size() == 2 && output_sizes[0] > 0 && output_sizes[1] > 0,
           errors::InvalidArgument("fold: argument 'output_sizes' must hold 2 positive values, "
                                   "received ",
                                   ListString(output_sizes)));
  BlockArgs b = CheckBlockArgs(kernel_sizes, strides, paddings, dilations, "fold");
  int64_t blocks = BlockCount(b, 0, output_sizes[0], "fold", "output") *
                   BlockCount(b, 1, output_sizes[1], "fold", "output");
  const int64_t kernel_area = b.kernel[0] * b.kernel[1];
  const int64_t columns = x.dims[1];
  PD_CHECK(IsUnknown(columns) || columns % kernel_area == 0,
           errors::InvalidArgument(
               "fold: dimension 1 of argument 'x' (shape ", x.dims.ToString(),
               ") must be divisible by kernel_sizes[0] * kernel_sizes[1] = ", kernel_area));
  PD_CHECK(DimsAgree(x.dims[2], blocks),
           errors::InvalidArgument("fold: dimension 2 of argument 'x' (shape ", x.dims.ToString(),
                                   ") must be the number of blocks, ", blocks,
                                   ", that the kernel takes from an output of ",
                                   ListString(output_sizes)));
  out->dims = DDim({x.dims[0], IsUnknown(columns) ? kUnknownDim : columns / kernel_area,
                    int64_t{output_sizes[0]}, int64_t{output_sizes[1]}});
  out->dtype = x.dtype;
}

}  // namespace paddle
