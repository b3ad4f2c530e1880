// Gloo's own all-reduce, without the framework: the baseline of benchmarks/gloo_allreduce_bench.py.
// Debian's libgloo-dev ships no benchmark program, so this is the loop Gloo's benchmark runs
// (gloo::allreduce on float32 buffers, TCP transport, ranks meeting through a FileStore).
//
//   gloo_allreduce RANK SIZE STORE_DIR BYTES...
// prints one line per size: "bytes seconds_per_call".
#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s RANK SIZE STORE_DIR BYTES...\n", argv[0]);
    return 2;
  }
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
    auto run = [&] {
      gloo::AllreduceOptions opts(context);
      opts.setOutput(data.data(), data.size());
      opts.setReduceFunction(
          static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
      opts.setTag(tag++);
      gloo::allreduce(opts);
    };
    // About 256 MiB of payload per size, 5 to 2000 calls, after 2 warm-up calls.
    const int iters = static_cast<int>(std::clamp<size_t>((size_t{256} << 20) / bytes, 5, 2000));
    run();
    run();
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < iters; ++k) run();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / iters;
    if (rank == 0) std::printf("%zu %.9f\n", bytes, seconds);
  }
  return 0;
}
