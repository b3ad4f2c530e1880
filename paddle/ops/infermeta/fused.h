// InferMeta of the fused inference ops that the predictor's rewrites write.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out is x and y (y aligned at `axis`) broadcast together; intermediate_out holds the inner
// functor's result when save_intermediate_out, else it is empty ([0]).
void FusedElemwiseActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                      const std::vector<std::string>& functor_list, int32_t axis,
                                      float scale, bool save_intermediate_out, TensorMeta* out,
                                      TensorMeta* intermediate_out);

}  // namespace paddle
