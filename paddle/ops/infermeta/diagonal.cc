#include "paddle/ops/infermeta/diagonal.h"

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// The two normalised matrix dims of a rank-`rank` tensor.
std::pair<int, int> MatrixAxes(const char* op, int rank, int32_t a1, int32_t a2, const char* name1,
                               const char* name2) {
  int first = NormalizeAxis(a1, rank, op, name1);
  int second = NormalizeAxis(a2, rank, op, name2);
  PD_CHECK(first != second, errors::InvalidArgument("arguments '", name1, "' and '", name2,
                                                    "' must name different dims, received ", a1,
                                                    " and ", a2, " for rank ", rank));
  return {first, second};
}

// The length of diagonal `offset` of a rows x cols matrix (-1 when a size is unknown).
int64_t DiagonalLength(int64_t rows, int64_t cols, int32_t offset) {
  if (IsUnknown(rows) || IsUnknown(cols)) return kUnknownDim;
  int64_t n = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
  return std::max<int64_t>(n, 0);
}

// x's dims without the two matrix dims.
std::vector<int64_t> OtherDims(const DDim& dims, int a1, int a2) {
  std::vector<int64_t> out;
  for (int i = 0; i < dims.size(); ++i) {
    if (i != a1 && i != a2) out.push_back(dims[i]);
  }
  return out;
}

void CheckMatrixRank(const TensorMeta& x) {
  PD_CHECK(x.dims.size() >= 2,
           errors::InvalidArgument("argument 'x' must have at least 2 dims, received shape ",
                                   x.dims.ToString()));
}

}  // namespace

void DiagonalInferMeta(const TensorMeta& x, int32_t offset, int32_t axis1, int32_t axis2,
                       TensorMeta* out) {
  CheckMatrixRank(x);
  auto [a1, a2] = MatrixAxes("diagonal", x.dims.size(), axis1, axis2, "axis1", "axis2");
  std::vector<int64_t> dims = OtherDims(x.dims, a1, a2);
  dims.push_back(DiagonalLength(x.dims[a1], x.dims[a2], offset));
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void DiagonalGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad, int32_t offset,
                           int32_t axis1, int32_t axis2, TensorMeta* x_grad) {
  TensorMeta diagonal;
  DiagonalInferMeta(x, offset, axis1, axis2, &diagonal);
  PD_CHECK(
      ShapesAgree(out_grad.dims, diagonal.dims),
      errors::InvalidArgument("argument 'out_grad' must have the diagonal's shape ",
                              diagonal.dims.ToString(), ", received ", out_grad.dims.ToString()));
  x_grad->dims = x.dims;
  x_grad->dtype = out_grad.dtype;
}

void TraceInferMeta(const TensorMeta& x, int32_t offset, int32_t axis1, int32_t axis2,
                    TensorMeta* out) {
  CheckMatrixRank(x);
  auto [a1, a2] = MatrixAxes("trace", x.dims.size(), axis1, axis2, "axis1", "axis2");
  out->dims = DDim(OtherDims(x.dims, a1, a2));
  out->dtype = x.dtype;
}

void DiagEmbedInferMeta(const TensorMeta& x, int32_t offset, int32_t dim1, int32_t dim2,
                        TensorMeta* out) {
  int rank = x.dims.size();
  PD_CHECK(rank >= 1, errors::InvalidArgument("argument 'x' must have at least 1 dim, received "
                                              "a 0-d tensor"));
  auto [d1, d2] = MatrixAxes("diag_embed", rank + 1, dim1, dim2, "dim1", "dim2");
  int64_t n = x.dims[rank - 1];
  int64_t size = IsUnknown(n) ? kUnknownDim : n + std::abs(static_cast<int64_t>(offset));
  std::vector<int64_t> dims(rank + 1);
  int next = 0;
  for (int i = 0; i < rank + 1; ++i) {
    dims[i] = (i == d1 || i == d2) ? size : x.dims[next++];
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

}  // namespace paddle
