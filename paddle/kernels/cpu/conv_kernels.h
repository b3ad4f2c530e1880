// CPU kernels of the convolution ops. Each resolves its attributes into a ConvGeometry and runs
// the routines of funcs/conv_compute.h (oneDNN for float, im2col for double). A transposed
// convolution is the data gradient of the convolution its geometry describes
// (funcs/conv_geometry.h), so it runs the same three routines in other roles.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/conv_compute.h"
#include "paddle/kernels/funcs/conv_geometry.h"

namespace paddle {

namespace conv_detail {

inline const char* Op(int rank, bool transposed) {
  if (transposed) return rank == 2 ? "conv2d_transpose" : "conv3d_transpose";
  return rank == 2 ? "conv2d" : "conv3d";
}

// The spatial rank comes from the input: the InferMeta of each op has already checked that it is
// the op's.
inline funcs::ConvGeometry Forward(const DenseTensor& input, const DenseTensor& filter,
                                   const funcs::ConvAttrs& attrs) {
  const int rank = input.dims().size() - 2;
  return funcs::ConvolutionGeometry(Op(rank, false), input.dims(), filter.dims(), rank, attrs);
}

inline funcs::ConvGeometry Transposed(const DenseTensor& x, const DenseTensor& filter,
                                      const funcs::ConvAttrs& attrs,
                                      const std::vector<int>& output_padding,
                                      const std::vector<int>& output_size) {
  const int rank = x.dims().size() - 2;
  return funcs::TransposedConvolutionGeometry(Op(rank, true), x.dims(), filter.dims(), rank, attrs,
                                              output_padding, output_size);
}

// The gradients a backward call was asked for; absent ones are skipped.
template <typename T, typename Context>
void Gradients(const Context& ctx, const funcs::ConvGeometry& g, const DenseTensor& input,
               const DenseTensor& filter, const DenseTensor& out_grad, DenseTensor* input_grad,
               DenseTensor* filter_grad) {
  if (input_grad) {
    T* dx = ctx.template Alloc<T>(input_grad);
    if (input_grad->numel() > 0) {
      funcs::ConvBackwardData<T>(g, out_grad.data<T>(), filter.data<T>(), dx);
    }
  }
  if (filter_grad) {
    T* dw = ctx.template Alloc<T>(filter_grad);
    if (filter_grad->numel() > 0) {
      funcs::ConvBackwardFilter<T>(g, input.data<T>(), out_grad.data<T>(), dw);
    }
  }
}

}  // namespace conv_detail

template <typename T, typename Context>
void ConvKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& filter,
                const std::vector<int>& strides, const std::vector<int>& paddings,
                const std::string& padding_algorithm, const std::vector<int>& dilations, int groups,
                const std::string& data_format, DenseTensor* out) {
  funcs::ConvGeometry g = conv_detail::Forward(
      input, filter, {strides, paddings, padding_algorithm, dilations, groups, data_format});
  T* y = ctx.template Alloc<T>(out);
  if (out->numel() > 0) funcs::ConvForward<T>(g, input.data<T>(), filter.data<T>(), y);
}

// conv3d's attributes come in Paddle's order for it: groups before dilations.
template <typename T, typename Context>
void Conv3dKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& filter,
                  const std::vector<int>& strides, const std::vector<int>& paddings,
                  const std::string& padding_algorithm, int groups,
                  const std::vector<int>& dilations, const std::string& data_format,
                  DenseTensor* out) {
  ConvKernel<T>(ctx, input, filter, strides, paddings, padding_algorithm, dilations, groups,
                data_format, out);
}

template <typename T, typename Context>
void ConvGradKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& filter,
                    const DenseTensor& out_grad, const std::vector<int>& strides,
                    const std::vector<int>& paddings, const std::string& padding_algorithm,
                    const std::vector<int>& dilations, int groups, const std::string& data_format,
                    DenseTensor* input_grad, DenseTensor* filter_grad) {
  funcs::ConvGeometry g = conv_detail::Forward(
      input, filter, {strides, paddings, padding_algorithm, dilations, groups, data_format});
  conv_detail::Gradients<T>(ctx, g, input, filter, out_grad, input_grad, filter_grad);
}

template <typename T, typename Context>
void Conv3dGradKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& filter,
                      const DenseTensor& out_grad, const std::vector<int>& strides,
                      const std::vector<int>& paddings, const std::string& padding_algorithm,
                      int groups, const std::vector<int>& dilations, const std::string& data_format,
                      DenseTensor* input_grad, DenseTensor* filter_grad) {
  ConvGradKernel<T>(ctx, input, filter, out_grad, strides, paddings, padding_algorithm, dilations,
                    groups, data_format, input_grad, filter_grad);
}

template <typename T, typename Context>
void ConvTransposeKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& filter,
                         const std::vector<int>& strides, const std::vector<int>& paddings,
                         const std::vector<int>& output_padding,
                         const std::vector<int>& output_size, const std::string& padding_algorithm,
                         int groups, const std::vector<int>& dilations,
                         const std::string& data_format, DenseTensor* out) {
  funcs::ConvGeometry g = conv_detail::Transposed(
      x, filter, {strides, paddings, padding_algorithm, dilations, groups, data_format},
      output_padding, output_size);
  T* y = ctx.template Alloc<T>(out);
  if (out->numel() > 0) funcs::ConvBackwardData<T>(g, x.data<T>(), filter.data<T>(), y);
}

// With out = the data gradient of conv(out, filter) = x: x_grad = conv(out_grad, filter), and
// filter_grad is that convolution's filter gradient with out_grad as its input and x as its
// output gradient.
template <typename T, typename Context>
void ConvTransposeGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& filter,
                             const DenseTensor& out_grad, const std::vector<int>& strides,
                             const std::vector<int>& paddings,
                             const std::vector<int>& output_padding,
                             const std::vector<int>& output_size,
                             const std::string& padding_algorithm, int groups,
                             const std::vector<int>& dilations, const std::string& data_format,
                             DenseTensor* x_grad, DenseTensor* filter_grad) {
  funcs::ConvGeometry g = conv_detail::Transposed(
      x, filter, {strides, paddings, padding_algorithm, dilations, groups, data_format},
      output_padding, output_size);
  if (x_grad) {
    T* dx = ctx.template Alloc<T>(x_grad);
    if (x_grad->numel() > 0) funcs::ConvForward<T>(g, out_grad.data<T>(), filter.data<T>(), dx);
  }
  if (filter_grad) {
    T* dw = ctx.template Alloc<T>(filter_grad);
    if (filter_grad->numel() > 0) {
      funcs::ConvBackwardFilter<T>(g, out_grad.data<T>(), x.data<T>(), dw);
    }
  }
}

}  // namespace paddle
