// Small building blocks the backward rules share.
#pragma once

#include <vector>

#include "paddle/common/reduce_axes.h"
#include "paddle/ops/generated/api/conj.h"
#include "paddle/ops/generated/api/expand.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/full_like.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/where.h"

namespace paddle::ops::grad {

inline Tensor ZerosLike(const Tensor& x) { return full_like(x, 0.0); }

// conj(x) for a complex x, x itself otherwise. Paddle's gradient of a real loss L with respect to
// a complex z is dL/dRe(z) + i dL/dIm(z), so a rule for a holomorphic f passes back
// out_grad * conj(f'(z)); with this, one rule serves the real and the complex dtypes.
inline Tensor Conj(const Tensor& x) { return IsComplex(x.dtype()) ? conj(x) : x; }

// where(condition, value, 0): passes `value` through where the condition holds.
inline Tensor MaskedGrad(const Tensor& condition, const Tensor& value) {
  return where(condition, value, ZerosLike(value));
}

// A 0-d tensor holding `value`, with x's dtype and place, for comparisons against a scalar.
inline Tensor ScalarLike(const Tensor& x, double value) {
  return full({}, value, x.dtype(), x.place());
}

// Reshapes a reduction's output (or its gradient) to keepdim form, then expands it to x's shape.
inline Tensor ExpandReduced(const Tensor& reduced, const Tensor& x,
                            const std::vector<int64_t>& axis) {
  const DDim& dims = x.dims();
  std::vector<int> axes = ReduceAxes(axis, dims.size());
  std::vector<int64_t> kept = ReducedDims(dims, axes, true).ToVector();
  return expand(reshape(reduced, kept), dims.ToVector());
}

}  // namespace paddle::ops::grad
