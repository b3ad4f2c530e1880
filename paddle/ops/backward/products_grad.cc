// Backward rules of cross and kron, written with forward ops.
#include <algorithm>
#include <vector>

#include "paddle/ops/generated/api/cross.h"
#include "paddle/ops/generated/api/matmul.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/grad_rules/products.h"

namespace paddle::ops::grad {

// g . (dx x y) = dx . (y x g) and g . (x x dy) = dy . (g x x).
void cross_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, int32_t axis,
                Tensor* x_grad, Tensor* y_grad) {
  if (x_grad) *x_grad = cross(y, out_grad, axis);
  if (y_grad) *y_grad = cross(out_grad, x, axis);
}

// With the product's dims split in (x's, y's) pairs, out = x[:, None, :, None, ...] *
// y[None, :, None, :, ...]: each gradient sums out_grad times the other operand over the other's
// dims.
void kron_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
               Tensor* y_grad) {
  int rank = std::max(x.dims().size(), y.dims().size());
  std::vector<int64_t> xd(rank, 1), yd(rank, 1), pairs, x_spread, y_spread, x_axes, y_axes;
  for (int i = 0; i < x.dims().size(); ++i) xd[rank - x.dims().size() + i] = x.dims()[i];
  for (int i = 0; i < y.dims().size(); ++i) yd[rank - y.dims().size() + i] = y.dims()[i];
  for (int i = 0; i < rank; ++i) {
    pairs.insert(pairs.end(), {xd[i], yd[i]});
    x_spread.insert(x_spread.end(), {xd[i], 1});
    y_spread.insert(y_spread.end(), {1, yd[i]});
    y_axes.push_back(2 * i);  // x's dims, summed for y's gradient
    x_axes.push_back(2 * i + 1);
  }
  Tensor g = reshape(out_grad, pairs);
  if (x_grad) {
    Tensor summed = sum(multiply(g, reshape(y, y_spread)), x_axes);
    *x_grad = reshape(summed, x.dims().ToVector());
  }
  if (y_grad) {
    Tensor summed = sum(multiply(g, reshape(x, x_spread)), y_axes);
    *y_grad = reshape(summed, y.dims().ToVector());
  }
}

// out = x y per batch: x_grad = out_grad y^T, y_grad = x^T out_grad.
void bmm_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, Tensor* x_grad,
              Tensor* y_grad) {
  if (x_grad) *x_grad = matmul(out_grad, y, false, true);
  if (y_grad) *y_grad = matmul(x, out_grad, true, false);
}

}  // namespace paddle::ops::grad
