#include "paddle/core/generator.h"

#include <sstream>

namespace paddle {

void Generator::Seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  random::SeedFromUserSeed(&engine_, seed);
}

std::string Generator::State() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::ostringstream text;
  text << seed_ << ' ' << engine_;
  return text.str();
}

bool Generator::SetState(const std::string& state) {
  std::istringstream text(state);
  uint64_t seed = 0;
  random::Engine engine;
  text >> seed >> engine;
  if (text.fail()) return false;
  text >> std::ws;
  if (!text.eof()) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  engine_ = engine;
  return true;
}

Generator& DefaultGenerator() {
  static Generator generator(std::random_device{}());
  return generator;
}

}  // namespace paddle
