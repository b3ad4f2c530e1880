#include "paddle/ops/infermeta/products.h"

#include <algorithm>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

constexpr int32_t kFirstDimOfSize3 = 9;  // Paddle's default axis for cross

// The dim cross works along: `axis` normalised, or for 9 the first dim of size 3 (-1 while a
// dim is unknown).
int CrossAxis(const DDim& dims, int32_t axis) {
  if (axis == kFirstDimOfSize3) {
    bool unknown = false;
    for (int i = 0; i < dims.size(); ++i) {
      if (dims[i] == 3) return i;
      unknown = unknown || IsUnknown(dims[i]);
    }
    if (unknown) return kUnknownDim;  // decided when the program runs
    PD_CHECK(false, errors::InvalidArgument("cross: no dim of 'x' (shape ", dims.ToString(),
                                            ") has size 3, which the default axis needs"));
  }
  int a = NormalizeAxis(axis, dims.size(), "cross");
  PD_CHECK(DimsAgree(dims[a], 3),
           errors::InvalidArgument("cross: dim ", axis, " of 'x' must have size 3, received shape ",
                                   dims.ToString()));
  return a;
}

}  // namespace

void CrossInferMeta(const TensorMeta& x, const TensorMeta& y, int32_t axis, TensorMeta* out) {
  PD_CHECK(ShapesAgree(x.dims, y.dims),
           errors::InvalidArgument("arguments 'x' and 'y' must have the same shape, received ",
                                   x.dims.ToString(), " and ", y.dims.ToString()));
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType("argument 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  PD_CHECK(x.dims.size() >= 1, errors::InvalidArgument("argument 'x' must have at least 1 dim"));
  CrossAxis(x.dims, axis);
  out->dims = MergeShapes(x.dims, y.dims);
  out->dtype = x.dtype;
}

void KronInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType("argument 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  int rank = std::max(x.dims.size(), y.dims.size());
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    int xi = i - (rank - x.dims.size()), yi = i - (rank - y.dims.size());
    int64_t a = xi >= 0 ? x.dims[xi] : 1, b = yi >= 0 ? y.dims[yi] : 1;
    dims[i] = IsUnknown(a) || IsUnknown(b) ? kUnknownDim : a * b;
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void BmmInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  const DDim& xd = x.dims;
  const DDim& yd = y.dims;
  PD_CHECK(xd.size() == 3 && yd.size() == 3,
           errors::InvalidArgument("arguments 'x' and 'y' must be 3-D, received shapes ",
                                   xd.ToString(), " and ", yd.ToString()));
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType("argument 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  PD_CHECK(DimsAgree(xd[0], yd[0]),
           errors::InvalidArgument("the batch sizes of 'x' ", xd.ToString(), " and 'y' ",
                                   yd.ToString(), " must be equal"));
  PD_CHECK(DimsAgree(xd[2], yd[1]),
           errors::InvalidArgument("the contracted dims of 'x' ", xd.ToString(), " and 'y' ",
                                   yd.ToString(), " must be equal"));
  out->dims = DDim({IsUnknown(xd[0]) ? yd[0] : xd[0], xd[1], yd[2]});
  out->dtype = x.dtype;
}

}  // namespace paddle
