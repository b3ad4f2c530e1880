#include "paddle/distributed/process_group.h"

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
  }
  done_cv_.notify_all();
}

}  // namespace paddle::distributed
