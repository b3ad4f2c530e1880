// CPU layer_norm; batch_norm (and sync_batch_norm), group_norm and instance_norm with their fused
// gradients; lrn and spectral_norm with their gradients.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "paddle/common/data_format.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/batch_norm_view.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/impl/sync_batch_norm_kernel_impl.h"

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
    // y = (x - mu) * istd * scale + bias = x * gain + (bias - mu * gain). The per-channel
    // constants come from the double statistics; the elementwise pass runs in T's math type,
    // which vectorizes twice as wide as double for float.
    using MT = MathType<T>;
    std::vector<MT> gain(n);
    std::vector<MT> shift(n);
    for (int64_t c = channel_begin; c < channel_end; ++c) {
      const int64_t k = c - channel_begin;
      batch_mean[c] = static_cast<T>(mu[k]);
      inv_std[c] = static_cast<T>(istd[k]);
      const double g = istd[k] * (s ? static_cast<double>(s[c]) : 1.0);
      gain[k] = static_cast<MT>(g);
      shift[k] = static_cast<MT>((b ? static_cast<double>(b[c]) : 0.0) - mu[k] * g);
    }
    ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
      const MT g = gain[c - channel_begin];
      const MT h = shift[c - channel_begin];
      for (int64_t i = begin; i < end; ++i) y[i] = static_cast<T>(static_cast<MT>(in[i]) * g + h);
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
    // The elementwise pass in T's math type, as in the forward:
    // dx = gain * dy - gain * mean_dy - (x - m) * (gain * istd * mean_dy_xhat).
    using MT = MathType<T>;
    ForRuns(v, channel_begin, channel_end, [&](int64_t c, int64_t begin, int64_t end) {
      const int64_t k = c - channel_begin;
      const double istd = inv_std[c];
      const double gain = istd * (s ? static_cast<double>(s[c]) : 1.0);
      const MT g = static_cast<MT>(gain);
      if (use_global_stats) {
        for (int64_t i = begin; i < end; ++i) dx[i] = static_cast<T>(static_cast<MT>(dy[i]) * g);
        return;
      }
      const double mean_dy = sum_dy[k] / static_cast<double>(count);
      const double mean_dy_xhat = sum_dy_xhat[k] / static_cast<double>(count);
      const MT m = static_cast<MT>(mean[c]);
      const MT offset = static_cast<MT>(gain * mean_dy);
      const MT slope = static_cast<MT>(gain * istd * mean_dy_xhat);
      for (int64_t i = begin; i < end; ++i) {
        dx[i] = static_cast<T>(g * static_cast<MT>(dy[i]) - offset -
                               (static_cast<MT>(in[i]) - m) * slope);
      }
    });
  });
}

// fused_batch_norm_act: batch_norm in training mode over channel-last x, then relu over out in
// place (act_type is checked by the op's InferMeta).
template <typename T, typename Context>
void FusedBatchNormActKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& scale,
                             const DenseTensor& bias, const DenseTensor& mean,
                             const DenseTensor& variance, float momentum, float epsilon,
                             const std::string& act_type, DenseTensor* out, DenseTensor* mean_out,
                             DenseTensor* variance_out, DenseTensor* saved_mean,
                             DenseTensor* saved_variance, DenseTensor* reserve_space) {
  BatchNormKernel<T, Context>(ctx, x, mean, variance, &scale, &bias, /*is_test=*/false, momentum,
                              epsilon, "NHWC", /*use_global_stats=*/false,
                              /*trainable_statistics=*/false, out, mean_out, variance_out,
                              saved_mean, saved_variance, reserve_space);
  T* y = out->data<T>();
  const int64_t n = out->numel();
  funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = y[i] > T(0) ? y[i] : T(0);
  });
}

// relu's gradient (out_grad where out > 0) into x_grad's buffer, then batch_norm's gradient
// reads it there and overwrites it with x's gradient.
template <typename T, typename Context>
void FusedBatchNormActGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& scale,
                                 const DenseTensor& bias, const DenseTensor& out,
                                 const DenseTensor& saved_mean, const DenseTensor& saved_variance,
                                 const DenseTensor& reserve_space, const DenseTensor& out_grad,
                                 float momentum, float epsilon, const std::string& act_type,
                                 DenseTensor* x_grad, DenseTensor* scale_grad,
                                 DenseTensor* bias_grad) {
  DenseTensor masked(TensorMeta{out_grad.dims(), out_grad.dtype()});
  T* dy = ctx.template Alloc<T>(&masked);
  const T* y = out.data<T>();
  const T* g = out_grad.data<T>();
  const int64_t n = out_grad.numel();
  funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dy[i] = y[i] > T(0) ? g[i] : T(0);
  });
  BatchNormGradKernel<T, Context>(ctx, x, &scale, saved_mean, saved_variance, masked, "NHWC",
                                  /*use_global_stats=*/false, x_grad, scale_grad, bias_grad);
}

}  // namespace paddle

// CPU group_norm and instance_norm (group_norm with one channel per group) and their fused
// gradients. Both work on per-(sample, channel) sums, which a thread gathers from contiguous
// memory in either layout: a run of the spatial elements of one channel (NCHW), or a row of all
// channels at one spatial position (NHWC). A group's statistics are then the sums of its
// channels. Sums run in MathType lanes over blocks of at most kSumBlock elements, and the block
// totals add up in double, so long reductions stay accurate at float speed; statistics and the
// elementwise passes are computed in double.
namespace paddle {

namespace {

constexpr int64_t kSumBlock = 512;

// x as [N, C, spatial] (channel_last: [N, spatial, C]), its C channels in `groups` groups of
// adjacent channels.
struct GroupNormView {
  int64_t batch = 1;
  int64_t channels = 1;
  int64_t spatial = 1;
  int64_t groups = 1;
  bool channel_last = false;

  GroupNormView(const DDim& dims, int64_t num_groups, bool is_channel_last)
      : groups(num_groups), channel_last(is_channel_last) {
    const int rank = dims.size();
    const int channel_axis = channel_last ? rank - 1 : 1;
    batch = dims[0];
    channels = dims[channel_axis];
    for (int i = 1; i < rank; ++i) {
      if (i != channel_axis) spatial *= dims[i];
    }
  }

  int64_t channels_per_group() const { return groups > 0 ? channels / groups : 0; }
  // The elements of one (sample, group).
  int64_t group_count() const { return channels_per_group() * spatial; }
  // The group of the (sample, channel) pair nc = n * C + c, as n * groups + g.
  int64_t GroupOf(int64_t nc) const {
    return (nc / channels) * groups + (nc % channels) / channels_per_group();
  }
};

// The sum of term(i) over [begin, end), as described above.
template <typename Acc, typename Term>
double BlockedSum(int64_t begin, int64_t end, const Term& term) {
  constexpr int kLanes = 8;
  double total = 0;
  for (int64_t block = begin; block < end; block += kSumBlock) {
    const int64_t block_end = std::min(end, block + kSumBlock);
    Acc lanes[kLanes] = {};
    int64_t i = block;
    for (; i + kLanes <= block_end; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) lanes[k] += term(i + k);
    }
    Acc rest = 0;
    for (; i < block_end; ++i) rest += term(i);
    for (Acc lane : lanes) rest += lane;
    total += rest;
  }
  return total;
}

// sums[nc] = the sum of term(i, center) over the elements i of sample n in channel c, where
// center = centers[nc] (0 without centers) in Acc, nc = n * C + c.
template <typename Acc, typename Term>
std::vector<double> ChannelSums(const GroupNormView& v, const std::vector<double>* centers,
                                const Term& term) {
  const int64_t pairs = v.batch * v.channels;
  std::vector<double> sums(pairs, 0.0);
  auto center_of = [&](int64_t nc) { return centers ? static_cast<Acc>((*centers)[nc]) : Acc(0); };
  if (!v.channel_last) {
    funcs::ParallelFor(
        pairs,
        [&](int64_t begin, int64_t end) {
          for (int64_t nc = begin; nc < end; ++nc) {
            const Acc center = center_of(nc);
            sums[nc] = BlockedSum<Acc>(nc * v.spatial, (nc + 1) * v.spatial,
                                       [&](int64_t i) { return term(i, center); });
          }
        },
        funcs::kParallelThreshold / std::max<int64_t>(v.spatial, 1) + 1);
    return sums;
  }
  // Channel last: a task sums up to kSumBlock rows of one sample into per-channel lanes; the
  // tasks' partial sums are added in double afterwards.
  const int64_t chunks = std::max<int64_t>(1, (v.spatial + kSumBlock - 1) / kSumBlock);
  std::vector<double> partial(v.batch * chunks * v.channels);
  funcs::ParallelFor(
      v.batch * chunks,
      [&](int64_t begin, int64_t end) {
        std::vector<Acc> lanes(v.channels);
        std::vector<Acc> center(v.channels);
        for (int64_t task = begin; task < end; ++task) {
          const int64_t n = task / chunks;
          const int64_t row_begin = (task % chunks) * kSumBlock;
          const int64_t row_end = std::min(v.spatial, row_begin + kSumBlock);
          for (int64_t c = 0; c < v.channels; ++c) center[c] = center_of(n * v.channels + c);
          std::fill(lanes.begin(), lanes.end(), Acc(0));
          for (int64_t s = row_begin; s < row_end; ++s) {
            const int64_t row = (n * v.spatial + s) * v.channels;
            for (int64_t c = 0; c < v.channels; ++c) lanes[c] += term(row + c, center[c]);
          }
          std::copy(lanes.begin(), lanes.end(), partial.begin() + task * v.channels);
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(kSumBlock * v.channels, 1) + 1);
  for (int64_t n = 0; n < v.batch; ++n) {
    for (int64_t k = 0; k < chunks; ++k) {
      const double* part = partial.data() + (n * chunks + k) * v.channels;
      for (int64_t c = 0; c < v.channels; ++c) sums[n * v.channels + c] += part[c];
    }
  }
  return sums;
}

// Per (sample, group): the sum of the group's channels' entries of `sums`, divided by the
// group's element count (an empty group gives 0).
inline std::vector<double> GroupMeans(const GroupNormView& v, const std::vector<double>& sums) {
  std::vector<double> means(v.batch * v.groups, 0.0);
  for (int64_t nc = 0; nc < v.batch * v.channels; ++nc) means[v.GroupOf(nc)] += sums[nc];
  const double count = static_cast<double>(v.group_count());
  if (count > 0) {
    for (double& m : means) m /= count;
  }
  return means;
}

// Per (sample, channel): the value of its group.
inline std::vector<double> PerChannel(const GroupNormView& v,
                                      const std::vector<double>& per_group) {
  std::vector<double> out(v.batch * v.channels);
  for (int64_t nc = 0; nc < v.batch * v.channels; ++nc) out[nc] = per_group[v.GroupOf(nc)];
  return out;
}

// Calls fn(nc, begin, end) for each contiguous run [begin, end) of the elements of x, nc the
// (sample, channel) of the run's first element; channel-last runs are rows of all C channels.
template <typename Fn>
void ForRows(const GroupNormView& v, Fn&& fn) {
  const int64_t rows = v.channel_last ? v.batch * v.spatial : v.batch * v.channels;
  const int64_t length = v.channel_last ? v.channels : v.spatial;
  funcs::ParallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const int64_t nc = v.channel_last ? (r / v.spatial) * v.channels : r;
          fn(nc, r * length, (r + 1) * length);
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(length, 1) + 1);
}

// The group mean and variance (biased) of x per (sample, group).
template <typename T>
void GroupStatistics(const GroupNormView& v, const T* x, std::vector<double>* mean,
                     std::vector<double>* variance) {
  using MT = MathType<T>;
  *mean = GroupMeans(
      v, ChannelSums<MT>(v, nullptr, [&](int64_t i, MT) { return static_cast<MT>(x[i]); }));
  // Two passes (mean, then squared deviations): no cancellation for data far from zero.
  const std::vector<double> centers = PerChannel(v, *mean);
  *variance = GroupMeans(v, ChannelSums<MT>(v, &centers, [&](int64_t i, MT center) {
                           const MT d = static_cast<MT>(x[i]) - center;
                           return d * d;
                         }));
}

// y = (x - mean) * rstd * scale + bias with the statistics of each element's (sample, group).
template <typename T>
void GroupNormalize(const GroupNormView& v, const T* x, const T* scale, const T* bias,
                    const std::vector<double>& mean, const std::vector<double>& rstd, T* y) {
  const int64_t pairs = v.batch * v.channels;
  std::vector<double> center(pairs);
  std::vector<double> gain(pairs);
  std::vector<double> shift(pairs);
  for (int64_t nc = 0; nc < pairs; ++nc) {
    const int64_t c = nc % v.channels;
    const int64_t g = v.GroupOf(nc);
    center[nc] = mean[g];
    gain[nc] = rstd[g] * (scale ? static_cast<double>(scale[c]) : 1.0);
    shift[nc] = bias ? static_cast<double>(bias[c]) : 0.0;
  }
  ForRows(v, [&](int64_t nc, int64_t begin, int64_t end) {
    if (v.channel_last) {
      for (int64_t i = begin, k = nc; i < end; ++i, ++k) {
        y[i] = static_cast<T>((static_cast<double>(x[i]) - center[k]) * gain[k] + shift[k]);
      }
      return;
    }
    const double m = center[nc], g = gain[nc], h = shift[nc];
    for (int64_t i = begin; i < end; ++i) {
      y[i] = static_cast<T>((static_cast<double>(x[i]) - m) * g + h);
    }
  });
}

// With xhat = (x - mean) * rstd and g = y_grad * scale over the M elements of a group:
//   bias_grad = sum(y_grad), scale_grad = sum(y_grad * xhat) (per channel, over the batch),
//   x_grad = rstd * (g - sum(g) / M - xhat * sum(g * xhat) / M),
// which per (sample, channel) is a * y_grad + b * (x - mean) + e with a, b, e from two sums per
// (sample, channel): of y_grad and of y_grad * (x - mean).
template <typename T>
void GroupNormBackward(const GroupNormView& v, const T* x, const T* scale, const T* dy,
                       const std::vector<double>& mean, const std::vector<double>& rstd, T* dx,
                       T* dscale, T* dbias) {
  using MT = MathType<T>;
  const int64_t pairs = v.batch * v.channels;
  const std::vector<double> centers = PerChannel(v, mean);
  const std::vector<double> sum_dy =
      ChannelSums<MT>(v, nullptr, [&](int64_t i, MT) { return static_cast<MT>(dy[i]); });
  const std::vector<double> sum_dy_xc = ChannelSums<MT>(v, &centers, [&](int64_t i, MT center) {
    return static_cast<MT>(dy[i]) * (static_cast<MT>(x[i]) - center);
  });
  auto gamma = [&](int64_t c) { return scale ? static_cast<double>(scale[c]) : 1.0; };
  std::vector<double> mean_g(v.batch * v.groups, 0.0);       // sum(g) / M
  std::vector<double> mean_g_xhat(v.batch * v.groups, 0.0);  // sum(g * xhat) / M
  std::vector<double> scale_grad(v.channels, 0.0);
  std::vector<double> bias_grad(v.channels, 0.0);
  for (int64_t nc = 0; nc < pairs; ++nc) {
    const int64_t c = nc % v.channels;
    const int64_t g = v.GroupOf(nc);
    mean_g[g] += gamma(c) * sum_dy[nc];
    mean_g_xhat[g] += gamma(c) * rstd[g] * sum_dy_xc[nc];
    scale_grad[c] += rstd[g] * sum_dy_xc[nc];
    bias_grad[c] += sum_dy[nc];
  }
  const double count = static_cast<double>(std::max<int64_t>(v.group_count(), 1));
  for (int64_t g = 0; g < v.batch * v.groups; ++g) {
    mean_g[g] /= count;
    mean_g_xhat[g] /= count;
  }
  for (int64_t c = 0; c < v.channels; ++c) {
    dscale[c] = static_cast<T>(scale_grad[c]);
    dbias[c] = static_cast<T>(bias_grad[c]);
  }
  std::vector<double> a(pairs);
  std::vector<double> b(pairs);
  std::vector<double> e(pairs);
  for (int64_t nc = 0; nc < pairs; ++nc) {
    const int64_t g = v.GroupOf(nc);
    a[nc] = rstd[g] * gamma(nc % v.channels);
    b[nc] = -rstd[g] * rstd[g] * mean_g_xhat[g];
    e[nc] = -rstd[g] * mean_g[g];
  }
  ForRows(v, [&](int64_t nc, int64_t begin, int64_t end) {
    if (v.channel_last) {
      for (int64_t i = begin, k = nc; i < end; ++i, ++k) {
        dx[i] = static_cast<T>(a[k] * static_cast<double>(dy[i]) +
                               b[k] * (static_cast<double>(x[i]) - centers[k]) + e[k]);
      }
      return;
    }
    const double ak = a[nc], bk = b[nc], ek = e[nc], m = centers[nc];
    for (int64_t i = begin; i < end; ++i) {
      dx[i] = static_cast<T>(ak * static_cast<double>(dy[i]) +
                             bk * (static_cast<double>(x[i]) - m) + ek);
    }
  });
}

inline bool IsChannelLast(const std::string& data_format, int rank, const char* op) {
  return ChannelAxis(data_format, rank, op) != 1;
}

// 1 / sqrt(variance + epsilon) of each entry.
inline std::vector<double> ReciprocalStd(const std::vector<double>& variance, float epsilon) {
  std::vector<double> rstd(variance.size());
  for (size_t i = 0; i < variance.size(); ++i) {
    rstd[i] = 1.0 / std::sqrt(variance[i] + static_cast<double>(epsilon));
  }
  return rstd;
}

}  // namespace

template <typename T, typename Context>
void GroupNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                     const DenseTensor* bias, float epsilon, int32_t groups,
                     const std::string& data_format, DenseTensor* y, DenseTensor* mean,
                     DenseTensor* variance) {
  using MT = MathType<T>;
  const GroupNormView v(x.dims(), groups,
                        IsChannelLast(data_format, x.dims().size(), "group_norm"));
  const T* in = x.data<T>();
  T* out = ctx.template Alloc<T>(y);
  MT* mean_out = ctx.template Alloc<MT>(mean);
  MT* variance_out = ctx.template Alloc<MT>(variance);
  std::vector<double> mu;
  std::vector<double> var;
  GroupStatistics(v, in, &mu, &var);
  std::copy(mu.begin(), mu.end(), mean_out);
  std::copy(var.begin(), var.end(), variance_out);
  GroupNormalize(v, in, scale ? scale->data<T>() : nullptr, bias ? bias->data<T>() : nullptr, mu,
                 ReciprocalStd(var, epsilon), out);
}

template <typename T, typename Context>
void GroupNormGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                         const DenseTensor& mean, const DenseTensor& variance,
                         const DenseTensor& y_grad, float epsilon, int32_t groups,
                         const std::string& data_format, DenseTensor* x_grad,
                         DenseTensor* scale_grad, DenseTensor* bias_grad) {
  using MT = MathType<T>;
  const GroupNormView v(x.dims(), groups,
                        IsChannelLast(data_format, x.dims().size(), "group_norm_grad"));
  const int64_t statistics = v.batch * v.groups;
  const MT* mean_in = mean.data<MT>();
  const MT* variance_in = variance.data<MT>();
  const std::vector<double> mu(mean_in, mean_in + statistics);
  const std::vector<double> var(variance_in, variance_in + statistics);
  GroupNormBackward(v, x.data<T>(), scale ? scale->data<T>() : nullptr, y_grad.data<T>(), mu,
                    ReciprocalStd(var, epsilon), ctx.template Alloc<T>(x_grad),
                    ctx.template Alloc<T>(scale_grad), ctx.template Alloc<T>(bias_grad));
}

template <typename T, typename Context>
void InstanceNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                        const DenseTensor* bias, float epsilon, DenseTensor* y,
                        DenseTensor* saved_mean, DenseTensor* saved_variance) {
  using MT = MathType<T>;
  const GroupNormView v(x.dims(), x.dims()[1], false);
  const T* in = x.data<T>();
  T* out = ctx.template Alloc<T>(y);
  MT* mean_out = ctx.template Alloc<MT>(saved_mean);
  MT* rstd_out = ctx.template Alloc<MT>(saved_variance);
  std::vector<double> mu;
  std::vector<double> var;
  GroupStatistics(v, in, &mu, &var);
  const std::vector<double> rstd = ReciprocalStd(var, epsilon);
  std::copy(mu.begin(), mu.end(), mean_out);
  std::copy(rstd.begin(), rstd.end(), rstd_out);
  GroupNormalize(v, in, scale ? scale->data<T>() : nullptr, bias ? bias->data<T>() : nullptr, mu,
                 rstd, out);
}

template <typename T, typename Context>
void InstanceNormGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                            const DenseTensor& saved_mean, const DenseTensor& saved_variance,
                            const DenseTensor& y_grad, float epsilon, DenseTensor* x_grad,
                            DenseTensor* scale_grad, DenseTensor* bias_grad) {
  using MT = MathType<T>;
  const GroupNormView v(x.dims(), x.dims()[1], false);
  const int64_t statistics = v.batch * v.channels;
  const MT* mean_in = saved_mean.data<MT>();
  const MT* rstd_in = saved_variance.data<MT>();
  GroupNormBackward(v, x.data<T>(), scale ? scale->data<T>() : nullptr, y_grad.data<T>(),
                    std::vector<double>(mean_in, mean_in + statistics),
                    std::vector<double>(rstd_in, rstd_in + statistics),
                    ctx.template Alloc<T>(x_grad), ctx.template Alloc<T>(scale_grad),
                    ctx.template Alloc<T>(bias_grad));
}

}  // namespace paddle

// CPU lrn and its gradient on the [outer, C, inner] view of x (funcs/batch_norm_view.h): a pass
// of window sums over the channels, then an elementwise pass. With inner > 1 (NCHW) a task takes
// (outer, channel) rows and adds the window's rows, contiguous runs; with inner == 1 (NHWC) a
// task takes whole channel vectors.
namespace paddle {

namespace {

// The channels [c - before, c + after] of a window at channel c (those that exist).
struct LrnWindow {
  int64_t before;
  int64_t after;
};

// lrn's window (norm.yaml).
inline LrnWindow LrnForwardWindow(int32_t n) { return {n / 2, (n - 1) / 2}; }

// The window of the gradient: the channels whose forward window holds c.
inline LrnWindow LrnGradWindow(int32_t n) {
  const LrnWindow forward = LrnForwardWindow(n);
  return {forward.after, forward.before};
}

inline funcs::BatchNormView LrnView(const DDim& dims, const std::string& data_format,
                                    const char* op) {
  return funcs::BatchNormView(dims, data_format == "AnyLayout" ? "NCHW" : data_format, op);
}

// sums[i] = the sum of value(j) over the elements j at i's position in the channels of i's
// window.
template <typename T, typename Value>
void WindowSums(const funcs::BatchNormView& v, const LrnWindow& window, const Value& value,
                T* sums) {
  const int64_t channels = v.channels;
  const int64_t inner = v.inner;
  if (inner == 1) {
    funcs::ParallelFor(
        v.outer,
        [&](int64_t begin, int64_t end) {
          for (int64_t o = begin; o < end; ++o) {
            // One pass per window offset d, each over the channels c that have channel c + d.
            T* out = sums + o * channels;
            std::fill_n(out, channels, T(0));
            for (int64_t d = -window.before; d <= window.after; ++d) {
              const int64_t first = std::max<int64_t>(0, -d);
              const int64_t last = std::min<int64_t>(channels, channels - d);
              const int64_t base = o * channels + d;
              for (int64_t c = first; c < last; ++c) out[c] += value(base + c);
            }
          }
        },
        funcs::kParallelThreshold / std::max<int64_t>(channels, 1) + 1);
    return;
  }
  funcs::ParallelFor(
      v.outer * channels,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t c = row % channels;
          const int64_t first = row - c;  // channel 0 of the same outer index
          const int64_t lo = std::max<int64_t>(0, c - window.before);
          const int64_t hi = std::min<int64_t>(channels - 1, c + window.after);
          T* out = sums + row * inner;
          std::fill_n(out, inner, T(0));
          for (int64_t w = first + lo; w <= first + hi; ++w) {
            const int64_t offset = w * inner;
            for (int64_t j = 0; j < inner; ++j) out[j] += value(offset + j);
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(inner, 1) + 1);
}

// Calls fn(i, power) for i in [0, n) with power = base(i)^-beta; Paddle's default beta = 0.75
// takes square roots, which vectorize, instead of pow.
template <typename T, typename Base, typename Fn>
void ForPowMinusBeta(int64_t n, T beta, const Base& base, const Fn& fn) {
  funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
    if (beta == T(0.75)) {
      for (int64_t i = begin; i < end; ++i) {
        const T r = T(1) / std::sqrt(std::sqrt(base(i)));
        fn(i, r * r * r);
      }
    } else {
      for (int64_t i = begin; i < end; ++i) fn(i, std::pow(base(i), -beta));
    }
  });
}

}  // namespace

template <typename T, typename Context>
void LrnKernel(const Context& ctx, const DenseTensor& x, int32_t n, float k, float alpha,
               float beta, const std::string& data_format, DenseTensor* out, DenseTensor* mid_out) {
  const funcs::BatchNormView v = LrnView(x.dims(), data_format, "lrn");
  const T* in = x.data<T>();
  T* y = ctx.template Alloc<T>(out);
  T* mid = ctx.template Alloc<T>(mid_out);
  WindowSums(
      v, LrnForwardWindow(n), [&](int64_t i) { return in[i] * in[i]; }, mid);
  const T offset = static_cast<T>(k);
  const T scale = static_cast<T>(alpha);
  ForPowMinusBeta(
      x.numel(), static_cast<T>(beta),
      [&](int64_t i) {
        mid[i] = offset + scale * mid[i];
        return mid[i];
      },
      [&](int64_t i, T power) { y[i] = in[i] * power; });
}

// out_c depends on x_i for the channels c whose window holds i:
//   x_grad_i = out_grad_i * mid_i^-beta - 2 alpha beta x_i * sum_c out_grad_c out_c / mid_c.
template <typename T, typename Context>
void LrnGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out,
                   const DenseTensor& mid_out, const DenseTensor& out_grad, int32_t n, float alpha,
                   float beta, const std::string& data_format, DenseTensor* x_grad) {
  const funcs::BatchNormView v = LrnView(x.dims(), data_format, "lrn_grad");
  const T* in = x.data<T>();
  const T* y = out.data<T>();
  const T* mid = mid_out.data<T>();
  const T* dy = out_grad.data<T>();
  T* dx = ctx.template Alloc<T>(x_grad);
  WindowSums(
      v, LrnGradWindow(n), [&](int64_t i) { return dy[i] * y[i] / mid[i]; }, dx);
  const T scale = static_cast<T>(-2.0 * alpha * beta);
  ForPowMinusBeta(
      x.numel(), static_cast<T>(beta), [&](int64_t i) { return mid[i]; },
      [&](int64_t i, T power) { dx[i] = dy[i] * power + scale * in[i] * dx[i]; });
}

}  // namespace paddle

// CPU spectral_norm and its gradient. weight is read in place as the [h, w] matrix W of
// norm.yaml: with weight as [outer, h, inner] around dim `dim`, W(i, o * inner + k) is
// weight[o, i, k], so no transpose is made. The power iteration runs in double.
namespace paddle {

namespace {

struct SpectralMatrix {
  int64_t outer = 1;
  int64_t rows = 1;  // h
  int64_t inner = 1;

  SpectralMatrix(const DDim& dims, int dim) {
    for (int i = 0; i < dims.size(); ++i) {
      if (i < dim) outer *= dims[i];
      if (i == dim) rows = dims[i];
      if (i > dim) inner *= dims[i];
    }
  }
  int64_t cols() const { return outer * inner; }  // w
};

// out = W v (h entries).
template <typename T>
void MatrixTimesVector(const SpectralMatrix& m, const T* weight, const std::vector<double>& v,
                       std::vector<double>* out) {
  funcs::ParallelFor(
      m.rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          double total = 0;
          for (int64_t o = 0; o < m.outer; ++o) {
            const T* run = weight + (o * m.rows + i) * m.inner;
            const double* vv = v.data() + o * m.inner;
            for (int64_t k = 0; k < m.inner; ++k) total += static_cast<double>(run[k]) * vv[k];
          }
          (*out)[i] = total;
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(m.cols(), 1) + 1);
}

// out = W^T u (w entries). A task takes a range of columns and walks the rows, reading each
// row's part of that range as one contiguous run per outer index.
template <typename T>
void TransposedTimesVector(const SpectralMatrix& m, const T* weight, const std::vector<double>& u,
                           std::vector<double>* out) {
  funcs::ParallelFor(
      m.cols(),
      [&](int64_t begin, int64_t end) {
        std::fill(out->begin() + begin, out->begin() + end, 0.0);
        for (int64_t i = 0; i < m.rows; ++i) {
          const double ui = u[i];
          for (int64_t j = begin; j < end;) {
            const int64_t o = j / m.inner;
            const int64_t stop = std::min(end, (o + 1) * m.inner);
            const T* run = weight + (o * m.rows + i) * m.inner - o * m.inner;
            for (; j < stop; ++j) (*out)[j] += static_cast<double>(run[j]) * ui;
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(m.rows, 1) + 1);
}

// v / (|v| + eps), in place.
inline void NormalizeVector(std::vector<double>* v, float eps) {
  double squares = 0;
  for (double e : *v) squares += e * e;
  const double scale = 1.0 / (std::sqrt(squares) + static_cast<double>(eps));
  for (double& e : *v) e *= scale;
}

// The iterated u and v and sigma = u . W v of norm.yaml's spectral_norm.
template <typename T>
double SpectralSigma(const SpectralMatrix& m, const T* weight, const DenseTensor& u_in,
                     const DenseTensor& v_in, int32_t power_iters, float eps,
                     std::vector<double>* u, std::vector<double>* v) {
  const T* u0 = u_in.data<T>();
  const T* v0 = v_in.data<T>();
  u->assign(u0, u0 + m.rows);
  v->assign(v0, v0 + m.cols());
  for (int32_t it = 0; it < power_iters; ++it) {
    TransposedTimesVector(m, weight, *u, v);
    NormalizeVector(v, eps);
    MatrixTimesVector(m, weight, *v, u);
    NormalizeVector(u, eps);
  }
  std::vector<double> wv(m.rows);
  MatrixTimesVector(m, weight, *v, &wv);
  double sigma = 0;
  for (int64_t i = 0; i < m.rows; ++i) sigma += (*u)[i] * wv[i];
  return sigma;
}

}  // namespace

template <typename T, typename Context>
void SpectralNormKernel(const Context& ctx, const DenseTensor& weight, const DenseTensor& u,
                        const DenseTensor& v, int32_t dim, int32_t power_iters, float eps,
                        DenseTensor* out) {
  const SpectralMatrix m(weight.dims(), dim);
  const T* w = weight.data<T>();
  T* y = ctx.template Alloc<T>(out);
  std::vector<double> uu;
  std::vector<double> vv;
  const double inv_sigma = 1.0 / SpectralSigma(m, w, u, v, power_iters, eps, &uu, &vv);
  funcs::ParallelFor(weight.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = static_cast<T>(w[i] * inv_sigma);
  });
}

// With out = weight / sigma and sigma = u . W v for constant u and v:
//   weight_grad = (out_grad - sum(out_grad * out) u v^T) / sigma.
template <typename T, typename Context>
void SpectralNormGradKernel(const Context& ctx, const DenseTensor& weight, const DenseTensor& u,
                            const DenseTensor& v, const DenseTensor& out_grad, int32_t dim,
                            int32_t power_iters, float eps, DenseTensor* weight_grad) {
  const SpectralMatrix m(weight.dims(), dim);
  const T* w = weight.data<T>();
  const T* dy = out_grad.data<T>();
  T* dw = ctx.template Alloc<T>(weight_grad);
  std::vector<double> uu;
  std::vector<double> vv;
  const double sigma = SpectralSigma(m, w, u, v, power_iters, eps, &uu, &vv);
  double projection = 0;  // sum(out_grad * out)
  for (int64_t i = 0; i < weight.numel(); ++i) {
    projection += static_cast<double>(dy[i]) * static_cast<double>(w[i]);
  }
  projection /= sigma;
  funcs::ParallelFor(
      m.outer * m.rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const int64_t o = r / m.rows;
          const double ui = uu[r % m.rows] * projection;
          const double* vo = vv.data() + o * m.inner;
          for (int64_t k = 0; k < m.inner; ++k) {
            const int64_t i = r * m.inner + k;
            dw[i] = static_cast<T>((static_cast<double>(dy[i]) - ui * vo[k]) / sigma);
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(m.inner, 1) + 1);
}

}  // namespace paddle
