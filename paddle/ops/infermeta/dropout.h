// InferMeta of dropout.
#pragma once

#include <string>

#include "paddle/core/scalar.h"
#include "paddle/core/tensor_meta.h"

namespace paddle {

// out has x's meta; mask has x's dims as uint8 (1: kept). x is floating-point, p in [0, 1],
// mode "upscale_in_train" or "downgrade_in_infer"; seed_tensor (optional) holds one integer.
void DropoutInferMeta(const TensorMeta& x, const TensorMeta* seed_tensor, const Scalar& p,
                      bool is_test, const std::string& mode, int32_t seed, bool fix_seed,
                      TensorMeta* out, TensorMeta* mask);

}  // namespace paddle
