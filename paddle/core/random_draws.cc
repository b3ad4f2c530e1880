#include "paddle/core/random_draws.h"

#include <cmath>
#include <limits>
#include <utility>

namespace paddle::random {

namespace {

// 2^-64: the canonical draw divides the rounded output by the engine's range, 2^64.
constexpr double kTwoToMinus64 = 5.421010862427522170037264004349708e-20;

template <typename T>
T Canonical(Engine* engine) {
  // The conversion rounds to nearest; scaling by a power of two is exact.
  const T value = static_cast<T>((*engine)()) * static_cast<T>(kTwoToMinus64);
  return value >= T(1) ? std::nextafter(T(1), T(0)) : value;
}

template <typename T>
void FillUniformImpl(Engine* engine, T* out, int64_t n, T low, T high) {
  const T width = high - low;
  for (int64_t i = 0; i < n; ++i) out[i] = Canonical<T>(engine) * width + low;
}

// Marsaglia's polar method with std::normal_distribution's order: y * mult is returned first,
// x * mult is kept for the next call.
template <typename T>
class PolarNormal {
 public:
  T Next(Engine* engine) {
    if (has_saved_) {
      has_saved_ = false;
      return saved_;
    }
    T x, y, r2;
    do {
      x = T(2) * Canonical<T>(engine) - T(1);
      y = T(2) * Canonical<T>(engine) - T(1);
      r2 = x * x + y * y;
    } while (r2 > T(1) || r2 == T(0));
    const T mult = std::sqrt(T(-2) * std::log(r2) / r2);
    saved_ = x * mult;
    has_saved_ = true;
    return y * mult;
  }

 private:
  T saved_ = 0;
  bool has_saved_ = false;
};

template <typename T>
void FillNormalImpl(Engine* engine, T* out, int64_t n, T mean, T std) {
  PolarNormal<T> normal;
  for (int64_t i = 0; i < n; ++i) out[i] = normal.Next(engine) * std + mean;
}

template <typename T>
void FillExponentialImpl(Engine* engine, T* out, int64_t n, T lam) {
  const T scale = T(-1) / lam;
  for (int64_t i = 0; i < n; ++i) out[i] = scale * std::log(T(1) - Canonical<T>(engine));
}

// Devroye's rejection method ("Non-Uniform Random Variate Generation", 1986, p. 511) with
// libstdc++'s constants and order of draws, for mean >= 12.
int PoissonRejection(Engine* engine, double mean) {
  const double m = std::floor(mean);
  const double log_mean = std::log(mean);
  const double lgamma_m1 = std::lgamma(m + 1);
  const double sqrt_m = std::sqrt(m);
  const double pi_4 = 0.7853981633974483096156608458198757;
  const double dx = std::sqrt(2 * m * std::log(32 * m / pi_4));
  const double d = std::round(std::max(6.0, std::min(m, dx)));
  const double cx = 2 * m + d;
  const double sqrt_cx_2 = std::sqrt(cx / 2);
  const double inv_cx = 1 / cx;
  const double c2b = std::sqrt(pi_4 * cx) * std::exp(inv_cx);
  const double cb = 2 * cx * std::exp(-d * inv_cx * (1 + d / 2)) / d;

  const double half_below_one = (1 - std::numeric_limits<double>::epsilon()) / 2;
  const double limit = std::numeric_limits<int>::max() + half_below_one;
  const double sqrt_pi_2 = 1.2533141373155002512078826424055226;
  const double c1 = sqrt_m * sqrt_pi_2;
  const double c2 = c2b + c1;
  const double c3 = c2 + 1;
  const double c4 = c3 + 1;
  const double one_78 = 0.0128205128205128205128205128205128;
  const double e_one_78 = 1.0129030479320018583185514777512983;
  const double c5 = c4 + e_one_78;
  const double c = cb + c5;
  const double two_cx = 2 * (2 * m + d);

  PolarNormal<double> normal;
  double x = 0;
  bool reject = true;
  do {
    const double u = c * Canonical<double>(engine);
    const double e = -std::log(1.0 - Canonical<double>(engine));
    double w = 0.0;
    if (u <= c1) {
      const double n = normal.Next(engine);
      const double y = -std::abs(n) * sqrt_m - 1;
      x = std::floor(y);
      w = -n * n / 2;
      if (x < -m) continue;
    } else if (u <= c2) {
      const double n = normal.Next(engine);
      const double y = 1 + std::abs(n) * sqrt_cx_2;
      x = std::ceil(y);
      w = y * (2 - y) * inv_cx;
      if (x > d) continue;
    } else if (u <= c3) {
      x = -1;
    } else if (u <= c4) {
      x = 0;
    } else if (u <= c5) {
      x = 1;
      w = one_78;
    } else {
      const double v = -std::log(1.0 - Canonical<double>(engine));
      const double y = d + v * two_cx / d;
      x = std::ceil(y);
      w = -d * inv_cx * (1 + y / 2);
    }
    reject = w - e - x * log_mean > lgamma_m1 - std::lgamma(x + m + 1);
    reject |= x + m >= limit;
  } while (reject);
  return static_cast<int>(x + m + half_below_one);
}

}  // namespace

void SeedFromUserSeed(Engine* engine, uint64_t seed) {
  std::seed_seq sequence{static_cast<uint32_t>(seed)};
  engine->seed(sequence);
}

float CanonicalFloat(Engine* engine) { return Canonical<float>(engine); }
double CanonicalDouble(Engine* engine) { return Canonical<double>(engine); }

void FillUniform(Engine* engine, float* out, int64_t n, float low, float high) {
  FillUniformImpl(engine, out, n, low, high);
}
void FillUniform(Engine* engine, double* out, int64_t n, double low, double high) {
  FillUniformImpl(engine, out, n, low, high);
}
void FillNormal(Engine* engine, float* out, int64_t n, float mean, float std) {
  FillNormalImpl(engine, out, n, mean, std);
}
void FillNormal(Engine* engine, double* out, int64_t n, double mean, double std) {
  FillNormalImpl(engine, out, n, mean, std);
}

void FillExponential(Engine* engine, float* out, int64_t n, float lam) {
  FillExponentialImpl(engine, out, n, lam);
}
void FillExponential(Engine* engine, double* out, int64_t n, double lam) {
  FillExponentialImpl(engine, out, n, lam);
}

uint64_t UniformIndex(Engine* engine, uint64_t range) {
  if (range == 0) return (*engine)();
  unsigned __int128 product = static_cast<unsigned __int128>((*engine)()) * range;
  uint64_t low = static_cast<uint64_t>(product);
  if (low < range) {
    const uint64_t threshold = (0 - range) % range;
    while (low < threshold) {
      product = static_cast<unsigned __int128>((*engine)()) * range;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
}

void Shuffle(Engine* engine, int64_t* out, int64_t n) {
  if (n <= 0) return;
  const uint64_t size = static_cast<uint64_t>(n);
  if (std::numeric_limits<uint64_t>::max() / size >= size) {
    // One draw picks the swap positions of two successive elements.
    int64_t i = 1;
    if (size % 2 == 0) {
      std::swap(out[i], out[UniformIndex(engine, 2)]);
      ++i;
    }
    while (i != n) {
      const uint64_t range = static_cast<uint64_t>(i) + 1;
      const uint64_t both = UniformIndex(engine, range * (range + 1));
      std::swap(out[i], out[both / (range + 1)]);
      std::swap(out[i + 1], out[both % (range + 1)]);
      i += 2;
    }
    return;
  }
  for (int64_t i = 1; i < n; ++i) {
    std::swap(out[i], out[UniformIndex(engine, static_cast<uint64_t>(i) + 1)]);
  }
}

int Poisson(Engine* engine, double mean) {
  if (mean >= 12) return PoissonRejection(engine, mean);
  const double threshold = std::exp(-mean);
  int count = 0;
  double product = 1.0;
  do {
    product *= Canonical<double>(engine);
    count += 1;
  } while (product > threshold);
  return count - 1;
}

}  // namespace paddle::random
