#include "paddle/ops/infermeta/reduce.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/common/reduce_axes.h"

namespace paddle {

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
