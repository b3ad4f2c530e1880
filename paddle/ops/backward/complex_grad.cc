// Backward rules of the complex-number ops. By Paddle's convention the gradient of a real loss L
// with respect to z is dL/dRe(z) + i dL/dIm(z), so the parts' gradients are the parts of z's.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/angle_grad.h"
#include "paddle/ops/generated/api/as_complex.h"
#include "paddle/ops/generated/api/as_real.h"
#include "paddle/ops/generated/api/complex.h"
#include "paddle/ops/generated/api/imag.h"
#include "paddle/ops/generated/api/real.h"
#include "paddle/ops/generated/grad_rules/complex.h"

namespace paddle::ops::grad {

void complex_grad(const Tensor& out_grad, Tensor* real_grad, Tensor* imag_grad) {
  if (real_grad) *real_grad = real(out_grad);
  if (imag_grad) *imag_grad = imag(out_grad);
}

void real_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = complex(out_grad, ZerosLike(out_grad));
}

void imag_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = complex(ZerosLike(out_grad), out_grad);
}

void conj_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = conj(out_grad);
}

void angle_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::angle_grad(x, out_grad);
}

void as_real_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = as_complex(out_grad);
}

void as_complex_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = as_real(out_grad);
}

}  // namespace paddle::ops::grad
