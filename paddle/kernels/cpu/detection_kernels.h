// CPU kernels of the detection ops (paddle/ops/yaml/detection.yaml). Each hands its tensors to
// the routines of funcs/detection.h; the kernels of ops whose result size depends on the data
// (the NMS ops, the proposals) collect the results there and size their outputs from them.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/detection.h"

namespace paddle {

namespace detection_detail {

// The per-image counts of an optional rois_num tensor (int32 or int64), checked against the
// `rows` they split; without one, all rows are one image.
inline std::vector<int64_t> ImageCounts(const DenseTensor* rois_num, int64_t rows, const char* op) {
  if (rois_num == nullptr) return {rows};
  std::vector<int64_t> counts(rois_num->numel());
  if (rois_num->dtype() == DataType::INT64) {
    std::copy_n(rois_num->data<int64_t>(), counts.size(), counts.begin());
  } else {
    std::copy_n(rois_num->data<int32_t>(), counts.size(), counts.begin());
  }
  int64_t total = 0;
  for (int64_t c : counts) {
    PD_CHECK(c >= 0 && c <= rows - total,
             errors::InvalidArgument(op,
                                     ": argument 'rois_num' must hold non-negative counts "
                                     "summing to the ",
                                     rows, " boxes, received a count of ", c, " after ", total));
    total += c;
  }
  PD_CHECK(total == rows, errors::InvalidArgument(op, ": argument 'rois_num' sums to ", total,
                                                  ", expected the ", rows, " boxes"));
  return counts;
}

template <typename T, typename Context>
void CopyToTensor(const Context& ctx, const std::vector<T>& values, const DDim& dims,
                  DenseTensor* out) {
  out->Resize(dims);
  T* data = ctx.template Alloc<T>(out);
  std::copy(values.begin(), values.end(), data);
}

}  // namespace detection_detail

template <typename T, typename Context>
void IouSimilarityKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
                         bool box_normalized, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  funcs::IouSimilarity<T>(x.data<T>(), x.dims()[0], y.data<T>(), y.dims()[0], box_normalized, o);
}

template <typename T, typename Context>
void BoxClipKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& im_info,
                   DenseTensor* output) {
  T* o = ctx.template Alloc<T>(output);
  const int64_t images = im_info.dims()[0];
  // InferMeta has checked that the boxes split evenly into the images.
  const int64_t per_image = images == 0 ? 0 : input.numel() / 4 / images;
  for (int64_t i = 0; i < images; ++i) {
    funcs::ClipBoxes<T>(input.data<T>() + i * per_image * 4, per_image, im_info.data<T>() + i * 3,
                        o + i * per_image * 4);
  }
}

template <typename T, typename Context>
void BoxCoderKernel(const Context& ctx, const DenseTensor& prior_box,
                    const DenseTensor* prior_box_var, const DenseTensor& target_box,
                    const std::string& code_type, bool box_normalized, int32_t axis,
                    const std::vector<float>& variance, DenseTensor* output_box) {
  T* o = ctx.template Alloc<T>(output_box);
  funcs::BoxVariances<T> variances;
  if (prior_box_var) variances.per_prior = prior_box_var->data<T>();
  if (!variance.empty()) variances.shared = variance.data();
  if (code_type == "encode_center_size") {
    funcs::EncodeCenterSize<T>(prior_box.data<T>(), prior_box.dims()[0], target_box.data<T>(),
                               target_box.dims()[0], box_normalized, variances, o);
  } else {
    funcs::DecodeCenterSize<T>(prior_box.data<T>(), target_box.data<T>(), target_box.dims()[0],
                               target_box.dims()[1], axis, box_normalized, variances, o);
  }
}

template <typename T, typename Context>
void PriorBoxKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& image,
                    const std::vector<float>& min_sizes, const std::vector<float>& max_sizes,
                    const std::vector<float>& aspect_ratios, const std::vector<float>& variances,
                    bool flip, bool clip, float step_w, float step_h, float offset,
                    bool min_max_aspect_ratios_order, DenseTensor* out, DenseTensor* var) {
  T* boxes = ctx.template Alloc<T>(out);
  T* vars = ctx.template Alloc<T>(var);
  const std::vector<float> ratios = funcs::ExpandAspectRatios(aspect_ratios, flip);
  funcs::PriorBoxes<T>(input.dims()[2], input.dims()[3], image.dims()[2], image.dims()[3],
                       {min_sizes, max_sizes, ratios, variances, clip, step_w, step_h, offset,
                        min_max_aspect_ratios_order},
                       boxes, vars);
}

template <typename T, typename Context>
void YoloBoxKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& img_size,
                   const std::vector<int32_t>& anchors, int32_t class_num, float conf_thresh,
                   int32_t downsample_ratio, bool clip_bbox, float scale_x_y, bool iou_aware,
                   float iou_aware_factor, DenseTensor* boxes, DenseTensor* scores) {
  T* b = ctx.template Alloc<T>(boxes);
  T* s = ctx.template Alloc<T>(scores);
  funcs::YoloBox<T>(x.data<T>(), img_size.data<int32_t>(), x.dims()[0], x.dims()[2], x.dims()[3],
                    {anchors, class_num, conf_thresh, downsample_ratio, clip_bbox, scale_x_y,
                     iou_aware, iou_aware_factor},
                    b, s);
}

template <typename T, typename Context>
void YoloLossKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& gt_box,
                    const DenseTensor& gt_label, const DenseTensor* gt_score,
                    const std::vector<int32_t>& anchors, const std::vector<int32_t>& anchor_mask,
                    int32_t class_num, float ignore_thresh, int32_t downsample_ratio,
                    bool use_label_smooth, float scale_x_y, DenseTensor* loss,
                    DenseTensor* objectness_mask, DenseTensor* gt_match_mask) {
  T* l = ctx.template Alloc<T>(loss);
  T* obj = ctx.template Alloc<T>(objectness_mask);
  int32_t* match = ctx.template Alloc<int32_t>(gt_match_mask);
  funcs::YoloLoss<T>(x.data<T>(), gt_box.data<T>(), gt_label.data<int32_t>(),
                     gt_score ? gt_score->data<T>() : nullptr, x.dims()[0], x.dims()[2],
                     gt_box.dims()[1],
                     {anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                      use_label_smooth, scale_x_y},
                     l, obj, match);
}

template <typename T, typename Context>
void YoloLossGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& gt_box,
                        const DenseTensor& gt_label, const DenseTensor* gt_score,
                        const DenseTensor& objectness_mask, const DenseTensor& gt_match_mask,
                        const DenseTensor& loss_grad, const std::vector<int32_t>& anchors,
                        const std::vector<int32_t>& anchor_mask, int32_t class_num,
                        int32_t downsample_ratio, bool use_label_smooth, float scale_x_y,
                        DenseTensor* x_grad) {
  T* dx = ctx.template Alloc<T>(x_grad);
  // ignore_thresh only shaped the objectness mask, which the gradient reads.
  funcs::YoloLossGrad<T>(
      x.data<T>(), gt_box.data<T>(), gt_label.data<int32_t>(),
      gt_score ? gt_score->data<T>() : nullptr, objectness_mask.data<T>(),
      gt_match_mask.data<int32_t>(), loss_grad.data<T>(), x.dims()[0], x.dims()[2],
      gt_box.dims()[1],
      {anchors, anchor_mask, class_num, 0.0f, downsample_ratio, use_label_smooth, scale_x_y}, dx);
}

template <typename T, typename Context>
void NmsKernel(const Context& ctx, const DenseTensor& x, float threshold, DenseTensor* out) {
  std::vector<int64_t> kept = funcs::GreedyNms<T>(x.data<T>(), x.dims()[0], threshold);
  detection_detail::CopyToTensor(ctx, kept, DDim({static_cast<int64_t>(kept.size())}), out);
}

// bboxes [N, M, 4] with scores [N, C, M], or bboxes [M, C, 4] with scores [M, C] split into
// images by rois_num.
template <typename T, typename Context>
void MulticlassNms3Kernel(const Context& ctx, const DenseTensor& bboxes, const DenseTensor& scores,
                          const DenseTensor* rois_num, float score_threshold, int32_t nms_top_k,
                          int32_t keep_top_k, float nms_threshold, bool normalized, float nms_eta,
                          int32_t background_label, DenseTensor* out, DenseTensor* index,
                          DenseTensor* nms_rois_num) {
  const auto attrs = funcs::MultiClassNmsAttrs{
      score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta, background_label};
  const bool per_box_scores = scores.dims().size() == 2;
  std::vector<T> rows;
  std::vector<int32_t> indices, per_image;
  std::vector<std::pair<int64_t, int64_t>> kept;
  if (per_box_scores) {
    const int64_t m = scores.dims()[0], c = scores.dims()[1];
    int64_t start = 0;
    for (int64_t count : detection_detail::ImageCounts(rois_num, m, "multiclass_nms3")) {
      kept.clear();
      funcs::MultiClassNms<T>({scores.data<T>() + start * c, 1, c, bboxes.data<T>() + start * c * 4,
                               4, c * 4, c, count},
                              attrs, true, &rows, &kept);
      // Each row's score position in scores [M, C].
      for (const auto& [label, box] : kept) {
        indices.push_back(static_cast<int32_t>((start + box) * c + label));
      }
      per_image.push_back(static_cast<int32_t>(kept.size()));
      start += count;
    }
  } else {
    const int64_t n = scores.dims()[0], c = scores.dims()[1], m = scores.dims()[2];
    for (int64_t i = 0; i < n; ++i) {
      kept.clear();
      funcs::MultiClassNms<T>(
          {scores.data<T>() + i * c * m, m, 1, bboxes.data<T>() + i * m * 4, 0, 4, c, m}, attrs,
          false, &rows, &kept);
      for (const auto& entry : kept) indices.push_back(static_cast<int32_t>(i * m + entry.second));
      per_image.push_back(static_cast<int32_t>(kept.size()));
    }
  }
  const int64_t total = static_cast<int64_t>(indices.size());
  detection_detail::CopyToTensor(ctx, rows, DDim({total, 6}), out);
  detection_detail::CopyToTensor(ctx, indices, DDim({total, 1}), index);
  detection_detail::CopyToTensor(ctx, per_image, DDim({static_cast<int64_t>(per_image.size())}),
                                 nms_rois_num);
}

template <typename T, typename Context>
void MatrixNmsKernel(const Context& ctx, const DenseTensor& bboxes, const DenseTensor& scores,
                     float score_threshold, int32_t nms_top_k, int32_t keep_top_k,
                     float post_threshold, bool use_gaussian, float gaussian_sigma,
                     int32_t background_label, bool normalized, DenseTensor* out,
                     DenseTensor* index, DenseTensor* roisnum) {
  const auto attrs =
      funcs::MatrixNmsAttrs{score_threshold, nms_top_k,      keep_top_k,       post_threshold,
                            use_gaussian,    gaussian_sigma, background_label, normalized};
  const int64_t n = scores.dims()[0], c = scores.dims()[1], m = scores.dims()[2];
  std::vector<T> rows;
  std::vector<int32_t> indices, per_image;
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < n; ++i) {
    kept.clear();
    funcs::MatrixNms<T>(scores.data<T>() + i * c * m, bboxes.data<T>() + i * m * 4, c, m, attrs,
                        &rows, &kept);
    for (int64_t box : kept) indices.push_back(static_cast<int32_t>(i * m + box));
    per_image.push_back(static_cast<int32_t>(kept.size()));
  }
  const int64_t total = static_cast<int64_t>(indices.size());
  detection_detail::CopyToTensor(ctx, rows, DDim({total, 6}), out);
  detection_detail::CopyToTensor(ctx, indices, DDim({total, 1}), index);
  detection_detail::CopyToTensor(ctx, per_image, DDim({n}), roisnum);
}

template <typename T, typename Context>
void DistributeFpnProposalsKernel(const Context& ctx, const DenseTensor& fpn_rois,
                                  const DenseTensor* rois_num, int32_t min_level, int32_t max_level,
                                  int32_t refer_level, int32_t refer_scale, bool pixel_offset,
                                  std::vector<DenseTensor*> multi_fpn_rois,
                                  std::vector<DenseTensor*> multi_level_rois_num,
                                  DenseTensor* restore_index) {
  const int64_t total = fpn_rois.dims()[0];
  const std::vector<int64_t> counts =
      detection_detail::ImageCounts(rois_num, total, "distribute_fpn_proposals");
  const std::vector<int64_t> levels = funcs::FpnLevels<T>(
      fpn_rois.data<T>(), total, {min_level, max_level, refer_level, refer_scale, pixel_offset});
  // A program from Paddle may leave out MultiLevelRoIsNum (it has no RoisNum input then), but
  // not a level's RoIs.
  const int64_t num_levels = static_cast<int64_t>(max_level) - min_level + 1;
  PD_CHECK(static_cast<int64_t>(multi_fpn_rois.size()) == num_levels,
           errors::InvalidArgument("distribute_fpn_proposals: output 'multi_fpn_rois' has ",
                                   multi_fpn_rois.size(), " tensors, expected one per level (",
                                   num_levels, ")"));
  PD_CHECK(multi_level_rois_num.empty() ||
               static_cast<int64_t>(multi_level_rois_num.size()) == num_levels,
           errors::InvalidArgument("distribute_fpn_proposals: output 'multi_level_rois_num' has ",
                                   multi_level_rois_num.size(),
                                   " tensors, expected one per level (", num_levels, ")"));
  const int64_t images = static_cast<int64_t>(counts.size());
  // Each level's RoIs by image, then in their order; each RoI's row in the levels' concatenation.
  std::vector<std::vector<T>> level_rois(num_levels);
  std::vector<std::vector<int32_t>> level_counts(num_levels, std::vector<int32_t>(images, 0));
  std::vector<std::vector<int64_t>> level_members(num_levels);
  const T* rois = fpn_rois.data<T>();
  int64_t r = 0;
  for (int64_t i = 0; i < images; ++i) {
    for (int64_t k = 0; k < counts[i]; ++k, ++r) {
      const int64_t level = levels[r] - min_level;
      level_rois[level].insert(level_rois[level].end(), rois + r * 4, rois + r * 4 + 4);
      level_counts[level][i] += 1;
      level_members[level].push_back(r);
    }
  }
  restore_index->Resize(DDim({total, 1}));
  int32_t* restore = ctx.template Alloc<int32_t>(restore_index);
  int32_t row = 0;
  for (int64_t l = 0; l < num_levels; ++l) {
    const int64_t size = static_cast<int64_t>(level_members[l].size());
    detection_detail::CopyToTensor(ctx, level_rois[l], DDim({size, 4}), multi_fpn_rois[l]);
    if (!multi_level_rois_num.empty()) {
      detection_detail::CopyToTensor(ctx, level_counts[l], DDim({images}), multi_level_rois_num[l]);
    }
    for (int64_t member : level_members[l]) restore[member] = row++;
  }
}

template <typename T, typename Context>
void GenerateProposalsKernel(const Context& ctx, const DenseTensor& scores,
                             const DenseTensor& bbox_deltas, const DenseTensor& im_shape,
                             const DenseTensor& anchors, const DenseTensor& variances,
                             int32_t pre_nms_top_n, int32_t post_nms_top_n, float nms_thresh,
                             float min_size, float eta, bool pixel_offset, DenseTensor* rpn_rois,
                             DenseTensor* rpn_roi_probs, DenseTensor* rpn_rois_num) {
  const int64_t n = scores.dims()[0], a = scores.dims()[1];
  const int64_t h = scores.dims()[2], w = scores.dims()[3];
  const auto attrs =
      funcs::ProposalAttrs{pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta, pixel_offset};
  std::vector<T> rois, probs;
  std::vector<int32_t> per_image;
  for (int64_t i = 0; i < n; ++i) {
    const size_t before = probs.size();
    funcs::ProposalsForImage<T>(scores.data<T>() + i * a * h * w,
                                bbox_deltas.data<T>() + i * 4 * a * h * w, anchors.data<T>(),
                                variances.data<T>(), a, h, w, im_shape.data<T>() + i * 2, attrs,
                                &rois, &probs);
    per_image.push_back(static_cast<int32_t>(probs.size() - before));
  }
  const int64_t total = static_cast<int64_t>(probs.size());
  detection_detail::CopyToTensor(ctx, rois, DDim({total, 4}), rpn_rois);
  detection_detail::CopyToTensor(ctx, probs, DDim({total, 1}), rpn_roi_probs);
  detection_detail::CopyToTensor(ctx, per_image, DDim({n}), rpn_rois_num);
}

}  // namespace paddle
