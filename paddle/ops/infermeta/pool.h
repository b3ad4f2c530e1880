// InferMeta of the pooling ops and their gradients. The shape rules live in
// paddle/kernels/funcs/pool_geometry.h, which the kernels use too; these functions add the dtype
// checks and name each op in its errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// pool2d: x [N, C, H, W] or NHWC; pool3d: x [N, C, D, H, W] or NDHWC.
void Pool2dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     bool ceil_mode, bool exclusive, const std::string& data_format,
                     const std::string& pooling_type, bool global_pooling, bool adaptive,
                     const std::string& padding_algorithm, TensorMeta* out);
void Pool3dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     bool ceil_mode, bool exclusive, const std::string& data_format,
                     const std::string& pooling_type, bool global_pooling, bool adaptive,
                     const std::string& padding_algorithm, TensorMeta* out);

// The gradients: out and out_grad must have the forward output's shape; x_grad is x's meta.
void Pool2dGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& out_grad,
                         const std::vector<int32_t>& kernel_size,
                         const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                         bool ceil_mode, bool exclusive, const std::string& data_format,
                         const std::string& pooling_type, bool global_pooling, bool adaptive,
                         const std::string& padding_algorithm, TensorMeta* x_grad);
void Pool3dGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& out_grad,
                         const std::vector<int32_t>& kernel_size,
                         const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                         bool ceil_mode, bool exclusive, const std::string& data_format,
                         const std::string& pooling_type, bool global_pooling, bool adaptive,
                         const std::string& padding_algorithm, TensorMeta* x_grad);

// The second-order ops: grad_x_grad has x's shape, grad_out_grad the forward output's.
void Pool2dDoubleGradInferMeta(const TensorMeta& x, const TensorMeta& grad_x_grad,
                               const std::vector<int32_t>& kernel_size,
                               const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings, bool ceil_mode, bool exclusive,
                               const std::string& data_format, const std::string& pooling_type,
                               bool global_pooling, bool adaptive,
                               const std::string& padding_algorithm, TensorMeta* grad_out_grad);
void Pool3dDoubleGradInferMeta(const TensorMeta& x, const TensorMeta& grad_x_grad,
                               const std::vector<int32_t>& kernel_size,
                               const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings, bool ceil_mode, bool exclusive,
                               const std::string& data_format, const std::string& pooling_type,
                               bool global_pooling, bool adaptive,
                               const std::string& padding_algorithm, TensorMeta* grad_out_grad);

// lp_pool2d: pool2d's shape rule; norm_type must be finite and non-zero.
void LpPool2dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                       const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                       bool ceil_mode, bool exclusive, const std::string& data_format,
                       const std::string& pooling_type, bool global_pooling, bool adaptive,
                       const std::string& padding_algorithm, float norm_type, TensorMeta* out);

// max_pool2d/3d_with_index: channels first; mask is int32 of out's shape.
void MaxPool2dWithIndexInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                                 const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings, bool global_pooling,
                                 bool adaptive, bool ceil_mode, TensorMeta* out, TensorMeta* mask);
void MaxPool3dWithIndexInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                                 const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings, bool global_pooling,
                                 bool adaptive, bool ceil_mode, TensorMeta* out, TensorMeta* mask);

// unpool / unpool3d: indices (int32 or int64) of x's shape.
void UnpoolInferMeta(const TensorMeta& x, const TensorMeta& indices,
                     const std::vector<int32_t>& ksize, const std::vector<int32_t>& strides,
                     const std::vector<int32_t>& padding, const std::vector<int32_t>& output_size,
                     const std::string& data_format, TensorMeta* out);
void Unpool3dInferMeta(const TensorMeta& x, const TensorMeta& indices,
                       const std::vector<int32_t>& ksize, const std::vector<int32_t>& strides,
                       const std::vector<int32_t>& paddings,
                       const std::vector<int32_t>& output_size, const std::string& data_format,
                       TensorMeta* out);

}  // namespace paddle
