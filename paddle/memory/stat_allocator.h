// Counts the bytes of the allocations passing through it, each at its size(). Every allocator
// chain has two: at the top it counts the bytes handed out to callers (the request rounded up to
// the strategy's alignment: 64 bytes on the CPU, 256 on a GPU; a pass-through allocation of the
// best-fit strategy counts at the size the system allocator reports), and between the strategy
// and the system allocator it counts the bytes reserved from the system.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "paddle/memory/allocator.h"

namespace paddle::memory {

class StatAllocator : public Allocator {
 public:
  explicit StatAllocator(std::shared_ptr<Allocator> underlying);

  // Bytes handed out and not yet freed, and their high-water mark since construction or the
  // last ResetPeak().
  int64_t Current() const { return current_.load(std::memory_order_relaxed); }
  int64_t Peak() const { return peak_.load(std::memory_order_relaxed); }
  void ResetPeak() { peak_.store(Current(), std::memory_order_relaxed); }

  const std::shared_ptr<Allocator>& underlying() const { return underlying_; }
  uint64_t Release(const Place& place) override { return underlying_->Release(place); }
  bool IsAllocThreadSafe() const override { return underlying_->IsAllocThreadSafe(); }
  Place place() const override { return underlying_->place(); }

 protected:
  Allocation* AllocateImpl(size_t size) override;
  void FreeImpl(Allocation* allocation) override;

 private:
  std::shared_ptr<Allocator> underlying_;
  std::atomic<int64_t> current_{0};
  std::atomic<int64_t> peak_{0};
};

}  // namespace paddle::memory
