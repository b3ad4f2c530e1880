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

void FcInferMeta(const TensorMeta& input, const TensorMeta& w, const TensorMeta* bias,
                 int32_t in_num_col_dims, const std::string& activation_type, bool padding_weights,
                 TensorMeta* out) {
  const DDim& xd = input.dims;
  PD_CHECK(in_num_col_dims >= 1 && in_num_col_dims < xd.size(),
           errors::InvalidArgument("fc: argument 'in_num_col_dims' must be in [1, ", xd.size(),
                                   ") for 'input' of shape ", xd.ToString(), ", received ",
                                   in_num_col_dims));
  PD_CHECK(w.dims.size() == 2, errors::InvalidArgument("fc: argument 'w' must be 2-D, received "
                                                       "shape ",
                                                       w.dims.ToString()));
  PD_CHECK(!padding_weights, errors::Unimplemented("fc: 'padding_weights' (a w with padded rows "
                                                   "and columns) is not supported"));
  PD_CHECK(activation_type.empty() || activation_type == "relu",
           errors::InvalidArgument("fc: 'activation_type' must be '' or 'relu', received '",
                                   activation_type, "'"));
  PD_CHECK(input.dtype == w.dtype,
           errors::InvalidType("fc: argument 'w' has dtype ", DataTypeName(w.dtype), ", expected ",
                               DataTypeName(input.dtype), " like 'input'"));
  const int64_t k = KnownNumel(DDim(xd.data() + in_num_col_dims, xd.size() - in_num_col_dims));
  PD_CHECK(DimsAgree(k, w.dims[0]),
           errors::InvalidArgument("fc: 'input' of shape ", xd.ToString(), " is a matrix of width ",
                                   k, " (in_num_col_dims = ", in_num_col_dims,
                                   "), which must equal the height of 'w' ", w.dims.ToString()));
  const int64_t n = w.dims[1];
  if (bias) {
    const DDim& bd = bias->dims;
    const bool row = (bd.size() == 1 && DimsAgree(bd[0], n)) ||
                     (bd.size() == 2 && DimsAgree(bd[0], 1) && DimsAgree(bd[1], n));
    PD_CHECK(row, errors::InvalidArgument("fc: argument 'bias' must have shape [", n, "] or [1, ",
                                          n, "], received ", bd.ToString()));
    PD_CHECK(bias->dtype == input.dtype,
             errors::InvalidType("fc: argument 'bias' has dtype ", DataTypeName(bias->dtype),
                                 ", expected ", DataTypeName(input.dtype)));
  }
  std::vector<int64_t> dims(xd.data(), xd.data() + in_num_col_dims);
  dims.push_back(n);
  out->dims = DDim(dims);
  out->dtype = input.dtype;
}

}  // namespace paddle
