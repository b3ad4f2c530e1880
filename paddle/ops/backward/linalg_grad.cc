// Backward rules of matmul and of Paddle's legacy mul. In matmul's, 1-D operands are treated as
// matrices (a row for x, a column for y), and the gradients keep the broadcast batch dims; the
// engine sums those back to each input.
#include <vector>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/matmul.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/squeeze.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/generated/grad_rules/linalg.h"

namespace paddle::ops::grad {

void matmul_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, bool transpose_x,
                 bool transpose_y, Tensor* x_grad, Tensor* y_grad) {
  bool x_vector = x.dims().size() == 1;
  bool y_vector = y.dims().size() == 1;
  // Complex operands enter conjugated: d(x y)/dx passes back out_grad y^H.
  Tensor x2 = Conj(x_vector ? unsqueeze(x, {0}) : x);
  Tensor y2 = Conj(y_vector ? unsqueeze(y, {-1}) : y);
  // Restore the dims the 1-D operands dropped from the output: N (last) first, then M.
  Tensor g = out_grad;
  if (y_vector) g = unsqueeze(g, {-1});
  if (x_vector) g = unsqueeze(g, {-2});

  // out = op(x2) op(y2) with op a (batched) transpose where the flag says so.
  if (x_grad) {
    Tensor dx;
    if (!transpose_x) {
      dx = matmul(g, y2, false, !transpose_y);  // g op(y2)^T
    } else {
      dx = matmul(y2, g, transpose_y, true);  // (g op(y2)^T)^T = op(y2) g^T
    }
    *x_grad = x_vector ? squeeze(dx, {-2}) : dx;
  }
  if (y_grad) {
    Tensor dy;
    const int64_t k = x2.dims()[x2.dims().size() - 1];
    const int64_t n = g.dims()[g.dims().size() - 1];
    if (!transpose_x && x2.dims().size() > 2 && y2.dims().size() == 2 && k >= 0 && n >= 0) {
      // A batch of x against one matrix y (a Linear layer): the batch folds into x's rows, so
      // y's gradient is one GEMM over [batch * M, K] rather than a GEMM per batch entry and a
      // sum of their [K, N] results.
      Tensor x_rows = reshape(x2, {-1, k});
      Tensor g_rows = reshape(g, {-1, n});
      dy = transpose_y ? matmul(g_rows, x_rows, true, false) : matmul(x_rows, g_rows, true, false);
    } else if (!transpose_y) {
      dy = matmul(x2, g, !transpose_x, false);  // op(x2)^T g
    } else {
      dy = matmul(g, x2, true, transpose_x);  // (op(x2)^T g)^T = g^T op(x2)
    }
    *y_grad = y_vector ? squeeze(dy, {-1}) : dy;
  }
}

// Backward rule of Paddle's legacy mul: with x read as the matrix [M, K], y as [K, N] and out as
// [M, N], dx = out_grad y^T and dy = x^T out_grad, each reshaped back to its input's dims.
void mul_grad(const Tensor& x, const Tensor& y, const Tensor& out_grad, int x_num_col_dims,
              int y_num_col_dims, Tensor* x_grad, Tensor* y_grad) {
  auto matrix = [](const Tensor& t, int num_col_dims) {
    const DDim& d = t.dims();
    int64_t rows = 1, cols = 1;
    for (int i = 0; i < d.size(); ++i) (i < num_col_dims ? rows : cols) *= d[i];
    return std::vector<int64_t>{rows, cols};
  };
  std::vector<int64_t> xm = matrix(x, x_num_col_dims);
  std::vector<int64_t> ym = matrix(y, y_num_col_dims);
  Tensor g = reshape(out_grad, {xm[0], ym[1]});
  if (x_grad) {
    *x_grad = reshape(matmul(g, reshape(y, ym), false, true), x.dims().ToVector());
  }
  if (y_grad) {
    *y_grad = reshape(matmul(reshape(x, xm), g, true, false), y.dims().ToVector());
  }
}

}  // namespace paddle::ops::grad
