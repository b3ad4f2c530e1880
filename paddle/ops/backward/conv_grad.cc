// Backward rules of the convolution ops. The first-order rule is the gradient op (one kernel for
// both gradients), run for the gradients asked for only. Its own gradient follows from both
// gradients being bilinear: with (dx, dw) = grad(x, w, dy) and the incoming gradients ddx, ddw
// of dx and dw,
//   x_grad = the input gradient of grad(x, ddw, dy),
//   filter_grad = the filter gradient of grad(ddx, w, dy),
//   out_grad_grad = forward(ddx, w) + forward(x, ddw).
// This holds for the transposed convolutions too (their gradient op is bilinear the same way),
// and since it is written with the ops themselves, gradients of every order follow.
#include <string>
#include <vector>

#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/conv2d.h"
#include "paddle/ops/generated/api/conv2d_transpose.h"
#include "paddle/ops/generated/api/conv3d.h"
#include "paddle/ops/generated/api/conv3d_transpose.h"
#include "paddle/ops/generated/api/depthwise_conv2d.h"
#include "paddle/ops/generated/api/depthwise_conv2d_transpose.h"
#include "paddle/ops/generated/grad_rules/conv.h"
#include "paddle/ops/op_schema_table.h"

namespace paddle::ops::grad {

namespace {

template <typename Forward, typename Gradient>
void BilinearSecondOrder(Forward forward, Gradient gradient, const Tensor& x, const Tensor& filter,
                         const Tensor& out_grad, const Tensor& x_grad_grad,
                         const Tensor& filter_grad_grad, Tensor* x_grad, Tensor* filter_grad,
                         Tensor* out_grad_grad) {
  if (x_grad) gradient(x, filter_grad_grad, out_grad, x_grad, nullptr);
  if (filter_grad) gradient(x_grad_grad, filter, out_grad, nullptr, filter_grad);
  if (out_grad_grad)
    *out_grad_grad = add(forward(x_grad_grad, filter), forward(x, filter_grad_grad));
}

// Runs the gradient op `op` for only the gradients asked for (its kernel skips a null output):
// the first convolution of a network, say, needs no gradient of the input images, whose
// computation would cost more than the filter's.
template <typename AddAttrs>
void WantedGradients(const char* op, const Tensor& x, const Tensor& filter, const Tensor& out_grad,
                     const AddAttrs& add_attrs, Tensor* x_grad, Tensor* filter_grad) {
  if (!x_grad && !filter_grad) return;
  OpCallBuilder call(GetOp(op));
  call.Input(x).Input(filter).Input(out_grad);
  add_attrs(call);
  if (!x_grad) call.SkipOutput(0);
  if (!filter_grad) call.SkipOutput(1);
  call.Run();
  if (x_grad) *x_grad = call.Output(0);
  if (filter_grad) *filter_grad = call.Output(1);
}

}  // namespace

void conv2d_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                 const std::vector<int>& strides, const std::vector<int>& paddings,
                 const std::string& padding_algorithm, const std::vector<int>& dilations,
                 int groups, const std::string& data_format, Tensor* input_grad,
                 Tensor* filter_grad) {
  WantedGradients(
      "conv2d_grad", input, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(padding_algorithm)
            .Attr(dilations)
            .Attr(groups)
            .Attr(data_format);
      },
      input_grad, filter_grad);
}

void conv2d_grad_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                      const Tensor& input_grad_grad, const Tensor& filter_grad_grad,
                      const std::vector<int>& strides, const std::vector<int>& paddings,
                      const std::string& padding_algorithm, const std::vector<int>& dilations,
                      int groups, const std::string& data_format, Tensor* input_grad,
                      Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& x, const Tensor& w) {
        return ops::conv2d(x, w, strides, paddings, padding_algorithm, dilations, groups,
                           data_format);
      },
      [&](const Tensor& x, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        conv2d_grad(x, w, dy, strides, paddings, padding_algorithm, dilations, groups, data_format,
                    dx, dw);
      },
      input, filter, out_grad, input_grad_grad, filter_grad_grad, input_grad, filter_grad,
      out_grad_grad);
}

void depthwise_conv2d_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                           const std::vector<int>& strides, const std::vector<int>& paddings,
                           const std::string& padding_algorithm, const std::vector<int>& dilations,
                           int groups, const std::string& data_format, Tensor* input_grad,
                           Tensor* filter_grad) {
  WantedGradients(
      "depthwise_conv2d_grad", input, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(padding_algorithm)
            .Attr(dilations)
            .Attr(groups)
            .Attr(data_format);
      },
      input_grad, filter_grad);
}

void depthwise_conv2d_grad_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                                const Tensor& input_grad_grad, const Tensor& filter_grad_grad,
                                const std::vector<int>& strides, const std::vector<int>& paddings,
                                const std::string& padding_algorithm,
                                const std::vector<int>& dilations, int groups,
                                const std::string& data_format, Tensor* input_grad,
                                Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& x, const Tensor& w) {
        return ops::depthwise_conv2d(x, w, strides, paddings, padding_algorithm, dilations, groups,
                                     data_format);
      },
      [&](const Tensor& x, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        depthwise_conv2d_grad(x, w, dy, strides, paddings, padding_algorithm, dilations, groups,
                              data_format, dx, dw);
      },
      input, filter, out_grad, input_grad_grad, filter_grad_grad, input_grad, filter_grad,
      out_grad_grad);
}

void conv3d_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                 const std::vector<int>& strides, const std::vector<int>& paddings,
                 const std::string& padding_algorithm, int groups,
                 const std::vector<int>& dilations, const std::string& data_format,
                 Tensor* input_grad, Tensor* filter_grad) {
  WantedGradients(
      "conv3d_grad", input, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(padding_algorithm)
            .Attr(groups)
            .Attr(dilations)
            .Attr(data_format);
      },
      input_grad, filter_grad);
}

void conv3d_grad_grad(const Tensor& input, const Tensor& filter, const Tensor& out_grad,
                      const Tensor& input_grad_grad, const Tensor& filter_grad_grad,
                      const std::vector<int>& strides, const std::vector<int>& paddings,
                      const std::string& padding_algorithm, int groups,
                      const std::vector<int>& dilations, const std::string& data_format,
                      Tensor* input_grad, Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& x, const Tensor& w) {
        return ops::conv3d(x, w, strides, paddings, padding_algorithm, groups, dilations,
                           data_format);
      },
      [&](const Tensor& x, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        conv3d_grad(x, w, dy, strides, paddings, padding_algorithm, groups, dilations, data_format,
                    dx, dw);
      },
      input, filter, out_grad, input_grad_grad, filter_grad_grad, input_grad, filter_grad,
      out_grad_grad);
}

void conv2d_transpose_grad(const Tensor& x, const Tensor& filter, const Tensor& out_grad,
                           const std::vector<int>& strides, const std::vector<int>& paddings,
                           const std::vector<int>& output_padding,
                           const std::vector<int>& output_size,
                           const std::string& padding_algorithm, int groups,
                           const std::vector<int>& dilations, const std::string& data_format,
                           Tensor* x_grad, Tensor* filter_grad) {
  WantedGradients(
      "conv2d_transpose_grad", x, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(output_padding)
            .Attr(output_size)
            .Attr(padding_algorithm)
            .Attr(groups)
            .Attr(dilations)
            .Attr(data_format);
      },
      x_grad, filter_grad);
}

void conv2d_transpose_grad_grad(const Tensor& x, const Tensor& filter, const Tensor& out_grad,
                                const Tensor& x_grad_grad, const Tensor& filter_grad_grad,
                                const std::vector<int>& strides, const std::vector<int>& paddings,
                                const std::vector<int>& output_padding,
                                const std::vector<int>& output_size,
                                const std::string& padding_algorithm, int groups,
                                const std::vector<int>& dilations, const std::string& data_format,
                                Tensor* x_grad, Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& a, const Tensor& w) {
        return ops::conv2d_transpose(a, w, strides, paddings, output_padding, output_size,
                                     padding_algorithm, groups, dilations, data_format);
      },
      [&](const Tensor& a, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        conv2d_transpose_grad(a, w, dy, strides, paddings, output_padding, output_size,
                              padding_algorithm, groups, dilations, data_format, dx, dw);
      },
      x, filter, out_grad, x_grad_grad, filter_grad_grad, x_grad, filter_grad, out_grad_grad);
}

void depthwise_conv2d_transpose_grad(
    const Tensor& x, const Tensor& filter, const Tensor& out_grad, const std::vector<int>& strides,
    const std::vector<int>& paddings, const std::vector<int>& output_padding,
    const std::vector<int>& output_size, const std::string& padding_algorithm, int groups,
    const std::vector<int>& dilations, const std::string& data_format, Tensor* x_grad,
    Tensor* filter_grad) {
  WantedGradients(
      "depthwise_conv2d_transpose_grad", x, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(output_padding)
            .Attr(output_size)
            .Attr(padding_algorithm)
            .Attr(groups)
            .Attr(dilations)
            .Attr(data_format);
      },
      x_grad, filter_grad);
}

void depthwise_conv2d_transpose_grad_grad(
    const Tensor& x, const Tensor& filter, const Tensor& out_grad, const Tensor& x_grad_grad,
    const Tensor& filter_grad_grad, const std::vector<int>& strides,
    const std::vector<int>& paddings, const std::vector<int>& output_padding,
    const std::vector<int>& output_size, const std::string& padding_algorithm, int groups,
    const std::vector<int>& dilations, const std::string& data_format, Tensor* x_grad,
    Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& a, const Tensor& w) {
        return ops::depthwise_conv2d_transpose(a, w, strides, paddings, output_padding, output_size,
                                               padding_algorithm, groups, dilations, data_format);
      },
      [&](const Tensor& a, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        depthwise_conv2d_transpose_grad(a, w, dy, strides, paddings, output_padding, output_size,
                                        padding_algorithm, groups, dilations, data_format, dx, dw);
      },
      x, filter, out_grad, x_grad_grad, filter_grad_grad, x_grad, filter_grad, out_grad_grad);
}

void conv3d_transpose_grad(const Tensor& x, const Tensor& filter, const Tensor& out_grad,
                           const std::vector<int>& strides, const std::vector<int>& paddings,
                           const std::vector<int>& output_padding,
                           const std::vector<int>& output_size,
                           const std::string& padding_algorithm, int groups,
                           const std::vector<int>& dilations, const std::string& data_format,
                           Tensor* x_grad, Tensor* filter_grad) {
  WantedGradients(
      "conv3d_transpose_grad", x, filter, out_grad,
      [&](OpCallBuilder& call) {
        call.Attr(strides)
            .Attr(paddings)
            .Attr(output_padding)
            .Attr(output_size)
            .Attr(padding_algorithm)
            .Attr(groups)
            .Attr(dilations)
            .Attr(data_format);
      },
      x_grad, filter_grad);
}

void conv3d_transpose_grad_grad(const Tensor& x, const Tensor& filter, const Tensor& out_grad,
                                const Tensor& x_grad_grad, const Tensor& filter_grad_grad,
                                const std::vector<int>& strides, const std::vector<int>& paddings,
                                const std::vector<int>& output_padding,
                                const std::vector<int>& output_size,
                                const std::string& padding_algorithm, int groups,
                                const std::vector<int>& dilations, const std::string& data_format,
                                Tensor* x_grad, Tensor* filter_grad, Tensor* out_grad_grad) {
  BilinearSecondOrder(
      [&](const Tensor& a, const Tensor& w) {
        return ops::conv3d_transpose(a, w, strides, paddings, output_padding, output_size,
                                     padding_algorithm, groups, dilations, data_format);
      },
      [&](const Tensor& a, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor* dw) {
        conv3d_transpose_grad(a, w, dy, strides, paddings, output_padding, output_size,
                              padding_algorithm, groups, dilations, data_format, dx, dw);
      },
      x, filter, out_grad, x_grad_grad, filter_grad_grad, x_grad, filter_grad, out_grad_grad);
}

}  // namespace paddle::ops::grad
