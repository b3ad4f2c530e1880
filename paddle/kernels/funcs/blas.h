// Row-major GEMM for CPU kernels: C = alpha * op(A) * op(B) + beta * C, where op(A) is M x K and
// op(B) is K x N; lda/ldb/ldc are the row strides of A, B and C as stored (before the transpose).
// float and double go to OpenBLAS (which threads on the process's OpenMP pool, and stays on one
// thread when called from inside a parallel region), and so do complex64/complex128 (cgemm,
// zgemm); float16/bfloat16 are computed in float; the integer types use a cache-friendly loop
// here.
#pragma once

#include <cstdint>
#include <type_traits>

#include "paddle/common/complex.h"
#include "paddle/common/float16.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

template <typename T>
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc);

template <>
void Gemm<float>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                 int64_t ldc);
template <>
void Gemm<double>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                  const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                  double* c, int64_t ldc);
template <>
void Gemm<float16>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float16 alpha,
                   const float16* a, int64_t lda, const float16* b, int64_t ldb, float16 beta,
                   float16* c, int64_t ldc);
template <>
void Gemm<bfloat16>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, bfloat16 alpha,
                    const bfloat16* a, int64_t lda, const bfloat16* b, int64_t ldb, bfloat16 beta,
                    bfloat16* c, int64_t ldc);
template <>
void Gemm<complex64>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, complex64 alpha,
                     const complex64* a, int64_t lda, const complex64* b, int64_t ldb,
                     complex64 beta, complex64* c, int64_t ldc);
template <>
void Gemm<complex128>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, complex128 alpha,
                      const complex128* a, int64_t lda, const complex128* b, int64_t ldb,
                      complex128 beta, complex128* c, int64_t ldc);

// The loop GEMM for types BLAS does not cover (integers): rows of C in parallel, i-p-j order
// when B's rows are contiguous, dot products when B is transposed.
template <typename T>
void Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  static_assert(std::is_arithmetic_v<T>, "the loop Gemm is for built-in arithmetic types");
  auto at = [&](int64_t i, int64_t p) { return trans_a ? a[p * lda + i] : a[i * lda + p]; };
  AddFunctor<T> add;  // integers wrap on overflow (Note [Integer overflow])
  MultiplyFunctor<T> multiply;
  int64_t work_per_row = n * k > 0 ? n * k : 1;
  ParallelFor(
      m,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          T* row = c + i * ldc;
          for (int64_t j = 0; j < n; ++j) row[j] = beta == T(0) ? T(0) : multiply(beta, row[j]);
          if (trans_b) {
            for (int64_t j = 0; j < n; ++j) {
              const T* col = b + j * ldb;
              T dot = 0;
              for (int64_t p = 0; p < k; ++p) dot = add(dot, multiply(at(i, p), col[p]));
              row[j] = add(row[j], multiply(alpha, dot));
            }
          } else {
            for (int64_t p = 0; p < k; ++p) {
              T scale = multiply(alpha, at(i, p));
              const T* brow = b + p * ldb;
              for (int64_t j = 0; j < n; ++j) row[j] = add(row[j], multiply(scale, brow[j]));
            }
          }
        }
      },
      kParallelThreshold / work_per_row + 1);
}

}  // namespace paddle::funcs
