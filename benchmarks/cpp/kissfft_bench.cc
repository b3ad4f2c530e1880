// The two forms of KISS FFT that funcs/fft.cc could use for float: the C library
// (libkissfft-float: kiss_fft, kiss_fftr) and the header-only C++ template (kissfft.hh), and the
// template for double, on one thread, over 2^20 points cut into lines of 2^20, 2^16, 1000 and
// 512 (the speech case).
//
//   cmake -DPADDLE_BUILD_BENCHMARKS=ON ... && ./benchmarks/cpp/kissfft_bench
#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftr.h>

#include <kissfft/kissfft.hh>

#include <chrono>
#include <complex>
#include <cstdio>
#include <vector>

namespace {

// Best milliseconds of `repeats` calls.
template <typename Fn>
double BestMs(Fn fn, int repeats) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    fn();
    std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    best = took.count() < best ? took.count() : best;
  }
  return best;
}

}  // namespace

int main() {
  constexpr int kPoints = 1 << 20;
  constexpr int kRepeats = 5;
  std::vector<std::complex<float>> in(kPoints), out(kPoints);
  std::vector<std::complex<double>> in_d(kPoints), out_d(kPoints);
  std::vector<float> real(kPoints);
  for (int i = 0; i < kPoints; ++i) {
    in[i] = {static_cast<float>(i % 7), static_cast<float>(i % 3)};
    in_d[i] = in[i];
    real[i] = static_cast<float>(i % 5);
  }
  std::printf("%-10s %8s %14s %14s %15s %10s %14s\n", "length", "lines", "C float (ms)",
              "template float", "template double", "C real", "template real");
  for (int n : {kPoints, 1 << 16, 1000, 512}) {
    const int lines = kPoints / n;
    kiss_fft_cfg c_plan = kiss_fft_alloc(n, 0, nullptr, nullptr);
    kiss_fftr_cfg c_real_plan = kiss_fftr_alloc(n, 0, nullptr, nullptr);
    kissfft<float> float_plan(n, false);
    kissfft<float> float_real_plan(n / 2, false);
    kissfft<double> double_plan(n, false);
    auto* c_in = reinterpret_cast<kiss_fft_cpx*>(in.data());
    auto* c_out = reinterpret_cast<kiss_fft_cpx*>(out.data());
    double c_float = BestMs(
        [&] {
          for (int l = 0; l < lines; ++l) kiss_fft(c_plan, c_in + l * n, c_out + l * n);
        },
        kRepeats);
    double template_float = BestMs(
        [&] {
          for (int l = 0; l < lines; ++l) float_plan.transform(&in[l * n], &out[l * n]);
        },
        kRepeats);
    double template_double = BestMs(
        [&] {
          for (int l = 0; l < lines; ++l) double_plan.transform(&in_d[l * n], &out_d[l * n]);
        },
        kRepeats);
    double c_real = BestMs(
        [&] {
          for (int l = 0; l < lines; ++l)
            kiss_fftr(c_real_plan, &real[l * n], c_out + l * (n / 2 + 1));
        },
        kRepeats);
    double template_real = BestMs(
        [&] {
          for (int l = 0; l < lines; ++l)
            float_real_plan.transform_real(&real[l * n], &out[l * (n / 2)]);
        },
        kRepeats);
    std::printf("%-10d %8d %14.2f %14.2f %15.2f %10.2f %14.2f\n", n, lines, c_float, template_float,
                template_double, c_real, template_real);
    kiss_fft_free(c_plan);
    kiss_fftr_free(c_real_plan);
  }
  return 0;
}
