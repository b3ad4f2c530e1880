// Backward rule of where: the gradient goes to x where the condition holds and to y elsewhere;
// the autograd engine sums it back to each input's shape.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/where.h"
#include "paddle/ops/generated/grad_rules/where.h"

namespace paddle::ops::grad {

void where_grad(const Tensor& condition, const Tensor& out_grad, Tensor* x_grad, Tensor* y_grad) {
  if (x_grad) *x_grad = MaskedGrad(condition, out_grad);
  if (y_grad) *y_grad = where(condition, ZerosLike(out_grad), out_grad);
}

}  // namespace paddle::ops::grad
