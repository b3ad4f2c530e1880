#include "paddle/ops/infermeta/linalg.h"

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

void MatmulInferMeta(const TensorMeta& x, const TensorMeta& y, bool transpose_x, bool transpose_y,
                     TensorMeta* out) {
  const DDim& xd = x.dims;
  const DDim& yd = y.dims;
  PD_CHECK(xd.size() >= 1 && yd.size() >= 1,
           errors::InvalidArgument("arguments 'x' and 'y' must have at least one dimension, "
                                   "received shapes ",
                                   xd.ToString(), " and ", yd.ToString()));
  int64_t m = 1, kx, ky, n = 1;
  if (xd.size() == 1) {
    kx = xd[0];
  } else {
    m = transpose_x ? xd[xd.size() - 1] : xd[xd.size() - 2];
    kx = transpose_x ? xd[xd.size() - 2] : xd[xd.size() - 1];
  }
  if (yd.size() == 1) {
    ky = yd[0];
  } else {
    ky = transpose_y ? yd[yd.size() - 1] : yd[yd.size() - 2];
    n = transpose_y ? yd[yd.size() - 2] : yd[yd.size() - 1];
  }
  PD_CHECK(kx == ky || kx == -1 || ky == -1,
           errors::InvalidArgument("the contracted dimensions must match: 'x' of shape ",
                                   xd.ToString(), (transpose_x ? " (transposed)" : ""), " gives ",
                                   kx, ", 'y' of shape ", yd.ToString(),
                                   (transpose_y ? " (transposed)" : ""), " gives ", ky));
  DDim xb(xd.data(), std::max(0, xd.size() - 2));
  DDim yb(yd.data(), std::max(0, yd.size() - 2));
  DDim batch = funcs::BroadcastShape(xb, yb, "");
  std::vector<int64_t> dims = batch.ToVector();
  if (xd.size() > 1) dims.push_back(m);
  if (yd.size() > 1) dims.push_back(n);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void MulInferMeta(const TensorMeta& x, const TensorMeta& y, int x_num_col_dims, int y_num_col_dims,
                  TensorMeta* out) {
  const DDim& xd = x.dims;
  const DDim& yd = y.dims;
  PD_CHECK(
      x_num_col_dims >= 0 && x_num_col_dims < xd.size(),
      errors::InvalidArgument("argument 'x_num_col_dims' must be in [0, ", xd.size(),
                              ") for 'x' of shape ", xd.ToString(), ", received ", x_num_col_dims));
  PD_CHECK(
      y_num_col_dims >= 0 && y_num_col_dims < yd.size(),
      errors::InvalidArgument("argument 'y_num_col_dims' must be in [0, ", yd.size(),
                              ") for 'y' of shape ", yd.ToString(), ", received ", y_num_col_dims));
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType("argument 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  DDim x_rows(xd.data(), x_num_col_dims);
  DDim x_cols(xd.data() + x_num_col_dims, xd.size() - x_num_col_dims);
  DDim y_rows(yd.data(), y_num_col_dims);
  DDim y_cols(yd.data() + y_num_col_dims, yd.size() - y_num_col_dims);
  int64_t k_x = KnownNumel(x_cols);
  int64_t k_y = KnownNumel(y_rows);
  PD_CHECK(
      DimsAgree(k_x, k_y),
      errors::InvalidArgument("argument 'y': 'x' of shape ", xd.ToString(), " is the matrix [",
                              KnownNumel(x_rows), ", ", k_x, "] (x_num_col_dims = ", x_num_col_dims,
                              ") and 'y' of shape ", yd.ToString(), " the matrix [", k_y, ", ",
                              KnownNumel(y_cols), "] (y_num_col_dims = ", y_num_col_dims,
                              "); the width of x's must equal the height of y's"));
  std::vector<int64_t> dims = x_rows.ToVector();
  for (int i = 0; i < y_cols.size(); ++i) dims.push_back(y_cols[i]);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

}  // namespace paddle
