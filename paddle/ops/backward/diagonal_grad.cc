// Backward rules of diagonal, diagonal_grad, trace and diag_embed: each is the other's map.
#include <algorithm>
#include <vector>

#include "paddle/common/ddim.h"
#include "paddle/ops/generated/api/diagonal.h"
#include "paddle/ops/generated/api/diagonal_grad.h"
#include "paddle/ops/generated/api/expand.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/generated/grad_rules/diagonal.h"

namespace paddle::ops::grad {

void diagonal_grad(const Tensor& x, const Tensor& out_grad, int32_t offset, int32_t axis1,
                   int32_t axis2, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::diagonal_grad(x, out_grad, offset, axis1, axis2);
}

void diagonal_grad_grad(const Tensor& x_grad_grad, int32_t offset, int32_t axis1, int32_t axis2,
                        Tensor* out_grad_grad) {
  if (out_grad_grad) *out_grad_grad = diagonal(x_grad_grad, offset, axis1, axis2);
}

// Each diagonal element gets its matrix's out_grad.
void trace_grad(const Tensor& x, const Tensor& out_grad, int32_t offset, int32_t axis1,
                int32_t axis2, Tensor* x_grad) {
  if (!x_grad) return;
  // diagonal's result dims: x's other dims, then the diagonal's length (x has no data here).
  const DDim& dims = x.dims();
  int rank = dims.size();
  int a1 = NormalizeAxis(axis1, rank, "trace", "axis1");
  int a2 = NormalizeAxis(axis2, rank, "trace", "axis2");
  std::vector<int64_t> diagonal_dims;
  for (int i = 0; i < rank; ++i) {
    if (i != a1 && i != a2) diagonal_dims.push_back(dims[i]);
  }
  int64_t rows = dims[a1], cols = dims[a2];
  int64_t length = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
  diagonal_dims.push_back(std::max<int64_t>(length, 0));
  Tensor spread = expand(unsqueeze(out_grad, {-1}), diagonal_dims);
  *x_grad = ops::diagonal_grad(x, spread, offset, axis1, axis2);
}

void diag_embed_grad(const Tensor& out_grad, int32_t offset, int32_t dim1, int32_t dim2,
                     Tensor* x_grad) {
  if (x_grad) *x_grad = diagonal(out_grad, offset, dim1, dim2);
}

}  // namespace paddle::ops::grad
