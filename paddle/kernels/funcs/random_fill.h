// Parallel, reproducible random draws for the CPU kernels (uniform, gaussian, dropout).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "paddle/core/generator.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

// Note [Random streams]
// A random fill is cut into fixed blocks, each drawn from its own mt19937_64 seeded from
// (seed, block index). The blocks fill in parallel, and a given seed gives the same tensor
// whatever the thread count. seed == 0 takes a fresh seed from the default generator, which
// paddle.seed() resets, so programs are reproducible after paddle.seed(n).
inline constexpr int64_t kRandomBlock = 1 << 16;

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Calls draw(engine, begin, end) for each block of [0, n) with the block's engine.
template <typename Draw>
void RandomFill(int64_t n, int64_t seed, Draw&& draw) {
  uint64_t base = seed != 0 ? static_cast<uint64_t>(seed) : DefaultGenerator().NextSeed();
  int64_t blocks = (n + kRandomBlock - 1) / kRandomBlock;
  ParallelFor(
      blocks,
      [&](int64_t first, int64_t last) {
        for (int64_t b = first; b < last; ++b) {
          std::mt19937_64 engine(SplitMix64(base ^ SplitMix64(static_cast<uint64_t>(b))));
          draw(engine, b * kRandomBlock, std::min(n, (b + 1) * kRandomBlock));
        }
      },
      2);
}

}  // namespace paddle::funcs
