// Backward rule of masked_select: the gradient scatters back to the selected positions.
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/masked_scatter.h"
#include "paddle/ops/generated/grad_rules/masked.h"

namespace paddle::ops::grad {

void masked_select_grad(const Tensor& x, const Tensor& mask, const Tensor& out_grad,
                        Tensor* x_grad) {
  if (!x_grad) return;
  // masked_select broadcasts x against mask; scatter into that shape, the engine sums back.
  DDim dims = funcs::BroadcastShape(x.dims(), mask.dims(), "masked_select");
  Tensor zeros = full(dims.ToVector(), 0.0, x.dtype(), x.place());
  *x_grad = masked_scatter(zeros, mask, out_grad);
}

}  // namespace paddle::ops::grad
