// Backward rule of dropout, with forward ops (Paddle's DropoutGradRawKernel):
//   training:  x_grad = out_grad * mask / (1 - p)  (upscale_in_train; 0 when p == 1)
//              x_grad = out_grad * mask            (downgrade_in_infer)
//   is_test:   x_grad = out_grad                   (upscale_in_train)
//              x_grad = out_grad * (1 - p)         (downgrade_in_infer)
// p is read as float and 1 - p rounded to out_grad's dtype, as in the forward kernel.
#include <string>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/grad_rules/dropout.h"

namespace paddle::ops::grad {

void dropout_grad(const Tensor& mask, const Tensor& out_grad, const Scalar& p, bool is_test,
                  const std::string& mode, Tensor* x_grad) {
  if (!x_grad) return;
  const float prob = p.to<float>();
  const bool upscale = mode == "upscale_in_train";
  if (is_test) {
    *x_grad = upscale ? out_grad : multiply(out_grad, ScalarLike(out_grad, 1.0f - prob));
    return;
  }
  if (upscale && prob == 1.0f) {
    *x_grad = scale(out_grad, 0.0);
    return;
  }
  Tensor kept = multiply(out_grad, cast(mask, out_grad.dtype()));
  *x_grad = upscale ? divide(kept, ScalarLike(out_grad, 1.0f - prob)) : kept;
}

}  // namespace paddle::ops::grad
