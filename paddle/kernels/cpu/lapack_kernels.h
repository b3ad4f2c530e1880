// CPU kernels of the dense linear algebra ops (paddle/ops/yaml/lapack.yaml): each loops over the
// matrices of a batch (the dims before the last two) and calls the one-matrix routine of
// funcs/lapack.h. The solves broadcast the batch dims of their two operands. A factorization
// that fails (singular, not positive definite, no convergence) is a ValueError naming the op and
// the matrix's index in the batch.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/batch_offsets.h"
#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/funcs/lapack.h"

namespace paddle {

namespace {

// A batch of row-major matrices: the batch dims and each matrix's rows x cols.
struct MatrixBatch {
  std::vector<int64_t> batch;
  int64_t rows = 0, cols = 0, count = 1;

  explicit MatrixBatch(const DDim& dims) {
    int rank = dims.size();
    batch.assign(dims.data(), dims.data() + rank - 2);
    rows = dims[rank - 2];
    cols = dims[rank - 1];
    for (int64_t d : batch) count *= d;
  }
  int64_t size() const { return rows * cols; }
};

// Runs solve(a, b, out) over out's batches, with a's and b's batches broadcast to out's.
template <typename T, typename Solve>
void ForEachSolve(const DenseTensor& a, const DenseTensor& b, DenseTensor* out, T* o,
                  const Solve& solve) {
  MatrixBatch as(a.dims()), bs(b.dims()), os(out->dims());
  std::vector<int64_t> a_offsets = funcs::BatchBroadcastOffsets(os.batch, as.batch, as.size());
  std::vector<int64_t> b_offsets = funcs::BatchBroadcastOffsets(os.batch, bs.batch, bs.size());
  for (int64_t i = 0; i < os.count; ++i) {
    solve(i, a.data<T>() + a_offsets[i], b.data<T>() + b_offsets[i], o + i * os.size());
  }
}

}  // namespace

template <typename T, typename Context>
void InverseKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    PD_CHECK(
        funcs::InvertMatrix(xs.rows, x.data<T>() + i * xs.size(), o + i * xs.size()),
        errors::InvalidArgument("inverse: matrix ", i, " of 'x' is singular (not invertible)"));
  }
}

template <typename T, typename Context>
void DeterminantKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    o[i] = funcs::Determinant(xs.rows, x.data<T>() + i * xs.size());
  }
}

// out[0] holds the signs and out[1] the logarithms of the absolute determinants.
template <typename T, typename Context>
void SlogdeterminantKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    funcs::SignLogAbsDeterminant(xs.rows, x.data<T>() + i * xs.size(), o + i, o + xs.count + i);
  }
}

template <typename T, typename Context>
void CholeskyKernel(const Context& ctx, const DenseTensor& x, bool upper, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    PD_CHECK(
        funcs::CholeskyFactor(xs.rows, x.data<T>() + i * xs.size(), upper, o + i * xs.size()),
        errors::InvalidArgument("cholesky: matrix ", i,
                                " of 'x' is not positive definite, so it has no Cholesky factor"));
  }
}

template <typename T, typename Context>
void SolveKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch os(out->dims());
  ForEachSolve<T>(x, y, out, o, [&](int64_t i, const T* a, const T* b, T* result) {
    PD_CHECK(funcs::SolveLinear(os.rows, os.cols, a, b, result),
             errors::InvalidArgument("solve: matrix ", i, " of 'x' is singular (not invertible)"));
  });
}

template <typename T, typename Context>
void TriangularSolveKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
                           bool upper, bool transpose, bool unitriangular, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch os(out->dims());
  ForEachSolve<T>(x, y, out, o, [&](int64_t, const T* a, const T* b, T* result) {
    funcs::SolveTriangular(os.rows, os.cols, a, b, upper, transpose, unitriangular, result);
  });
}

// Paddle's argument order: x is the right-hand side and y the Cholesky factor.
template <typename T, typename Context>
void CholeskySolveKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, bool upper,
                         DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch os(out->dims());
  ForEachSolve<T>(y, x, out, o, [&](int64_t, const T* factor, const T* b, T* result) {
    funcs::CholeskySolve(os.rows, os.cols, factor, b, upper, result);
  });
}

template <typename T>
void SymmetricEigenBatch(const char* op, const DenseTensor& x, const std::string& uplo, T* values,
                         T* vectors) {
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    PD_CHECK(
        funcs::SymmetricEigen(xs.rows, x.data<T>() + i * xs.size(), uplo == "L",
                              values + i * xs.rows, vectors ? vectors + i * xs.size() : nullptr),
        errors::InvalidArgument(op, ": the eigenvalue iteration did not converge for matrix ", i,
                                " of 'x'"));
  }
}

template <typename T, typename Context>
void EighKernel(const Context& ctx, const DenseTensor& x, const std::string& uplo,
                DenseTensor* eigenvalues, DenseTensor* eigenvectors) {
  SymmetricEigenBatch<T>("eigh", x, uplo, ctx.template Alloc<T>(eigenvalues),
                         ctx.template Alloc<T>(eigenvectors));
}

// Paddle's eigvalsh also returns the eigenvectors, which its gradient reads; is_test (no
// gradient wanted) skips computing them.
template <typename T, typename Context>
void EigvalshKernel(const Context& ctx, const DenseTensor& x, const std::string& uplo, bool is_test,
                    DenseTensor* eigenvalues, DenseTensor* eigenvectors) {
  T* vectors = ctx.template Alloc<T>(eigenvectors);
  SymmetricEigenBatch<T>("eigvalsh", x, uplo, ctx.template Alloc<T>(eigenvalues),
                         is_test ? nullptr : vectors);
  if (is_test) std::fill(vectors, vectors + eigenvectors->numel(), T(0));
}

template <typename T>
bool IsFiniteValue(T v) {
  if constexpr (kIsComplex<T>) {
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  } else {
    return std::isfinite(v);
  }
}

// geev on each matrix of the square batch x. LAPACK's balancing rejects inf and nan entries
// (Paddle aborts there), so they are a ValueError first.
template <typename T>
void GeneralEigenBatch(const char* op, const DenseTensor& x, funcs::EigenComplex<T>* values,
                       funcs::EigenComplex<T>* vectors) {
  MatrixBatch xs(x.dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    const T* matrix = x.data<T>() + i * xs.size();
    PD_CHECK(std::all_of(matrix, matrix + xs.size(), IsFiniteValue<T>),
             errors::InvalidArgument(op, ": matrix ", i, " of 'x' (shape ", x.dims().ToString(),
                                     ") has an inf or nan entry; expected finite values"));
    PD_CHECK(funcs::GeneralEigen(xs.rows, matrix, values + i * xs.rows,
                                 vectors ? vectors + i * xs.size() : nullptr),
             errors::InvalidArgument(op, ": the eigenvalue iteration did not converge for matrix ",
                                     i, " of 'x'"));
  }
}

// out_w and out_v are complex (complex64 for float32 x) whether x is real or complex.
template <typename T, typename Context>
void EigKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out_w, DenseTensor* out_v) {
  using C = funcs::EigenComplex<T>;
  GeneralEigenBatch<T>("eig", x, ctx.template Alloc<C>(out_w), ctx.template Alloc<C>(out_v));
}

template <typename T, typename Context>
void EigvalsKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  GeneralEigenBatch<T>("eigvals", x, ctx.template Alloc<funcs::EigenComplex<T>>(out), nullptr);
}

// x = V diag(w) V^{-1} (distinct eigenvalues assumed, as in Paddle and every framework):
// x_grad = V^{-H} (diag(w_grad) + (V^H V_grad - V^H V diag(Re diag(V^H V_grad))) / conj(E)) V^H,
// E_ij = w_j - w_i off the diagonal. The diag term removes the part of V_grad that only changes
// the columns' norms, which LAPACK fixes at 1. For real x, x_grad is the real part. x is read
// only for its dtype.
template <typename T, typename Context>
void EigGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_w,
                   const DenseTensor& out_v, const DenseTensor& out_w_grad,
                   const DenseTensor& out_v_grad, DenseTensor* x_grad) {
  using C = funcs::EigenComplex<T>;
  T* g = ctx.template Alloc<T>(x_grad);
  MatrixBatch vs(out_v.dims());
  int64_t n = vs.rows;
  if (n == 0) return;
  std::vector<C> vh(n * n), vh_gv(n * n), vh_v(n * n), core(n * n);
  auto multiply = [n](const C* a, const C* b, C* product) {
    funcs::Gemm<C>(false, false, n, n, n, C(1), a, n, b, n, C(0), product, n);
  };
  for (int64_t b = 0; b < vs.count; ++b) {
    const C* v = out_v.data<C>() + b * vs.size();
    const C* gv = out_v_grad.data<C>() + b * vs.size();
    const C* w = out_w.data<C>() + b * n;
    const C* gw = out_w_grad.data<C>() + b * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) vh[i * n + j] = std::conj(v[j * n + i]);
    }
    multiply(vh.data(), gv, vh_gv.data());
    multiply(vh.data(), v, vh_v.data());
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        core[i * n + j] = i == j ? gw[i]
                                 : (vh_gv[i * n + j] - vh_v[i * n + j] * vh_gv[j * n + j].real()) /
                                       std::conj(w[j] - w[i]);
      }
    }
    // rhs = core V^H, then V^{-H} rhs in place.
    C* rhs = vh_gv.data();
    multiply(core.data(), vh.data(), rhs);
    PD_CHECK(funcs::SolveAdjoint(n, v, rhs),
             errors::InvalidArgument("eig_grad: the eigenvectors of matrix ", b,
                                     " of 'x' are linearly dependent (x is not diagonalizable)"));
    T* out = g + b * vs.size();
    for (int64_t k = 0; k < n * n; ++k) {
      if constexpr (kIsComplex<T>) {
        out[k] = rhs[k];
      } else {
        out[k] = rhs[k].real();
      }
    }
  }
}

template <typename T, typename Context>
void SvdKernel(const Context& ctx, const DenseTensor& x, bool full_matrices, DenseTensor* u,
               DenseTensor* s, DenseTensor* vh) {
  T* u_data = ctx.template Alloc<T>(u);
  T* s_data = ctx.template Alloc<T>(s);
  T* vh_data = ctx.template Alloc<T>(vh);
  MatrixBatch xs(x.dims()), us(u->dims()), vs(vh->dims());
  int64_t k = std::min(xs.rows, xs.cols);
  for (int64_t i = 0; i < xs.count; ++i) {
    PD_CHECK(funcs::SingularValueDecomposition(xs.rows, xs.cols, x.data<T>() + i * xs.size(),
                                               full_matrices, u_data + i * us.size(),
                                               s_data + i * k, vh_data + i * vs.size()),
             errors::InvalidArgument("svd: the SVD iteration did not converge for matrix ", i,
                                     " of 'x'"));
  }
}

// mode "reduced", "complete" or "r" (InferMeta checked it); for "r", q is the reduced Q.
template <typename T, typename Context>
void QrKernel(const Context& ctx, const DenseTensor& x, const std::string& mode, DenseTensor* q,
              DenseTensor* r) {
  T* q_data = ctx.template Alloc<T>(q);
  T* r_data = ctx.template Alloc<T>(r);
  MatrixBatch xs(x.dims()), qs(q->dims()), rs(r->dims());
  for (int64_t i = 0; i < xs.count; ++i) {
    funcs::QrDecomposition(xs.rows, xs.cols, x.data<T>() + i * xs.size(), mode == "complete",
                           q_data + i * qs.size(), r_data + i * rs.size());
  }
}

// pivots (int32, 1-based as LAPACK's) and infos (> 0: U is singular) per matrix. Only the
// pivoting factorization exists on the CPU, as in Paddle.
template <typename T, typename Context>
void LuKernel(const Context& ctx, const DenseTensor& x, bool pivot, DenseTensor* out,
              DenseTensor* pivots, DenseTensor* infos) {
  PD_CHECK(pivot, errors::InvalidArgument("lu: the factorization without pivoting (pivot=False) "
                                          "is not supported on the CPU, as in Paddle"));
  T* o = ctx.template Alloc<T>(out);
  int32_t* p = ctx.template Alloc<int32_t>(pivots);
  int32_t* info = ctx.template Alloc<int32_t>(infos);
  MatrixBatch xs(x.dims());
  int64_t k = std::min(xs.rows, xs.cols);
  for (int64_t i = 0; i < xs.count; ++i) {
    info[i] = funcs::LuFactorization(xs.rows, xs.cols, x.data<T>() + i * xs.size(),
                                     o + i * xs.size(), p + i * k);
  }
}

// x = P L U from lu's packed factors and pivots: pmat [*, m, m], l [*, m, k] (unit diagonal),
// u [*, k, n]. Both parts are always computed; the flags are kept for Paddle's signature.
template <typename T, typename Context>
void LuUnpackKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& pivots,
                    bool unpack_ludata, bool unpack_pivots, DenseTensor* pmat, DenseTensor* l,
                    DenseTensor* u) {
  T* p_data = ctx.template Alloc<T>(pmat);
  T* l_data = ctx.template Alloc<T>(l);
  T* u_data = ctx.template Alloc<T>(u);
  MatrixBatch xs(x.dims());
  int64_t m = xs.rows, n = xs.cols, k = std::min(m, n);
  const int32_t* piv = pivots.data<int32_t>();
  std::vector<int64_t> rows(m);
  for (int64_t b = 0; b < xs.count; ++b) {
    const T* lu = x.data<T>() + b * xs.size();
    T* lb = l_data + b * m * k;
    T* ub = u_data + b * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < k; ++j) lb[i * k + j] = i > j ? lu[i * n + j] : T(i == j ? 1 : 0);
    }
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t j = 0; j < n; ++j) ub[i * n + j] = j >= i ? lu[i * n + j] : T(0);
    }
    // Row i of L U is row rows[i] of x, after the interchanges in order.
    for (int64_t i = 0; i < m; ++i) rows[i] = i;
    for (int64_t i = 0; i < k; ++i) {
      int64_t other = piv[b * k + i] - 1;
      PD_CHECK(other >= 0 && other < m,
               errors::InvalidArgument("lu_unpack: pivot ", i, " of matrix ", b, " is ", other + 1,
                                       ", expected a row in [1, ", m, "]"));
      std::swap(rows[i], rows[other]);
    }
    T* pb = p_data + b * m * m;
    std::fill(pb, pb + m * m, T(0));
    for (int64_t i = 0; i < m; ++i) pb[rows[i] * m + i] = T(1);
  }
}

// x^n per matrix by binary powering (about log2 |n| products); n < 0 powers the inverse, so a
// singular matrix is then a ValueError; n = 0 gives identities.
template <typename T, typename Context>
void MatrixPowerKernel(const Context& ctx, const DenseTensor& x, int32_t n, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  MatrixBatch xs(x.dims());
  int64_t size = xs.rows, elements = xs.size();
  std::vector<T> base(elements), result(elements), product(elements);
  auto multiply = [&](const std::vector<T>& a, const std::vector<T>& b, std::vector<T>* c) {
    funcs::Gemm<T>(false, false, size, size, size, T(1), a.data(), size, b.data(), size, T(0),
                   c->data(), size);
  };
  for (int64_t i = 0; i < xs.count; ++i) {
    const T* matrix = x.data<T>() + i * elements;
    if (n < 0) {
      PD_CHECK(funcs::InvertMatrix(size, matrix, base.data()),
               errors::InvalidArgument("matrix_power: matrix ", i, " of 'x' is singular, so it ",
                                       "has no power n = ", n));
    } else {
      std::copy(matrix, matrix + elements, base.begin());
    }
    std::fill(result.begin(), result.end(), T(0));
    for (int64_t d = 0; d < size; ++d) result[d * size + d] = T(1);
    for (int64_t power = n < 0 ? -static_cast<int64_t>(n) : n; power > 0; power >>= 1) {
      if (power & 1) {
        multiply(result, base, &product);
        result.swap(product);
      }
      if (power > 1) {
        multiply(base, base, &product);
        base.swap(product);
      }
    }
    std::copy(result.begin(), result.end(), o + i * elements);
  }
}

}  // namespace paddle
