// Backward rule of the embedding lookup.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/index_add.h"
#include "paddle/ops/generated/api/not_equal.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/grad_rules/embedding.h"

namespace paddle::ops::grad {

// weight_grad[r, :] = sum of out_grad rows whose id is r; the padding row gets nothing. `sparse`
// asks Paddle for a SelectedRows gradient; here the gradient is always dense.
void embedding_grad(const Tensor& x, const Tensor& weight, const Tensor& out_grad,
                    int64_t padding_idx, bool sparse, Tensor* weight_grad) {
  if (!weight_grad) return;
  int64_t n = 1;
  for (int i = 0; i < x.dims().size(); ++i) n *= x.dims()[i];
  int64_t dim = weight.dims()[1];
  Tensor ids = reshape(x, {n});
  Tensor rows = reshape(out_grad, {n, dim});
  if (padding_idx >= 0) {
    Tensor keep = not_equal(ids, ScalarLike(ids, static_cast<double>(padding_idx)));
    rows = MaskedGrad(reshape(keep, {n, 1}), rows);
  }
  *weight_grad = index_add(ZerosLike(weight), ids, rows, 0);
}

}  // namespace paddle::ops::grad
