// CPU cross and kron.
#pragma once

#include <vector>

#include "paddle/common/ddim.h"
#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/blas.h"

namespace paddle {

// x and y as [outer, 3, inner] around the cross dim (9: the first of size 3):
// out_i = x_{i+1} y_{i+2} - x_{i+2} y_{i+1}, indices mod 3.
template <typename T, typename Context>
void CrossKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, int32_t axis,
                 DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const DDim& dims = x.dims();
  int a = 0;
  if (axis == 9) {
    while (a < dims.size() && dims[a] != 3) ++a;
    PD_CHECK(a < dims.size(),
             errors::InvalidArgument("cross: no dim of 'x' (shape ", dims.ToString(),
                                     ") has size 3, which the default axis needs"));
  } else {
    a = NormalizeAxis(axis, dims.size(), "cross");
  }
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < a; ++i) outer *= dims[i];
  for (int i = a + 1; i < dims.size(); ++i) inner *= dims[i];
  const T* xs = x.data<T>();
  const T* ys = y.data<T>();
  funcs::MultiplyFunctor<T> multiply;
  funcs::SubtractFunctor<T> subtract;
  for (int64_t b = 0; b < outer; ++b) {
    for (int64_t k = 0; k < inner; ++k) {
      auto at = [&](const T* t, int i) { return t[(b * 3 + i) * inner + k]; };
      for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, l = (i + 2) % 3;
        // Integers wrap on overflow, as Paddle's do (signed overflow is undefined in C++).
        o[(b * 3 + i) * inner + k] =
            subtract(multiply(at(xs, j), at(ys, l)), multiply(at(xs, l), at(ys, j)));
      }
    }
  }
}

namespace {

// The offset each element of a tensor (dims `dims`, ranks aligned right to `rank`) contributes
// to the Kronecker product's index: its index per dim times `scale` (the other operand's dim
// for x, 1 for y), in the product's strides.
std::vector<int64_t> KronOffsets(const DDim& dims, const std::vector<int64_t>& scale,
                                 const std::vector<int64_t>& out_strides) {
  int rank = static_cast<int>(out_strides.size());
  int pad = rank - dims.size();
  int64_t count = 1;
  for (int i = 0; i < dims.size(); ++i) count *= dims[i];
  std::vector<int64_t> offsets(count);
  for (int64_t e = 0; e < count; ++e) {
    int64_t rest = e, offset = 0;
    for (int d = dims.size() - 1; d >= 0; --d) {
      offset += (rest % dims[d]) * scale[d + pad] * out_strides[d + pad];
      rest /= dims[d];
    }
    offsets[e] = offset;
  }
  return offsets;
}

}  // namespace

// out[i * y.dims + j] = x[i] y[j] per dim.
template <typename T, typename Context>
void KronKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const DDim& od = out->dims();
  int rank = od.size();
  std::vector<int64_t> out_strides = ContiguousStrides(od);
  std::vector<int64_t> y_dims(rank, 1), ones(rank, 1);
  for (int i = 0; i < y.dims().size(); ++i) y_dims[rank - y.dims().size() + i] = y.dims()[i];
  std::vector<int64_t> x_offsets = KronOffsets(x.dims(), y_dims, out_strides);
  std::vector<int64_t> y_offsets = KronOffsets(y.dims(), ones, out_strides);
  const T* xs = x.data<T>();
  const T* ys = y.data<T>();
  for (size_t i = 0; i < x_offsets.size(); ++i) {
    for (size_t j = 0; j < y_offsets.size(); ++j) {
      o[x_offsets[i] + y_offsets[j]] = funcs::MultiplyFunctor<T>()(xs[i], ys[j]);  // ints wrap
    }
  }
}

// One funcs::Gemm per batch.
template <typename T, typename Context>
void BmmKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int64_t batches = x.dims()[0], m = x.dims()[1], k = x.dims()[2], n = y.dims()[2];
  for (int64_t b = 0; b < batches; ++b) {
    funcs::Gemm<T>(false, false, m, n, k, T(1), x.data<T>() + b * m * k, k, y.data<T>() + b * k * n,
                   n, T(0), o + b * m * n, n);
  }
}

}  // namespace paddle
