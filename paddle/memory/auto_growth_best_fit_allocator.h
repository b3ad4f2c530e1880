// The default strategy ("auto_growth"): holds no memory until asked, grows by chunks of
// max(request, chunk_size) taken from the underlying allocator, serves requests best-fit from
// the cached chunks, and when the underlying allocator is out of memory gives back the chunks
// nobody uses and tries once more. Several processes can share a GPU this way, unlike with a
// pre-allocating strategy.
#pragma once

#include <memory>

#include "paddle/memory/allocator.h"
#include "paddle/memory/block_pool.h"
#include "paddle/memory/spin_lock.h"

namespace paddle::memory {

class AutoGrowthBestFitAllocator : public Allocator {
 public:
  // `alignment` (a power of two) is both the block granularity and the alignment every block
  // gets; the underlying allocator must return memory aligned to it. chunk_size 0 makes each
  // chunk exactly as large as the request that needed it. With free_idle_chunk a chunk goes back
  // to the underlying allocator as soon as it is entirely free.
  AutoGrowthBestFitAllocator(std::shared_ptr<Allocator> underlying, size_t alignment,
                             size_t chunk_size = 0, bool free_idle_chunk = false);

  // Gives the entirely free chunks back to the underlying allocator.
  uint64_t Release(const Place& place) override;
  bool IsAllocThreadSafe() const override { return true; }
  Place place() const override { return underlying_->place(); }

  // The cache's state, for tests and memory reports.
  size_t NumChunks() const;
  size_t NumFreeBlocks() const;
  size_t FreeBytes() const;
  size_t CachedBytes() const;
  size_t LargestFreeBlock() const;

 protected:
  // The allocation's size is the request rounded up to the alignment.
  Allocation* AllocateImpl(size_t size) override;
  void FreeImpl(Allocation* allocation) override;

 private:
  AllocationPtr AllocateChunk(size_t request, size_t aligned);

  std::shared_ptr<Allocator> underlying_;
  size_t alignment_;
  size_t chunk_size_ = 0;
  bool free_idle_chunk_;
  mutable SpinLock lock_;
  BlockPool pool_;
};

}  // namespace paddle::memory
