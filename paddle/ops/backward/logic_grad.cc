// Backward rules of tril/triu (the gradient masked like the output) and logsumexp.
#include "paddle/common/reduce_axes.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/expand.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/tril.h"
#include "paddle/ops/generated/api/triu.h"
#include "paddle/ops/generated/grad_rules/logic.h"
#include "paddle/ops/generated/grad_rules/logic_reduce.h"
#include "paddle/ops/infermeta/reduce.h"

namespace paddle::ops::grad {

namespace {

// Reshapes a reduction's output (or its gradient) to keepdim form, then expands it to x's shape.
Tensor ExpandReduced(const Tensor& reduced, const Tensor& x, const std::vector<int64_t>& axis) {
  const DDim& dims = x.dims();
  std::vector<int> axes = ReduceAxes(axis, dims.size());
  std::vector<int64_t> kept = ReducedDims(dims, axes, true).ToVector();
  return expand(reshape(reduced, kept), dims.ToVector());
}

}  // namespace

void tril_grad(const Tensor& out_grad, int32_t diagonal, Tensor* x_grad) {
  if (x_grad) *x_grad = tril(out_grad, diagonal);
}

void triu_grad(const Tensor& out_grad, int32_t diagonal, Tensor* x_grad) {
  if (x_grad) *x_grad = triu(out_grad, diagonal);
}

// d logsumexp / d x_i = exp(x_i - out): the softmax of x over the reduced dims.
void logsumexp_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                    const std::vector<int64_t>& axis, bool keepdim, bool reduce_all,
                    Tensor* x_grad) {
  if (!x_grad) return;
  Tensor softmax = exp(subtract(x, ExpandReduced(out, x, axis)));
  *x_grad = multiply(ExpandReduced(out_grad, x, axis), softmax);
}

}  // namespace paddle::ops::grad
