#include "paddle/memory/stream_safe_allocator.h"

#include <gtest/gtest.h>

#include <map>

#include "paddle/memory/auto_growth_best_fit_allocator.h"
#include "tests/cpp/memory/allocator_test_util.h"

namespace paddle::memory {
namespace {

using testing::LimitedAllocator;

// Streams are integers; an event completes when the test finishes the stream's work up to it.
class FakeStreamEvents : public StreamEvents {
 public:
  Event Record(StreamHandle stream) override {
    ++num_events_;
    events_[++last_] = {stream, queued_[stream]};
    return reinterpret_cast<Event>(last_);
  }
  bool Done(Event event) override {
    const Recorded& recorded = events_.at(reinterpret_cast<uintptr_t>(event));
    return finished_[recorded.stream] >= recorded.position;
  }
  void Wait(Event event) override {
    const Recorded& recorded = events_.at(reinterpret_cast<uintptr_t>(event));
    finished_[recorded.stream] = std::max(finished_[recorded.stream], recorded.position);
  }
  void Destroy(Event event) override {
    events_.erase(reinterpret_cast<uintptr_t>(event));
    --num_events_;
  }

  void Enqueue(StreamHandle stream) { ++queued_[stream]; }
  void FinishAll(StreamHandle stream) { finished_[stream] = queued_[stream]; }
  int num_events() const { return num_events_; }

 private:
  struct Recorded {
    StreamHandle stream;
    int position;
  };
  std::map<uintptr_t, Recorded> events_;
  std::map<StreamHandle, int> queued_, finished_;
  uintptr_t last_ = 0;
  int num_events_ = 0;
};

StreamHandle Stream(int id) { return reinterpret_cast<StreamHandle>(static_cast<uintptr_t>(id)); }

struct Fixture {
  explicit Fixture(size_t limit = 1 << 20)
      : events(std::make_shared<FakeStreamEvents>()),
        cache(std::make_shared<AutoGrowthBestFitAllocator>(
            std::make_shared<LimitedAllocator>(limit), 256)),
        allocator(cache, Stream(0), events) {}
  std::shared_ptr<FakeStreamEvents> events;
  std::shared_ptr<AutoGrowthBestFitAllocator> cache;
  StreamSafeAllocator allocator;
};

TEST(StreamSafeAllocator, OwnStreamReusesAtOnce) {
  Fixture f;
  AllocationPtr a = f.allocator.Allocate(4096);
  void* ptr = a->ptr();
  f.allocator.RecordStream(a.get(), Stream(0));  // its own stream: nothing to wait for
  a.reset();
  EXPECT_EQ(f.allocator.NumPending(), 0u);
  EXPECT_EQ(f.events->num_events(), 0) << "no event for single-stream use";
  EXPECT_EQ(f.allocator.Allocate(4096)->ptr(), ptr) << "the next kernel on the stream reuses it";
}

TEST(StreamSafeAllocator, OtherStreamDelaysReuseUntilItsWorkIsDone) {
  Fixture f;
  AllocationPtr a = f.allocator.Allocate(4096);
  void* ptr = a->ptr();
  f.events->Enqueue(Stream(7));  // a copy on stream 7 reads the block
  f.allocator.RecordStream(a.get(), Stream(7));
  f.allocator.RecordStream(a.get(), Stream(7));
  a.reset();
  EXPECT_EQ(f.allocator.NumPending(), 1u);
  EXPECT_EQ(f.events->num_events(), 1) << "one event per recorded stream";
  AllocationPtr b = f.allocator.Allocate(4096);
  EXPECT_NE(b->ptr(), ptr) << "stream 7 may still read the old block";
  EXPECT_EQ(f.allocator.NumPending(), 1u);
  f.events->FinishAll(Stream(7));
  AllocationPtr c = f.allocator.Allocate(4096);
  EXPECT_EQ(c->ptr(), ptr) << "freed once the event completed, then reused best-fit";
  EXPECT_EQ(f.allocator.NumPending(), 0u);
  EXPECT_EQ(f.events->num_events(), 0) << "events are destroyed with their block";
}

TEST(StreamSafeAllocator, OutOfMemoryWaitsForPendingBlocks) {
  Fixture f(8192);
  AllocationPtr a = f.allocator.Allocate(8192);
  f.events->Enqueue(Stream(3));
  f.allocator.RecordStream(a.get(), Stream(3));
  a.reset();
  ASSERT_EQ(f.allocator.NumPending(), 1u);
  AllocationPtr b = f.allocator.Allocate(8192);  // only the pending block can serve it
  EXPECT_NE(b->ptr(), nullptr);
  EXPECT_EQ(f.allocator.NumPending(), 0u);
  EXPECT_THROW(f.allocator.Allocate(8192), Error) << "nothing pending: out of memory is an error";
}

TEST(StreamSafeAllocator, ReleaseWaitsForPendingBlocks) {
  Fixture f;
  AllocationPtr a = f.allocator.Allocate(4096);
  f.events->Enqueue(Stream(2));
  f.allocator.RecordStream(a.get(), Stream(2));
  a.reset();
  EXPECT_GT(f.allocator.Release(CPUPlace()), 0u);
  EXPECT_EQ(f.allocator.NumPending(), 0u);
  EXPECT_EQ(f.cache->NumChunks(), 0u);
}

TEST(StreamSafeAllocator, BadInput) {
  Fixture f;
  EXPECT_THROW(f.allocator.RecordStream(f.allocator.Allocate(0).get(), Stream(1)), Error);
  EXPECT_THROW(StreamSafeAllocator(f.cache, Stream(0), nullptr), Error);
}

}  // namespace
}  // namespace paddle::memory
