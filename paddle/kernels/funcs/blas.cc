#include "paddle/kernels/funcs/blas.h"

#include <cblas.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/bf16_gemm_onednn.h"

namespace paddle::funcs {

namespace {

// OpenBLAS takes 32-bit sizes.
blasint CheckedBlasInt(int64_t v, const char* what) {
  PD_CHECK(v >= 0 && v <= std::numeric_limits<blasint>::max(),
           errors::InvalidArgument("gemm: ", what, " = ", v, " exceeds the BLAS index range"));
  return static_cast<blasint>(v);
}

// Leading dimensions must be at least 1 even for empty operands.
blasint LeadingDim(int64_t ld, int64_t cols, const char* what) {
  return CheckedBlasInt(std::max<int64_t>({ld, cols, 1}), what);
}

// C = beta * C for the degenerate K == 0 product, which some BLAS builds skip.
template <typename T>
void ScaleC(int64_t m, int64_t n, T beta, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == T(0) ? T(0) : beta * c[i * ldc + j];
  }
}

template <typename T, typename BlasFn>
void BlasGemm(BlasFn fn, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha,
              const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  fn(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
     CheckedBlasInt(m, "M"), CheckedBlasInt(n, "N"), CheckedBlasInt(k, "K"), alpha, a,
     LeadingDim(lda, trans_a ? m : k, "lda"), b, LeadingDim(ldb, trans_b ? k : n, "ldb"), beta, c,
     LeadingDim(ldc, n, "ldc"));
}

// cgemm/zgemm take alpha and beta by address.
template <typename T, typename BlasFn>
void ComplexBlasGemm(BlasFn fn, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                     T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                     int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  fn(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
     CheckedBlasInt(m, "M"), CheckedBlasInt(n, "N"), CheckedBlasInt(k, "K"), &alpha, a,
     LeadingDim(lda, trans_a ? m : k, "lda"), b, LeadingDim(ldb, trans_b ? k : n, "ldb"), &beta, c,
     LeadingDim(ldc, n, "ldc"));
}

// Copies a rows x cols matrix with row stride `ld` into a dense float buffer.
template <typename T>
std::vector<float> ToFloat(const T* src, int64_t rows, int64_t cols, int64_t ld) {
  std::vector<float> dst(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = static_cast<float>(src[i * ld + j]);
  }
  return dst;
}

template <typename T>
void HalfGemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a,
              int64_t lda, const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  std::vector<float> fa = ToFloat(a, trans_a ? k : m, trans_a ? m : k, lda);
  std::vector<float> fb = ToFloat(b, trans_b ? n : k, trans_b ? k : n, ldb);
  float fbeta = static_cast<float>(beta);
  std::vector<float> fc =
      fbeta == 0.0f ? std::vector<float>(static_cast<size_t>(m * n)) : ToFloat(c, m, n, ldc);
  Gemm<float>(trans_a, trans_b, m, n, k, static_cast<float>(alpha), fa.data(), trans_a ? m : k,
              fb.data(), trans_b ? k : n, fbeta, fc.data(), n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = static_cast<T>(fc[i * n + j]);
  }
}

}  // namespace

template <>
void Gemm<float>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                 int64_t ldc) {
  BlasGemm(cblas_sgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<double>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                  const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                  double* c, int64_t ldc) {
  BlasGemm(cblas_dgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<float16>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float16 alpha,
                   const float16* a, int64_t lda, const float16* b, int64_t ldb, float16 beta,
                   float16* c, int64_t ldc) {
  HalfGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<bfloat16>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, bfloat16 alpha,
                    const bfloat16* a, int64_t lda, const bfloat16* b, int64_t ldb, bfloat16 beta,
                    bfloat16* c, int64_t ldc) {
  // The plain product (matmul and its gradients) runs on oneDNN's bf16 matmul where the CPU
  // has native bf16 dot products; scaled or accumulating products, and other CPUs, convert to
  // float32 and run sgemm (the same float32 accumulation).
  bool plain = static_cast<float>(alpha) == 1.0f && static_cast<float>(beta) == 0.0f;
  if (plain && m > 0 && n > 0 && k > 0 && Bf16GemmOnOnednn()) {
    OnednnBf16Gemm(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
    return;
  }
  HalfGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<complex64>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, complex64 alpha,
                     const complex64* a, int64_t lda, const complex64* b, int64_t ldb,
                     complex64 beta, complex64* c, int64_t ldc) {
  ComplexBlasGemm(cblas_cgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<complex128>(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, complex128 alpha,
                      const complex128* a, int64_t lda, const complex128* b, int64_t ldb,
                      complex128 beta, complex128* c, int64_t ldc) {
  ComplexBlasGemm(cblas_zgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace paddle::funcs
