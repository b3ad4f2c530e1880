// The allocator facade: one allocator chain per place, built on first use from the flags below
// (Paddle's names and defaults), and the per-place statistics kept at the top of each chain.
#include "paddle/memory/malloc.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/memory/auto_growth_best_fit_allocator.h"
#include "paddle/memory/best_fit_allocator.h"
#include "paddle/memory/cpu_allocator.h"
#include "paddle/memory/device_allocators.h"
#include "paddle/memory/retry_allocator.h"
#include "paddle/memory/stat_allocator.h"

DEFINE_string(allocator_strategy, "auto_growth",
              "How memory is cached: auto_growth (grow by chunks on demand, give idle chunks back "
              "when out of memory) or naive_best_fit (pre-allocate big chunks). Read when a "
              "place's allocator is first used.");
DEFINE_uint64(auto_growth_chunk_size_in_mb, 0,
              "Smallest chunk the auto_growth strategy takes from a GPU, in MiB (0: each chunk "
              "is as large as the request that needs it).");
DEFINE_bool(free_idle_chunk, false,
            "auto_growth: give a chunk back to the system as soon as it is entirely free, "
            "instead of caching it.");
DEFINE_uint64(initial_cpu_memory_in_mb, 500,
              "naive_best_fit: chunk size on the CPU in MiB (positive), capped at 1/32 of "
              "physical memory.");
DEFINE_double(fraction_of_gpu_memory_to_use, 0.92,
              "naive_best_fit: size of a GPU chunk as a fraction in (0, 1] of the available GPU "
              "memory (free memory less 5% kept for the CUDA runtime and libraries).");
DEFINE_uint64(initial_gpu_memory_in_mb, 0,
              "naive_best_fit: size of the first GPU chunk in MiB (0: use "
              "fraction_of_gpu_memory_to_use).");
DEFINE_uint64(reallocate_gpu_memory_in_mb, 0,
              "naive_best_fit: size of later GPU chunks in MiB (0: use "
              "fraction_of_gpu_memory_to_use).");
DEFINE_uint64(gpu_memory_limit_mb, 0,
              "Most memory this process takes from one GPU, in MiB (0: no limit).");
DEFINE_int64(gpu_allocator_retry_time, 10000,
             "How long, in milliseconds, a GPU allocation that finds the device out of memory "
             "waits for other threads to free memory before it fails (0 or less: no waiting).");

namespace {
// set_flags and FLAGS_<name> environment variables reject what no chain could be built from.
bool ValidateStrategy(const char*, const std::string& value) {
  return value == "auto_growth" || value == "naive_best_fit";
}
bool ValidateFraction(const char*, double value) { return value > 0 && value <= 1; }
bool ValidatePositive(const char*, uint64_t value) { return value > 0; }
}  // namespace
DEFINE_validator(allocator_strategy, &ValidateStrategy);
DEFINE_validator(fraction_of_gpu_memory_to_use, &ValidateFraction);
DEFINE_validator(initial_cpu_memory_in_mb, &ValidatePositive);

namespace paddle::memory {

namespace {

constexpr size_t kMiB = size_t{1} << 20;
// Host chunks for auto_growth: large enough that small tensors are carved from a cached chunk
// (an allocation is then a few pointer updates), small enough that an idle one wastes little.
constexpr size_t kHostChunkSize = kMiB;
// cudaMalloc returns 256-byte aligned memory; blocks keep that alignment.
constexpr size_t kGPUAlignment = 256;

enum class Strategy { kAutoGrowth, kNaiveBestFit };

Strategy StrategyFromFlag() {
  if (FLAGS_allocator_strategy == "auto_growth") return Strategy::kAutoGrowth;
  if (FLAGS_allocator_strategy == "naive_best_fit") return Strategy::kNaiveBestFit;
  PD_THROW(
      errors::InvalidArgument("FLAGS_allocator_strategy must be auto_growth or "
                              "naive_best_fit, got '",
                              FLAGS_allocator_strategy, "'"));
}

// The strategy allocator and what the chain asks it for besides memory.
struct StrategyParts {
  std::shared_ptr<Allocator> allocator;
  std::function<size_t()> largest_free_block;
};

template <typename StrategyAllocator>
StrategyParts MakeParts(std::shared_ptr<StrategyAllocator> allocator) {
  StrategyAllocator* raw = allocator.get();
  return {std::move(allocator), [raw] { return raw->LargestFreeBlock(); }};
}

// CPU and pinned memory: blocks aligned like the CPU system allocator's memory.
StrategyParts CreateHostStrategy(std::shared_ptr<Allocator> system, Strategy strategy,
                                 size_t (*best_fit_chunk_size)()) {
  if (strategy == Strategy::kAutoGrowth) {
    return MakeParts(std::make_shared<AutoGrowthBestFitAllocator>(
        std::move(system), CPUAllocator::kDefaultAlignment, kHostChunkSize, FLAGS_free_idle_chunk));
  }
  return MakeParts(std::make_shared<BestFitAllocator>(std::move(system), best_fit_chunk_size(),
                                                      CPUAllocator::kDefaultAlignment));
}

// Paddle's chunk size rule for the CPU: FLAGS_initial_cpu_memory_in_mb, at most 1/32 of the
// machine. The chunk is only reserved address space until its pages are touched.
size_t CPUBestFitChunkSize() {
  PD_CHECK(FLAGS_initial_cpu_memory_in_mb > 0,
           errors::InvalidArgument("FLAGS_initial_cpu_memory_in_mb must be positive for the "
                                   "naive_best_fit strategy, got 0"));
  size_t chunk = FLAGS_initial_cpu_memory_in_mb * kMiB;
  uint64_t total = TotalHostMemory();
  return total >= 32 * kMiB ? std::min<size_t>(chunk, total / 32) : chunk;
}

// Page-locked memory is committed at once, so its chunks are smaller: Paddle budgets half the
// machine for pinned memory and takes 1/256 of that per chunk.
size_t PinnedBestFitChunkSize() {
  return std::max<size_t>(TotalHostMemory() / 512, kHostChunkSize);
}

StrategyParts CreateGPUStrategy(std::shared_ptr<Allocator> system, int device, Strategy strategy) {
  if (strategy == Strategy::kAutoGrowth) {
    return MakeParts(std::make_shared<AutoGrowthBestFitAllocator>(
        std::move(system), kGPUAlignment, FLAGS_auto_growth_chunk_size_in_mb * kMiB,
        FLAGS_free_idle_chunk));
  }
  size_t first = FLAGS_initial_gpu_memory_in_mb * kMiB;
  size_t later = FLAGS_reallocate_gpu_memory_in_mb * kMiB;
  if (first == 0 || later == 0) {
    double fraction = FLAGS_fraction_of_gpu_memory_to_use;
    PD_CHECK(fraction > 0 && fraction <= 1,
             errors::InvalidArgument("FLAGS_fraction_of_gpu_memory_to_use must be in (0, 1], got ",
                                     fraction));
    size_t free_bytes = 0, total_bytes = 0;
    GetGPUMemoryInfo(device, &free_bytes, &total_bytes);
    size_t available = free_bytes - free_bytes / 20;
    if (FLAGS_gpu_memory_limit_mb > 0) {
      available = std::min<size_t>(available, FLAGS_gpu_memory_limit_mb * kMiB);
    }
    size_t by_fraction = static_cast<size_t>(static_cast<double>(available) * fraction);
    PD_CHECK(by_fraction > 0,
             errors::ResourceExhausted("Place(gpu:", device,
                                       ") has no memory available: ", free_bytes, " bytes free"));
    if (first == 0) first = by_fraction;
    if (later == 0) later = by_fraction;
  }
  return MakeParts(
      std::make_shared<BestFitAllocator>(std::move(system), first, kGPUAlignment, later));
}

// Free memory of the device behind `place`, or -1 when it cannot be asked.
int64_t DeviceFreeBytes(const Place& place) {
  if (place.type() == AllocationType::GPU) {
    try {
      size_t free_bytes = 0, total_bytes = 0;
      GetGPUMemoryInfo(place.device(), &free_bytes, &total_bytes);
      return static_cast<int64_t>(free_bytes);
    } catch (const Error&) {
      return -1;
    }
  }
  return static_cast<int64_t>(AvailableHostMemory());
}

// The chains Alloc uses, one slot per place (CPU, pinned, then each GPU), read without a lock
// once built.
class Facade {
 public:
  AllocatorChain* Get(const Place& place) {
    std::atomic<AllocatorChain*>& slot = chains_[Slot(place)];
    AllocatorChain* chain = slot.load(std::memory_order_acquire);
    if (chain != nullptr) return chain;
    std::lock_guard<std::mutex> guard(mutex_);
    chain = slot.load(std::memory_order_relaxed);
    if (chain == nullptr) {
      owned_.push_back(CreateAllocatorChain(place));
      chain = owned_.back().get();
      slot.store(chain, std::memory_order_release);
    }
    return chain;
  }

  // nullptr until the place's first allocation.
  AllocatorChain* Find(const Place& place) const {
    return chains_[Slot(place)].load(std::memory_order_acquire);
  }

 private:
  static constexpr int kMaxGPUs = 128;  // Place keeps the device in an int8

  static int Slot(const Place& place) {
    switch (place.type()) {
      case AllocationType::CPU:
        return 0;
      case AllocationType::GPUPINNED:
        return 1;
      case AllocationType::GPU:
        PD_CHECK(place.device() >= 0,
                 errors::InvalidArgument("invalid GPU device ", place.device()));
        return 2 + place.device();
      case AllocationType::UNDEFINED:
        break;
    }
    PD_THROW(errors::InvalidArgument("cannot allocate memory on an undefined place"));
  }

  std::array<std::atomic<AllocatorChain*>, 2 + kMaxGPUs> chains_{};
  std::mutex mutex_;
  std::vector<std::unique_ptr<AllocatorChain>> owned_;
};

Facade& GetFacade() {
  // Never destroyed: tensors held by static objects are freed after main returns, and their
  // allocations go back through these chains.
  static Facade* facade = new Facade();
  return *facade;
}

}  // namespace

AllocationPtr AllocatorChain::Allocate(size_t size) {
  try {
    return allocated->Allocate(size);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kResourceExhausted) throw;
    PD_THROW(errors::ResourceExhausted(
        "Out of memory on ", place.ToString(), ": cannot allocate ", size, " bytes; ",
        allocated->Current(), " bytes are allocated and ", reserved->Current(),
        " bytes reserved by the allocator, the largest free block in its cache is ",
        largest_free_block(), " bytes, and the device has ", DeviceFreeBytes(place),
        " bytes free. Cause: ", e.what()));
  }
}

std::unique_ptr<AllocatorChain> CreateAllocatorChain(const Place& place) {
  Strategy strategy = StrategyFromFlag();
  auto chain = std::make_unique<AllocatorChain>();
  chain->place = place;
  StrategyParts parts;
  switch (place.type()) {
    case AllocationType::CPU:
      chain->reserved = std::make_shared<StatAllocator>(std::make_shared<CPUAllocator>());
      parts = CreateHostStrategy(chain->reserved, strategy, CPUBestFitChunkSize);
      break;
    case AllocationType::GPUPINNED:
      chain->reserved = std::make_shared<StatAllocator>(CreatePinnedAllocator());
      parts = CreateHostStrategy(chain->reserved, strategy, PinnedBestFitChunkSize);
      break;
    case AllocationType::GPU: {
      chain->reserved = std::make_shared<StatAllocator>(CreateCUDAAllocator(place.device()));
      parts = CreateGPUStrategy(chain->reserved, place.device(), strategy);
      // Kernels run on the legacy default stream (GPUContext); other streams record their use.
      chain->stream_safe = std::make_shared<StreamSafeAllocator>(
          parts.allocator, /*stream=*/nullptr, CreateCUDAStreamEvents(place.device()));
      parts.allocator = chain->stream_safe;
      if (FLAGS_gpu_allocator_retry_time > 0) {
        parts.allocator = std::make_shared<RetryAllocator>(
            std::move(parts.allocator), std::chrono::milliseconds(FLAGS_gpu_allocator_retry_time));
      }
      break;
    }
    case AllocationType::UNDEFINED:
      PD_THROW(errors::InvalidArgument("cannot allocate memory on an undefined place"));
  }
  chain->allocated = std::make_shared<StatAllocator>(std::move(parts.allocator));
  chain->largest_free_block = std::move(parts.largest_free_block);
  return chain;
}

std::shared_ptr<Allocation> Alloc(const Place& place, size_t size) {
  return GetFacade().Get(place)->Allocate(size);
}

AllocationPtr AllocUnique(const Place& place, size_t size) {
  return GetFacade().Get(place)->Allocate(size);
}

int64_t StatCurrent(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  return chain == nullptr ? 0 : chain->allocated->Current();
}

int64_t StatPeak(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  return chain == nullptr ? 0 : chain->allocated->Peak();
}

void ResetPeak(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  if (chain != nullptr) chain->allocated->ResetPeak();
}

int64_t ReservedCurrent(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  return chain == nullptr ? 0 : chain->reserved->Current();
}

int64_t ReservedPeak(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  return chain == nullptr ? 0 : chain->reserved->Peak();
}

void ResetReservedPeak(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  if (chain != nullptr) chain->reserved->ResetPeak();
}

uint64_t Release(const Place& place) {
  AllocatorChain* chain = GetFacade().Find(place);
  return chain == nullptr ? 0 : chain->allocated->Release(place);
}

void RecordStream(const Allocation& allocation, StreamHandle stream) {
  AllocatorChain* chain = GetFacade().Find(allocation.place());
  if (chain != nullptr && chain->stream_safe != nullptr) {
    chain->stream_safe->RecordStream(&allocation, stream);
  }
}

}  // namespace paddle::memory
