// Allocation/free throughput of the caching allocator (memory::Alloc on the CPU, both strategies)
// against malloc/free, for the sizes a ResNet-18 training step allocates (batch 32, 112x112
// images): forward allocates each layer's activation and keeps it, with a short-lived workspace
// per layer; backward frees the activations in reverse order while allocating and freeing the
// gradients of activations and weights. Two figures per allocator: the allocator calls alone
// (memory untouched), and with one byte written per 4 KiB page of each block, as the kernel that
// fills it would: memory the system hands out afresh is then paid for in page faults, which a
// cache that keeps its pages avoids.
//
//     alloc_bench [steps]      (a hundredth of them with pages written) prints one JSON line: ns
//     per allocate+free pair for each allocator
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "paddle/memory/malloc.h"
#include "paddle/memory/stat_allocator.h"

DECLARE_string(allocator_strategy);

namespace {

struct Event {
  bool allocate;
  size_t size;  // bytes, for an allocation
  int slot;     // which live block
};

// The allocation sequence of one training step.
std::vector<Event> TrainingStepTrace(int* num_slots) {
  const size_t batch = 32, f = sizeof(float);
  struct Layer {
    size_t channels, spatial, weight;
  };
  std::vector<Layer> layers;
  size_t spatial = 56;  // after the stem at 112x112
  layers.push_back({64, spatial, 3 * 64 * 7 * 7});
  for (size_t stage = 0, channels = 64; stage < 4; ++stage, channels *= 2) {
    if (stage > 0) spatial /= 2;
    for (int conv = 0; conv < 4; ++conv) {
      size_t cin = conv == 0 && stage > 0 ? channels / 2 : channels;
      layers.push_back({channels, spatial, cin * channels * 9});
    }
  }
  std::vector<Event> trace;
  int slots = 0;
  std::vector<int> activations;
  for (const Layer& l : layers) {
    // conv out, bn out (+ saved mean/variance), relu out; a workspace freed at once
    int workspace = slots++;
    trace.push_back({true, batch * l.channels * l.spatial * l.spatial * f / 4, workspace});
    for (int t = 0; t < 3; ++t) {
      activations.push_back(slots);
      trace.push_back({true, batch * l.channels * l.spatial * l.spatial * f, slots++});
    }
    for (int t = 0; t < 2; ++t) {
      activations.push_back(slots);
      trace.push_back({true, l.channels * f, slots++});
    }
    trace.push_back({false, 0, workspace});
  }
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    const Layer& l = *it;
    int grad_in = slots++, grad_w = slots++, grad_scale = slots++, grad_bias = slots++;
    trace.push_back({true, batch * l.channels * l.spatial * l.spatial * f, grad_in});
    trace.push_back({true, l.weight * f, grad_w});
    trace.push_back({true, l.channels * f, grad_scale});
    trace.push_back({true, l.channels * f, grad_bias});
    for (int t = 0; t < 5; ++t) {
      trace.push_back({false, 0, activations.back()});
      activations.pop_back();
    }
    for (int slot : {grad_in, grad_w, grad_scale, grad_bias}) trace.push_back({false, 0, slot});
  }
  *num_slots = slots;
  return trace;
}

constexpr size_t kPage = 4096;

template <typename AllocateFn, typename FreeFn, typename DataFn>
double NanosecondsPerPair(const std::vector<Event>& trace, int slots, int steps, bool touch,
                          AllocateFn allocate, FreeFn free_block, DataFn data) {
  std::vector<void*> live(slots, nullptr);
  size_t pairs = 0;
  auto run = [&] {
    for (const Event& e : trace) {
      if (e.allocate) {
        live[e.slot] = allocate(e.size);
        if (touch) {
          volatile char* bytes = static_cast<char*>(data(live[e.slot]));
          for (size_t i = 0; i < e.size; i += kPage) bytes[i] = 1;
        }
        ++pairs;
      } else {
        free_block(live[e.slot]);
      }
    }
  };
  run();  // warm: the caching allocator fills its cache, malloc its arenas
  pairs = 0;
  auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) run();
  double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  return ns / static_cast<double>(pairs);
}

double Malloc(const std::vector<Event>& trace, int slots, int steps, bool touch) {
  return NanosecondsPerPair(
      trace, slots, steps, touch, [](size_t size) { return std::malloc(size); },
      [](void* ptr) { std::free(ptr); }, [](void* ptr) { return ptr; });
}

double CachingAllocator(const std::string& strategy, const std::vector<Event>& trace, int slots,
                        int steps, bool touch) {
  FLAGS_allocator_strategy = strategy;
  std::unique_ptr<paddle::memory::AllocatorChain> chain =
      paddle::memory::CreateAllocatorChain(paddle::CPUPlace());
  // The live blocks are kept as raw Allocation pointers, like malloc's, and freed through the
  // chain's deleter.
  return NanosecondsPerPair(
      trace, slots, steps, touch,
      [&](size_t size) { return static_cast<void*>(chain->Allocate(size).release()); },
      [&](void* allocation) {
        paddle::memory::AllocationPtr(static_cast<paddle::memory::Allocation*>(allocation),
                                      paddle::memory::AllocationDeleter{chain->allocated.get()});
      },
      [](void* allocation) { return static_cast<paddle::memory::Allocation*>(allocation)->ptr(); });
}

}  // namespace

int main(int argc, char** argv) {
  int steps_untouched = argc > 1 ? std::atoi(argv[1]) : 200;
  int slots = 0;
  std::vector<Event> trace = TrainingStepTrace(&slots);
  std::printf("{\"allocations_per_step\": %zu", trace.size() / 2);
  for (bool touch : {false, true}) {
    const char* suffix = touch ? "_touched_ns" : "_ns";
    // Touched steps take milliseconds per fresh block under malloc: a few steps suffice.
    int steps = touch ? std::max(1, steps_untouched / 100) : steps_untouched;
    std::printf(", \"malloc%s\": %.1f", suffix, Malloc(trace, slots, steps, touch));
    std::printf(", \"auto_growth%s\": %.1f", suffix,
                CachingAllocator("auto_growth", trace, slots, steps, touch));
    std::printf(", \"naive_best_fit%s\": %.1f", suffix,
                CachingAllocator("naive_best_fit", trace, slots, steps, touch));
  }
  std::printf("}\n");
  return 0;
}
