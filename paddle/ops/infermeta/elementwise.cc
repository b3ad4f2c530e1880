#include "paddle/ops/infermeta/elementwise.h"

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

void UnchangedInferMeta(const TensorMeta& x, TensorMeta* out) { *out = x; }

void ElementwiseInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  out->dims = funcs::BroadcastShape(x.dims, y.dims, "");
  out->dtype = x.dtype;
  out->layout = x.layout;
}

void CompareInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  out->dims = funcs::BroadcastShape(x.dims, y.dims, "");
  out->dtype = DataType::BOOL;
}

void LogicalNotInferMeta(const TensorMeta& x, TensorMeta* out) {
  out->dims = x.dims;
  out->dtype = DataType::BOOL;
}

void CastInferMeta(const TensorMeta& x, DataType dtype, TensorMeta* out) {
  PD_CHECK(dtype != DataType::UNDEFINED,
           errors::InvalidArgument("cast: argument 'dtype' must be a data type, received "
                                   "undefined"));
  out->dims = x.dims;
  out->dtype = dtype;
  out->layout = x.layout;
}

void SoftmaxInferMeta(const TensorMeta& x, int32_t axis, TensorMeta* out) {
  NormalizeAxis(axis, x.dims.size(), "softmax");
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("softmax: argument 'x' must be a floating-point tensor, "
                                   "received ",
                                   DataTypeName(x.dtype)));
  *out = x;
}

void WhereInferMeta(const TensorMeta& condition, const TensorMeta& x, const TensorMeta& y,
                    TensorMeta* out) {
  PD_CHECK(condition.dtype == DataType::BOOL,
           errors::InvalidArgument("where: argument 'condition' must be a bool tensor, received ",
                                   DataTypeName(condition.dtype)));
  DDim xy = funcs::BroadcastShape(x.dims, y.dims, "");
  out->dims = funcs::BroadcastShape(condition.dims, xy, "");
  out->dtype = x.dtype;
}

void AddNInferMeta(const std::vector<TensorMeta>& inputs, TensorMeta* out) {
  PD_CHECK(!inputs.empty(),
           errors::InvalidArgument("argument 'inputs' must hold at least one tensor"));
  const TensorMeta& first = inputs[0];
  DDim dims = first.dims;
  for (size_t i = 1; i < inputs.size(); ++i) {
    PD_CHECK(inputs[i].dtype == first.dtype,
             errors::InvalidType("argument 'inputs': inputs[", i, "] has dtype ",
                                 DataTypeName(inputs[i].dtype), ", expected ",
                                 DataTypeName(first.dtype), " like inputs[0]"));
    PD_CHECK(ShapesAgree(inputs[i].dims, first.dims),
             errors::InvalidArgument("argument 'inputs': inputs[", i, "] has shape ",
                                     inputs[i].dims.ToString(), ", expected ",
                                     first.dims.ToString(), " like inputs[0]"));
    dims = MergeShapes(dims, inputs[i].dims);
  }
  *out = first;
  out->dims = dims;
}

void IncrementInferMeta(const TensorMeta& x, TensorMeta* out) {
  PD_CHECK(MayHoldOneElement(x.dims),
           errors::InvalidArgument("argument 'x' must hold exactly one element, received shape ",
                                   x.dims.ToString()));
  *out = x;
}

}  // namespace paddle
