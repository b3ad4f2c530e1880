#include "paddle/kernels/funcs/roi_pooling.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

namespace {

// Box corners this far out (in pixels) are as good as infinitely far: clamping to it keeps the
// integer arithmetic of absurd boxes defined without moving any bin of a real map.
constexpr double kFarAway = 1e15;

// A pixel coordinate as an integer, clamped to kFarAway; NaN (from a box whose arithmetic
// overflows) becomes 0.
int64_t ClampedInt(double v) {
  return std::isnan(v) ? 0 : static_cast<int64_t>(std::clamp(v, -kFarAway, kFarAway));
}

// The ParallelFor threshold for items of `work` elements each.
int64_t ItemThreshold(int64_t work) { return kParallelThreshold / std::max<int64_t>(work, 1) + 1; }

// Channels of one box a forward item pools.
constexpr int64_t kChannelBlock = 64;

// The forward pass: pool(state, r, c_begin, c_end) for every box r and block of its channels,
// with state = prepare(r) (the box's samples or windows), in one parallel region. (A region per
// box would cost more than a small box's work on a busy machine; blocks of channels let a few
// boxes with many channels spread too.) A thread prepares each box once for its consecutive
// blocks.
template <typename Prepare, typename Pool>
void ForBoxChannels(int64_t num_rois, int64_t channels, int64_t work_per_channel, Prepare&& prepare,
                    Pool&& pool) {
  const int64_t blocks = (channels + kChannelBlock - 1) / kChannelBlock;
  ParallelFor(
      num_rois * blocks,
      [&](int64_t begin, int64_t end) {
        decltype(prepare(int64_t{0})) state{};
        int64_t prepared = -1;
        for (int64_t item = begin; item < end; ++item) {
          const int64_t r = item / blocks, c = item % blocks * kChannelBlock;
          if (r != prepared) {
            state = prepare(r);
            prepared = r;
          }
          pool(state, r, c, std::min(channels, c + kChannelBlock));
        }
      },
      ItemThreshold(work_per_channel * std::min(channels, kChannelBlock)));
}

// The backward pass: scatter(state, r, c_begin, c_end) for every box r over a range of channels
// of x_grad, with state = prepare(r), in one parallel region over the channels: boxes of one
// image add into the same planes, so each thread owns channels and walks every box.
template <typename Prepare, typename Scatter>
void ForChannelBoxes(int64_t num_rois, int64_t channels, int64_t work_per_channel,
                     Prepare&& prepare, Scatter&& scatter) {
  ParallelFor(
      channels,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = 0; r < num_rois; ++r) scatter(prepare(r), r, begin, end);
      },
      ItemThreshold(work_per_channel));
}

template <typename T>
bool FiniteBox(const T* box, T scale) {
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(static_cast<double>(box[i] * scale))) return false;
  }
  return true;
}

// Fills the outputs of a box whose corners (or bins) are not finite.
template <typename T>
void FillNaN(T* out, int64_t count) {
  std::fill(out, out + count, std::numeric_limits<T>::quiet_NaN());
}

// ---------------------------------------------------------------- roi_align

// One bilinear sample: the offsets of its four neighbours in a channel plane and their weights.
template <typename T>
struct Tap {
  int64_t offset[4];
  T weight[4];
};

// The samples of every bin of one box (those that read the map), as Paddle's kernel places them:
// bin (ph, pw) is averaged over a grid of grid_h x grid_w samples at the centres of its cells.
template <typename T>
struct AlignedBox {
  std::vector<Tap<T>> taps;
  std::vector<int64_t> first_tap;  // bin b's taps are [first_tap[b], first_tap[b + 1])
  T inverse_count = 0;             // 1 / (grid_h * grid_w)
  bool finite = true;              // false: a corner is not finite, or the bins' extent overflows T
};

// The sample indices k in [0, grid) whose coordinate start + (k + 0.5) * step may lie in
// [-1, limit] (widened by one on each side; the caller tests each sample). Samples further out
// read 0, so a box far larger than the map visits about as many samples as the map has pixels.
std::pair<int64_t, int64_t> SampleRange(double start, double step, double grid, double limit) {
  double lo = 0, hi = grid - 1;
  if (step != 0) {
    double a = (-1 - start) / step - 0.5, b = (limit - start) / step - 0.5;
    lo = std::max(lo, std::floor(std::min(a, b)) - 1);
    hi = std::max(std::min(hi, std::ceil(std::max(a, b)) + 1), lo - 1);
  }
  constexpr double kMaxIndex = 9007199254740992.0;  // 2^53: beyond, samples blur into each other
  return {static_cast<int64_t>(std::min(lo, kMaxIndex)),
          static_cast<int64_t>(std::min(hi, kMaxIndex)) + 1};
}

// Appends the tap of the sample at (y, x) of an H x W map, if it reads the map: samples in
// [-1, 0] read row or column 0, and those in [size - 1, size] the last one (Paddle's clamping).
template <typename T>
void AddTap(T y, T x, int64_t height, int64_t width, std::vector<Tap<T>>* taps) {
  if (!(y >= -1 && y <= height && x >= -1 && x <= width) || height == 0 || width == 0) return;
  y = std::max(y, T(0));
  x = std::max(x, T(0));
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<T>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<T>(x_low);
  }
  const T ly = y - static_cast<T>(y_low), lx = x - static_cast<T>(x_low);
  const T hy = 1 - ly, hx = 1 - lx;
  taps->push_back({{y_low * width + x_low, y_low * width + x_high, y_high * width + x_low,
                    y_high * width + x_high},
                   {hy * hx, hy * lx, ly * hx, ly * lx}});
}

template <typename T>
AlignedBox<T> AlignBox(const RoiPoolingShape& s, const T* box, int sampling_ratio, bool aligned) {
  const T scale = static_cast<T>(s.spatial_scale);
  AlignedBox<T> result;
  result.first_tap.assign(s.pooled_height * s.pooled_width + 1, 0);
  result.finite = FiniteBox(box, scale);
  if (!result.finite) return result;
  const T shift = aligned ? T(0.5) : T(0);
  const T x_min = box[0] * scale - shift, y_min = box[1] * scale - shift;
  T roi_width = box[2] * scale - shift - x_min, roi_height = box[3] * scale - shift - y_min;
  if (!aligned) {
    roi_width = std::max(roi_width, T(1));
    roi_height = std::max(roi_height, T(1));
  }
  const T bin_h = roi_height / static_cast<T>(s.pooled_height);
  const T bin_w = roi_width / static_cast<T>(s.pooled_width);
  const double grid_h = sampling_ratio > 0 ? sampling_ratio : std::ceil(double(bin_h));
  const double grid_w = sampling_ratio > 0 ? sampling_ratio : std::ceil(double(bin_w));
  result.finite = std::isfinite(double(bin_h)) && std::isfinite(double(bin_w));
  if (!result.finite || !(grid_h >= 1 && grid_w >= 1)) return result;  // no samples: bins are 0
  result.inverse_count = static_cast<T>(1.0 / (grid_h * grid_w));
  const T cells_h = static_cast<T>(grid_h), cells_w = static_cast<T>(grid_w);
  for (int64_t ph = 0; ph < s.pooled_height; ++ph) {
    const double start_h = double(y_min) + double(bin_h) * double(ph);
    auto [iy_begin, iy_end] = SampleRange(start_h, double(bin_h) / grid_h, grid_h, s.height);
    for (int64_t pw = 0; pw < s.pooled_width; ++pw) {
      const double start_w = double(x_min) + double(bin_w) * double(pw);
      auto [ix_begin, ix_end] = SampleRange(start_w, double(bin_w) / grid_w, grid_w, s.width);
      for (int64_t iy = iy_begin; iy < iy_end; ++iy) {
        const T y = y_min + bin_h * (static_cast<T>(ph) + (static_cast<T>(iy) + T(0.5)) / cells_h);
        for (int64_t ix = ix_begin; ix < ix_end; ++ix) {
          const T x =
              x_min + bin_w * (static_cast<T>(pw) + (static_cast<T>(ix) + T(0.5)) / cells_w);
          AddTap(y, x, s.height, s.width, &result.taps);
        }
      }
      result.first_tap[ph * s.pooled_width + pw + 1] = static_cast<int64_t>(result.taps.size());
    }
  }
  return result;
}

}  // namespace

std::vector<int64_t> RoiImages(const char* op, const DenseTensor* boxes_num, int64_t num_rois,
                               int64_t batch) {
  std::vector<int64_t> image(num_rois, 0);
  if (boxes_num == nullptr) {
    PD_CHECK(batch == 1 || num_rois == 0,
             errors::InvalidArgument(op,
                                     ": argument 'boxes_num' is required when 'x' does not "
                                     "hold exactly one image (tensors carry no LoD here), "
                                     "received a batch of ",
                                     batch));
    return image;
  }
  PD_CHECK(boxes_num->numel() == batch,
           errors::InvalidArgument(op,
                                   ": argument 'boxes_num' must hold one count per image of "
                                   "'x' (",
                                   batch, "), received ", boxes_num->numel(), " counts"));
  const bool wide = boxes_num->dtype() == DataType::INT64;
  int64_t first = 0;
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t count = wide ? boxes_num->data<int64_t>()[n] : boxes_num->data<int32_t>()[n];
    PD_CHECK(count >= 0 && count <= num_rois - first,
             errors::InvalidArgument(op,
                                     ": the counts of 'boxes_num' must not be negative and "
                                     "must add up to the number of boxes (",
                                     num_rois, "), received ", count, " for image ", n, " after ",
                                     first, " boxes"));
    std::fill(image.begin() + first, image.begin() + first + count, n);
    first += count;
  }
  PD_CHECK(first == num_rois,
           errors::InvalidArgument(op,
                                   ": the counts of 'boxes_num' must add up to the number of "
                                   "boxes (",
                                   num_rois, "), received counts adding up to ", first));
  return image;
}

template <typename T>
void RoiAlignForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                     int sampling_ratio, bool aligned, T* out) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  ForBoxChannels(
      s.num_rois, s.channels, bins * 16,
      [&](int64_t r) { return AlignBox(s, boxes + 4 * r, sampling_ratio, aligned); },
      [&](const AlignedBox<T>& box, int64_t r, int64_t c_begin, int64_t c_end) {
        T* roi_out = out + r * s.channels * bins;
        if (!box.finite) {
          FillNaN(roi_out + c_begin * bins, (c_end - c_begin) * bins);
          return;
        }
        const T* images = x + image[r] * s.channels * plane;
        for (int64_t c = c_begin; c < c_end; ++c) {
          const T* in = images + c * plane;
          for (int64_t b = 0; b < bins; ++b) {
            T sum = 0;
            for (int64_t t = box.first_tap[b]; t < box.first_tap[b + 1]; ++t) {
              const Tap<T>& tap = box.taps[t];
              sum += tap.weight[0] * in[tap.offset[0]] + tap.weight[1] * in[tap.offset[1]] +
                     tap.weight[2] * in[tap.offset[2]] + tap.weight[3] * in[tap.offset[3]];
            }
            roi_out[c * bins + b] = sum * box.inverse_count;
          }
        }
      });
}

template <typename T>
void RoiAlignBackward(const RoiPoolingShape& s, const T* boxes, const int64_t* image,
                      int sampling_ratio, bool aligned, const T* out_grad, T* x_grad) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  std::fill(x_grad, x_grad + s.batch * s.channels * plane, T(0));
  ForChannelBoxes(
      s.num_rois, s.channels, s.num_rois * bins * 16,
      [&](int64_t r) { return AlignBox(s, boxes + 4 * r, sampling_ratio, aligned); },
      [&](const AlignedBox<T>& box, int64_t r, int64_t c_begin, int64_t c_end) {
        if (!box.finite) return;
        T* images = x_grad + image[r] * s.channels * plane;
        const T* roi_grad = out_grad + r * s.channels * bins;
        for (int64_t c = c_begin; c < c_end; ++c) {
          T* in = images + c * plane;
          for (int64_t b = 0; b < bins; ++b) {
            const T g = roi_grad[c * bins + b] * box.inverse_count;
            for (int64_t t = box.first_tap[b]; t < box.first_tap[b + 1]; ++t) {
              const Tap<T>& tap = box.taps[t];
              for (int k = 0; k < 4; ++k) in[tap.offset[k]] += g * tap.weight[k];
            }
          }
        }
      });
}

// ---------------------------------------------------------------- roi_pool

namespace {

// The [start, end) rows and columns of each bin of a box, clamped to the map.
struct BinWindows {
  std::vector<int64_t> h_start, h_end, w_start, w_end;  // per pooled row / column
  bool finite = true;                                   // false: a corner of the box is not finite
};

// Paddle's roi_pool windows: corners rounded to whole pixels, the box at least 1 x 1, bin bounds
// floor(i * bin) and ceil((i + 1) * bin) computed in float.
template <typename T>
BinWindows RoiPoolWindows(const RoiPoolingShape& s, const T* box) {
  const T scale = static_cast<T>(s.spatial_scale);
  BinWindows w;
  w.finite = FiniteBox(box, scale);
  if (!w.finite) return w;
  const int64_t x1 = ClampedInt(std::round(double(box[0] * scale)));
  const int64_t y1 = ClampedInt(std::round(double(box[1] * scale)));
  const int64_t x2 = ClampedInt(std::round(double(box[2] * scale)));
  const int64_t y2 = ClampedInt(std::round(double(box[3] * scale)));
  const float bin_h =
      static_cast<float>(std::max<int64_t>(y2 - y1 + 1, 1)) / static_cast<float>(s.pooled_height);
  const float bin_w =
      static_cast<float>(std::max<int64_t>(x2 - x1 + 1, 1)) / static_cast<float>(s.pooled_width);
  auto bound = [](float v, int64_t origin, int64_t size) {
    return std::clamp(ClampedInt(std::floor(double(v))) + origin, int64_t{0}, size);
  };
  auto upper = [](float v, int64_t origin, int64_t size) {
    return std::clamp(ClampedInt(std::ceil(double(v))) + origin, int64_t{0}, size);
  };
  for (int64_t i = 0; i < s.pooled_height; ++i) {
    w.h_start.push_back(bound(static_cast<float>(i) * bin_h, y1, s.height));
    w.h_end.push_back(upper(static_cast<float>(i + 1) * bin_h, y1, s.height));
  }
  for (int64_t i = 0; i < s.pooled_width; ++i) {
    w.w_start.push_back(bound(static_cast<float>(i) * bin_w, x1, s.width));
    w.w_end.push_back(upper(static_cast<float>(i + 1) * bin_w, x1, s.width));
  }
  return w;
}

// Paddle's psroi_pool windows: corners rounded, the far ones one pixel further, then scaled; the
// box at least 0.1 x 0.1; bin bounds floor(i * bin + start) and ceil((i + 1) * bin + start),
// computed in T.
template <typename T>
BinWindows PsroiPoolWindows(const RoiPoolingShape& s, const T* box) {
  const T scale = static_cast<T>(s.spatial_scale);
  BinWindows w;
  w.finite = FiniteBox(box, scale);
  if (!w.finite) return w;
  const T x1 = static_cast<T>(std::round(box[0])) * scale;
  const T y1 = static_cast<T>(std::round(box[1])) * scale;
  const T x2 = static_cast<T>(std::round(box[2]) + T(1)) * scale;
  const T y2 = static_cast<T>(std::round(box[3]) + T(1)) * scale;
  const T bin_h = std::max(y2 - y1, T(0.1)) / static_cast<T>(s.pooled_height);
  const T bin_w = std::max(x2 - x1, T(0.1)) / static_cast<T>(s.pooled_width);
  auto bound = [](T v, int64_t size) {
    return std::clamp(ClampedInt(std::floor(double(v))), int64_t{0}, size);
  };
  auto upper = [](T v, int64_t size) {
    return std::clamp(ClampedInt(std::ceil(double(v))), int64_t{0}, size);
  };
  for (int64_t i = 0; i < s.pooled_height; ++i) {
    w.h_start.push_back(bound(static_cast<T>(i) * bin_h + y1, s.height));
    w.h_end.push_back(upper(static_cast<T>(i + 1) * bin_h + y1, s.height));
  }
  for (int64_t i = 0; i < s.pooled_width; ++i) {
    w.w_start.push_back(bound(static_cast<T>(i) * bin_w + x1, s.width));
    w.w_end.push_back(upper(static_cast<T>(i + 1) * bin_w + x1, s.width));
  }
  return w;
}

}  // namespace

template <typename T>
void RoiPoolForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                    T* out, int64_t* arg_max) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  ForBoxChannels(
      s.num_rois, s.channels, plane, [&](int64_t r) { return RoiPoolWindows(s, boxes + 4 * r); },
      [&](const BinWindows& w, int64_t r, int64_t c_begin, int64_t c_end) {
        T* roi_out = out + r * s.channels * bins;
        int64_t* roi_arg = arg_max + r * s.channels * bins;
        if (!w.finite) {
          FillNaN(roi_out + c_begin * bins, (c_end - c_begin) * bins);
          std::fill(roi_arg + c_begin * bins, roi_arg + c_end * bins, int64_t{-1});
          return;
        }
        const T* images = x + image[r] * s.channels * plane;
        for (int64_t c = c_begin; c < c_end; ++c) {
          const T* in = images + c * plane;
          for (int64_t ph = 0; ph < s.pooled_height; ++ph) {
            for (int64_t pw = 0; pw < s.pooled_width; ++pw) {
              const bool empty = w.h_end[ph] <= w.h_start[ph] || w.w_end[pw] <= w.w_start[pw];
              // Paddle's: the first strict maximum, from the lowest finite value.
              T best = empty ? T(0) : -std::numeric_limits<T>::max();
              int64_t where = -1;
              for (int64_t h = w.h_start[ph]; h < w.h_end[ph]; ++h) {
                for (int64_t v = w.w_start[pw]; v < w.w_end[pw]; ++v) {
                  if (in[h * s.width + v] > best) {
                    best = in[h * s.width + v];
                    where = h * s.width + v;
                  }
                }
              }
              roi_out[c * bins + ph * s.pooled_width + pw] = best;
              roi_arg[c * bins + ph * s.pooled_width + pw] = where;
            }
          }
        }
      });
}

template <typename T>
void RoiPoolBackward(const RoiPoolingShape& s, const int64_t* image, const int64_t* arg_max,
                     const T* out_grad, T* x_grad) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  const int64_t count = s.num_rois * s.channels * bins;
  for (int64_t i = 0; i < count; ++i) {
    PD_CHECK(arg_max[i] >= -1 && arg_max[i] < plane,
             errors::InvalidArgument("roi_pool_grad: argument 'arg_max' must hold indices in [-1, ",
                                     plane, ") (H * W of 'x'), received ", arg_max[i]));
  }
  std::fill(x_grad, x_grad + s.batch * s.channels * plane, T(0));
  ParallelFor(
      s.channels,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = 0; r < s.num_rois; ++r) {
          T* images = x_grad + image[r] * s.channels * plane;
          for (int64_t c = begin; c < end; ++c) {
            const int64_t first = (r * s.channels + c) * bins;
            for (int64_t b = 0; b < bins; ++b) {
              if (arg_max[first + b] >= 0)
                images[c * plane + arg_max[first + b]] += out_grad[first + b];
            }
          }
        }
      },
      ItemThreshold(s.num_rois * bins));
}

// ---------------------------------------------------------------- psroi_pool

template <typename T>
void PsroiPoolForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                      T* out) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  // Output channel c reads input channels c * bins + b, one per bin b.
  ForBoxChannels(
      s.num_rois, s.channels / bins, plane,
      [&](int64_t r) { return PsroiPoolWindows(s, boxes + 4 * r); },
      [&](const BinWindows& w, int64_t r, int64_t c_begin, int64_t c_end) {
        T* roi_out = out + r * s.channels;  // (channels / bins) * bins values per box
        if (!w.finite) {
          FillNaN(roi_out + c_begin * bins, (c_end - c_begin) * bins);
          return;
        }
        const T* images = x + image[r] * s.channels * plane;
        for (int64_t c = c_begin; c < c_end; ++c) {
          for (int64_t ph = 0; ph < s.pooled_height; ++ph) {
            for (int64_t pw = 0; pw < s.pooled_width; ++pw) {
              const int64_t b = ph * s.pooled_width + pw;
              const T* in = images + (c * bins + b) * plane;
              const int64_t area = (w.h_end[ph] - w.h_start[ph]) * (w.w_end[pw] - w.w_start[pw]);
              T sum = 0;
              for (int64_t h = w.h_start[ph]; h < w.h_end[ph]; ++h) {
                for (int64_t v = w.w_start[pw]; v < w.w_end[pw]; ++v) sum += in[h * s.width + v];
              }
              roi_out[c * bins + b] = area > 0 ? sum / static_cast<T>(area) : T(0);
            }
          }
        }
      });
}

template <typename T>
void PsroiPoolBackward(const RoiPoolingShape& s, const T* boxes, const int64_t* image,
                       const T* out_grad, T* x_grad) {
  const int64_t bins = s.pooled_height * s.pooled_width, plane = s.height * s.width;
  std::fill(x_grad, x_grad + s.batch * s.channels * plane, T(0));
  // Input channel i receives from output channel i / bins at bin i % bins only.
  ForChannelBoxes(
      s.num_rois, s.channels, s.num_rois * plane / bins + 1,
      [&](int64_t r) { return PsroiPoolWindows(s, boxes + 4 * r); },
      [&](const BinWindows& w, int64_t r, int64_t begin, int64_t end) {
        if (!w.finite) return;
        T* images = x_grad + image[r] * s.channels * plane;
        const T* roi_grad = out_grad + r * s.channels;
        for (int64_t i = begin; i < end; ++i) {
          const int64_t b = i % bins, ph = b / s.pooled_width, pw = b % s.pooled_width;
          const int64_t area = (w.h_end[ph] - w.h_start[ph]) * (w.w_end[pw] - w.w_start[pw]);
          if (area <= 0) continue;
          const T g = roi_grad[i] / static_cast<T>(area);
          T* in = images + i * plane;
          for (int64_t h = w.h_start[ph]; h < w.h_end[ph]; ++h) {
            for (int64_t v = w.w_start[pw]; v < w.w_end[pw]; ++v) in[h * s.width + v] += g;
          }
        }
      });
}

#define PD_INSTANTIATE_ROI_POOLING(T)                                                             \
  template void RoiAlignForward<T>(const RoiPoolingShape&, const T*, const T*, const int64_t*,    \
                                   int, bool, T*);                                                \
  template void RoiAlignBackward<T>(const RoiPoolingShape&, const T*, const int64_t*, int, bool,  \
                                    const T*, T*);                                                \
  template void RoiPoolForward<T>(const RoiPoolingShape&, const T*, const T*, const int64_t*, T*, \
                                  int64_t*);                                                      \
  template void RoiPoolBackward<T>(const RoiPoolingShape&, const int64_t*, const int64_t*,        \
                                   const T*, T*);                                                 \
  template void PsroiPoolForward<T>(const RoiPoolingShape&, const T*, const T*, const int64_t*,   \
                                    T*);                                                          \
  template void PsroiPoolBackward<T>(const RoiPoolingShape&, const T*, const int64_t*, const T*,  \
                                     T*);
PD_INSTANTIATE_ROI_POOLING(float)
PD_INSTANTIATE_ROI_POOLING(double)
#undef PD_INSTANTIATE_ROI_POOLING

}  // namespace paddle::funcs
