// Backward rule of warpctc: the forward computed each sequence's gradient with its loss (the
// forward-backward recursions give both), so the rule only scales it by the loss's gradient. The
// kernel has no gradient of its own, so warpctc has first-order gradients only, as in Paddle.
#include "paddle/ops/generated/api/warpctc_grad.h"
#include "paddle/ops/generated/grad_rules/ctc.h"

namespace paddle::ops::grad {

void warpctc_grad(const Tensor& logits, const Tensor& logits_length, const Tensor& warpctcgrad,
                  const Tensor& loss_grad, int32_t blank, bool norm_by_times, Tensor* logits_grad) {
  if (!logits_grad) return;
  *logits_grad =
      ops::warpctc_grad(logits, logits_length, warpctcgrad, loss_grad, blank, norm_by_times);
}

}  // namespace paddle::ops::grad
