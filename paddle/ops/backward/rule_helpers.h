// Small building blocks the backward rules share.
#pragma once

#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/full_like.h"
#include "paddle/ops/generated/api/where.h"

namespace paddle::ops::grad {

inline Tensor ZerosLike(const Tensor& x) { return full_like(x, 0.0); }

// where(condition, value, 0): passes `value` through where the condition holds.
inline Tensor MaskedGrad(const Tensor& condition, const Tensor& value) {
  return where(condition, value, ZerosLike(value));
}

// A 0-d tensor holding `value`, with x's dtype and place, for comparisons against a scalar.
inline Tensor ScalarLike(const Tensor& x, double value) {
  return full({}, value, x.dtype(), x.place());
}

}  // namespace paddle::ops::grad
