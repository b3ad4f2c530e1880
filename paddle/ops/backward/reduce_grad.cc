// Backward rules of the reductions: the output gradient is broadcast back over the reduced dims.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/equal.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/grad_rules/reduce.h"

namespace paddle::ops::grad {

namespace {

Tensor SumGrad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axis) {
  Tensor g = ExpandReduced(out_grad, x, axis);
  return g.dtype() == x.dtype() ? g : cast(g, x.dtype());
}

// Gradient of max/min: flows to every element equal to the extremum, as in Paddle.
Tensor ExtremumGrad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                    const std::vector<int64_t>& axis) {
  Tensor is_extremum = equal(x, ExpandReduced(out, x, axis));
  return MaskedGrad(is_extremum, ExpandReduced(out_grad, x, axis));
}

}  // namespace

void sum_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axis,
              bool keepdim, Tensor* x_grad) {
  if (x_grad) *x_grad = SumGrad(x, out_grad, axis);
}

void mean_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axis,
               bool keepdim, Tensor* x_grad) {
  if (!x_grad) return;
  int64_t reduced = x.numel() / std::max<int64_t>(out_grad.numel(), 1);
  *x_grad =
      scale(SumGrad(x, out_grad, axis), 1.0 / static_cast<double>(std::max<int64_t>(reduced, 1)));
}

void max_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
              const std::vector<int64_t>& axis, bool keepdim, Tensor* x_grad) {
  if (x_grad) *x_grad = ExtremumGrad(x, out, out_grad, axis);
}

void min_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
              const std::vector<int64_t>& axis, bool keepdim, Tensor* x_grad) {
  if (x_grad) *x_grad = ExtremumGrad(x, out, out_grad, axis);
}

// d prod / d x_i = prod / x_i (as Paddle computes it; undefined where x_i is 0).
void prod_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
               const std::vector<int64_t>& axis, bool keepdim, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = divide(ExpandReduced(multiply(out_grad, Conj(out)), x, axis), Conj(x));
}

}  // namespace paddle::ops::grad
