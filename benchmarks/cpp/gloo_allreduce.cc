// Gloo's own all-reduce, without the framework: the baseline of benchmarks/gloo_allreduce_bench.py.
// Debian's libgloo-dev ships no benchmark program, so this is the loop Gloo's benchmark
// (gloo/benchmark/main.cc) runs, on float32 buffers, TCP transport, ranks meeting through a
// FileStore, with one of three algorithms:
//   allreduce         gloo::allreduce, the current API (ring), which the framework calls; it
//                     registers its buffers on every call;
//   ring_chunked      AllreduceRingChunked, the benchmark's default algorithm class;
//   halving_doubling  AllreduceHalvingDoubling.
// The two algorithm classes are built once per size and run repeatedly, as the benchmark does,
// so their buffers are registered once.
//
//   gloo_allreduce ALGORITHM RANK SIZE STORE_DIR BYTES...
// prints one line per size: "bytes mean_seconds median_seconds" per call (Gloo's benchmark
// reports per-call percentiles; the mean carries the scheduler's stalls, the median does not).
#include <gloo/allreduce.h>
#include <gloo/allreduce_halving_doubling.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s ALGORITHM RANK SIZE STORE_DIR BYTES...\n", argv[0]);
    return 2;
  }
  const std::string algorithm = argv[1];
  if (algorithm != "allreduce" && algorithm != "ring_chunked" && algorithm != "halving_doubling") {
    std::fprintf(stderr, "unknown algorithm %s\n", algorithm.c_str());
    return 2;
  }
  ++argv;
  --argc;
  const int rank = std::atoi(argv[1]);
  const int size = std::atoi(argv[2]);
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  gloo::rendezvous::FileStore file_store(argv[3]);
  gloo::rendezvous::PrefixStore store("bench", file_store);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, size);
  context->connectFullMesh(store, device);
  uint32_t tag = 0;
  for (int i = 4; i < argc; ++i) {
    const size_t bytes = std::strtoull(argv[i], nullptr, 10);
    std::vector<float> data(bytes / sizeof(float), 1.0f);
    const int count = static_cast<int>(data.size());
    std::unique_ptr<gloo::Algorithm> prepared;
    if (algorithm == "ring_chunked") {
      prepared = std::make_unique<gloo::AllreduceRingChunked<float>>(
          context, std::vector<float*>{data.data()}, count);
    } else if (algorithm == "halving_doubling") {
      prepared = std::make_unique<gloo::AllreduceHalvingDoubling<float>>(
          context, std::vector<float*>{data.data()}, count);
    }
    std::function<void()> run = [&] { prepared->run(); };
    if (!prepared) {
      run = [&] {
        gloo::AllreduceOptions opts(context);
        opts.setOutput(data.data(), data.size());
        opts.setReduceFunction(
            static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
        opts.setTag(tag++);
        gloo::allreduce(opts);
      };
    }
    // About 128 MiB of payload per size, 5 to 300 calls, after 2 warm-up calls (300 calls of
    // AllreduceRingChunked at 16 KiB take about 5 s: its small chunks stall on TCP here).
    const int iters = static_cast<int>(std::clamp<size_t>((size_t{128} << 20) / bytes, 5, 300));
    run();
    run();
    std::vector<double> seconds;
    for (int k = 0; k < iters; ++k) {
      auto start = std::chrono::steady_clock::now();
      run();
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    double mean = 0;
    for (double s : seconds) mean += s / iters;
    std::nth_element(seconds.begin(), seconds.begin() + iters / 2, seconds.end());
    if (rank == 0) std::printf("%zu %.9f %.9f\n", bytes, mean, seconds[iters / 2]);
  }
  return 0;
}
