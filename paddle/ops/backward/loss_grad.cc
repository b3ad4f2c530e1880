// Backward rule of softmax cross-entropy: a fused grad kernel, (softmax - label) * loss_grad,
// which is both faster and more stable than differentiating through log(softmax).
#include "paddle/ops/generated/api/cross_entropy_with_softmax_grad.h"
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

}  // namespace paddle::ops::grad
