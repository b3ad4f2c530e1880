// Shape rules of bincount and histogram (paddle/ops/yaml/histogram.yaml).
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out: [-1] (one entry per value up to x's largest, at least minlength); int64 without weights,
// float32 for float32 weights, float64 for the others (Paddle's rule).
void BincountInferMeta(const TensorMeta& x, const TensorMeta* weights, int64_t minlength,
                       TensorMeta* out);

// out: [bins]; int64 counts, float32 with weights or density.
void HistogramInferMeta(const TensorMeta& input, const TensorMeta* weight, int64_t bins, float min,
                        float max, bool density, TensorMeta* out);

}  // namespace paddle
