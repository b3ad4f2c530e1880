// Backward rules of the gathers and scatters: a gather's gradient scatters back, and the reverse.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/gather.h"
#include "paddle/ops/generated/api/gather_nd.h"
#include "paddle/ops/generated/api/index_add.h"
#include "paddle/ops/generated/api/index_select.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/scatter.h"
#include "paddle/ops/generated/api/scatter_nd_add.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/generated/grad_rules/gather.h"

namespace paddle::ops::grad {

void gather_grad(const Tensor& x, const Tensor& index, const Tensor& out_grad, int64_t axis,
                 Tensor* x_grad) {
  if (!x_grad) return;
  int rank = x.dims().size();
  int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  Tensor g = out_grad;
  Tensor idx = index;
  if (index.dims().size() == 0) {  // a 0-d index removed the axis
    g = unsqueeze(g, {a});
    idx = reshape(index, {1});
  }
  *x_grad = index_add(ZerosLike(x), idx, g, a);
}

void index_select_grad(const Tensor& x, const Tensor& index, const Tensor& out_grad, int32_t axis,
                       Tensor* x_grad) {
  if (x_grad) *x_grad = index_add(ZerosLike(x), index, out_grad, axis);
}

void index_add_grad(const Tensor& index, const Tensor& out_grad, int32_t axis, Tensor* x_grad,
                    Tensor* add_value_grad) {
  if (x_grad) *x_grad = out_grad;
  if (add_value_grad) *add_value_grad = index_select(out_grad, index, axis);
}

void scatter_grad(const Tensor& index, const Tensor& updates, const Tensor& out_grad,
                  bool overwrite, Tensor* x_grad, Tensor* updates_grad) {
  Tensor ids = index.dims().size() == 2 ? reshape(index, {-1}) : index;
  if (x_grad) *x_grad = scatter(out_grad, ids, ZerosLike(updates), true);
  if (updates_grad) {
    Tensor g = gather(out_grad, ids.dims().size() == 0 ? reshape(ids, {1}) : ids, 0);
    *updates_grad = reshape(g, updates.dims().ToVector());
  }
}

void gather_nd_grad(const Tensor& x, const Tensor& index, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = scatter_nd_add(ZerosLike(x), index, out_grad);
}

void scatter_nd_add_grad(const Tensor& index, const Tensor& out_grad, Tensor* x_grad,
                         Tensor* updates_grad) {
  if (x_grad) *x_grad = out_grad;
  if (updates_grad) *updates_grad = gather_nd(out_grad, index);
}

}  // namespace paddle::ops::grad
