// Python slice semantics for one dimension, shared by the slicing ops' InferMeta and kernels.
#pragma once

#include <cstdint>

namespace paddle {

// The normalised bounds of one sliced dimension (Python slice semantics, clamped).
struct SliceBounds {
  int64_t start, end, step, length;
};
SliceBounds NormalizeSlice(int64_t start, int64_t end, int64_t step, int64_t dim_size);

}  // namespace paddle
