// Backward rule of logsumexp: softmax of x over the reduced dims, times the output gradient.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/grad_rules/logic_reduce.h"

namespace paddle::ops::grad {

// d logsumexp / d x_i = exp(x_i - out): the softmax of x over the reduced dims.
void logsumexp_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                    const std::vector<int64_t>& axis, bool keepdim, bool reduce_all,
                    Tensor* x_grad) {
  if (!x_grad) return;
  Tensor softmax = exp(subtract(x, ExpandReduced(out, x, axis)));
  *x_grad = multiply(ExpandReduced(out_grad, x, axis), softmax);
}

}  // namespace paddle::ops::grad
