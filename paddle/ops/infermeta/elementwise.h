// InferMeta of the elementwise, activation and comparison ops.
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

void UnchangedInferMeta(const TensorMeta& x, TensorMeta* out);
// Paddle's broadcast of x and y; out takes x's dtype (inputs are promoted before this runs).
void ElementwiseInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
// As ElementwiseInferMeta, with a bool result.
void CompareInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
void LogicalNotInferMeta(const TensorMeta& x, TensorMeta* out);
void CastInferMeta(const TensorMeta& x, DataType dtype, TensorMeta* out);
void SoftmaxInferMeta(const TensorMeta& x, int32_t axis, TensorMeta* out);
void WhereInferMeta(const TensorMeta& condition, const TensorMeta& x, const TensorMeta& y,
                    TensorMeta* out);
// add_n: every input has inputs[0]'s shape and dtype (no broadcasting, no promotion).
void AddNInferMeta(const std::vector<TensorMeta>& inputs, TensorMeta* out);
// increment: x holds exactly one element (a loop counter).
void IncrementInferMeta(const TensorMeta& x, TensorMeta* out);

}  // namespace paddle
