// CUDA matmul and Paddle's legacy mul over cuBLAS. Host-compiled: they only call cuBLAS.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"

// CUDA matmul over cuBLAS, with NumPy semantics as MatmulInferMeta
// (paddle/ops/infermeta/linalg.cc): a 1-D x is a row vector [1, k] and a 1-D y a column vector [k,
// 1] (their transpose flags are ignored, and the unit dim is dropped from the result); the batch
// dims broadcast. Host-compiled: it only calls cuBLAS.
//
// cuBLAS is column-major. A row-major [r, c] matrix is, read column-major, its transpose [c, r],
// so C = op(X) op(Y) (row-major) is computed as C^T = op(Y)^T op(X)^T: cuBLAS gets Y as its first
// operand and X as its second, with m = n, n = m.
//
// float/double use cublas{S,D}gemm; float16/bfloat16 use cublasGemmEx with CUBLAS_COMPUTE_32F
// (float accumulation). No TF32 for float (the handle keeps CUBLAS_DEFAULT_MATH), so results match
// the CPU's to float rounding. The 64-bit-size (_64) entry points are used throughout, so large
// shapes need no checks against INT_MAX.
namespace paddle {

namespace {

// One strided-batched GEMM in cuBLAS's column-major terms.
struct GemmArgs {
  cublasOperation_t trans_a, trans_b;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;
  int64_t batch;
};

template <typename T>
struct CudaDataType;
template <>
struct CudaDataType<float16> {
  static constexpr cudaDataType_t value = CUDA_R_16F;
};
template <>
struct CudaDataType<bfloat16> {
  static constexpr cudaDataType_t value = CUDA_R_16BF;
};

template <typename T>
void Gemm(const GPUContext& ctx, const GemmArgs& g, const T* a, const T* b, T* c) {
  cublasHandle_t handle = ctx.cublas_handle();
  int device = ctx.device();
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const T alpha = 1, beta = 0;
    if (g.batch == 1) {
      if constexpr (std::is_same_v<T, float>) {
        PD_CUBLAS_CHECK(cublasSgemm_64(handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a,
                                       g.lda, b, g.ldb, &beta, c, g.ldc),
                        device);
      } else {
        PD_CUBLAS_CHECK(cublasDgemm_64(handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a,
                                       g.lda, b, g.ldb, &beta, c, g.ldc),
                        device);
      }
    } else {
      if constexpr (std::is_same_v<T, float>) {
        PD_CUBLAS_CHECK(cublasSgemmStridedBatched_64(
                            handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a, g.lda,
                            g.stride_a, b, g.ldb, g.stride_b, &beta, c, g.ldc, g.stride_c, g.batch),
                        device);
      } else {
        PD_CUBLAS_CHECK(cublasDgemmStridedBatched_64(
                            handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a, g.lda,
                            g.stride_a, b, g.ldb, g.stride_b, &beta, c, g.ldc, g.stride_c, g.batch),
                        device);
      }
    }
  } else {
    const float alpha = 1, beta = 0;
    constexpr cudaDataType_t type = CudaDataType<T>::value;
    if (g.batch == 1) {
      PD_CUBLAS_CHECK(cublasGemmEx_64(handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a, type,
                                      g.lda, b, type, g.ldb, &beta, c, type, g.ldc,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                      device);
    } else {
      PD_CUBLAS_CHECK(cublasGemmStridedBatchedEx_64(
                          handle, g.trans_a, g.trans_b, g.m, g.n, g.k, &alpha, a, type, g.lda,
                          g.stride_a, b, type, g.ldb, g.stride_b, &beta, c, type, g.ldc, g.stride_c,
                          g.batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                      device);
    }
  }
}

}  // namespace

template <typename T, typename Context>
void MatmulKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, bool transpose_x,
                  bool transpose_y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& xd = x.dims();
  const DDim& yd = y.dims();
  // The matrix shapes as MatmulInferMeta reads them.
  bool tx = xd.size() > 1 && transpose_x;
  bool ty = yd.size() > 1 && transpose_y;
  int64_t m = 1, k, n = 1;
  if (xd.size() == 1) {
    k = xd[0];
  } else {
    m = tx ? xd[xd.size() - 1] : xd[xd.size() - 2];
    k = tx ? xd[xd.size() - 2] : xd[xd.size() - 1];
  }
  if (yd.size() > 1) n = ty ? yd[yd.size() - 2] : yd[yd.size() - 1];

  gpu::DeviceGuard guard(ctx.device());
  if (k == 0) {  // an empty sum: zeros
    PD_CUDA_CHECK(cudaMemsetAsync(o, 0, out->nbytes(), ctx.stream()), ctx.device());
    return;
  }

  DDim xb(xd.data(), std::max(0, xd.size() - 2));
  DDim yb(yd.data(), std::max(0, yd.size() - 2));
  DDim ob = funcs::BroadcastShape(xb, yb, "matmul");
  // The batch iteration space, coalesced: the innermost dim becomes one strided-batched call,
  // the outer ones (only for irregular broadcasts such as [2, 1] x [1, 3]) a host loop.
  funcs::BroadcastPlan plan = funcs::MakeBroadcastPlan(ob, {xb, yb});
  int rank = static_cast<int>(plan.dims.size());
  const int64_t x_matrix = m * k, y_matrix = k * n, out_matrix = m * n;

  GemmArgs g;
  g.trans_a = ty ? CUBLAS_OP_T : CUBLAS_OP_N;
  g.trans_b = tx ? CUBLAS_OP_T : CUBLAS_OP_N;
  g.m = n;
  g.n = m;
  g.k = k;
  g.lda = ty ? k : n;
  g.ldb = tx ? m : k;
  g.ldc = n;
  g.batch = plan.dims[rank - 1];
  g.stride_a = plan.strides[1][rank - 1] * y_matrix;
  g.stride_b = plan.strides[0][rank - 1] * x_matrix;
  g.stride_c = out_matrix;

  const T* xp = x.data<T>();
  const T* yp = y.data<T>();
  if (rank == 1 && g.stride_a == 0 && g.stride_b == x_matrix && !tx) {
    // One y for a batch of contiguous, untransposed x: a single GEMM with batch * m rows.
    g.n = g.batch * m;
    g.batch = 1;
    Gemm<T>(ctx, g, yp, xp, o);
    return;
  }
  int64_t outer = 1;
  for (int d = 0; d < rank - 1; ++d) outer *= plan.dims[d];
  for (int64_t r = 0; r < outer; ++r) {
    int64_t rest = r, x_off = 0, y_off = 0;
    for (int d = rank - 2; d >= 0; --d) {
      int64_t index = rest % plan.dims[d];
      rest /= plan.dims[d];
      x_off += index * plan.strides[0][d];
      y_off += index * plan.strides[1][d];
    }
    Gemm<T>(ctx, g, yp + y_off * y_matrix, xp + x_off * x_matrix, o + r * g.batch * out_matrix);
  }
}

}  // namespace paddle

// CUDA kernel of Paddle's legacy mul (MulInferMeta, paddle/ops/infermeta/linalg.cc) over cuBLAS,
// as the matmul kernel (above): x is the row-major matrix [M, K] (M the product of its
// first x_num_col_dims dims), y is [K, N], and out = x y is one GEMM. Host-compiled: it only calls
// cuBLAS.
//
// cuBLAS is column-major, and a row-major [r, c] matrix read column-major is its transpose, so
// out^T = y^T x^T is computed: cuBLAS gets y as its first operand and x as its second, with
// m = N, n = M. float/double use cublas{S,D}gemm; float16/bfloat16 use cublasGemmEx with float
// accumulation. The 64-bit-size (_64) entry points need no checks against INT_MAX.
namespace paddle {

namespace {

int64_t DimProduct(const DDim& dims, int begin, int end) {
  int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= dims[i];
  return n;
}

template <typename T>
cudaDataType_t CudaDataTypeOf() {
  return std::is_same_v<T, float16> ? CUDA_R_16F : CUDA_R_16BF;
}

}  // namespace

template <typename T, typename Context>
void MulKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
               int32_t x_num_col_dims, int32_t y_num_col_dims, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& xd = x.dims();
  const DDim& yd = y.dims();
  const int64_t m = DimProduct(xd, 0, x_num_col_dims);
  const int64_t k = DimProduct(xd, x_num_col_dims, xd.size());
  const int64_t n = DimProduct(yd, y_num_col_dims, yd.size());

  int device = ctx.device();
  gpu::DeviceGuard guard(device);
  if (k == 0) {  // an empty sum: zeros
    PD_CUDA_CHECK(cudaMemsetAsync(o, 0, out->nbytes(), ctx.stream()), device);
    return;
  }
  cublasHandle_t handle = ctx.cublas_handle();
  const T* xp = x.data<T>();
  const T* yp = y.data<T>();
  if constexpr (std::is_same_v<T, float>) {
    const float alpha = 1, beta = 0;
    PD_CUBLAS_CHECK(cublasSgemm_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, yp, n, xp, k,
                                   &beta, o, n),
                    device);
  } else if constexpr (std::is_same_v<T, double>) {
    const double alpha = 1, beta = 0;
    PD_CUBLAS_CHECK(cublasDgemm_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, yp, n, xp, k,
                                   &beta, o, n),
                    device);
  } else {
    const float alpha = 1, beta = 0;
    const cudaDataType_t type = CudaDataTypeOf<T>();
    PD_CUBLAS_CHECK(
        cublasGemmEx_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, yp, type, n, xp, type, k,
                        &beta, o, type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        device);
  }
}

}  // namespace paddle
