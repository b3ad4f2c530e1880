#include "paddle/kernels/funcs/batch_offsets.h"

namespace paddle::funcs {

std::vector<int64_t> BatchBroadcastOffsets(const std::vector<int64_t>& out_batch,
                                           const std::vector<int64_t>& batch, int64_t matrix_size) {
  int rank = static_cast<int>(out_batch.size());
  int pad = rank - static_cast<int>(batch.size());
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = matrix_size;
  for (int d = rank - 1; d >= pad; --d) {
    int64_t size = batch[d - pad];
    strides[d] = size == 1 ? 0 : stride;
    stride *= size;
  }
  int64_t total = 1;
  for (int64_t d : out_batch) total *= d;
  std::vector<int64_t> offsets(total, 0);
  for (int64_t b = 0; b < total; ++b) {
    int64_t rest = b, offset = 0;
    for (int d = rank - 1; d >= 0; --d) {
      offset += (rest % out_batch[d]) * strides[d];
      rest /= out_batch[d];
    }
    offsets[b] = offset;
  }
  return offsets;
}

}  // namespace paddle::funcs
