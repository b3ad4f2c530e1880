// Backward rules of the elementwise binary ops. Gradients have the broadcast output's shape; the
// autograd engine sums them back to each input's shape.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/elementwise_pow.h"
#include "paddle/ops/generated/api/floor_divide.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/less_than.h"
#include "paddle/ops/generated/api/log.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/where.h"
#include "paddle/ops/generated/grad_rules/elementwise.h"

namespace paddle::ops::grad {

void add_grad(const Tensor& out_grad, Tensor* x_grad, Tensor* y_grad) {
  if (x_grad) *x_grad = out_grad;
  if (y_grad) *y_grad = out_grad;
}

void subtract_grad(const Tensor& out_grad, Tensor* x_grad, Tensor* y_grad) {
  if (x_grad) *x_grad = out_grad;
  if (y_grad) *y_grad = scale(out_grad, -1.0);
}

void multiply_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
                   Tensor* y_grad) {
  if (x_grad) *x_grad = multiply(out_grad, Conj(y));
  if (y_grad) *y_grad = multiply(out_grad, Conj(x));
}

void divide_grad(const Tensor& y, const Tensor& out, const Tensor& out_grad, Tensor* x_grad,
                 Tensor* y_grad) {
  if (x_grad) *x_grad = divide(out_grad, Conj(y));
  // d(x/y)/dy = -x/y^2 = -out/y
  if (y_grad) *y_grad = scale(divide(multiply(out_grad, Conj(out)), Conj(y)), -1.0);
}

void elementwise_pow_grad(const Tensor& x, const Tensor& y, const Tensor& out,
                          const Tensor& out_grad, Tensor* x_grad, Tensor* y_grad) {
  if (x_grad) {
    Tensor y_minus_one = scale(y, 1.0, -1.0);
    *x_grad = multiply(out_grad, Conj(multiply(y, elementwise_pow(x, y_minus_one))));
  }
  if (y_grad) *y_grad = multiply(out_grad, Conj(multiply(out, log(x))));
}

// Ties send the gradient to y, as Paddle's maximum/minimum do.
void maximum_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
                  Tensor* y_grad) {
  Tensor x_wins = greater_than(x, y);
  if (x_grad) *x_grad = MaskedGrad(x_wins, out_grad);
  if (y_grad) *y_grad = where(x_wins, ZerosLike(out_grad), out_grad);
}

void minimum_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
                  Tensor* y_grad) {
  Tensor x_wins = less_than(x, y);
  if (x_grad) *x_grad = MaskedGrad(x_wins, out_grad);
  if (y_grad) *y_grad = where(x_wins, ZerosLike(out_grad), out_grad);
}

// remainder(x, y) = x - floor(x / y) * y
void remainder_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
                    Tensor* y_grad) {
  if (x_grad) *x_grad = out_grad;
  if (y_grad) *y_grad = scale(multiply(out_grad, floor_divide(x, y)), -1.0);
}

}  // namespace paddle::ops::grad
