// Backward rules of the unary elementwise and activation ops.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/cos.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/erf.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/greater_equal.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/less_equal.h"
#include "paddle/ops/generated/api/logical_and.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/pow.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sigmoid.h"
#include "paddle/ops/generated/api/sign.h"
#include "paddle/ops/generated/api/sin.h"
#include "paddle/ops/generated/api/square.h"
#include "paddle/ops/generated/api/tanh.h"
#include "paddle/ops/generated/grad_rules/activation.h"

namespace paddle::ops::grad {

namespace {
constexpr double kSqrtHalf = 0.70710678118654752440;       // 1 / sqrt(2)
constexpr double kInvSqrt2Pi = 0.39894228040143267794;     // 1 / sqrt(2 pi)
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // 2 / sqrt(pi)
constexpr double kSqrt2OverPi = 0.79788456080286535588;    // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;
}  // namespace

void exp_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, out);
}

void log_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = divide(out_grad, x);
}

void sqrt_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = divide(scale(out_grad, 0.5), out);
}

// d(x^-1/2) = -1/2 x^-3/2 = -1/2 out^3
void rsqrt_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, multiply(out, square(out))), -0.5);
}

void abs_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, sign(x));
}

void sin_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, cos(x));
}

void cos_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, sin(x)), -1.0);
}

void tanh_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, scale(square(out), -1.0, 1.0));
}

void sigmoid_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, multiply(out, scale(out, -1.0, 1.0)));
}

void relu_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = MaskedGrad(greater_than(out, ScalarLike(out, 0.0)), out_grad);
}

void gelu_grad(const Tensor& x, const Tensor& out_grad, bool approximate, Tensor* x_grad) {
  if (!x_grad) return;
  if (approximate) {
    // gelu = x/2 (1 + t), t = tanh(k (x + c x^3));
    // gelu' = (1 + t)/2 + x/2 (1 - t^2) k (1 + 3 c x^2)
    Tensor x2 = square(x);
    Tensor t = tanh(multiply(scale(x, kSqrt2OverPi), scale(x2, kGeluCubic, 1.0)));
    Tensor inner_grad = scale(x2, 3.0 * kGeluCubic * kSqrt2OverPi, kSqrt2OverPi);
    Tensor second = multiply(multiply(scale(x, 0.5), scale(square(t), -1.0, 1.0)), inner_grad);
    *x_grad = multiply(out_grad, add(scale(t, 0.5, 0.5), second));
    return;
  }
  // gelu = x Phi(x): gelu' = Phi(x) + x phi(x)
  Tensor cdf = scale(erf(scale(x, kSqrtHalf)), 0.5, 0.5);
  Tensor pdf = scale(exp(scale(square(x), -0.5)), kInvSqrt2Pi);
  *x_grad = multiply(out_grad, add(cdf, multiply(x, pdf)));
}

// silu = x s(x): silu' = s (1 + x (1 - s))
void silu_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor s = sigmoid(x);
  *x_grad = multiply(out_grad, multiply(s, scale(multiply(x, scale(s, -1.0, 1.0)), 1.0, 1.0)));
}

void erf_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, scale(exp(scale(square(x), -1.0)), kTwoOverSqrtPi));
}

void square_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, scale(x, 2.0));
}

void reciprocal_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, square(out)), -1.0);
}

// Piecewise-constant ops have a zero gradient almost everywhere.
void sign_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

void floor_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

void ceil_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

void round_grad(const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ZerosLike(out_grad);
}

void pow_grad(const Tensor& x, const Tensor& out_grad, const Scalar& y, Tensor* x_grad) {
  if (!x_grad) return;
  double exponent = y.to<double>();
  *x_grad = multiply(out_grad, scale(pow(x, exponent - 1.0), exponent));
}

void scale_grad(const Tensor& out_grad, const Scalar& scale_value, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(out_grad, scale_value);
}

void clip_grad(const Tensor& x, const Tensor& out_grad, const Scalar& min, const Scalar& max,
               Tensor* x_grad) {
  if (!x_grad) return;
  Tensor inside = logical_and(greater_equal(x, ScalarLike(x, min.to<double>())),
                              less_equal(x, ScalarLike(x, max.to<double>())));
  *x_grad = MaskedGrad(inside, out_grad);
}

void cast_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = cast(out_grad, x.dtype());
}

}  // namespace paddle::ops::grad
