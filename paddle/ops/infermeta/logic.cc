#include "paddle/ops/infermeta/logic.h"

#include "paddle/common/errors.h"
#include "paddle/common/reduce_axes.h"
#include "paddle/ops/infermeta/reduce.h"

namespace paddle {

void IsfiniteInferMeta(const TensorMeta& x, TensorMeta* out) {
  out->dims = x.dims;
  out->dtype = DataType::BOOL;
}

void LogicalReduceInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, bool keepdim,
                            TensorMeta* out) {
  out->dims = ReducedDims(x.dims, ReduceAxes(axis, x.dims.size()), keepdim);
  out->dtype = DataType::BOOL;
}

namespace {

void TriangularInferMeta(const TensorMeta& x, const char* op, TensorMeta* out) {
  PD_CHECK(x.dims.size() >= 2,
           errors::InvalidArgument(op,
                                   ": argument 'x' must have at least 2 dimensions, received "
                                   "shape ",
                                   x.dims.ToString()));
  *out = x;
}

}  // namespace

void TrilInferMeta(const TensorMeta& x, int32_t diagonal, TensorMeta* out) {
  TriangularInferMeta(x, "tril", out);
}

void TriuInferMeta(const TensorMeta& x, int32_t diagonal, TensorMeta* out) {
  TriangularInferMeta(x, "triu", out);
}

void LogsumexpInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, bool keepdim,
                        bool reduce_all, TensorMeta* out) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("logsumexp: argument 'x' must be a floating-point tensor, "
                                   "received ",
                                   DataTypeName(x.dtype)));
  out->dims = ReducedDims(x.dims, ReduceAxes(axis, x.dims.size()), keepdim);
  out->dtype = x.dtype;
}

}  // namespace paddle
