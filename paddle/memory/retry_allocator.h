// Waits for memory instead of failing at once (Paddle's RetryAllocator,
// FLAGS_gpu_allocator_retry_time): when the allocator below is out of memory, the request waits
// until another thread frees memory through this allocator and tries again, until `retry_time` has
// passed since the first failure. Several threads sharing one GPU then see a transient peak as a
// delay, not an error.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "paddle/memory/allocator.h"

namespace paddle::memory {

class RetryAllocator : public Allocator {
 public:
  // `underlying` must be thread safe; retry_time must be positive (0 means no retry: leave this
  // allocator out of the chain instead).
  RetryAllocator(std::shared_ptr<Allocator> underlying, std::chrono::milliseconds retry_time);

  const std::shared_ptr<Allocator>& underlying() const { return underlying_; }
  uint64_t Release(const Place& place) override { return underlying_->Release(place); }
  bool IsAllocThreadSafe() const override { return true; }
  Place place() const override { return underlying_->place(); }

 protected:
  Allocation* AllocateImpl(size_t size) override;
  void FreeImpl(Allocation* allocation) override;

 private:
  std::shared_ptr<Allocator> underlying_;
  std::chrono::milliseconds retry_time_;
  std::mutex mutex_;
  std::condition_variable freed_;
  // Frees only take the mutex and notify while someone waits, so the common path stays lock free.
  std::atomic<int> num_waiting_{0};
};

}  // namespace paddle::memory
