// Backward rules of the random ops that PaddlePaddle differentiates: a draw does not move with
// its parameters there, so the gradient is zero.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/grad_rules/random.h"

namespace paddle::ops::grad {

void poisson_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

void exponential_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

}  // namespace paddle::ops::grad
