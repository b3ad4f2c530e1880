#include "paddle/core/comm_ring.h"

#include <map>
#include <mutex>

namespace paddle {

namespace {

std::mutex& RingMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<int, std::shared_ptr<CommRing>>& Rings() {
  static std::map<int, std::shared_ptr<CommRing>> rings;
  return rings;
}

}  // namespace

void SetCommRing(int ring_id, std::shared_ptr<CommRing> ring) {
  std::lock_guard<std::mutex> lock(RingMutex());
  if (ring) {
    Rings()[ring_id] = std::move(ring);
  } else {
    Rings().erase(ring_id);
  }
}

std::shared_ptr<CommRing> GetCommRing(int ring_id) {
  std::lock_guard<std::mutex> lock(RingMutex());
  auto it = Rings().find(ring_id);
  return it == Rings().end() ? nullptr : it->second;
}

}  // namespace paddle
