#include "paddle/ops/infermeta/roi.h"

#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/deformable_conv.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// What the RoI ops share: x [N, C, H, W] floating, boxes [num_rois, 4] in x's dtype, boxes_num
// [N] int32 or int64, positive bin counts and a positive finite scale. Returns the output dims
// [num_rois, channels, pooled_height, pooled_width].
DDim RoiOutputDims(const char* op, const TensorMeta& x, const TensorMeta& boxes,
                   const TensorMeta* boxes_num, int32_t pooled_height, int32_t pooled_width,
                   float spatial_scale, int64_t channels) {
  PD_CHECK(x.dims.size() == 4, errors::InvalidArgument(op,
                                                       ": argument 'x' must be a 4-D tensor [N, "
                                                       "C, H, W], received shape ",
                                                       x.dims.ToString()));
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
           errors::InvalidArgument(op, ": argument 'x' must be float32 or float64, received ",
                                   DataTypeName(x.dtype)));
  PD_CHECK(boxes.dims.size() == 2 && DimsAgree(boxes.dims[1], 4),
           errors::InvalidArgument(op,
                                   ": argument 'boxes' must be a 2-D tensor [num_rois, 4] of "
                                   "(x1, y1, x2, y2), received shape ",
                                   boxes.dims.ToString()));
  PD_CHECK(
      boxes.dtype == x.dtype,
      errors::InvalidArgument(op, ": argument 'boxes' must have the dtype of 'x' (",
                              DataTypeName(x.dtype), "), received ", DataTypeName(boxes.dtype)));
  if (boxes_num != nullptr) {
    PD_CHECK(boxes_num->dims.size() == 1 && DimsAgree(boxes_num->dims[0], x.dims[0]),
             errors::InvalidArgument(op,
                                     ": argument 'boxes_num' must be 1-D with one count per "
                                     "image of 'x' (",
                                     x.dims[0], "), received shape ", boxes_num->dims.ToString()));
    PD_CHECK(boxes_num->dtype == DataType::INT32 || boxes_num->dtype == DataType::INT64,
             errors::InvalidArgument(op,
                                     ": argument 'boxes_num' must be int32 or int64, "
                                     "received ",
                                     DataTypeName(boxes_num->dtype)));
  }
  PD_CHECK(pooled_height > 0 && pooled_width > 0,
           errors::InvalidArgument(op,
                                   ": 'pooled_height' and 'pooled_width' (the output size) must "
                                   "be positive, received ",
                                   pooled_height, " and ", pooled_width));
  PD_CHECK(spatial_scale > 0 && std::isfinite(spatial_scale),
           errors::InvalidArgument(op, ": 'spatial_scale' must be positive and finite, received ",
                                   spatial_scale));
  return DDim({boxes.dims[0], channels, pooled_height, pooled_width});
}

void CheckOutGrad(const char* op, const char* name, const TensorMeta& grad, const DDim& expected,
                  DataType dtype) {
  PD_CHECK(
      ShapesAgree(grad.dims, expected) && grad.dtype == dtype,
      errors::InvalidArgument(op, ": argument '", name, "' must have the shape ",
                              expected.ToString(), " and dtype ", DataTypeName(dtype),
                              ", received ", grad.dims.ToString(), " ", DataTypeName(grad.dtype)));
}

// The channels of psroi_pool's output, after checking x's against them.
int64_t PsroiChannels(const char* op, const TensorMeta& x, int32_t pooled_height,
                      int32_t pooled_width, int32_t output_channels) {
  PD_CHECK(output_channels > 0,
           errors::InvalidArgument(op, ": 'output_channels' must be positive, received ",
                                   output_channels));
  if (x.dims.size() == 4 && pooled_height > 0 && pooled_width > 0) {
    const int64_t expected = int64_t{output_channels} * pooled_height * pooled_width;
    PD_CHECK(DimsAgree(x.dims[1], expected),
             errors::InvalidArgument(op, ": the channels of 'x' must be output_channels (",
                                     output_channels, ") * pooled_height (", pooled_height,
                                     ") * pooled_width (", pooled_width, ") = ", expected,
                                     ", received ", x.dims[1]));
  }
  return output_channels;
}

funcs::DeformableConvGeometry DeformableGeometry(
    const char* op, const TensorMeta& x, const TensorMeta& offset, const TensorMeta& filter,
    const TensorMeta* mask, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& dilations,
    int32_t deformable_groups, int32_t groups, int32_t im2col_step) {
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
           errors::InvalidArgument(op, ": argument 'x' must be float32 or float64, received ",
                                   DataTypeName(x.dtype)));
  funcs::DeformableConvGeometry g = funcs::DeformableConvolutionGeometry(
      op, x.dims, filter.dims, strides, paddings, dilations, deformable_groups, groups);
  PD_CHECK(im2col_step > 0,
           errors::InvalidArgument(op, ": 'im2col_step' must be positive, received ", im2col_step));
  const std::pair<const TensorMeta*, const char*> others[] = {
      {&offset, "offset"}, {&filter, "filter"}, {mask, "mask"}};
  for (const auto& [t, name] : others) {
    if (t == nullptr) continue;
    PD_CHECK(
        t->dtype == x.dtype,
        errors::InvalidArgument(op, ": argument '", name, "' must have the dtype of 'x' (",
                                DataTypeName(x.dtype), "), received ", DataTypeName(t->dtype)));
  }
  PD_CHECK(ShapesAgree(offset.dims, g.OffsetDims()),
           errors::InvalidArgument(
               op, ": argument 'offset' must have the shape ", g.OffsetDims().ToString(),
               " [N, deformable_groups * 2 * kh * kw, H_out, W_out] for deformable_groups ",
               deformable_groups, " and a ", g.kernel_h, " x ", g.kernel_w, " kernel, received ",
               offset.dims.ToString()));
  if (mask != nullptr) {
    PD_CHECK(ShapesAgree(mask->dims, g.MaskDims()),
             errors::InvalidArgument(
                 op, ": argument 'mask' must have the shape ", g.MaskDims().ToString(),
                 " [N, deformable_groups * kh * kw, H_out, W_out] for deformable_groups ",
                 deformable_groups, " and a ", g.kernel_h, " x ", g.kernel_w, " kernel, received ",
                 mask->dims.ToString()));
  }
  // Unknown dims of x may be known in offset (and the mask).
  const DDim merged = MergeShapes(
      g.OutputDims(), DDim({offset.dims[0], g.out_channels, offset.dims[2], offset.dims[3]}));
  g.batch = merged[0];
  g.out_h = merged[2];
  g.out_w = merged[3];
  return g;
}

}  // namespace

void RoiAlignInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                       int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                       int32_t sampling_ratio, bool aligned, TensorMeta* out) {
  const int64_t channels = x.dims.size() == 4 ? x.dims[1] : -1;
  out->dims = RoiOutputDims("roi_align", x, boxes, boxes_num, pooled_height, pooled_width,
                            spatial_scale, channels);
  out->dtype = x.dtype;
}

void RoiAlignGradInferMeta(const TensorMeta& x, const TensorMeta& boxes,
                           const TensorMeta* boxes_num, const TensorMeta& out_grad,
                           int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                           int32_t sampling_ratio, bool aligned, TensorMeta* x_grad) {
  const int64_t channels = x.dims.size() == 4 ? x.dims[1] : -1;
  const DDim out = RoiOutputDims("roi_align_grad", x, boxes, boxes_num, pooled_height, pooled_width,
                                 spatial_scale, channels);
  CheckOutGrad("roi_align_grad", "out_grad", out_grad, out, x.dtype);
  *x_grad = x;
}

void RoiPoolInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                      int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                      TensorMeta* out, TensorMeta* arg_max) {
  const int64_t channels = x.dims.size() == 4 ? x.dims[1] : -1;
  out->dims = RoiOutputDims("roi_pool", x, boxes, boxes_num, pooled_height, pooled_width,
                            spatial_scale, channels);
  out->dtype = x.dtype;
  arg_max->dims = out->dims;
  arg_max->dtype = DataType::INT64;
}

void RoiPoolGradInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                          const TensorMeta& arg_max, const TensorMeta& out_grad,
                          int32_t pooled_height, int32_t pooled_width, float spatial_scale,
                          TensorMeta* x_grad) {
  const int64_t channels = x.dims.size() == 4 ? x.dims[1] : -1;
  const DDim out = RoiOutputDims("roi_pool_grad", x, boxes, boxes_num, pooled_height, pooled_width,
                                 spatial_scale, channels);
  CheckOutGrad("roi_pool_grad", "arg_max", arg_max, out, DataType::INT64);
  CheckOutGrad("roi_pool_grad", "out_grad", out_grad, out, x.dtype);
  *x_grad = x;
}

void PsroiPoolInferMeta(const TensorMeta& x, const TensorMeta& boxes, const TensorMeta* boxes_num,
                        int32_t pooled_height, int32_t pooled_width, int32_t output_channels,
                        float spatial_scale, TensorMeta* out) {
  const int64_t channels =
      PsroiChannels("psroi_pool", x, pooled_height, pooled_width, output_channels);
  out->dims = RoiOutputDims("psroi_pool", x, boxes, boxes_num, pooled_height, pooled_width,
                            spatial_scale, channels);
  out->dtype = x.dtype;
}

void PsroiPoolGradInferMeta(const TensorMeta& x, const TensorMeta& boxes,
                            const TensorMeta* boxes_num, const TensorMeta& out_grad,
                            int32_t pooled_height, int32_t pooled_width, int32_t output_channels,
                            float spatial_scale, TensorMeta* x_grad) {
  const int64_t channels =
      PsroiChannels("psroi_pool_grad", x, pooled_height, pooled_width, output_channels);
  const DDim out = RoiOutputDims("psroi_pool_grad", x, boxes, boxes_num, pooled_height,
                                 pooled_width, spatial_scale, channels);
  CheckOutGrad("psroi_pool_grad", "out_grad", out_grad, out, x.dtype);
  *x_grad = x;
}

void DeformableConvInferMeta(const TensorMeta& x, const TensorMeta& offset,
                             const TensorMeta& filter, const TensorMeta* mask,
                             const std::vector<int32_t>& strides,
                             const std::vector<int32_t>& paddings,
                             const std::vector<int32_t>& dilations, int32_t deformable_groups,
                             int32_t groups, int32_t im2col_step, TensorMeta* out) {
  auto g = DeformableGeometry("deformable_conv", x, offset, filter, mask, strides, paddings,
                              dilations, deformable_groups, groups, im2col_step);
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

void DeformableConvV1InferMeta(const TensorMeta& x, const TensorMeta& offset,
                               const TensorMeta& filter, const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings,
                               const std::vector<int32_t>& dilations, int32_t deformable_groups,
                               int32_t groups, int32_t im2col_step, TensorMeta* out) {
  auto g = DeformableGeometry("deformable_conv_v1", x, offset, filter, nullptr, strides, paddings,
                              dilations, deformable_groups, groups, im2col_step);
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

void DeformableConvGradInferMeta(const TensorMeta& x, const TensorMeta& offset,
                                 const TensorMeta& filter, const TensorMeta* mask,
                                 const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings,
                                 const std::vector<int32_t>& dilations, int32_t deformable_groups,
                                 int32_t groups, int32_t im2col_step, TensorMeta* x_grad,
                                 TensorMeta* offset_grad, TensorMeta* filter_grad,
                                 TensorMeta* mask_grad) {
  const char* op = "deformable_conv_grad";
  auto g = DeformableGeometry(op, x, offset, filter, mask, strides, paddings, dilations,
                              deformable_groups, groups, im2col_step);
  CheckOutGrad(op, "out_grad", out_grad, g.OutputDims(), x.dtype);
  *x_grad = x;
  *offset_grad = offset;
  *filter_grad = filter;
  if (mask != nullptr) {
    *mask_grad = *mask;
  } else {
    mask_grad->dims = DDim({0});
    mask_grad->dtype = x.dtype;
  }
}

}  // namespace paddle
