#include "paddle/ops/infermeta/histogram.h"

#include "paddle/common/errors.h"

namespace paddle {

namespace {

void CheckWeights(const char* op, const char* arg, const TensorMeta& x, const TensorMeta* w) {
  if (w == nullptr) return;
  PD_CHECK(w->dims == x.dims,
           errors::InvalidArgument(op, "(): argument '", arg, "' must have the shape of the input ",
                                   x.dims.ToString(), ", received ", w->dims.ToString()));
  PD_CHECK(w->dtype == DataType::FLOAT32 || w->dtype == DataType::FLOAT64 ||
               w->dtype == DataType::INT32 || w->dtype == DataType::INT64,
           errors::InvalidType(op, "(): argument '", arg,
                               "' must be a float32, float64, int32 or int64 tensor, received ",
                               DataTypeName(w->dtype)));
}

}  // namespace

void BincountInferMeta(const TensorMeta& x, const TensorMeta* weights, int64_t minlength,
                       TensorMeta* out) {
  PD_CHECK(x.dtype == DataType::INT32 || x.dtype == DataType::INT64,
           errors::InvalidType("bincount(): argument 'x' must be an int32 or int64 tensor, "
                               "received ",
                               DataTypeName(x.dtype)));
  PD_CHECK(x.dims.size() == 1,
           errors::InvalidArgument("bincount(): argument 'x' must be 1-D, received shape ",
                                   x.dims.ToString()));
  PD_CHECK(minlength >= 0,
           errors::InvalidArgument("bincount(): argument 'minlength' must be at least 0, received ",
                                   minlength));
  CheckWeights("bincount", "weights", x, weights);
  out->dims = DDim({-1});
  out->dtype = weights == nullptr                    ? DataType::INT64
               : weights->dtype == DataType::FLOAT32 ? DataType::FLOAT32
                                                     : DataType::FLOAT64;
}

void HistogramInferMeta(const TensorMeta& input, const TensorMeta* weight, int64_t bins, float min,
                        float max, bool density, TensorMeta* out) {
  PD_CHECK(bins >= 1, errors::InvalidArgument(
                          "histogram(): argument 'bins' must be at least 1, received ", bins));
  PD_CHECK(max >= min, errors::InvalidArgument("histogram(): argument 'max' (", max,
                                               ") must not be less than 'min' (", min, ")"));
  CheckWeights("histogram", "weight", input, weight);
  out->dims = DDim({bins});
  out->dtype = weight != nullptr || density ? DataType::FLOAT32 : DataType::INT64;
}

}  // namespace paddle
