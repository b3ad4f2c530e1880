#include "paddle/ops/infermeta/search.h"

#include <utility>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckIndicesLike(const TensorMeta& arr, const TensorMeta& indices, int axis, const char* op) {
  PD_CHECK(indices.dtype == DataType::INT32 || indices.dtype == DataType::INT64,
           errors::InvalidArgument(op,
                                   ": argument 'indices' must be an int32 or int64 tensor, "
                                   "received ",
                                   DataTypeName(indices.dtype)));
  PD_CHECK(indices.dims.size() == arr.dims.size(),
           errors::InvalidArgument(op, ": argument 'indices' must have the rank of 'arr' (",
                                   arr.dims.size(), "), received shape ", indices.dims.ToString()));
  for (int i = 0; i < arr.dims.size(); ++i) {
    PD_CHECK(i == axis || indices.dims[i] <= arr.dims[i] || IsUnknown(arr.dims[i]),
             errors::InvalidArgument(op, ": argument 'indices' of shape ", indices.dims.ToString(),
                                     " is larger than 'arr' of shape ", arr.dims.ToString(),
                                     " at dimension ", i));
  }
}

}  // namespace

void TakeAlongAxisInferMeta(const TensorMeta& arr, const TensorMeta& indices, int32_t axis,
                            TensorMeta* out) {
  int a = NormalizeAxis(axis, arr.dims.size(), "take_along_axis");
  CheckIndicesLike(arr, indices, a, "take_along_axis");
  out->dims = indices.dims;
  out->dtype = arr.dtype;
}

void PutAlongAxisInferMeta(const TensorMeta& arr, const TensorMeta& indices,
                           const TensorMeta& values, int32_t axis, const std::string& reduce,
                           bool include_self, TensorMeta* out) {
  int a = NormalizeAxis(axis, arr.dims.size(), "put_along_axis");
  CheckIndicesLike(arr, indices, a, "put_along_axis");
  PD_CHECK(reduce == "assign" || reduce == "add" || reduce == "mul" || reduce == "multiply",
           errors::InvalidArgument("put_along_axis: argument 'reduce' must be 'assign', 'add', "
                                   "'mul' or 'multiply', received '",
                                   reduce, "'"));
  PD_CHECK(
      ShapesAgree(values.dims, indices.dims),
      errors::InvalidArgument("put_along_axis: argument 'values' of shape ", values.dims.ToString(),
                              " must have the shape of 'indices' ", indices.dims.ToString()));
  PD_CHECK(
      values.dtype == arr.dtype,
      errors::InvalidArgument("put_along_axis: argument 'values' must have the dtype of "
                              "'arr' (",
                              DataTypeName(arr.dtype), "), received ", DataTypeName(values.dtype)));
  out->dims = arr.dims;
  out->dtype = arr.dtype;
}

void TopkInferMeta(const TensorMeta& x, const Scalar& k, int32_t axis, bool largest, bool sorted,
                   TensorMeta* out, TensorMeta* indices) {
  int a = NormalizeAxis(axis, x.dims.size(), "topk");
  int64_t size = x.dims.size() == 0 ? 1 : x.dims[a];
  int64_t kv = k.to<int64_t>();
  PD_CHECK(kv >= 0 && (kv <= size || IsUnknown(size)),
           errors::InvalidArgument("topk: argument 'k' expected to be in range [0, ", size,
                                   "] (the size of dimension ", a, " of shape ", x.dims.ToString(),
                                   "), received ", kv));
  DDim dims = x.dims;
  if (dims.size() > 0) dims[a] = kv;
  out->dims = dims;
  out->dtype = x.dtype;
  indices->dims = dims;
  indices->dtype = DataType::INT64;
}

void ArgsortInferMeta(const TensorMeta& x, int32_t axis, bool descending, bool stable,
                      TensorMeta* out, TensorMeta* indices) {
  NormalizeAxis(axis, x.dims.size(), "argsort");
  out->dims = x.dims;
  out->dtype = x.dtype;
  indices->dims = x.dims;
  indices->dtype = DataType::INT64;
}

void CumsumInferMeta(const TensorMeta& x, const Scalar& axis, bool flatten, bool exclusive,
                     bool reverse, TensorMeta* out) {
  out->dtype = x.dtype;
  if (flatten) {
    // A 0-D x stays 0-D, as with an axis (Paddle's 0-D semantics).
    out->dims = x.dims.size() == 0 ? x.dims : DDim(std::vector<int64_t>{KnownNumel(x.dims)});
    return;
  }
  NormalizeAxis(axis.to<int64_t>(), x.dims.size(), "cumsum");
  out->dims = x.dims;
}

void CumprodInferMeta(const TensorMeta& x, int32_t dim, bool exclusive, bool reverse,
                      TensorMeta* out) {
  NormalizeAxis(dim, x.dims.size(), "cumprod", "dim");
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void CumprodGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& out_grad,
                          int32_t dim, bool exclusive, bool reverse, TensorMeta* x_grad) {
  NormalizeAxis(dim, x.dims.size(), "cumprod_grad", "dim");
  // The kernel walks the three together: a program file could give them different shapes.
  for (const auto& [name, t] :
       {std::pair<const char*, const TensorMeta*>{"out", &out}, {"out_grad", &out_grad}}) {
    PD_CHECK(ShapesAgree(t->dims, x.dims) && t->dtype == x.dtype,
             errors::InvalidArgument("cumprod_grad: argument '", name, "' must have the shape ",
                                     x.dims.ToString(), " and dtype ", DataTypeName(x.dtype),
                                     " of 'x', received ", t->dims.ToString(), " ",
                                     DataTypeName(t->dtype)));
  }
  x_grad->dims = x.dims;
  x_grad->dtype = x.dtype;
}

}  // namespace paddle
