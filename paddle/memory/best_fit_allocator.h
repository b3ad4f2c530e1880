// The pre-allocating strategy ("naive_best_fit"): takes memory from the underlying allocator in
// big chunks (on a GPU a large fraction of the device at once) and serves requests best-fit from
// them. A request larger than a chunk goes straight to the underlying allocator. Chunks stay
// cached until Release() gives back the ones that are entirely free.
#pragma once

#include <memory>

#include "paddle/memory/allocator.h"
#include "paddle/memory/block_pool.h"
#include "paddle/memory/spin_lock.h"

namespace paddle::memory {

class BestFitAllocator : public Allocator {
 public:
  // The first chunk holds chunk_size bytes and later ones later_chunk_size (0: chunk_size too),
  // or the request when that is larger; requests above both go to the underlying allocator.
  // `alignment` (a power of two) is the block granularity and the alignment every block gets; the
  // underlying allocator must return memory aligned to it.
  BestFitAllocator(std::shared_ptr<Allocator> underlying, size_t chunk_size, size_t alignment = 256,
                   size_t later_chunk_size = 0);

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
  AllocationPtr AllocateChunk(size_t aligned);

  std::shared_ptr<Allocator> underlying_;
  size_t alignment_;
  size_t first_chunk_size_;
  size_t later_chunk_size_;
  // Blocks are never larger and pass-through allocations always larger, which tells them apart
  // on free.
  size_t max_chunk_size_;
  mutable SpinLock lock_;
  BlockPool pool_;
};

}  // namespace paddle::memory
