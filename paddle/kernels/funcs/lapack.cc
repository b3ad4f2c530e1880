#include "paddle/kernels/funcs/lapack.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "paddle/common/errors.h"

// LAPACK's Fortran interface (as OpenBLAS exports it): arguments by pointer, 32-bit integers,
// column-major matrices, and a trailing hidden length for each character argument. A row-major
// matrix is its transpose read column-major, which each routine below accounts for.
extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork,
             int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work,
             const int* lwork, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda,
             const int* ipiv, float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info, size_t trans_len);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w,
             float* work, const int* lwork, int* iwork, const int* liwork, int* info,
             size_t jobz_len, size_t uplo_len);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info,
             size_t jobz_len, size_t uplo_len);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s,
             float* u, const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork,
             int* iwork, int* info, size_t jobz_len);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
             double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
             int* iwork, int* info, size_t jobz_len);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work,
             const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void sgeev_(const char* jobvl, const char* jobvr, const int* n, float* a, const int* lda, float* wr,
            float* wi, float* vl, const int* ldvl, float* vr, const int* ldvr, float* work,
            const int* lwork, int* info, size_t jobvl_len, size_t jobvr_len);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda,
            double* wr, double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr,
            double* work, const int* lwork, int* info, size_t jobvl_len, size_t jobvr_len);
void cgeev_(const char* jobvl, const char* jobvr, const int* n, paddle::complex64* a,
            const int* lda, paddle::complex64* w, paddle::complex64* vl, const int* ldvl,
            paddle::complex64* vr, const int* ldvr, paddle::complex64* work, const int* lwork,
            float* rwork, int* info, size_t jobvl_len, size_t jobvr_len);
void zgeev_(const char* jobvl, const char* jobvr, const int* n, paddle::complex128* a,
            const int* lda, paddle::complex128* w, paddle::complex128* vl, const int* ldvl,
            paddle::complex128* vr, const int* ldvr, paddle::complex128* work, const int* lwork,
            double* rwork, int* info, size_t jobvl_len, size_t jobvr_len);
void cgesv_(const int* n, const int* nrhs, paddle::complex64* a, const int* lda, int* ipiv,
            paddle::complex64* b, const int* ldb, int* info);
void zgesv_(const int* n, const int* nrhs, paddle::complex128* a, const int* lda, int* ipiv,
            paddle::complex128* b, const int* ldb, int* info);
}

namespace paddle::funcs {

namespace {

// The LAPACK and trsm entry points of one precision.
template <typename T>
struct Lapack;

template <>
struct Lapack<float> {
  static constexpr auto getrf = sgetrf_;
  static constexpr auto getri = sgetri_;
  static constexpr auto getrs = sgetrs_;
  static constexpr auto potrf = spotrf_;
  static constexpr auto syevd = ssyevd_;
  static constexpr auto gesdd = sgesdd_;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto orgqr = sorgqr_;
  static constexpr auto geev = sgeev_;
  static void trsm(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, int k,
                   const float* a, float* b) {
    cblas_strsm(CblasRowMajor, CblasLeft, uplo, trans, diag, n, k, 1.0f, a, n, b, k);
  }
};

template <>
struct Lapack<double> {
  static constexpr auto getrf = dgetrf_;
  static constexpr auto getri = dgetri_;
  static constexpr auto getrs = dgetrs_;
  static constexpr auto potrf = dpotrf_;
  static constexpr auto syevd = dsyevd_;
  static constexpr auto gesdd = dgesdd_;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto orgqr = dorgqr_;
  static constexpr auto geev = dgeev_;
  static void trsm(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, int k,
                   const double* a, double* b) {
    cblas_dtrsm(CblasRowMajor, CblasLeft, uplo, trans, diag, n, k, 1.0, a, n, b, k);
  }
};

// The complex LAPACK entry points of one precision.
template <>
struct Lapack<complex64> {
  static constexpr auto geev = cgeev_;
  static constexpr auto gesv = cgesv_;
};

template <>
struct Lapack<complex128> {
  static constexpr auto geev = zgeev_;
  static constexpr auto gesv = zgesv_;
};

// LAPACK takes 32-bit sizes.
int LapackInt(int64_t v) {
  PD_CHECK(v <= std::numeric_limits<int>::max(),
           errors::InvalidArgument("matrix dimension ", v, " exceeds LAPACK's 32-bit range"));
  return static_cast<int>(v);
}

// The workspace size a LAPACK query (lwork = -1) wrote into its first work element.
template <typename T>
int QueriedSize(T size) {
  return std::max(1, static_cast<int>(size));
}

// b (cols x rows, column-major) = a (rows x cols, row-major): the same element order as a
// row-major transpose.
template <typename T>
void Transpose(int64_t rows, int64_t cols, const T* a, T* b) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
  }
}

// LU-factorizes a copy of the n x n a (read column-major: a's transpose, which has a's
// determinant). Returns LAPACK's info: > 0 when a pivot is exactly zero.
template <typename T>
int LuFactor(int64_t n, const T* a, std::vector<T>* lu, std::vector<int>* pivots) {
  int nn = LapackInt(n), lda = std::max(nn, 1), info = 0;
  lu->assign(a, a + n * n);
  pivots->resize(std::max<int64_t>(n, 1));
  if (n > 0) Lapack<T>::getrf(&nn, &nn, lu->data(), &lda, pivots->data(), &info);
  return info;
}

}  // namespace

template <typename T>
bool InvertMatrix(int64_t n, const T* a, T* out) {
  if (n == 0) return true;
  std::vector<T> lu;
  std::vector<int> pivots;
  if (LuFactor(n, a, &lu, &pivots) != 0) return false;
  // The inverse of a's transpose, read column-major, is a's inverse read row-major.
  int nn = LapackInt(n), info = 0, query = -1;
  T size{};
  Lapack<T>::getri(&nn, lu.data(), &nn, pivots.data(), &size, &query, &info);
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Lapack<T>::getri(&nn, lu.data(), &nn, pivots.data(), work.data(), &lwork, &info);
  if (info != 0) return false;
  std::copy(lu.begin(), lu.end(), out);
  return true;
}

template <typename T>
T Determinant(int64_t n, const T* a) {
  std::vector<T> lu;
  std::vector<int> pivots;
  if (LuFactor(n, a, &lu, &pivots) != 0) return T(0);
  T det = 1;
  for (int64_t i = 0; i < n; ++i) {
    det *= lu[i * n + i];
    if (pivots[i] != i + 1) det = -det;  // each row interchange flips the sign
  }
  return det;
}

template <typename T>
void SignLogAbsDeterminant(int64_t n, const T* a, T* sign, T* log_abs_det) {
  std::vector<T> lu;
  std::vector<int> pivots;
  if (LuFactor(n, a, &lu, &pivots) != 0) {
    *sign = 0;
    *log_abs_det = -std::numeric_limits<T>::infinity();
    return;
  }
  T s = 1, log_abs = 0;
  for (int64_t i = 0; i < n; ++i) {
    T pivot = lu[i * n + i];
    if (pivot < 0) s = -s;
    if (pivots[i] != i + 1) s = -s;
    log_abs += std::log(std::abs(pivot));
  }
  *sign = s;
  *log_abs_det = log_abs;
}

template <typename T>
bool CholeskyFactor(int64_t n, const T* a, bool upper, T* out) {
  if (n == 0) return true;
  // a's lower triangle is the upper one of the column-major read, whose factor U (A' = U^T U)
  // read back row-major is the lower L; likewise the other way round.
  std::copy(a, a + n * n, out);
  int nn = LapackInt(n), info = 0;
  char uplo = upper ? 'L' : 'U';
  Lapack<T>::potrf(&uplo, &nn, out, &nn, &info, 1);
  if (info != 0) return false;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (upper ? j < i : j > i) out[i * n + j] = 0;
    }
  }
  return true;
}

template <typename T>
bool SolveLinear(int64_t n, int64_t k, const T* a, const T* b, T* out) {
  if (n == 0 || k == 0) return true;
  std::vector<T> lu;
  std::vector<int> pivots;
  if (LuFactor(n, a, &lu, &pivots) != 0) return false;
  // lu factors a^T, so solving with its transpose ('T') solves a x = b; b goes column-major.
  std::vector<T> x(n * k);
  Transpose(n, k, b, x.data());
  int nn = LapackInt(n), nrhs = LapackInt(k), info = 0;
  char trans = 'T';
  Lapack<T>::getrs(&trans, &nn, &nrhs, lu.data(), &nn, pivots.data(), x.data(), &nn, &info, 1);
  if (info != 0) return false;
  Transpose(k, n, x.data(), out);
  return true;
}

template <typename T>
void SolveTriangular(int64_t n, int64_t k, const T* a, const T* b, bool upper, bool transpose,
                     bool unit_diagonal, T* out) {
  std::copy(b, b + n * k, out);
  if (n == 0 || k == 0) return;
  Lapack<T>::trsm(upper ? CblasUpper : CblasLower, transpose ? CblasTrans : CblasNoTrans,
                  unit_diagonal ? CblasUnit : CblasNonUnit, LapackInt(n), LapackInt(k), a, out);
}

template <typename T>
void CholeskySolve(int64_t n, int64_t k, const T* factor, const T* b, bool upper, T* out) {
  std::copy(b, b + n * k, out);
  if (n == 0 || k == 0) return;
  int nn = LapackInt(n), kk = LapackInt(k);
  CBLAS_UPLO uplo = upper ? CblasUpper : CblasLower;
  // L L^T x = b: L y = b, then L^T x = y; U^T U x = b: U^T y = b, then U x = y.
  Lapack<T>::trsm(uplo, upper ? CblasTrans : CblasNoTrans, CblasNonUnit, nn, kk, factor, out);
  Lapack<T>::trsm(uplo, upper ? CblasNoTrans : CblasTrans, CblasNonUnit, nn, kk, factor, out);
}

template <typename T>
bool SymmetricEigen(int64_t n, const T* a, bool lower, T* values, T* vectors) {
  if (n == 0) return true;
  // LAPACK runs on a itself (column-major), as NumPy and Paddle call it, so the eigenvectors'
  // signs are theirs.
  std::vector<T> work_a(n * n);
  Transpose(n, n, a, work_a.data());
  int nn = LapackInt(n), info = 0, query = -1, iquery = 0;
  char jobz = vectors ? 'V' : 'N';
  char uplo = lower ? 'L' : 'U';
  T size{};
  Lapack<T>::syevd(&jobz, &uplo, &nn, work_a.data(), &nn, values, &size, &query, &iquery, &query,
                   &info, 1, 1);
  int lwork = QueriedSize(size), liwork = std::max(1, iquery);
  std::vector<T> work(lwork);
  std::vector<int> iwork(liwork);
  Lapack<T>::syevd(&jobz, &uplo, &nn, work_a.data(), &nn, values, work.data(), &lwork, iwork.data(),
                   &liwork, &info, 1, 1);
  if (info != 0) return false;
  // LAPACK's eigenvectors are its columns, contiguous: rows of the row-major buffer.
  if (vectors) Transpose(n, n, work_a.data(), vectors);
  return true;
}

template <typename T>
bool SingularValueDecomposition(int64_t m, int64_t n, const T* a, bool full_matrices, T* u, T* s,
                                T* vh) {
  int64_t k = std::min(m, n);
  if (k == 0) {  // an empty a: u and vh are identities when full, empty otherwise
    if (full_matrices) {
      for (int64_t i = 0; i < m * m; ++i) u[i] = i % (m + 1) == 0 ? T(1) : T(0);
      for (int64_t i = 0; i < n * n; ++i) vh[i] = i % (n + 1) == 0 ? T(1) : T(0);
    }
    return true;
  }
  // LAPACK runs on a itself (column-major), as NumPy and Paddle call it, so the singular
  // vectors' signs are theirs.
  int64_t u_cols = full_matrices ? m : k, vh_rows = full_matrices ? n : k;
  std::vector<T> work_a(m * n), u_cm(m * u_cols), vh_cm(vh_rows * n);
  Transpose(m, n, a, work_a.data());
  int mm = LapackInt(m), nn = LapackInt(n), ldvt = LapackInt(vh_rows), info = 0, query = -1;
  char jobz = full_matrices ? 'A' : 'S';
  std::vector<int> iwork(8 * k);
  T size{};
  Lapack<T>::gesdd(&jobz, &mm, &nn, work_a.data(), &mm, s, u_cm.data(), &mm, vh_cm.data(), &ldvt,
                   &size, &query, iwork.data(), &info, 1);
  int lwork = QueriedSize(size);
  std::vector<T> work(lwork);
  Lapack<T>::gesdd(&jobz, &mm, &nn, work_a.data(), &mm, s, u_cm.data(), &mm, vh_cm.data(), &ldvt,
                   work.data(), &lwork, iwork.data(), &info, 1);
  if (info != 0) return false;
  Transpose(u_cols, m, u_cm.data(), u);
  Transpose(n, vh_rows, vh_cm.data(), vh);
  return true;
}

template <typename T>
void QrDecomposition(int64_t m, int64_t n, const T* a, bool complete, T* q, T* r) {
  int64_t k = std::min(m, n);
  int64_t r_rows = complete ? m : k;
  int64_t q_cols = complete ? m : k;
  std::vector<T> factored(m * n);
  Transpose(m, n, a, factored.data());
  std::vector<T> tau(std::max<int64_t>(k, 1));
  int mm = LapackInt(m), nn = LapackInt(n), kk = LapackInt(k), lda = std::max(mm, 1);
  int info = 0, query = -1;
  if (k > 0) {
    T size{};
    Lapack<T>::geqrf(&mm, &nn, factored.data(), &lda, tau.data(), &size, &query, &info);
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Lapack<T>::geqrf(&mm, &nn, factored.data(), &lda, tau.data(), work.data(), &lwork, &info);
  }
  for (int64_t i = 0; i < r_rows; ++i) {
    for (int64_t j = 0; j < n; ++j) r[i * n + j] = j >= i ? factored[j * m + i] : T(0);
  }
  if (!q) return;
  if (k == 0) {  // no reflectors: the complete Q of an m x 0 matrix is the identity
    for (int64_t i = 0; i < m * q_cols; ++i) q[i] = i % (q_cols + 1) == 0 ? T(1) : T(0);
    return;
  }
  // orgqr forms q's columns from the reflectors stored below r's diagonal.
  std::vector<T> q_cm(m * q_cols, T(0));
  std::copy(factored.begin(), factored.begin() + m * std::min(n, q_cols), q_cm.begin());
  if (q_cols > 0 && m > 0) {
    int qc = LapackInt(q_cols);
    T size{};
    Lapack<T>::orgqr(&mm, &qc, &kk, q_cm.data(), &lda, tau.data(), &size, &query, &info);
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Lapack<T>::orgqr(&mm, &qc, &kk, q_cm.data(), &lda, tau.data(), work.data(), &lwork, &info);
  }
  Transpose(q_cols, m, q_cm.data(), q);
}

template <typename T>
int LuFactorization(int64_t m, int64_t n, const T* a, T* lu, int* pivots) {
  if (m == 0 || n == 0) return 0;
  // Factor a itself (not its column-major read, a^T): transpose in, factor, transpose out.
  std::vector<T> factored(m * n);
  Transpose(m, n, a, factored.data());
  int mm = LapackInt(m), nn = LapackInt(n), info = 0;
  Lapack<T>::getrf(&mm, &nn, factored.data(), &mm, pivots, &info);
  Transpose(n, m, factored.data(), lu);
  return info;
}

template <typename T>
bool GeneralEigen(int64_t n, const T* a, EigenComplex<T>* values, EigenComplex<T>* vectors) {
  if (n == 0) return true;
  using C = EigenComplex<T>;
  // geev reads column-major: transpose a in (unlike the symmetric case, a^T has other vectors).
  std::vector<T> work_a(n * n), right(vectors ? n * n : 1);
  Transpose(n, n, a, work_a.data());
  int nn = LapackInt(n), ldvr = vectors ? nn : 1, one = 1, info = 0, query = -1;
  char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
  T size{}, unused_left{};
  if constexpr (kIsComplex<T>) {
    std::vector<RealType<T>> rwork(2 * n);
    Lapack<T>::geev(&jobvl, &jobvr, &nn, work_a.data(), &nn, values, &unused_left, &one,
                    right.data(), &ldvr, &size, &query, rwork.data(), &info, 1, 1);
    int lwork = QueriedSize(size.real());
    std::vector<T> work(lwork);
    Lapack<T>::geev(&jobvl, &jobvr, &nn, work_a.data(), &nn, values, &unused_left, &one,
                    right.data(), &ldvr, work.data(), &lwork, rwork.data(), &info, 1, 1);
    if (info != 0) return false;
    if (vectors) Transpose(n, n, right.data(), vectors);
  } else {
    std::vector<T> real_part(n), imag_part(n);
    Lapack<T>::geev(&jobvl, &jobvr, &nn, work_a.data(), &nn, real_part.data(), imag_part.data(),
                    &unused_left, &one, right.data(), &ldvr, &size, &query, &info, 1, 1);
    int lwork = QueriedSize(size);
    std::vector<T> work(lwork);
    Lapack<T>::geev(&jobvl, &jobvr, &nn, work_a.data(), &nn, real_part.data(), imag_part.data(),
                    &unused_left, &one, right.data(), &ldvr, work.data(), &lwork, &info, 1, 1);
    if (info != 0) return false;
    for (int64_t j = 0; j < n; ++j) values[j] = C(real_part[j], imag_part[j]);
    if (!vectors) return true;
    // A complex pair (imag_part[j] > 0) stores its vector's real part in column j and its
    // imaginary part in column j + 1; the pair's second vector is the first's conjugate.
    for (int64_t j = 0; j < n; ++j) {
      const T* column = right.data() + j * n;
      if (imag_part[j] > 0 && j + 1 < n) {
        const T* imag_column = column + n;
        for (int64_t i = 0; i < n; ++i) {
          vectors[i * n + j] = C(column[i], imag_column[i]);
          vectors[i * n + j + 1] = C(column[i], -imag_column[i]);
        }
        ++j;
      } else {
        for (int64_t i = 0; i < n; ++i) vectors[i * n + j] = C(column[i], 0);
      }
    }
  }
  return true;
}

template <typename C>
bool SolveAdjoint(int64_t n, const C* v, C* b) {
  if (n == 0) return true;
  // Column-major copies: v^H's (i, j) is conj(v(j, i)), which is conj(v) read column-major.
  std::vector<C> adjoint(n * n), rhs(n * n);
  for (int64_t k = 0; k < n * n; ++k) adjoint[k] = std::conj(v[k]);
  Transpose(n, n, b, rhs.data());
  std::vector<int> pivots(n);
  int nn = LapackInt(n), info = 0;
  Lapack<C>::gesv(&nn, &nn, adjoint.data(), &nn, pivots.data(), rhs.data(), &nn, &info);
  if (info != 0) return false;
  Transpose(n, n, rhs.data(), b);
  return true;
}

template bool GeneralEigen<float>(int64_t, const float*, complex64*, complex64*);
template bool GeneralEigen<double>(int64_t, const double*, complex128*, complex128*);
template bool GeneralEigen<complex64>(int64_t, const complex64*, complex64*, complex64*);
template bool GeneralEigen<complex128>(int64_t, const complex128*, complex128*, complex128*);
template bool SolveAdjoint<complex64>(int64_t, const complex64*, complex64*);
template bool SolveAdjoint<complex128>(int64_t, const complex128*, complex128*);

#define PD_INSTANTIATE_LAPACK(T)                                                                \
  template bool InvertMatrix<T>(int64_t, const T*, T*);                                         \
  template T Determinant<T>(int64_t, const T*);                                                 \
  template void SignLogAbsDeterminant<T>(int64_t, const T*, T*, T*);                            \
  template bool CholeskyFactor<T>(int64_t, const T*, bool, T*);                                 \
  template bool SolveLinear<T>(int64_t, int64_t, const T*, const T*, T*);                       \
  template void SolveTriangular<T>(int64_t, int64_t, const T*, const T*, bool, bool, bool, T*); \
  template void CholeskySolve<T>(int64_t, int64_t, const T*, const T*, bool, T*);               \
  template bool SymmetricEigen<T>(int64_t, const T*, bool, T*, T*);                             \
  template bool SingularValueDecomposition<T>(int64_t, int64_t, const T*, bool, T*, T*, T*);    \
  template void QrDecomposition<T>(int64_t, int64_t, const T*, bool, T*, T*);                   \
  template int LuFactorization<T>(int64_t, int64_t, const T*, T*, int*);

PD_INSTANTIATE_LAPACK(float)
PD_INSTANTIATE_LAPACK(double)
#undef PD_INSTANTIATE_LAPACK

}  // namespace paddle::funcs
