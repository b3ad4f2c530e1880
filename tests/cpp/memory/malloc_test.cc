#include "paddle/memory/malloc.h"

#include <gflags/gflags.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include "paddle/memory/auto_growth_best_fit_allocator.h"
#include "paddle/memory/best_fit_allocator.h"
#include "paddle/memory/device_allocators.h"
#include "paddle/memory/stat_allocator.h"
#include "tests/cpp/memory/allocator_test_util.h"

DECLARE_string(allocator_strategy);
DECLARE_uint64(initial_cpu_memory_in_mb);

namespace paddle::memory {
namespace {

using testing::RandomOps;
using testing::RandomOpsOptions;

TEST(Malloc, AllocatesOnCPU) {
  std::shared_ptr<Allocation> a = Alloc(CPUPlace(), 4);
  ASSERT_NE(a->ptr(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->ptr()) % 64, 0u);
  EXPECT_GE(a->size(), 4u);
  EXPECT_EQ(a->place(), CPUPlace());
  std::memset(a->ptr(), 1, a->size());

  AllocationPtr b = AllocUnique(CPUPlace(), 1000);
  ASSERT_NE(b->ptr(), nullptr);
  EXPECT_NE(b->ptr(), a->ptr());

  std::shared_ptr<Allocation> empty = Alloc(CPUPlace(), 0);
  EXPECT_EQ(empty->ptr(), nullptr);
  EXPECT_EQ(empty->place(), CPUPlace()) << "an empty tensor still knows its place";
}

TEST(Malloc, StatisticsPerPlace) {
  Alloc(CPUPlace(), 1);  // the chain exists from here on
  int64_t base = StatCurrent(CPUPlace());
  ResetPeak(CPUPlace());
  EXPECT_EQ(StatPeak(CPUPlace()), base);

  std::shared_ptr<Allocation> a = Alloc(CPUPlace(), 100);
  EXPECT_EQ(a->size(), 128u) << "CPU requests round up to 64 bytes";
  EXPECT_EQ(StatCurrent(CPUPlace()), base + 128);
  {
    AllocationPtr b = AllocUnique(CPUPlace(), 1 << 20);
    EXPECT_EQ(StatCurrent(CPUPlace()), base + 128 + (1 << 20));
  }
  EXPECT_EQ(StatCurrent(CPUPlace()), base + 128);
  EXPECT_EQ(StatPeak(CPUPlace()), base + 128 + (1 << 20));
  ResetPeak(CPUPlace());
  EXPECT_EQ(StatPeak(CPUPlace()), base + 128);
  a.reset();
  EXPECT_EQ(StatCurrent(CPUPlace()), base);

  // Places never allocated on report zero without creating anything.
  EXPECT_EQ(StatCurrent(GPUPinnedPlace()), 0);
  EXPECT_EQ(StatPeak(GPUPlace(3)), 0);
  EXPECT_EQ(Release(GPUPlace(3)), 0u);
}

TEST(Malloc, ReleaseReturnsCachedMemory) {
  Alloc(CPUPlace(), 3 << 20).reset();  // a chunk of its own, idle once freed
  EXPECT_GE(Release(CPUPlace()), uint64_t{3} << 20);
  EXPECT_EQ(Release(CPUPlace()), 0u);
}

TEST(Malloc, UndefinedPlaceIsAnError) {
  try {
    Alloc(Place(), 4);
    FAIL() << "expected InvalidArgument";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  }
}

TEST(Malloc, GPUWithoutDevicesIsAnError) {
  if (GetGPUDeviceCount() > 0) GTEST_SKIP() << "a GPU is present";
  try {
    Alloc(GPUPlace(0), 4);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    // Unimplemented in a build without CUDA, InvalidArgument on a machine without a GPU.
    EXPECT_TRUE(e.code() == ErrorCode::kUnimplemented || e.code() == ErrorCode::kInvalidArgument)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("gpu:0"), std::string::npos) << e.what();
  }
}

TEST(Malloc, AllocatesOnGPU) {
  if (GetGPUDeviceCount() == 0) GTEST_SKIP() << "no GPU";
  std::shared_ptr<Allocation> a = Alloc(GPUPlace(0), 1000);
  ASSERT_NE(a->ptr(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->ptr()) % 256, 0u);
  EXPECT_EQ(a->size(), 1024u);
  EXPECT_EQ(a->place(), GPUPlace(0));
  EXPECT_EQ(StatCurrent(GPUPlace(0)), 1024);
  std::shared_ptr<Allocation> pinned = Alloc(GPUPinnedPlace(), 100);
  ASSERT_NE(pinned->ptr(), nullptr);
  EXPECT_EQ(pinned->place(), GPUPinnedPlace());
  std::memset(pinned->ptr(), 3, 100);
  EXPECT_EQ(Alloc(GPUPlace(0), 0)->place(), GPUPlace(0));
  EXPECT_THROW(Alloc(GPUPlace(GetGPUDeviceCount()), 4), Error);
}

TEST(Malloc, ChainFollowsTheStrategyFlag) {
  gflags::FlagSaver saver;  // restores the flags when the test ends
  for (const char* strategy : {"auto_growth", "naive_best_fit"}) {
    SCOPED_TRACE(strategy);
    FLAGS_allocator_strategy = strategy;
    FLAGS_initial_cpu_memory_in_mb = 1;  // keep the pre-allocated CPU chunk small
    std::unique_ptr<AllocatorChain> chain = CreateAllocatorChain(CPUPlace());
    Allocator* strategy_allocator = chain->allocated->underlying().get();
    bool auto_growth = std::string(strategy) == "auto_growth";
    EXPECT_EQ(dynamic_cast<AutoGrowthBestFitAllocator*>(strategy_allocator) != nullptr,
              auto_growth);
    EXPECT_EQ(dynamic_cast<BestFitAllocator*>(strategy_allocator) != nullptr, !auto_growth);

    RandomOpsOptions options;
    options.seed = 5;
    options.large_size = 2 << 20;  // beyond a chunk of either strategy
    options.expected_rounding = 64;
    RandomOps ops(options);
    auto result = ops.Run(*chain->allocated, /*keep_live=*/true);
    ASSERT_FALSE(HasFailure());
    EXPECT_EQ(chain->allocated->Current(), result.live_bytes_at_end);
    EXPECT_EQ(chain->allocated->Peak(), result.peak_live_bytes);
    EXPECT_GE(chain->reserved->Peak(), result.peak_live_bytes);
    ops.FreeAll();
    EXPECT_EQ(chain->allocated->Current(), 0);
    EXPECT_GT(chain->allocated->Release(CPUPlace()), 0u);
    EXPECT_EQ(chain->reserved->Current(), 0) << "every chunk was idle and went back";
  }
}

TEST(Malloc, UnknownStrategyIsAnError) {
  gflags::FlagSaver saver;
  FLAGS_allocator_strategy = "buddy";
  try {
    CreateAllocatorChain(CPUPlace());
    FAIL() << "expected InvalidArgument";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("'buddy'"), std::string::npos) << e.what();
  }
}

// A loose bound that catches a system call per allocation; the real figure is printed.
TEST(Malloc, SmallAllocationsAreCheapWhenWarm) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "timings under a sanitizer mean nothing";
#endif
  Alloc(CPUPlace(), 4);
  constexpr int kIterations = 200000;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kIterations; ++i) {
    std::shared_ptr<Allocation> a = Alloc(CPUPlace(), 4);
    if (a->ptr() == nullptr) FAIL();
  }
  double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      kIterations;
  std::printf("Alloc+free of 4 bytes: %.1f ns\n", ns);
  EXPECT_LT(ns, 2000.0);
}

}  // namespace
}  // namespace paddle::memory
