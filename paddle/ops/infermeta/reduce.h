// InferMeta of the reductions.
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

void ReduceInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, bool keepdim,
                     TensorMeta* out);
// sum of bool and int32 gives int64, as in Paddle; `dtype` overrides.
void SumInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, DataType dtype,
                  bool keepdim, TensorMeta* out);
void ArgMinMaxInferMeta(const TensorMeta& x, int64_t axis, bool keepdim, bool flatten,
                        DataType dtype, TensorMeta* out);

}  // namespace paddle
