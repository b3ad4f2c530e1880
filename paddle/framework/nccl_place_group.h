// NCCLPlaceGroup: the NCCL communicators of one process over several GPU places
// (ncclCommInitAll), for the ParallelExecutor's gradient all-reduce and the Reduce strategy's
// reduce and broadcast. Built with WITH_GPU only. Each place has a stream of its own; a
// collective first makes that stream wait for the work queued so far on the place's
// GPUContext stream (so it sees the gradients the kernels wrote), runs every place's call in
// one ncclGroupStart/ncclGroupEnd, and returns once the streams are done, so the ops after it
// (and the release of buffers it used) see the result. Collectives from several threads are
// serialised: every communicator must see them in the same order.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "paddle/common/place.h"
#include "paddle/core/dense_tensor.h"

namespace paddle::framework {

class NCCLPlaceGroup {
 public:
  // `places`: distinct GPU places, at least one.
  explicit NCCLPlaceGroup(std::vector<Place> places);
  ~NCCLPlaceGroup();
  NCCLPlaceGroup(const NCCLPlaceGroup&) = delete;
  NCCLPlaceGroup& operator=(const NCCLPlaceGroup&) = delete;

  // For each tensor list t of the bucket (t[p] on place p, one dtype and size on every place):
  // every t[p] becomes the sum over places, in new storage (a gradient's buffer may be shared
  // with another variable, so it is not written). One NCCL group for the whole bucket.
  void AllReduce(const std::vector<std::vector<DenseTensor*>>& bucket);
  // As AllReduce, but only t[root] receives the sum; the others keep their values.
  void Reduce(const std::vector<std::vector<DenseTensor*>>& bucket, int root);
  // Every tensors[p] becomes a copy of tensors[root]; each must already hold its bytes.
  void Broadcast(const std::vector<DenseTensor*>& tensors, int root);

 private:
  struct Impl;
  template <typename Enqueue>
  void Run(const char* call, Enqueue enqueue);
  std::string Describe() const;
  // An unallocated tensor of each t[p]'s meta, allocated on the receiving places (all for
  // root -1, else the root).
  std::vector<std::vector<DenseTensor>> NewBuffers(
      const std::vector<std::vector<DenseTensor*>>& bucket, int root) const;

  std::vector<Place> places_;
  std::unique_ptr<Impl> impl_;
  std::mutex mutex_;
};

}  // namespace paddle::framework
