// Stream-ordered reuse (Paddle's StreamSafeCUDAAllocator): memory freed while work queued on a
// stream may still read or write it. Work on the allocator's own stream runs in queue order, so a
// block used only there is reused at once, for the next kernel on that stream. A block that
// RecordStream() marked as used by other streams goes back to the cache only after an event
// recorded on each of those streams at the free has completed; until then it is pending, and
// every allocation first returns the pending blocks whose events are done.
//
// Streams and events are behind StreamEvents, so the logic is tested on the CPU with fake
// streams; cuda_allocator.cc provides the CUDA events.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "paddle/memory/allocator.h"

namespace paddle::memory {

// A stream as the allocator sees it: an opaque handle (a cudaStream_t on CUDA).
using StreamHandle = void*;

class StreamEvents {
 public:
  using Event = void*;
  virtual ~StreamEvents() = default;
  // An event that completes when the work queued on `stream` so far has finished.
  virtual Event Record(StreamHandle stream) = 0;
  virtual bool Done(Event event) = 0;
  // Blocks until the event has completed.
  virtual void Wait(Event event) = 0;
  virtual void Destroy(Event event) = 0;
};

class StreamSafeAllocator : public Allocator {
 public:
  // Allocations belong to `stream`; the underlying allocator must be thread safe.
  StreamSafeAllocator(std::shared_ptr<Allocator> underlying, StreamHandle stream,
                      std::shared_ptr<StreamEvents> events);
  ~StreamSafeAllocator() override;

  // Marks that work queued on `stream` uses `allocation` (one this allocator handed out and not
  // yet freed). Recording the allocator's own stream changes nothing.
  void RecordStream(const Allocation* allocation, StreamHandle stream);

  StreamHandle stream() const { return stream_; }
  // Blocks freed but waiting for other streams.
  size_t NumPending() const;

  // Waits for every pending block, then releases the cache below.
  uint64_t Release(const Place& place) override;
  bool IsAllocThreadSafe() const override { return true; }
  Place place() const override { return underlying_->place(); }

 protected:
  Allocation* AllocateImpl(size_t size) override;
  void FreeImpl(Allocation* allocation) override;

 private:
  struct Pending {
    Allocation* allocation;
    std::vector<StreamEvents::Event> events;
  };
  // Frees the pending blocks whose events are done (all of them when `wait`); returns how many.
  size_t FreePending(bool wait);

  std::shared_ptr<Allocator> underlying_;
  StreamHandle stream_;
  std::shared_ptr<StreamEvents> events_;
  mutable std::mutex mutex_;
  // Other streams recorded for live allocations; empty in single-stream use, which keeps the
  // common free a single check.
  std::unordered_map<const Allocation*, std::vector<StreamHandle>> other_streams_;
  std::vector<Pending> pending_;
  // Sizes of the two containers above, read without the lock on the hot paths.
  std::atomic<size_t> num_recorded_{0};
  std::atomic<size_t> num_pending_{0};
};

}  // namespace paddle::memory
