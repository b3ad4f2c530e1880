// Box geometry of the detection ops: iou_similarity, box_clip, box_coder and prior_box.
#include <algorithm>
#include <cmath>

#include "paddle/kernels/funcs/detection.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

template <typename T>
void IouSimilarity(const T* x, int64_t n, const T* y, int64_t m, bool normalized, T* out) {
  // Unnormalized (pixel) boxes include both border pixels.
  const T pixel = normalized ? T(0) : T(1);
  const T eps = static_cast<T>(1e-10);
  ParallelFor(n * m, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      const T* a = x + (k / m) * 4;
      const T* b = y + (k % m) * 4;
      T area_a = (a[3] - a[1] + pixel) * (a[2] - a[0] + pixel);
      T area_b = (b[3] - b[1] + pixel) * (b[2] - b[0] + pixel);
      T inter_h = std::min(a[3], b[3]) - std::max(a[1], b[1]) + pixel;
      T inter_w = std::min(a[2], b[2]) - std::max(a[0], b[0]) + pixel;
      inter_h = inter_h > T(0) ? inter_h : T(0);
      inter_w = inter_w > T(0) ? inter_w : T(0);
      T inter = inter_h * inter_w;
      out[k] = inter / (area_a + area_b - inter + eps);
    }
  });
}

template <typename T>
void ClipBoxes(const T* boxes, int64_t count, const T* im_info, T* out) {
  const T width = std::round(im_info[1] / im_info[2]);
  const T height = std::round(im_info[0] / im_info[2]);
  for (int64_t i = 0; i < count * 4; ++i) {
    const T limit = (i % 2 == 0 ? width : height) - T(1);
    out[i] = std::max(std::min(boxes[i], limit), T(0));
  }
}

namespace {

// A box as center and size; pixel boxes are one pixel wider and taller than their extent.
template <typename T>
struct CenterBox {
  T cx, cy, w, h;
};

template <typename T>
CenterBox<T> PriorCenter(const T* p, T pixel) {
  CenterBox<T> c;
  c.w = p[2] - p[0] + pixel;
  c.h = p[3] - p[1] + pixel;
  c.cx = p[0] + c.w / 2;
  c.cy = p[1] + c.h / 2;
  return c;
}

// The four variances of prior `j`: its row, the shared four, or ones.
template <typename T>
void VariancesOf(const BoxVariances<T>& v, int64_t j, T out[4]) {
  for (int k = 0; k < 4; ++k) {
    out[k] = v.per_prior ? v.per_prior[j * 4 + k] : v.shared ? static_cast<T>(v.shared[k]) : T(1);
  }
}

}  // namespace

template <typename T>
void EncodeCenterSize(const T* prior, int64_t m, const T* target, int64_t n, bool normalized,
                      const BoxVariances<T>& variances, T* out) {
  const T pixel = normalized ? T(0) : T(1);
  for (int64_t i = 0; i < n; ++i) {
    const T* t = target + i * 4;
    // Paddle takes the target's center without the pixel offset its size has.
    const T tcx = (t[2] + t[0]) / 2, tcy = (t[3] + t[1]) / 2;
    const T tw = t[2] - t[0] + pixel, th = t[3] - t[1] + pixel;
    for (int64_t j = 0; j < m; ++j) {
      const CenterBox<T> p = PriorCenter(prior + j * 4, pixel);
      T var[4];
      VariancesOf(variances, j, var);
      T* o = out + (i * m + j) * 4;
      o[0] = (tcx - p.cx) / p.w / var[0];
      o[1] = (tcy - p.cy) / p.h / var[1];
      o[2] = std::log(std::fabs(tw / p.w)) / var[2];
      o[3] = std::log(std::fabs(th / p.h)) / var[3];
    }
  }
}

template <typename T>
void DecodeCenterSize(const T* prior, const T* target, int64_t n, int64_t m, int axis,
                      bool normalized, const BoxVariances<T>& variances, T* out) {
  const T pixel = normalized ? T(0) : T(1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      const int64_t p_index = axis == 0 ? j : i;
      const CenterBox<T> p = PriorCenter(prior + p_index * 4, pixel);
      T var[4];
      VariancesOf(variances, p_index, var);
      const T* t = target + (i * m + j) * 4;
      const T cx = var[0] * t[0] * p.w + p.cx;
      const T cy = var[1] * t[1] * p.h + p.cy;
      const T w = std::exp(var[2] * t[2]) * p.w;
      const T h = std::exp(var[3] * t[3]) * p.h;
      T* o = out + (i * m + j) * 4;
      o[0] = cx - w / 2;
      o[1] = cy - h / 2;
      o[2] = cx + w / 2 - pixel;
      o[3] = cy + h / 2 - pixel;
    }
  }
}

std::vector<float> ExpandAspectRatios(const std::vector<float>& aspect_ratios, bool flip) {
  std::vector<float> expanded{1.0f};
  for (float ar : aspect_ratios) {
    bool listed = std::any_of(expanded.begin(), expanded.end(),
                              [ar](float e) { return std::fabs(ar - e) < 1e-6f; });
    if (listed) continue;
    expanded.push_back(ar);
    if (flip) expanded.push_back(1.0f / ar);
  }
  return expanded;
}

template <typename T>
void PriorBoxes(int64_t feature_h, int64_t feature_w, int64_t image_h, int64_t image_w,
                const PriorBoxAttrs& attrs, T* boxes, T* variances) {
  T step_w = static_cast<T>(attrs.step_w), step_h = static_cast<T>(attrs.step_h);
  if (attrs.step_w == 0 || attrs.step_h == 0) {
    step_w = static_cast<T>(image_w) / static_cast<T>(feature_w);
    step_h = static_cast<T>(image_h) / static_cast<T>(feature_h);
  }
  const T img_w = static_cast<T>(image_w), img_h = static_cast<T>(image_h);
  T* b = boxes;
  for (int64_t row = 0; row < feature_h; ++row) {
    for (int64_t col = 0; col < feature_w; ++col) {
      const T cx = (static_cast<T>(col) + attrs.offset) * step_w;
      const T cy = (static_cast<T>(row) + attrs.offset) * step_h;
      auto emit = [&](T half_w, T half_h) {
        b[0] = (cx - half_w) / img_w;
        b[1] = (cy - half_h) / img_h;
        b[2] = (cx + half_w) / img_w;
        b[3] = (cy + half_h) / img_h;
        b += 4;
      };
      for (size_t s = 0; s < attrs.min_sizes.size(); ++s) {
        const T min_size = attrs.min_sizes[s];
        auto emit_ratio = [&](float ar) {
          const T root = std::sqrt(static_cast<T>(ar));
          emit(min_size * root / 2, min_size / root / 2);
        };
        auto emit_max = [&]() {
          if (attrs.max_sizes.empty()) return;
          const T half = std::sqrt(min_size * static_cast<T>(attrs.max_sizes[s])) / 2;
          emit(half, half);
        };
        if (attrs.min_max_aspect_ratios_order) {  // Caffe's order: min, max, then the others
          emit(min_size / 2, min_size / 2);
          emit_max();
          for (float ar : attrs.aspect_ratios) {
            if (std::fabs(ar - 1.0f) >= 1e-6f) emit_ratio(ar);
          }
        } else {
          for (float ar : attrs.aspect_ratios) emit_ratio(ar);
          emit_max();
        }
      }
    }
  }
  const int64_t count = b - boxes;
  if (attrs.clip) {
    for (int64_t i = 0; i < count; ++i) boxes[i] = std::min(std::max(boxes[i], T(0)), T(1));
  }
  for (int64_t i = 0; i < count; ++i) variances[i] = static_cast<T>(attrs.variances[i % 4]);
}

#define PD_INSTANTIATE_BOX_FUNCS(T)                                                  \
  template void IouSimilarity<T>(const T*, int64_t, const T*, int64_t, bool, T*);    \
  template void ClipBoxes<T>(const T*, int64_t, const T*, T*);                       \
  template void EncodeCenterSize<T>(const T*, int64_t, const T*, int64_t, bool,      \
                                    const BoxVariances<T>&, T*);                     \
  template void DecodeCenterSize<T>(const T*, const T*, int64_t, int64_t, int, bool, \
                                    const BoxVariances<T>&, T*);                     \
  template void PriorBoxes<T>(int64_t, int64_t, int64_t, int64_t, const PriorBoxAttrs&, T*, T*);
PD_INSTANTIATE_BOX_FUNCS(float)
PD_INSTANTIATE_BOX_FUNCS(double)
#undef PD_INSTANTIATE_BOX_FUNCS

}  // namespace paddle::funcs
