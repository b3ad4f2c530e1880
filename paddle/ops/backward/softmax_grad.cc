// Backward rules of softmax and log_softmax.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/grad_rules/softmax.h"

namespace paddle::ops::grad {

// softmax' applied to g: out * (g - sum(g * out))
void softmax_grad(const Tensor& out, const Tensor& out_grad, int32_t axis, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor dot = sum(multiply(out_grad, out), {axis}, DataType::UNDEFINED, true);
  *x_grad = multiply(out, subtract(out_grad, dot));
}

// log_softmax' applied to g: g - exp(out) * sum(g)
void log_softmax_grad(const Tensor& out, const Tensor& out_grad, int32_t axis, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor total = sum(out_grad, {axis}, DataType::UNDEFINED, true);
  *x_grad = subtract(out_grad, multiply(exp(out), total));
}

}  // namespace paddle::ops::grad
