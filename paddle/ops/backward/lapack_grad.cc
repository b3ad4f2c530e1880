// Backward rules of the dense linear algebra ops, written with forward ops (the factorizations'
// own among them), so higher-order gradients come free. Matrices are the last two dims; the
// formulas are the established ones for real matrices (Giles, "An extended collection of matrix
// derivative results", 2008; Murray, "Differentiation of the Cholesky decomposition", 2016;
// Townsend, "Differentiating the singular value decomposition", 2016; Walter & Lehmann for QR).
// The factorizations read one triangle of a symmetric input; their gradients are the symmetric
// ones (the derivative with respect to a symmetric perturbation), as in Paddle.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/cholesky_solve.h"
#include "paddle/ops/generated/api/concat.h"
#include "paddle/ops/generated/api/divide.h"
#include "paddle/ops/generated/api/eig_grad.h"
#include "paddle/ops/generated/api/eye.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/inverse.h"
#include "paddle/ops/generated/api/lu_unpack.h"
#include "paddle/ops/generated/api/matmul.h"
#include "paddle/ops/generated/api/matrix_power.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/slice.h"
#include "paddle/ops/generated/api/solve.h"
#include "paddle/ops/generated/api/subtract.h"
#include "paddle/ops/generated/api/transpose.h"
#include "paddle/ops/generated/api/triangular_solve.h"
#include "paddle/ops/generated/api/tril.h"
#include "paddle/ops/generated/api/triu.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/generated/grad_rules/lapack.h"

namespace paddle::ops::grad {

namespace {

// The transposes of a batch of matrices.
Tensor TransposeMatrices(const Tensor& x) {
  int rank = x.dims().size();
  std::vector<int32_t> perm(rank);
  for (int i = 0; i < rank; ++i) perm[i] = i;
  std::swap(perm[rank - 1], perm[rank - 2]);
  return transpose(x, perm);
}

// One value per matrix ([*]) as [*, 1, 1], to scale each matrix of a batch.
Tensor PerMatrix(const Tensor& values) {
  std::vector<int64_t> dims = values.dims().ToVector();
  dims.push_back(1);
  dims.push_back(1);
  return reshape(values, dims);
}

// The n x n identity in x's dtype and place.
Tensor IdentityLike(const Tensor& x, int64_t n) { return eye(n, n, x.dtype(), x.place()); }

// diag(values) for a batch of vectors [*, n]: [*, n, n].
Tensor DiagonalMatrices(const Tensor& values) {
  int64_t n = values.dims()[values.dims().size() - 1];
  return multiply(unsqueeze(values, {-2}), IdentityLike(values, n));
}

// x r^{-T} for an upper triangular r: (r^{-1} x^T)^T.
Tensor TimesInverseTransposeOfUpper(const Tensor& x, const Tensor& r) {
  return TransposeMatrices(triangular_solve(r, TransposeMatrices(x), true, false, false));
}

Tensor Negative(const Tensor& x) { return scale(x, -1.0); }

Tensor SymmetricPart(const Tensor& x) { return scale(add(x, TransposeMatrices(x)), 0.5); }

}  // namespace

// d(x^{-1}) = -x^{-1} dx x^{-1}, so x_grad = -out^T out_grad out^T.
void inverse_grad(const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = Negative(matmul(matmul(out, out_grad, true, false), out, false, true));
}

// d det(x) = det(x) tr(x^{-1} dx), so x_grad = out_grad det(x) x^{-T}.
void determinant_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = multiply(PerMatrix(multiply(out_grad, out)), TransposeMatrices(inverse(x)));
}

// The sign is locally constant; d log|det(x)| = tr(x^{-1} dx).
void slogdeterminant_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor log_grad = slice(out_grad, {0}, {1}, {2}, {0});
  *x_grad = multiply(PerMatrix(log_grad), TransposeMatrices(inverse(x)));
}

// For x = L L^T: x_grad = sym(L^{-T} Phi(L^T L_grad) L^{-1}), Phi the lower triangle with the
// diagonal halved (Murray 2016). The upper factor U = L^T is handled through L.
void cholesky_grad(const Tensor& out, const Tensor& out_grad, bool upper, Tensor* x_grad) {
  if (!x_grad) return;
  Tensor l = upper ? TransposeMatrices(out) : out;
  Tensor l_grad = upper ? TransposeMatrices(out_grad) : out_grad;
  Tensor product = matmul(l, l_grad, true, false);
  Tensor phi = scale(add(tril(product, 0), tril(product, -1)), 0.5);
  Tensor left = triangular_solve(l, phi, false, true, false);  // L^{-T} Phi
  Tensor both = TransposeMatrices(triangular_solve(l, TransposeMatrices(left), false, true, false));
  *x_grad = SymmetricPart(both);
}

// out = x^{-1} y: y_grad = x^{-T} out_grad, x_grad = -y_grad out^T.
void solve_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, Tensor* x_grad,
                Tensor* y_grad) {
  Tensor rhs_grad = solve(TransposeMatrices(x), out_grad);
  if (x_grad) *x_grad = Negative(matmul(rhs_grad, out, false, true));
  if (y_grad) *y_grad = rhs_grad;
}

// op(x) out = y: y_grad = op(x)^{-T} out_grad and op(x)_grad = -y_grad out^T, kept to the
// triangle the op reads (without the diagonal when it is taken as ones).
void triangular_solve_grad(const Tensor& x, const Tensor& out, const Tensor& out_grad, bool upper,
                           bool transpose, bool unitriangular, Tensor* x_grad, Tensor* y_grad) {
  Tensor rhs_grad = triangular_solve(x, out_grad, upper, !transpose, unitriangular);
  if (y_grad) *y_grad = rhs_grad;
  if (!x_grad) return;
  Tensor full = transpose ? matmul(out, rhs_grad, false, true) : matmul(rhs_grad, out, false, true);
  full = Negative(full);
  if (upper) {
    *x_grad = triu(full, unitriangular ? 1 : 0);
  } else {
    *x_grad = tril(full, unitriangular ? -1 : 0);
  }
}

// out = A^{-1} x with A = L L^T (or U^T U) from the factor y: x_grad = A^{-1} out_grad, and with
// G = -x_grad out^T, L_grad = (G + G^T) L (U_grad = U (G + G^T)), in the factor's triangle.
void cholesky_solve_grad(const Tensor& y, const Tensor& out, const Tensor& out_grad, bool upper,
                         Tensor* x_grad, Tensor* y_grad) {
  Tensor rhs_grad = cholesky_solve(out_grad, y, upper);
  if (x_grad) *x_grad = rhs_grad;
  if (!y_grad) return;
  Tensor g = matmul(rhs_grad, out, false, true);
  Tensor sym = Negative(add(g, TransposeMatrices(g)));
  // The op reads only the factor's triangle.
  *y_grad = upper ? triu(matmul(triu(y, 0), sym), 0) : tril(matmul(sym, tril(y, 0)), 0);
}

// x = V diag(w) V^T: x_grad = V (diag(w_grad) + F o (V^T V_grad)) V^T, F_ij = 1 / (w_j - w_i)
// off the diagonal and 0 on it (distinct eigenvalues assumed, as in every framework).
void eigh_grad(const Tensor& eigenvalues, const Tensor& eigenvectors,
               const Tensor& eigenvalues_grad, const Tensor& eigenvectors_grad, Tensor* x_grad) {
  if (!x_grad) return;
  const Tensor& v = eigenvectors;
  int64_t n = eigenvalues.dims()[eigenvalues.dims().size() - 1];
  Tensor identity = IdentityLike(v, n);
  Tensor gaps = subtract(unsqueeze(eigenvalues, {-2}), unsqueeze(eigenvalues, {-1}));
  // The identity keeps the diagonal's division finite; the numerator zeroes it.
  Tensor f = divide(scale(identity, -1.0, 1.0), add(gaps, identity));
  Tensor inner = add(DiagonalMatrices(eigenvalues_grad),
                     multiply(f, matmul(v, eigenvectors_grad, true, false)));
  *x_grad = matmul(matmul(v, inner), v, false, true);
}

// eigvalsh's eigenvectors are an output too (Paddle's, which its gradient reads); differentiating
// through them is what gives the eigenvalues' gradient its own gradient, so the rule is eigh's.
void eigvalsh_grad(const Tensor& eigenvalues, const Tensor& eigenvectors,
                   const Tensor& eigenvalues_grad, const Tensor& eigenvectors_grad,
                   Tensor* x_grad) {
  eigh_grad(eigenvalues, eigenvectors, eigenvalues_grad, eigenvectors_grad, x_grad);
}

// Townsend (2016) for x = U diag(s) Vh with k = min(m, n) singular values (distinct, nonzero):
// x_grad = U [(F o skew(U^T U_grad)) S + diag(s_grad) + S (F o skew(V^T V_grad))] Vh
//        + (I - U U^T) U_grad S^{-1} Vh + U S^{-1} Vh_grad (I - V Vh), F_ij = 1 / (s_j^2 - s_i^2).
// With full_matrices the columns of U and rows of Vh past k do not depend on x smoothly; their
// gradients are dropped, as Paddle does.
void svd_grad(const Tensor& u, const Tensor& s, const Tensor& vh, const Tensor& u_grad,
              const Tensor& s_grad, const Tensor& vh_grad, bool full_matrices, Tensor* x_grad) {
  if (!x_grad) return;
  int rank = u.dims().size();
  int64_t k = s.dims()[s.dims().size() - 1];
  Tensor u_k = u, vh_k = vh, gu = u_grad, gvh = vh_grad;
  if (full_matrices) {
    u_k = slice(u, {rank - 1}, {0}, {k});
    gu = slice(u_grad, {rank - 1}, {0}, {k});
    vh_k = slice(vh, {rank - 2}, {0}, {k});
    gvh = slice(vh_grad, {rank - 2}, {0}, {k});
  }
  Tensor identity = IdentityLike(s, k);
  Tensor s_row = unsqueeze(s, {-2});  // s_j at [i, j]
  Tensor s_col = unsqueeze(s, {-1});  // s_i at [i, j]
  Tensor squares = multiply(s, s);
  Tensor gaps = add(subtract(unsqueeze(squares, {-2}), unsqueeze(squares, {-1})), identity);
  Tensor uu = matmul(u_k, gu, true, false);
  Tensor vv = matmul(vh_k, gvh, false, true);  // Vh Vh_grad^T = V^T V_grad
  Tensor skew_u = subtract(uu, TransposeMatrices(uu));
  Tensor skew_v = subtract(vv, TransposeMatrices(vv));
  Tensor core = divide(add(multiply(skew_u, s_row), multiply(s_col, skew_v)), gaps);
  core = add(core, DiagonalMatrices(s_grad));
  Tensor grad = matmul(matmul(u_k, core), vh_k);
  // The parts of U_grad and Vh_grad outside the spans of U and V.
  Tensor u_rest = subtract(gu, matmul(u_k, uu));
  grad = add(grad, matmul(divide(u_rest, s_row), vh_k));
  Tensor vh_rest = subtract(gvh, matmul(matmul(gvh, vh_k, false, true), vh_k));
  grad = add(grad, matmul(u_k, divide(vh_rest, s_col)));
  *x_grad = grad;
}

// For x = Q R with m >= n (R square and invertible), with M = Q^T Q_grad and N = R R_grad^T:
// x_grad = Q (R_grad + tril(M - M^T + N - N^T) R^{-T}) + (Q_grad - Q M) R^{-T}.
void qr_grad(const Tensor& q, const Tensor& r, const Tensor& q_grad, const Tensor& r_grad,
             const std::string& mode, Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& qd = q.dims();
  const DDim& rd = r.dims();
  int64_t m = qd[qd.size() - 2], n = rd[rd.size() - 1];
  PD_CHECK(m >= n && (mode != "complete" || m == n),
           errors::InvalidArgument("qr: the gradient is only defined for inputs with at least as "
                                   "many rows as columns (and, with mode 'complete', square), "
                                   "received ",
                                   m, " x ", n, " matrices with mode '", mode, "'"));
  Tensor qq = matmul(q, q_grad, true, false);
  Tensor rr = matmul(r, r_grad, false, true);
  Tensor lower =
      tril(add(subtract(qq, TransposeMatrices(qq)), subtract(rr, TransposeMatrices(rr))), 0);
  Tensor grad = matmul(q, add(r_grad, TimesInverseTransposeOfUpper(lower, r)));
  grad = add(grad, TimesInverseTransposeOfUpper(subtract(q_grad, matmul(q, qq)), r));
  *x_grad = grad;
}

// For square x = P L U (Paddle's rectangular case is not supported): with the packed gradient's
// parts L_grad (strictly lower) and U_grad (upper),
// x_grad = P L^{-T} (tril(L^T L_grad, -1) + triu(U_grad U^T)) U^{-T}.
void lu_grad(const Tensor& out, const Tensor& pivots, const Tensor& out_grad, Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& d = out.dims();
  int64_t m = d[d.size() - 2], n = d[d.size() - 1];
  PD_CHECK(m == n, errors::InvalidArgument("lu: the gradient is only supported for square "
                                           "matrices, received ",
                                           m, " x ", n, " matrices"));
  auto [p, l, u] = lu_unpack(out, pivots, true, true);
  Tensor phi = add(tril(matmul(l, tril(out_grad, -1), true, false), -1),
                   triu(matmul(triu(out_grad, 0), u, false, true), 0));
  Tensor left = triangular_solve(l, phi, false, true, true);  // L^{-T} phi
  Tensor both = TransposeMatrices(triangular_solve(u, TransposeMatrices(left), true, false, false));
  *x_grad = matmul(p, both);
}

// L's strictly lower part and U's upper part are x's elements; P does not depend on them.
void lu_unpack_grad(const Tensor& x, const Tensor& l_grad, const Tensor& u_grad, Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& d = x.dims();
  int rank = d.size();
  int64_t m = d[rank - 2], n = d[rank - 1];
  Tensor lower = tril(l_grad, -1);  // [*, m, k]
  Tensor upper = triu(u_grad, 0);   // [*, k, n]
  std::vector<int64_t> pad = d.ToVector();
  if (m > n) {  // k = n: U's rows cover the first n rows of x
    pad[rank - 2] = m - n;
    upper = concat({upper, full(pad, 0.0, x.dtype(), x.place())}, rank - 2);
  } else if (m < n) {  // k = m: L's columns cover the first m columns of x
    pad[rank - 1] = n - m;
    lower = concat({lower, full(pad, 0.0, x.dtype(), x.place())}, rank - 1);
  }
  *x_grad = add(lower, upper);
}

// d(B^k) = sum_i B^i dB B^(k-1-i), so B_grad = sum_i (B^T)^i out_grad (B^T)^(k-1-i) for
// k = |n|; B is x, or x^{-1} for n < 0, whose gradient then passes through the inverse's.
void matrix_power_grad(const Tensor& x, const Tensor& out_grad, int32_t n, Tensor* x_grad) {
  if (!x_grad) return;
  if (n == 0) {
    *x_grad = ZerosLike(x);
    return;
  }
  int32_t k = n < 0 ? -n : n;
  Tensor base = n < 0 ? inverse(x) : x;
  Tensor base_grad;
  for (int32_t i = 0; i < k; ++i) {
    Tensor term = matmul(matmul(matrix_power(base, i), out_grad, true, false),
                         matrix_power(base, k - 1 - i), false, true);
    base_grad = i == 0 ? term : add(base_grad, term);
  }
  // For n < 0, base = x^{-1}: x_grad = -base^T base_grad base^T (inverse_grad).
  *x_grad =
      n < 0 ? Negative(matmul(matmul(base, base_grad, true, false), base, false, true)) : base_grad;
}

// The complex formula lives in the eig_grad kernel (complex matrix products and a solve with
// V^H); missing cotangents arrive as zeros.
void eig_grad(const Tensor& x, const Tensor& out_w, const Tensor& out_v, const Tensor& out_w_grad,
              const Tensor& out_v_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = ops::eig_grad(x, out_w, out_v, out_w_grad, out_v_grad);
}

}  // namespace paddle::ops::grad
