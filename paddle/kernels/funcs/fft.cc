#include "paddle/kernels/funcs/fft.h"

#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftr.h>

#include <kissfft/kissfft.hh>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/common/place.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/memory/malloc.h"

namespace paddle::funcs {

double FftScale(const std::string& normalization, bool forward, int64_t n) {
  if (normalization == "ortho") return 1.0 / std::sqrt(static_cast<double>(n));
  if (normalization == "backward") return forward ? 1.0 : 1.0 / static_cast<double>(n);
  if (normalization == "forward") return forward ? 1.0 / static_cast<double>(n) : 1.0;
  PD_THROW(
      errors::InvalidArgument("fft: 'normalization' must be 'backward', 'forward' or "
                              "'ortho', received '",
                              normalization, "'"));
}

namespace {

// The plans. A plan serves one thread at a time: kiss_fftr keeps its scratch buffer in its
// state, and the C++ template keeps one for its prime radices.

// The C library takes lengths as int.
int FloatPlanLength(int64_t n) {
  PD_CHECK(n <= std::numeric_limits<int>::max(),
           errors::InvalidArgument("fft: a float32 transform of ", n,
                                   " points is longer than "
                                   "KISS FFT takes (2^31 - 1)"));
  return static_cast<int>(n);
}

// Complex transforms of n contiguous points, out of place.
template <typename T>
class ComplexPlan;

template <>
class ComplexPlan<float> {
 public:
  ComplexPlan(int64_t n, bool inverse)
      : cfg_(kiss_fft_alloc(FloatPlanLength(n), inverse ? 1 : 0, nullptr, nullptr)) {
    PD_CHECK(cfg_ != nullptr,
             errors::ResourceExhausted("fft: no memory for a plan of ", n, " points"));
  }
  ~ComplexPlan() { kiss_fft_free(cfg_); }
  ComplexPlan(const ComplexPlan&) = delete;
  ComplexPlan& operator=(const ComplexPlan&) = delete;

  void Transform(const std::complex<float>* in, std::complex<float>* out) const {
    kiss_fft(cfg_, reinterpret_cast<const kiss_fft_cpx*>(in), reinterpret_cast<kiss_fft_cpx*>(out));
  }

 private:
  kiss_fft_cfg cfg_;
};

template <>
class ComplexPlan<double> {
 public:
  ComplexPlan(int64_t n, bool inverse) : fft_(static_cast<std::size_t>(n), inverse) {}

  void Transform(const std::complex<double>* in, std::complex<double>* out) const {
    fft_.transform(in, out);
  }

 private:
  kissfft<double> fft_;
};

// Real transforms of an even number n of points: Forward gives bins 0..n/2 of a contiguous real
// signal. Inverse (float only) gives the real signal of bins 0..n/2, unscaled.
template <typename T>
class RealPlan;

template <>
class RealPlan<float> {
 public:
  RealPlan(int64_t n, bool inverse)
      : cfg_(kiss_fftr_alloc(FloatPlanLength(n), inverse ? 1 : 0, nullptr, nullptr)) {
    PD_CHECK(cfg_ != nullptr,
             errors::ResourceExhausted("fft: no memory for a plan of ", n, " points"));
  }
  ~RealPlan() { kiss_fftr_free(cfg_); }
  RealPlan(const RealPlan&) = delete;
  RealPlan& operator=(const RealPlan&) = delete;

  void Forward(const float* in, std::complex<float>* bins) const {
    kiss_fftr(cfg_, in, reinterpret_cast<kiss_fft_cpx*>(bins));
  }
  void Inverse(const std::complex<float>* bins, float* out) const {
    kiss_fftri(cfg_, reinterpret_cast<const kiss_fft_cpx*>(bins), out);
  }

 private:
  kiss_fftr_cfg cfg_;
};

// The template has the forward real transform only: a complex one of n / 2 points on the signal
// read as pairs, then its post-processing, which leaves bin n / 2 in the imaginary part of bin 0.
template <>
class RealPlan<double> {
 public:
  RealPlan(int64_t n, bool inverse)
      : half_n_(n / 2), half_(static_cast<std::size_t>(n / 2), inverse) {}

  void Forward(const double* in, std::complex<double>* bins) const {
    half_.transform_real(in, bins);
    bins[half_n_] = std::complex<double>(bins[0].imag(), 0.0);
    bins[0] = std::complex<double>(bins[0].real(), 0.0);
  }

 private:
  int64_t half_n_;
  kissfft<double> half_;
};

// Plans outlive a call: making one costs a sine and a cosine per point, as much as a transform
// of a few thousand points. Each (length, direction) keeps the plans its threads gave back.
template <typename Plan>
class PlanCache {
 public:
  static PlanCache& Instance() {
    static PlanCache cache;
    return cache;
  }

  std::unique_ptr<Plan> Take(int64_t n, bool inverse) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = free_.find({n, inverse});
      if (it != free_.end() && !it->second.empty()) {
        std::unique_ptr<Plan> plan = std::move(it->second.back());
        it->second.pop_back();
        cached_points_ -= n;
        return plan;
      }
    }
    return std::make_unique<Plan>(n, inverse);
  }

  void Give(int64_t n, bool inverse, std::unique_ptr<Plan> plan) {
    std::lock_guard<std::mutex> lock(mutex_);
    // A plan holds a twiddle factor per point: the cache keeps at most kMaxPoints of them (64
    // MiB of complex128), and a plan that does not fit is freed.
    if (cached_points_ + n > kMaxPoints) return;
    auto& plans = free_[{n, inverse}];
    if (plans.size() >= kMaxPerLength) return;
    plans.push_back(std::move(plan));
    cached_points_ += n;
  }

 private:
  static constexpr int64_t kMaxPoints = int64_t{1} << 22;
  static constexpr std::size_t kMaxPerLength = 16;
  int64_t cached_points_ = 0;
  std::mutex mutex_;
  std::map<std::pair<int64_t, bool>, std::vector<std::unique_ptr<Plan>>> free_;
};

// A plan held by one thread for the lines of its chunk.
template <typename Plan>
class PlanLease {
 public:
  PlanLease(int64_t n, bool inverse)
      : n_(n), inverse_(inverse), plan_(PlanCache<Plan>::Instance().Take(n, inverse)) {}
  ~PlanLease() { PlanCache<Plan>::Instance().Give(n_, inverse_, std::move(plan_)); }
  PlanLease(const PlanLease&) = delete;
  PlanLease& operator=(const PlanLease&) = delete;
  const Plan& operator*() const { return *plan_; }
  const Plan* operator->() const { return plan_.get(); }

 private:
  int64_t n_;
  bool inverse_;
  std::unique_ptr<Plan> plan_;
};

// The lines along `axis`: line l starts at (l / inner) * len * inner + l % inner, its points
// `inner` apart. Lines l .. l + k of one outer index start at adjacent elements: a block of them
// is gathered into contiguous buffers row by row (each row of the block one run of memory) and
// scattered back the same way, rather than line by line across the whole tensor.
struct Lines {
  static constexpr int64_t kBlock = 16;
  int64_t outer = 1;
  int64_t inner = 1;
  Lines(const std::vector<int64_t>& dims, int axis) {
    for (int d = 0; d < axis; ++d) outer *= dims[d];
    for (int d = axis + 1; d < static_cast<int>(dims.size()); ++d) inner *= dims[d];
  }
  int64_t count() const { return outer * inner; }
  int64_t Start(int64_t line, int64_t len) const {
    return (line / inner) * len * inner + line % inner;
  }
  int64_t block() const { return inner == 1 ? 1 : kBlock; }

  // Calls fn(first, count) for blocks of adjacent lines covering [begin, end).
  template <typename Fn>
  void ForBlocks(int64_t begin, int64_t end, Fn&& fn) const {
    for (int64_t l = begin; l < end;) {
      const int64_t count = std::min({block(), end - l, inner - l % inner});
      fn(l, count);
      l += count;
    }
  }
};

// Runs fn(begin, end) over the lines, in parallel when there are enough points.
template <typename Fn>
void ForLines(int64_t lines, int64_t points_per_line, Fn&& fn) {
  const int64_t threshold =
      std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(1, points_per_line));
  ParallelFor(lines, fn, threshold);
}

// Copies `count` adjacent lines of `len` points (stride `inner`) from src into rows of
// `row_stride` in dst, converting each point with `convert`.
template <typename From, typename To, typename Convert>
void GatherLines(const From* src, int64_t inner, int64_t count, int64_t len, To* dst,
                 int64_t row_stride, Convert convert) {
  for (int64_t k = 0; k < len; ++k) {
    const From* row = src + k * inner;
    for (int64_t j = 0; j < count; ++j) dst[j * row_stride + k] = convert(row[j]);
  }
}

template <typename From, typename To, typename Convert>
void ScatterLines(const From* src, int64_t row_stride, int64_t count, int64_t len, To* dst,
                  int64_t inner, Convert convert) {
  for (int64_t k = 0; k < len; ++k) {
    To* row = dst + k * inner;
    for (int64_t j = 0; j < count; ++j) row[j] = convert(src[j * row_stride + k]);
  }
}

// Long contiguous lines run as the four-step FFT: the n = n1 * n2 points read as an n1 x n2
// matrix, n2 transforms of n1 points down its columns, a twiddle factor per point, n1
// transforms of n2 points along its rows, and the result read down the columns. Each short
// transform fits in the cache, where KISS FFT's radix passes over a whole long line do not,
// and the transforms of each step spread over the threads. Transposes make every transform
// run on contiguous points.
constexpr int64_t kFourStepMin = int64_t{1} << 16;

// The factors n1 <= n2 of n nearest its square root, each at least 64; false when n is shorter
// than kFourStepMin or has no such split.
bool FourStepFactors(int64_t n, int64_t* n1, int64_t* n2) {
  if (n < kFourStepMin) return false;
  for (int64_t f = static_cast<int64_t>(std::sqrt(static_cast<double>(n))); f >= 64; --f) {
    if (n % f == 0) {
      *n1 = f;
      *n2 = n / f;
      return true;
    }
  }
  return false;
}

// dst[c * rows + r] = src[r * cols + c] * scale, in tiles, over the threads.
template <typename T>
void Transpose(const std::complex<T>* src, int64_t rows, int64_t cols, std::complex<T>* dst,
               T scale) {
  constexpr int64_t kTile = 32;
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  ParallelFor(
      row_tiles,
      [&](int64_t begin, int64_t end) {
        for (int64_t r0 = begin * kTile; r0 < std::min(rows, end * kTile); r0 += kTile) {
          for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
            for (int64_t c = c0; c < std::min(cols, c0 + kTile); ++c) {
              for (int64_t r = r0; r < std::min(rows, r0 + kTile); ++r) {
                dst[c * rows + r] = src[r * cols + c] * scale;
              }
            }
          }
        }
      },
      1);
}

template <typename T>
void FourStepTransform(const std::complex<T>* in, std::complex<T>* out, int64_t n1, int64_t n2,
                       bool forward, T scale) {
  using C = std::complex<T>;
  const int64_t n = n1 * n2;
  auto columns = memory::AllocUnique(CPUPlace(), n * sizeof(C));
  auto rows = memory::AllocUnique(CPUPlace(), n * sizeof(C));
  C* by_column = static_cast<C*>(columns->ptr());  // n2 lines of n1 points
  C* by_row = static_cast<C*>(rows->ptr());        // n1 lines of n2 points
  Transpose(in, n1, n2, by_column, T(1));
  // Column c, transformed, times exp(-+2 pi i c k / n) at its point k: the angle's steps are
  // multiplied up in double, exact again at each column's start.
  const double step = (forward ? -2.0 : 2.0) * M_PI / static_cast<double>(n);
  ParallelFor(
      n2,
      [&](int64_t begin, int64_t end) {
        PlanLease<ComplexPlan<T>> plan(n1, !forward);
        std::vector<C> line(n1);
        for (int64_t c = begin; c < end; ++c) {
          C* column = by_column + c * n1;
          plan->Transform(column, line.data());
          const std::complex<double> rotate = std::polar(1.0, step * static_cast<double>(c));
          std::complex<double> twiddle = 1.0;
          for (int64_t k = 0; k < n1; ++k) {
            column[k] = line[k] * C(static_cast<T>(twiddle.real()), static_cast<T>(twiddle.imag()));
            twiddle *= rotate;
          }
        }
      },
      1);
  Transpose(by_column, n2, n1, by_row, T(1));
  ParallelFor(
      n1,
      [&](int64_t begin, int64_t end) {
        PlanLease<ComplexPlan<T>> plan(n2, !forward);
        std::vector<C> line(n2);
        for (int64_t r = begin; r < end; ++r) {
          plan->Transform(by_row + r * n2, line.data());
          std::copy(line.begin(), line.end(), by_row + r * n2);
        }
      },
      1);
  Transpose(by_row, n1, n2, out, scale);
}

// The bins 0..n/2 of a contiguous real signal of n points whose n/2 pairs, read as complex
// points, take the four-step path: z = FFT of the pairs, then bin k is
// (z[k] + conj(z[h - k])) / 2 - i exp(-2 pi i k / n) (z[k] - conj(z[h - k])) / 2, h = n / 2.
template <typename T>
void FourStepRealForward(const T* in, std::complex<T>* bins, int64_t n1, int64_t n2) {
  using C = std::complex<T>;
  const int64_t h = n1 * n2;
  auto packed = memory::AllocUnique(CPUPlace(), h * sizeof(C));
  C* z = static_cast<C*>(packed->ptr());
  FourStepTransform(reinterpret_cast<const C*>(in), z, n1, n2, true, T(1));
  const double step = -M_PI / static_cast<double>(h);
  constexpr int64_t kExactEvery = 1024;  // the rotation restarts from an exact angle
  ParallelFor(
      h + 1,
      [&](int64_t begin, int64_t end) {
        std::complex<double> twiddle, rotate = std::polar(1.0, step);
        for (int64_t k = begin; k < end; ++k) {
          if ((k - begin) % kExactEvery == 0) {
            twiddle = std::polar(1.0, step * static_cast<double>(k));
          }
          const std::complex<double> a(z[k % h].real(), z[k % h].imag());
          const std::complex<double> b =
              std::conj(std::complex<double>(z[(h - k) % h].real(), z[(h - k) % h].imag()));
          const std::complex<double> v =
              0.5 * (a + b) - 0.5 * std::complex<double>(0.0, 1.0) * twiddle * (a - b);
          bins[k] = C(static_cast<T>(v.real()), static_cast<T>(v.imag()));
          twiddle *= rotate;
        }
      },
      kParallelThreshold);
}

// The inverse of FourStepRealForward: the unscaled real signal of n points from its bins
// 0..n/2 (h = n / 2), by one complex inverse transform of h points. With E and O the spectra of
// the even and odd points, bin k is E[k] + w^k O[k] and conj(bin h - k) is E[k] - w^k O[k]
// (w = exp(-2 pi i / n)); the inverse transform of z = 2 (E + i O), i.e.
// z[k] = (X[k] + conj(X[h - k])) + i conj(w^k) (X[k] - conj(X[h - k])), gives the signal's points
// in pairs. Bins 0 and h stand for real values: their imaginary parts are dropped, as the
// complex path drops what they add to the imaginary part of its result.
template <typename T>
void FourStepRealInverse(const std::complex<T>* bins, T* out, int64_t n1, int64_t n2, T scale) {
  using C = std::complex<T>;
  const int64_t h = n1 * n2;
  auto packed = memory::AllocUnique(CPUPlace(), h * sizeof(C));
  C* z = static_cast<C*>(packed->ptr());
  auto bin = [&](int64_t k) {
    const std::complex<double> v(bins[k].real(), bins[k].imag());
    return k == 0 || k == h ? std::complex<double>(v.real(), 0.0) : v;
  };
  const double step = M_PI / static_cast<double>(h);
  constexpr int64_t kExactEvery = 1024;  // the rotation restarts from an exact angle
  ParallelFor(
      h,
      [&](int64_t begin, int64_t end) {
        std::complex<double> twiddle, rotate = std::polar(1.0, step);
        for (int64_t k = begin; k < end; ++k) {
          if ((k - begin) % kExactEvery == 0) {
            twiddle = std::polar(1.0, step * static_cast<double>(k));
          }
          const std::complex<double> a = bin(k);
          const std::complex<double> b = std::conj(bin(h - k));
          const std::complex<double> v =
              (a + b) + std::complex<double>(0.0, 1.0) * twiddle * (a - b);
          z[k] = C(static_cast<T>(v.real()), static_cast<T>(v.imag()));
          twiddle *= rotate;
        }
      },
      kParallelThreshold);
  FourStepTransform(z, reinterpret_cast<C*>(out), n1, n2, false, scale);
}

}  // namespace

template <typename T>
void FftC2CAxis(const std::complex<T>* in, std::complex<T>* out, const std::vector<int64_t>& dims,
                int axis, bool forward, T scale) {
  using C = std::complex<T>;
  const int64_t n = dims[axis];
  const Lines lines(dims, axis);
  if (n == 0 || lines.count() == 0) return;
  int64_t n1 = 0, n2 = 0;
  if (lines.inner == 1 && FourStepFactors(n, &n1, &n2)) {
    for (int64_t l = 0; l < lines.count(); ++l) {
      FourStepTransform(in + l * n, out + l * n, n1, n2, forward, scale);
    }
    return;
  }
  ForLines(lines.count(), n, [&](int64_t begin, int64_t end) {
    PlanLease<ComplexPlan<T>> plan(n, !forward);
    std::vector<C> gathered(lines.block() * n);
    std::vector<C> transformed(lines.block() * n);
    auto scaled = [scale](C v) { return v * scale; };
    lines.ForBlocks(begin, end, [&](int64_t first, int64_t count) {
      const int64_t start = lines.Start(first, n);
      if (lines.inner == 1) {
        // Straight into out, unless out is in (the axes after the first transform in place).
        C* dst = in == out ? transformed.data() : out + start;
        plan->Transform(in + start, dst);
        if (dst != out + start || scale != T(1)) {
          for (int64_t k = 0; k < n; ++k) out[start + k] = dst[k] * scale;
        }
        return;
      }
      GatherLines(in + start, lines.inner, count, n, gathered.data(), n, [](C v) { return v; });
      for (int64_t j = 0; j < count; ++j) plan->Transform(&gathered[j * n], &transformed[j * n]);
      ScatterLines(transformed.data(), n, count, n, out + start, lines.inner, scaled);
    });
  });
}

template <typename T>
void FftR2CAxis(const T* in, std::complex<T>* out, const std::vector<int64_t>& in_dims, int axis,
                bool forward, bool onesided, T scale) {
  using C = std::complex<T>;
  const int64_t n = in_dims[axis];
  const int64_t out_len = onesided ? n / 2 + 1 : n;
  const Lines lines(in_dims, axis);
  if (n == 0 || lines.count() == 0) return;
  // An odd length has no real plan (kiss_fftr needs an even one): its lines are complex ones.
  const bool real_plan = n % 2 == 0;
  // Bins 0..n/2 from a real plan, all n from a complex one.
  const int64_t bins_len = real_plan ? n / 2 + 1 : n;
  int64_t n1 = 0, n2 = 0;
  if (real_plan && lines.inner == 1 && FourStepFactors(n / 2, &n1, &n2)) {
    std::vector<C> bins(bins_len);
    for (int64_t l = 0; l < lines.count(); ++l) {
      FourStepRealForward(in + l * n, bins.data(), n1, n2);
      C* line_out = out + l * out_len;
      for (int64_t k = 0; k < out_len; ++k) {
        C v = k < bins_len ? bins[k] : std::conj(bins[n - k]);
        line_out[k] = (forward ? v : std::conj(v)) * scale;
      }
    }
    return;
  }
  ForLines(lines.count(), n, [&](int64_t begin, int64_t end) {
    std::unique_ptr<PlanLease<RealPlan<T>>> real;
    std::unique_ptr<PlanLease<ComplexPlan<T>>> complex;
    if (real_plan) {
      real = std::make_unique<PlanLease<RealPlan<T>>>(n, false);
    } else {
      complex = std::make_unique<PlanLease<ComplexPlan<T>>>(n, false);
    }
    const int64_t block = lines.block();
    std::vector<T> signal(real_plan ? block * n : 0);
    std::vector<C> points(real_plan ? 0 : block * n);
    std::vector<C> bins(block * bins_len);
    std::vector<C> spectrum(lines.inner == 1 ? 0 : block * out_len);
    lines.ForBlocks(begin, end, [&](int64_t first, int64_t count) {
      const T* src = in + lines.Start(first, n);
      if (real_plan && lines.inner != 1) {
        GatherLines(src, lines.inner, count, n, signal.data(), n, [](T v) { return v; });
      }
      for (int64_t j = 0; j < count; ++j) {
        C* line_bins = &bins[j * bins_len];
        if (real_plan) {
          (**real).Forward(lines.inner == 1 ? src : &signal[j * n], line_bins);
        } else {
          for (int64_t k = 0; k < n; ++k) points[k] = C(src[k * lines.inner + j], T(0));
          (**complex).Transform(points.data(), line_bins);
        }
        // A contiguous line's bins go straight to out.
        C* line_out = lines.inner == 1 ? out + lines.Start(first, out_len) : &spectrum[j * out_len];
        for (int64_t k = 0; k < out_len; ++k) {
          // Past n / 2 a real plan's bins are the conjugates of those before.
          C v = k < bins_len ? line_bins[k] : std::conj(line_bins[n - k]);
          // The inverse direction's spectrum of a real signal is the forward one's conjugate.
          line_out[k] = (forward ? v : std::conj(v)) * scale;
        }
      }
      if (lines.inner != 1) {
        ScatterLines(spectrum.data(), out_len, count, out_len, out + lines.Start(first, out_len),
                     lines.inner, [](C v) { return v; });
      }
    });
  });
}

namespace {

// The real signal of a half spectrum (bins 0..n/2, conjugated already for the forward
// direction) by a complex inverse transform of the full Hermitian spectrum.
template <typename T>
void HalfSpectrumToSignal(const ComplexPlan<T>& plan, int64_t n, const std::complex<T>* half,
                          std::complex<T>* full, std::complex<T>* signal) {
  for (int64_t k = 0; k <= n / 2; ++k) full[k] = half[k];
  for (int64_t k = n / 2 + 1; k < n; ++k) full[k] = std::conj(half[n - k]);
  // Bin 0 and (n even) bin n / 2 stand for real values; their imaginary parts only add to the
  // imaginary part of the result, which is dropped.
  plan.Transform(full, signal);
}

}  // namespace

template <typename T>
void FftC2RAxis(const std::complex<T>* in, int64_t in_len, T* out,
                const std::vector<int64_t>& out_dims, int axis, bool forward, T scale) {
  using C = std::complex<T>;
  const int64_t n = out_dims[axis];
  const Lines lines(out_dims, axis);
  if (n == 0 || lines.count() == 0) return;
  const int64_t half_len = n / 2 + 1;
  const int64_t used = std::min(in_len, half_len);
  int64_t n1 = 0, n2 = 0;
  if (n % 2 == 0 && lines.inner == 1 && FourStepFactors(n / 2, &n1, &n2)) {
    std::vector<C> half(half_len);
    for (int64_t l = 0; l < lines.count(); ++l) {
      const C* line_in = in + l * in_len;
      // The forward direction's real signal is that of the conjugate spectrum inverted.
      for (int64_t k = 0; k < used; ++k) half[k] = forward ? std::conj(line_in[k]) : line_in[k];
      std::fill(half.begin() + used, half.end(), C());
      FourStepRealInverse(half.data(), out + l * n, n1, n2, scale);
    }
    return;
  }
  // float has kiss_fftri for even lengths; double (whose template has no inverse real
  // transform) and odd lengths go through the complex inverse transform.
  const bool real_plan = std::is_same_v<T, float> && n % 2 == 0;
  ForLines(lines.count(), n, [&](int64_t begin, int64_t end) {
    const int64_t block = lines.block();
    std::vector<C> half(block * half_len);
    std::vector<T> signal(lines.inner == 1 ? 0 : block * n);
    std::vector<C> full;
    std::vector<C> points;
    std::unique_ptr<PlanLease<RealPlan<T>>> real;
    std::unique_ptr<PlanLease<ComplexPlan<T>>> complex;
    if (real_plan) {
      real = std::make_unique<PlanLease<RealPlan<T>>>(n, true);
    } else {
      complex = std::make_unique<PlanLease<ComplexPlan<T>>>(n, true);
      full.resize(n);
      points.resize(n);
    }
    lines.ForBlocks(begin, end, [&](int64_t first, int64_t count) {
      // The forward direction's real signal is that of the conjugate spectrum inverted.
      GatherLines(in + lines.Start(first, in_len), lines.inner, count, used, half.data(), half_len,
                  [forward](C v) { return forward ? std::conj(v) : v; });
      for (int64_t j = 0; j < count; ++j) {
        C* line_half = &half[j * half_len];
        std::fill(line_half + used, line_half + half_len, C());
        // A contiguous line's signal goes straight to out, scaled there.
        T* line_signal = lines.inner == 1 ? out + lines.Start(first, n) : &signal[j * n];
        if constexpr (std::is_same_v<T, float>) {
          if (real_plan) {
            (**real).Inverse(line_half, line_signal);
            continue;
          }
        }
        HalfSpectrumToSignal(**complex, n, line_half, full.data(), points.data());
        for (int64_t k = 0; k < n; ++k) line_signal[k] = points[k].real();
      }
      if (lines.inner != 1) {
        ScatterLines(signal.data(), n, count, n, out + lines.Start(first, n), lines.inner,
                     [scale](T v) { return v * scale; });
      } else if (scale != T(1)) {
        T* line = out + lines.Start(first, n);
        for (int64_t k = 0; k < n; ++k) line[k] *= scale;
      }
    });
  });
}

template void FftC2CAxis<float>(const std::complex<float>*, std::complex<float>*,
                                const std::vector<int64_t>&, int, bool, float);
template void FftC2CAxis<double>(const std::complex<double>*, std::complex<double>*,
                                 const std::vector<int64_t>&, int, bool, double);
template void FftR2CAxis<float>(const float*, std::complex<float>*, const std::vector<int64_t>&,
                                int, bool, bool, float);
template void FftR2CAxis<double>(const double*, std::complex<double>*, const std::vector<int64_t>&,
                                 int, bool, bool, double);
template void FftC2RAxis<float>(const std::complex<float>*, int64_t, float*,
                                const std::vector<int64_t>&, int, bool, float);
template void FftC2RAxis<double>(const std::complex<double>*, int64_t, double*,
                                 const std::vector<int64_t>&, int, bool, double);

}  // namespace paddle::funcs
