// Intra-op parallelism for CPU kernels. OpenMP is the one thread pool of the process: OpenBLAS
// and oneDNN (the OpenMP builds) run on the same threads, so nothing is oversubscribed.
#pragma once

#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace paddle::funcs {

// Below this many elements a kernel stays on the calling thread: waking the pool costs more.
inline constexpr int64_t kParallelThreshold = 1 << 15;

namespace detail {
// fn's one out-of-line copy: ParallelFor calls it from the caller's thread and from the pool, and
// inlining it at both places would compile every kernel loop twice.
template <typename Fn>
[[gnu::noinline]] void RunChunk(Fn& fn, int64_t begin, int64_t end) {
  fn(begin, end);
}
}  // namespace detail

// Calls fn(begin, end) over [0, n) in contiguous chunks, in parallel when n is large.
template <typename Fn>
void ParallelFor(int64_t n, Fn&& fn, int64_t threshold = kParallelThreshold) {
  if (n < threshold || omp_get_max_threads() == 1 || omp_in_parallel()) {
    detail::RunChunk(fn, int64_t{0}, n);
    return;
  }
#pragma omp parallel
  {
    int64_t threads = omp_get_num_threads();
    int64_t id = omp_get_thread_num();
    int64_t chunk = (n + threads - 1) / threads;
    int64_t begin = std::min(n, id * chunk);
    int64_t end = std::min(n, begin + chunk);
    if (begin < end) detail::RunChunk(fn, begin, end);
  }
}

}  // namespace paddle::funcs
