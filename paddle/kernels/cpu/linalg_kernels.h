// CPU matmul and Paddle's legacy mul, each over funcs::Gemm.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/batch_offsets.h"
#include "paddle/kernels/funcs/blas.h"

// CPU matmul with NumPy semantics: a 1-D x is a row vector and a 1-D y a column vector (the
// added dim is absent from the result, as MatmulInferMeta sets it), and the batch dims (all but
// the last two) broadcast. Each batch is one funcs::Gemm; when y has no batch, a batched x that
// is not transposed is one tall gemm (the Linear layer on 3-D input).
namespace paddle {

namespace {

// One operand as a stack of stored matrices: `batch` the leading dims, rows x cols each.
struct MatrixStack {
  std::vector<int64_t> batch;
  int64_t rows = 1;
  int64_t cols = 1;
};

// A 1-D x is [1, K] and a 1-D y is [K, 1]; their transpose flag is ignored (as in Paddle).
MatrixStack StackOf(const DDim& dims, bool is_x) {
  MatrixStack s;
  int rank = dims.size();
  if (rank == 1) {
    s.rows = is_x ? 1 : dims[0];
    s.cols = is_x ? dims[0] : 1;
    return s;
  }
  s.batch.assign(dims.data(), dims.data() + rank - 2);
  s.rows = dims[rank - 2];
  s.cols = dims[rank - 1];
  return s;
}

}  // namespace

template <typename T, typename Context>
void MatmulKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, bool transpose_x,
                  bool transpose_y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  MatrixStack xs = StackOf(x.dims(), true);
  MatrixStack ys = StackOf(y.dims(), false);
  bool tx = transpose_x && x.dims().size() > 1;
  bool ty = transpose_y && y.dims().size() > 1;
  int64_t m = tx ? xs.cols : xs.rows;
  int64_t k = tx ? xs.rows : xs.cols;
  int64_t n = ty ? ys.rows : ys.cols;
  const T* a = x.data<T>();
  const T* b = y.data<T>();

  size_t batch_rank = std::max(xs.batch.size(), ys.batch.size());
  xs.batch.insert(xs.batch.begin(), batch_rank - xs.batch.size(), 1);
  ys.batch.insert(ys.batch.begin(), batch_rank - ys.batch.size(), 1);
  std::vector<int64_t> out_batch(batch_rank);
  for (size_t i = 0; i < batch_rank; ++i) {
    out_batch[i] = xs.batch[i] == 1 ? ys.batch[i] : xs.batch[i];  // InferMeta checked these
  }
  int64_t y_batches = 1;
  for (int64_t d : ys.batch) y_batches *= d;
  int64_t batches = out->numel() / (m * n);

  if (y_batches == 1 && !tx) {  // x's batches stacked are one [batches * m, k] matrix
    funcs::Gemm<T>(false, ty, batches * m, n, k, T(1), a, xs.cols, b, ys.cols, T(0), o, n);
    return;
  }
  std::vector<int64_t> x_offsets =
      funcs::BatchBroadcastOffsets(out_batch, xs.batch, xs.rows * xs.cols);
  std::vector<int64_t> y_offsets =
      funcs::BatchBroadcastOffsets(out_batch, ys.batch, ys.rows * ys.cols);
  // Batches run one after another and each gemm threads inside BLAS. Calling OpenBLAS from an
  // OpenMP parallel region instead (a batch per thread) measured about 10x slower for 256
  // batches of 32x32 on the 2-core build machine, against 1.5 ms for this loop.
  for (int64_t i = 0; i < batches; ++i) {
    funcs::Gemm<T>(tx, ty, m, n, k, T(1), a + x_offsets[i], xs.cols, b + y_offsets[i], ys.cols,
                   T(0), o + i * m * n, n);
  }
}

}  // namespace paddle

// CPU kernel of Paddle's legacy mul (MulInferMeta, paddle/ops/infermeta/linalg.cc): x is read as
// the row-major matrix [M, K] (M the product of its first x_num_col_dims dims), y as [K, N], and
// out = x y is one funcs::Gemm. Dense tensors are contiguous, so no data moves to flatten them.
namespace paddle {

namespace {

// The product of dims [begin, end).
int64_t DimProduct(const DDim& dims, int begin, int end) {
  int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= dims[i];
  return n;
}

}  // namespace

template <typename T, typename Context>
void MulKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
               int32_t x_num_col_dims, int32_t y_num_col_dims, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& xd = x.dims();
  const DDim& yd = y.dims();
  int64_t m = DimProduct(xd, 0, x_num_col_dims);
  int64_t k = DimProduct(xd, x_num_col_dims, xd.size());
  int64_t n = DimProduct(yd, y_num_col_dims, yd.size());
  if (k == 0) {  // an empty sum: zeros
    std::memset(o, 0, out->nbytes());
    return;
  }
  funcs::Gemm<T>(false, false, m, n, k, T(1), x.data<T>(), k, y.data<T>(), n, T(0), o, n);
}

// fc: one GEMM into out, then the bias row and the activation in one pass.
template <typename T, typename Context>
void FcKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& w,
              const DenseTensor* bias, int32_t in_num_col_dims, const std::string& activation_type,
              bool padding_weights, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const int64_t m = DimProduct(input.dims(), 0, in_num_col_dims);
  const int64_t k = DimProduct(input.dims(), in_num_col_dims, input.dims().size());
  const int64_t n = w.dims()[1];
  if (k == 0) {
    std::memset(o, 0, out->nbytes());
  } else {
    funcs::Gemm<T>(false, false, m, n, k, T(1), input.data<T>(), k, w.data<T>(), n, T(0), o, n);
  }
  const T* b = bias ? bias->data<T>() : nullptr;
  const bool relu = activation_type == "relu";
  if (!b && !relu) return;
  funcs::ParallelFor(
      m,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          T* row = o + i * n;
          for (int64_t j = 0; j < n; ++j) {
            T v = b ? row[j] + b[j] : row[j];
            row[j] = relu && v < T(0) ? T(0) : v;
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(n, 1) + 1);
}

}  // namespace paddle
