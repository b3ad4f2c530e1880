// CPU kernels of the random ops of random.yaml. Each draws as PaddlePaddle's CPU kernel does,
// in the same order, from the engine of Note [Random streams] (funcs/random_fill.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/common/place.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/random_fill.h"

namespace paddle {

// Integers in [low, high), each by Lemire's method over high - low (random::UniformIndex).
template <typename T, typename Context>
void RandintKernel(const Context& ctx, int32_t low, int32_t high, const std::vector<int64_t>& shape,
                   DataType dtype, int32_t seed, const Place& place, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const int64_t n = out->numel();
  const uint64_t range = static_cast<uint64_t>(static_cast<int64_t>(high) - low);
  funcs::WithRandomEngine(seed, [&](random::Engine* engine) {
    for (int64_t i = 0; i < n; ++i) {
      o[i] = static_cast<T>(low + static_cast<int64_t>(random::UniformIndex(engine, range)));
    }
  });
}

// 0 .. n-1 shuffled as std::shuffle does (random::Shuffle).
template <typename T, typename Context>
void RandpermKernel(const Context& ctx, int64_t n, DataType dtype, int32_t seed, const Place& place,
                    DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  std::vector<int64_t> permutation(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) permutation[i] = i;
  funcs::WithRandomEngine(
      seed, [&](random::Engine* engine) { random::Shuffle(engine, permutation.data(), n); });
  for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(permutation[i]);
}

// 1 where a canonical draw of MathType<T> is below the probability x[i], else 0.
template <typename T, typename Context>
void BernoulliKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  using MT = MathType<T>;
  const T* p = x.data<T>();
  const int64_t n = x.numel();
  for (int64_t i = 0; i < n; ++i) {
    const MT v = static_cast<MT>(p[i]);
    PD_CHECK(v >= MT(0) && v <= MT(1),
             errors::InvalidArgument("bernoulli: the probabilities in 'x' must be in [0, 1], "
                                     "received ",
                                     static_cast<double>(v), " at index ", i));
  }
  T* o = ctx.template Alloc<T>(out);
  funcs::WithRandomEngine(0, [&](random::Engine* engine) {
    for (int64_t i = 0; i < n; ++i) {
      o[i] = static_cast<T>(funcs::CanonicalDraw<T>(engine) < static_cast<MT>(p[i]) ? 1 : 0);
    }
  });
}

// A Poisson count of mean x[i] per element (random::Poisson, a fresh distribution each).
template <typename T, typename Context>
void PoissonKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  const T* rate = x.data<T>();
  const int64_t n = x.numel();
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(rate[i]);
    // Beyond int's range the count cannot be represented (PaddlePaddle loops forever there).
    PD_CHECK(v >= 0 && v < static_cast<double>(std::numeric_limits<int>::max()),
             errors::InvalidArgument("poisson: the rates in 'x' must be in [0, 2^31 - 1), "
                                     "received ",
                                     v, " at index ", i));
  }
  T* o = ctx.template Alloc<T>(out);
  funcs::WithRandomEngine(0, [&](random::Engine* engine) {
    for (int64_t i = 0; i < n; ++i) {
      o[i] = static_cast<T>(random::Poisson(engine, static_cast<double>(rate[i])));
    }
  });
}

// Categories drawn by inverting each row's normalised cumulative sum in T at a canonical draw
// of T (the first category whose cumulative probability is >= the draw). Without replacement
// the drawn category's mass is removed from the cumulative sums, renormalised, before the next.
template <typename T, typename Context>
void MultinomialKernel(const Context& ctx, const DenseTensor& x, int64_t num_samples,
                       bool replacement, DenseTensor* out) {
  const int64_t categories = x.dims()[x.dims().size() - 1];
  const int64_t rows = categories == 0 ? 0 : x.numel() / categories;
  const T* probs = x.data<T>();
  int64_t* o = ctx.template Alloc<int64_t>(out);
  std::vector<T> cumulative(static_cast<size_t>(categories));
  for (int64_t r = 0; r < rows; ++r) {
    T sum = 0;
    int64_t zeros = 0;
    for (int64_t j = 0; j < categories; ++j) {
      const T p = probs[r * categories + j];
      PD_CHECK(p >= T(0) && std::isfinite(p),
               errors::InvalidArgument("multinomial: the probabilities in 'x' must be finite "
                                       "and >= 0, received ",
                                       static_cast<double>(p), " in row ", r));
      sum += p;
      zeros += p == T(0) ? 1 : 0;
      cumulative[j] = sum;
    }
    PD_CHECK(sum > T(0) && std::isfinite(sum),
             errors::InvalidArgument("multinomial: each row of 'x' must have a positive finite "
                                     "sum, received ",
                                     static_cast<double>(sum), " in row ", r));
    PD_CHECK(replacement || categories - zeros >= num_samples,
             errors::InvalidArgument("multinomial: without replacement 'num_samples' (",
                                     num_samples, ") must not exceed the nonzero categories (",
                                     categories - zeros, ") of row ", r));
    for (int64_t j = 0; j < categories; ++j) cumulative[j] /= sum;
    funcs::WithRandomEngine(0, [&](random::Engine* engine) {
      for (int64_t s = 0; s < num_samples; ++s) {
        const T u = funcs::CanonicalDraw<T>(engine);
        cumulative[categories - 1] = T(1);
        int64_t left = 0, right = categories;
        while (right > left) {
          const int64_t mid = left + (right - left) / 2;
          if (cumulative[mid] < u) {
            left = mid + 1;
          } else {
            right = mid;
          }
        }
        o[r * num_samples + s] = left;
        if (replacement || s == num_samples - 1) continue;
        const T chosen = cumulative[left] - (left == 0 ? T(0) : cumulative[left - 1]);
        const T remaining = T(1) - chosen;
        for (int64_t j = 0; j < categories; ++j) {
          T v = cumulative[j];
          if (j >= left) v -= chosen;
          cumulative[j] = v / remaining;
        }
      }
    });
  }
}

// Normal draws truncated to [a, b] by inverting the CDF (random::FillTruncatedNormal).
template <typename T, typename Context>
void TruncatedGaussianRandomKernel(const Context& ctx, const std::vector<int64_t>& shape,
                                   float mean, float std, int32_t seed, float a, float b,
                                   DataType dtype, const Place& place, DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  funcs::WithRandomEngine(seed, [&](random::Engine* engine) {
    funcs::FillFromDraws(o, out->numel(), [&](MT* values, int64_t n) {
      random::FillTruncatedNormal(engine, values, n, static_cast<MT>(mean), static_cast<MT>(std),
                                  static_cast<MT>(a), static_cast<MT>(b));
    });
  });
}

// x filled in place with Exp(lam) draws: (-1 / lam) * log(1 - canonical) in MathType<T>.
template <typename T, typename Context>
void ExponentialKernel(const Context& ctx, const DenseTensor& x, float lam, DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  funcs::WithRandomEngine(0, [&](random::Engine* engine) {
    funcs::FillFromDraws(o, out->numel(), [&](MT* values, int64_t n) {
      random::FillExponential(engine, values, n, static_cast<MT>(lam));
    });
  });
}

}  // namespace paddle
