// CPU layer_norm, and batch_norm with its fused gradient.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/batch_norm_view.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"

// CPU layer_norm: each row of the dims from begin_norm_axis on is normalized with a two-pass
// mean and (biased) variance, in MathType for 16-bit floats; rows run in parallel.
namespace paddle {

template <typename T, typename Context>
void LayerNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                     const DenseTensor* bias, float epsilon, int32_t begin_norm_axis,
                     DenseTensor* out, DenseTensor* mean, DenseTensor* variance) {
  using MT = MathType<T>;
  const DDim& dims = x.dims();
  int64_t rows = 1;
  for (int i = 0; i < begin_norm_axis; ++i) rows *= dims[i];
  int64_t n = 1;
  for (int i = begin_norm_axis; i < dims.size(); ++i) n *= dims[i];
  const T* in = x.data<T>();
  const T* s = scale ? scale->data<T>() : nullptr;
  const T* b = bias ? bias->data<T>() : nullptr;
  T* o = ctx.template Alloc<T>(out);
  MT* m = ctx.template Alloc<MT>(mean);
  MT* v = ctx.template Alloc<MT>(variance);
  const MT eps = static_cast<MT>(epsilon);
  funcs::ParallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* src = in + r * n;
          T* dst = o + r * n;
          MT total = 0;
          for (int64_t j = 0; j < n; ++j) total += static_cast<MT>(src[j]);
          MT mu = n > 0 ? total / static_cast<MT>(n) : MT(0);
          MT squares = 0;
          for (int64_t j = 0; j < n; ++j) {
            MT d = static_cast<MT>(src[j]) - mu;
            squares += d * d;
          }
          MT var = n > 0 ? squares / static_cast<MT>(n) : MT(0);
          MT inv_std = MT(1) / std::sqrt(var + eps);
          for (int64_t j = 0; j < n; ++j) {
            MT y = (static_cast<MT>(src[j]) - mu) * inv_std;
            if (s) y *= static_cast<MT>(s[j]);
            if (b) y += static_cast<MT>(b[j]);
            dst[j] = static_cast<T>(y);
          }
          m[r] = mu;
          v[r] = var;
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(n, 1) + 1);
}

}  // namespace paddle

// CPU batch_norm and its fused gradient, on the [outer, C, inner] view of x
// (funcs/batch_norm_view.h). Channels run in parallel, and a thread walks its channels row by
// row, so it reads contiguous runs of x in either layout. Sums accumulate in double, so float32
// statistics of large batches keep their precision.
namespace paddle {

namespace {

// Calls fn(begin, end) over ranges of channels, in parallel when the tensor is large.
template <typename Fn>
void ForChannels(const funcs::BatchNormView& v, Fn&& fn) {
  funcs::ParallelFor(v.channels, fn,
                     funcs::kParallelThreshold / std::max<int64_t>(v.per_channel(), 1) + 1);
}

// Calls run(c, begin, end) for each contiguous run [begin, end) of elements of channel c, for the
// channels [channel_begin, channel_end), in memory order.
template <typename Run>
void ForRuns(const funcs::BatchNormView& v, int64_t channel_begin, int64_t channel_end, Run&& run) {
  if (v.inner == 1) {
    // Channel last: runs of one element, spelled as such so that the channel loop vectorizes.
    for (int64_t o = 0; o < v.outer; ++o) {
      for (int64_t c = channel_begin; c < channel_end; ++c) {
        const int64_t i = o * v.channels + c;
        run(c, i, i + 1);
      }
    }
    return;
  }
  for (int64_t o = 0; o < v.outer; ++o) {
    for (int64_t c = channel_begin; c < channel_end; ++c) {
      const int64_t begin = (o * v.channels + c) * v.inner;
      run(c, begin, begin + v.inner);
    }
  }
}

// The sum of term(i) over a long run [begin, end), in double. Eight independent partial sums keep
// the additions from waiting on one another, which also lets them vectorize.
template <int kLanes, typename Term>
double LongRunSum(int64_t begin, int64_t end, const Term& term) {
  double partial[kLanes] = {};
  int64_t i = begin;
  for (; i + kLanes <= end; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) partial[k] += term(i + k);
  }
  double total = 0;
  for (; i < end; ++i) total += term(i);
  for (double p : partial) total += p;
  return total;
}

// The sum of term(i) over [begin, end), in double. Short runs (channel last: one element) stay
// a plain loop small enough to inline into the caller's vectorized channel loop.
template <typename Term>
double RunSum(int64_t begin, int64_t end, const Term& term) {
  constexpr int kLanes = 8;
  if (end - begin >= kLanes) return LongRunSum<kLanes>(begin, end, term);
  double total = 0;
  for (int64_t i = begin; i < end; ++i) total += term(i);
  return total;
}

}  // namespace

template <typename T, typename Context>
void BatchNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& mean,
                     const DenseTensor& variance, const DenseTensor* scale, const DenseTensor* bias,
                     bool is_test, float momentum, float epsilon, const std::string& data_format,
                     bool use_global_stats, bool trainable_statistics, DenseTensor* out,
                     DenseTensor* mean_out, DenseTensor* variance_out, DenseTensor* saved_mean,
                     DenseTensor* saved_variance, DenseTensor* reserve_space) {
  const funcs::BatchNormView v(x.dims(), data_format, "batch_norm");
  const int64_t count = v.per_channel();
  const bool global_stats = (is_test && !trainable_statistics) || use_global_stats;
  const T* in = x.data<T>();
  const T* running_mean = mean.data<T>();
  const T* running_var = variance.data<T>();
  const T* s = scale ? scale->data<T>() : nullptr;
  const T* b = bias ? bias->data<T>() : nullptr;
  T* y = ctx.template Alloc<T>(out);
  // mean_out and variance_out may be mean and variance themselves (batch_norm_).
  T* new_mean = ctx.template Alloc<T>(mean_out);
  T* new_var = ctx.template Alloc<T>(variance_out);
  T* batch_mean = ctx.template Alloc<T>(saved_mean);
  T* inv_std = ctx.template Alloc<T>(saved_variance);
  ctx.template Alloc<uint8_t>(reserve_space);
  const double eps = epsilon;
  const double keep = momentum;

  if (global_stats || count <= 1) {
    if (new_mean != running_mean) std::copy_n(running_mean, v.channels, new_mean);
    if (new_var != running_var) std::copy_n(running_var, v.channels, new_var);
  }
  if (!global_stats && count <= 1) {
    // One element per channel has no variance: Paddle passes x through unchanged and leaves
    // the running statistics alone.
    std::copy_n(in, x.numel(), y);
    std::fill_n(batch_mean, v.channels, T(0));
    std::fill_n(inv_std, v.channels, T(0));
    return;
  }
  ForChannels(v, [&](int64_t channel_begin, int64_t channel_end) {
    const int64_t n = channel_end - channel_begin;
    std::vector<double> mu(n, 0.0);
    std::vector<double> istd(n);
    if (global_stats) {
      for (int64_t c = channel_begin; c < channel_end; ++c) {
        mu[c - channel_begin] = running_mean[c];
        istd[c - channel_begin] = 1.0 / std::sqrt(static_cast<double>(running_var[c]) + eps);
      }
    } else {
      // Two passes (mean, then squared deviations) for a variance without cancellation.
      ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
        mu[c - channel_begin] +=
            RunSum(begin, end, [&](int64_t i) { return static_cast<double>(in[i]); });
      });
      std::vector<double> squares(n, 0.0);
      for (double& m : mu) m /= static_cast<double>(count);
      ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
        const double m = mu[c - channel_begin];
        squares[c - channel_begin] += RunSum(begin, end, [&](int64_t i) {
          const double d = in[i] - m;
          return d * d;
        });
      });
      for (int64_t c = channel_begin; c < channel_end; ++c) {
        const int64_t k = c - channel_begin;
        const double var = squares[k] / static_cast<double>(count);  // biased, as in Paddle
        istd[k] = 1.0 / std::sqrt(var + eps);
        new_mean[c] = static_cast<T>(keep * running_mean[c] + (1.0 - keep) * mu[k]);
        new_var[c] = static_cast<T>(keep * running_var[c] + (1.0 - keep) * var);
      }
    }
    // y = (x - mu) * istd * scale + bias = x * gain + (bias - mu * gain).
    std::vector<double> gain(n);
    std::vector<double> shift(n);
    for (int64_t c = channel_begin; c < channel_end; ++c) {
      const int64_t k = c - channel_begin;
      batch_mean[c] = static_cast<T>(mu[k]);
      inv_std[c] = static_cast<T>(istd[k]);
      gain[k] = istd[k] * (s ? static_cast<double>(s[c]) : 1.0);
      shift[k] = (b ? static_cast<double>(b[c]) : 0.0) - mu[k] * gain[k];
    }
    ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
      const double g = gain[c - channel_begin];
      const double h = shift[c - channel_begin];
      for (int64_t i = begin; i < end; ++i) y[i] = static_cast<T>(in[i] * g + h);
    });
  });
}

// With xhat = (x - mean) * inv_std over the M elements of a channel:
//   bias_grad = sum(dy), scale_grad = sum(dy * xhat),
//   x_grad = scale * inv_std * (dy - bias_grad / M - xhat * scale_grad / M)
// for batch statistics (they depend on x); with the running statistics, constants, the
// two mean terms drop out.
template <typename T, typename Context>
void BatchNormGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                         const DenseTensor& saved_mean, const DenseTensor& saved_variance,
                         const DenseTensor& out_grad, const std::string& data_format,
                         bool use_global_stats, DenseTensor* x_grad, DenseTensor* scale_grad,
                         DenseTensor* bias_grad) {
  const funcs::BatchNormView v(x.dims(), data_format, "batch_norm_grad");
  const int64_t count = v.per_channel();
  const T* in = x.data<T>();
  const T* dy = out_grad.data<T>();
  const T* mean = saved_mean.data<T>();
  const T* inv_std = saved_variance.data<T>();
  const T* s = scale ? scale->data<T>() : nullptr;
  T* dx = ctx.template Alloc<T>(x_grad);
  T* ds = ctx.template Alloc<T>(scale_grad);
  T* db = ctx.template Alloc<T>(bias_grad);
  if (!use_global_stats && count <= 1) {  // the forward passed x through
    std::copy_n(dy, x.numel(), dx);
    std::fill_n(ds, v.channels, T(0));
    std::fill_n(db, v.channels, T(0));
    return;
  }
  ForChannels(v, [&](int64_t channel_begin, int64_t channel_end) {
    const int64_t n = channel_end - channel_begin;
    std::vector<double> sum_dy(n, 0.0);
    std::vector<double> sum_dy_xhat(n, 0.0);
    ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
      const double m = mean[c];
      sum_dy[c - channel_begin] +=
          RunSum(begin, end, [&](int64_t i) { return static_cast<double>(dy[i]); });
      sum_dy_xhat[c - channel_begin] +=
          RunSum(begin, end, [&](int64_t i) { return dy[i] * (in[i] - m); }) *
          static_cast<double>(inv_std[c]);
    });
    for (int64_t c = channel_begin; c < channel_end; ++c) {
      db[c] = static_cast<T>(sum_dy[c - channel_begin]);
      ds[c] = static_cast<T>(sum_dy_xhat[c - channel_begin]);
    }
    ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
      const int64_t k = c - channel_begin;
      const double istd = inv_std[c];
      const double gain = istd * (s ? static_cast<double>(s[c]) : 1.0);
      if (use_global_stats) {
        for (int64_t i = begin; i < end; ++i) dx[i] = static_cast<T>(dy[i] * gain);
        return;
      }
      const double m = mean[c];
      const double mean_dy = sum_dy[k] / static_cast<double>(count);
      const double mean_dy_xhat = sum_dy_xhat[k] / static_cast<double>(count);
      for (int64_t i = begin; i < end; ++i) {
        const double xhat = (in[i] - m) * istd;
        dx[i] = static_cast<T>(gain * (dy[i] - mean_dy - xhat * mean_dy_xhat));
      }
    });
  });
}

}  // namespace paddle
