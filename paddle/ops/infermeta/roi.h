// InferMeta of the RoI pooling ops (roi_align, roi_pool, psroi_pool), the deformable convolutions
// and their gradients. x is [N, C, H, W]; boxes [num_rois, 4] in x's dtype; boxes_num (optional)
// [N] int32 or int64. Whether the counts in boxes_num add up to num_rois depends on the data, so
// the kernels check it.
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out: [num_rois, C, pooled_height, pooled_width].
void RoiAlignInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                       int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                       int32_t sampling_ratio, bool aligned, TensorMeta* out);
void RoiAlignGradInferMeta(const TensorMeta& x, const TensorMeta& boxes,
                           const TensorMeta* boxes_num, const TensorMeta& out_grad,
                           int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                           int32_t sampling_ratio, bool aligned, TensorMeta* x_grad);

// out: [num_rois, C, pooled_height, pooled_width]; arg_max: the same, int64.
void RoiPoolInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                      int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                      TensorMeta* out, TensorMeta* arg_max);
void RoiPoolGradInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                          const TensorMeta& arg_max, const TensorMeta& out_grad,
                          int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                          TensorMeta* x_grad);

// C == output_channels * pooled_height * pooled_width; out: [num_rois, output_channels,
// pooled_height, pooled_width].
void PsroiPoolInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                        int32_t pooled_height, int32_t pooled_width, int32_t output_channels,
                        float spatial_scale, TensorMeta* out);
void PsroiPoolGradInferMeta(const TensorMeta& x, const TensorMeta& boxes,
                            const TensorMeta* boxes_num, const TensorMeta& out_grad,
                            int32_t pooled_height, int32_t pooled_width, int32_t output_channels,
                            float spatial_scale, TensorMeta* x_grad);

// filter [C_out, C / groups, kh, kw]; offset [N, deformable_groups * 2 * kh * kw, H_out, W_out];
// mask [N, deformable_groups * kh * kw, H_out, W_out]; out: [N, C_out, H_out, W_out].
void DeformableConvInferMeta(const TensorMeta& x, const TensorMeta& offset,
                             const TensorMeta& filter, const TensorMeta* mask,
                             const std::vector<int32_t>& strides,
                             const std::vector<int32_t>& paddings,
                             const std::vector<int32_t>& dilations, int32_t deformable_groups,
                             int32_t groups, int32_t im2col_step, TensorMeta* out);
void DeformableConvV1InferMeta(const TensorMeta& x, const TensorMeta& offset,
                               const TensorMeta& filter, const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings,
                               const std::vector<int32_t>& dilations, int32_t deformable_groups,
                               int32_t groups, int32_t im2col_step, TensorMeta* out);
// Each gradient takes its input's meta; mask_grad is [0] without a mask.
void DeformableConvGradInferMeta(const TensorMeta& x, const TensorMeta& offset,
                                 const TensorMeta& filter, const TensorMeta* mask,
                                 const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings,
                                 const std::vector<int32_t>& dilations, int32_t deformable_groups,
                                 int32_t groups, int32_t im2col_step, TensorMeta* x_grad,
                                 TensorMeta* offset_grad, TensorMeta* filter_grad,
                                 TensorMeta* mask_grad);

}  // namespace paddle
