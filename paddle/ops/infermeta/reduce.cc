#include "paddle/ops/infermeta/reduce.h"

#include <algorithm>

#include "paddle/common/errors.h"

namespace paddle {

std::vector<int> ReduceAxes(const std::vector<int64_t>& axis, int rank) {
  std::vector<int> axes;
  if (axis.empty()) {
    for (int i = 0; i < rank; ++i) axes.push_back(i);
    return axes;
  }
  for (int64_t a : axis) {
    int n = NormalizeAxis(a, rank, "reduce");
    PD_CHECK(std::find(axes.begin(), axes.end(), n) == axes.end(),
             errors::InvalidArgument("argument 'axis' lists dimension ", n, " twice"));
    axes.push_back(n);
  }
  std::sort(axes.begin(), axes.end());
  // A 0-d tensor accepts axis 0 / -1 but has no dimension to reduce.
  if (rank == 0) axes.clear();
  return axes;
}

DDim ReducedDims(const DDim& dims, const std::vector<int>& axes, bool keepdim) {
  std::vector<int64_t> out;
  for (int i = 0; i < dims.size(); ++i) {
    bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) {
      out.push_back(dims[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return DDim(out);
}

void ReduceInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, bool keepdim,
                     TensorMeta* out) {
  out->dims = ReducedDims(x.dims, ReduceAxes(axis, x.dims.size()), keepdim);
  out->dtype = x.dtype;
}

void SumInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, DataType dtype,
                  bool keepdim, TensorMeta* out) {
  ReduceInferMeta(x, axis, keepdim, out);
  if (dtype != DataType::UNDEFINED) {
    out->dtype = dtype;
  } else if (x.dtype == DataType::BOOL || x.dtype == DataType::INT32) {
    out->dtype = DataType::INT64;
  }
}

void ArgMinMaxInferMeta(const TensorMeta& x, int64_t axis, bool keepdim, bool flatten,
                        DataType dtype, TensorMeta* out) {
  PD_CHECK(dtype == DataType::INT32 || dtype == DataType::INT64,
           errors::InvalidArgument("argument 'dtype' must be int32 or int64, received ",
                                   DataTypeName(dtype)));
  out->dtype = dtype;
  if (flatten) {
    out->dims = keepdim ? DDim(std::vector<int64_t>(x.dims.size(), 1)) : DDim();
    return;
  }
  int a = NormalizeAxis(axis, x.dims.size(), "argmax/argmin");
  PD_CHECK(x.dims.size() == 0 || x.dims[a] != 0,
           errors::InvalidArgument("cannot take argmax/argmin over an empty dimension ", a,
                                   " of shape ", x.dims.ToString()));
  out->dims =
      ReducedDims(x.dims, x.dims.size() ? std::vector<int>{a} : std::vector<int>{}, keepdim);
}

}  // namespace paddle
