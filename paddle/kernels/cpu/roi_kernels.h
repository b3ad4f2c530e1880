// CPU kernels of the RoI pooling ops and the deformable convolutions. Each resolves its tensors'
// shapes (checked by the op's InferMeta) and runs the routines of funcs/roi_pooling.h and
// funcs/deformable_conv.h, compiled once per dtype out of line.
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/deformable_conv.h"
#include "paddle/kernels/funcs/roi_pooling.h"

namespace paddle {

namespace roi_detail {

inline funcs::RoiPoolingShape Shape(const DDim& x, const DenseTensor& boxes, int pooled_height,
                                    int pooled_width, float spatial_scale) {
  funcs::RoiPoolingShape s;
  s.batch = x[0];
  s.channels = x[1];
  s.height = x[2];
  s.width = x[3];
  s.num_rois = boxes.dims()[0];
  s.pooled_height = pooled_height;
  s.pooled_width = pooled_width;
  s.spatial_scale = spatial_scale;
  return s;
}

inline funcs::DeformableConvGeometry Geometry(const char* op, const DenseTensor& x,
                                              const DenseTensor& filter,
                                              const std::vector<int>& strides,
                                              const std::vector<int>& paddings,
                                              const std::vector<int>& dilations,
                                              int deformable_groups, int groups) {
  return funcs::DeformableConvolutionGeometry(op, x.dims(), filter.dims(), strides, paddings,
                                              dilations, deformable_groups, groups);
}

}  // namespace roi_detail

template <typename T, typename Context>
void RoiAlignKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                    const DenseTensor* boxes_num, int pooled_height, int pooled_width,
                    float spatial_scale, int sampling_ratio, bool aligned, DenseTensor* out) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image = funcs::RoiImages("roi_align", boxes_num, s.num_rois, s.batch);
  T* y = ctx.template Alloc<T>(out);
  funcs::RoiAlignForward<T>(s, x.data<T>(), boxes.data<T>(), image.data(), sampling_ratio, aligned,
                            y);
}

// x is read for its shape only.
template <typename T, typename Context>
void RoiAlignGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                        const DenseTensor* boxes_num, const DenseTensor& out_grad,
                        int pooled_height, int pooled_width, float spatial_scale,
                        int sampling_ratio, bool aligned, DenseTensor* x_grad) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image =
      funcs::RoiImages("roi_align_grad", boxes_num, s.num_rois, s.batch);
  T* dx = ctx.template Alloc<T>(x_grad);
  funcs::RoiAlignBackward<T>(s, boxes.data<T>(), image.data(), sampling_ratio, aligned,
                             out_grad.data<T>(), dx);
}

template <typename T, typename Context>
void RoiPoolKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                   const DenseTensor* boxes_num, int pooled_height, int pooled_width,
                   float spatial_scale, DenseTensor* out, DenseTensor* arg_max) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image = funcs::RoiImages("roi_pool", boxes_num, s.num_rois, s.batch);
  T* y = ctx.template Alloc<T>(out);
  int64_t* where = ctx.template Alloc<int64_t>(arg_max);
  funcs::RoiPoolForward<T>(s, x.data<T>(), boxes.data<T>(), image.data(), y, where);
}

template <typename T, typename Context>
void RoiPoolGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                       const DenseTensor* boxes_num, const DenseTensor& arg_max,
                       const DenseTensor& out_grad, int pooled_height, int pooled_width,
                       float spatial_scale, DenseTensor* x_grad) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image =
      funcs::RoiImages("roi_pool_grad", boxes_num, s.num_rois, s.batch);
  T* dx = ctx.template Alloc<T>(x_grad);
  funcs::RoiPoolBackward<T>(s, image.data(), arg_max.data<int64_t>(), out_grad.data<T>(), dx);
}

template <typename T, typename Context>
void PsroiPoolKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                     const DenseTensor* boxes_num, int pooled_height, int pooled_width,
                     int output_channels, float spatial_scale, DenseTensor* out) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image = funcs::RoiImages("psroi_pool", boxes_num, s.num_rois, s.batch);
  T* y = ctx.template Alloc<T>(out);
  funcs::PsroiPoolForward<T>(s, x.data<T>(), boxes.data<T>(), image.data(), y);
}

template <typename T, typename Context>
void PsroiPoolGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& boxes,
                         const DenseTensor* boxes_num, const DenseTensor& out_grad,
                         int pooled_height, int pooled_width, int output_channels,
                         float spatial_scale, DenseTensor* x_grad) {
  auto s = roi_detail::Shape(x.dims(), boxes, pooled_height, pooled_width, spatial_scale);
  const std::vector<int64_t> image =
      funcs::RoiImages("psroi_pool_grad", boxes_num, s.num_rois, s.batch);
  T* dx = ctx.template Alloc<T>(x_grad);
  funcs::PsroiPoolBackward<T>(s, boxes.data<T>(), image.data(), out_grad.data<T>(), dx);
}

template <typename T, typename Context>
void DeformableConvKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& offset,
                          const DenseTensor& filter, const DenseTensor* mask,
                          const std::vector<int>& strides, const std::vector<int>& paddings,
                          const std::vector<int>& dilations, int deformable_groups, int groups,
                          int im2col_step, DenseTensor* out) {
  auto g = roi_detail::Geometry("deformable_conv", x, filter, strides, paddings, dilations,
                                deformable_groups, groups);
  T* y = ctx.template Alloc<T>(out);
  funcs::DeformableConvForward<T>(g, x.data<T>(), offset.data<T>(),
                                  mask ? mask->data<T>() : nullptr, filter.data<T>(), y);
}

template <typename T, typename Context>
void DeformableConvV1Kernel(const Context& ctx, const DenseTensor& x, const DenseTensor& offset,
                            const DenseTensor& filter, const std::vector<int>& strides,
                            const std::vector<int>& paddings, const std::vector<int>& dilations,
                            int deformable_groups, int groups, int im2col_step, DenseTensor* out) {
  DeformableConvKernel<T>(ctx, x, offset, filter, nullptr, strides, paddings, dilations,
                          deformable_groups, groups, im2col_step, out);
}

template <typename T, typename Context>
void DeformableConvGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& offset,
                              const DenseTensor& filter, const DenseTensor* mask,
                              const DenseTensor& out_grad, const std::vector<int>& strides,
                              const std::vector<int>& paddings, const std::vector<int>& dilations,
                              int deformable_groups, int groups, int im2col_step,
                              DenseTensor* x_grad, DenseTensor* offset_grad,
                              DenseTensor* filter_grad, DenseTensor* mask_grad) {
  auto g = roi_detail::Geometry("deformable_conv_grad", x, filter, strides, paddings, dilations,
                                deformable_groups, groups);
  T* dx = ctx.template Alloc<T>(x_grad);
  T* doffset = ctx.template Alloc<T>(offset_grad);
  T* dfilter = ctx.template Alloc<T>(filter_grad);
  T* dmask = ctx.template Alloc<T>(mask_grad);
  funcs::DeformableConvBackward<T>(
      g, x.data<T>(), offset.data<T>(), mask ? mask->data<T>() : nullptr, filter.data<T>(),
      out_grad.data<T>(), dx, doffset, dfilter, mask ? dmask : nullptr);
}

}  // namespace paddle
