// Backward rules of the shape-manipulation and indexing ops.
#include <algorithm>

#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/concat.h"
#include "paddle/ops/generated/api/pixel_shuffle.h"
#include "paddle/ops/generated/api/pixel_shuffle_grad.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/set_value_with_tensor.h"
#include "paddle/ops/generated/api/split.h"
#include "paddle/ops/generated/api/strided_slice.h"
#include "paddle/ops/generated/api/transpose.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/generated/grad_rules/manipulation.h"

namespace paddle::ops::grad {

namespace {

Tensor ReshapeLike(const Tensor& g, const Tensor& x) { return reshape(g, x.dims().ToVector()); }

std::vector<int64_t> Ones(size_t n) { return std::vector<int64_t>(n, 1); }

}  // namespace

void reshape_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ReshapeLike(out_grad, x);
}

void squeeze_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ReshapeLike(out_grad, x);
}

void unsqueeze_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ReshapeLike(out_grad, x);
}

void flatten_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ReshapeLike(out_grad, x);
}

void transpose_grad(const Tensor& out_grad, const std::vector<int32_t>& perm, Tensor* x_grad) {
  if (!x_grad) return;
  int rank = static_cast<int>(perm.size());
  std::vector<int32_t> inverse(rank);
  for (int i = 0; i < rank; ++i) inverse[(perm[i] + rank) % rank] = i;
  *x_grad = transpose(out_grad, inverse);
}

void concat_grad(const std::vector<Tensor>& x, const Tensor& out_grad, int64_t axis,
                 const std::vector<Tensor*>& x_grad) {
  if (x_grad.empty()) return;
  int rank = out_grad.dims().size();
  int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  std::vector<int64_t> sizes;
  for (const Tensor& t : x) sizes.push_back(t.dims()[a]);
  // split reads a single entry as "this many equal parts"; one input is just the gradient.
  if (sizes.size() == 1) {
    *x_grad[0] = out_grad;
    return;
  }
  std::vector<Tensor> parts = split(out_grad, sizes, a);
  for (size_t i = 0; i < parts.size(); ++i) *x_grad[i] = parts[i];
}

void split_grad(const std::vector<Tensor>& out_grad, int64_t axis, Tensor* x_grad) {
  if (x_grad) *x_grad = concat(out_grad, axis);
}

void stack_grad(const std::vector<Tensor>& x, const Tensor& out_grad, int32_t axis,
                const std::vector<Tensor*>& x_grad) {
  if (x_grad.empty()) return;
  int rank = out_grad.dims().size();
  int a = axis < 0 ? axis + rank : axis;
  std::vector<Tensor> parts = split(out_grad, {static_cast<int64_t>(x.size())}, a);
  for (size_t i = 0; i < parts.size(); ++i) *x_grad[i] = ReshapeLike(parts[i], x[i]);
}

// expand's gradient is the output gradient summed back to x's shape: the engine does that sum.
void expand_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = out_grad;
}

void slice_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axes,
                const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                const std::vector<int64_t>& decrease_axis, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor g = out_grad;
  if (!decrease_axis.empty()) {
    std::vector<int64_t> sorted(decrease_axis);
    std::sort(sorted.begin(), sorted.end());
    g = unsqueeze(g, sorted);
  }
  *x_grad = set_value_with_tensor(ZerosLike(x), g, starts, ends, Ones(axes.size()), axes);
}

void strided_slice_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int32_t>& axes,
                        const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                        const std::vector<int64_t>& strides, Tensor* x_grad) {
  if (!x_grad) return;
  std::vector<int64_t> axes64(axes.begin(), axes.end());
  *x_grad = set_value_with_tensor(ZerosLike(x), out_grad, starts, ends, strides, axes64);
}

void set_value_with_tensor_grad(const Tensor& values, const Tensor& out_grad,
                                const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& ends, const std::vector<int64_t>& steps,
                                const std::vector<int64_t>& axes, Tensor* x_grad,
                                Tensor* values_grad) {
  // The assigned region of x was overwritten: it gets no gradient; the values get the
  // gradient of that region (summed back to their shape by the engine).
  if (x_grad) {
    *x_grad = set_value_with_tensor(out_grad, ScalarLike(out_grad, 0.0), starts, ends, steps, axes);
  }
  if (values_grad) {
    std::vector<int32_t> axes32(axes.begin(), axes.end());
    *values_grad = strided_slice(out_grad, axes32, starts, ends, steps);
  }
}

void pixel_shuffle_grad(const Tensor& out_grad, int32_t upscale_factor,
                        const std::string& data_format, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::pixel_shuffle_grad(out_grad, upscale_factor, data_format);
}

void pixel_shuffle_grad_grad(const Tensor& x_grad_grad, int32_t upscale_factor,
                             const std::string& data_format, Tensor* out_grad_grad) {
  if (out_grad_grad) *out_grad_grad = pixel_shuffle(x_grad_grad, upscale_factor, data_format);
}

}  // namespace paddle::ops::grad
