// One-dimensional FFTs along one axis of a row-major tensor, every line of that axis at once, on
// Debian's KISS FFT: the C library (libkissfft-float) for float and its C++ template
// (kissfft.hh) for double. benchmarks/fft_bench.py measures them; the C library is the faster
// of the two for float at the lengths speech features use (512 points). The fft_* kernels
// (cpu/signal_kernels.h) run a multi-axis transform as one of these per axis.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace paddle::funcs {

// The factor a transform over `n` points (the product of the transformed sizes) is scaled by,
// for Paddle's `normalization` ('backward': the inverse transform divides by n, 'forward': the
// forward one does, 'ortho': both divide by sqrt(n)) and direction.
double FftScale(const std::string& normalization, bool forward, int64_t n);

// out = scale * DFT of each line of `in` along `axis` (exponent sign - when forward, + when
// not). `dims` is the shape of both; in may be out.
template <typename T>
void FftC2CAxis(const std::complex<T>* in, std::complex<T>* out, const std::vector<int64_t>& dims,
                int axis, bool forward, T scale);

// out = scale * DFT of each real line of `in` (shape `in_dims`) along `axis`: its first
// n / 2 + 1 bins when onesided, all n otherwise (the rest are the conjugates of the first).
template <typename T>
void FftR2CAxis(const T* in, std::complex<T>* out, const std::vector<int64_t>& in_dims, int axis,
                bool forward, bool onesided, T scale);

// out = scale * the real signal of n = out_dims[axis] points whose spectrum along `axis` has the
// bins of `in` (in_len of them; bins past n / 2 are not read, bins missing are zero) and their
// conjugates: the inverse of FftR2CAxis. The imaginary parts of bin 0 and, for an even n, of bin
// n / 2 are not read.
template <typename T>
void FftC2RAxis(const std::complex<T>* in, int64_t in_len, T* out,
                const std::vector<int64_t>& out_dims, int axis, bool forward, T scale);

}  // namespace paddle::funcs
