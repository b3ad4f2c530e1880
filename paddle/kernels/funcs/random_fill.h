// The engine a CPU random op draws from, and fills of any float type from float/double draws.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "paddle/core/generator.h"
#include "paddle/core/random_draws.h"
#include "paddle/kernels/funcs/math_type.h"

namespace paddle::funcs {

// Note [Random streams]
// As in PaddlePaddle, an op with a nonzero `seed` attribute draws from a fresh std::mt19937_64
// seeded with it directly; any other op draws from the default generator's one stream, in call
// order, which paddle.seed(n) resets. The draws are sequential (one engine), so a tensor's
// values do not depend on the thread count, and they are PaddlePaddle's.
template <typename Draw>
void WithRandomEngine(int64_t seed, Draw&& draw) {
  if (seed != 0) {
    random::Engine engine(static_cast<uint64_t>(seed));
    draw(&engine);
    return;
  }
  DefaultGenerator().Use(draw);
}

// Calls fill(buffer, n) with a buffer of MathType<T> (float or double) and stores it in out:
// 16-bit floats are drawn in float and rounded.
template <typename T, typename Fill>
void FillFromDraws(T* out, int64_t n, Fill&& fill) {
  using MT = MathType<T>;
  if constexpr (std::is_same_v<T, MT>) {
    fill(out, n);
  } else {
    std::vector<MT> drawn(static_cast<size_t>(n));
    fill(drawn.data(), n);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(drawn[i]);
  }
}

// One canonical draw in [0, 1) of MathType<T> (std::uniform_real_distribution<T>(0, 1)).
template <typename T>
MathType<T> CanonicalDraw(random::Engine* engine) {
  if constexpr (std::is_same_v<MathType<T>, double>) {
    return random::CanonicalDouble(engine);
  } else {
    return random::CanonicalFloat(engine);
  }
}

}  // namespace paddle::funcs
