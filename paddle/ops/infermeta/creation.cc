#include "paddle/ops/infermeta/creation.h"

#include <cmath>
#include <limits>

#include "paddle/common/errors.h"

namespace paddle {

namespace {

DDim CheckedShape(const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    PD_CHECK(d >= 0, errors::InvalidArgument("argument 'shape' ", DDim(shape).ToString(),
                                             " has a negative dimension ", d));
  }
  return DDim(shape);
}

void CheckFloating(DataType dtype) {
  PD_CHECK(IsFloating(dtype),
           errors::InvalidArgument("argument 'dtype' must be a floating-point type, received ",
                                   DataTypeName(dtype)));
}

}  // namespace

void CreationInferMeta(const std::vector<int64_t>& shape, const Scalar& value, DataType dtype,
                       const Place& place, TensorMeta* out) {
  out->dims = CheckedShape(shape);
  out->dtype = dtype;
}

void FullLikeInferMeta(const TensorMeta& x, const Scalar& value, DataType dtype, TensorMeta* out) {
  out->dims = x.dims;
  out->dtype = dtype == DataType::UNDEFINED ? x.dtype : dtype;
}

int64_t ArangeLength(const Scalar& start, const Scalar& end, const Scalar& step) {
  double s = start.to<double>(), e = end.to<double>(), d = step.to<double>();
  PD_CHECK(d != 0, errors::InvalidArgument("argument 'step' of arange must not be 0"));
  double n = std::ceil((e - s) / d);
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

void ArangeInferMeta(const Scalar& start, const Scalar& end, const Scalar& step, DataType dtype,
                     const Place& place, TensorMeta* out) {
  out->dims = DDim({ArangeLength(start, end, step)});
  out->dtype = dtype;
}

void LinspaceInferMeta(const Scalar& start, const Scalar& stop, int64_t num, DataType dtype,
                       const Place& place, TensorMeta* out) {
  PD_CHECK(num >= 0,
           errors::InvalidArgument("argument 'num' must be non-negative, received ", num));
  out->dims = DDim({num});
  out->dtype = dtype;
}

void EyeInferMeta(int64_t num_rows, int64_t num_columns, DataType dtype, const Place& place,
                  TensorMeta* out) {
  PD_CHECK(num_rows >= 0, errors::InvalidArgument("argument 'num_rows' must be non-negative, "
                                                  "received ",
                                                  num_rows));
  out->dims = DDim({num_rows, num_columns < 0 ? num_rows : num_columns});
  out->dtype = dtype;
}

void RandomInferMeta(const std::vector<int64_t>& shape, DataType dtype, const Scalar& min,
                     const Scalar& max, int32_t seed, const Place& place, TensorMeta* out) {
  CheckFloating(dtype);
  // A bound beyond the dtype's finite range would round to inf, and no draw could fall below it.
  const double limit = dtype == DataType::FLOAT16    ? 65504.0
                       : dtype == DataType::BFLOAT16 ? 3.3895313892515355e38
                       : dtype == DataType::FLOAT32  ? 3.4028234663852886e38
                                                     : std::numeric_limits<double>::max();
  PD_CHECK(std::abs(min.to<double>()) <= limit && std::abs(max.to<double>()) <= limit,
           errors::InvalidArgument("arguments 'min' (", min.ToString(), ") and 'max' (",
                                   max.ToString(), ") must be finite in ", DataTypeName(dtype)));
  PD_CHECK(min.to<double>() <= max.to<double>(),
           errors::InvalidArgument("argument 'min' (", min.ToString(), ") must not exceed 'max' (",
                                   max.ToString(), ")"));
  out->dims = CheckedShape(shape);
  out->dtype = dtype;
}

void GaussianInferMeta(const std::vector<int64_t>& shape, float mean, float std, int32_t seed,
                       DataType dtype, const Place& place, TensorMeta* out) {
  CheckFloating(dtype);
  PD_CHECK(std >= 0,
           errors::InvalidArgument("argument 'std' must be non-negative, received ", std));
  out->dims = CheckedShape(shape);
  out->dtype = dtype;
}

void AssignValueInferMeta(const std::vector<int64_t>& shape, DataType dtype,
                          const std::vector<double>& values, const Place& place, TensorMeta* out) {
  PD_CHECK(dtype != DataType::UNDEFINED,
           errors::InvalidArgument("argument 'dtype' must be a data type, received undefined"));
  out->dims = CheckedShape(shape);
  PD_CHECK(static_cast<int64_t>(values.size()) == out->dims.numel(),
           errors::InvalidArgument("argument 'values' holds ", values.size(), " values, but shape ",
                                   out->dims.ToString(), " has ", out->dims.numel(), " elements"));
  out->dtype = dtype;
}

}  // namespace paddle
