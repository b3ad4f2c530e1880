#include "paddle/distributed/process_group.h"

#include "paddle/core/comm_ring.h"

namespace paddle::distributed {

const char* ReduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::SUM:
      return "SUM";
    case ReduceOp::MAX:
      return "MAX";
    case ReduceOp::MIN:
      return "MIN";
    case ReduceOp::PROD:
      return "PROD";
    case ReduceOp::AVG:
      return "AVG";
  }
  return "?";
}

bool Task::IsCompleted() {
  std::lock_guard<std::mutex> lock(mutex_);
  return done_;
}

void Task::Wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [this] { return done_; });
  if (error_) std::rethrow_exception(error_);
}

void Task::Finish(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    error_ = std::move(error);
    finished_at_ = std::chrono::steady_clock::now();
  }
  done_cv_.notify_all();
}

std::chrono::steady_clock::time_point Task::finished_at() {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_at_;
}

namespace {

// A kernel's DenseTensor as a Tensor the group can take; the kernel owns it and every call
// waits, so no ownership is shared.
Tensor Borrow(const DenseTensor& t) {
  return Tensor(
      std::shared_ptr<DenseTensor>(std::shared_ptr<DenseTensor>(), const_cast<DenseTensor*>(&t)));
}

class ProcessGroupRing : public CommRing {
 public:
  explicit ProcessGroupRing(std::shared_ptr<ProcessGroup> group) : group_(std::move(group)) {}
  int nranks() const override { return group_->size(); }
  void AllReduce(DenseTensor* inout, int reduce_op) override {
    group_->AllReduce(Borrow(*inout), static_cast<ReduceOp>(reduce_op), true);
  }
  void Broadcast(DenseTensor* inout, int root) override {
    group_->Broadcast(Borrow(*inout), root, true);
  }
  void AllGather(const DenseTensor& in, DenseTensor* out) override {
    group_->AllGather(Borrow(*out), Borrow(in), true);
  }
  void ReduceScatter(const DenseTensor& in, DenseTensor* out, int reduce_op) override {
    group_->ReduceScatter(Borrow(*out), Borrow(in), static_cast<ReduceOp>(reduce_op), true);
  }

 private:
  std::shared_ptr<ProcessGroup> group_;
};

}  // namespace

void RegisterCommRing(int ring_id, std::shared_ptr<ProcessGroup> group) {
  SetCommRing(ring_id, group ? std::make_shared<ProcessGroupRing>(std::move(group)) : nullptr);
}

}  // namespace paddle::distributed
