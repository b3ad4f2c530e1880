// InferMeta of the random ops of random.yaml.
#pragma once

#include <vector>

#include "paddle/common/place.h"
#include "paddle/core/tensor_meta.h"

namespace paddle {

void RandintInferMeta(int32_t low, int32_t high, const std::vector<int64_t>& shape, DataType dtype,
                      int32_t seed, const Place& place, TensorMeta* out);
void RandpermInferMeta(int64_t n, DataType dtype, int32_t seed, const Place& place,
                       TensorMeta* out);
// x holds probabilities (bernoulli) or rates (poisson); out has x's shape and dtype.
void ProbabilitiesInferMeta(const TensorMeta& x, TensorMeta* out);
void RatesInferMeta(const TensorMeta& x, TensorMeta* out);
void MultinomialInferMeta(const TensorMeta& x, int64_t num_samples, bool replacement,
                          TensorMeta* out);
void TruncatedGaussianInferMeta(const std::vector<int64_t>& shape, float mean, float std,
                                int32_t seed, float a, float b, DataType dtype, const Place& place,
                                TensorMeta* out);
void ExponentialInferMeta(const TensorMeta& x, float lam, TensorMeta* out);

}  // namespace paddle
