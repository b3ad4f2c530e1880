#include "paddle/memory/best_fit_allocator.h"

#include <algorithm>
#include <mutex>

#include "paddle/common/errors.h"

namespace paddle::memory {

namespace {
constexpr const char* kName = "BestFitAllocator";
}  // namespace

BestFitAllocator::BestFitAllocator(std::shared_ptr<Allocator> underlying, size_t chunk_size,
                                   size_t alignment, size_t later_chunk_size)
    : underlying_(std::move(underlying)), alignment_(alignment), pool_(alignment) {
  PD_CHECK(underlying_ != nullptr, errors::InvalidArgument(kName, ": no underlying allocator"));
  PD_CHECK(alignment > 0 && (alignment & (alignment - 1)) == 0,
           errors::InvalidArgument(kName, ": alignment must be a power of two, got ", alignment));
  PD_CHECK(chunk_size > 0, errors::InvalidArgument(kName, ": chunk_size must be positive"));
  first_chunk_size_ = AlignSize(chunk_size, alignment, kName);
  later_chunk_size_ =
      later_chunk_size == 0 ? first_chunk_size_ : AlignSize(later_chunk_size, alignment, kName);
  max_chunk_size_ = std::max(first_chunk_size_, later_chunk_size_);
}

Allocation* BestFitAllocator::AllocateImpl(size_t size) {
  size_t aligned = AlignSize(size, alignment_, kName);
  // The underlying allocator is only ever called under the lock, so it need not be thread safe.
  std::lock_guard<SpinLock> guard(lock_);
  if (aligned > max_chunk_size_) return underlying_->Allocate(aligned).release();
  BlockPool::Block* block = pool_.Take(aligned);
  if (block == nullptr) {
    pool_.AddChunk(AllocateChunk(aligned));
    block = pool_.Take(aligned);
  }
  return block;
}

AllocationPtr BestFitAllocator::AllocateChunk(size_t aligned) {
  size_t bytes = std::max(pool_.num_chunks() == 0 ? first_chunk_size_ : later_chunk_size_, aligned);
  if (bytes == aligned) return underlying_->Allocate(bytes);
  try {
    return underlying_->Allocate(bytes);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kResourceExhausted) throw;
  }
  // The first chunk may have taken most of the device; grow by just this request instead.
  return underlying_->Allocate(aligned);
}

void BestFitAllocator::FreeImpl(Allocation* allocation) {
  std::lock_guard<SpinLock> guard(lock_);
  if (allocation->size() > max_chunk_size_) {
    AllocationDeleter{underlying_.get()}(allocation);
  } else {
    pool_.Return(static_cast<BlockPool::Block*>(allocation));
  }
}

uint64_t BestFitAllocator::Release(const Place&) {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.ReleaseIdleChunks();
}

size_t BestFitAllocator::NumChunks() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.num_chunks();
}

size_t BestFitAllocator::NumFreeBlocks() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.num_free_blocks();
}

size_t BestFitAllocator::FreeBytes() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.free_bytes();
}

size_t BestFitAllocator::CachedBytes() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.chunk_bytes();
}

size_t BestFitAllocator::LargestFreeBlock() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.largest_free_block();
}

}  // namespace paddle::memory
