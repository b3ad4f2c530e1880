// ProcessGroupNCCL: the GPU collectives on NCCL (built with WITH_GPU). Rank 0 makes the NCCL
// unique id and shares it through the TCPStore; each rank's communicator runs on one stream of
// its device. The stream is a blocking stream, so it is ordered with the legacy default stream
// the kernels use: a collective sees the results of the kernels queued before it, and kernels
// queued after it see its output. A Task completes when an event recorded after the collective
// has passed; a wait that outlives the group's timeout aborts the communicator and names the
// ranks that exited.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "paddle/distributed/process_group.h"
#include "paddle/distributed/tcp_store.h"

namespace paddle::distributed {

class ProcessGroupNCCL : public ProcessGroup {
 public:
  ProcessGroupNCCL(std::shared_ptr<TCPStore> store, int device, GroupOptions options);
  ~ProcessGroupNCCL() override;

  std::string backend() const override { return "nccl"; }

  std::shared_ptr<Task> AllReduce(Tensor tensor, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> Broadcast(Tensor tensor, int root, bool sync_op) override;
  std::shared_ptr<Task> Reduce(Tensor tensor, int root, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> AllGather(Tensor out, Tensor in, bool sync_op) override;
  std::shared_ptr<Task> ReduceScatter(Tensor out, Tensor in, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> Scatter(Tensor out, Tensor in, int root, bool sync_op) override;
  std::shared_ptr<Task> AllToAll(Tensor out, Tensor in, bool sync_op) override;
  std::shared_ptr<Task> Send(Tensor tensor, int dst, bool sync_op) override;
  std::shared_ptr<Task> Recv(Tensor tensor, int src, bool sync_op) override;
  std::shared_ptr<Task> Barrier() override;

 private:
  struct Impl;
  // Records completion of the work queued so far, keeping `keep` alive until then.
  std::shared_ptr<Task> Finish(const char* name, std::vector<Tensor> keep, bool sync_op);
  std::string DescribeFailure(const char* name, const std::string& cause) const;

  std::shared_ptr<TCPStore> store_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace paddle::distributed
