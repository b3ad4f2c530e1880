// The batch indexing of ops on stacks of matrices whose batch dims broadcast (the batched matmul,
// the batched solves).
#pragma once

#include <cstdint>
#include <vector>

namespace paddle::funcs {

// The element offset of each batch of `out_batch` (row-major order) in a stack of matrices of
// `matrix_size` elements whose batch dims `batch` (right-aligned, missing leading dims read as 1)
// broadcast to `out_batch`.
std::vector<int64_t> BatchBroadcastOffsets(const std::vector<int64_t>& out_batch,
                                           const std::vector<int64_t>& batch, int64_t matrix_size);

}  // namespace paddle::funcs
