// Backward rules of tril/triu: the gradient masked like the output.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/tril.h"
#include "paddle/ops/generated/api/triu.h"
#include "paddle/ops/generated/grad_rules/logic.h"

namespace paddle::ops::grad {

void tril_grad(const Tensor& out_grad, int32_t diagonal, Tensor* x_grad) {
  if (x_grad) *x_grad = tril(out_grad, diagonal);
}

void triu_grad(const Tensor& out_grad, int32_t diagonal, Tensor* x_grad) {
  if (x_grad) *x_grad = triu(out_grad, diagonal);
}

}  // namespace paddle::ops::grad
