// YOLOv3 heads: yolo_box (decoding) and yolo_loss with its gradient. A head x [N, C, H, W] holds,
// for each of its anchors a, 5 + class_num channels (t_x, t_y, t_w, t_h, objectness, classes),
// anchor a's starting at channel a * (5 + class_num); yolo_box's iou_aware heads put one IoU
// channel per anchor in front of them.
#include <algorithm>
#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/detection.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

namespace {

template <typename T>
T Sigmoid(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

// The sigmoid cross entropy of logit x against the target probability `label`, in the form that
// does not overflow.
template <typename T>
T SigmoidCrossEntropy(T x, T label) {
  return (x > 0 ? x : T(0)) - x * label + std::log(T(1) + std::exp(-std::fabs(x)));
}

template <typename T>
T SigmoidCrossEntropyGrad(T x, T label) {
  return Sigmoid(x) - label;
}

// The sign of x - target, -1 where they are equal (Paddle's subgradient of |x - target|).
template <typename T>
T L1Grad(T x, T target) {
  return x > target ? T(1) : T(-1);
}

// A box as center and size, in units of the input image.
template <typename T>
struct Box {
  T x, y, w, h;
};

// The length of the overlap of two intervals given as center and width (negative when apart).
template <typename T>
T Overlap(T c1, T w1, T c2, T w2) {
  const T left = std::max(c1 - w1 / 2, c2 - w2 / 2);
  const T right = std::min(c1 + w1 / 2, c2 + w2 / 2);
  return right - left;
}

template <typename T>
T CenterBoxIou(const Box<T>& a, const Box<T>& b) {
  const T w = Overlap(a.x, a.w, b.x, b.w);
  const T h = Overlap(a.y, a.h, b.y, b.h);
  const T inter = (w < 0 || h < 0) ? T(0) : w * h;
  return inter / (a.w * a.h + b.w * b.h - inter);
}

// The layout of a yolo_loss head: anchor slot j's entry e at cell `cell` of image i.
struct LossLayout {
  int64_t slots, h, class_num;
  int64_t stride() const { return h * h; }
  int64_t slot_stride() const { return (class_num + 5) * stride(); }
  int64_t Entry(int64_t i, int64_t j, int64_t cell, int64_t e) const {
    return (i * slots + j) * slot_stride() + e * stride() + cell;
  }
};

// The label targets: 1 and 0, or smoothed by min(1 / class_num, 1 / 40).
template <typename T>
std::pair<T, T> LabelTargets(const YoloLossAttrs& attrs) {
  if (!attrs.use_label_smooth) return {T(1), T(0)};
  const T smooth = std::min(T(1) / static_cast<T>(attrs.class_num), T(1) / T(40));
  return {T(1) - smooth, smooth};
}

// A ground truth box takes part when its width and height are at least 1e-6.
template <typename T>
bool ValidGroundTruth(const T* gt) {
  return gt[2] >= T(1e-6) && gt[3] >= T(1e-6);
}

// The grid cell of a center coordinate in [0, 1). Paddle reads outside the grid for centers
// outside that range; they take the border cell here.
template <typename T>
int64_t CellOf(T coordinate, int64_t size) {
  const T scaled = coordinate * static_cast<T>(size);
  if (!(scaled >= T(0))) return 0;
  if (scaled >= static_cast<T>(size)) return size - 1;
  return static_cast<int64_t>(scaled);
}

// The anchor (of all anchors) whose box, centered on the ground truth's, overlaps it most.
template <typename T>
int64_t BestAnchor(const Box<T>& gt, const YoloLossAttrs& attrs, T input_size) {
  const Box<T> centered{T(0), T(0), gt.w, gt.h};
  T best_iou = 0;
  int64_t best = 0;
  const int64_t anchors = static_cast<int64_t>(attrs.anchors.size() / 2);
  for (int64_t a = 0; a < anchors; ++a) {
    const Box<T> anchor{T(0), T(0), attrs.anchors[2 * a] / input_size,
                        attrs.anchors[2 * a + 1] / input_size};
    const T iou = CenterBoxIou(anchor, centered);
    if (iou > best_iou) {
      best_iou = iou;
      best = a;
    }
  }
  return best;
}

// The slot of `anchor` in anchor_mask, or -1.
int64_t MaskSlot(const std::vector<int32_t>& anchor_mask, int64_t anchor) {
  for (size_t j = 0; j < anchor_mask.size(); ++j) {
    if (anchor_mask[j] == anchor) return static_cast<int64_t>(j);
  }
  return -1;
}

// What a matched ground truth asks of its cell: the box targets and the weight of its terms.
template <typename T>
struct BoxTargets {
  T tx, ty, tw, th, weight;
};

template <typename T>
BoxTargets<T> TargetsOf(const Box<T>& gt, int64_t gi, int64_t gj, int64_t h, int64_t anchor,
                        const YoloLossAttrs& attrs, T input_size, T score) {
  BoxTargets<T> t;
  t.tx = gt.x * static_cast<T>(h) - static_cast<T>(gi);
  t.ty = gt.y * static_cast<T>(h) - static_cast<T>(gj);
  t.tw = std::log(gt.w * input_size / static_cast<T>(attrs.anchors[2 * anchor]));
  t.th = std::log(gt.h * input_size / static_cast<T>(attrs.anchors[2 * anchor + 1]));
  // Small boxes weigh more.
  t.weight = (T(2) - gt.w * gt.h) * score;
  return t;
}

template <typename T>
Box<T> GroundTruth(const T* gt_box, int64_t index) {
  const T* g = gt_box + index * 4;
  return {g[0], g[1], g[2], g[3]};
}

}  // namespace

template <typename T>
void YoloBox(const T* x, const int32_t* img_size, int64_t n, int64_t h, int64_t w,
             const YoloBoxAttrs& attrs, T* boxes, T* scores) {
  const int64_t anchors = static_cast<int64_t>(attrs.anchors.size() / 2);
  const int64_t stride = h * w;
  const int64_t anchor_stride = (attrs.class_num + 5) * stride;
  // An iou_aware head has `anchors` IoU channels in front of the anchors' entries.
  const int64_t image_stride = anchors * anchor_stride + (attrs.iou_aware ? anchors * stride : 0);
  const int64_t entries_start = attrs.iou_aware ? anchors * stride : 0;
  const int64_t box_num = anchors * stride;
  const T input_h = static_cast<T>(attrs.downsample_ratio * h);
  const T input_w = static_cast<T>(attrs.downsample_ratio * w);
  const T scale = attrs.scale_x_y;
  const T bias = T(-0.5) * (scale - T(1));
  std::fill(boxes, boxes + n * box_num * 4, T(0));
  std::fill(scores, scores + n * box_num * attrs.class_num, T(0));
  ParallelFor(
      n * anchors,
      [&](int64_t begin, int64_t end) {
        for (int64_t ia = begin; ia < end; ++ia) {
          const int64_t i = ia / anchors, a = ia % anchors;
          const T img_h = static_cast<T>(img_size[2 * i]);
          const T img_w = static_cast<T>(img_size[2 * i + 1]);
          const T* entries = x + i * image_stride + entries_start + a * anchor_stride;
          const T* ious = x + i * image_stride + a * stride;
          for (int64_t cell = 0; cell < stride; ++cell) {
            const int64_t row = cell / w, col = cell % w;
            T conf = Sigmoid(entries[4 * stride + cell]);
            if (attrs.iou_aware) {
              const T factor = attrs.iou_aware_factor;
              conf = std::pow(conf, T(1) - factor) * std::pow(Sigmoid(ious[cell]), factor);
            }
            if (conf < attrs.conf_thresh) continue;
            const T cx = (static_cast<T>(col) + Sigmoid(entries[cell]) * scale + bias) * img_w /
                         static_cast<T>(w);
            const T cy = (static_cast<T>(row) + Sigmoid(entries[stride + cell]) * scale + bias) *
                         img_h / static_cast<T>(h);
            const T bw =
                std::exp(entries[2 * stride + cell]) * attrs.anchors[2 * a] * img_w / input_w;
            const T bh =
                std::exp(entries[3 * stride + cell]) * attrs.anchors[2 * a + 1] * img_h / input_h;
            const int64_t k = i * box_num + a * stride + cell;
            T* box = boxes + k * 4;
            box[0] = cx - bw / 2;
            box[1] = cy - bh / 2;
            box[2] = cx + bw / 2;
            box[3] = cy + bh / 2;
            if (attrs.clip_bbox) {
              box[0] = box[0] > 0 ? box[0] : T(0);
              box[1] = box[1] > 0 ? box[1] : T(0);
              box[2] = box[2] < img_w - 1 ? box[2] : img_w - 1;
              box[3] = box[3] < img_h - 1 ? box[3] : img_h - 1;
            }
            T* score = scores + k * attrs.class_num;
            for (int64_t c = 0; c < attrs.class_num; ++c) {
              score[c] = conf * Sigmoid(entries[(5 + c) * stride + cell]);
            }
          }
        }
      },
      64);
}

template <typename T>
void YoloLoss(const T* x, const T* gt_box, const int32_t* gt_label, const T* gt_score, int64_t n,
              int64_t h, int64_t b, const YoloLossAttrs& attrs, T* loss, T* objectness_mask,
              int32_t* gt_match_mask) {
  const LossLayout layout{static_cast<int64_t>(attrs.anchor_mask.size()), h, attrs.class_num};
  const int64_t stride = layout.stride();
  const T input_size = static_cast<T>(attrs.downsample_ratio * h);
  const T scale = attrs.scale_x_y;
  const T bias = T(-0.5) * (scale - T(1));
  const auto [label_pos, label_neg] = LabelTargets<T>(attrs);
  std::fill(objectness_mask, objectness_mask + n * layout.slots * stride, T(0));
  for (int64_t i = 0; i < n; ++i) {
    T total = 0;
    T* obj_mask = objectness_mask + i * layout.slots * stride;
    // Predictions overlapping some ground truth by more than ignore_thresh are not negatives.
    for (int64_t j = 0; j < layout.slots; ++j) {
      const int64_t anchor = attrs.anchor_mask[j];
      for (int64_t cell = 0; cell < stride; ++cell) {
        const int64_t e = layout.Entry(i, j, cell, 0);
        const Box<T> pred{
            (static_cast<T>(cell % h) + Sigmoid(x[e]) * scale + bias) / static_cast<T>(h),
            (static_cast<T>(cell / h) + Sigmoid(x[e + stride]) * scale + bias) / static_cast<T>(h),
            std::exp(x[e + 2 * stride]) * attrs.anchors[2 * anchor] / input_size,
            std::exp(x[e + 3 * stride]) * attrs.anchors[2 * anchor + 1] / input_size};
        T best_iou = 0;
        for (int64_t t = 0; t < b; ++t) {
          if (!ValidGroundTruth(gt_box + (i * b + t) * 4)) continue;
          best_iou = std::max(best_iou, CenterBoxIou(pred, GroundTruth(gt_box, i * b + t)));
        }
        if (best_iou > attrs.ignore_thresh) obj_mask[j * stride + cell] = T(-1);
      }
    }
    // Each ground truth is matched to its best anchor, if that anchor is one of this head's.
    for (int64_t t = 0; t < b; ++t) {
      const int64_t g = i * b + t;
      if (!ValidGroundTruth(gt_box + g * 4)) {
        gt_match_mask[g] = -1;
        continue;
      }
      const Box<T> gt = GroundTruth(gt_box, g);
      const int64_t anchor = BestAnchor(gt, attrs, input_size);
      // An empty grid has no cell to match.
      const int64_t slot = h == 0 ? -1 : MaskSlot(attrs.anchor_mask, anchor);
      gt_match_mask[g] = static_cast<int32_t>(slot);
      if (slot < 0) continue;
      const int64_t gi = CellOf(gt.x, h), gj = CellOf(gt.y, h);
      const int64_t cell = gj * h + gi;
      const T score = gt_score ? gt_score[g] : T(1);
      const BoxTargets<T> tg = TargetsOf(gt, gi, gj, h, anchor, attrs, input_size, score);
      const int64_t e = layout.Entry(i, slot, cell, 0);
      total += (SigmoidCrossEntropy(x[e], tg.tx) + SigmoidCrossEntropy(x[e + stride], tg.ty) +
                std::fabs(tg.tw - x[e + 2 * stride]) + std::fabs(tg.th - x[e + 3 * stride])) *
               tg.weight;
      obj_mask[slot * stride + cell] = score;
      const int64_t label = gt_label[g];
      for (int64_t c = 0; c < attrs.class_num; ++c) {
        total += SigmoidCrossEntropy(x[e + (5 + c) * stride], c == label ? label_pos : label_neg) *
                 score;
      }
    }
    // Objectness: positives weighted by their score, negatives by 1, ignored ones (-1) not.
    for (int64_t j = 0; j < layout.slots; ++j) {
      for (int64_t cell = 0; cell < stride; ++cell) {
        const T obj = obj_mask[j * stride + cell];
        const T logit = x[layout.Entry(i, j, cell, 4)];
        if (obj > T(1e-5)) {
          total += SigmoidCrossEntropy(logit, T(1)) * obj;
        } else if (obj > T(-0.5)) {
          total += SigmoidCrossEntropy(logit, T(0));
        }
      }
    }
    loss[i] = total;
  }
}

template <typename T>
void YoloLossGrad(const T* x, const T* gt_box, const int32_t* gt_label, const T* gt_score,
                  const T* objectness_mask, const int32_t* gt_match_mask, const T* loss_grad,
                  int64_t n, int64_t h, int64_t b, const YoloLossAttrs& attrs, T* x_grad) {
  const LossLayout layout{static_cast<int64_t>(attrs.anchor_mask.size()), h, attrs.class_num};
  const int64_t stride = layout.stride();
  const T input_size = static_cast<T>(attrs.downsample_ratio * h);
  const auto [label_pos, label_neg] = LabelTargets<T>(attrs);
  std::fill(x_grad, x_grad + n * layout.slots * layout.slot_stride(), T(0));
  for (int64_t i = 0; i < n; ++i) {
    const T dloss = loss_grad[i];
    for (int64_t t = 0; t < b; ++t) {
      const int64_t g = i * b + t;
      const int64_t slot = gt_match_mask[g];
      if (slot < 0) continue;
      PD_CHECK(slot < layout.slots && h > 0,
               errors::InvalidArgument("yolo_loss_grad: argument 'gt_match_mask' holds ", slot,
                                       ", but there are ", layout.slots, " anchor_mask slots and ",
                                       h * h, " cells"));
      const Box<T> gt = GroundTruth(gt_box, g);
      const int64_t anchor = attrs.anchor_mask[slot];
      const int64_t gi = CellOf(gt.x, h), gj = CellOf(gt.y, h);
      const T score = gt_score ? gt_score[g] : T(1);
      const BoxTargets<T> tg = TargetsOf(gt, gi, gj, h, anchor, attrs, input_size, score);
      const int64_t e = layout.Entry(i, slot, gj * h + gi, 0);
      // Accumulated: ground truths sharing a cell and anchor each add their terms, as in the
      // forward sum (Paddle's kernel keeps only the last one's).
      const T box_scale = tg.weight * dloss;
      x_grad[e] += SigmoidCrossEntropyGrad(x[e], tg.tx) * box_scale;
      x_grad[e + stride] += SigmoidCrossEntropyGrad(x[e + stride], tg.ty) * box_scale;
      x_grad[e + 2 * stride] += L1Grad(x[e + 2 * stride], tg.tw) * box_scale;
      x_grad[e + 3 * stride] += L1Grad(x[e + 3 * stride], tg.th) * box_scale;
      const int64_t label = gt_label[g];
      for (int64_t c = 0; c < attrs.class_num; ++c) {
        const int64_t k = e + (5 + c) * stride;
        x_grad[k] +=
            SigmoidCrossEntropyGrad(x[k], c == label ? label_pos : label_neg) * score * dloss;
      }
    }
    const T* obj_mask = objectness_mask + i * layout.slots * stride;
    for (int64_t j = 0; j < layout.slots; ++j) {
      for (int64_t cell = 0; cell < stride; ++cell) {
        const T obj = obj_mask[j * stride + cell];
        const int64_t k = layout.Entry(i, j, cell, 4);
        if (obj > T(1e-5)) {
          x_grad[k] = SigmoidCrossEntropyGrad(x[k], T(1)) * obj * dloss;
        } else if (obj > T(-0.5)) {
          x_grad[k] = SigmoidCrossEntropyGrad(x[k], T(0)) * dloss;
        }
      }
    }
  }
}

#define PD_INSTANTIATE_YOLO_FUNCS(T)                                                        \
  template void YoloBox<T>(const T*, const int32_t*, int64_t, int64_t, int64_t,             \
                           const YoloBoxAttrs&, T*, T*);                                    \
  template void YoloLoss<T>(const T*, const T*, const int32_t*, const T*, int64_t, int64_t, \
                            int64_t, const YoloLossAttrs&, T*, T*, int32_t*);               \
  template void YoloLossGrad<T>(const T*, const T*, const int32_t*, const T*, const T*,     \
                                const int32_t*, const T*, int64_t, int64_t, int64_t,        \
                                const YoloLossAttrs&, T*);
PD_INSTANTIATE_YOLO_FUNCS(float)
PD_INSTANTIATE_YOLO_FUNCS(double)
#undef PD_INSTANTIATE_YOLO_FUNCS

}  // namespace paddle::funcs
