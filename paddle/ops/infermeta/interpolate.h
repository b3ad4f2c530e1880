// InferMeta of the resampling ops: interpolate (the five *_interp ops), grid_sample and
// affine_grid, with their gradient ops.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// output is x with its spatial dims resized: to the values of size_tensor or out_size (unknown
// until the kernel reads them), by the factors of scale_tensor (likewise) or scale, or to
// out_d / out_h / out_w, whichever comes first (paddle/ops/yaml/interpolate.yaml).
void InterpolateInferMeta(const TensorMeta& x, const TensorMeta* out_size,
                          const std::vector<TensorMeta>& size_tensor,
                          const TensorMeta* scale_tensor, const std::string& data_format,
                          int32_t out_d, int32_t out_h, int32_t out_w,
                          const std::vector<float>& scale, const std::string& interp_method,
                          bool align_corners, int32_t align_mode, TensorMeta* output);
// x_grad has x's dims and output_grad's dtype; output_grad has x's rank, batch and channels.
void InterpolateGradInferMeta(const TensorMeta& x, const TensorMeta* out_size,
                              const std::vector<TensorMeta>& size_tensor,
                              const TensorMeta* scale_tensor, const TensorMeta& output_grad,
                              const std::string& data_format, int32_t out_d, int32_t out_h,
                              int32_t out_w, const std::vector<float>& scale,
                              const std::string& interp_method, bool align_corners,
                              int32_t align_mode, TensorMeta* x_grad);

// x [N, C, H, W] with grid [N, H_out, W_out, 2] gives out [N, C, H_out, W_out]; x [N, C, D, H, W]
// with grid [N, D_out, H_out, W_out, 3] gives [N, C, D_out, H_out, W_out].
void GridSampleInferMeta(const TensorMeta& x, const TensorMeta& grid, const std::string& mode,
                         const std::string& padding_mode, bool align_corners, TensorMeta* out);
void GridSampleGradInferMeta(const TensorMeta& x, const TensorMeta& grid,
                             const TensorMeta& out_grad, const std::string& mode,
                             const std::string& padding_mode, bool align_corners,
                             TensorMeta* x_grad, TensorMeta* grid_grad);

// input (theta) [N, 2, 3] with a 4-entry output_shape [N, C, H, W] gives [N, H, W, 2]; [N, 3, 4]
// with a 5-entry [N, C, D, H, W] gives [N, D, H, W, 3]. output_shape_tensor, when given,
// replaces output_shape (its values are read by the kernel).
void AffineGridInferMeta(const TensorMeta& input, const TensorMeta* output_shape_tensor,
                         const std::vector<int64_t>& output_shape, bool align_corners,
                         TensorMeta* output);
// output_grad [N, H, W, 2] gives input_grad [N, 2, 3]; [N, D, H, W, 3] gives [N, 3, 4].
void AffineGridGradInferMeta(const TensorMeta& output_grad, bool align_corners,
                             TensorMeta* input_grad);

}  // namespace paddle
