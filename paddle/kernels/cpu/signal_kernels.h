// CPU kernels of the spectral ops (paddle.fft, paddle.signal): the FFTs fft_c2c, fft_r2c and
// fft_c2r over any set of axes, the kernels of their gradients, and frame / overlap_add, which
// stft and istft cut a signal into windows and sum it back with. A multi-axis transform is one
// 1-D transform per axis (funcs/fft.h); the whole normalization factor is applied once.
#pragma once

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "paddle/common/complex.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/fft.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle {

namespace signal_detail {

// The axes as non-negative dims (InferMeta has checked them against the rank).
inline std::vector<int> FftAxes(const std::vector<int64_t>& axes, int rank) {
  std::vector<int> out;
  for (int64_t a : axes) out.push_back(static_cast<int>(a < 0 ? a + rank : a));
  return out;
}

inline int64_t PointsOver(const std::vector<int64_t>& dims, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int a : axes) n *= dims[a];
  return n;
}

// c2c transforms over `axes` of the complex tensor `data` (shape `dims`) in place, unscaled.
template <typename R>
void C2CInPlace(std::complex<R>* data, const std::vector<int64_t>& dims,
                const std::vector<int>& axes, bool forward) {
  for (int a : axes) funcs::FftC2CAxis<R>(data, data, dims, a, forward, R(1));
}

// Copies the complex `src` (shape src_dims) into `dst` (shape dst_dims, differing only along
// `axis`), truncating that axis or padding it with zeros, and scales it.
template <typename R>
void ResizeAxis(const std::complex<R>* src, const std::vector<int64_t>& src_dims,
                std::complex<R>* dst, const std::vector<int64_t>& dst_dims, int axis, R scale) {
  int64_t outer = 1;
  int64_t inner = 1;
  for (int d = 0; d < axis; ++d) outer *= dst_dims[d];
  for (int d = axis + 1; d < static_cast<int>(dst_dims.size()); ++d) inner *= dst_dims[d];
  const int64_t src_len = src_dims[axis];
  const int64_t dst_len = dst_dims[axis];
  const int64_t kept = std::min(src_len, dst_len) * inner;
  funcs::ParallelFor(
      outer,
      [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) {
          const std::complex<R>* s = src + o * src_len * inner;
          std::complex<R>* d = dst + o * dst_len * inner;
          for (int64_t i = 0; i < kept; ++i) d[i] = s[i] * scale;
          std::fill(d + kept, d + dst_len * inner, std::complex<R>());
        }
      },
      std::max<int64_t>(1, funcs::kParallelThreshold / std::max<int64_t>(1, dst_len * inner)));
}

}  // namespace signal_detail

// T is complex64 or complex128.
template <typename T, typename Context>
void FftC2cKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, DenseTensor* out) {
  using R = RealType<T>;
  T* o = ctx.template Alloc<T>(out);
  if (x.numel() == 0) return;
  const std::vector<int64_t> dims = x.dims().ToVector();
  const std::vector<int> fft_axes = signal_detail::FftAxes(axes, static_cast<int>(dims.size()));
  const R scale = static_cast<R>(
      funcs::FftScale(normalization, forward, signal_detail::PointsOver(dims, fft_axes)));
  funcs::FftC2CAxis<R>(x.data<T>(), o, dims, fft_axes[0], forward, scale);
  signal_detail::C2CInPlace<R>(o, dims, {fft_axes.begin() + 1, fft_axes.end()}, forward);
}

// T is float32 or float64: the real transform along the last of `axes`, then complex ones along
// the others.
template <typename T, typename Context>
void FftR2cKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, bool onesided, DenseTensor* out) {
  auto* o = ctx.template Alloc<std::complex<T>>(out);
  if (x.numel() == 0) return;
  const std::vector<int64_t> dims = x.dims().ToVector();
  const std::vector<int> fft_axes = signal_detail::FftAxes(axes, static_cast<int>(dims.size()));
  const T scale = static_cast<T>(
      funcs::FftScale(normalization, forward, signal_detail::PointsOver(dims, fft_axes)));
  funcs::FftR2CAxis<T>(x.data<T>(), o, dims, fft_axes.back(), forward, onesided, scale);
  signal_detail::C2CInPlace<T>(o, out->dims().ToVector(), {fft_axes.begin(), fft_axes.end() - 1},
                               forward);
}

// T is complex64 or complex128: complex transforms along all of `axes` but the last, then the
// real inverse transform along the last to out's size there.
template <typename T, typename Context>
void FftC2rKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, int64_t last_dim_size,
                  DenseTensor* out) {
  using R = RealType<T>;
  R* o = ctx.template Alloc<R>(out);
  if (out->numel() == 0) return;
  const std::vector<int64_t> in_dims = x.dims().ToVector();
  const std::vector<int64_t> out_dims = out->dims().ToVector();
  const std::vector<int> fft_axes = signal_detail::FftAxes(axes, static_cast<int>(in_dims.size()));
  const int last = fft_axes.back();
  const R scale = static_cast<R>(
      funcs::FftScale(normalization, forward, signal_detail::PointsOver(out_dims, fft_axes)));
  const T* spectrum = x.data<T>();
  std::vector<T> partial;
  if (fft_axes.size() > 1) {
    partial.assign(spectrum, spectrum + x.numel());
    signal_detail::C2CInPlace<R>(partial.data(), in_dims, {fft_axes.begin(), fft_axes.end() - 1},
                                 forward);
    spectrum = partial.data();
  }
  funcs::FftC2RAxis<R>(spectrum, in_dims[last], o, out_dims, last, forward, scale);
}

// fft_r2c's gradient, its adjoint: out_grad padded with zeros to x's full spectrum, transformed
// back in the other direction, its real part. T is x's dtype (float32 or float64).
template <typename T, typename Context>
void FftR2cGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_grad,
                      const std::vector<int64_t>& axes, const std::string& normalization,
                      bool forward, bool onesided, DenseTensor* x_grad) {
  T* g = ctx.template Alloc<T>(x_grad);
  if (x.numel() == 0) return;
  const std::vector<int64_t> dims = x.dims().ToVector();
  const std::vector<int> fft_axes = signal_detail::FftAxes(axes, static_cast<int>(dims.size()));
  const T scale = static_cast<T>(
      funcs::FftScale(normalization, forward, signal_detail::PointsOver(dims, fft_axes)));
  std::vector<std::complex<T>> full(x.numel());
  signal_detail::ResizeAxis<T>(out_grad.data<std::complex<T>>(), out_grad.dims().ToVector(),
                               full.data(), dims, fft_axes.back(), scale);
  signal_detail::C2CInPlace<T>(full.data(), dims, fft_axes, !forward);
  for (int64_t i = 0; i < x.numel(); ++i) g[i] = full[i].real();
}

// fft_c2r's gradient, its adjoint: the real transform of out_grad in the other direction, with
// the bins that stand for two (themselves and their conjugate) doubled, cut or padded to x's
// size. T is x's dtype (complex64 or complex128).
template <typename T, typename Context>
void FftC2rGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_grad,
                      const std::vector<int64_t>& axes, const std::string& normalization,
                      bool forward, int64_t last_dim_size, DenseTensor* x_grad) {
  using R = RealType<T>;
  T* g = ctx.template Alloc<T>(x_grad);
  if (x.numel() == 0) return;
  const std::vector<int64_t> out_dims = out_grad.dims().ToVector();
  const std::vector<int> fft_axes = signal_detail::FftAxes(axes, static_cast<int>(out_dims.size()));
  const int last = fft_axes.back();
  const int64_t n = out_dims[last];
  const R scale = static_cast<R>(
      funcs::FftScale(normalization, forward, signal_detail::PointsOver(out_dims, fft_axes)));
  std::vector<int64_t> half_dims = out_dims;
  half_dims[last] = n / 2 + 1;
  int64_t half_numel = 1;
  for (int64_t d : half_dims) half_numel *= d;
  std::vector<T> half(half_numel);
  if (out_grad.numel() > 0) {
    funcs::FftR2CAxis<R>(out_grad.data<R>(), half.data(), out_dims, last, !forward, true, R(1));
    signal_detail::C2CInPlace<R>(half.data(), half_dims, {fft_axes.begin(), fft_axes.end() - 1},
                                 !forward);
  }
  // Bins 1 .. ceil(n / 2) - 1 have their conjugates among the bins past n / 2.
  int64_t inner = 1;
  for (int d = last + 1; d < static_cast<int>(half_dims.size()); ++d) inner *= half_dims[d];
  const int64_t doubled_end = (n + 1) / 2;
  for (int64_t i = 0; i < half_numel; ++i) {
    const int64_t bin = (i / inner) % half_dims[last];
    if (bin >= 1 && bin < doubled_end) half[i] *= R(2);
  }
  signal_detail::ResizeAxis<R>(half.data(), half_dims, g, x.dims().ToVector(), last, scale);
}

namespace signal_detail {

// frame / overlap_add see a signal as [outer, length, inner] and its frames as [outer,
// frame_length, frames] (axis -1; inner is 1) or [frames, frame_length, inner] (axis 0; outer
// is 1): point f of frame t is point t * hop + f of the signal.
struct FrameLayout {
  int64_t outer = 1;
  int64_t inner = 1;
  int64_t length = 0;
  int64_t frame_length = 0;
  int64_t frames = 0;
};

inline FrameLayout LayoutOf(const DDim& signal, const DDim& frames, int axis) {
  FrameLayout layout;
  const int rank = signal.size();
  if (axis != 0) {
    for (int d = 0; d < rank - 1; ++d) layout.outer *= signal[d];
    layout.length = signal[rank - 1];
    layout.frame_length = frames[frames.size() - 2];
    layout.frames = frames[frames.size() - 1];
  } else {
    for (int d = 1; d < rank; ++d) layout.inner *= signal[d];
    layout.length = signal[0];
    layout.frames = frames[0];
    layout.frame_length = frames[1];
  }
  return layout;
}

inline int64_t Threshold(int64_t work_per_item) {
  return std::max<int64_t>(1, funcs::kParallelThreshold / std::max<int64_t>(1, work_per_item));
}

}  // namespace signal_detail

template <typename T, typename Context>
void FrameKernel(const Context& ctx, const DenseTensor& x, int32_t frame_length, int32_t hop_length,
                 int32_t axis, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const signal_detail::FrameLayout l = signal_detail::LayoutOf(x.dims(), out->dims(), axis);
  const T* s = x.data<T>();
  if (axis != 0) {
    // Each row f of a frames matrix [frame_length, frames] reads the signal hop_length apart.
    funcs::ParallelFor(
        l.outer * l.frame_length,
        [&](int64_t begin, int64_t end) {
          for (int64_t row = begin; row < end; ++row) {
            const T* src = s + (row / l.frame_length) * l.length + row % l.frame_length;
            T* dst = o + row * l.frames;
            for (int64_t t = 0; t < l.frames; ++t) dst[t] = src[t * hop_length];
          }
        },
        signal_detail::Threshold(l.frames));
    return;
  }
  // Frame t is the signal's rows t * hop_length .. + frame_length, contiguous.
  const int64_t frame_size = l.frame_length * l.inner;
  funcs::ParallelFor(
      l.frames,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          std::copy(s + t * hop_length * l.inner, s + t * hop_length * l.inner + frame_size,
                    o + t * frame_size);
        }
      },
      signal_detail::Threshold(frame_size));
}

template <typename T, typename Context>
void OverlapAddKernel(const Context& ctx, const DenseTensor& x, int32_t hop_length, int32_t axis,
                      DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  std::fill(o, o + out->numel(), T(0));
  if (x.numel() == 0) return;
  const signal_detail::FrameLayout l = signal_detail::LayoutOf(out->dims(), x.dims(), axis);
  const T* frames = x.data<T>();
  // Integer sums wrap, as NumPy's and Paddle's (see Note [Integer overflow]).
  const funcs::AddFunctor<T> add;
  if (axis != 0) {
    // Each signal (outer) sums its own frames: no two threads write one point.
    funcs::ParallelFor(
        l.outer,
        [&](int64_t begin, int64_t end) {
          for (int64_t row = begin; row < end; ++row) {
            T* dst = o + row * l.length;
            for (int64_t f = 0; f < l.frame_length; ++f) {
              const T* src = frames + (row * l.frame_length + f) * l.frames;
              for (int64_t t = 0; t < l.frames; ++t) {
                dst[t * hop_length + f] = add(dst[t * hop_length + f], src[t]);
              }
            }
          }
        },
        signal_detail::Threshold(l.length * l.frame_length / std::max<int64_t>(1, hop_length)));
    return;
  }
  // Along axis 0 frames overlap in whole rows; the inner points split among the threads.
  funcs::ParallelFor(
      l.inner,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = 0; t < l.frames; ++t) {
          for (int64_t f = 0; f < l.frame_length; ++f) {
            const T* src = frames + (t * l.frame_length + f) * l.inner;
            T* dst = o + (t * hop_length + f) * l.inner;
            for (int64_t i = begin; i < end; ++i) dst[i] = add(dst[i], src[i]);
          }
        }
      },
      signal_detail::Threshold(l.frames * l.frame_length));
}

}  // namespace paddle
