// The computations of the detection ops (paddle/ops/yaml/detection.yaml) on plain arrays, shared
// by their CPU kernels (cpu/detection_kernels.h) and, for prior_box's box count, their InferMeta.
// Boxes are [xmin, ymin, xmax, ymax]. Each routine follows Paddle's CPU kernel of the same op,
// including its conventions for "unnormalized" pixel boxes (widths one pixel more); where Paddle
// leaves an order unspecified (ties of equal scores) the earlier box comes first. Instantiated
// for float and double in detection_boxes.cc, detection_yolo.cc and detection_nms.cc.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace paddle::funcs {

// ---------------------------------------------------------------- boxes

// out [n, m]: the IoU of each x[i] with each y[j] (union + 1e-10).
template <typename T>
void IouSimilarity(const T* x, int64_t n, const T* y, int64_t m, bool normalized, T* out);

// Clips `count` boxes of one image to [0, round(w / scale) - 1] x [0, round(h / scale) - 1],
// with im_info = (h, w, scale).
template <typename T>
void ClipBoxes(const T* boxes, int64_t count, const T* im_info, T* out);

// The variances of box_coder: a [count, 4] tensor (`per_prior`), or 4 values for every prior
// (`shared`), or none.
template <typename T>
struct BoxVariances {
  const T* per_prior = nullptr;
  const float* shared = nullptr;
};

// out [n, m, 4]: target[i] encoded against prior[j], divided by the variances of prior j.
template <typename T>
void EncodeCenterSize(const T* prior, int64_t m, const T* target, int64_t n, bool normalized,
                      const BoxVariances<T>& variances, T* out);

// out [n, m, 4]: the offsets target [n, m, 4] decoded against prior[j] (axis 0, priors [m, 4])
// or prior[i] (axis 1, priors [n, 4]), with that prior's variances.
template <typename T>
void DecodeCenterSize(const T* prior, const T* target, int64_t n, int64_t m, int axis,
                      bool normalized, const BoxVariances<T>& variances, T* out);

// 1, then each aspect ratio not yet listed (within 1e-6) followed by its reciprocal when flip.
std::vector<float> ExpandAspectRatios(const std::vector<float>& aspect_ratios, bool flip);

struct PriorBoxAttrs {
  const std::vector<float>& min_sizes;
  const std::vector<float>& max_sizes;
  const std::vector<float>& aspect_ratios;  // expanded (ExpandAspectRatios)
  const std::vector<float>& variances;
  bool clip;
  float step_w, step_h;  // 0: the image size over the feature map's
  float offset;
  bool min_max_aspect_ratios_order;
};

// boxes and variances [feature_h, feature_w, num_priors, 4].
template <typename T>
void PriorBoxes(int64_t feature_h, int64_t feature_w, int64_t image_h, int64_t image_w,
                const PriorBoxAttrs& attrs, T* boxes, T* variances);

// ---------------------------------------------------------------- YOLOv3

struct YoloBoxAttrs {
  const std::vector<int32_t>& anchors;  // (w, h) pairs in input pixels
  int64_t class_num;
  float conf_thresh;
  int64_t downsample_ratio;
  bool clip_bbox;
  float scale_x_y;
  bool iou_aware;
  float iou_aware_factor;
};

// x [n, C, h, w], img_size [n, 2] (height, width); boxes [n, A * h * w, 4], scores
// [n, A * h * w, class_num], box k = a * h * w + row * w + col.
template <typename T>
void YoloBox(const T* x, const int32_t* img_size, int64_t n, int64_t h, int64_t w,
             const YoloBoxAttrs& attrs, T* boxes, T* scores);

struct YoloLossAttrs {
  const std::vector<int32_t>& anchors;
  const std::vector<int32_t>& anchor_mask;
  int64_t class_num;
  float ignore_thresh;
  int64_t downsample_ratio;
  bool use_label_smooth;
  float scale_x_y;
};

// x [n, M * (5 + class_num), h, h] with M = anchor_mask.size(); gt_box [n, b, 4], gt_label
// [n, b], gt_score [n, b] (null: all 1). loss [n], objectness_mask [n, M, h, h] (the weight of
// each cell's objectness term: its ground truth's score, 0 for a negative, -1 when ignored),
// gt_match_mask [n, b] (the anchor_mask slot each ground truth is matched to, -1 for none).
template <typename T>
void YoloLoss(const T* x, const T* gt_box, const int32_t* gt_label, const T* gt_score, int64_t n,
              int64_t h, int64_t b, const YoloLossAttrs& attrs, T* loss, T* objectness_mask,
              int32_t* gt_match_mask);

// x_grad [n, C, h, h] from the masks YoloLoss wrote and loss_grad [n].
template <typename T>
void YoloLossGrad(const T* x, const T* gt_box, const int32_t* gt_label, const T* gt_score,
                  const T* objectness_mask, const int32_t* gt_match_mask, const T* loss_grad,
                  int64_t n, int64_t h, int64_t b, const YoloLossAttrs& attrs, T* x_grad);

// ---------------------------------------------------------------- non-maximum suppression

// The indices of the boxes [n, 4] greedy NMS keeps, taking them in order: a box is dropped when
// its IoU (no pixel offset) with a kept one exceeds threshold.
template <typename T>
std::vector<int64_t> GreedyNms(const T* boxes, int64_t n, float threshold);

// One image of multiclass NMS: score (c, m) is scores[c * score_class_stride + m * score_stride]
// and box (c, m) starts at boxes + c * box_class_stride + m * box_stride.
template <typename T>
struct NmsImage {
  const T* scores;
  int64_t score_class_stride, score_stride;
  const T* boxes;
  int64_t box_class_stride, box_stride;
  int64_t num_classes, num_boxes;
};

struct MultiClassNmsAttrs {
  float score_threshold;
  int64_t nms_top_k;
  int64_t keep_top_k;
  float nms_threshold;
  bool normalized;
  float nms_eta;
  int64_t background_label;
};

// The rows [label, score, xmin, ymin, xmax, ymax] of the detections NMS keeps in an image, by
// class then score, appended to `rows`, and their (class, box) pairs to `kept`. In
// `sorted_per_class` mode (Paddle's 2-D scores) each class's boxes come in index order instead.
template <typename T>
void MultiClassNms(const NmsImage<T>& image, const MultiClassNmsAttrs& attrs, bool sorted_per_class,
                   std::vector<T>* rows, std::vector<std::pair<int64_t, int64_t>>* kept);

struct MatrixNmsAttrs {
  float score_threshold;
  int64_t nms_top_k;
  int64_t keep_top_k;
  float post_threshold;
  bool use_gaussian;
  float gaussian_sigma;
  int64_t background_label;
  bool normalized;
};

// Matrix NMS of one image with scores [C, m] and boxes [m, 4]: appends the rows [label, decayed
// score, box] by decreasing score and each row's box index to `boxes_kept`.
template <typename T>
void MatrixNms(const T* scores, const T* boxes, int64_t num_classes, int64_t m,
               const MatrixNmsAttrs& attrs, std::vector<T>* rows, std::vector<int64_t>* boxes_kept);

// ---------------------------------------------------------------- region proposals

struct FpnLevelAttrs {
  int64_t min_level, max_level, refer_level, refer_scale;
  bool pixel_offset;
};

// The FPN level of each of the `count` RoIs.
template <typename T>
std::vector<int64_t> FpnLevels(const T* rois, int64_t count, const FpnLevelAttrs& attrs);

struct ProposalAttrs {
  int64_t pre_nms_top_n, post_nms_top_n;
  float nms_thresh, min_size, eta;
  bool pixel_offset;
};

// The proposals of one image: anchor k = (row * w + col) * A + a has score
// scores[(a * h + row) * w + col], deltas bbox_deltas[((4a + j) * h + row) * w + col] (j = 0..3)
// and anchors[4k..], variances[4k..]. Appends the kept boxes (4 values each) and their scores.
template <typename T>
void ProposalsForImage(const T* scores, const T* bbox_deltas, const T* anchors, const T* variances,
                       int64_t num_anchors, int64_t h, int64_t w, const T* im_shape,
                       const ProposalAttrs& attrs, std::vector<T>* rois, std::vector<T>* probs);

}  // namespace paddle::funcs
