#include "paddle/kernels/funcs/deformable_conv.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

namespace {

bool Unknown(int64_t dim) { return dim < 0; }

std::string Join(const std::vector<int>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

// An (H, W) attribute: two values, each at least `minimum`.
void PerDim(const char* op, const char* name, const std::vector<int>& values, int minimum,
            int64_t* h, int64_t* w) {
  PD_CHECK(values.size() == 2,
           errors::InvalidArgument(op, ": '", name, "' must have 2 values (H, W), received ",
                                   Join(values)));
  PD_CHECK(values[0] >= minimum && values[1] >= minimum,
           errors::InvalidArgument(op, ": every value of '", name, "' must be ",
                                   minimum == 0 ? "non-negative" : "positive", ", received ",
                                   Join(values)));
  *h = values[0];
  *w = values[1];
}

int64_t OutputSize(const char* op, const char* dim, int64_t size, int64_t kernel, int64_t pad,
                   int64_t stride, int64_t dilation) {
  if (Unknown(size) || Unknown(kernel)) return -1;
  const int64_t extent = dilation * (kernel - 1) + 1;
  PD_CHECK(size + 2 * pad >= extent,
           errors::InvalidArgument(op, ": the dilated kernel's ", dim, " (", extent,
                                   ") must not exceed the padded input's (", size + 2 * pad, ")"));
  return (size + 2 * pad - extent) / stride + 1;
}

// Where one kernel tap reads a channel plane at one output position: its four neighbours (-1
// where outside the plane) and the position's fractional parts; `inside` is false where the
// position is at -1 or beyond in a direction, where everything it reads is 0.
template <typename T>
struct SamplePoint {
  int64_t corner[4];  // (low, low), (low, high), (high, low), (high, high) in (h, w)
  T lh, lw;
  bool inside;
};

template <typename T>
SamplePoint<T> Locate(T h, T w, int64_t height, int64_t width) {
  SamplePoint<T> p{{-1, -1, -1, -1}, T(0), T(0), false};
  if (!(h > -1 && w > -1 && h < height && w < width)) return p;  // also NaN
  const T h_floor = std::floor(h), w_floor = std::floor(w);
  const int64_t h_low = static_cast<int64_t>(h_floor), w_low = static_cast<int64_t>(w_floor);
  const int64_t h_high = h_low + 1, w_high = w_low + 1;
  const bool rows[2] = {h_low >= 0, h_high <= height - 1};
  const bool cols[2] = {w_low >= 0, w_high <= width - 1};
  const int64_t r[2] = {h_low, h_high}, c[2] = {w_low, w_high};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) p.corner[2 * i + j] = rows[i] && cols[j] ? r[i] * width + c[j] : -1;
  }
  p.lh = h - h_floor;
  p.lw = w - w_floor;
  p.inside = true;
  return p;
}

template <typename T>
T Read(const T* plane, int64_t corner) {
  return corner >= 0 ? plane[corner] : T(0);
}

template <typename T>
T Interpolate(const T* plane, const SamplePoint<T>& p) {
  const T hh = 1 - p.lh, hw = 1 - p.lw;
  return hh * hw * Read(plane, p.corner[0]) + hh * p.lw * Read(plane, p.corner[1]) +
         p.lh * hw * Read(plane, p.corner[2]) + p.lh * p.lw * Read(plane, p.corner[3]);
}

// The sample points of one sample: [deformable group][tap][output position].
template <typename T>
std::vector<SamplePoint<T>> SamplePoints(const DeformableConvGeometry& g, const T* offset) {
  const int64_t positions = g.out_h * g.out_w, taps = g.taps();
  std::vector<SamplePoint<T>> points(g.deformable_groups * taps * positions);
  ParallelFor(
      g.deformable_groups * taps,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t group = row / taps, k = row % taps;
          const int64_t i = k / g.kernel_w, j = k % g.kernel_w;
          const T* dy = offset + (group * 2 * taps + 2 * k) * positions;
          const T* dx = dy + positions;
          SamplePoint<T>* out = points.data() + row * positions;
          for (int64_t oh = 0; oh < g.out_h; ++oh) {
            for (int64_t ow = 0; ow < g.out_w; ++ow) {
              const int64_t p = oh * g.out_w + ow;
              const T h = static_cast<T>(oh * g.stride_h - g.pad_h + i * g.dilation_h) + dy[p];
              const T w = static_cast<T>(ow * g.stride_w - g.pad_w + j * g.dilation_w) + dx[p];
              out[p] = Locate(h, w, g.height, g.width);
            }
          }
        }
      },
      kParallelThreshold / std::max<int64_t>(positions, 1) + 1);
  return points;
}

// col [C * taps, positions] of one sample: the sampled values times the mask (if any).
template <typename T>
void DeformableIm2col(const DeformableConvGeometry& g, const std::vector<SamplePoint<T>>& points,
                      const T* x, const T* mask, T* col) {
  const int64_t positions = g.out_h * g.out_w, taps = g.taps(), plane = g.height * g.width;
  const int64_t per_group = g.in_channels / g.deformable_groups;
  ParallelFor(
      g.in_channels * taps,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t c = row / taps, k = row % taps;
          const int64_t point_row = (c / per_group) * taps + k;
          const SamplePoint<T>* pts = points.data() + point_row * positions;
          const T* m = mask ? mask + point_row * positions : nullptr;
          const T* in = x + c * plane;
          T* out = col + row * positions;
          for (int64_t p = 0; p < positions; ++p) {
            const T v = pts[p].inside ? Interpolate(in, pts[p]) : T(0);
            out[p] = m ? v * m[p] : v;
          }
        }
      },
      kParallelThreshold / std::max<int64_t>(positions, 1) + 1);
}

}  // namespace

DDim DeformableConvGeometry::OutputDims() const { return {batch, out_channels, out_h, out_w}; }

DDim DeformableConvGeometry::OffsetDims() const {
  const int64_t channels =
      Unknown(kernel_h) || Unknown(kernel_w) ? -1 : deformable_groups * 2 * taps();
  return {batch, channels, out_h, out_w};
}

DDim DeformableConvGeometry::MaskDims() const {
  const int64_t channels = Unknown(kernel_h) || Unknown(kernel_w) ? -1 : deformable_groups * taps();
  return {batch, channels, out_h, out_w};
}

DeformableConvGeometry DeformableConvolutionGeometry(const char* op, const DDim& x,
                                                     const DDim& filter,
                                                     const std::vector<int>& strides,
                                                     const std::vector<int>& paddings,
                                                     const std::vector<int>& dilations,
                                                     int deformable_groups, int groups) {
  PD_CHECK(x.size() == 4, errors::InvalidArgument(op,
                                                  ": argument 'x' must be a 4-D tensor [N, C, "
                                                  "H, W], received shape ",
                                                  x.ToString()));
  PD_CHECK(filter.size() == 4,
           errors::InvalidArgument(op,
                                   ": argument 'filter' must be a 4-D tensor [C_out, C / groups, "
                                   "kh, kw], received shape ",
                                   filter.ToString()));
  DeformableConvGeometry g;
  PerDim(op, "strides", strides, 1, &g.stride_h, &g.stride_w);
  PerDim(op, "paddings", paddings, 0, &g.pad_h, &g.pad_w);
  PerDim(op, "dilations", dilations, 1, &g.dilation_h, &g.dilation_w);
  PD_CHECK(groups > 0,
           errors::InvalidArgument(op, ": 'groups' must be positive, received ", groups));
  PD_CHECK(deformable_groups > 0,
           errors::InvalidArgument(op, ": 'deformable_groups' must be positive, received ",
                                   deformable_groups));
  g.groups = groups;
  g.deformable_groups = deformable_groups;
  g.batch = x[0];
  g.in_channels = x[1];
  g.height = x[2];
  g.width = x[3];
  g.out_channels = filter[0];
  g.kernel_h = filter[2];
  g.kernel_w = filter[3];
  PD_CHECK((g.kernel_h > 0 || Unknown(g.kernel_h)) && (g.kernel_w > 0 || Unknown(g.kernel_w)),
           errors::InvalidArgument(op,
                                   ": the kernel size of 'filter' must be positive, received "
                                   "shape ",
                                   filter.ToString()));
  if (!Unknown(g.in_channels)) {
    PD_CHECK(g.in_channels % groups == 0,
             errors::InvalidArgument(op, ": the channels of 'x' (", g.in_channels,
                                     ") must be divisible by 'groups' (", groups, ")"));
    PD_CHECK(g.in_channels % deformable_groups == 0,
             errors::InvalidArgument(op, ": the channels of 'x' (", g.in_channels,
                                     ") must be divisible by 'deformable_groups' (",
                                     deformable_groups, ")"));
    PD_CHECK(Unknown(filter[1]) || filter[1] * groups == g.in_channels,
             errors::InvalidArgument(op, ": filter's dim 1 must be the channels of 'x' (",
                                     g.in_channels, ") / 'groups' (", groups,
                                     "), received filter of shape ", filter.ToString()));
  }
  PD_CHECK(Unknown(g.out_channels) || g.out_channels % groups == 0,
           errors::InvalidArgument(op, ": the output channels (filter's dim 0, ", g.out_channels,
                                   ") must be divisible by 'groups' (", groups, ")"));
  g.out_h = OutputSize(op, "height", g.height, g.kernel_h, g.pad_h, g.stride_h, g.dilation_h);
  g.out_w = OutputSize(op, "width", g.width, g.kernel_w, g.pad_w, g.stride_w, g.dilation_w);
  return g;
}

template <typename T>
void DeformableConvForward(const DeformableConvGeometry& g, const T* x, const T* offset,
                           const T* mask, const T* filter, T* out) {
  const int64_t positions = g.out_h * g.out_w, taps = g.taps(), plane = g.height * g.width;
  const int64_t cin = g.in_channels / g.groups, cout = g.out_channels / g.groups;
  const int64_t rows = cin * taps;  // of one group's columns
  const int64_t offset_size = g.deformable_groups * 2 * taps * positions;
  const int64_t mask_size = g.deformable_groups * taps * positions;
  std::vector<T> col(g.in_channels * taps * positions);
  for (int64_t n = 0; n < g.batch; ++n) {
    T* y = out + n * g.out_channels * positions;
    if (rows == 0) {
      std::fill(y, y + g.out_channels * positions, T(0));
      continue;
    }
    const auto points = SamplePoints(g, offset + n * offset_size);
    DeformableIm2col(g, points, x + n * g.in_channels * plane, mask ? mask + n * mask_size : mask,
                     col.data());
    for (int64_t grp = 0; grp < g.groups && cout > 0; ++grp) {
      Gemm<T>(false, false, cout, positions, rows, T(1), filter + grp * cout * rows, rows,
              col.data() + grp * rows * positions, positions, T(0), y + grp * cout * positions,
              positions);
    }
  }
}

template <typename T>
void DeformableConvBackward(const DeformableConvGeometry& g, const T* x, const T* offset,
                            const T* mask, const T* filter, const T* out_grad, T* x_grad,
                            T* offset_grad, T* filter_grad, T* mask_grad) {
  const int64_t positions = g.out_h * g.out_w, taps = g.taps(), plane = g.height * g.width;
  const int64_t cin = g.in_channels / g.groups, cout = g.out_channels / g.groups;
  const int64_t rows = cin * taps;
  const int64_t per_group = g.in_channels / g.deformable_groups;
  const int64_t offset_size = g.deformable_groups * 2 * taps * positions;
  const int64_t mask_size = g.deformable_groups * taps * positions;
  if (!mask) mask_grad = nullptr;
  if (x_grad) std::fill(x_grad, x_grad + g.batch * g.in_channels * plane, T(0));
  if (filter_grad) std::fill(filter_grad, filter_grad + g.out_channels * rows, T(0));
  if (offset_grad) std::fill(offset_grad, offset_grad + g.batch * offset_size, T(0));
  if (mask_grad) std::fill(mask_grad, mask_grad + g.batch * mask_size, T(0));
  if (rows == 0 || cout == 0) return;  // no tap reads x, or nothing reads the taps
  std::vector<T> col(filter_grad ? g.in_channels * taps * positions : 0);
  std::vector<T> col_grad(g.in_channels * taps * positions);
  for (int64_t n = 0; n < g.batch; ++n) {
    const T* xn = x + n * g.in_channels * plane;
    const T* mn = mask ? mask + n * mask_size : nullptr;
    const T* dy = out_grad + n * g.out_channels * positions;
    const auto points = SamplePoints(g, offset + n * offset_size);
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      Gemm<T>(true, false, rows, positions, cout, T(1), filter + grp * cout * rows, rows,
              dy + grp * cout * positions, positions, T(0),
              col_grad.data() + grp * rows * positions, positions);
    }
    if (filter_grad) {
      DeformableIm2col(g, points, xn, mn, col.data());
      for (int64_t grp = 0; grp < g.groups; ++grp) {
        Gemm<T>(false, true, cout, rows, positions, T(1), dy + grp * cout * positions, positions,
                col.data() + grp * rows * positions, positions, T(1),
                filter_grad + grp * cout * rows, rows);
      }
    }
    // The offset and mask gradients of one (deformable group, tap) row sum over the group's
    // channels; rows run in parallel and each walks its channels' column rows in order.
    if (offset_grad || mask_grad) {
      T* doffset = offset_grad ? offset_grad + n * offset_size : nullptr;
      T* dmask = mask_grad ? mask_grad + n * mask_size : nullptr;
      ParallelFor(
          g.deformable_groups * taps,
          [&](int64_t begin, int64_t end) {
            std::vector<T> d_h(positions), d_w(positions), d_m(positions);
            for (int64_t row = begin; row < end; ++row) {
              const int64_t group = row / taps, k = row % taps;
              const SamplePoint<T>* pts = points.data() + row * positions;
              std::fill(d_h.begin(), d_h.end(), T(0));
              std::fill(d_w.begin(), d_w.end(), T(0));
              std::fill(d_m.begin(), d_m.end(), T(0));
              for (int64_t c = group * per_group; c < (group + 1) * per_group; ++c) {
                const T* in = xn + c * plane;
                const T* dc = col_grad.data() + (c * taps + k) * positions;
                for (int64_t p = 0; p < positions; ++p) {
                  const SamplePoint<T>& s = pts[p];
                  if (!s.inside) continue;
                  const T v1 = Read(in, s.corner[0]), v2 = Read(in, s.corner[1]);
                  const T v3 = Read(in, s.corner[2]), v4 = Read(in, s.corner[3]);
                  const T hh = 1 - s.lh, hw = 1 - s.lw;
                  d_h[p] += dc[p] * (hw * (v3 - v1) + s.lw * (v4 - v2));
                  d_w[p] += dc[p] * (hh * (v2 - v1) + s.lh * (v4 - v3));
                  d_m[p] +=
                      dc[p] * (hh * hw * v1 + hh * s.lw * v2 + s.lh * hw * v3 + s.lh * s.lw * v4);
                }
              }
              const T* m = mn ? mn + row * positions : nullptr;
              if (doffset) {
                T* oh = doffset + (group * 2 * taps + 2 * k) * positions;
                T* ow = oh + positions;
                for (int64_t p = 0; p < positions; ++p) {
                  oh[p] = m ? d_h[p] * m[p] : d_h[p];
                  ow[p] = m ? d_w[p] * m[p] : d_w[p];
                }
              }
              if (dmask) std::copy(d_m.begin(), d_m.end(), dmask + row * positions);
            }
          },
          kParallelThreshold / std::max<int64_t>(per_group * positions, 1) + 1);
    }
    // x's gradient: each channel scatters its column rows through the bilinear weights.
    if (x_grad) {
      T* dxn = x_grad + n * g.in_channels * plane;
      ParallelFor(
          g.in_channels,
          [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c) {
              T* dx = dxn + c * plane;
              for (int64_t k = 0; k < taps; ++k) {
                const int64_t point_row = (c / per_group) * taps + k;
                const SamplePoint<T>* pts = points.data() + point_row * positions;
                const T* m = mn ? mn + point_row * positions : nullptr;
                const T* dc = col_grad.data() + (c * taps + k) * positions;
                for (int64_t p = 0; p < positions; ++p) {
                  const SamplePoint<T>& s = pts[p];
                  if (!s.inside) continue;
                  const T d = m ? dc[p] * m[p] : dc[p];
                  const T hh = 1 - s.lh, hw = 1 - s.lw;
                  const T weight[4] = {hh * hw, hh * s.lw, s.lh * hw, s.lh * s.lw};
                  for (int q = 0; q < 4; ++q) {
                    if (s.corner[q] >= 0) dx[s.corner[q]] += d * weight[q];
                  }
                }
              }
            }
          },
          kParallelThreshold / std::max<int64_t>(taps * positions, 1) + 1);
    }
  }
}

template void DeformableConvForward<float>(const DeformableConvGeometry&, const float*,
                                           const float*, const float*, const float*, float*);
template void DeformableConvForward<double>(const DeformableConvGeometry&, const double*,
                                            const double*, const double*, const double*, double*);
template void DeformableConvBackward<float>(const DeformableConvGeometry&, const float*,
                                            const float*, const float*, const float*, const float*,
                                            float*, float*, float*, float*);
template void DeformableConvBackward<double>(const DeformableConvGeometry&, const double*,
                                             const double*, const double*, const double*,
                                             const double*, double*, double*, double*, double*);

}  // namespace paddle::funcs
