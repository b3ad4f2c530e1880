// InferMeta of the creation and random ops.
#pragma once

#include <vector>

#include "paddle/common/place.h"
#include "paddle/core/scalar.h"
#include "paddle/core/tensor_meta.h"

namespace paddle {

void CreationInferMeta(const std::vector<int64_t>& shape, const Scalar& value, DataType dtype,
                       const Place& place, TensorMeta* out);
void FullLikeInferMeta(const TensorMeta& x, const Scalar& value, DataType dtype, TensorMeta* out);
void ArangeInferMeta(const Scalar& start, const Scalar& end, const Scalar& step, DataType dtype,
                     const Place& place, TensorMeta* out);
void LinspaceInferMeta(const Scalar& start, const Scalar& stop, int64_t num, DataType dtype,
                       const Place& place, TensorMeta* out);
void EyeInferMeta(int64_t num_rows, int64_t num_columns, DataType dtype, const Place& place,
                  TensorMeta* out);
void RandomInferMeta(const std::vector<int64_t>& shape, DataType dtype, const Scalar& min,
                     const Scalar& max, int32_t seed, const Place& place, TensorMeta* out);
void GaussianInferMeta(const std::vector<int64_t>& shape, float mean, float std, int32_t seed,
                       DataType dtype, const Place& place, TensorMeta* out);
// assign_value: one value per element of `shape`, in row-major order.
void AssignValueInferMeta(const std::vector<int64_t>& shape, DataType dtype,
                          const std::vector<double>& values, const Place& place, TensorMeta* out);

// The number of elements arange(start, end, step) yields; throws on step 0.
int64_t ArangeLength(const Scalar& start, const Scalar& end, const Scalar& step);

}  // namespace paddle
