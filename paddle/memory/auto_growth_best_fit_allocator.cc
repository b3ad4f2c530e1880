#include "paddle/memory/auto_growth_best_fit_allocator.h"

#include <algorithm>
#include <mutex>
#include <string>

#include "paddle/common/errors.h"

namespace paddle::memory {

namespace {
constexpr const char* kName = "AutoGrowthBestFitAllocator";
}  // namespace

AutoGrowthBestFitAllocator::AutoGrowthBestFitAllocator(std::shared_ptr<Allocator> underlying,
                                                       size_t alignment, size_t chunk_size,
                                                       bool free_idle_chunk)
    : underlying_(std::move(underlying)),
      alignment_(alignment),
      free_idle_chunk_(free_idle_chunk),
      pool_(alignment) {
  PD_CHECK(underlying_ != nullptr, errors::InvalidArgument(kName, ": no underlying allocator"));
  PD_CHECK(alignment > 0 && (alignment & (alignment - 1)) == 0,
           errors::InvalidArgument(kName, ": alignment must be a power of two, got ", alignment));
  chunk_size_ = AlignSize(chunk_size, alignment, kName);
}

Allocation* AutoGrowthBestFitAllocator::AllocateImpl(size_t size) {
  size_t aligned = AlignSize(size, alignment_, kName);
  std::lock_guard<SpinLock> guard(lock_);
  BlockPool::Block* block = pool_.Take(aligned);
  if (block == nullptr) {
    pool_.AddChunk(AllocateChunk(size, aligned));
    block = pool_.Take(aligned);
  }
  return block;
}

AllocationPtr AutoGrowthBestFitAllocator::AllocateChunk(size_t request, size_t aligned) {
  size_t bytes = std::max(aligned, chunk_size_);
  std::string error;
  try {
    return underlying_->Allocate(bytes);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kResourceExhausted) throw;
    error = e.what();
  }
  // Idle chunks are memory nobody uses, possibly too small or too scattered for this request;
  // giving them back may let the underlying allocator find one range that fits.
  uint64_t released = pool_.ReleaseIdleChunks();
  if (released > 0) {
    try {
      return underlying_->Allocate(bytes);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::kResourceExhausted) throw;
      error = e.what();
    }
  }
  PD_THROW(errors::ResourceExhausted(
      kName, ": out of memory on ", place().ToString(), ": requested ", request,
      " bytes (a new chunk of ", bytes, " bytes); gave back ", released,
      " bytes of idle chunks, and ", pool_.chunk_bytes(), " bytes stay cached in ",
      pool_.num_chunks(), " chunks in use, of which ", pool_.free_bytes(),
      " bytes are free but in pieces too small. Underlying allocator: ", error));
}

void AutoGrowthBestFitAllocator::FreeImpl(Allocation* allocation) {
  auto* block = static_cast<BlockPool::Block*>(allocation);
  std::lock_guard<SpinLock> guard(lock_);
  BlockPool::Chunk* idle = pool_.Return(block);
  if (idle != nullptr && free_idle_chunk_) pool_.ReleaseChunk(idle);
}

uint64_t AutoGrowthBestFitAllocator::Release(const Place&) {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.ReleaseIdleChunks();
}

size_t AutoGrowthBestFitAllocator::NumChunks() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.num_chunks();
}

size_t AutoGrowthBestFitAllocator::NumFreeBlocks() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.num_free_blocks();
}

size_t AutoGrowthBestFitAllocator::FreeBytes() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.free_bytes();
}

size_t AutoGrowthBestFitAllocator::CachedBytes() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.chunk_bytes();
}

size_t AutoGrowthBestFitAllocator::LargestFreeBlock() const {
  std::lock_guard<SpinLock> guard(lock_);
  return pool_.largest_free_block();
}

}  // namespace paddle::memory
