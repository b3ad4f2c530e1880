// CommRing: what a static-graph collective kernel (c_allreduce_sum, c_broadcast, ...) needs of
// the communicator its `ring_id` attribute names. The distributed layer registers one per
// process group (ring_id = the group's id, 0 for the default group); the kernels only see this
// interface, so they depend on no transport.
#pragma once

#include <memory>

#include "paddle/core/dense_tensor.h"

namespace paddle {

class CommRing {
 public:
  virtual ~CommRing() = default;
  virtual int nranks() const = 0;
  // `reduce_op`: Paddle's ReduceOp value (0 SUM, 1 MAX, 2 MIN, 3 PROD, 4 AVG). Every call
  // returns when the collective has finished on this rank.
  virtual void AllReduce(DenseTensor* inout, int reduce_op) = 0;
  virtual void Broadcast(DenseTensor* inout, int root) = 0;
  // out holds nranks() x in, concatenated along the first axis.
  virtual void AllGather(const DenseTensor& in, DenseTensor* out) = 0;
  // out is this rank's 1/nranks() share (along the first axis) of the reduction of every `in`.
  virtual void ReduceScatter(const DenseTensor& in, DenseTensor* out, int reduce_op) = 0;
};

// Registers `ring` under `ring_id`; a null ring removes it.
void SetCommRing(int ring_id, std::shared_ptr<CommRing> ring);
// Null when no ring has that id.
std::shared_ptr<CommRing> GetCommRing(int ring_id);

}  // namespace paddle
