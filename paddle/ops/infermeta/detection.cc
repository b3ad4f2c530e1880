#include "paddle/ops/infermeta/detection.h"

#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/detection.h"
#include "paddle/memory/cpu_allocator.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckRank(const TensorMeta& t, int rank, const char* op, const char* name) {
  PD_CHECK(t.dims.size() == rank,
           errors::InvalidArgument(op, ": argument '", name, "' must be ", rank,
                                   "-D, received shape ", t.dims.ToString()));
}

// t is `rank`-D with boxes of 4 coordinates along its last dim.
void CheckBoxes(const TensorMeta& t, int rank, const char* op, const char* name) {
  CheckRank(t, rank, op, name);
  PD_CHECK(DimsAgree(t.dims[rank - 1], 4),
           errors::InvalidArgument(op, ": argument '", name,
                                   "' must hold boxes of 4 coordinates [xmin, ymin, xmax, ymax] "
                                   "along its last dim, received shape ",
                                   t.dims.ToString()));
}

void CheckDtype(const TensorMeta& t, DataType dtype, const char* op, const char* name) {
  PD_CHECK(t.dtype == dtype,
           errors::InvalidArgument(op, ": argument '", name, "' must be ", DataTypeName(dtype),
                                   ", received ", DataTypeName(t.dtype)));
}

// Dim `axis` of t may equal `expected` (`what` says where that comes from).
void CheckDim(const TensorMeta& t, int axis, int64_t expected, const char* op, const char* name,
              const std::string& what) {
  PD_CHECK(DimsAgree(t.dims[axis], expected),
           errors::InvalidArgument(op, ": dim ", axis, " of argument '", name, "' must be ",
                                   expected, " (", what, "), received shape ", t.dims.ToString()));
}

// A per-image box count: 1-D int32 or int64.
void CheckCounts(const TensorMeta* t, const char* op, const char* name) {
  if (t == nullptr) return;
  CheckRank(*t, 1, op, name);
  PD_CHECK(t->dtype == DataType::INT32 || t->dtype == DataType::INT64,
           errors::InvalidArgument(op, ": argument '", name, "' must be int32 or int64, received ",
                                   DataTypeName(t->dtype)));
}

// a * b, or -1 where either is unknown.
int64_t KnownProduct(int64_t a, int64_t b) {
  return IsUnknown(a) || IsUnknown(b) ? kUnknownDim : a * b;
}

TensorMeta MetaOf(const DDim& dims, DataType dtype) {
  TensorMeta meta;
  meta.dims = dims;
  meta.dtype = dtype;
  return meta;
}

// Anchors come as (width, height) pairs.
void CheckAnchors(const std::vector<int32_t>& anchors, const char* op) {
  PD_CHECK(!anchors.empty() && anchors.size() % 2 == 0,
           errors::InvalidArgument(op,
                                   ": argument 'anchors' must hold (width, height) pairs, "
                                   "received ",
                                   anchors.size(), " values"));
}

void CheckClassNum(int32_t class_num, const char* op) {
  PD_CHECK(class_num > 0, errors::InvalidArgument(op,
                                                  ": argument 'class_num' must be positive, "
                                                  "received ",
                                                  class_num));
}

// The metas yolo_loss and its gradient share: the number of anchor_mask slots.
int64_t CheckYoloLoss(const TensorMeta& x, const TensorMeta& gt_box, const TensorMeta& gt_label,
                      const TensorMeta* gt_score, const std::vector<int32_t>& anchors,
                      const std::vector<int32_t>& anchor_mask, int32_t class_num, const char* op) {
  CheckRank(x, 4, op, "x");
  PD_CHECK(DimsAgree(x.dims[2], x.dims[3]),
           errors::InvalidArgument(op,
                                   ": the grid of argument 'x' must be square (H == W), "
                                   "received shape ",
                                   x.dims.ToString()));
  CheckAnchors(anchors, op);
  CheckClassNum(class_num, op);
  const int64_t anchor_num = static_cast<int64_t>(anchors.size() / 2);
  for (int32_t a : anchor_mask) {
    PD_CHECK(a >= 0 && a < anchor_num,
             errors::InvalidArgument(op, ": argument 'anchor_mask' must index the ", anchor_num,
                                     " anchors, received ", a));
  }
  const int64_t slots = static_cast<int64_t>(anchor_mask.size());
  CheckDim(x, 1, slots * (5 + static_cast<int64_t>(class_num)), op, "x",
           "len(anchor_mask) * (5 + class_num)");
  CheckBoxes(gt_box, 3, op, "gt_box");
  CheckDtype(gt_box, x.dtype, op, "gt_box");
  CheckDim(gt_box, 0, x.dims[0], op, "gt_box", "the batch size of 'x'");
  CheckRank(gt_label, 2, op, "gt_label");
  CheckDtype(gt_label, DataType::INT32, op, "gt_label");
  PD_CHECK(ShapesAgree(gt_label.dims, DDim({gt_box.dims[0], gt_box.dims[1]})),
           errors::InvalidArgument(op,
                                   ": argument 'gt_label' must be [N, B] like the first dims "
                                   "of 'gt_box' ",
                                   gt_box.dims.ToString(), ", received shape ",
                                   gt_label.dims.ToString()));
  if (gt_score != nullptr) {
    CheckDtype(*gt_score, x.dtype, op, "gt_score");
    PD_CHECK(ShapesAgree(gt_score->dims, DDim({gt_box.dims[0], gt_box.dims[1]})),
             errors::InvalidArgument(op,
                                     ": argument 'gt_score' must be [N, B] like the first "
                                     "dims of 'gt_box' ",
                                     gt_box.dims.ToString(), ", received shape ",
                                     gt_score->dims.ToString()));
  }
  return slots;
}

// A threshold given where Paddle requires 0 <= value <= 1.
void CheckUnitInterval(float value, const char* op, const char* name) {
  PD_CHECK(
      value >= 0.0f && value <= 1.0f,
      errors::InvalidArgument(op, ": argument '", name, "' must be in [0, 1], received ", value));
}

}  // namespace

void IouSimilarityInferMeta(const TensorMeta& x, const TensorMeta& y, bool box_normalized,
                            TensorMeta* out) {
  CheckBoxes(x, 2, "iou_similarity", "x");
  CheckBoxes(y, 2, "iou_similarity", "y");
  CheckDtype(y, x.dtype, "iou_similarity", "y");
  *out = MetaOf(DDim({x.dims[0], y.dims[0]}), x.dtype);
}

void BoxClipInferMeta(const TensorMeta& input, const TensorMeta& im_info, TensorMeta* output) {
  const char* op = "box_clip";
  PD_CHECK(input.dims.size() >= 2,
           errors::InvalidArgument(op,
                                   ": argument 'input' must be [B, ..., 4] or [M, 4], "
                                   "received shape ",
                                   input.dims.ToString()));
  CheckBoxes(input, input.dims.size(), op, "input");
  CheckRank(im_info, 2, op, "im_info");
  CheckDim(im_info, 1, 3, op, "im_info", "each image's height, width and scale");
  CheckDtype(im_info, input.dtype, op, "im_info");
  if (input.dims.size() == 2) {
    CheckDim(im_info, 0, 1, op, "im_info", "one image for 2-D 'input'");
  } else {
    CheckDim(im_info, 0, input.dims[0], op, "im_info", "the images of 'input'");
  }
  *output = input;
}

void BoxCoderInferMeta(const TensorMeta& prior_box, const TensorMeta* prior_box_var,
                       const TensorMeta& target_box, const std::string& code_type,
                       bool box_normalized, int32_t axis, const std::vector<float>& variance,
                       TensorMeta* output_box) {
  const char* op = "box_coder";
  const bool encode = code_type == "encode_center_size";
  PD_CHECK(encode || code_type == "decode_center_size",
           errors::InvalidArgument(op,
                                   ": argument 'code_type' must be 'encode_center_size' or "
                                   "'decode_center_size', received '",
                                   code_type, "'"));
  CheckBoxes(prior_box, 2, op, "prior_box");
  CheckDtype(target_box, prior_box.dtype, op, "target_box");
  if (prior_box_var != nullptr) {
    PD_CHECK(variance.empty(),
             errors::InvalidArgument(op,
                                     ": give the variances as 'prior_box_var' or as "
                                     "'variance', not both"));
    PD_CHECK(ShapesAgree(prior_box_var->dims, prior_box.dims),
             errors::InvalidArgument(op,
                                     ": argument 'prior_box_var' must have the shape of "
                                     "'prior_box' ",
                                     prior_box.dims.ToString(), ", received ",
                                     prior_box_var->dims.ToString()));
    CheckDtype(*prior_box_var, prior_box.dtype, op, "prior_box_var");
  }
  PD_CHECK(variance.empty() || variance.size() == 4,
           errors::InvalidArgument(op, ": argument 'variance' must hold 4 values, received ",
                                   variance.size()));
  if (encode) {
    CheckBoxes(target_box, 2, op, "target_box");
    *output_box = MetaOf(DDim({target_box.dims[0], prior_box.dims[0], 4}), prior_box.dtype);
    return;
  }
  CheckBoxes(target_box, 3, op, "target_box");
  PD_CHECK(axis == 0 || axis == 1,
           errors::InvalidArgument(op, ": argument 'axis' must be 0 or 1, received ", axis));
  CheckDim(target_box, axis == 0 ? 1 : 0, prior_box.dims[0], op, "target_box",
           "the boxes of 'prior_box' along 'axis'");
  *output_box = target_box;
}

void PriorBoxInferMeta(const TensorMeta& input, const TensorMeta& image,
                       const std::vector<float>& min_sizes, const std::vector<float>& max_sizes,
                       const std::vector<float>& aspect_ratios, const std::vector<float>& variances,
                       bool flip, bool clip, float step_w, float step_h, float offset,
                       bool min_max_aspect_ratios_order, TensorMeta* out, TensorMeta* var) {
  const char* op = "prior_box";
  CheckRank(input, 4, op, "input");
  CheckRank(image, 4, op, "image");
  PD_CHECK(!min_sizes.empty(),
           errors::InvalidArgument(op, ": argument 'min_sizes' must not be empty"));
  for (float size : min_sizes) {
    PD_CHECK(size > 0, errors::InvalidArgument(op,
                                               ": argument 'min_sizes' must be positive, "
                                               "received ",
                                               size));
  }
  PD_CHECK(max_sizes.empty() || max_sizes.size() == min_sizes.size(),
           errors::InvalidArgument(op, ": argument 'max_sizes' must have one size per min size (",
                                   min_sizes.size(), "), received ", max_sizes.size()));
  for (size_t i = 0; i < max_sizes.size(); ++i) {
    PD_CHECK(max_sizes[i] > min_sizes[i],
             errors::InvalidArgument(op, ": max_sizes[", i, "] = ", max_sizes[i],
                                     " must be greater than min_sizes[", i, "] = ", min_sizes[i]));
  }
  for (float ar : aspect_ratios) {
    PD_CHECK(
        ar > 0 && std::isfinite(ar),
        errors::InvalidArgument(op, ": argument 'aspect_ratios' must be positive, received ", ar));
  }
  PD_CHECK(variances.size() == 4,
           errors::InvalidArgument(op, ": argument 'variances' must hold 4 values, received ",
                                   variances.size()));
  for (float v : variances) {
    PD_CHECK(v > 0, errors::InvalidArgument(op,
                                            ": argument 'variances' must be positive, "
                                            "received ",
                                            v));
  }
  const int64_t priors = static_cast<int64_t>(
      funcs::ExpandAspectRatios(aspect_ratios, flip).size() * min_sizes.size() + max_sizes.size());
  *out = MetaOf(DDim({input.dims[2], input.dims[3], priors, 4}), input.dtype);
  *var = *out;
}

void YoloBoxInferMeta(const TensorMeta& x, const TensorMeta& img_size,
                      const std::vector<int32_t>& anchors, int32_t class_num, float conf_thresh,
                      int32_t downsample_ratio, bool clip_bbox, float scale_x_y, bool iou_aware,
                      float iou_aware_factor, TensorMeta* boxes, TensorMeta* scores) {
  const char* op = "yolo_box";
  CheckRank(x, 4, op, "x");
  CheckAnchors(anchors, op);
  CheckClassNum(class_num, op);
  const int64_t anchor_num = static_cast<int64_t>(anchors.size() / 2);
  if (iou_aware) {
    CheckUnitInterval(iou_aware_factor, op, "iou_aware_factor");
    CheckDim(x, 1, anchor_num * (6 + static_cast<int64_t>(class_num)), op, "x",
             "len(anchors) / 2 * (6 + class_num) with iou_aware");
  } else {
    CheckDim(x, 1, anchor_num * (5 + static_cast<int64_t>(class_num)), op, "x",
             "len(anchors) / 2 * (5 + class_num)");
  }
  CheckRank(img_size, 2, op, "img_size");
  CheckDim(img_size, 1, 2, op, "img_size", "each image's height and width");
  CheckDim(img_size, 0, x.dims[0], op, "img_size", "the batch size of 'x'");
  CheckDtype(img_size, DataType::INT32, op, "img_size");
  const int64_t box_num = KnownProduct(KnownProduct(x.dims[2], x.dims[3]), anchor_num);
  *boxes = MetaOf(DDim({x.dims[0], box_num, 4}), x.dtype);
  *scores = MetaOf(DDim({x.dims[0], box_num, class_num}), x.dtype);
}

void YoloLossInferMeta(const TensorMeta& x, const TensorMeta& gt_box, const TensorMeta& gt_label,
                       const TensorMeta* gt_score, const std::vector<int32_t>& anchors,
                       const std::vector<int32_t>& anchor_mask, int32_t class_num,
                       float ignore_thresh, int32_t downsample_ratio, bool use_label_smooth,
                       float scale_x_y, TensorMeta* loss, TensorMeta* objectness_mask,
                       TensorMeta* gt_match_mask) {
  const int64_t slots =
      CheckYoloLoss(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, "yolo_loss");
  *loss = MetaOf(DDim({x.dims[0]}), x.dtype);
  *objectness_mask = MetaOf(DDim({x.dims[0], slots, x.dims[2], x.dims[3]}), x.dtype);
  *gt_match_mask = MetaOf(DDim({gt_box.dims[0], gt_box.dims[1]}), DataType::INT32);
}

void YoloLossGradInferMeta(const TensorMeta& x, const TensorMeta& gt_box,
                           const TensorMeta& gt_label, const TensorMeta* gt_score,
                           const TensorMeta& objectness_mask, const TensorMeta& gt_match_mask,
                           const TensorMeta& loss_grad, const std::vector<int32_t>& anchors,
                           const std::vector<int32_t>& anchor_mask, int32_t class_num,
                           int32_t downsample_ratio, bool use_label_smooth, float scale_x_y,
                           TensorMeta* x_grad) {
  const char* op = "yolo_loss_grad";
  const int64_t slots =
      CheckYoloLoss(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, op);
  PD_CHECK(ShapesAgree(objectness_mask.dims, DDim({x.dims[0], slots, x.dims[2], x.dims[3]})),
           errors::InvalidArgument(op, ": argument 'objectness_mask' must be [N, ", slots,
                                   ", H, W] for 'x' of shape ", x.dims.ToString(),
                                   ", received shape ", objectness_mask.dims.ToString()));
  CheckDtype(objectness_mask, x.dtype, op, "objectness_mask");
  PD_CHECK(ShapesAgree(gt_match_mask.dims, DDim({gt_box.dims[0], gt_box.dims[1]})),
           errors::InvalidArgument(op,
                                   ": argument 'gt_match_mask' must be [N, B] like the first "
                                   "dims of 'gt_box' ",
                                   gt_box.dims.ToString(), ", received shape ",
                                   gt_match_mask.dims.ToString()));
  CheckDtype(gt_match_mask, DataType::INT32, op, "gt_match_mask");
  PD_CHECK(
      ShapesAgree(loss_grad.dims, DDim({x.dims[0]})),
      errors::InvalidArgument(op, ": argument 'loss_grad' must be [N] for 'x' of shape ",
                              x.dims.ToString(), ", received shape ", loss_grad.dims.ToString()));
  CheckDtype(loss_grad, x.dtype, op, "loss_grad");
  *x_grad = x;
}

void NmsInferMeta(const TensorMeta& x, float threshold, TensorMeta* out) {
  CheckBoxes(x, 2, "nms", "x");
  *out = MetaOf(DDim({kUnknownDim}), DataType::INT64);
}

void MultiClassNmsInferMeta(const TensorMeta& bboxes, const TensorMeta& scores,
                            const TensorMeta* rois_num, float score_threshold, int32_t nms_top_k,
                            int32_t keep_top_k, float nms_threshold, bool normalized, float nms_eta,
                            int32_t background_label, TensorMeta* out, TensorMeta* index,
                            TensorMeta* nms_rois_num) {
  const char* op = "multiclass_nms3";
  CheckRank(bboxes, 3, op, "bboxes");
  const int64_t coordinates = bboxes.dims[2];
  PD_CHECK(coordinates != 8 && coordinates != 16 && coordinates != 24 && coordinates != 32,
           errors::Unimplemented(op, ": polygon boxes (", coordinates,
                                 " coordinates) are not supported; boxes must be [xmin, ymin, "
                                 "xmax, ymax]"));
  CheckBoxes(bboxes, 3, op, "bboxes");
  CheckDtype(scores, bboxes.dtype, op, "scores");
  int64_t images = kUnknownDim;
  if (scores.dims.size() == 3) {  // bboxes [N, M, 4], scores [N, C, M]
    CheckDim(scores, 0, bboxes.dims[0], op, "scores", "the batch size of 'bboxes'");
    CheckDim(scores, 2, bboxes.dims[1], op, "scores", "the boxes of each image in 'bboxes'");
    images = scores.dims[0];
  } else {  // bboxes [M, C, 4], scores [M, C]
    PD_CHECK(scores.dims.size() == 2,
             errors::InvalidArgument(op,
                                     ": argument 'scores' must be [N, C, M] or [M, C], "
                                     "received shape ",
                                     scores.dims.ToString()));
    CheckDim(scores, 0, bboxes.dims[0], op, "scores", "the boxes of 'bboxes'");
    CheckDim(scores, 1, bboxes.dims[1], op, "scores", "the classes of 'bboxes'");
    CheckCounts(rois_num, op, "rois_num");
    images = rois_num ? rois_num->dims[0] : 1;
  }
  *out = MetaOf(DDim({kUnknownDim, 6}), bboxes.dtype);
  *index = MetaOf(DDim({kUnknownDim, 1}), DataType::INT32);
  *nms_rois_num = MetaOf(DDim({images}), DataType::INT32);
}

void MatrixNmsInferMeta(const TensorMeta& bboxes, const TensorMeta& scores, float score_threshold,
                        int32_t nms_top_k, int32_t keep_top_k, float post_threshold,
                        bool use_gaussian, float gaussian_sigma, int32_t background_label,
                        bool normalized, TensorMeta* out, TensorMeta* index, TensorMeta* roisnum) {
  const char* op = "matrix_nms";
  CheckBoxes(bboxes, 3, op, "bboxes");
  CheckRank(scores, 3, op, "scores");
  CheckDtype(scores, bboxes.dtype, op, "scores");
  CheckDim(scores, 0, bboxes.dims[0], op, "scores", "the batch size of 'bboxes'");
  CheckDim(scores, 2, bboxes.dims[1], op, "scores", "the boxes of each image in 'bboxes'");
  *out = MetaOf(DDim({kUnknownDim, 6}), bboxes.dtype);
  *index = MetaOf(DDim({kUnknownDim, 1}), DataType::INT32);
  *roisnum = MetaOf(DDim({scores.dims[0]}), DataType::INT32);
}

void DistributeFpnProposalsInferMeta(const TensorMeta& fpn_rois, const TensorMeta* rois_num,
                                     int32_t min_level, int32_t max_level, int32_t refer_level,
                                     int32_t refer_scale, bool pixel_offset,
                                     std::vector<TensorMeta>* multi_fpn_rois,
                                     std::vector<TensorMeta>* multi_level_rois_num,
                                     TensorMeta* restore_index) {
  const char* op = "distribute_fpn_proposals";
  CheckBoxes(fpn_rois, 2, op, "fpn_rois");
  CheckCounts(rois_num, op, "rois_num");
  PD_CHECK(min_level <= max_level,
           errors::InvalidArgument(op, ": argument 'max_level' (", max_level,
                                   ") must not be below 'min_level' (", min_level, ")"));
  const int64_t levels = static_cast<int64_t>(max_level) - min_level + 1;
  PD_CHECK(static_cast<uint64_t>(levels) <= memory::TotalHostMemory() / sizeof(TensorMeta),
           errors::ResourceExhausted(op, ": ", levels,
                                     " levels need more memory than the "
                                     "machine's ",
                                     memory::TotalHostMemory(), " bytes"));
  const int64_t images = rois_num ? rois_num->dims[0] : 1;
  multi_fpn_rois->assign(levels, MetaOf(DDim({kUnknownDim, 4}), fpn_rois.dtype));
  multi_level_rois_num->assign(levels, MetaOf(DDim({images}), DataType::INT32));
  *restore_index = MetaOf(DDim({fpn_rois.dims[0], 1}), DataType::INT32);
}

void GenerateProposalsInferMeta(const TensorMeta& scores, const TensorMeta& bbox_deltas,
                                const TensorMeta& im_shape, const TensorMeta& anchors,
                                const TensorMeta& variances, int32_t pre_nms_top_n,
                                int32_t post_nms_top_n, float nms_thresh, float min_size, float eta,
                                bool pixel_offset, TensorMeta* rpn_rois, TensorMeta* rpn_roi_probs,
                                TensorMeta* rpn_rois_num) {
  const char* op = "generate_proposals";
  CheckRank(scores, 4, op, "scores");
  CheckRank(bbox_deltas, 4, op, "bbox_deltas");
  const DDim& s = scores.dims;
  PD_CHECK(ShapesAgree(bbox_deltas.dims, DDim({s[0], KnownProduct(4, s[1]), s[2], s[3]})),
           errors::InvalidArgument(op,
                                   ": argument 'bbox_deltas' must be [N, 4 * A, H, W] for "
                                   "'scores' of shape ",
                                   s.ToString(), ", received shape ", bbox_deltas.dims.ToString()));
  CheckDtype(bbox_deltas, scores.dtype, op, "bbox_deltas");
  CheckRank(im_shape, 2, op, "im_shape");
  CheckDim(im_shape, 0, s[0], op, "im_shape", "the batch size of 'scores'");
  CheckDim(im_shape, 1, 2, op, "im_shape", "each image's height and width");
  CheckDtype(im_shape, scores.dtype, op, "im_shape");
  const DDim anchor_dims({s[2], s[3], s[1], 4});
  PD_CHECK(ShapesAgree(anchors.dims, anchor_dims),
           errors::InvalidArgument(op,
                                   ": argument 'anchors' must be [H, W, A, 4] for 'scores' "
                                   "of shape ",
                                   s.ToString(), ", received shape ", anchors.dims.ToString()));
  CheckDtype(anchors, scores.dtype, op, "anchors");
  PD_CHECK(ShapesAgree(variances.dims, anchor_dims),
           errors::InvalidArgument(op,
                                   ": argument 'variances' must be [H, W, A, 4] for 'scores' "
                                   "of shape ",
                                   s.ToString(), ", received shape ", variances.dims.ToString()));
  CheckDtype(variances, scores.dtype, op, "variances");
  *rpn_rois = MetaOf(DDim({kUnknownDim, 4}), scores.dtype);
  *rpn_roi_probs = MetaOf(DDim({kUnknownDim, 1}), scores.dtype);
  *rpn_rois_num = MetaOf(DDim({s[0]}), DataType::INT32);
}

}  // namespace paddle
