#include "paddle/ops/infermeta/unique.h"

#include <string>

#include "paddle/common/errors.h"

namespace paddle {

namespace {

// The shapes both ops share; `op` names the op in errors.
void UniqueShapes(const char* op, const TensorMeta& x, const std::vector<int32_t>& axis,
                  DataType dtype, TensorMeta* out, TensorMeta* inverse, TensorMeta* counts) {
  PD_CHECK(dtype == DataType::INT32 || dtype == DataType::INT64,
           errors::InvalidArgument(op, "(): argument 'dtype' must be int32 or int64, received ",
                                   DataTypeName(dtype)));
  PD_CHECK(axis.size() <= 1,
           errors::InvalidArgument(op, "(): argument 'axis' must name at most one axis, received ",
                                   axis.size()));
  const int rank = x.dims.size();
  out->dtype = x.dtype;
  inverse->dtype = dtype;
  counts->dtype = dtype;
  counts->dims = DDim({-1});
  if (axis.empty()) {
    out->dims = DDim({-1});
    // A 0-d x counts as one element, as in Paddle; an unknown dim leaves the count unknown.
    int64_t numel = 1;
    for (int i = 0; i < rank; ++i) numel = x.dims[i] < 0 || numel < 0 ? -1 : numel * x.dims[i];
    inverse->dims = DDim({numel});
    return;
  }
  const int64_t a = axis[0];
  PD_CHECK(a >= -rank && a < rank && rank > 0,
           errors::InvalidArgument(op, "(): argument 'axis' must be in [", -rank, ", ", rank,
                                   ") for 'x' of rank ", rank, ", received ", a));
  const int d = static_cast<int>(a < 0 ? a + rank : a);
  out->dims = x.dims;
  out->dims[d] = -1;
  inverse->dims = DDim({x.dims[d]});
}

}  // namespace

void UniqueInferMeta(const TensorMeta& x, bool return_index, bool return_inverse,
                     bool return_counts, const std::vector<int32_t>& axis, DataType dtype,
                     bool is_sorted, TensorMeta* out, TensorMeta* indices, TensorMeta* inverse,
                     TensorMeta* counts) {
  UniqueShapes("unique", x, axis, dtype, out, inverse, counts);
  indices->dtype = dtype;
  indices->dims = DDim({-1});
}

void UniqueConsecutiveInferMeta(const TensorMeta& x, bool return_inverse, bool return_counts,
                                const std::vector<int32_t>& axis, DataType dtype, TensorMeta* out,
                                TensorMeta* inverse, TensorMeta* counts) {
  UniqueShapes("unique_consecutive", x, axis, dtype, out, inverse, counts);
}

}  // namespace paddle
