#include "paddle/ops/infermeta/random.h"

#include <cmath>

#include "paddle/common/errors.h"

namespace paddle {

namespace {

DDim NonNegativeShape(const char* op, const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    PD_CHECK(d >= 0, errors::InvalidArgument(op, ": argument 'shape' ", DDim(shape).ToString(),
                                             " has a negative dimension ", d));
  }
  return DDim(shape);
}

}  // namespace

void RandintInferMeta(int32_t low, int32_t high, const std::vector<int64_t>& shape, DataType dtype,
                      int32_t seed, const Place& place, TensorMeta* out) {
  PD_CHECK(dtype == DataType::INT32 || dtype == DataType::INT64,
           errors::InvalidArgument("randint: argument 'dtype' must be int32 or int64, received ",
                                   DataTypeName(dtype)));
  PD_CHECK(low < high, errors::InvalidArgument("randint: argument 'high' (", high,
                                               ") must be greater than 'low' (", low, ")"));
  out->dims = NonNegativeShape("randint", shape);
  out->dtype = dtype;
}

void RandpermInferMeta(int64_t n, DataType dtype, int32_t seed, const Place& place,
                       TensorMeta* out) {
  PD_CHECK(n >= 0, errors::InvalidArgument("randperm: argument 'n' must be non-negative, "
                                           "received ",
                                           n));
  PD_CHECK(dtype == DataType::INT32 || dtype == DataType::INT64 || dtype == DataType::FLOAT32 ||
               dtype == DataType::FLOAT64,
           errors::InvalidArgument("randperm: argument 'dtype' must be int32, int64, float32 or "
                                   "float64, received ",
                                   DataTypeName(dtype)));
  out->dims = DDim({n});
  out->dtype = dtype;
}

void ProbabilitiesInferMeta(const TensorMeta& x, TensorMeta* out) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("bernoulli: argument 'x' must be a floating-point tensor, "
                                   "received ",
                                   DataTypeName(x.dtype)));
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void RatesInferMeta(const TensorMeta& x, TensorMeta* out) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("poisson: argument 'x' must be a floating-point tensor, "
                                   "received ",
                                   DataTypeName(x.dtype)));
  out->dims = x.dims;
  out->dtype = x.dtype;
}

void MultinomialInferMeta(const TensorMeta& x, int64_t num_samples, bool replacement,
                          TensorMeta* out) {
  const int rank = x.dims.size();
  PD_CHECK(rank == 1 || rank == 2,
           errors::InvalidArgument("multinomial: argument 'x' must be 1-D or 2-D, received "
                                   "shape ",
                                   x.dims.ToString()));
  PD_CHECK(num_samples > 0, errors::InvalidArgument("multinomial: argument 'num_samples' must "
                                                    "be positive, received ",
                                                    num_samples));
  const int64_t categories = x.dims[rank - 1];
  PD_CHECK(
      replacement || categories < 0 || num_samples <= categories,
      errors::InvalidArgument("multinomial: without replacement 'num_samples' (", num_samples,
                              ") must not exceed the number of categories (", categories, ")"));
  std::vector<int64_t> dims;
  if (rank == 2) dims.push_back(x.dims[0]);
  dims.push_back(num_samples);
  out->dims = DDim(dims);
  out->dtype = DataType::INT64;
}

void TruncatedGaussianInferMeta(const std::vector<int64_t>& shape, float mean, float std,
                                int32_t seed, float a, float b, DataType dtype, const Place& place,
                                TensorMeta* out) {
  PD_CHECK(IsFloating(dtype),
           errors::InvalidArgument("truncated_gaussian_random: argument 'dtype' must be a "
                                   "floating-point type, received ",
                                   DataTypeName(dtype)));
  PD_CHECK(std > 0, errors::InvalidArgument("truncated_gaussian_random: argument 'std' must be "
                                            "positive, received ",
                                            std));
  PD_CHECK(a < b, errors::InvalidArgument("truncated_gaussian_random: argument 'a' (", a,
                                          ") must be less than 'b' (", b, ")"));
  out->dims = NonNegativeShape("truncated_gaussian_random", shape);
  out->dtype = dtype;
}

void ExponentialInferMeta(const TensorMeta& x, float lam, TensorMeta* out) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("exponential_: argument 'x' must be a floating-point tensor, "
                                   "received ",
                                   DataTypeName(x.dtype)));
  PD_CHECK(std::isfinite(lam) && lam > 0,
           errors::InvalidArgument("exponential_: argument 'lam' must be positive and finite, "
                                   "received ",
                                   lam));
  out->dims = x.dims;
  out->dtype = x.dtype;
}

}  // namespace paddle
