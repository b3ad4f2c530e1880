// Backward rules of add_n and assign, which pass the output gradient through.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/grad_rules/assign.h"

namespace paddle::ops::grad {

// Every input of the sum, and the copied x, receives out_grad unchanged; the engine never writes
// into a gradient it received, so the inputs may share one tensor (as in add_grad).
void add_n_grad(const Tensor& out_grad, const std::vector<Tensor*>& inputs_grad) {
  for (Tensor* grad : inputs_grad) *grad = out_grad;
}

void assign_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = out_grad;
}

}  // namespace paddle::ops::grad
