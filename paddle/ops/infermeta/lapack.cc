#include "paddle/ops/infermeta/lapack.h"

#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// LAPACK computes in float32 and float64.
void CheckRealFloat(const TensorMeta& x, const char* arg) {
  PD_CHECK(
      x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
      errors::InvalidType("argument '", arg, "' must be a float32 or float64 tensor, received ",
                          DataTypeName(x.dtype)));
}

// A batch of matrices: rank >= 2, floating point.
void CheckMatrices(const TensorMeta& x, const char* arg) {
  CheckRealFloat(x, arg);
  PD_CHECK(x.dims.size() >= 2,
           errors::InvalidArgument("argument '", arg, "' must be a batch of matrices (rank >= 2), ",
                                   "received shape ", x.dims.ToString()));
}

// A batch of square matrices.
void CheckSquare(const TensorMeta& x, const char* arg) {
  CheckMatrices(x, arg);
  int rank = x.dims.size();
  PD_CHECK(DimsAgree(x.dims[rank - 2], x.dims[rank - 1]),
           errors::InvalidArgument("argument '", arg, "' must be a batch of square matrices, ",
                                   "received shape ", x.dims.ToString()));
}

DDim BatchDims(const DDim& dims) { return DDim(dims.data(), dims.size() - 2); }

// The dims of a matrix batch with the given batch and matrix dims.
DDim MatrixDims(const DDim& batch, int64_t rows, int64_t cols) {
  std::vector<int64_t> dims = batch.ToVector();
  dims.push_back(rows);
  dims.push_back(cols);
  return DDim(dims);
}

int64_t MinDim(int64_t a, int64_t b) {
  if (IsUnknown(a) || IsUnknown(b)) return kUnknownDim;
  return a < b ? a : b;
}

// out for a square batch `a` [*, n, n] and right-hand sides `b` [*, n, k].
void SolveMeta(const TensorMeta& a, const char* a_name, const TensorMeta& b, const char* b_name,
               TensorMeta* out) {
  CheckSquare(a, a_name);
  CheckMatrices(b, b_name);
  PD_CHECK(a.dtype == b.dtype,
           errors::InvalidType("argument '", b_name, "' has dtype ", DataTypeName(b.dtype),
                               ", expected ", DataTypeName(a.dtype), " like '", a_name, "'"));
  const DDim& ad = a.dims;
  const DDim& bd = b.dims;
  int64_t n = ad[ad.size() - 1];
  PD_CHECK(DimsAgree(n, bd[bd.size() - 2]),
           errors::InvalidArgument("argument '", b_name, "' of shape ", bd.ToString(),
                                   " must have as many rows as the ", n, " x ", n, " matrices of '",
                                   a_name, "'"));
  DDim batch = funcs::BroadcastShape(BatchDims(ad), BatchDims(bd), "");
  out->dims = MatrixDims(batch, IsUnknown(n) ? bd[bd.size() - 2] : n, bd[bd.size() - 1]);
  out->dtype = a.dtype;
}

}  // namespace

void SquareMatrixInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckSquare(x, "x");
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void DeterminantInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckSquare(x, "x");
  out->dims = BatchDims(x.dims);
  out->dtype = x.dtype;
}

void SlogdeterminantInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckSquare(x, "x");
  std::vector<int64_t> dims = {2};
  for (int i = 0; i < x.dims.size() - 2; ++i) dims.push_back(x.dims[i]);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void SolveInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  SolveMeta(x, "x", y, "y", out);
}

void CholeskySolveInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  SolveMeta(y, "y", x, "x", out);
}

void EighInferMeta(const TensorMeta& x, const std::string& uplo, TensorMeta* eigenvalues,
                   TensorMeta* eigenvectors) {
  CheckSquare(x, "x");
  PD_CHECK(uplo == "L" || uplo == "U",
           errors::InvalidArgument("argument 'UPLO' must be 'L' or 'U', received '", uplo, "'"));
  const DDim& d = x.dims;
  std::vector<int64_t> values = BatchDims(d).ToVector();
  values.push_back(d[d.size() - 1]);
  eigenvalues->dims = DDim(values);
  eigenvalues->dtype = x.dtype;
  eigenvectors->dims = d;
  eigenvectors->dtype = x.dtype;
}

void SvdInferMeta(const TensorMeta& x, bool full_matrices, TensorMeta* u, TensorMeta* s,
                  TensorMeta* vh) {
  CheckMatrices(x, "x");
  const DDim& d = x.dims;
  int64_t m = d[d.size() - 2], n = d[d.size() - 1], k = MinDim(m, n);
  DDim batch = BatchDims(d);
  u->dims = MatrixDims(batch, m, full_matrices ? m : k);
  std::vector<int64_t> values = batch.ToVector();
  values.push_back(k);
  s->dims = DDim(values);
  vh->dims = MatrixDims(batch, full_matrices ? n : k, n);
  u->dtype = s->dtype = vh->dtype = x.dtype;
}

void QrInferMeta(const TensorMeta& x, const std::string& mode, TensorMeta* q, TensorMeta* r) {
  CheckMatrices(x, "x");
  PD_CHECK(mode == "reduced" || mode == "complete" || mode == "r",
           errors::InvalidArgument("argument 'mode' must be 'reduced', 'complete' or 'r', "
                                   "received '",
                                   mode, "'"));
  const DDim& d = x.dims;
  int64_t m = d[d.size() - 2], n = d[d.size() - 1], k = MinDim(m, n);
  bool complete = mode == "complete";
  DDim batch = BatchDims(d);
  q->dims = MatrixDims(batch, m, complete ? m : k);
  r->dims = MatrixDims(batch, complete ? m : k, n);
  q->dtype = r->dtype = x.dtype;
}

void LuInferMeta(const TensorMeta& x, bool pivot, TensorMeta* out, TensorMeta* pivots,
                 TensorMeta* infos) {
  CheckMatrices(x, "x");
  const DDim& d = x.dims;
  DDim batch = BatchDims(d);
  std::vector<int64_t> pivot_dims = batch.ToVector();
  pivot_dims.push_back(MinDim(d[d.size() - 2], d[d.size() - 1]));
  out->dims = d;
  out->dtype = x.dtype;
  pivots->dims = DDim(pivot_dims);
  pivots->dtype = DataType::INT32;
  infos->dims = batch;
  infos->dtype = DataType::INT32;
}

void LuUnpackInferMeta(const TensorMeta& x, const TensorMeta& pivots, bool unpack_ludata,
                       bool unpack_pivots, TensorMeta* pmat, TensorMeta* l, TensorMeta* u) {
  CheckMatrices(x, "x");
  PD_CHECK(pivots.dtype == DataType::INT32,
           errors::InvalidType("argument 'y' (the pivots) must be an int32 tensor, received ",
                               DataTypeName(pivots.dtype)));
  const DDim& d = x.dims;
  int64_t m = d[d.size() - 2], n = d[d.size() - 1], k = MinDim(m, n);
  const DDim& pd = pivots.dims;
  PD_CHECK(pd.size() == d.size() - 1 && DimsAgree(pd[pd.size() - 1], k),
           errors::InvalidArgument("argument 'y' (the pivots) must have shape ",
                                   MatrixDims(BatchDims(d), 1, k).ToString(),
                                   " without its second-to-last dim, received ", pd.ToString()));
  DDim batch = BatchDims(d);
  pmat->dims = MatrixDims(batch, m, m);
  l->dims = MatrixDims(batch, m, k);
  u->dims = MatrixDims(batch, k, n);
  pmat->dtype = l->dtype = u->dtype = x.dtype;
}

namespace {

// eig and eigvals take real and complex matrices: float32, float64, complex64, complex128, square,
// rank >= 2.
void CheckGeneralSquare(const TensorMeta& x) {
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64 ||
               x.dtype == DataType::COMPLEX64 || x.dtype == DataType::COMPLEX128,
           errors::InvalidType("argument 'x' must be a float32, float64, complex64 or complex128 ",
                               "tensor, received ", DataTypeName(x.dtype)));
  int rank = x.dims.size();
  PD_CHECK(rank >= 2,
           errors::InvalidArgument("argument 'x' must be a batch of matrices (rank >= 2), ",
                                   "received shape ", x.dims.ToString()));
  PD_CHECK(DimsAgree(x.dims[rank - 2], x.dims[rank - 1]),
           errors::InvalidArgument("argument 'x' must be a batch of square matrices, ",
                                   "received shape ", x.dims.ToString()));
}

DDim EigenvalueDims(const DDim& x) {
  std::vector<int64_t> values = BatchDims(x).ToVector();
  values.push_back(x[x.size() - 1]);
  return DDim(values);
}

DataType EigenComplexType(DataType x) { return IsComplex(x) ? x : ToComplexType(x); }

}  // namespace

void EigInferMeta(const TensorMeta& x, TensorMeta* out_w, TensorMeta* out_v) {
  CheckGeneralSquare(x);
  out_w->dims = EigenvalueDims(x.dims);
  out_v->dims = x.dims;
  out_w->dtype = out_v->dtype = EigenComplexType(x.dtype);
}

void EigvalsInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckGeneralSquare(x);
  out->dims = EigenvalueDims(x.dims);
  out->dtype = EigenComplexType(x.dtype);
}

void EigGradInferMeta(const TensorMeta& x, const TensorMeta& out_w, const TensorMeta& out_v,
                      const TensorMeta& out_w_grad, const TensorMeta& out_v_grad,
                      TensorMeta* x_grad) {
  TensorMeta w, v;
  EigInferMeta(x, &w, &v);
  auto check = [](const char* name, const TensorMeta& meta, const TensorMeta& want) {
    PD_CHECK(meta.dtype == want.dtype && ShapesAgree(meta.dims, want.dims),
             errors::InvalidArgument("argument '", name, "' must be ", DataTypeName(want.dtype),
                                     " of shape ", want.dims.ToString(), ", received ",
                                     DataTypeName(meta.dtype), " of shape ", meta.dims.ToString()));
  };
  check("out_w", out_w, w);
  check("out_v", out_v, v);
  check("out_w_grad", out_w_grad, w);
  check("out_v_grad", out_v_grad, v);
  *x_grad = x;
}

}  // namespace paddle
