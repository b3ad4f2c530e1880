// Backward rules of the RoI pooling ops and the deformable convolutions: each first-order rule is
// the op's gradient kernel, which scatters out_grad back in one pass (composed from forward ops,
// the bilinear samples and bin windows would be gathers and scatters of many intermediates).
// roi_align_grad and psroi_pool_grad are linear in out_grad and their adjoint is the forward op,
// which gives their own gradients and so gradients of any order. roi_pool's gradient routes
// through arg_max and the deformable convolution's is not linear in the offsets; their gradient
// kernels have no gradient of their own.
#include <string>
#include <tuple>
#include <vector>

#include "paddle/ops/generated/api/deformable_conv_grad.h"
#include "paddle/ops/generated/api/psroi_pool.h"
#include "paddle/ops/generated/api/psroi_pool_grad.h"
#include "paddle/ops/generated/api/roi_align.h"
#include "paddle/ops/generated/api/roi_align_grad.h"
#include "paddle/ops/generated/api/roi_pool_grad.h"
#include "paddle/ops/generated/grad_rules/roi.h"

namespace paddle::ops::grad {

void roi_align_grad(const Tensor& x, const Tensor& boxes, const Tensor& boxes_num,
                    const Tensor& out_grad, int pooled_height, int pooled_width,
                    float spatial_scale, int sampling_ratio, bool aligned, Tensor* x_grad) {
  if (x_grad) {
    *x_grad = ops::roi_align_grad(x, boxes, boxes_num, out_grad, pooled_height, pooled_width,
                                  spatial_scale, sampling_ratio, aligned);
  }
}

void roi_align_grad_grad(const Tensor& boxes, const Tensor& boxes_num, const Tensor& x_grad_grad,
                         int pooled_height, int pooled_width, float spatial_scale,
                         int sampling_ratio, bool aligned, Tensor* out_grad_grad) {
  if (out_grad_grad) {
    *out_grad_grad = roi_align(x_grad_grad, boxes, boxes_num, pooled_height, pooled_width,
                               spatial_scale, sampling_ratio, aligned);
  }
}

void roi_pool_grad(const Tensor& x, const Tensor& boxes, const Tensor& boxes_num,
                   const Tensor& arg_max, const Tensor& out_grad, int pooled_height,
                   int pooled_width, float spatial_scale, Tensor* x_grad) {
  if (x_grad) {
    *x_grad = ops::roi_pool_grad(x, boxes, boxes_num, arg_max, out_grad, pooled_height,
                                 pooled_width, spatial_scale);
  }
}

void psroi_pool_grad(const Tensor& x, const Tensor& boxes, const Tensor& boxes_num,
                     const Tensor& out_grad, int pooled_height, int pooled_width,
                     int output_channels, float spatial_scale, Tensor* x_grad) {
  if (x_grad) {
    *x_grad = ops::psroi_pool_grad(x, boxes, boxes_num, out_grad, pooled_height, pooled_width,
                                   output_channels, spatial_scale);
  }
}

void psroi_pool_grad_grad(const Tensor& boxes, const Tensor& boxes_num, const Tensor& x_grad_grad,
                          int pooled_height, int pooled_width, int output_channels,
                          float spatial_scale, Tensor* out_grad_grad) {
  if (out_grad_grad) {
    *out_grad_grad = psroi_pool(x_grad_grad, boxes, boxes_num, pooled_height, pooled_width,
                                output_channels, spatial_scale);
  }
}

void deformable_conv_grad(const Tensor& x, const Tensor& offset, const Tensor& filter,
                          const Tensor& mask, const Tensor& out_grad,
                          const std::vector<int>& strides, const std::vector<int>& paddings,
                          const std::vector<int>& dilations, int deformable_groups, int groups,
                          int im2col_step, Tensor* x_grad, Tensor* offset_grad, Tensor* filter_grad,
                          Tensor* mask_grad) {
  auto [dx, doffset, dfilter, dmask] =
      ops::deformable_conv_grad(x, offset, filter, mask, out_grad, strides, paddings, dilations,
                                deformable_groups, groups, im2col_step);
  if (x_grad) *x_grad = dx;
  if (offset_grad) *offset_grad = doffset;
  if (filter_grad) *filter_grad = dfilter;
  if (mask_grad && mask.defined()) *mask_grad = dmask;
}

void deformable_conv_v1_grad(const Tensor& x, const Tensor& offset, const Tensor& filter,
                             const Tensor& out_grad, const std::vector<int>& strides,
                             const std::vector<int>& paddings, const std::vector<int>& dilations,
                             int deformable_groups, int groups, int im2col_step, Tensor* x_grad,
                             Tensor* offset_grad, Tensor* filter_grad) {
  deformable_conv_grad(x, offset, filter, Tensor(), out_grad, strides, paddings, dilations,
                       deformable_groups, groups, im2col_step, x_grad, offset_grad, filter_grad,
                       nullptr);
}

}  // namespace paddle::ops::grad
