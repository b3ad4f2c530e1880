// Backward rules of the loss ops. Softmax cross-entropy and nll_loss have fused grad kernels:
// (softmax - label) * loss_grad is both faster and more stable than differentiating through
// log(softmax), and nll_loss's gradient is a scatter of the upstream gradient. The elementwise
// losses are built from forward ops, so their higher-order gradients come free. As in Paddle,
// only the prediction gets a gradient, except in huber_loss (both sides).
#include <string>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/clip.h"
#include "paddle/ops/generated/api/cross_entropy_with_softmax_grad.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/maximum.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/nll_loss_grad.h"
#include "paddle/ops/generated/api/not_equal.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sigmoid.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/grad_rules/loss.h"

namespace paddle::ops::grad {

void cross_entropy_with_softmax_grad(const Tensor& label, const Tensor& softmax,
                                     const Tensor& loss_grad, bool soft_label, bool use_softmax,
                                     bool numeric_stable_mode, int32_t ignore_index, int32_t axis,
                                     Tensor* input_grad) {
  if (!input_grad) return;
  *input_grad = ops::cross_entropy_with_softmax_grad(
      label, softmax, loss_grad, soft_label, use_softmax, numeric_stable_mode, ignore_index, axis);
}

// d/dx = (x - label) / (x (1 - x)); Paddle bounds the denominator below by 1e-12 so that x = 0 or
// 1 gives a large finite slope, matching the clamped log of the forward.
void bce_loss_grad(const Tensor& input, const Tensor& label, const Tensor& out_grad,
                   Tensor* input_grad) {
  if (!input_grad) return;
  Tensor spread = multiply(scale(input, -1.0, 1.0), input);
  Tensor denominator = maximum(spread, ScalarLike(input, 1e-12));
  *input_grad = multiply(out_grad, divide(subtract(input, label), denominator));
}

// d/dx = (1 - label) - w (1 - sigmoid(x)), which is sigmoid(x) - label without pos_weight (w = 1).
void sigmoid_cross_entropy_with_logits_grad(const Tensor& x, const Tensor& label,
                                            const Tensor& pos_weight, const Tensor& out_grad,
                                            bool normalize, int32_t ignore_index, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor probability = sigmoid(x);
  Tensor slope = pos_weight.defined() ? add(scale(label, -1.0, 1.0),
                                            multiply(pos_weight, scale(probability, 1.0, -1.0)))
                                      : subtract(probability, label);
  Tensor counted = not_equal(label, ScalarLike(label, ignore_index));
  Tensor grad = MaskedGrad(counted, multiply(out_grad, slope));
  if (normalize) {
    // At least 1: with every label ignored the gradient is all zeros, as the loss is.
    Tensor count = sum(cast(counted, x.dtype()));
    grad = divide(grad, maximum(count, ScalarLike(count, 1.0)));
  }
  *x_grad = grad;
}

// With r = label - input, d/dr is r clipped to [-delta, delta].
void huber_loss_grad(const Tensor& input, const Tensor& label, const Tensor& out_grad, float delta,
                     Tensor* input_grad, Tensor* label_grad) {
  Tensor slope = multiply(out_grad, clip(subtract(label, input), -delta, delta));
  if (input_grad) *input_grad = scale(slope, -1.0);
  if (label_grad) *label_grad = slope;
}

// d/dx = -label where label > 0 (the loss is 0 elsewhere), or -exp(label) with log_target; the
// reductions divide as the forward did.
void kldiv_loss_grad(const Tensor& label, const Tensor& out_grad, const std::string& reduction,
                     bool log_target, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor slope = log_target
                     ? scale(exp(label), -1.0)
                     : MaskedGrad(greater_than(label, ScalarLike(label, 0.0)), scale(label, -1.0));
  Tensor grad = multiply(slope, out_grad);
  const DDim& dims = label.dims();
  if (reduction == "mean" && dims.numel() > 0) {
    grad = scale(grad, 1.0 / static_cast<double>(dims.numel()));
  } else if (reduction == "batchmean" && dims.size() > 0 && dims[0] > 0) {
    grad = scale(grad, 1.0 / static_cast<double>(dims[0]));
  }
  *x_grad = grad;
}

// d/dinput = -label / (input + eps) + (1 - label) / (1 - input + eps).
void log_loss_grad(const Tensor& input, const Tensor& label, const Tensor& out_grad, float epsilon,
                   Tensor* input_grad) {
  if (!input_grad) return;
  Tensor positive = divide(label, scale(input, 1.0, epsilon));
  Tensor negative = divide(scale(label, -1.0, 1.0), scale(input, -1.0, 1.0 + epsilon));
  *input_grad = multiply(out_grad, subtract(negative, positive));
}

void nll_loss_grad(const Tensor& input, const Tensor& label, const Tensor& weight,
                   const Tensor& total_weight, const Tensor& out_grad, int64_t ignore_index,
                   const std::string& reduction, Tensor* input_grad) {
  if (!input_grad) return;
  *input_grad =
      ops::nll_loss_grad(input, label, weight, total_weight, out_grad, ignore_index, reduction);
}

}  // namespace paddle::ops::grad
