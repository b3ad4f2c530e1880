// Backward rules of the resampling ops. Each *_interp op and its *_interp_grad op are linear and
// each other's transpose, so each is the other's backward (gradients of any order); the size
// and scale inputs have no gradient. grid_sample's gradient is one kernel; affine_grid and
// affine_grid_grad are each other's transpose too.
#include <algorithm>
#include <string>
#include <vector>

#include "paddle/ops/generated/api/affine_grid.h"
#include "paddle/ops/generated/api/affine_grid_grad.h"
#include "paddle/ops/generated/api/bicubic_interp.h"
#include "paddle/ops/generated/api/bicubic_interp_grad.h"
#include "paddle/ops/generated/api/bilinear_interp.h"
#include "paddle/ops/generated/api/bilinear_interp_grad.h"
#include "paddle/ops/generated/api/grid_sample_grad.h"
#include "paddle/ops/generated/api/linear_interp.h"
#include "paddle/ops/generated/api/linear_interp_grad.h"
#include "paddle/ops/generated/api/nearest_interp.h"
#include "paddle/ops/generated/api/nearest_interp_grad.h"
#include "paddle/ops/generated/api/trilinear_interp.h"
#include "paddle/ops/generated/api/trilinear_interp_grad.h"
#include "paddle/ops/generated/grad_rules/interpolate.h"

namespace paddle::ops::grad {

// The two rules of one interpolate mode: <mode>_interp_grad runs the gradient op and
// <mode>_interp_grad_grad the forward op, with the same sizes and attributes.
#define PD_DEFINE_INTERP_GRAD_RULES(mode)                                                          \
  void mode##_interp_grad(                                                                         \
      const Tensor& x, const Tensor& out_size, const std::vector<Tensor>& size_tensor,             \
      const Tensor& scale_tensor, const Tensor& output_grad, const std::string& data_format,       \
      int32_t out_d, int32_t out_h, int32_t out_w, const std::vector<float>& scale,                \
      const std::string& interp_method, bool align_corners, int32_t align_mode, Tensor* x_grad) {  \
    if (!x_grad) return;                                                                           \
    *x_grad = ops::mode##_interp_grad(x, out_size, size_tensor, scale_tensor, output_grad,         \
                                      data_format, out_d, out_h, out_w, scale, interp_method,      \
                                      align_corners, align_mode);                                  \
  }                                                                                                \
  void mode##_interp_grad_grad(const Tensor& x, const Tensor& out_size,                            \
                               const std::vector<Tensor>& size_tensor, const Tensor& scale_tensor, \
                               const Tensor& x_grad_grad, const std::string& data_format,          \
                               int32_t out_d, int32_t out_h, int32_t out_w,                        \
                               const std::vector<float>& scale, const std::string& interp_method,  \
                               bool align_corners, int32_t align_mode, Tensor* output_grad_grad) { \
    if (!output_grad_grad) return;                                                                 \
    *output_grad_grad =                                                                            \
        ops::mode##_interp(x_grad_grad, out_size, size_tensor, scale_tensor, data_format, out_d,   \
                           out_h, out_w, scale, interp_method, align_corners, align_mode);         \
  }

PD_DEFINE_INTERP_GRAD_RULES(nearest)
PD_DEFINE_INTERP_GRAD_RULES(bilinear)
PD_DEFINE_INTERP_GRAD_RULES(bicubic)
PD_DEFINE_INTERP_GRAD_RULES(trilinear)
PD_DEFINE_INTERP_GRAD_RULES(linear)

#undef PD_DEFINE_INTERP_GRAD_RULES

void grid_sample_grad(const Tensor& x, const Tensor& grid, const Tensor& out_grad,
                      const std::string& mode, const std::string& padding_mode, bool align_corners,
                      Tensor* x_grad, Tensor* grid_grad) {
  if (!x_grad && !grid_grad) return;
  auto [dx, dgrid] = ops::grid_sample_grad(x, grid, out_grad, mode, padding_mode, align_corners);
  if (x_grad) *x_grad = dx;
  if (grid_grad) *grid_grad = dgrid;
}

void affine_grid_grad(const Tensor& output_grad, bool align_corners, Tensor* input_grad) {
  if (input_grad) *input_grad = ops::affine_grid_grad(output_grad, align_corners);
}

void affine_grid_grad_grad(const Tensor& output_grad, const Tensor& input_grad_grad,
                           bool align_corners, Tensor* output_grad_grad) {
  if (!output_grad_grad) return;
  // The grid's shape as affine_grid's out_shape: [N, C, (D,) H, W] (C is not read).
  std::vector<int64_t> shape = output_grad.dims().ToVector();
  shape.back() = 1;
  std::rotate(shape.begin() + 1, shape.end() - 1, shape.end());
  *output_grad_grad = ops::affine_grid(input_grad_grad, Tensor(), shape, align_corners);
}

}  // namespace paddle::ops::grad
