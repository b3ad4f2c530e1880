#include "paddle/ops/infermeta/conv.h"

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/conv_geometry.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

using funcs::ConvAttrs;
using funcs::ConvGeometry;

void CheckDtypes(const char* op, const char* x_name, const TensorMeta& x,
                 const TensorMeta& filter) {
  PD_CHECK(
      x.dtype == filter.dtype,
      errors::InvalidArgument(op, ": 'filter' must have the dtype of '", x_name, "' (",
                              DataTypeName(x.dtype), "), received ", DataTypeName(filter.dtype)));
}

void Forward(const char* op, int rank, const TensorMeta& input, const TensorMeta& filter,
             const ConvAttrs& attrs, TensorMeta* out) {
  CheckDtypes(op, "input", input, filter);
  ConvGeometry g = funcs::ConvolutionGeometry(op, input.dims, filter.dims, rank, attrs);
  out->dims = g.OutputDims();
  out->dtype = input.dtype;
}

void CheckOutGrad(const char* op, const TensorMeta& out_grad, const DDim& expected) {
  PD_CHECK(ShapesAgree(out_grad.dims, expected),
           errors::InvalidArgument(op, ": 'out_grad' must have the forward output's shape ",
                                   expected.ToString(), ", received ", out_grad.dims.ToString()));
}

void Grads(const TensorMeta& x, const TensorMeta& filter, TensorMeta* x_grad,
           TensorMeta* filter_grad) {
  if (x_grad) *x_grad = x;
  if (filter_grad) *filter_grad = filter;
}

void Backward(const char* op, int rank, const TensorMeta& input, const TensorMeta& filter,
              const TensorMeta& out_grad, const ConvAttrs& attrs, TensorMeta* input_grad,
              TensorMeta* filter_grad) {
  CheckDtypes(op, "input", input, filter);
  ConvGeometry g = funcs::ConvolutionGeometry(op, input.dims, filter.dims, rank, attrs);
  CheckOutGrad(op, out_grad, g.OutputDims());
  Grads(input, filter, input_grad, filter_grad);
}

void TransposeForward(const char* op, int rank, const TensorMeta& x, const TensorMeta& filter,
                      const ConvAttrs& attrs, const std::vector<int32_t>& output_padding,
                      const std::vector<int32_t>& output_size, TensorMeta* out) {
  CheckDtypes(op, "x", x, filter);
  ConvGeometry g = funcs::TransposedConvolutionGeometry(op, x.dims, filter.dims, rank, attrs,
                                                        output_padding, output_size);
  out->dims = g.InputDims();
  out->dtype = x.dtype;
}

void TransposeBackward(const char* op, int rank, const TensorMeta& x, const TensorMeta& filter,
                       const TensorMeta& out_grad, const ConvAttrs& attrs,
                       const std::vector<int32_t>& output_padding,
                       const std::vector<int32_t>& output_size, TensorMeta* x_grad,
                       TensorMeta* filter_grad) {
  CheckDtypes(op, "x", x, filter);
  ConvGeometry g = funcs::TransposedConvolutionGeometry(op, x.dims, filter.dims, rank, attrs,
                                                        output_padding, output_size);
  CheckOutGrad(op, out_grad, g.InputDims());
  Grads(x, filter, x_grad, filter_grad);
}

}  // namespace

void Conv2dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::string& padding_algorithm, const std::vector<int32_t>& dilations,
                     int32_t groups, const std::string& data_format, TensorMeta* out) {
  Forward("conv2d", 2, input, filter,
          {strides, paddings, padding_algorithm, dilations, groups, data_format}, out);
}

void DepthwiseConv2dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                              const std::vector<int32_t>& strides,
                              const std::vector<int32_t>& paddings,
                              const std::string& padding_algorithm,
                              const std::vector<int32_t>& dilations, int32_t groups,
                              const std::string& data_format, TensorMeta* out) {
  Forward("depthwise_conv2d", 2, input, filter,
          {strides, paddings, padding_algorithm, dilations, groups, data_format}, out);
}

void Conv3dInferMeta(const TensorMeta& input, const TensorMeta& filter,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::string& padding_algorithm, int32_t groups,
                     const std::vector<int32_t>& dilations, const std::string& data_format,
                     TensorMeta* out) {
  Forward("conv3d", 3, input, filter,
          {strides, paddings, padding_algorithm, dilations, groups, data_format}, out);
}

void Conv2dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                         const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                         const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
                         const std::vector<int32_t>& dilations, int32_t groups,
                         const std::string& data_format, TensorMeta* input_grad,
                         TensorMeta* filter_grad) {
  Backward("conv2d_grad", 2, input, filter, out_grad,
           {strides, paddings, padding_algorithm, dilations, groups, data_format}, input_grad,
           filter_grad);
}

void DepthwiseConv2dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                                  const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                                  const std::vector<int32_t>& paddings,
                                  const std::string& padding_algorithm,
                                  const std::vector<int32_t>& dilations, int32_t groups,
                                  const std::string& data_format, TensorMeta* input_grad,
                                  TensorMeta* filter_grad) {
  Backward("depthwise_conv2d_grad", 2, input, filter, out_grad,
           {strides, paddings, padding_algorithm, dilations, groups, data_format}, input_grad,
           filter_grad);
}

void Conv3dGradInferMeta(const TensorMeta& input, const TensorMeta& filter,
                         const TensorMeta& out_grad, const std::vector<int32_t>& strides,
                         const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
                         int32_t groups, const std::vector<int32_t>& dilations,
                         const std::string& data_format, TensorMeta* input_grad,
                         TensorMeta* filter_grad) {
  Backward("conv3d_grad", 3, input, filter, out_grad,
           {strides, paddings, padding_algorithm, dilations, groups, data_format}, input_grad,
           filter_grad);
}

void Conv2dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out) {
  TransposeForward("conv2d_transpose", 2, x, filter,
                   {strides, paddings, padding_algorithm, dilations, groups, data_format},
                   output_padding, output_size, out);
}

void DepthwiseConv2dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out) {
  TransposeForward("depthwise_conv2d_transpose", 2, x, filter,
                   {strides, paddings, padding_algorithm, dilations, groups, data_format},
                   output_padding, output_size, out);
}

void Conv3dTransposeInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_padding,
    const std::vector<int32_t>& output_size, const std::string& padding_algorithm, int32_t groups,
    const std::vector<int32_t>& dilations, const std::string& data_format, TensorMeta* out) {
  TransposeForward("conv3d_transpose", 3, x, filter,
                   {strides, paddings, padding_algorithm, dilations, groups, data_format},
                   output_padding, output_size, out);
}

void Conv2dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad) {
  TransposeBackward("conv2d_transpose_grad", 2, x, filter, out_grad,
                    {strides, paddings, padding_algorithm, dilations, groups, data_format},
                    output_padding, output_size, x_grad, filter_grad);
}

void DepthwiseConv2dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad) {
  TransposeBackward("depthwise_conv2d_transpose_grad", 2, x, filter, out_grad,
                    {strides, paddings, padding_algorithm, dilations, groups, data_format},
                    output_padding, output_size, x_grad, filter_grad);
}

void Conv3dTransposeGradInferMeta(
    const TensorMeta& x, const TensorMeta& filter, const TensorMeta& out_grad,
    const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
    const std::vector<int32_t>& output_padding, const std::vector<int32_t>& output_size,
    const std::string& padding_algorithm, int32_t groups, const std::vector<int32_t>& dilations,
    const std::string& data_format, TensorMeta* x_grad, TensorMeta* filter_grad) {
  TransposeBackward("conv3d_transpose_grad", 3, x, filter, out_grad,
                    {strides, paddings, padding_algorithm, dilations, groups, data_format},
                    output_padding, output_size, x_grad, filter_grad);
}

}  // namespace paddle
