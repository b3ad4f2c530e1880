// Shape rules of p_norm and frobenius_norm (paddle/ops/yaml/vector_norm.yaml).
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// p_norm: x reduced over `axis`, or over every dim when asvector; kept as 1s when keepdim.
void PNormInferMeta(const TensorMeta& x, float porder, int32_t axis, float epsilon, bool keepdim,
                    bool asvector, TensorMeta* out);

// frobenius_norm: x reduced over `dim` (every dim when empty or reduce_all).
void FrobeniusNormInferMeta(const TensorMeta& x, const std::vector<int32_t>& dim, bool keep_dim,
                            bool reduce_all, TensorMeta* out);

}  // namespace paddle
