#include "paddle/ops/infermeta/vector_norm.h"

#include "paddle/common/errors.h"
#include "paddle/common/reduce_axes.h"

namespace paddle {

namespace {

void CheckFloat(const TensorMeta& x) {
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
           errors::InvalidType("argument 'x' must be a float32 or float64 tensor, received ",
                               DataTypeName(x.dtype)));
}

void CheckAxis(int rank, int64_t axis, const char* arg) {
  int bound = rank > 0 ? rank : 1;
  PD_CHECK(axis >= -bound && axis < bound,
           errors::InvalidArgument("argument '", arg, "' must be in [", -bound, ", ", bound,
                                   ") for 'x' of rank ", rank, ", received ", axis));
}

std::vector<int> PNormAxes(int rank, int32_t axis, bool asvector) {
  if (asvector || rank == 0) return ReduceAxes({}, rank);
  return ReduceAxes({axis}, rank);
}

std::vector<int> FrobeniusNormAxes(int rank, const std::vector<int32_t>& dim, bool reduce_all) {
  if (reduce_all) return ReduceAxes({}, rank);
  return ReduceAxes(std::vector<int64_t>(dim.begin(), dim.end()), rank);
}

}  // namespace

void PNormInferMeta(const TensorMeta& x, float porder, int32_t axis, float epsilon, bool keepdim,
                    bool asvector, TensorMeta* out) {
  CheckFloat(x);
  if (!asvector) CheckAxis(x.dims.size(), axis, "axis");
  out->dims = ReducedDims(x.dims, PNormAxes(x.dims.size(), axis, asvector), keepdim);
  out->dtype = x.dtype;
}

void FrobeniusNormInferMeta(const TensorMeta& x, const std::vector<int32_t>& dim, bool keep_dim,
                            bool reduce_all, TensorMeta* out) {
  CheckFloat(x);
  for (int32_t d : dim) CheckAxis(x.dims.size(), d, "dim");
  out->dims = ReducedDims(x.dims, FrobeniusNormAxes(x.dims.size(), dim, reduce_all), keep_dim);
  out->dtype = x.dtype;
}

}  // namespace paddle
