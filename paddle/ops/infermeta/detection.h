// InferMeta of the detection ops (paddle/ops/yaml/detection.yaml). Boxes have a last dim of 4;
// floating inputs share the dtype of the op's first input. The NMS and proposal ops size their
// results by the data, so those dims are -1 here.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// x [N, 4], y [M, 4] -> out [N, M].
void IouSimilarityInferMeta(const TensorMeta& x, const TensorMeta& y, bool box_normalized,
                            TensorMeta* out);

// input [B, ..., 4] (or [M, 4] for B = 1), im_info [B, 3] -> output like input.
void BoxClipInferMeta(const TensorMeta& input, const TensorMeta& im_info, TensorMeta* output);

// prior_box [M, 4] (and prior_box_var [M, 4], or 4 values in `variance`, not both); encoding
// takes target_box [N, 4] to [N, M, 4], decoding target_box [N, M, 4] (priors along `axis`, 0
// or 1) to its own shape.
void BoxCoderInferMeta(const TensorMeta& prior_box, const TensorMeta* prior_box_var,
                       const TensorMeta& target_box, const std::string& code_type,
                       bool box_normalized, int32_t axis, const std::vector<float>& variance,
                       TensorMeta* output_box);

// input and image NCHW; positive min_sizes, max_sizes (if any) one larger per min size,
// positive aspect ratios, 4 positive variances -> out and var [H, W, num_priors, 4].
void PriorBoxInferMeta(const TensorMeta& input, const TensorMeta& image,
                       const std::vector<float>& min_sizes, const std::vector<float>& max_sizes,
                       const std::vector<float>& aspect_ratios, const std::vector<float>& variances,
                       bool flip, bool clip, float step_w, float step_h, float offset,
                       bool min_max_aspect_ratios_order, TensorMeta* out, TensorMeta* var);

// x [N, A * (5 + class_num) (6 with iou_aware), H, W], img_size [N, 2] int32 -> boxes
// [N, A * H * W, 4], scores [N, A * H * W, class_num].
void YoloBoxInferMeta(const TensorMeta& x, const TensorMeta& img_size,
                      const std::vector<int32_t>& anchors, int32_t class_num, float conf_thresh,
                      int32_t downsample_ratio, bool clip_bbox, float scale_x_y, bool iou_aware,
                      float iou_aware_factor, TensorMeta* boxes, TensorMeta* scores);

// x [N, len(anchor_mask) * (5 + class_num), H, H], gt_box [N, B, 4], gt_label [N, B] int32,
// gt_score [N, B] -> loss [N], objectness_mask [N, len(anchor_mask), H, H], gt_match_mask [N, B]
// int32.
void YoloLossInferMeta(const TensorMeta& x, const TensorMeta& gt_box, const TensorMeta& gt_label,
                       const TensorMeta* gt_score, const std::vector<int32_t>& anchors,
                       const std::vector<int32_t>& anchor_mask, int32_t class_num,
                       float ignore_thresh, int32_t downsample_ratio, bool use_label_smooth,
                       float scale_x_y, TensorMeta* loss, TensorMeta* objectness_mask,
                       TensorMeta* gt_match_mask);

// The forward's inputs and outputs as YoloLossInferMeta describes them, and loss_grad [N].
void YoloLossGradInferMeta(const TensorMeta& x, const TensorMeta& gt_box,
                           const TensorMeta& gt_label, const TensorMeta* gt_score,
                           const TensorMeta& objectness_mask, const TensorMeta& gt_match_mask,
                           const TensorMeta& loss_grad, const std::vector<int32_t>& anchors,
                           const std::vector<int32_t>& anchor_mask, int32_t class_num,
                           int32_t downsample_ratio, bool use_label_smooth, float scale_x_y,
                           TensorMeta* x_grad);

// x [N, 4] -> out [-1] int64.
void NmsInferMeta(const TensorMeta& x, float threshold, TensorMeta* out);

// bboxes [N, M, 4] with scores [N, C, M], or bboxes [M, C, 4] with scores [M, C] and rois_num
// [B] (int32 or int64) -> out [-1, 6], index [-1, 1] int32, nms_rois_num [N or B] int32.
void MultiClassNmsInferMeta(const TensorMeta& bboxes, const TensorMeta& scores,
                            const TensorMeta* rois_num, float score_threshold, int32_t nms_top_k,
                            int32_t keep_top_k, float nms_threshold, bool normalized, float nms_eta,
                            int32_t background_label, TensorMeta* out, TensorMeta* index,
                            TensorMeta* nms_rois_num);

// bboxes [N, M, 4], scores [N, C, M] -> out [-1, 6], index [-1, 1] int32, roisnum [N] int32.
void MatrixNmsInferMeta(const TensorMeta& bboxes, const TensorMeta& scores, float score_threshold,
                        int32_t nms_top_k, int32_t keep_top_k, float post_threshold,
                        bool use_gaussian, float gaussian_sigma, int32_t background_label,
                        bool normalized, TensorMeta* out, TensorMeta* index, TensorMeta* roisnum);

// fpn_rois [R, 4], rois_num [B] (int32 or int64), min_level <= max_level -> per level
// multi_fpn_rois [-1, 4] and multi_level_rois_num [B] int32; restore_index [R, 1] int32.
void DistributeFpnProposalsInferMeta(const TensorMeta& fpn_rois, const TensorMeta* rois_num,
                                     int32_t min_level, int32_t max_level, int32_t refer_level,
                                     int32_t refer_scale, bool pixel_offset,
                                     std::vector<TensorMeta>* multi_fpn_rois,
                                     std::vector<TensorMeta>* multi_level_rois_num,
                                     TensorMeta* restore_index);

// scores [N, A, H, W], bbox_deltas [N, 4A, H, W], im_shape [N, 2], anchors and variances
// [H, W, A, 4] -> rpn_rois [-1, 4], rpn_roi_probs [-1, 1], rpn_rois_num [N] int32.
void GenerateProposalsInferMeta(const TensorMeta& scores, const TensorMeta& bbox_deltas,
                                const TensorMeta& im_shape, const TensorMeta& anchors,
                                const TensorMeta& variances, int32_t pre_nms_top_n,
                                int32_t post_nms_top_n, float nms_thresh, float min_size, float eta,
                                bool pixel_offset, TensorMeta* rpn_rois, TensorMeta* rpn_roi_probs,
                                TensorMeta* rpn_rois_num);

}  // namespace paddle
