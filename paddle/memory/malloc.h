// The facade every tensor allocates through: memory::Alloc(place, bytes) picks the allocator chain
// for the place (chosen by FLAGS_allocator_strategy) and keeps per-place statistics of the bytes
// handed out (allocated) and the bytes the chain holds from the system (reserved).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "paddle/common/place.h"
#include "paddle/memory/allocator.h"
#include "paddle/memory/stream_safe_allocator.h"

namespace paddle::memory {

class StatAllocator;

// One place's allocators, top to bottom:
//   allocated (statistics) -> [GPU: retry -> stream-safe] -> strategy -> reserved (statistics)
//   -> system allocator.
struct AllocatorChain {
  Place place;
  // Counts every allocation handed out: its size() is the request rounded to the alignment.
  std::shared_ptr<StatAllocator> allocated;
  // Counts what the strategy took from the system: cached chunks, used or not, and the requests
  // too large for a chunk.
  std::shared_ptr<StatAllocator> reserved;
  std::shared_ptr<StreamSafeAllocator> stream_safe;  // GPU chains only
  // The largest request the cache can serve without asking the system.
  std::function<size_t()> largest_free_block;

  // Allocates through the chain; out of memory is a ResourceExhausted error that says what was
  // requested, what is allocated and reserved, what the device has free and the largest free
  // block in the cache.
  AllocationPtr Allocate(size_t size);
};

std::shared_ptr<Allocation> Alloc(const Place& place, size_t size);
AllocationPtr AllocUnique(const Place& place, size_t size);

// Bytes currently handed out to callers for `place`, and the high-water mark since the last reset.
int64_t StatCurrent(const Place& place);
int64_t StatPeak(const Place& place);
void ResetPeak(const Place& place);
// Bytes the place's chain holds from the system (cached or handed out), and their high-water mark.
int64_t ReservedCurrent(const Place& place);
int64_t ReservedPeak(const Place& place);
void ResetReservedPeak(const Place& place);

// Returns cached but unused memory of `place` to the system.
uint64_t Release(const Place& place);

// Marks that work queued on `stream` (a cudaStream_t) uses `allocation`, a GPU allocation from
// Alloc: its memory is reused by other streams only after that work has finished. A no-op for
// places without streams.
void RecordStream(const Allocation& allocation, StreamHandle stream);

// Builds a new allocator chain for `place` from the current flags. Alloc builds one chain per
// place on first use and keeps it for the life of the process, so flags changed later only
// affect chains built afterwards; tests build their own chains to try other values.
std::unique_ptr<AllocatorChain> CreateAllocatorChain(const Place& place);

}  // namespace paddle::memory
