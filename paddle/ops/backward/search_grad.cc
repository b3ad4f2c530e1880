// Backward rules of the along-axis, sorting and scan ops. Selecting ops (take_along_axis, topk,
// argsort) scatter the gradient back with put_along_axis "add", so repeated indices accumulate.
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/cumprod_grad.h"
#include "paddle/ops/generated/api/cumsum.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/put_along_axis.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/take_along_axis.h"
#include "paddle/ops/generated/grad_rules/search.h"

namespace paddle::ops::grad {

namespace {

Tensor ScatterAdd(const Tensor& x, const Tensor& indices, const Tensor& out_grad, int32_t axis) {
  return put_along_axis(ZerosLike(x), indices, out_grad, axis, "add", true);
}

}  // namespace

void take_along_axis_grad(const Tensor& arr, const Tensor& indices, const Tensor& out_grad,
                          int32_t axis, Tensor* arr_grad) {
  if (arr_grad) *arr_grad = ScatterAdd(arr, indices, out_grad, axis);
}

// assign: the written positions of arr no longer reach out, and each value reaches its position
// (duplicates included, as in Paddle). add: out_grad passes to arr (unless include_self is off,
// which cuts the written positions) and to every value. mul: out = arr * prod(values at the
// position), so arr's gradient is out_grad times that product (exact with zeros); a value's is
// out_grad * out / value, which needs values free of zeros.
void put_along_axis_grad(const Tensor& arr, const Tensor& indices, const Tensor& values,
                         const Tensor& out, const Tensor& out_grad, int32_t axis,
                         const std::string& reduce, bool include_self, Tensor* arr_grad,
                         Tensor* values_grad) {
  bool mul = reduce == "mul" || reduce == "multiply";
  bool cut = reduce == "assign" || !include_self;
  if (arr_grad) {
    if (cut) {
      *arr_grad = put_along_axis(out_grad, indices, ZerosLike(values), axis, "assign", true);
    } else if (mul) {
      *arr_grad = put_along_axis(out_grad, indices, values, axis, reduce, true);
    } else {
      *arr_grad = out_grad;
    }
  }
  if (values_grad) {
    if (mul) {
      *values_grad = divide(take_along_axis(multiply(out_grad, out), indices, axis), values);
    } else {
      *values_grad = take_along_axis(out_grad, indices, axis);
    }
  }
}

void topk_grad(const Tensor& x, const Tensor& indices, const Tensor& out_grad, int32_t axis,
               Tensor* x_grad) {
  if (x_grad) *x_grad = ScatterAdd(x, indices, out_grad, axis);
}

void argsort_grad(const Tensor& x, const Tensor& indices, const Tensor& out_grad, int32_t axis,
                  Tensor* x_grad) {
  if (x_grad) *x_grad = ScatterAdd(x, indices, out_grad, axis);
}

// The gradient of a running sum is the running sum of the gradient in the other direction.
void cumsum_grad(const Tensor& x, const Tensor& out_grad, const Scalar& axis, bool flatten,
                 bool exclusive, bool reverse, Tensor* x_grad) {
  if (!x_grad) return;
  if (flatten) {
    *x_grad = reshape(cumsum(out_grad, Scalar(0), false, exclusive, !reverse), x.dims().ToVector());
  } else {
    *x_grad = cumsum(out_grad, axis, false, exclusive, !reverse);
  }
}

void cumprod_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, int32_t dim,
                  bool exclusive, bool reverse, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::cumprod_grad(x, out, out_grad, dim, exclusive, reverse);
}

}  // namespace paddle::ops::grad
