// CPU resampling kernels: interpolate (the five *_interp ops of paddle/ops/yaml/interpolate.yaml),
// grid_sample and affine_grid, with their gradients.
//
// interpolate is separable: each output pixel is a weighted sum over a few source indices per
// spatial axis (1 for nearest, 2 for the linear modes, 4 for bicubic). The indices and weights of
// each axis are computed once per call into a table, following Paddle's CPU kernels exactly
// (the ratio in float, a linear weight in float, the same truncations), so that every index
// matches Paddle's; the sums run in MathType<T>. The D and H tables are folded into one table of
// source rows; channel-first kernels resample each source row along W once per plane, then sum
// whole rows (see InterpolateForward).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/interpolate_geometry.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle {

namespace {

// The integer values of a size input (int32 or int64; InferMeta checked the dtype).
std::vector<int64_t> IntValuesOf(const DenseTensor& t) {
  if (t.dtype() == DataType::INT32) {
    const int32_t* v = t.data<int32_t>();
    return std::vector<int64_t>(v, v + t.numel());
  }
  const int64_t* v = t.data<int64_t>();
  return std::vector<int64_t>(v, v + t.numel());
}

std::vector<float> FloatValuesOf(const DenseTensor& t) {
  if (t.dtype() == DataType::FLOAT32) {
    const float* v = t.data<float>();
    return std::vector<float>(v, v + t.numel());
  }
  const double* v = t.data<double>();
  return std::vector<float>(v, v + t.numel());
}

// The resize one interpolate call performs. Spatial axes are D, H, W; an operand with fewer
// spatial dims has size 1 in the leading ones.
struct InterpolatePlan {
  funcs::InterpolateLayout layout;
  int64_t batch = 0, channels = 0;
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1};
  std::array<float, 3> factor{-1.0f, -1.0f, -1.0f};  // > 0 where a scale factor sets the ratio

  int64_t in_pixels() const { return in[0] * in[1] * in[2]; }
  int64_t out_pixels() const { return out[0] * out[1] * out[2]; }
  bool identity() const { return in == out; }
};

// Where the output size and the scale factors come from, first found first: size_tensor;
// otherwise the factors of scale_tensor or scale (out = floor(in * factor)) or out_d/out_h/out_w,
// then out_size replaces the size but, as in Paddle, not the factors.
InterpolatePlan PlanInterpolate(const DDim& x_dims, const DenseTensor* out_size,
                                const std::vector<const DenseTensor*>& size_tensor,
                                const DenseTensor* scale_tensor, const std::string& data_format,
                                int32_t out_d, int32_t out_h, int32_t out_w,
                                const std::vector<float>& scale, const std::string& interp_method,
                                int32_t align_mode, const char* op) {
  InterpolatePlan plan;
  plan.layout =
      funcs::CheckInterpolateArgs(x_dims, data_format, interp_method, align_mode, op, "x");
  const int spatial = plan.layout.spatial;
  plan.batch = x_dims[0];
  plan.channels = x_dims[plan.layout.channel_last ? x_dims.size() - 1 : 1];
  const std::vector<int64_t> in = funcs::SpatialDims(x_dims, plan.layout);
  std::vector<int64_t> out;
  std::vector<float> factors;
  if (!size_tensor.empty()) {
    PD_CHECK(static_cast<int>(size_tensor.size()) == spatial,
             errors::InvalidArgument(op, ": argument 'size_tensor' must hold ", spatial,
                                     " tensors, received ", size_tensor.size()));
    for (const DenseTensor* t : size_tensor) {
      std::vector<int64_t> v = IntValuesOf(*t);
      PD_CHECK(v.size() == 1, errors::InvalidArgument(op,
                                                      ": each tensor of argument "
                                                      "'size_tensor' must hold one value, "
                                                      "received shape ",
                                                      t->dims().ToString()));
      out.push_back(v[0]);
    }
  } else {
    if (scale_tensor != nullptr) {
      std::vector<float> v = FloatValuesOf(*scale_tensor);
      PD_CHECK(v.size() == 1 || static_cast<int>(v.size()) == spatial,
               errors::InvalidArgument(op, ": argument 'scale_tensor' must hold 1 or ", spatial,
                                       " factors, received ", v.size()));
      factors = funcs::ScaleFactors(v, spatial, op);
    } else {
      factors = funcs::ScaleFactors(scale, spatial, op);
    }
    if (factors.empty()) {
      out = funcs::SizeAttrs(spatial, out_d, out_h, out_w);
    } else {
      for (int i = 0; i < spatial; ++i) out.push_back(funcs::ScaledSize(in[i], factors[i]));
    }
    if (out_size != nullptr) {
      out = IntValuesOf(*out_size);
      PD_CHECK(static_cast<int>(out.size()) == spatial,
               errors::InvalidArgument(op, ": argument 'out_size' must hold ", spatial,
                                       " values, received ", out.size()));
    }
  }
  for (int i = 0; i < spatial; ++i) {
    PD_CHECK(in[i] > 0, errors::InvalidArgument(op,
                                                ": the spatial dims of argument 'x' must be "
                                                "positive, received shape ",
                                                x_dims.ToString()));
    PD_CHECK(out[i] > 0, errors::InvalidArgument(op,
                                                 ": the output size must be positive in "
                                                 "every spatial dim, received ",
                                                 DDim(out).ToString()));
    plan.in[3 - spatial + i] = in[i];
    plan.out[3 - spatial + i] = out[i];
    if (!factors.empty()) plan.factor[3 - spatial + i] = factors[i];
  }
  return plan;
}

// Source position -> source index per Paddle's truncation, kept inside [0, in) (Paddle can read
// past the end when out_size overrides a scale factor; here the edge pixel is read instead).
int64_t TruncatedIndex(double position, int64_t in) {
  if (!(position > 0.0)) return 0;
  if (position >= static_cast<double>(in - 1)) return in - 1;
  return static_cast<int64_t>(position);
}

// The source indices and weights of each output index along one axis: `taps` per index.
template <typename MT>
struct AxisTaps {
  int taps = 1;
  std::vector<int64_t> index;
  std::vector<MT> weight;
};

// Paddle's ratio of source to output positions along an axis.
float AxisRatio(int64_t in, int64_t out, float factor, bool align_corners) {
  if (out <= 1) return 0.0f;
  if (align_corners) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return factor > 0.0f ? static_cast<float>(1.0 / factor)
                       : static_cast<float>(in) / static_cast<float>(out);
}

// Keys' cubic convolution weights with a = -0.75 for a source position `t` past the second tap.
template <typename MT>
std::array<MT, 4> CubicWeights(MT t) {
  const MT a = MT(-0.75);
  auto near = [a](MT x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };       // |x| <= 1
  auto far = [a](MT x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };  // 1 < |x| < 2
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

template <typename MT>
AxisTaps<MT> MakeAxisTaps(const std::string& method, int64_t in, int64_t out, float factor,
                          bool align_corners, int align_mode) {
  AxisTaps<MT> axis;
  // An axis left as it is, or absent: Paddle's ratio is 1 (or 0 for a single pixel), so its
  // table is the identity. A scale factor that keeps the size (floor(5 * 1.1) = 5) still sets
  // the ratio (1 / 1.1), though.
  if (in == out && (factor <= 0.0f || out == 1)) {
    axis.index.resize(out);
    for (int64_t i = 0; i < out; ++i) axis.index[i] = i;
    axis.weight.assign(out, MT(1));
    return axis;
  }
  const float ratio = AxisRatio(in, out, factor, align_corners);
  if (method == "nearest") {
    for (int64_t l = 0; l < out; ++l) {
      const float plain = ratio * static_cast<float>(l);
      axis.index.push_back(TruncatedIndex(align_corners ? plain + 0.5 : plain, in));
    }
    axis.weight.assign(out, MT(1));
  } else if (method == "bicubic") {
    axis.taps = 4;
    for (int64_t l = 0; l < out; ++l) {
      const MT src = align_corners ? static_cast<MT>(ratio * static_cast<float>(l))
                                   : static_cast<MT>(ratio * (l + 0.5) - 0.5);
      // Clamping first keeps the cast defined; every tap past the edges reads the edge anyway.
      const MT first = std::floor(std::min(std::max(src, MT(-2)), static_cast<MT>(in + 1)));
      const std::array<MT, 4> w = CubicWeights<MT>(src - first);
      for (int j = 0; j < 4; ++j) {
        const int64_t i = static_cast<int64_t>(first) - 1 + j;
        axis.index.push_back(std::min(std::max(i, int64_t{0}), in - 1));
        axis.weight.push_back(w[j]);
      }
    }
  } else {  // linear, bilinear, trilinear
    axis.taps = 2;
    const bool half_pixel = align_mode == 0 && !align_corners;
    for (int64_t l = 0; l < out; ++l) {
      const float plain = ratio * static_cast<float>(l);
      const double centered = ratio * (l + 0.5) - 0.5;
      const int64_t i0 = TruncatedIndex(half_pixel ? centered : plain, in);
      const float lambda = (half_pixel ? std::max(static_cast<float>(centered), 0.0f) : plain) -
                           static_cast<float>(i0);
      axis.index.push_back(i0);
      axis.index.push_back(std::min(i0 + 1, in - 1));
      axis.weight.push_back(static_cast<MT>(1.0f - lambda));
      axis.weight.push_back(static_cast<MT>(lambda));
    }
  }
  return axis;
}

// The source rows of each output row: for output (d, h), the input rows id * H_in + ih and
// weights of every D tap times every H tap. `used` lists the input rows some output row reads
// and `slot` numbers them (-1: not read), for the channel-first kernels' row buffers.
template <typename MT>
struct RowTaps {
  int taps = 1;
  std::vector<int64_t> row;
  std::vector<MT> weight;
  std::vector<int64_t> slot;
  std::vector<int64_t> used;
};

template <typename MT>
RowTaps<MT> MakeRowTaps(const AxisTaps<MT>& d, const AxisTaps<MT>& h, int64_t in_d, int64_t in_h) {
  RowTaps<MT> rows;
  rows.taps = d.taps * h.taps;
  const int64_t out_d = static_cast<int64_t>(d.index.size()) / d.taps;
  const int64_t out_h = static_cast<int64_t>(h.index.size()) / h.taps;
  rows.slot.assign(in_d * in_h, -1);
  for (int64_t od = 0; od < out_d; ++od) {
    for (int64_t oh = 0; oh < out_h; ++oh) {
      for (int a = 0; a < d.taps; ++a) {
        for (int b = 0; b < h.taps; ++b) {
          const int64_t row = d.index[od * d.taps + a] * in_h + h.index[oh * h.taps + b];
          rows.row.push_back(row);
          rows.weight.push_back(d.weight[od * d.taps + a] * h.weight[oh * h.taps + b]);
          if (rows.slot[row] < 0) {
            rows.slot[row] = static_cast<int64_t>(rows.used.size());
            rows.used.push_back(row);
          }
        }
      }
    }
  }
  return rows;
}

template <typename MT>
struct InterpolateTables {
  RowTaps<MT> rows;
  AxisTaps<MT> cols;
};

template <typename MT>
InterpolateTables<MT> MakeInterpolateTables(const InterpolatePlan& p, const std::string& method,
                                            bool align_corners, int align_mode) {
  std::array<AxisTaps<MT>, 3> axes;
  for (int a = 0; a < 3; ++a) {
    axes[a] = MakeAxisTaps<MT>(method, p.in[a], p.out[a], p.factor[a], align_corners, align_mode);
  }
  return {MakeRowTaps(axes[0], axes[1], p.in[0], p.in[1]), std::move(axes[2])};
}

// Where the gradient kernel accumulates: straight into x_grad when T is its own math type, else
// into a MathType<T> buffer that Finish() converts into x_grad.
template <typename T>
class GradAccumulator {
 public:
  using MT = MathType<T>;
  GradAccumulator(T* x_grad, int64_t n) : x_grad_(x_grad), n_(n) {
    if constexpr (std::is_same_v<T, MT>) {
      std::fill(x_grad, x_grad + n, T(0));
    } else {
      buffer_.assign(n, MT(0));
    }
  }
  MT* data() {
    if constexpr (std::is_same_v<T, MT>) {
      return x_grad_;
    } else {
      return buffer_.data();
    }
  }
  void Finish() {
    if constexpr (!std::is_same_v<T, MT>) {
      for (int64_t i = 0; i < n_; ++i) x_grad_[i] = static_cast<T>(buffer_[i]);
    }
  }

 private:
  T* x_grad_;
  int64_t n_;
  std::vector<MT> buffer_;
};

// h[ow] = the sum over the taps of ow of weight * row[index]: one input row resampled along W.
template <int kTaps, typename T, typename MT>
void ResampleRow(const T* row, const int64_t* index, const MT* weight, int64_t out_w, MT* h) {
  for (int64_t ow = 0; ow < out_w; ++ow) {
    MT v = 0;
    for (int j = 0; j < kTaps; ++j) {
      v += weight[ow * kTaps + j] * static_cast<MT>(row[index[ow * kTaps + j]]);
    }
    h[ow] = v;
  }
}

template <typename T, typename MT>
void ResampleRow(int taps, const T* row, const int64_t* index, const MT* weight, int64_t out_w,
                 MT* h) {
  switch (taps) {
    case 1:
      return ResampleRow<1>(row, index, weight, out_w, h);
    case 2:
      return ResampleRow<2>(row, index, weight, out_w, h);
    default:
      return ResampleRow<4>(row, index, weight, out_w, h);
  }
}

// The transpose of ResampleRow: row[index] += weight * h[ow] over the taps of each ow.
template <int kTaps, typename MT>
void ScatterRow(const MT* h, const int64_t* index, const MT* weight, int64_t out_w, MT* row) {
  for (int64_t ow = 0; ow < out_w; ++ow) {
    for (int j = 0; j < kTaps; ++j) row[index[ow * kTaps + j]] += weight[ow * kTaps + j] * h[ow];
  }
}

template <typename MT>
void ScatterRow(int taps, const MT* h, const int64_t* index, const MT* weight, int64_t out_w,
                MT* row) {
  switch (taps) {
    case 1:
      return ScatterRow<1>(h, index, weight, out_w, row);
    case 2:
      return ScatterRow<2>(h, index, weight, out_w, row);
    default:
      return ScatterRow<4>(h, index, weight, out_w, row);
  }
}

// Channel-first: per plane, each input row some output row reads is resampled along W into a
// row buffer (a gather through the W table), then each output row is the weighted sum of its
// source rows' buffers, contiguous loops the compiler vectorises. Channel-last: each output
// pixel is the weighted sum of its source pixels' channel vectors.
template <typename T>
void InterpolateForward(const T* x, const InterpolatePlan& p,
                        const InterpolateTables<MathType<T>>& t, T* out) {
  using MT = MathType<T>;
  const int64_t in_w = p.in[2], out_w = p.out[2];
  const int64_t in_pixels = p.in_pixels(), out_rows = p.out[0] * p.out[1];
  const int rt = t.rows.taps, ct = t.cols.taps;
  const int64_t* cols = t.cols.index.data();
  const MT* col_weights = t.cols.weight.data();
  if (!p.layout.channel_last) {
    const int64_t used = static_cast<int64_t>(t.rows.used.size());
    const int64_t work = (used * ct + out_rows * rt) * out_w;
    funcs::ParallelFor(
        p.batch * p.channels,
        [&](int64_t begin, int64_t end) {
          std::vector<MT> resampled(used * out_w), acc(out_w);
          for (int64_t plane = begin; plane < end; ++plane) {
            const T* src = x + plane * in_pixels;
            for (int64_t s = 0; s < used; ++s) {
              ResampleRow(ct, src + t.rows.used[s] * in_w, cols, col_weights, out_w,
                          &resampled[s * out_w]);
            }
            T* dst = out + plane * out_rows * out_w;
            for (int64_t r = 0; r < out_rows; ++r, dst += out_w) {
              MT* sum;  // the output row itself when T is its own math type
              if constexpr (std::is_same_v<T, MT>) {
                sum = dst;
              } else {
                sum = acc.data();
              }
              for (int i = 0; i < rt; ++i) {
                const MT w = t.rows.weight[r * rt + i];
                const MT* h = &resampled[t.rows.slot[t.rows.row[r * rt + i]] * out_w];
                if (i == 0) {
                  for (int64_t ow = 0; ow < out_w; ++ow) sum[ow] = w * h[ow];
                } else {
                  for (int64_t ow = 0; ow < out_w; ++ow) sum[ow] += w * h[ow];
                }
              }
              if constexpr (!std::is_same_v<T, MT>) {
                for (int64_t ow = 0; ow < out_w; ++ow) dst[ow] = static_cast<T>(sum[ow]);
              }
            }
          }
        },
        funcs::kParallelThreshold / (work + 1) + 1);
    return;
  }
  const int64_t c = p.channels;
  funcs::ParallelFor(
      p.batch * out_rows,
      [&](int64_t begin, int64_t end) {
        std::vector<MT> acc(c);
        for (int64_t item = begin; item < end; ++item) {
          const int64_t n = item / out_rows, r = item % out_rows;
          const T* src = x + n * in_pixels * c;
          T* dst = out + item * out_w * c;
          for (int64_t ow = 0; ow < out_w; ++ow, dst += c) {
            std::fill(acc.begin(), acc.end(), MT(0));
            for (int i = 0; i < rt; ++i) {
              const int64_t row = t.rows.row[r * rt + i] * in_w;
              for (int j = 0; j < ct; ++j) {
                const MT w = t.rows.weight[r * rt + i] * col_weights[ow * ct + j];
                const T* pixel = src + (row + cols[ow * ct + j]) * c;
                for (int64_t k = 0; k < c; ++k) acc[k] += w * static_cast<MT>(pixel[k]);
              }
            }
            for (int64_t k = 0; k < c; ++k) dst[k] = static_cast<T>(acc[k]);
          }
        }
      },
      funcs::kParallelThreshold / (out_w * c * rt * ct + 1) + 1);
}

// The transpose of InterpolateForward, its passes reversed: each output gradient row goes to its
// source rows' buffers, then each buffer back along W to its input row. Threads own whole planes
// (channel-first) or channel ranges (channel-last), so no two write one element.
template <typename T>
void InterpolateBackward(const T* out_grad, const InterpolatePlan& p,
                         const InterpolateTables<MathType<T>>& t, MathType<T>* x_grad) {
  using MT = MathType<T>;
  const int64_t in_w = p.in[2], out_w = p.out[2];
  const int64_t in_pixels = p.in_pixels(), out_rows = p.out[0] * p.out[1];
  const int rt = t.rows.taps, ct = t.cols.taps;
  const int64_t* cols = t.cols.index.data();
  const MT* col_weights = t.cols.weight.data();
  if (!p.layout.channel_last) {
    const int64_t used = static_cast<int64_t>(t.rows.used.size());
    const int64_t work = (used * ct + out_rows * rt) * out_w;
    funcs::ParallelFor(
        p.batch * p.channels,
        [&](int64_t begin, int64_t end) {
          std::vector<MT> resampled(used * out_w);
          for (int64_t plane = begin; plane < end; ++plane) {
            std::fill(resampled.begin(), resampled.end(), MT(0));
            const T* g = out_grad + plane * out_rows * out_w;
            for (int64_t r = 0; r < out_rows; ++r, g += out_w) {
              for (int i = 0; i < rt; ++i) {
                const MT w = t.rows.weight[r * rt + i];
                MT* h = &resampled[t.rows.slot[t.rows.row[r * rt + i]] * out_w];
                for (int64_t ow = 0; ow < out_w; ++ow) h[ow] += w * static_cast<MT>(g[ow]);
              }
            }
            MT* dst = x_grad + plane * in_pixels;
            for (int64_t s = 0; s < used; ++s) {
              ScatterRow(ct, &resampled[s * out_w], cols, col_weights, out_w,
                         dst + t.rows.used[s] * in_w);
            }
          }
        },
        funcs::kParallelThreshold / (work + 1) + 1);
    return;
  }
  const int64_t c = p.channels;
  funcs::ParallelFor(
      c,
      [&](int64_t begin, int64_t end) {
        for (int64_t n = 0; n < p.batch; ++n) {
          MT* dst = x_grad + n * in_pixels * c;
          const T* src = out_grad + n * out_rows * out_w * c;
          for (int64_t r = 0; r < out_rows; ++r) {
            for (int64_t ow = 0; ow < out_w; ++ow, src += c) {
              for (int i = 0; i < rt; ++i) {
                const int64_t row = t.rows.row[r * rt + i] * in_w;
                for (int j = 0; j < ct; ++j) {
                  const MT w = t.rows.weight[r * rt + i] * col_weights[ow * ct + j];
                  MT* pixel = dst + (row + cols[ow * ct + j]) * c;
                  for (int64_t k = begin; k < end; ++k) pixel[k] += w * static_cast<MT>(src[k]);
                }
              }
            }
          }
        }
      },
      funcs::kParallelThreshold / (p.batch * p.out_pixels() * rt * ct + 1) + 1);
}

}  // namespace

template <typename T, typename Context>
void InterpolateKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* out_size,
                       const std::vector<const DenseTensor*>& size_tensor,
                       const DenseTensor* scale_tensor, const std::string& data_format,
                       int32_t out_d, int32_t out_h, int32_t out_w, const std::vector<float>& scale,
                       const std::string& interp_method, bool align_corners, int32_t align_mode,
                       DenseTensor* output) {
  const InterpolatePlan plan =
      PlanInterpolate(x.dims(), out_size, size_tensor, scale_tensor, data_format, out_d, out_h,
                      out_w, scale, interp_method, align_mode, "interpolate");
  const int spatial = plan.layout.spatial;
  output->Resize(funcs::WithSpatialDims(
      x.dims(), plan.layout, std::vector<int64_t>(plan.out.end() - spatial, plan.out.end())));
  T* out = ctx.template Alloc<T>(output);
  if (output->numel() == 0) return;
  if (plan.identity()) {
    std::memcpy(out, x.data<T>(), x.numel() * sizeof(T));
    return;
  }
  InterpolateForward<T>(
      x.data<T>(), plan,
      MakeInterpolateTables<MathType<T>>(plan, interp_method, align_corners, align_mode), out);
}

template <typename T, typename Context>
void InterpolateGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* out_size,
                           const std::vector<const DenseTensor*>& size_tensor,
                           const DenseTensor* scale_tensor, const DenseTensor& output_grad,
                           const std::string& data_format, int32_t out_d, int32_t out_h,
                           int32_t out_w, const std::vector<float>& scale,
                           const std::string& interp_method, bool align_corners, int32_t align_mode,
                           DenseTensor* x_grad) {
  const InterpolatePlan plan =
      PlanInterpolate(x.dims(), out_size, size_tensor, scale_tensor, data_format, out_d, out_h,
                      out_w, scale, interp_method, align_mode, "interpolate_grad");
  const int spatial = plan.layout.spatial;
  const DDim expected = funcs::WithSpatialDims(
      x.dims(), plan.layout, std::vector<int64_t>(plan.out.end() - spatial, plan.out.end()));
  PD_CHECK(
      output_grad.dims() == expected,
      errors::InvalidArgument("interpolate_grad: argument 'output_grad' must have the "
                              "output's shape ",
                              expected.ToString(), ", received ", output_grad.dims().ToString()));
  T* gx = ctx.template Alloc<T>(x_grad);
  if (x_grad->numel() == 0) return;
  if (plan.identity()) {
    std::memcpy(gx, output_grad.data<T>(), x_grad->numel() * sizeof(T));
    return;
  }
  GradAccumulator<T> acc(gx, x_grad->numel());
  InterpolateBackward<T>(
      output_grad.data<T>(), plan,
      MakeInterpolateTables<MathType<T>>(plan, interp_method, align_corners, align_mode),
      acc.data());
  acc.Finish();
}

}  // namespace paddle

// CPU grid_sample and affine_grid. grid_sample reads each grid point's source position per axis
// (Paddle's unnormalisation and padding rules), then its taps: the 2^s neighbouring pixels with
// their (bi/tri)linear weights, or the nearest pixel (rounded half away from zero); a tap outside
// the input reads 0, as does a point whose position is not finite. The taps of every point are
// computed once, then applied to every channel.
namespace paddle {

namespace {

enum class GridPadding { kZeros, kBorder, kReflection };

// The source position along an axis of `size` pixels of the grid coordinate g ([-1, 1] spans the
// corner pixels' centres with align_corners, their outer edges without), after the padding;
// *slope is d(position) / d(g), 0 where the padding clamps the position.
template <typename MT>
MT GridSourcePosition(MT g, int64_t size, bool align_corners, GridPadding padding, MT* slope) {
  const MT factor = align_corners ? static_cast<MT>(size - 1) / 2 : static_cast<MT>(size) / 2;
  const MT position = align_corners ? (g + 1) * factor : (g + 1) * factor - MT(0.5);
  *slope = factor;
  auto clamp = [&](MT p) {
    const MT clamped = std::min(std::max(p, MT(0)), static_cast<MT>(size - 1));
    if (clamped != p) *slope = 0;  // also for NaN, which stays NaN
    return clamped;
  };
  if (padding == GridPadding::kBorder) return clamp(position);
  if (padding == GridPadding::kReflection) {
    // Mirror at the edges: about the corner centres (align_corners) or the outer edges, fold the
    // distance from the low edge into one period of twice the span.
    if (align_corners && size == 1) {
      *slope = 0;
      return 0;
    }
    const MT low = align_corners ? MT(0) : MT(-0.5);
    const MT period = align_corners ? static_cast<MT>(2 * (size - 1)) : static_cast<MT>(2 * size);
    const MT distance = std::abs(position - low);
    const MT extra = distance - std::floor(distance / period) * period;
    const bool flipped = extra > period - extra;
    if ((position < low) != flipped) *slope = -*slope;
    const MT reflected = std::min(extra, period - extra) + low;
    return align_corners ? reflected : clamp(reflected);
  }
  return position;
}

// The pixels one grid point reads: flat offsets into a channel plane (-1: outside, reads 0), their
// weights, each weight's derivative along each axis (D, H, W order) and each axis's position
// slope, for the grid's gradient.
template <typename MT>
struct GridTaps {
  int count = 0;
  std::array<int64_t, 8> offset;
  std::array<MT, 8> weight;
  std::array<std::array<MT, 8>, 3> weight_slope;
  std::array<MT, 3> position_slope;
};

struct GridGeometry {
  int spatial;                  // 2 or 3
  std::array<int64_t, 3> size;  // the input's spatial dims, D H W order (first `spatial` used)
  bool nearest;
  bool align_corners;
  GridPadding padding;
};

template <typename T>
GridTaps<MathType<T>> TapsOfGridPoint(const T* coords, const GridGeometry& g) {
  using MT = MathType<T>;
  const int s = g.spatial;
  GridTaps<MT> t;
  std::array<MT, 3> position;
  bool usable = true;
  for (int a = 0; a < s; ++a) {
    // The grid lists x (W) first: axis a of D, H, W order is coordinate s - 1 - a.
    position[a] = GridSourcePosition(static_cast<MT>(coords[s - 1 - a]), g.size[a], g.align_corners,
                                     g.padding, &t.position_slope[a]);
    // Past one pixel outside every tap is outside; the bound also keeps the casts defined.
    usable = usable && position[a] >= MT(-2) && position[a] <= static_cast<MT>(g.size[a] + 1);
  }
  if (g.nearest) {
    t.count = 1;
    int64_t offset = 0;
    for (int a = 0; a < s && usable; ++a) {
      const MT nearest = std::round(position[a]);
      usable = nearest >= 0 && nearest <= static_cast<MT>(g.size[a] - 1);
      offset = offset * g.size[a] + static_cast<int64_t>(nearest);
    }
    t.offset[0] = usable ? offset : -1;
    t.weight[0] = 1;
    for (int a = 0; a < s; ++a) t.weight_slope[a][0] = 0;
    return t;
  }
  t.count = 1 << s;
  std::array<int64_t, 3> low{};
  std::array<MT, 3> frac{};
  for (int a = 0; a < s && usable; ++a) {
    const MT floor = std::floor(position[a]);
    low[a] = static_cast<int64_t>(floor);
    frac[a] = position[a] - floor;
  }
  for (int k = 0; k < t.count; ++k) {
    std::array<MT, 3> w;
    int64_t offset = 0;
    bool inside = usable;
    for (int a = 0; a < s; ++a) {
      const int bit = (k >> (s - 1 - a)) & 1;
      const int64_t index = low[a] + bit;
      inside = inside && index >= 0 && index < g.size[a];
      w[a] = bit ? frac[a] : 1 - frac[a];
      offset = offset * g.size[a] + index;
    }
    t.offset[k] = inside ? offset : -1;
    t.weight[k] = w[0] * w[1] * (s == 3 ? w[2] : MT(1));
    for (int a = 0; a < s; ++a) {
      MT slope = ((k >> (s - 1 - a)) & 1) ? MT(1) : MT(-1);
      for (int b = 0; b < s; ++b) {
        if (b != a) slope *= w[b];
      }
      t.weight_slope[a][k] = slope;
    }
  }
  return t;
}

GridGeometry GridGeometryOf(const DDim& x_dims, const std::string& mode,
                            const std::string& padding_mode, bool align_corners) {
  GridGeometry g;
  g.spatial = x_dims.size() - 2;
  for (int a = 0; a < g.spatial; ++a) g.size[a] = x_dims[2 + a];
  g.nearest = mode == "nearest";
  g.align_corners = align_corners;
  g.padding = padding_mode == "border"       ? GridPadding::kBorder
              : padding_mode == "reflection" ? GridPadding::kReflection
                                             : GridPadding::kZeros;
  return g;
}

// The taps of every grid point, [N * points * taps] offsets and weights.
template <typename T>
struct GridTapTable {
  int taps;
  std::vector<int64_t> offset;
  std::vector<MathType<T>> weight;
};

template <typename T>
GridTapTable<T> MakeGridTapTable(const T* grid, int64_t points, const GridGeometry& g) {
  GridTapTable<T> table;
  table.taps = g.nearest ? 1 : 1 << g.spatial;
  table.offset.resize(points * table.taps);
  table.weight.resize(points * table.taps);
  funcs::ParallelFor(
      points,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          GridTaps<MathType<T>> t = TapsOfGridPoint(grid + i * g.spatial, g);
          for (int k = 0; k < table.taps; ++k) {
            table.offset[i * table.taps + k] = t.offset[k];
            table.weight[i * table.taps + k] = t.weight[k];
          }
        }
      },
      funcs::kParallelThreshold / 64 + 1);
  return table;
}

}  // namespace

template <typename T, typename Context>
void GridSampleKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& grid,
                      const std::string& mode, const std::string& padding_mode, bool align_corners,
                      DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const GridGeometry g = GridGeometryOf(x.dims(), mode, padding_mode, align_corners);
  const int64_t batch = x.dims()[0], channels = x.dims()[1];
  const int64_t in_pixels = x.numel() / (batch * channels);
  const int64_t points = grid.numel() / (batch * g.spatial);
  const GridTapTable<T> table = MakeGridTapTable(grid.data<T>(), batch * points, g);
  const T* in = x.data<T>();
  const int taps = table.taps;
  funcs::ParallelFor(
      batch * channels,
      [&](int64_t begin, int64_t end) {
        for (int64_t plane = begin; plane < end; ++plane) {
          const T* src = in + plane * in_pixels;
          const int64_t first = (plane / channels) * points * taps;
          const int64_t* offsets = table.offset.data() + first;
          const MT* weights = table.weight.data() + first;
          T* dst = o + plane * points;
          for (int64_t p = 0; p < points; ++p) {
            MT acc = 0;
            for (int k = 0; k < taps; ++k) {
              const int64_t offset = offsets[p * taps + k];
              if (offset >= 0) acc += weights[p * taps + k] * static_cast<MT>(src[offset]);
            }
            dst[p] = static_cast<T>(acc);
          }
        }
      },
      funcs::kParallelThreshold / (points * taps + 1) + 1);
}

template <typename T, typename Context>
void GridSampleGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& grid,
                          const DenseTensor& out_grad, const std::string& mode,
                          const std::string& padding_mode, bool align_corners, DenseTensor* x_grad,
                          DenseTensor* grid_grad) {
  using MT = MathType<T>;
  T* gx = ctx.template Alloc<T>(x_grad);
  T* gg = ctx.template Alloc<T>(grid_grad);
  std::fill(gg, gg + grid_grad->numel(), T(0));
  GradAccumulator<T> acc(gx, x_grad->numel());
  if (out_grad.numel() == 0) {
    acc.Finish();
    return;
  }
  const GridGeometry g = GridGeometryOf(x.dims(), mode, padding_mode, align_corners);
  const int64_t batch = x.dims()[0], channels = x.dims()[1];
  const int64_t in_pixels = x.numel() / (batch * channels);
  const int64_t points = grid.numel() / (batch * g.spatial);
  const T* og = out_grad.data<T>();
  const GridTapTable<T> table = MakeGridTapTable(grid.data<T>(), batch * points, g);
  const int taps = table.taps;
  MT* dx = acc.data();
  funcs::ParallelFor(
      batch * channels,
      [&](int64_t begin, int64_t end) {
        for (int64_t plane = begin; plane < end; ++plane) {
          MT* dst = dx + plane * in_pixels;
          const int64_t first = (plane / channels) * points * taps;
          const T* src = og + plane * points;
          for (int64_t p = 0; p < points; ++p) {
            for (int k = 0; k < taps; ++k) {
              const int64_t offset = table.offset[first + p * taps + k];
              if (offset >= 0) {
                dst[offset] += table.weight[first + p * taps + k] * static_cast<MT>(src[p]);
              }
            }
          }
        }
      },
      funcs::kParallelThreshold / (points * taps + 1) + 1);
  acc.Finish();
  if (g.nearest) return;  // piecewise constant in the grid
  // d out / d position_a = sum over channels and taps of out_grad * x * d weight / d position_a,
  // times the position's slope in the grid coordinate. Work goes in blocks of points of one
  // batch item, channels outermost, so out_grad and each channel plane are read in order.
  constexpr int64_t kGridBlock = 256;
  const int64_t blocks = (points + kGridBlock - 1) / kGridBlock;
  const T* in = x.data<T>();
  const T* coords = grid.data<T>();
  funcs::ParallelFor(
      batch * blocks,
      [&](int64_t begin, int64_t end) {
        std::vector<GridTaps<MT>> block_taps(kGridBlock);
        std::vector<std::array<MT, 3>> sums(kGridBlock);
        for (int64_t item = begin; item < end; ++item) {
          const int64_t n = item / blocks, first = (item % blocks) * kGridBlock;
          const int64_t count = std::min(kGridBlock, points - first);
          for (int64_t p = 0; p < count; ++p) {
            block_taps[p] = TapsOfGridPoint(coords + (n * points + first + p) * g.spatial, g);
            sums[p] = {};
          }
          for (int64_t c = 0; c < channels; ++c) {
            const T* src = in + (n * channels + c) * in_pixels;
            const T* go = og + (n * channels + c) * points + first;
            for (int64_t p = 0; p < count; ++p) {
              const GridTaps<MT>& t = block_taps[p];
              for (int k = 0; k < t.count; ++k) {
                if (t.offset[k] < 0) continue;
                const MT v = static_cast<MT>(go[p]) * static_cast<MT>(src[t.offset[k]]);
                for (int a = 0; a < g.spatial; ++a) sums[p][a] += v * t.weight_slope[a][k];
              }
            }
          }
          for (int64_t p = 0; p < count; ++p) {
            T* out = gg + (n * points + first + p) * g.spatial;
            for (int a = 0; a < g.spatial; ++a) {
              out[g.spatial - 1 - a] = static_cast<T>(sums[p][a] * block_taps[p].position_slope[a]);
            }
          }
        }
      },
      funcs::kParallelThreshold / (kGridBlock * channels * taps * 4 + 1) + 1);
}

namespace {

// The pixel-centre coordinates in [-1, 1] of `count` pixels along an axis (Paddle's linspace). A
// single pixel sits at 0 (Paddle's CPU kernel gives NaN with align_corners).
template <typename T>
std::vector<T> AffineGridAxis(int64_t count, bool align_corners) {
  std::vector<T> v(count);
  if (count == 1) {
    v[0] = 0;
    return v;
  }
  T start = -1;
  T step = T(2) / static_cast<T>(count - 1);
  if (!align_corners) {
    step = T(2) / static_cast<T>(count);
    start *= static_cast<T>(count - 1) / static_cast<T>(count);
  }
  for (int64_t i = 0; i < count; ++i) v[i] = start + static_cast<T>(i) * step;
  return v;
}

// The coordinates of the output's pixels along D, H, W (1 pixel at 0 along D for a 2-D grid).
template <typename T>
std::array<std::vector<T>, 3> AffineGridAxes(const DDim& grid_dims, bool align_corners) {
  const int s = grid_dims.size() - 2;
  std::array<std::vector<T>, 3> axes;
  axes[0] = s == 3 ? AffineGridAxis<T>(grid_dims[1], align_corners) : std::vector<T>{T(0)};
  axes[1] = AffineGridAxis<T>(grid_dims[s - 1], align_corners);
  axes[2] = AffineGridAxis<T>(grid_dims[s], align_corners);
  return axes;
}

}  // namespace

template <typename T, typename Context>
void AffineGridKernel(const Context& ctx, const DenseTensor& input,
                      const DenseTensor* output_shape_tensor,
                      const std::vector<int64_t>& output_shape, bool align_corners,
                      DenseTensor* output) {
  const std::vector<int64_t> shape =
      output_shape_tensor != nullptr ? IntValuesOf(*output_shape_tensor) : output_shape;
  const int64_t batch = input.dims()[0];
  const int s = input.dims()[1];  // 2 or 3 output coordinates
  PD_CHECK(static_cast<int>(shape.size()) == s + 2,
           errors::InvalidArgument("affine_grid: argument 'out_shape' must hold ", s + 2,
                                   " values for theta of shape ", input.dims().ToString(),
                                   ", received ", shape.size()));
  std::vector<int64_t> dims = {batch};
  for (int i = 2; i < s + 2; ++i) {
    PD_CHECK(shape[i] >= 0, errors::InvalidArgument("affine_grid: the spatial sizes in argument "
                                                    "'out_shape' must not be negative, received ",
                                                    DDim(shape).ToString()));
    dims.push_back(shape[i]);
  }
  dims.push_back(s);
  output->Resize(DDim(dims));
  T* out = ctx.template Alloc<T>(output);
  if (output->numel() == 0) return;
  const int64_t points = output->numel() / (batch * s);
  const std::array<std::vector<T>, 3> axes = AffineGridAxes<T>(output->dims(), align_corners);
  const int64_t h = axes[1].size(), w = axes[2].size();
  const T* theta = input.data<T>();
  funcs::ParallelFor(
      batch * points,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          const int64_t p = i % points;
          const T* m = theta + (i / points) * s * (s + 1);
          // The pixel's homogeneous coordinates: x (W), y (H), then z (D) for a 3-D grid.
          const std::array<T, 4> base = {axes[2][p % w], axes[1][(p / w) % h],
                                         s == 3 ? axes[0][p / (w * h)] : T(1), T(1)};
          for (int j = 0; j < s; ++j) {
            T v = 0;
            for (int k = 0; k <= s; ++k) v += m[j * (s + 1) + k] * base[k];
            out[i * s + j] = v;
          }
        }
      },
      funcs::kParallelThreshold / 16 + 1);
}

template <typename T, typename Context>
void AffineGridGradKernel(const Context& ctx, const DenseTensor& output_grad, bool align_corners,
                          DenseTensor* input_grad) {
  T* gt = ctx.template Alloc<T>(input_grad);
  std::fill(gt, gt + input_grad->numel(), T(0));
  const int64_t batch = output_grad.dims()[0];
  const int s = output_grad.dims().size() - 2;
  if (output_grad.numel() == 0) return;
  const int64_t points = output_grad.numel() / (batch * s);
  const std::array<std::vector<T>, 3> axes = AffineGridAxes<T>(output_grad.dims(), align_corners);
  const int64_t h = axes[1].size(), w = axes[2].size();
  const T* og = output_grad.data<T>();
  // theta_grad[n, j, k] = sum over pixels p of output_grad[n, p, j] * base[p, k].
  funcs::ParallelFor(
      batch,
      [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) {
          std::array<T, 12> sum{};
          for (int64_t p = 0; p < points; ++p) {
            const std::array<T, 4> base = {axes[2][p % w], axes[1][(p / w) % h],
                                           s == 3 ? axes[0][p / (w * h)] : T(1), T(1)};
            const T* g = og + (n * points + p) * s;
            for (int j = 0; j < s; ++j) {
              for (int k = 0; k <= s; ++k) sum[j * (s + 1) + k] += g[j] * base[k];
            }
          }
          std::copy(sum.begin(), sum.begin() + s * (s + 1), gt + n * s * (s + 1));
        }
      },
      funcs::kParallelThreshold / (points * 12 + 1) + 1);
}

}  // namespace paddle
