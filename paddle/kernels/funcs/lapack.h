// Dense linear algebra on one row-major matrix at a time, for the CPU kernels of the lapack op
// family (paddle/kernels/cpu/lapack_kernels.h). float and double go to the LAPACK routines
// OpenBLAS ships (called through their Fortran symbols, so no LAPACKE is needed) and to CBLAS's
// row-major trsm. Each routine reports a failure of the factorization (a singular matrix, a
// matrix that is not positive definite, no convergence) through its return value; the kernels
// turn it into a typed error that names the op and the matrix.
#pragma once

#include <cstdint>
#include <string>

#include "paddle/common/complex.h"

namespace paddle::funcs {

// out = a^{-1} for an n x n a; false when a is singular.
template <typename T>
bool InvertMatrix(int64_t n, const T* a, T* out);

// The determinant as the signed product of the LU pivots (0 for a singular a).
template <typename T>
T Determinant(int64_t n, const T* a);

// det(a) = sign * exp(log_abs_det); sign 0 and log_abs_det -inf for a singular a.
template <typename T>
void SignLogAbsDeterminant(int64_t n, const T* a, T* sign, T* log_abs_det);

// out = L (lower) or U (upper) with a = L L^T = U^T U, reading a's lower triangle (upper when
// `upper`); the other triangle of out is zero. false when a is not positive definite.
template <typename T>
bool CholeskyFactor(int64_t n, const T* a, bool upper, T* out);

// out = a^{-1} b for an n x n a and an n x k b; false when a is singular.
template <typename T>
bool SolveLinear(int64_t n, int64_t k, const T* a, const T* b, T* out);

// out = op(a)^{-1} b for a triangular n x n a (op the transpose when `transpose`), an n x k b;
// `unit_diagonal` reads a's diagonal as ones.
template <typename T>
void SolveTriangular(int64_t n, int64_t k, const T* a, const T* b, bool upper, bool transpose,
                     bool unit_diagonal, T* out);

// out = (L L^T)^{-1} b (or (U^T U)^{-1} b when `upper`) for a Cholesky factor and an n x k b.
template <typename T>
void CholeskySolve(int64_t n, int64_t k, const T* factor, const T* b, bool upper, T* out);

// The eigenvalues (ascending) of the symmetric a, reading its lower triangle (upper when
// `lower` is false), and, when `vectors` is not null, the orthonormal eigenvectors as its
// columns. false when the iteration does not converge.
template <typename T>
bool SymmetricEigen(int64_t n, const T* a, bool lower, T* values, T* vectors);

// a = u diag(s) vh for an m x n a, k = min(m, n): s descending; u m x k and vh k x n, or m x m
// and n x n when `full_matrices`. false when the iteration does not converge.
template <typename T>
bool SingularValueDecomposition(int64_t m, int64_t n, const T* a, bool full_matrices, T* u, T* s,
                                T* vh);

// a = q r for an m x n a (Householder), k = min(m, n): q m x k and r k x n, or q m x m and r
// m x n when `complete`. q is not written when null.
template <typename T>
void QrDecomposition(int64_t m, int64_t n, const T* a, bool complete, T* q, T* r);

// The LU factorization with partial pivoting of an m x n a: lu holds L (unit diagonal, below)
// and U (on and above the diagonal) packed, pivots the min(m, n) 1-based row interchanges
// (LAPACK's). Returns LAPACK's info: > 0 when U has an exact zero on its diagonal (a singular
// a, still factored).
template <typename T>
int LuFactorization(int64_t m, int64_t n, const T* a, T* lu, int* pivots);

// The complex type of T's eigenvalues: complex64 for float and complex64, complex128 for double
// and complex128.
template <typename T>
using EigenComplex = std::complex<RealType<T>>;

// LAPACK's geev on a general n x n a (real or complex): the eigenvalues in LAPACK's order and,
// when `vectors` is not null, the right eigenvectors as its columns (each of unit 2-norm with
// its largest component real, as LAPACK, NumPy and Paddle return them). false when the QR
// iteration does not converge.
template <typename T>
bool GeneralEigen(int64_t n, const T* a, EigenComplex<T>* values, EigenComplex<T>* vectors);

// b = (v^H)^{-1} b in place for an n x n complex v and an n x n b; false when v is singular.
template <typename C>
bool SolveAdjoint(int64_t n, const C* v, C* b);

}  // namespace paddle::funcs
