#include "paddle/memory/retry_allocator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "paddle/memory/auto_growth_best_fit_allocator.h"
#include "tests/cpp/memory/allocator_test_util.h"

namespace paddle::memory {
namespace {

using std::chrono::milliseconds;
using testing::LimitedAllocator;

constexpr size_t kKiB = 1024;

// 1 MiB of memory behind a thread-safe cache, as on a GPU.
std::shared_ptr<Allocator> SmallDevice() {
  return std::make_shared<AutoGrowthBestFitAllocator>(
      std::make_shared<LimitedAllocator>(1024 * kKiB), 256);
}

TEST(RetryAllocator, WaitsForAnotherThreadToFree) {
  RetryAllocator retry(SmallDevice(), milliseconds(5000));
  AllocationPtr held = retry.Allocate(768 * kKiB);
  auto start = std::chrono::steady_clock::now();
  std::thread freer([&] {
    std::this_thread::sleep_for(milliseconds(100));
    held.reset();
  });
  AllocationPtr waited = retry.Allocate(512 * kKiB);  // fits only once `held` is freed
  double waited_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  freer.join();
  ASSERT_NE(waited->ptr(), nullptr);
  EXPECT_GE(waited_ms, 90.0) << "it had to wait for the free";
  EXPECT_LT(waited_ms, 4000.0) << "it woke at the free, not at the deadline";
}

TEST(RetryAllocator, FailsAfterTheRetryTime) {
  RetryAllocator retry(SmallDevice(), milliseconds(50));
  AllocationPtr held = retry.Allocate(768 * kKiB);
  auto start = std::chrono::steady_clock::now();
  try {
    retry.Allocate(512 * kKiB);
    FAIL() << "expected ResourceExhausted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceExhausted);
    EXPECT_NE(std::string(e.what()).find("after waiting 50 ms"), std::string::npos) << e.what();
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(50));
}

TEST(RetryAllocator, RejectsBadConstruction) {
  EXPECT_THROW(RetryAllocator(SmallDevice(), milliseconds(0)), Error);
  EXPECT_THROW(RetryAllocator(std::make_shared<LimitedAllocator>(kKiB), milliseconds(1)), Error)
      << "a thread-unsafe allocator below would race";
}

}  // namespace
}  // namespace paddle::memory
