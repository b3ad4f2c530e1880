// The random generator behind every CPU random op; paddle.seed(s) reseeds it. It is one
// std::mt19937_64 stream that ops draw from in call order, as PaddlePaddle's CPU generator is,
// so a program gives PaddlePaddle's numbers after the same paddle.seed
// (paddle/core/random_draws.h).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "paddle/core/random_draws.h"

namespace paddle {

class Generator {
 public:
  explicit Generator(uint64_t seed) { Seed(seed); }

  void Seed(uint64_t seed);
  uint64_t seed() const { return seed_; }

  // Runs draw(&engine) with the generator to itself, so concurrent ops take disjoint draws.
  template <typename Draw>
  decltype(auto) Use(Draw&& draw) {
    std::lock_guard<std::mutex> lock(mutex_);
    return draw(&engine_);
  }

  // The seed and the engine's state as text (the standard's stream format for the engine), and
  // back; SetState returns false, changing nothing, on text that is not such a state.
  std::string State();
  bool SetState(const std::string& state);

 private:
  std::mutex mutex_;
  uint64_t seed_ = 0;
  random::Engine engine_;
};

Generator& DefaultGenerator();

}  // namespace paddle
