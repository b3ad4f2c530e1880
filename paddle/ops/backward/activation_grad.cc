// Backward rules of the unary elementwise and activation ops.
#include <string>
#include <vector>

#include "paddle/common/data_format.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/abs.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/arange.h"
#include "paddle/ops/generated/api/argmax.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/cos.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/equal.h"
#include "paddle/ops/generated/api/erf.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/gelu_grad.h"
#include "paddle/ops/generated/api/greater_equal.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/less_equal.h"
#include "paddle/ops/generated/api/less_than.h"
#include "paddle/ops/generated/api/logical_and.h"
#include "paddle/ops/generated/api/logical_not.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/pow.h"
#include "paddle/ops/generated/api/real.h"
#include "paddle/ops/generated/api/reciprocal.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sigmoid.h"
#include "paddle/ops/generated/api/sign.h"
#include "paddle/ops/generated/api/sin.h"
#include "paddle/ops/generated/api/softplus.h"
#include "paddle/ops/generated/api/square.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/api/tanh.h"
#include "paddle/ops/generated/api/where.h"
#include "paddle/ops/generated/grad_rules/activation.h"

namespace paddle::ops::grad {

namespace {
constexpr double kInvSqrt2Pi = 0.39894228040143267794;     // 1 / sqrt(2 pi)
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // 2 / sqrt(pi)
constexpr double kSqrt2OverPi = 0.79788456080286535588;    // sqrt(2 / pi)
constexpr double kGeluCubic = 0.044715;

// silu = x s(x): silu' = s (1 + x (1 - s))
Tensor SiluDerivative(const Tensor& x) {
  Tensor s = sigmoid(x);
  return multiply(s, scale(multiply(x, scale(s, -1.0, 1.0)), 1.0, 1.0));
}

// Note [In-place activations]
// elu_, leaky_relu_, hardtanh_ and thresholded_relu_ write out into x's buffer, so after such a
// call the x a rule receives holds out. Their rules therefore read out wherever out tells which
// branch x took, and x only where out cannot tell (elu with alpha < 0, leaky_relu with a negative
// slope, thresholded_relu with value > threshold); there an in-place call is refused rather than
// differentiated from the wrong values.
void CheckXNotOverwritten(const Tensor& x, const Tensor& out, const char* op, const char* why) {
  PD_CHECK(!x.dense().SharesBufferWith(out.dense()),
           errors::PreconditionNotMet(op, "_: the gradient ", why,
                                      " needs x, which the in-place call overwrote; use ", op,
                                      " instead"));
}

Tensor Positive(const Tensor& t) { return greater_than(t, ScalarLike(t, 0.0)); }
}  // namespace

void exp_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, Conj(out));
}

void log_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = divide(out_grad, Conj(x));
}

void sqrt_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = divide(scale(out_grad, 0.5), Conj(out));
}

// d(x^-1/2) = -1/2 x^-3/2 = -1/2 out^3
void rsqrt_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, multiply(out, square(out))), -0.5);
}

// For a complex x, sign(x) is x / |x| (0 at 0) and out_grad is real: Paddle's out_grad * x / |x|.
void abs_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor grad = IsComplex(x.dtype()) ? cast(out_grad, x.dtype()) : out_grad;
  *x_grad = multiply(grad, sign(x));
}

void sin_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, Conj(cos(x)));
}

void cos_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, Conj(sin(x))), -1.0);
}

void tanh_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, Conj(scale(square(out), -1.0, 1.0)));
}

void sigmoid_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, multiply(out, scale(out, -1.0, 1.0)));
}

void relu_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = MaskedGrad(greater_than(out, ScalarLike(out, 0.0)), out_grad);
}

void gelu_grad(const Tensor& x, const Tensor& out_grad, bool approximate, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::gelu_grad(x, out_grad, approximate);
}

// gelu_grad = out_grad gelu'(x): d/d(out_grad) is gelu'(x) (gelu_grad again), d/dx is
// out_grad gelu''(x) with gelu'' = phi(x) (2 - x^2) (exact), or (1 - t^2) (u' + x/2 (u'' -
// 2 t u'^2)) with u = k (x + c x^3), t = tanh(u) (approximate).
void gelu_double_grad(const Tensor& x, const Tensor& out_grad, const Tensor& x_grad_grad,
                      bool approximate, Tensor* x_grad, Tensor* out_grad_grad) {
  if (out_grad_grad) *out_grad_grad = ops::gelu_grad(x, x_grad_grad, approximate);
  if (!x_grad) return;
  Tensor x2 = square(x);
  Tensor curvature;
  if (approximate) {
    Tensor t = tanh(multiply(scale(x, kSqrt2OverPi), scale(x2, kGeluCubic, 1.0)));
    Tensor u1 = scale(x2, 3.0 * kGeluCubic * kSqrt2OverPi, kSqrt2OverPi);
    Tensor u2 = scale(x, 6.0 * kGeluCubic * kSqrt2OverPi);
    Tensor inner = subtract(u2, multiply(scale(t, 2.0), square(u1)));
    curvature = multiply(scale(square(t), -1.0, 1.0), add(u1, multiply(scale(x, 0.5), inner)));
  } else {
    Tensor pdf = scale(exp(scale(x2, -0.5)), kInvSqrt2Pi);
    curvature = multiply(pdf, scale(x2, -1.0, 2.0));
  }
  *x_grad = multiply(multiply(out_grad, x_grad_grad), curvature);
}

void silu_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, SiluDerivative(x));
}

void erf_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, scale(exp(scale(square(x), -1.0)), kTwoOverSqrtPi));
}

void square_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, scale(Conj(x), 2.0));
}

void reciprocal_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(multiply(out_grad, Conj(square(out))), -1.0);
}

// Piecewise-constant ops have a zero gradient almost everywhere.
void sign_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  if (!IsComplex(out.dtype())) {
    *x_grad = ZerosLike(out_grad);
    return;
  }
  // sgn(z) = z / |z| for complex z (Paddle's sgn): with u = out_grad, the gradient is
  // (u - sgn(z) Re(conj(u) sgn(z))) / |z|, and 0 at z = 0.
  Tensor modulus = abs(x);
  Tensor inverse =
      where(equal(modulus, ZerosLike(modulus)), ZerosLike(modulus), reciprocal(modulus));
  Tensor along = cast(real(multiply(conj(out_grad), out)), out.dtype());
  *x_grad = multiply(subtract(out_grad, multiply(out, along)), cast(inverse, out.dtype()));
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
  *x_grad = multiply(out_grad, Conj(scale(pow(x, exponent - 1.0), exponent)));
}

void scale_grad(const Tensor& out_grad, const Scalar& scale_value, Tensor* x_grad) {
  if (x_grad) *x_grad = scale(out_grad, scale_value);
}

// The gradient passes where min <= x <= max (as in Paddle). After clip_ (Note [In-place
// activations]) x holds out, which lies in [min, max] everywhere: out strictly inside tells
// where x was, and at a bound x is taken to have been beyond it (it was, unless it sat exactly
// on the bound).
void clip_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, const Scalar& min,
               const Scalar& max, Tensor* x_grad) {
  if (!x_grad) return;
  const Tensor lo = ScalarLike(x, min.to<double>());
  const Tensor hi = ScalarLike(x, max.to<double>());
  Tensor inside = x.dense().SharesBufferWith(out.dense())
                      ? logical_and(greater_than(out, lo), less_than(out, hi))
                      : logical_and(greater_equal(x, lo), less_equal(x, hi));
  *x_grad = MaskedGrad(inside, out_grad);
}

void cast_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = cast(out_grad, x.dtype());
}

// ---------------------------------------------------------------- activations of paddle.nn

// d/dx = 0 up to -3, (2x + 3) / 6 in between, 1 from 3 (Paddle's sides at the kinks).
void hardswish_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor slope = scale(x, 1.0 / 3.0, 0.5);
  slope = where(less_equal(x, ScalarLike(x, -3.0)), ZerosLike(x), slope);
  slope = where(greater_equal(x, ScalarLike(x, 3.0)), full_like(x, 1.0), slope);
  *x_grad = multiply(out_grad, slope);
}

// slope where the output is strictly inside (0, 1), 0 where it is clipped.
void hardsigmoid_grad(const Tensor& out, const Tensor& out_grad, float slope, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor inside = logical_and(Positive(out), less_than(out, ScalarLike(out, 1.0)));
  *x_grad = MaskedGrad(inside, scale(out_grad, slope));
}

void swish_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, SiluDerivative(x));
}

// mish = x t, t = tanh(sp(x)): mish' = t + x (1 - t^2) sp', with sp' = sigmoid(x), or 1 above
// the threshold where sp(x) = x.
void mish_grad(const Tensor& x, const Tensor& out_grad, float threshold, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor t = tanh(softplus(x, 1.0f, threshold));
  Tensor softplus_slope =
      where(greater_than(x, ScalarLike(x, threshold)), full_like(x, 1.0), sigmoid(x));
  Tensor second = multiply(multiply(x, scale(square(t), -1.0, 1.0)), softplus_slope);
  *x_grad = multiply(out_grad, add(t, second));
}

void relu6_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = MaskedGrad(logical_and(Positive(out), less_than(out, ScalarLike(out, 6.0))), out_grad);
}

// out is strictly inside (min, max) exactly where x is (Note [In-place activations]).
void hardtanh_grad(const Tensor& out, const Tensor& out_grad, float min, float max,
                   Tensor* x_grad) {
  if (!x_grad) return;
  Tensor inside =
      logical_and(greater_than(out, ScalarLike(out, min)), less_than(out, ScalarLike(out, max)));
  *x_grad = MaskedGrad(inside, out_grad);
}

// elu' = 1 above 0, alpha exp(x) = out + alpha below; for alpha >= 0 out > 0 exactly where
// x > 0 (Note [In-place activations]).
void elu_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, float alpha,
              Tensor* x_grad) {
  if (!x_grad) return;
  if (alpha >= 0.0f) {
    *x_grad = where(Positive(out), out_grad, multiply(out_grad, scale(out, 1.0, alpha)));
    return;
  }
  CheckXNotOverwritten(x, out, "elu", "for a negative alpha");
  *x_grad = where(Positive(x), out_grad, multiply(out_grad, scale(exp(x), alpha)));
}

// selu' = scale above 0, scale alpha exp(x) = out + scale alpha below (scale > 1, alpha >= 0).
void selu_grad(const Tensor& out, const Tensor& out_grad, float scale_value, float alpha,
               Tensor* x_grad) {
  if (!x_grad) return;
  const double scale_alpha = static_cast<double>(scale_value) * alpha;
  *x_grad = where(Positive(out), scale(out_grad, scale_value),
                  multiply(out_grad, scale(out, 1.0, scale_alpha)));
}

// celu' = 1 above 0, exp(x / alpha) = out / alpha + 1 below; out > 0 exactly where x > 0.
void celu_grad(const Tensor& out, const Tensor& out_grad, float alpha, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = where(Positive(out), out_grad,
                  multiply(out_grad, scale(out, 1.0 / static_cast<double>(alpha), 1.0)));
}

// For a slope >= 0, out > 0 exactly where x > 0 (Note [In-place activations]).
void leaky_relu_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                     float negative_slope, Tensor* x_grad) {
  if (!x_grad) return;
  const Tensor* decides = &out;
  if (negative_slope < 0.0f) {
    CheckXNotOverwritten(x, out, "leaky_relu", "for a negative slope");
    decides = &x;
  }
  *x_grad = where(Positive(*decides), out_grad, scale(out_grad, negative_slope));
}

// softplus' = sigmoid(beta x), and 1 where beta x exceeds the threshold.
void softplus_grad(const Tensor& x, const Tensor& out_grad, float beta, float threshold,
                   Tensor* x_grad) {
  if (!x_grad) return;
  Tensor scaled = scale(x, beta);
  *x_grad = where(greater_than(scaled, ScalarLike(x, threshold)), out_grad,
                  multiply(out_grad, sigmoid(scaled)));
}

// softsign' = 1 / (1 + |x|)^2
void softsign_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = divide(out_grad, square(scale(abs(x), 1.0, 1.0)));
}

// (x - tanh(x))' = tanh(x)^2
void tanh_shrink_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, square(tanh(x)));
}

void softshrink_grad(const Tensor& x, const Tensor& out_grad, float threshold, Tensor* x_grad) {
  if (x_grad) *x_grad = MaskedGrad(greater_than(abs(x), ScalarLike(x, threshold)), out_grad);
}

// |x| > threshold is "x > threshold or x < -threshold" for any threshold (all x when negative).
void hardshrink_grad(const Tensor& x, const Tensor& out_grad, float threshold, Tensor* x_grad) {
  if (x_grad) *x_grad = MaskedGrad(greater_than(abs(x), ScalarLike(x, threshold)), out_grad);
}

// For value <= threshold, out > threshold exactly where x > threshold (Note [In-place
// activations]).
void thresholded_relu_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                           float threshold, float value, Tensor* x_grad) {
  if (!x_grad) return;
  const Tensor* decides = &out;
  if (value > threshold) {
    CheckXNotOverwritten(x, out, "thresholded_relu", "for a value above the threshold");
    decides = &x;
  }
  *x_grad = MaskedGrad(greater_than(*decides, ScalarLike(x, threshold)), out_grad);
}

// log(sigmoid(x))' = 1 - sigmoid(x) = sigmoid(-x)
void logsigmoid_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, sigmoid(scale(x, -1.0)));
}

// The gradient of each output goes to the first channel of its group holding the maximum, as in
// Paddle. x is viewed as [outer, C / groups, groups, inner] as in the kernel; argmax over the
// group axis picks that channel.
void maxout_grad(const Tensor& x, const Tensor& out_grad, int32_t groups, int32_t axis,
                 Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& d = x.dims();
  const bool channels_first = axis == 1;
  const int64_t outer = channels_first ? d[0] : d[0] * d[1] * d[2];
  const int64_t inner = channels_first ? d[2] * d[3] : 1;
  const int64_t out_channels = d[channels_first ? 1 : 3] / groups;
  Tensor first = argmax(reshape(x, {outer, out_channels, groups, inner}), 2, true);
  Tensor channel = reshape(arange(0, groups, 1, DataType::INT64, x.place()), {1, 1, groups, 1});
  Tensor grad = reshape(out_grad, {outer, out_channels, 1, inner});
  *x_grad = reshape(MaskedGrad(equal(first, channel), grad), d.ToVector());
}

// x_grad = out_grad where x > 0, out_grad alpha below; alpha_grad sums out_grad x over the
// elements below 0 that share each alpha value (alpha viewed as in the kernel).
void prelu_grad(const Tensor& x, const Tensor& alpha, const Tensor& out_grad,
                const std::string& data_format, const std::string& mode, Tensor* x_grad,
                Tensor* alpha_grad) {
  const DDim alpha_dims = PreluAlphaDims(x.dims(), data_format, mode);
  Tensor positive = Positive(x);
  if (x_grad) {
    *x_grad = where(positive, out_grad, multiply(out_grad, reshape(alpha, alpha_dims.ToVector())));
  }
  if (!alpha_grad) return;
  // The axes alpha is broadcast along: those before its (right-aligned) dims and those where
  // its dim is 1. Axis 0 is always one of them, so the list is never empty (which would mean
  // "all" to sum).
  const int rank = x.dims().size();
  const int lead = rank - alpha_dims.size();
  std::vector<int64_t> axes;
  for (int i = 0; i < rank; ++i) {
    if (i < lead || alpha_dims[i - lead] == 1) axes.push_back(i);
  }
  Tensor below = MaskedGrad(logical_not(positive), multiply(out_grad, x));
  Tensor summed = rank == 0 ? below : sum(below, axes);
  *alpha_grad = reshape(summed, alpha.dims().ToVector());
}

void rrelu_grad(const Tensor& noise, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = multiply(out_grad, noise);
}

}  // namespace paddle::ops::grad
