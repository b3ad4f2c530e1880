#include "paddle/memory/retry_allocator.h"

#include "paddle/common/errors.h"

namespace paddle::memory {

RetryAllocator::RetryAllocator(std::shared_ptr<Allocator> underlying,
                               std::chrono::milliseconds retry_time)
    : underlying_(std::move(underlying)), retry_time_(retry_time) {
  PD_CHECK(underlying_ != nullptr,
           errors::InvalidArgument("RetryAllocator: no underlying allocator"));
  PD_CHECK(underlying_->IsAllocThreadSafe(),
           errors::InvalidArgument("RetryAllocator: the underlying allocator must be thread safe"));
  PD_CHECK(retry_time.count() > 0,
           errors::InvalidArgument("RetryAllocator: retry_time must be positive, got ",
                                   retry_time.count(), " ms"));
}

Allocation* RetryAllocator::AllocateImpl(size_t size) {
  try {
    return underlying_->Allocate(size).release();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kResourceExhausted) throw;
  }
  auto deadline = std::chrono::steady_clock::now() + retry_time_;
  std::unique_lock<std::mutex> lock(mutex_);
  num_waiting_.fetch_add(1);
  struct Leave {
    std::atomic<int>* count;
    ~Leave() { count->fetch_sub(1); }
  } leave{&num_waiting_};
  while (true) {
    // A free that happened between the failure and taking the lock has already notified; trying
    // once more before waiting covers it.
    try {
      return underlying_->Allocate(size).release();
    } catch (const Error& e) {
      if (e.code() != ErrorCode::kResourceExhausted) throw;
      PD_CHECK(
          std::chrono::steady_clock::now() < deadline,
          errors::ResourceExhausted(e.what(), " (still out of memory after waiting ",
                                    retry_time_.count(), " ms for other threads to free memory)"));
    }
    freed_.wait_until(lock, deadline);
  }
}

void RetryAllocator::FreeImpl(Allocation* allocation) {
  AllocationDeleter{underlying_.get()}(allocation);
  if (num_waiting_.load() > 0) {
    // Taking the mutex orders this notification after a waiter's failed attempt, so the wakeup
    // is not lost between its attempt and its wait.
    std::lock_guard<std::mutex> guard(mutex_);
    freed_.notify_all();
  }
}

}  // namespace paddle::memory
