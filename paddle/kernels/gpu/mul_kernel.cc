// CUDA kernel of Paddle's legacy mul (MulInferMeta, paddle/ops/infermeta/linalg.cc) over cuBLAS,
// as the matmul kernel (matmul_kernel.cc): x is the row-major matrix [M, K] (M the product of its
// first x_num_col_dims dims), y is [K, N], and out = x y is one GEMM. Host-compiled: it only calls
// cuBLAS.
//
// cuBLAS is column-major, and a row-major [r, c] matrix read column-major is its transpose, so
// out^T = y^T x^T is computed: cuBLAS gets y as its first operand and x as its second, with
// m = N, n = M. float/double use cublas{S,D}gemm; float16/bfloat16 use cublasGemmEx with float
// accumulation. The 64-bit-size (_64) entry points need no checks against INT_MAX.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <type_traits>

#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"
#include "paddle/kernels/kernel_registry.h"

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

PD_REGISTER_KERNEL(mul, GPU, paddle::MulKernel, float, double, ::paddle::float16,
                   ::paddle::bfloat16);
