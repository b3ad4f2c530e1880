// ProcessGroup: the collectives of one group of ranks, as PaddlePaddle's ProcessGroup. Operations
// run one at a time in call order (on the group's communication thread, or on the caller's for a
// synchronous one when nothing is queued) and return a Task; sync_op waits for it before
// returning. Ranks issue the same operations in the same order, which is what makes the call
// order a valid matching between ranks. Tensors are dense, row-major and
// on the group's device; the collective reads and writes their buffers in place.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "paddle/core/tensor.h"

namespace paddle::distributed {

// Paddle's ReduceOp values (paddle.distributed.ReduceOp).
enum class ReduceOp { SUM = 0, MAX = 1, MIN = 2, PROD = 3, AVG = 4 };
const char* ReduceOpName(ReduceOp op);

class Task {
 public:
  virtual ~Task() = default;
  virtual bool IsCompleted();
  // Blocks until the operation finished; rethrows its error.
  virtual void Wait();
  void Finish(std::exception_ptr error);
  // When Finish was called (the epoch of the steady clock before): DataParallel's overlap
  // measurement reads it.
  std::chrono::steady_clock::time_point finished_at();

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::chrono::steady_clock::time_point finished_at_;
  std::exception_ptr error_;
};

struct GroupOptions {
  int rank = 0;            // this process's rank in the group
  int size = 1;            // ranks in the group
  int gid = 0;             // the group's id, the same on every rank
  std::vector<int> ranks;  // the global rank of each group rank (for messages)
  std::chrono::milliseconds timeout{1800 * 1000};
  // Compare the shape and dtype of every rank's tensor (one small allgather) before a
  // collective's payload; a mismatch raises on every rank instead of corrupting data.
  bool check_tensors = true;
};

class ProcessGroup {
 public:
  explicit ProcessGroup(GroupOptions options) : options_(std::move(options)) {}
  virtual ~ProcessGroup() = default;

  int rank() const { return options_.rank; }
  int size() const { return options_.size; }
  int gid() const { return options_.gid; }
  const GroupOptions& options() const { return options_; }
  virtual std::string backend() const = 0;

  virtual std::shared_ptr<Task> AllReduce(Tensor tensor, ReduceOp op, bool sync_op) = 0;
  virtual std::shared_ptr<Task> Broadcast(Tensor tensor, int root, bool sync_op) = 0;
  // The reduction lands in `tensor` on `root`; other ranks' tensors are left as they were.
  virtual std::shared_ptr<Task> Reduce(Tensor tensor, int root, ReduceOp op, bool sync_op) = 0;
  // out = the ranks' `in` concatenated along the first axis (out has size() * in.numel()).
  virtual std::shared_ptr<Task> AllGather(Tensor out, Tensor in, bool sync_op) = 0;
  // out = rank()'s chunk of the reduction of every rank's `in` (in has size() chunks of out).
  virtual std::shared_ptr<Task> ReduceScatter(Tensor out, Tensor in, ReduceOp op, bool sync_op) = 0;
  // out = chunk rank() of root's `in` (size() chunks of out's size; ignored on other ranks).
  virtual std::shared_ptr<Task> Scatter(Tensor out, Tensor in, int root, bool sync_op) = 0;
  // Chunk j of `in` goes to rank j; chunk i of `out` comes from rank i.
  virtual std::shared_ptr<Task> AllToAll(Tensor out, Tensor in, bool sync_op) = 0;
  virtual std::shared_ptr<Task> Send(Tensor tensor, int dst, bool sync_op) = 0;
  virtual std::shared_ptr<Task> Recv(Tensor tensor, int src, bool sync_op) = 0;
  virtual std::shared_ptr<Task> Barrier() = 0;

 protected:
  GroupOptions options_;
};

// Makes `group` the CommRing `ring_id` of the static-graph collective ops (null removes it).
void RegisterCommRing(int ring_id, std::shared_ptr<ProcessGroup> group);

}  // namespace paddle::distributed
