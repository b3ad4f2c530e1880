// Backward rules of the pooling ops. Pooling is piecewise linear in x, so each first-order
// gradient is linear in out_grad with a derivative in x of zero; the rules of the gradient ops
// only carry the gradient in out_grad (pool2d_double_grad, and pool2d_grad for that op), which
// makes gradients of every order exact. lp_pool2d, max_pool*_with_index and unpool are written
// with forward ops (pow, pool2d_grad, put_along_axis, take_along_axis), so theirs follow too.
#include <cstdint>
#include <string>
#include <vector>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/lp_pool2d.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/pool2d.h"
#include "paddle/ops/generated/api/pool2d_double_grad.h"
#include "paddle/ops/generated/api/pool2d_grad.h"
#include "paddle/ops/generated/api/pool3d.h"
#include "paddle/ops/generated/api/pool3d_double_grad.h"
#include "paddle/ops/generated/api/pool3d_grad.h"
#include "paddle/ops/generated/api/pow.h"
#include "paddle/ops/generated/api/put_along_axis.h"
#include "paddle/ops/generated/api/take_along_axis.h"
#include "paddle/ops/generated/grad_rules/pool.h"

namespace paddle::ops::grad {

namespace {

using Ints = std::vector<int32_t>;

// [N, C, spatial...] as [N, C, the plane's elements], for indexing along axis 2.
std::vector<int64_t> PlaneShape(const DDim& dims) {
  int64_t plane = 1;
  for (int i = 2; i < dims.size(); ++i) plane *= dims[i];
  return {dims[0], dims[1], plane};
}

Tensor Planes(const Tensor& t) { return reshape(t, PlaneShape(t.dims())); }

}  // namespace

void pool2d_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                 const Ints& kernel_size, const Ints& strides, const Ints& paddings, bool ceil_mode,
                 bool exclusive, const std::string& data_format, const std::string& pooling_type,
                 bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                 Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad =
      ops::pool2d_grad(x, out, out_grad, kernel_size, strides, paddings, ceil_mode, exclusive,
                       data_format, pooling_type, global_pooling, adaptive, padding_algorithm);
}

void pool2d_grad_grad(const Tensor& x, const Tensor& x_grad_grad, const Ints& kernel_size,
                      const Ints& strides, const Ints& paddings, bool ceil_mode, bool exclusive,
                      const std::string& data_format, const std::string& pooling_type,
                      bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                      Tensor* out_grad_grad) {
  if (!out_grad_grad) return;
  *out_grad_grad = ops::pool2d_double_grad(x, x_grad_grad, kernel_size, strides, paddings,
                                           ceil_mode, exclusive, data_format, pooling_type,
                                           global_pooling, adaptive, padding_algorithm);
}

// pool2d_double_grad is linear in grad_x_grad with pool2d_grad as its adjoint.
void pool2d_double_grad_grad(const Tensor& x, const Tensor& grad_out_grad_grad,
                             const Ints& kernel_size, const Ints& strides, const Ints& paddings,
                             bool ceil_mode, bool exclusive, const std::string& data_format,
                             const std::string& pooling_type, bool global_pooling, bool adaptive,
                             const std::string& padding_algorithm, Tensor* grad_x_grad_grad) {
  if (!grad_x_grad_grad) return;
  Tensor out = ops::pool2d(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format,
                           pooling_type, global_pooling, adaptive, padding_algorithm);
  *grad_x_grad_grad = ops::pool2d_grad(x, out, grad_out_grad_grad, kernel_size, strides, paddings,
                                       ceil_mode, exclusive, data_format, pooling_type,
                                       global_pooling, adaptive, padding_algorithm);
}

void pool3d_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                 const Ints& kernel_size, const Ints& strides, const Ints& paddings, bool ceil_mode,
                 bool exclusive, const std::string& data_format, const std::string& pooling_type,
                 bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                 Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad =
      ops::pool3d_grad(x, out, out_grad, kernel_size, strides, paddings, ceil_mode, exclusive,
                       data_format, pooling_type, global_pooling, adaptive, padding_algorithm);
}

void pool3d_grad_grad(const Tensor& x, const Tensor& x_grad_grad, const Ints& kernel_size,
                      const Ints& strides, const Ints& paddings, bool ceil_mode, bool exclusive,
                      const std::string& data_format, const std::string& pooling_type,
                      bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                      Tensor* out_grad_grad) {
  if (!out_grad_grad) return;
  *out_grad_grad = ops::pool3d_double_grad(x, x_grad_grad, kernel_size, strides, paddings,
                                           ceil_mode, exclusive, data_format, pooling_type,
                                           global_pooling, adaptive, padding_algorithm);
}

void pool3d_double_grad_grad(const Tensor& x, const Tensor& grad_out_grad_grad,
                             const Ints& kernel_size, const Ints& strides, const Ints& paddings,
                             bool ceil_mode, bool exclusive, const std::string& data_format,
                             const std::string& pooling_type, bool global_pooling, bool adaptive,
                             const std::string& padding_algorithm, Tensor* grad_x_grad_grad) {
  if (!grad_x_grad_grad) return;
  Tensor out = ops::pool3d(x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format,
                           pooling_type, global_pooling, adaptive, padding_algorithm);
  *grad_x_grad_grad = ops::pool3d_grad(x, out, grad_out_grad_grad, kernel_size, strides, paddings,
                                       ceil_mode, exclusive, data_format, pooling_type,
                                       global_pooling, adaptive, padding_algorithm);
}

// out = (S x^p)^(1/p) with S the window sums, so x_grad = x^(p-1) * S^T(out_grad * out^(1-p)),
// Paddle's out_grad * (x / out)^(p-1). S^T is the exclusive average's adjoint applied to
// out_grad times each window's element count (lp_pool2d of ones with p = 1).
void lp_pool2d_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad,
                    const Ints& kernel_size, const Ints& strides, const Ints& paddings,
                    bool ceil_mode, const std::string& data_format, bool global_pooling,
                    bool adaptive, const std::string& padding_algorithm, float norm_type,
                    Tensor* x_grad) {
  if (!x_grad) return;
  const std::string avg = "avg";
  Tensor counts =
      ops::lp_pool2d(full_like(x, 1.0), kernel_size, strides, paddings, ceil_mode, true,
                     data_format, avg, global_pooling, adaptive, padding_algorithm, 1.0f);
  Tensor sums = multiply(multiply(out_grad, pow(out, 1.0 - norm_type)), counts);
  Tensor spread = ops::pool2d_grad(x, out, sums, kernel_size, strides, paddings, ceil_mode, true,
                                   data_format, avg, global_pooling, adaptive, padding_algorithm);
  *x_grad = multiply(pow(x, norm_type - 1.0), spread);
}

// mask holds each output's flat position in its input plane: out_grad is added there.
void max_pool2d_with_index_grad(const Tensor& x, const Tensor& mask, const Tensor& out_grad,
                                Tensor* x_grad) {
  if (!x_grad) return;
  Tensor zeros = full(PlaneShape(x.dims()), 0.0, out_grad.dtype(), out_grad.place());
  *x_grad =
      reshape(put_along_axis(zeros, Planes(mask), Planes(out_grad), 2, "add"), x.dims().ToVector());
}

void max_pool3d_with_index_grad(const Tensor& x, const Tensor& mask, const Tensor& out_grad,
                                Tensor* x_grad) {
  max_pool2d_with_index_grad(x, mask, out_grad, x_grad);
}

// unpool put x[i] at indices[i] of its output plane, so x_grad[i] = out_grad there.
void unpool_grad(const Tensor& x, const Tensor& indices, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = reshape(take_along_axis(Planes(out_grad), Planes(indices), 2), x.dims().ToVector());
}

void unpool3d_grad(const Tensor& x, const Tensor& indices, const Tensor& out_grad, Tensor* x_grad) {
  unpool_grad(x, indices, out_grad, x_grad);
}

}  // namespace paddle::ops::grad
