// InferMeta of the activations whose attributes or second input need checking (the others use
// UnchangedInferMeta).
#pragma once

#include <cstdint>
#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out has x's meta; min <= max.
void HardtanhInferMeta(const TensorMeta& x, float min, float max, TensorMeta* out);
// out has x's meta; alpha != 0 (x / alpha is taken).
void CeluInferMeta(const TensorMeta& x, float alpha, TensorMeta* out);
// out has x's meta; scale > 1 and alpha >= 0, as Paddle's selu requires.
void SeluInferMeta(const TensorMeta& x, float scale, float alpha, TensorMeta* out);
// out has x's meta; threshold >= 0.
void SoftshrinkInferMeta(const TensorMeta& x, float threshold, TensorMeta* out);
// out has x's meta and noise too; 0 <= lower <= upper <= 1.
void RreluInferMeta(const TensorMeta& x, float lower, float upper, bool is_test, TensorMeta* out,
                    TensorMeta* noise);
// x is 4-D with its channels at axis 1 (NCHW) or 3 / -1 (NHWC); groups > 1 divides them, and out
// has C / groups channels.
void MaxoutInferMeta(const TensorMeta& x, int32_t groups, int32_t axis, TensorMeta* out);
// out has x's meta. mode "all": alpha holds one value; "channel": one per channel of x (whose
// channel axis data_format names); "element": one per element of x's dims after the first.
// alpha has x's dtype.
void PreluInferMeta(const TensorMeta& x, const TensorMeta& alpha, const std::string& data_format,
                    const std::string& mode, TensorMeta* out);

}  // namespace paddle
