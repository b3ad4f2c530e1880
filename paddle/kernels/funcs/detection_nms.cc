// Non-maximum suppression (nms, multiclass_nms3, matrix_nms) and region proposals
// (distribute_fpn_proposals, generate_proposals). Scores are sorted with stable sorts, so equal
// scores keep the order of their boxes (Paddle leaves it to std::sort or partial_sort), and NaN
// scores, which Paddle's comparisons cannot order, sort last.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "paddle/kernels/funcs/detection.h"

namespace paddle::funcs {

namespace {

// A score as a sort key: NaN below everything, so the order is strict and weak.
template <typename T>
T SortKey(T score) {
  return std::isnan(score) ? -std::numeric_limits<T>::infinity() : score;
}

// The area of a box, 0 when inverted; pixel boxes include both border pixels.
template <typename T>
T BoxArea(const T* box, bool normalized) {
  if (box[2] < box[0] || box[3] < box[1]) return T(0);
  const T w = box[2] - box[0], h = box[3] - box[1];
  return normalized ? w * h : (w + 1) * (h + 1);
}

// Paddle's JaccardOverlap: 0 for disjoint boxes, else the IoU with pixel borders when
// unnormalized.
template <typename T>
T Jaccard(const T* a, const T* b, bool normalized) {
  if (b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1]) return T(0);
  const T pixel = normalized ? T(0) : T(1);
  const T inter_w = std::min(a[2], b[2]) - std::max(a[0], b[0]) + pixel;
  const T inter_h = std::min(a[3], b[3]) - std::max(a[1], b[1]) + pixel;
  const T inter = inter_w * inter_h;
  return inter / (BoxArea(a, normalized) + BoxArea(b, normalized) - inter);
}

// Greedy NMS over candidates in order: each is kept unless its overlap with a kept one exceeds
// the threshold, which shrinks by eta after each kept box while above 0.5 (adaptive NMS).
template <typename T, typename BoxOf>
std::vector<int64_t> AdaptiveNms(const std::vector<int64_t>& candidates, BoxOf box_of, T threshold,
                                 T eta, bool normalized) {
  std::vector<int64_t> kept;
  for (int64_t candidate : candidates) {
    const T* box = box_of(candidate);
    bool keep = true;
    for (int64_t k : kept) {
      if (!(Jaccard(box, box_of(k), normalized) <= threshold)) {
        keep = false;
        break;
      }
    }
    if (!keep) continue;
    kept.push_back(candidate);
    if (eta < 1 && threshold > T(0.5)) threshold *= eta;
  }
  return kept;
}

// The indices [0, count) whose score is above the threshold, by decreasing score, at most top_k
// of them (top_k < 0: all).
template <typename T, typename ScoreOf>
std::vector<int64_t> BestAbove(int64_t count, ScoreOf score_of, T threshold, int64_t top_k) {
  std::vector<int64_t> indices;
  for (int64_t m = 0; m < count; ++m) {
    if (score_of(m) > threshold) indices.push_back(m);
  }
  std::stable_sort(indices.begin(), indices.end(),
                   [&](int64_t a, int64_t b) { return score_of(a) > score_of(b); });
  if (top_k > -1 && top_k < static_cast<int64_t>(indices.size())) indices.resize(top_k);
  return indices;
}

}  // namespace

template <typename T>
std::vector<int64_t> GreedyNms(const T* boxes, int64_t n, float threshold) {
  std::vector<char> suppressed(n, 0);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < n; ++i) {
    if (suppressed[i]) continue;
    kept.push_back(i);
    const T* a = boxes + i * 4;
    const T area_a = (a[2] - a[0]) * (a[3] - a[1]);
    for (int64_t j = i + 1; j < n; ++j) {
      if (suppressed[j]) continue;
      const T* b = boxes + j * 4;
      const T inter_w = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), T(0));
      const T inter_h = std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), T(0));
      const T inter = inter_w * inter_h;
      const T area_b = (b[2] - b[0]) * (b[3] - b[1]);
      if (inter / (area_a + area_b - inter) > threshold) suppressed[j] = 1;
    }
  }
  return kept;
}

template <typename T>
void MultiClassNms(const NmsImage<T>& image, const MultiClassNmsAttrs& attrs, bool sorted_per_class,
                   std::vector<T>* rows, std::vector<std::pair<int64_t, int64_t>>* kept) {
  auto score = [&](int64_t c, int64_t m) {
    return image.scores[c * image.score_class_stride + m * image.score_stride];
  };
  auto box = [&](int64_t c, int64_t m) {
    return image.boxes + c * image.box_class_stride + m * image.box_stride;
  };
  std::map<int64_t, std::vector<int64_t>> selected;  // class -> boxes, classes in order
  int64_t total = 0;
  for (int64_t c = 0; c < image.num_classes; ++c) {
    if (c == attrs.background_label) continue;
    std::vector<int64_t> candidates = BestAbove(
        image.num_boxes, [&](int64_t m) { return score(c, m); },
        static_cast<T>(attrs.score_threshold), attrs.nms_top_k);
    std::vector<int64_t> boxes = AdaptiveNms(
        candidates, [&](int64_t m) { return box(c, m); }, static_cast<T>(attrs.nms_threshold),
        static_cast<T>(attrs.nms_eta), attrs.normalized);
    if (sorted_per_class) std::sort(boxes.begin(), boxes.end());
    total += static_cast<int64_t>(boxes.size());
    selected[c] = std::move(boxes);
  }
  if (attrs.keep_top_k > -1 && total > attrs.keep_top_k) {
    std::vector<std::pair<int64_t, int64_t>> all;
    for (const auto& [c, boxes] : selected) {
      for (int64_t m : boxes) all.emplace_back(c, m);
    }
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
      return score(a.first, a.second) > score(b.first, b.second);
    });
    all.resize(attrs.keep_top_k);
    selected.clear();
    for (const auto& [c, m] : all) selected[c].push_back(m);
    if (sorted_per_class) {
      for (auto& entry : selected) std::sort(entry.second.begin(), entry.second.end());
    }
  }
  for (const auto& [c, boxes] : selected) {
    for (int64_t m : boxes) {
      rows->push_back(static_cast<T>(c));
      rows->push_back(score(c, m));
      rows->insert(rows->end(), box(c, m), box(c, m) + 4);
      kept->emplace_back(c, m);
    }
  }
}

template <typename T>
void MatrixNms(const T* scores, const T* boxes, int64_t num_classes, int64_t m,
               const MatrixNmsAttrs& attrs, std::vector<T>* rows,
               std::vector<int64_t>* boxes_kept) {
  struct Detection {
    int64_t box, label;
    T score;
  };
  std::vector<Detection> detections;
  const T sigma = static_cast<T>(attrs.gaussian_sigma);
  const T post_threshold = static_cast<T>(attrs.post_threshold);
  for (int64_t c = 0; c < num_classes; ++c) {
    if (c == attrs.background_label) continue;
    const T* s = scores + c * m;
    std::vector<int64_t> order = BestAbove(
        m, [&](int64_t k) { return s[k]; }, static_cast<T>(attrs.score_threshold), attrs.nms_top_k);
    const int64_t count = static_cast<int64_t>(order.size());
    if (count == 0) continue;
    // iou[i][j] (j < i) of the candidates by decreasing score; max_iou[i] is the largest overlap
    // of candidate i with a better one.
    std::vector<T> iou(count * count, T(0)), max_iou(count, T(0));
    for (int64_t i = 1; i < count; ++i) {
      for (int64_t j = 0; j < i; ++j) {
        const T v = Jaccard(boxes + order[i] * 4, boxes + order[j] * 4, attrs.normalized);
        iou[i * count + j] = v;
        max_iou[i] = std::max(max_iou[i], v);
      }
    }
    if (s[order[0]] > post_threshold) detections.push_back({order[0], c, s[order[0]]});
    for (int64_t i = 1; i < count; ++i) {
      // Each better box decays the score by how much more this box overlaps it than that box
      // overlaps the boxes better than itself.
      T min_decay = 1;
      for (int64_t j = 0; j < i; ++j) {
        const T v = iou[i * count + j];
        const T decay = attrs.use_gaussian ? std::exp((max_iou[j] * max_iou[j] - v * v) * sigma)
                                           : (T(1) - v) / (T(1) - max_iou[j]);
        if (decay < min_decay) min_decay = decay;
      }
      const T decayed = min_decay * s[order[i]];
      if (decayed > post_threshold) detections.push_back({order[i], c, decayed});
    }
  }
  std::stable_sort(detections.begin(), detections.end(),
                   [](const Detection& a, const Detection& b) { return a.score > b.score; });
  if (attrs.keep_top_k > -1 && static_cast<int64_t>(detections.size()) > attrs.keep_top_k) {
    detections.resize(attrs.keep_top_k);
  }
  for (const Detection& d : detections) {
    rows->push_back(static_cast<T>(d.label));
    rows->push_back(d.score);
    rows->insert(rows->end(), boxes + d.box * 4, boxes + d.box * 4 + 4);
    boxes_kept->push_back(d.box);
  }
}

template <typename T>
std::vector<int64_t> FpnLevels(const T* rois, int64_t count, const FpnLevelAttrs& attrs) {
  std::vector<int64_t> levels(count);
  for (int64_t i = 0; i < count; ++i) {
    const T scale = std::sqrt(BoxArea(rois + i * 4, !attrs.pixel_offset));
    const T level =
        std::floor(std::log2(scale / static_cast<T>(attrs.refer_scale) + static_cast<T>(1e-6)) +
                   static_cast<T>(attrs.refer_level));
    // Clamped before the conversion, which is undefined outside int64's range and for NaN.
    levels[i] = std::isnan(level)
                    ? attrs.min_level
                    : static_cast<int64_t>(std::clamp<T>(level, static_cast<T>(attrs.min_level),
                                                         static_cast<T>(attrs.max_level)));
  }
  return levels;
}

template <typename T>
void ProposalsForImage(const T* scores, const T* bbox_deltas, const T* anchors, const T* variances,
                       int64_t num_anchors, int64_t h, int64_t w, const T* im_shape,
                       const ProposalAttrs& attrs, std::vector<T>* rois, std::vector<T>* probs) {
  const int64_t count = num_anchors * h * w;
  const int64_t plane = h * w;
  // Anchor k = (row * w + col) * A + a, as the anchors tensor [H, W, A, 4] lists them.
  auto score_of = [&](int64_t k) { return scores[(k % num_anchors) * plane + k / num_anchors]; };
  auto delta_of = [&](int64_t k, int64_t j) {
    return bbox_deltas[(4 * (k % num_anchors) + j) * plane + k / num_anchors];
  };
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return SortKey(score_of(a)) > SortKey(score_of(b));
  });
  if (attrs.pre_nms_top_n > 0 && attrs.pre_nms_top_n < count) order.resize(attrs.pre_nms_top_n);

  // Decode (log-size deltas capped at log(1000 / 16)), clip to the image, drop small boxes.
  const T offset = attrs.pixel_offset ? T(1) : T(0);
  const T clip_default = static_cast<T>(std::log(1000.0 / 16.0));
  const T im_h = im_shape[0], im_w = im_shape[1];
  const T min_size = std::max(static_cast<T>(attrs.min_size), T(1));
  std::vector<T> boxes;
  std::vector<T> box_scores;
  for (int64_t k : order) {
    const T* anchor = anchors + k * 4;
    const T* var = variances + k * 4;
    const T aw = anchor[2] - anchor[0] + offset, ah = anchor[3] - anchor[1] + offset;
    const T acx = anchor[0] + T(0.5) * aw, acy = anchor[1] + T(0.5) * ah;
    const T cx = var[0] * delta_of(k, 0) * aw + acx;
    const T cy = var[1] * delta_of(k, 1) * ah + acy;
    const T bw = std::exp(std::min(var[2] * delta_of(k, 2), clip_default)) * aw;
    const T bh = std::exp(std::min(var[3] * delta_of(k, 3), clip_default)) * ah;
    T box[4] = {cx - bw / 2, cy - bh / 2, cx + bw / 2 - offset, cy + bh / 2 - offset};
    for (int j = 0; j < 4; ++j) {
      box[j] = std::max(std::min(box[j], (j % 2 == 0 ? im_w : im_h) - offset), T(0));
    }
    const T ws = box[2] - box[0] + offset, hs = box[3] - box[1] + offset;
    bool keep = ws >= min_size && hs >= min_size;
    if (attrs.pixel_offset) keep = keep && box[0] + ws / 2 <= im_w && box[1] + hs / 2 <= im_h;
    if (!keep) continue;
    boxes.insert(boxes.end(), box, box + 4);
    box_scores.push_back(score_of(k));
  }
  const int64_t left = static_cast<int64_t>(box_scores.size());
  if (left == 0) {  // Paddle's placeholder: one zero box scoring 0
    rois->insert(rois->end(), 4, T(0));
    probs->push_back(T(0));
    return;
  }
  std::vector<int64_t> kept(left);
  std::iota(kept.begin(), kept.end(), 0);
  if (attrs.nms_thresh > 0) {
    // Paddle visits equal scores from the last box back.
    std::vector<int64_t> by_score(kept.rbegin(), kept.rend());
    std::stable_sort(by_score.begin(), by_score.end(), [&](int64_t a, int64_t b) {
      return SortKey(box_scores[a]) > SortKey(box_scores[b]);
    });
    kept = AdaptiveNms(
        by_score, [&](int64_t i) { return boxes.data() + i * 4; }, static_cast<T>(attrs.nms_thresh),
        static_cast<T>(attrs.eta), !attrs.pixel_offset);
    if (attrs.post_nms_top_n > 0 && attrs.post_nms_top_n < static_cast<int64_t>(kept.size())) {
      kept.resize(attrs.post_nms_top_n);
    }
  }
  for (int64_t i : kept) {
    rois->insert(rois->end(), boxes.begin() + i * 4, boxes.begin() + i * 4 + 4);
    probs->push_back(box_scores[i]);
  }
}

#define PD_INSTANTIATE_NMS_FUNCS(T)                                                            \
  template std::vector<int64_t> GreedyNms<T>(const T*, int64_t, float);                        \
  template void MultiClassNms<T>(const NmsImage<T>&, const MultiClassNmsAttrs&, bool,          \
                                 std::vector<T>*, std::vector<std::pair<int64_t, int64_t>>*);  \
  template void MatrixNms<T>(const T*, const T*, int64_t, int64_t, const MatrixNmsAttrs&,      \
                             std::vector<T>*, std::vector<int64_t>*);                          \
  template std::vector<int64_t> FpnLevels<T>(const T*, int64_t, const FpnLevelAttrs&);         \
  template void ProposalsForImage<T>(const T*, const T*, const T*, const T*, int64_t, int64_t, \
                                     int64_t, const T*, const ProposalAttrs&, std::vector<T>*, \
                                     std::vector<T>*);
PD_INSTANTIATE_NMS_FUNCS(float)
PD_INSTANTIATE_NMS_FUNCS(double)
#undef PD_INSTANTIATE_NMS_FUNCS

}  // namespace paddle::funcs
