// Backward rules of p_norm and frobenius_norm, written with forward ops (so second-order
// gradients come free). The reduced out and out_grad are expanded back to x's shape first.
#include <cmath>
#include <vector>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/abs.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/equal.h"
#include "paddle/ops/generated/api/maximum.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/pow.h"
#include "paddle/ops/generated/api/sign.h"
#include "paddle/ops/generated/grad_rules/vector_norm.h"

namespace paddle::ops::grad {

// inf / -inf: out_grad goes to the elements whose |x| is the extreme, with x's sign; 0: no
// gradient; otherwise out_grad sign(x) |x|^(p-1) / max(out, epsilon)^(p-1), as in Paddle.
void p_norm_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, float porder,
                 int32_t axis, float epsilon, bool keepdim, bool asvector, Tensor* x_grad) {
  if (!x_grad) return;
  std::vector<int64_t> axes;
  if (!asvector && x.dims().size() > 0) axes.push_back(axis);
  if (porder == 0) {
    *x_grad = ZerosLike(x);
    return;
  }
  Tensor norm = ExpandReduced(out, x, axes);
  Tensor grad = ExpandReduced(out_grad, x, axes);
  Tensor direction = sign(x);
  if (std::isinf(porder)) {
    Tensor extreme = cast(equal(abs(x), norm), x.dtype());
    *x_grad = multiply(grad, multiply(direction, extreme));
    return;
  }
  double p = porder;
  Tensor scaled =
      divide(pow(abs(x), p - 1.0), pow(maximum(norm, full_like(norm, epsilon)), p - 1.0));
  *x_grad = multiply(grad, multiply(direction, scaled));
}

// d sqrt(sum x^2) = x / out.
void frobenius_norm_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                         const std::vector<int32_t>& dim, bool keep_dim, bool reduce_all,
                         Tensor* x_grad) {
  if (!x_grad) return;
  std::vector<int64_t> axes;
  if (!reduce_all) axes.assign(dim.begin(), dim.end());
  *x_grad = multiply(ExpandReduced(out_grad, x, axes), divide(x, ExpandReduced(out, x, axes)));
}

}  // namespace paddle::ops::grad
