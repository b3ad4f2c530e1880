#include "paddle/ops/infermeta/signal.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckNormalization(const std::string& normalization, const char* op) {
  PD_CHECK(normalization == "backward" || normalization == "forward" || normalization == "ortho",
           errors::InvalidArgument(op,
                                   ": 'normalization' must be 'backward', 'forward' or "
                                   "'ortho', received '",
                                   normalization, "'"));
}

void CheckComplexInput(const TensorMeta& x, const char* op, const char* arg) {
  PD_CHECK(IsComplex(x.dtype),
           errors::InvalidType(op, ": argument '", arg,
                               "' must be a complex64 or complex128 tensor, received ",
                               DataTypeName(x.dtype)));
}

void CheckRealInput(const TensorMeta& x, const char* op, const char* arg) {
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
           errors::InvalidType(op, ": argument '", arg,
                               "' must be a float32 or float64 tensor, received ",
                               DataTypeName(x.dtype)));
}

// The axes as dims of x: distinct, in range, at least one, and none of size 0.
std::vector<int> CheckAxes(const TensorMeta& x, const std::vector<int64_t>& axes, const char* op) {
  const int rank = x.dims.size();
  PD_CHECK(!axes.empty(), errors::InvalidArgument(op, ": 'axes' must name at least one axis"));
  std::vector<int> dims;
  for (int64_t a : axes) {
    PD_CHECK(a >= -rank && a < rank,
             errors::InvalidArgument(op, ": axis ", a, " of 'axes' is out of range for 'x' of ",
                                     "rank ", rank, " (expected [", -rank, ", ", rank, "))"));
    const int dim = static_cast<int>(a < 0 ? a + rank : a);
    PD_CHECK(std::find(dims.begin(), dims.end(), dim) == dims.end(),
             errors::InvalidArgument(op, ": 'axes' names axis ", dim, " twice"));
    dims.push_back(dim);
  }
  return dims;
}

void CheckPoints(int64_t points, int dim, const char* op) {
  PD_CHECK(IsUnknown(points) || points > 0,
           errors::InvalidArgument(op, ": the transform along axis ", dim, " has ", points,
                                   " points; it needs at least 1"));
}

}  // namespace

void FftC2CInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, TensorMeta* out) {
  CheckComplexInput(x, "fft_c2c", "x");
  CheckNormalization(normalization, "fft_c2c");
  for (int dim : CheckAxes(x, axes, "fft_c2c")) CheckPoints(x.dims[dim], dim, "fft_c2c");
  *out = x;
}

void FftR2CInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, bool onesided,
                     TensorMeta* out) {
  CheckRealInput(x, "fft_r2c", "x");
  CheckNormalization(normalization, "fft_r2c");
  const std::vector<int> dims = CheckAxes(x, axes, "fft_r2c");
  for (int dim : dims) CheckPoints(x.dims[dim], dim, "fft_r2c");
  *out = x;
  out->dtype = ToComplexType(x.dtype);
  const int last = dims.back();
  if (onesided && !IsUnknown(x.dims[last])) out->dims[last] = x.dims[last] / 2 + 1;
}

void FftC2RInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, int64_t last_dim_size,
                     TensorMeta* out) {
  CheckComplexInput(x, "fft_c2r", "x");
  CheckNormalization(normalization, "fft_c2r");
  const std::vector<int> dims = CheckAxes(x, axes, "fft_c2r");
  PD_CHECK(last_dim_size >= 0,
           errors::InvalidArgument("fft_c2r: 'last_dim_size' must be 0 (2 * (m - 1)) or "
                                   "positive, received ",
                                   last_dim_size));
  *out = x;
  out->dtype = ToRealType(x.dtype);
  const int last = dims.back();
  const int64_t m = x.dims[last];
  if (last_dim_size > 0) {
    out->dims[last] = last_dim_size;
  } else if (!IsUnknown(m)) {
    out->dims[last] = std::max<int64_t>(0, 2 * (m - 1));
  }
  for (int dim : dims) CheckPoints(out->dims[dim], dim, "fft_c2r");
}

void FftR2CGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad,
                         const std::vector<int64_t>& axes, const std::string& normalization,
                         bool forward, bool onesided, TensorMeta* x_grad) {
  TensorMeta expected;
  FftR2CInferMeta(x, axes, normalization, forward, onesided, &expected);
  PD_CHECK(out_grad.dtype == expected.dtype && ShapesAgree(out_grad.dims, expected.dims),
           errors::InvalidArgument(
               "fft_r2c_grad: 'out_grad' must be ", DataTypeName(expected.dtype), " of shape ",
               expected.dims.ToString(), ", received ", DataTypeName(out_grad.dtype), " of shape ",
               out_grad.dims.ToString()));
  *x_grad = x;
}

void FftC2RGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad,
                         const std::vector<int64_t>& axes, const std::string& normalization,
                         bool forward, int64_t last_dim_size, TensorMeta* x_grad) {
  TensorMeta expected;
  FftC2RInferMeta(x, axes, normalization, forward, last_dim_size, &expected);
  PD_CHECK(out_grad.dtype == expected.dtype && ShapesAgree(out_grad.dims, expected.dims),
           errors::InvalidArgument(
               "fft_c2r_grad: 'out_grad' must be ", DataTypeName(expected.dtype), " of shape ",
               expected.dims.ToString(), ", received ", DataTypeName(out_grad.dtype), " of shape ",
               out_grad.dims.ToString()));
  *x_grad = x;
}

namespace {

void CheckSignalAxis(int32_t axis, const char* op) {
  PD_CHECK(axis == 0 || axis == -1,
           errors::InvalidArgument(op, ": 'axis' must be 0 or -1, received ", axis));
}

void CheckHop(int32_t hop_length, const char* op) {
  PD_CHECK(hop_length > 0,
           errors::InvalidArgument(op, ": 'hop_length' must be positive, received ", hop_length));
}

}  // namespace

void FrameInferMeta(const TensorMeta& x, int32_t frame_length, int32_t hop_length, int32_t axis,
                    TensorMeta* out) {
  CheckSignalAxis(axis, "frame");
  CheckHop(hop_length, "frame");
  PD_CHECK(
      frame_length > 0,
      errors::InvalidArgument("frame: 'frame_length' must be positive, received ", frame_length));
  const int rank = x.dims.size();
  PD_CHECK(rank >= 1, errors::InvalidArgument("frame: 'x' must have at least 1 dimension, "
                                              "received a 0-d tensor"));
  const int seq_axis = axis == 0 ? 0 : rank - 1;
  const int64_t seq_len = x.dims[seq_axis];
  PD_CHECK(IsUnknown(seq_len) || seq_len >= frame_length,
           errors::InvalidArgument("frame: 'frame_length' (", frame_length,
                                   ") must not exceed the sequence length of 'x' (", seq_len,
                                   ", shape ", x.dims.ToString(), ")"));
  const int64_t frames =
      IsUnknown(seq_len) ? kUnknownDim : 1 + (seq_len - frame_length) / hop_length;
  std::vector<int64_t> dims = x.dims.ToVector();
  if (axis == 0) {
    dims[0] = frame_length;
    dims.insert(dims.begin(), frames);
  } else {
    dims[rank - 1] = frame_length;
    dims.push_back(frames);
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
  out->layout = x.layout;
}

void OverlapAddInferMeta(const TensorMeta& x, int32_t hop_length, int32_t axis, TensorMeta* out) {
  CheckSignalAxis(axis, "overlap_add");
  CheckHop(hop_length, "overlap_add");
  const int rank = x.dims.size();
  PD_CHECK(rank >= 2, errors::InvalidArgument("overlap_add: 'x' must have at least 2 dimensions "
                                              "(frame_length and frames), received shape ",
                                              x.dims.ToString()));
  std::vector<int64_t> dims = x.dims.ToVector();
  const int frame_axis = axis == 0 ? 1 : rank - 2;
  const int count_axis = axis == 0 ? 0 : rank - 1;
  const int64_t frame_length = dims[frame_axis];
  const int64_t frames = dims[count_axis];
  const int64_t seq_len = IsUnknown(frame_length) || IsUnknown(frames)
                              ? kUnknownDim
                              : std::max<int64_t>(0, (frames - 1) * hop_length + frame_length);
  dims.erase(dims.begin() + std::max(frame_axis, count_axis));
  dims[std::min(frame_axis, count_axis)] = seq_len;
  out->dims = DDim(dims);
  out->dtype = x.dtype;
  out->layout = x.layout;
}

}  // namespace paddle
