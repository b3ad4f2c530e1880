// Shape rules of the dense linear algebra ops (paddle/ops/yaml/lapack.yaml). Matrices are the
// last two dims of a tensor of rank >= 2; the dims before them are a batch.
#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// inverse, cholesky: x is a batch of square matrices; out has its dims.
void SquareMatrixInferMeta(const TensorMeta& x, TensorMeta* out);

// determinant: one value per matrix of the square batch x, dims x.dims[:-2].
void DeterminantInferMeta(const TensorMeta& x, TensorMeta* out);

// slogdeterminant: [2] + x.dims[:-2], the signs then the log absolute determinants.
void SlogdeterminantInferMeta(const TensorMeta& x, TensorMeta* out);

// solve, triangular_solve: x [*, n, n] and the right-hand sides y [*, n, k]; the batch dims
// broadcast and out is [broadcast batch, n, k].
void SolveInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);

// cholesky_solve: the right-hand sides x [*, n, k] and the factor y [*, n, n] (Paddle's order).
void CholeskySolveInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);

// eigh, eigvalsh: x [*, n, n] and UPLO "L" or "U"; eigenvalues [*, n], eigenvectors [*, n, n].
void EighInferMeta(const TensorMeta& x, const std::string& uplo, TensorMeta* eigenvalues,
                   TensorMeta* eigenvectors);

// svd: x [*, m, n], k = min(m, n): u [*, m, k], s [*, k], vh [*, k, n]; with full_matrices
// u [*, m, m] and vh [*, n, n].
void SvdInferMeta(const TensorMeta& x, bool full_matrices, TensorMeta* u, TensorMeta* s,
                  TensorMeta* vh);

// qr: x [*, m, n], k = min(m, n), mode "reduced" (q [*, m, k], r [*, k, n]), "complete"
// (q [*, m, m], r [*, m, n]) or "r" (r as reduced; q is still the reduced Q).
void QrInferMeta(const TensorMeta& x, const std::string& mode, TensorMeta* q, TensorMeta* r);

// lu: out as x [*, m, n] (the packed factors), pivots [*, min(m, n)] and infos [*] (int32).
void LuInferMeta(const TensorMeta& x, bool pivot, TensorMeta* out, TensorMeta* pivots,
                 TensorMeta* infos);

// lu_unpack: x [*, m, n] packed factors and int32 pivots [*, k], k = min(m, n): pmat
// [*, m, m], l [*, m, k], u [*, k, n].
void LuUnpackInferMeta(const TensorMeta& x, const TensorMeta& pivots, bool unpack_ludata,
                       bool unpack_pivots, TensorMeta* pmat, TensorMeta* l, TensorMeta* u);

// eig: x [*, n, n] float32, float64, complex64 or complex128; the eigenvalues out_w [*, n] and
// eigenvectors out_v [*, n, n] are complex (complex64 for float32 and complex64 x).
void EigInferMeta(const TensorMeta& x, TensorMeta* out_w, TensorMeta* out_v);

// eigvals: out [*, n], complex, for x as eig's.
void EigvalsInferMeta(const TensorMeta& x, TensorMeta* out);

// eig_grad: x_grad has x's dims and dtype; out_w_grad and out_v_grad are out_w's and out_v's.
void EigGradInferMeta(const TensorMeta& x, const TensorMeta& out_w, const TensorMeta& out_v,
                      const TensorMeta& out_w_grad, const TensorMeta& out_v_grad,
                      TensorMeta* x_grad);

}  // namespace paddle
