// The allocator chains as a whole: reserved-memory statistics, the out-of-memory message, flag
// validation, and many threads allocating at once on every place.
#include <gflags/gflags.h>
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/common/flags.h"
#include "paddle/memory/cpu_allocator.h"
#include "paddle/memory/device_allocators.h"
#include "paddle/memory/malloc.h"
#include "paddle/memory/retry_allocator.h"
#include "paddle/memory/stat_allocator.h"

DECLARE_string(allocator_strategy);
DECLARE_uint64(initial_cpu_memory_in_mb);
DECLARE_int64(gpu_allocator_retry_time);

namespace paddle::memory {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(AllocatorChain, ReservedCountsAutoGrowthChunksExactly) {
  gflags::FlagSaver saver;
  FLAGS_allocator_strategy = "auto_growth";
  std::unique_ptr<AllocatorChain> chain = CreateAllocatorChain(CPUPlace());
  EXPECT_EQ(chain->reserved->Current(), 0) << "auto_growth holds nothing until asked";
  AllocationPtr small = chain->Allocate(100);
  EXPECT_EQ(chain->allocated->Current(), 128);
  EXPECT_EQ(chain->reserved->Current(), kMiB) << "small requests share a 1 MiB host chunk";
  EXPECT_EQ(chain->largest_free_block(), static_cast<size_t>(kMiB - 128));
  {
    AllocationPtr big = chain->Allocate(3 * kMiB + 1);
    EXPECT_EQ(chain->allocated->Current(), 128 + 3 * kMiB + 64);
    EXPECT_EQ(chain->reserved->Current(), kMiB + 3 * kMiB + 64) << "a chunk of its own";
  }
  EXPECT_EQ(chain->allocated->Current(), 128);
  EXPECT_EQ(chain->reserved->Current(), 4 * kMiB + 64) << "the idle chunk stays cached";
  EXPECT_EQ(chain->largest_free_block(), static_cast<size_t>(3 * kMiB + 64));
  EXPECT_EQ(chain->allocated->Release(CPUPlace()), static_cast<uint64_t>(3 * kMiB + 64));
  EXPECT_EQ(chain->reserved->Current(), kMiB);
  EXPECT_EQ(chain->reserved->Peak(), 4 * kMiB + 64);
  chain->reserved->ResetPeak();
  EXPECT_EQ(chain->reserved->Peak(), kMiB);
  small.reset();
  EXPECT_EQ(chain->allocated->Current(), 0);
  EXPECT_EQ(chain->allocated->Peak(), 128 + 3 * kMiB + 64);
}

TEST(AllocatorChain, ReservedCountsBestFitChunkAndPassThrough) {
  gflags::FlagSaver saver;
  FLAGS_allocator_strategy = "naive_best_fit";
  FLAGS_initial_cpu_memory_in_mb = 2;
  std::unique_ptr<AllocatorChain> chain = CreateAllocatorChain(CPUPlace());
  AllocationPtr small = chain->Allocate(1);
  EXPECT_EQ(chain->reserved->Current(), 2 * kMiB) << "the whole chunk at the first request";
  AllocationPtr huge = chain->Allocate(5 * kMiB);
  EXPECT_EQ(chain->reserved->Current(), 7 * kMiB) << "larger than a chunk: straight through";
  huge.reset();
  EXPECT_EQ(chain->reserved->Current(), 2 * kMiB) << "pass-through memory is not cached";
  EXPECT_EQ(chain->reserved->Peak(), 7 * kMiB);
}

TEST(AllocatorChain, OutOfMemorySaysWhatWasAskedAndWhatIsHeld) {
  std::unique_ptr<AllocatorChain> chain = CreateAllocatorChain(CPUPlace());
  AllocationPtr held = chain->Allocate(1000);
  uint64_t impossible = TotalHostMemory() * 2 + 12345;
  try {
    chain->Allocate(impossible);
    FAIL() << "expected ResourceExhausted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceExhausted);
    std::string message = e.what();
    for (const std::string& part : std::vector<std::string>{
             "Out of memory on Place(cpu)", "cannot allocate " + std::to_string(impossible),
             "1024 bytes are allocated", std::to_string(kMiB) + " bytes reserved",
             "largest free block in its cache is " + std::to_string(kMiB - 1024), "bytes free",
             "CPUAllocator"}) {
      EXPECT_NE(message.find(part), std::string::npos) << "missing '" << part << "' in " << message;
    }
  }
  EXPECT_EQ(chain->allocated->Current(), 1024) << "a failed request leaves the chain as it was";
}

TEST(AllocatorChain, FacadeRaisesTheMessageToo) {
  try {
    Alloc(CPUPlace(), TotalHostMemory() * 4);
    FAIL() << "expected ResourceExhausted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceExhausted);
    EXPECT_NE(std::string(e.what()).find("bytes reserved"), std::string::npos) << e.what();
  }
}

void ExpectRejected(const std::string& flag, const std::string& value, const std::string& hint) {
  std::string before = flags::Get(flag);
  try {
    flags::Set(flag, value);
    ADD_FAILURE() << flag << "=" << value << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    std::string message = e.what();
    EXPECT_NE(message.find("FLAGS_" + flag), std::string::npos) << message;
    EXPECT_NE(message.find("'" + value + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(hint), std::string::npos) << message;
  }
  EXPECT_EQ(flags::Get(flag), before) << "a rejected value leaves the flag as it was";
}

TEST(AllocatorFlags, ImpossibleValuesAreRejected) {
  ExpectRejected("allocator_strategy", "buddy", "auto_growth");
  ExpectRejected("fraction_of_gpu_memory_to_use", "0", "(0, 1]");
  ExpectRejected("fraction_of_gpu_memory_to_use", "-0.5", "(0, 1]");
  ExpectRejected("fraction_of_gpu_memory_to_use", "1.5", "(0, 1]");
  ExpectRejected("fraction_of_gpu_memory_to_use", "half", "double");
  ExpectRejected("initial_cpu_memory_in_mb", "0", "positive");
  ExpectRejected("initial_gpu_memory_in_mb", "-1", "uint64");
  ExpectRejected("gpu_memory_limit_mb", "lots", "uint64");
  gflags::FlagSaver saver;
  flags::Set("fraction_of_gpu_memory_to_use", "0.5");
  EXPECT_EQ(flags::Get("fraction_of_gpu_memory_to_use"), "0.5");
  flags::Set("FLAGS_allocator_strategy", "naive_best_fit");
  EXPECT_EQ(FLAGS_allocator_strategy, "naive_best_fit");
}

// Many threads allocate and free random sizes through one chain. Every live block is registered
// in a shared map, so an overlap between threads is seen at once; on the host each block also
// carries a per-thread pattern that must survive until it is freed. At the end nothing is
// allocated and, once the cache is released, nothing is reserved.
void StressChain(AllocatorChain& chain, bool host_memory) {
  constexpr int kThreads = 8;
  constexpr int kOpsPerThread = 3000;
  std::mutex ranges_mutex;
  std::map<uintptr_t, uintptr_t> ranges;
  std::vector<std::string> failures(kThreads);
  auto worker = [&](int thread) {
    std::mt19937 rng(thread + 1);
    std::vector<AllocationPtr> live;
    auto release = [&](size_t index) {
      Allocation& a = *live[index];
      if (host_memory) {
        const auto* bytes = static_cast<const uint8_t*>(a.ptr());
        for (size_t i = 0; i < a.size(); i += 61) {
          if (bytes[i] != static_cast<uint8_t>(thread))
            failures[thread] = "a block was overwritten";
        }
      }
      {
        std::lock_guard<std::mutex> guard(ranges_mutex);
        ranges.erase(reinterpret_cast<uintptr_t>(a.ptr()));
      }
      std::swap(live[index], live.back());
      live.pop_back();
    };
    for (int op = 0; op < kOpsPerThread && failures[thread].empty(); ++op) {
      if (live.empty() || rng() % 100 < 55) {
        // Mostly activations of a few KiB, sometimes a weight-sized block of a few MiB.
        size_t size = rng() % 50 == 0 ? (1 << 20) + rng() % (3 << 20) : 1 + rng() % (64 << 10);
        AllocationPtr a = chain.Allocate(size);
        auto begin = reinterpret_cast<uintptr_t>(a->ptr());
        auto end = begin + a->size();
        {
          std::lock_guard<std::mutex> guard(ranges_mutex);
          auto next = ranges.lower_bound(begin);
          if ((next != ranges.end() && next->first < end) ||
              (next != ranges.begin() && std::prev(next)->second > begin)) {
            failures[thread] = "two live blocks overlap";
          }
          ranges.emplace(begin, end);
        }
        if (host_memory) std::memset(a->ptr(), thread, a->size());
        live.push_back(std::move(a));
      } else {
        release(rng() % live.size());
      }
    }
    while (!live.empty()) release(live.size() - 1);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  EXPECT_EQ(chain.allocated->Current(), 0);
  EXPECT_GT(chain.allocated->Peak(), 0);
  EXPECT_GE(chain.reserved->Peak(), chain.allocated->Peak());
  chain.allocated->Release(chain.place);
  EXPECT_EQ(chain.reserved->Current(), 0) << "every chunk was idle and went back";
}

TEST(AllocatorStress, CPUAutoGrowth) {
  gflags::FlagSaver saver;
  FLAGS_allocator_strategy = "auto_growth";
  StressChain(*CreateAllocatorChain(CPUPlace()), /*host_memory=*/true);
}

TEST(AllocatorStress, CPUNaiveBestFit) {
  gflags::FlagSaver saver;
  FLAGS_allocator_strategy = "naive_best_fit";
  FLAGS_initial_cpu_memory_in_mb = 8;
  StressChain(*CreateAllocatorChain(CPUPlace()), /*host_memory=*/true);
}

TEST(AllocatorStress, GPUAndPinned) {
  if (GetGPUDeviceCount() == 0) GTEST_SKIP() << "no GPU";
  gflags::FlagSaver saver;
  for (const char* strategy : {"auto_growth", "naive_best_fit"}) {
    SCOPED_TRACE(strategy);
    FLAGS_allocator_strategy = strategy;
    StressChain(*CreateAllocatorChain(GPUPlace(0)), /*host_memory=*/false);
    StressChain(*CreateAllocatorChain(GPUPinnedPlace()), /*host_memory=*/true);
  }
}

TEST(AllocatorChain, GPUChainRetriesAndIsStreamSafe) {
  if (GetGPUDeviceCount() == 0) GTEST_SKIP() << "no GPU";
  gflags::FlagSaver saver;
  FLAGS_gpu_allocator_retry_time = 100;
  std::unique_ptr<AllocatorChain> chain = CreateAllocatorChain(GPUPlace(0));
  EXPECT_NE(dynamic_cast<RetryAllocator*>(chain->allocated->underlying().get()), nullptr);
  ASSERT_NE(chain->stream_safe, nullptr);
  size_t free_bytes = 0, total_bytes = 0;
  GetGPUMemoryInfo(0, &free_bytes, &total_bytes);
  try {
    chain->Allocate(total_bytes * 2);
    FAIL() << "expected ResourceExhausted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceExhausted);
    EXPECT_NE(std::string(e.what()).find("Place(gpu:0)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("after waiting 100 ms"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace paddle::memory
