// Backward rules of the normalization ops. layer_norm's is written with forward ops over the
// normalized axes, so higher-order gradients come free; those of batch_norm, group_norm and
// instance_norm are each one fused kernel, a few passes over x: composed from forward ops they
// would allocate and traverse about ten x-sized intermediates. lrn's gradient sums over each
// channel's window and spectral_norm's repeats the power iteration, which forward ops would also
// spell out at length; so theirs are kernels too. Gradients of those kernels are not defined, so
// these ops have first-order gradients only.
#include <algorithm>
#include <string>
#include <vector>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/batch_norm_grad.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/fused_batch_norm_act_grad.h"
#include "paddle/ops/generated/api/group_norm_grad.h"
#include "paddle/ops/generated/api/instance_norm_grad.h"
#include "paddle/ops/generated/api/lrn_grad.h"
#include "paddle/ops/generated/api/mean.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/rsqrt.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/spectral_norm_grad.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/grad_rules/norm.h"

namespace paddle::ops::grad {

namespace {

Tensor CastTo(const Tensor& t, DataType dtype) { return t.dtype() == dtype ? t : cast(t, dtype); }

}  // namespace

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

void sync_batch_norm_grad(const Tensor& x, const Tensor& scale, const Tensor& saved_mean,
                          const Tensor& saved_variance, const Tensor& out_grad,
                          const std::string& data_format, bool is_test, bool use_global_stats,
                          bool trainable_statistics, Tensor* x_grad, Tensor* scale_grad,
                          Tensor* bias_grad) {
  batch_norm_grad(x, scale, saved_mean, saved_variance, out_grad, data_format, is_test,
                  use_global_stats, trainable_statistics, x_grad, scale_grad, bias_grad);
}

void fused_batch_norm_act_grad(const Tensor& x, const Tensor& scale, const Tensor& bias,
                               const Tensor& out, const Tensor& saved_mean,
                               const Tensor& saved_variance, const Tensor& reserve_space,
                               const Tensor& out_grad, float momentum, float epsilon,
                               const std::string& act_type, Tensor* x_grad, Tensor* scale_grad,
                               Tensor* bias_grad) {
  auto [dx, dscale, dbias] =
      ops::fused_batch_norm_act_grad(x, scale, bias, out, saved_mean, saved_variance, reserve_space,
                                     out_grad, momentum, epsilon, act_type);
  if (x_grad) *x_grad = dx;
  if (scale_grad) *scale_grad = dscale;
  if (bias_grad) *bias_grad = dbias;
}

void group_norm_grad(const Tensor& x, const Tensor& scale, const Tensor& mean,
                     const Tensor& variance, const Tensor& y_grad, float epsilon, int groups,
                     const std::string& data_format, Tensor* x_grad, Tensor* scale_grad,
                     Tensor* bias_grad) {
  auto [dx, dscale, dbias] =
      ops::group_norm_grad(x, scale, mean, variance, y_grad, epsilon, groups, data_format);
  if (x_grad) *x_grad = dx;
  if (scale_grad) *scale_grad = dscale;
  if (bias_grad) *bias_grad = dbias;
}

void instance_norm_grad(const Tensor& x, const Tensor& scale, const Tensor& saved_mean,
                        const Tensor& saved_variance, const Tensor& y_grad, float epsilon,
                        Tensor* x_grad, Tensor* scale_grad, Tensor* bias_grad) {
  auto [dx, dscale, dbias] =
      ops::instance_norm_grad(x, scale, saved_mean, saved_variance, y_grad, epsilon);
  if (x_grad) *x_grad = dx;
  if (scale_grad) *scale_grad = dscale;
  if (bias_grad) *bias_grad = dbias;
}

void lrn_grad(const Tensor& x, const Tensor& out, const Tensor& mid_out, const Tensor& out_grad,
              int n, float alpha, float beta, const std::string& data_format, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::lrn_grad(x, out, mid_out, out_grad, n, alpha, beta, data_format);
}

void spectral_norm_grad(const Tensor& weight, const Tensor& u, const Tensor& v,
                        const Tensor& out_grad, int dim, int power_iters, float eps,
                        Tensor* weight_grad) {
  if (weight_grad) {
    *weight_grad = ops::spectral_norm_grad(weight, u, v, out_grad, dim, power_iters, eps);
  }
}

// With xhat = (x - mean) * rstd, rstd = 1 / sqrt(variance + epsilon), g = out_grad * scale over
// the n normalized elements of a row:
//   x_grad = rstd (g - mean(g) - xhat mean(g xhat)) + mean_grad / n + variance_grad 2 (x - mean) /
//   n
// (`scale` and `mean` name tensors here, so the ops of those names are called as ops::.)
// The mean and variance terms make the saved outputs differentiable, which the second-order
// gradient (through the saved mean and variance) needs.
void layer_norm_grad(const Tensor& x, const Tensor& scale, const Tensor& mean,
                     const Tensor& variance, const Tensor& out_grad, const Tensor& mean_grad,
                     const Tensor& variance_grad, float epsilon, int begin_norm_axis,
                     Tensor* x_grad, Tensor* scale_grad, Tensor* bias_grad) {
  const std::vector<int64_t> dims = x.dims().ToVector();
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> lead(dims.begin(), dims.begin() + begin_norm_axis);
  std::vector<int64_t> normalized(dims.begin() + begin_norm_axis, dims.end());
  std::vector<int64_t> axes;
  int64_t rows = 1;
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    if (i < begin_norm_axis) {
      rows *= dims[i];
    } else {
      axes.push_back(i);
      n *= dims[i];
    }
  }
  lead.resize(rank, 1);  // the leading dims, then 1 for each normalized dim: broadcasts against x
  const DataType compute = mean.dtype();
  Tensor xc = CastTo(x, compute);
  Tensor dy = CastTo(out_grad, compute);
  Tensor centered = subtract(xc, reshape(mean, lead));
  Tensor rstd = rsqrt(ops::scale(reshape(variance, lead), 1.0, static_cast<double>(epsilon)));
  Tensor xhat = multiply(centered, rstd);
  if (x_grad) {
    Tensor g = scale.defined() ? multiply(dy, reshape(CastTo(scale, compute), normalized)) : dy;
    Tensor projected = multiply(xhat, ops::mean(multiply(g, xhat), axes, true));
    Tensor dx = multiply(rstd, subtract(subtract(g, ops::mean(g, axes, true)), projected));
    double inv_n = 1.0 / static_cast<double>(std::max<int64_t>(n, 1));
    dx = add(dx, ops::scale(reshape(CastTo(mean_grad, compute), lead), inv_n));
    dx = add(dx, multiply(reshape(CastTo(variance_grad, compute), lead),
                          ops::scale(centered, 2.0 * inv_n)));
    *x_grad = CastTo(dx, x.dtype());
  }
  if (scale_grad) {
    Tensor ds = sum(reshape(multiply(dy, xhat), {rows, n}), {0});
    *scale_grad = CastTo(ds, scale.dtype());
  }
  if (bias_grad) *bias_grad = CastTo(sum(reshape(dy, {rows, n}), {0}), x.dtype());
}

}  // namespace paddle::ops::grad
