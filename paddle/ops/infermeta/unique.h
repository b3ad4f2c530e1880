// Shape rules of unique and unique_consecutive (paddle/ops/yaml/unique.yaml).
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out: x's dtype, flat [-1] without an axis, else x's dims with dims[axis] = -1; indices and
// counts [-1]; inverse one entry per element (flat) or per slice along the axis. The three
// index outputs take `dtype`, int32 or int64.
void UniqueInferMeta(const TensorMeta& x, bool return_index, bool return_inverse,
                     bool return_counts, const std::vector<int32_t>& axis, DataType dtype,
                     bool is_sorted, TensorMeta* out, TensorMeta* indices, TensorMeta* inverse,
                     TensorMeta* counts);

void UniqueConsecutiveInferMeta(const TensorMeta& x, bool return_inverse, bool return_counts,
                                const std::vector<int32_t>& axis, DataType dtype, TensorMeta* out,
                                TensorMeta* inverse, TensorMeta* counts);

}  // namespace paddle
