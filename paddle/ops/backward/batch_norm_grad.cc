// Backward rule of batch_norm: one fused kernel, two passes over x. Composed from forward ops it
// would allocate and traverse about ten x-sized intermediates.
#include <string>

#include "paddle/ops/generated/api/batch_norm_grad.h"
#include "paddle/ops/generated/grad_rules/norm.h"

namespace paddle::ops::grad {

void batch_norm_grad(const Tensor& x, const Tensor& scale, const Tensor& saved_mean,
                     const Tensor& saved_variance, const Tensor& out_grad,
                     const std::string& data_format, bool is_test, bool use_global_stats,
                     bool trainable_statistics, Tensor* x_grad, Tensor* scale_grad,
                     Tensor* bias_grad) {
  // The forward's rule for normalizing with the running statistics. (Paddle's backward ignores
  // trainable_statistics here, which makes its gradient disagree with its own forward when
  // is_test and trainable_statistics are both set.)
  const bool global_stats = (is_test && !trainable_statistics) || use_global_stats;
  auto [dx, dscale, dbias] = ops::batch_norm_grad(x, scale, saved_mean, saved_variance, out_grad,
                                                  data_format, global_stats);
  if (x_grad) *x_grad = dx;
  if (scale_grad) *scale_grad = dscale;
  if (bias_grad) *bias_grad = dbias;
}

}  // namespace paddle::ops::grad
