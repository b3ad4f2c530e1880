// The axes a reduction runs over, shared by the reduce ops' InferMeta, kernels and gradients.
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle {

// The dims reduced over, normalised and sorted; empty `axis` means all.
std::vector<int> ReduceAxes(const std::vector<int64_t>& axis, int rank);
DDim ReducedDims(const DDim& dims, const std::vector<int>& axes, bool keepdim);

}  // namespace paddle
