// Backward rule of flash_attn: one call of its gradient kernel, which recomputes the weights
// block by block from softmax_lse (a rule of forward ops would materialise them). The kernel has
// no gradient of its own, so flash_attn has first-order gradients only; attn_mask gets none
// (Paddle's flash_attn_grad gives none either).
#include "paddle/ops/generated/api/flash_attn_grad.h"
#include "paddle/ops/generated/grad_rules/attention.h"

namespace paddle::ops::grad {

void flash_attn_grad(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& out,
                     const Tensor& softmax_lse, const Tensor& seed_offset, const Tensor& attn_mask,
                     const Tensor& out_grad, float dropout, bool causal, bool is_test,
                     Tensor* q_grad, Tensor* k_grad, Tensor* v_grad) {
  // is_test ran without dropout, whatever `dropout` says.
  auto [dq, dk, dv] = ops::flash_attn_grad(q, k, v, out, softmax_lse, seed_offset, attn_mask,
                                           out_grad, is_test ? 0.0f : dropout, causal);
  if (q_grad) *q_grad = dq;
  if (k_grad) *k_grad = dk;
  if (v_grad) *v_grad = dv;
}

}  // namespace paddle::ops::grad
