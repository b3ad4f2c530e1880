#include "paddle/core/random_draws.h"

#include <algorithm>
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

// The coefficients of the rational approximations of erfinv that PaddlePaddle evaluates, lowest
// power first: |x| <= 0.85 (a / b), then
// r = sqrt(ln 2 - log(1 - |x|)) up to 5 (c / d) and beyond (e / f).
constexpr double kErfinvA[8] = {1.1975323115670912564578e0, 4.7072688112383978012285e1,
                                6.9706266534389598238465e2, 4.8548868893843886794648e3,
                                1.6235862515167575384252e4, 2.3782041382114385731252e4,
                                1.1819493347062294404278e4, 8.8709406962545514830200e2};
constexpr double kErfinvB[8] = {1.0000000000000000000e0, 4.2313330701600911252e1,
                                6.8718700749205790830e2, 5.3941960214247511077e3,
                                2.1213794301586595867e4, 3.9307895800092710610e4,
                                2.8729085735721942674e4, 5.2264952788528545610e3};
constexpr double kErfinvC[8] = {1.42343711074968357734e0,  4.63033784615654529590e0,
                                5.76949722146069140550e0,  3.64784832476320460504e0,
                                1.27045825245236838258e0,  2.41780725177450611770e-1,
                                2.27238449892691845833e-2, 7.74545014278341407640e-4};
constexpr double kErfinvD[8] = {1.4142135623730950488016887e0,  2.9036514445419946173133295e0,
                                2.3707661626024532365971225e0,  9.7547832001787427186894837e-1,
                                2.0945065210512749128288442e-1, 2.1494160384252876777097297e-2,
                                7.7441459065157709165577218e-4, 1.4859850019840355905497876e-9};
constexpr double kErfinvE[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,
                                1.78482653991729133580e0,  2.96560571828504891230e-1,
                                2.65321895265761230930e-2, 1.24266094738807843860e-3,
                                2.71155556874348757815e-5, 2.01033439929228813265e-7};
constexpr double kErfinvF[8] = {1.414213562373095048801689e0,  8.482908416595164588112026e-1,
                                1.936480946950659106176712e-1, 2.103693768272068968719679e-2,
                                1.112800997078859844711555e-3, 2.611088405080593625138020e-5,
                                2.010321207683943062279931e-7, 2.891024605872965461538222e-15};

// The polynomial with coefficients rounded to T, by Horner's rule in T.
template <typename T>
T Polynomial(const double (&coefficients)[8], T r) {
  T value = static_cast<T>(coefficients[7]);
  for (int k = 6; k >= 0; --k) value = value * r + static_cast<T>(coefficients[k]);
  return value;
}

// erfinv(x) with PaddlePaddle's rounding: r is computed in double and rounded to T, the
// polynomials and their quotient are in T.
template <typename T>
T Erfinv(T x) {
  if (x < T(-1) || x > T(1)) return std::numeric_limits<T>::quiet_NaN();
  if (x == T(1)) return std::numeric_limits<T>::infinity();
  if (x == T(-1)) return -std::numeric_limits<T>::infinity();
  const T magnitude = std::abs(x);
  if (static_cast<double>(magnitude) <= 0.85) {
    const double wide = static_cast<double>(x);
    const T r = static_cast<T>(0.180625 - 0.25 * wide * wide);
    return x * Polynomial(kErfinvA, r) / Polynomial(kErfinvB, r);
  }
  const double ln2 = static_cast<T>(0.6931471805599453094172321214581);
  T r = static_cast<T>(std::sqrt(ln2 - std::log(1.0 - static_cast<double>(magnitude))));
  T num, den;
  if (r <= T(5)) {
    r = static_cast<T>(static_cast<double>(r) - 1.6);
    num = Polynomial(kErfinvC, r);
    den = Polynomial(kErfinvD, r);
  } else {
    r = static_cast<T>(static_cast<double>(r) - 5.0);
    num = Polynomial(kErfinvE, r);
    den = Polynomial(kErfinvF, r);
  }
  return x < T(0) ? -num / den : num / den;
}

template <typename T>
void FillTruncatedNormalImpl(Engine* engine, T* out, int64_t n, T mean, T std, T a, T b) {
  // The normal CDF in double, rounded to T.
  auto normal_cdf = [](T z) {
    return static_cast<T>((1.0 + std::erf(static_cast<double>(z) / std::sqrt(2.0))) / 2.0);
  };
  const T a_cdf = normal_cdf((a - mean) / std);
  const T b_cdf = normal_cdf((b - mean) / std);
  const T low = static_cast<T>(std::numeric_limits<float>::min());
  const T width = T(1) - low;
  for (int64_t i = 0; i < n; ++i) {
    const T u = Canonical<T>(engine) * width + low;
    const T p = a_cdf + (b_cdf - a_cdf) * u;
    const T value = static_cast<T>(std::sqrt(2.0) * static_cast<double>(Erfinv(T(2) * p - T(1))) *
                                       static_cast<double>(std) +
                                   static_cast<double>(mean));
    out[i] = std::clamp(value, a, b);
  }
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

void FillTruncatedNormal(Engine* engine, float* out, int64_t n, float mean, float std, float a,
                         float b) {
  FillTruncatedNormalImpl(engine, out, n, mean, std, a, b);
}
void FillTruncatedNormal(Engine* engine, double* out, int64_t n, double mean, double std, double a,
                         double b) {
  FillTruncatedNormalImpl(engine, out, n, mean, std, a, b);
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
