// CPU diagonal, diagonal_grad, trace and diag_embed over one index map: the element offsets,
// in a tensor, of the diagonal `offset` of the matrices its dims a1 and a2 span, listed in the
// order of diagonal's result (the other dims in order, then the position along the diagonal).
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "paddle/common/ddim.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_functors.h"

namespace paddle {

namespace {

std::vector<int64_t> DiagonalOffsets(const DDim& dims, int32_t offset, int32_t axis1,
                                     int32_t axis2) {
  int rank = dims.size();
  int a1 = NormalizeAxis(axis1, rank, "diagonal", "axis1");
  int a2 = NormalizeAxis(axis2, rank, "diagonal", "axis2");
  std::vector<int64_t> strides = ContiguousStrides(dims);
  int64_t rows = dims[a1], cols = dims[a2];
  int64_t length = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
  length = std::max<int64_t>(length, 0);
  int64_t start =
      (offset >= 0 ? offset * strides[a2] : -static_cast<int64_t>(offset) * strides[a1]);
  int64_t step = strides[a1] + strides[a2];
  std::vector<int64_t> other_dims, other_strides;
  for (int i = 0; i < rank; ++i) {
    if (i != a1 && i != a2) {
      other_dims.push_back(dims[i]);
      other_strides.push_back(strides[i]);
    }
  }
  int64_t batches = 1;
  for (int64_t d : other_dims) batches *= d;
  std::vector<int64_t> offsets;
  offsets.reserve(batches * length);
  for (int64_t b = 0; b < batches; ++b) {
    int64_t base = start, rest = b;
    for (int i = static_cast<int>(other_dims.size()) - 1; i >= 0; --i) {
      base += (rest % other_dims[i]) * other_strides[i];
      rest /= other_dims[i];
    }
    for (int64_t k = 0; k < length; ++k) offsets.push_back(base + k * step);
  }
  return offsets;
}

}  // namespace

template <typename T, typename Context>
void DiagonalKernel(const Context& ctx, const DenseTensor& x, int32_t offset, int32_t axis1,
                    int32_t axis2, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  std::vector<int64_t> offsets = DiagonalOffsets(x.dims(), offset, axis1, axis2);
  for (size_t k = 0; k < offsets.size(); ++k) o[k] = in[offsets[k]];
}

template <typename T, typename Context>
void DiagonalGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_grad,
                        int32_t offset, int32_t axis1, int32_t axis2, DenseTensor* x_grad) {
  T* g = ctx.template Alloc<T>(x_grad);
  std::fill(g, g + x_grad->numel(), T(0));
  const T* in = out_grad.data<T>();
  std::vector<int64_t> offsets = DiagonalOffsets(x_grad->dims(), offset, axis1, axis2);
  for (size_t k = 0; k < offsets.size(); ++k) g[offsets[k]] = in[k];
}

template <typename T, typename Context>
void TraceKernel(const Context& ctx, const DenseTensor& x, int32_t offset, int32_t axis1,
                 int32_t axis2, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  std::vector<int64_t> offsets = DiagonalOffsets(x.dims(), offset, axis1, axis2);
  int64_t count = out->numel();
  int64_t length = count == 0 ? 0 : static_cast<int64_t>(offsets.size()) / count;
  funcs::AddFunctor<T> add;  // integers wrap on overflow, as Paddle's do
  for (int64_t b = 0; b < count; ++b) {
    T sum = T(0);
    for (int64_t k = 0; k < length; ++k) sum = add(sum, in[offsets[b * length + k]]);
    o[b] = sum;
  }
}

template <typename T, typename Context>
void DiagEmbedKernel(const Context& ctx, const DenseTensor& x, int32_t offset, int32_t dim1,
                     int32_t dim2, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  std::fill(o, o + out->numel(), T(0));
  const T* in = x.data<T>();
  std::vector<int64_t> offsets = DiagonalOffsets(out->dims(), offset, dim1, dim2);
  for (size_t k = 0; k < offsets.size(); ++k) o[offsets[k]] = in[k];
}

}  // namespace paddle
