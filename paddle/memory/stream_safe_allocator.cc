#include "paddle/memory/stream_safe_allocator.h"

#include <algorithm>

#include "paddle/common/errors.h"

namespace paddle::memory {

StreamSafeAllocator::StreamSafeAllocator(std::shared_ptr<Allocator> underlying, StreamHandle stream,
                                         std::shared_ptr<StreamEvents> events)
    : underlying_(std::move(underlying)), stream_(stream), events_(std::move(events)) {
  PD_CHECK(underlying_ != nullptr,
           errors::InvalidArgument("StreamSafeAllocator: no underlying allocator"));
  PD_CHECK(underlying_->IsAllocThreadSafe(),
           errors::InvalidArgument("StreamSafeAllocator: the underlying allocator must be thread "
                                   "safe"));
  PD_CHECK(events_ != nullptr, errors::InvalidArgument("StreamSafeAllocator: no StreamEvents"));
}

StreamSafeAllocator::~StreamSafeAllocator() { FreePending(/*wait=*/true); }

void StreamSafeAllocator::RecordStream(const Allocation* allocation, StreamHandle stream) {
  PD_CHECK(allocation != nullptr && allocation->ptr() != nullptr,
           errors::InvalidArgument("RecordStream: the allocation is empty"));
  if (stream == stream_) return;
  std::lock_guard<std::mutex> guard(mutex_);
  std::vector<StreamHandle>& streams = other_streams_[allocation];
  if (std::find(streams.begin(), streams.end(), stream) == streams.end()) {
    streams.push_back(stream);
  }
  num_recorded_.store(other_streams_.size(), std::memory_order_release);
}

size_t StreamSafeAllocator::NumPending() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return pending_.size();
}

Allocation* StreamSafeAllocator::AllocateImpl(size_t size) {
  FreePending(/*wait=*/false);
  try {
    return underlying_->Allocate(size).release();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kResourceExhausted) throw;
    // Blocks other streams still use are memory that will be free soon: wait for them.
    if (FreePending(/*wait=*/true) == 0) throw;
  }
  return underlying_->Allocate(size).release();
}

void StreamSafeAllocator::FreeImpl(Allocation* allocation) {
  if (num_recorded_.load(std::memory_order_acquire) > 0) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto it = other_streams_.find(allocation);
    if (it != other_streams_.end()) {
      Pending pending{allocation, {}};
      for (StreamHandle stream : it->second) pending.events.push_back(events_->Record(stream));
      other_streams_.erase(it);
      pending_.push_back(std::move(pending));
      num_recorded_.store(other_streams_.size(), std::memory_order_release);
      num_pending_.store(pending_.size(), std::memory_order_release);
      return;
    }
  }
  AllocationDeleter{underlying_.get()}(allocation);
}

size_t StreamSafeAllocator::FreePending(bool wait) {
  if (num_pending_.load(std::memory_order_acquire) == 0) return 0;
  std::vector<Allocation*> ready;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    auto done = [&](Pending& pending) {
      for (StreamEvents::Event event : pending.events) {
        if (wait) {
          events_->Wait(event);
        } else if (!events_->Done(event)) {
          return false;
        }
      }
      for (StreamEvents::Event event : pending.events) events_->Destroy(event);
      ready.push_back(pending.allocation);
      return true;
    };
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(), done), pending_.end());
    num_pending_.store(pending_.size(), std::memory_order_release);
  }
  for (Allocation* allocation : ready) AllocationDeleter{underlying_.get()}(allocation);
  return ready.size();
}

uint64_t StreamSafeAllocator::Release(const Place& place) {
  FreePending(/*wait=*/true);
  return underlying_->Release(place);
}

}  // namespace paddle::memory
