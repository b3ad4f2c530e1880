// Backward rule of fused_elemwise_add_activation, written with forward ops: out is
// unary(x + y) for [unary, "elementwise_add"] and x + unary(y) for ["elementwise_add", unary].
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sigmoid.h"
#include "paddle/ops/generated/api/square.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/api/tanh.h"
#include "paddle/ops/generated/grad_rules/fused.h"

namespace paddle::ops::grad {

namespace {

// out_grad times the derivative of `unary` where it produced `result` (relu, tanh and sigmoid
// read their result, scale nothing).
Tensor UnaryGrad(const std::string& unary, const Tensor& result, const Tensor& out_grad,
                 float scale_value) {
  if (unary == "relu") return MaskedGrad(greater_than(result, ScalarLike(result, 0.0)), out_grad);
  if (unary == "tanh") return multiply(out_grad, scale(square(result), -1.0, 1.0));
  if (unary == "sigmoid") return multiply(out_grad, multiply(result, scale(result, -1.0, 1.0)));
  PD_CHECK(unary == "scale",
           errors::InvalidArgument("fused_elemwise_add_activation_grad: unsupported functor '",
                                   unary, "' in 'functor_list'"));
  return scale(out_grad, static_cast<double>(scale_value));
}

// y's gradient from one of out's shape: summed over the axes y was broadcast along (y placed at
// Paddle's `axis` of x), in y's shape.
Tensor ReduceToY(const Tensor& grad, const Tensor& y, int32_t axis) {
  const DDim& full = grad.dims();
  const DDim& dims = y.dims();
  const int start = axis < 0 ? full.size() - dims.size() : axis;
  std::vector<int64_t> axes;
  for (int i = 0; i < full.size(); ++i) {
    const int j = i - start;
    const bool kept = j >= 0 && j < dims.size() && dims[j] == full[i];
    if (!kept) axes.push_back(i);
  }
  if (axes.empty()) return grad;
  return reshape(sum(grad, axes, DataType::UNDEFINED, true), dims.ToVector());
}

}  // namespace

// intermediate_out's gradient (when it is saved) joins the gradient at the intermediate.
void fused_elemwise_add_activation_grad(const Tensor& x, const Tensor& y, const Tensor& out,
                                        const Tensor& out_grad, const Tensor& intermediate_out_grad,
                                        const std::vector<std::string>& functor_list, int32_t axis,
                                        float scale_value, bool save_intermediate_out,
                                        Tensor* x_grad, Tensor* y_grad) {
  if (functor_list[1] == "elementwise_add") {  // out = unary(x + y)
    Tensor inner_grad = UnaryGrad(functor_list[0], out, out_grad, scale_value);
    if (save_intermediate_out) inner_grad = add(inner_grad, intermediate_out_grad);
    if (x_grad) *x_grad = inner_grad;
    if (y_grad) *y_grad = ReduceToY(inner_grad, y, axis);
    return;
  }
  // out = x + unary(y): the unary's result is recomputed from y.
  if (x_grad) *x_grad = out_grad;
  if (y_grad) {
    const std::string& unary = functor_list[1];
    Tensor result = unary == "tanh"      ? tanh(y)
                    : unary == "sigmoid" ? sigmoid(y)
                                         : y;  // relu's mask is y > 0 as well; scale reads none
    Tensor result_grad = ReduceToY(out_grad, y, axis);
    if (save_intermediate_out) result_grad = add(result_grad, intermediate_out_grad);
    *y_grad = UnaryGrad(unary, result, result_grad, scale_value);
  }
}

}  // namespace paddle::ops::grad
