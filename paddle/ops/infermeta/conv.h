// InferMeta of the convolution ops and their gradients. The shape rules live in
// paddle/kernels/funcs/conv_geometry.h, which the kernels use too; these functions add the
// dtype checks and name each op in its errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// conv2d, depthwise_conv2d: input [N, C, H, W] or NHWC, filter [C_out, C / groups, kh, kw].
void Conv2dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::string& padding_algorithm, const std::vector<int32_t>& dilations,
                     int32_t groups, const std::string& data_format, TensorMeta* out);
void DepthwiseConv2dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                              const std::vector<int32_t>& strides,
                              const std::vector<int32_t>& paddings,
                              const std::string& padding_algorithm,
                              const std::vector<int32_t>& dilations, int32_t groups,
                              const std::string& data_format, TensorMeta* out);
// conv3d takes groups before dilations, as Paddle's does.
void Conv3dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::string& padding_algorithm, int32_t groups,
                     const std::vector<int32_t>& dilations, const std::string& data_format,
                     TensorMeta* out);

// The gradients take the metas of input and filter; out_grad must have the forward's output
// shape.
void Conv2dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                         const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                         const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
                         const std::vector<int32_t>& dilations, int32_t groups,
                         const std::string& data_format, TensorMeta* input_grad,
                         TensorMeta* filter_grad);
void DepthwiseConv2dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                                  const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                                  const std::vector<int32_t>& paddings,
                                  const std::string& padding_algorithm,
                                  const std::vector<int32_t>& dilations, int32_t groups,
                                  const std::string& data_format, TensorMeta* input_grad,
                                  TensorMeta* filter_grad);
void Conv3dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                         const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                         const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
                         int32_t groups, const std::vector<int32_t>& dilations,
                         const std::string& data_format, TensorMeta* input_grad,
                         TensorMeta* filter_grad);

// conv2d_transpose, depthwise_conv2d_transpose (4-D) and conv3d_transpose (5-D): x
// [N, C, spatial...], filter [C, C_out / groups, k...].
void Conv2dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out);
void DepthwiseConv2dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out);
void Conv3dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out);

void Conv2dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad);
void DepthwiseConv2dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad);
void Conv3dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad);

}  // namespace paddle
