// CUDA batch_norm (and sync_batch_norm) and its fused gradient: same signatures, names, dtypes
// and results as cpu/norm_kernels.h. One block per channel (grid-stride over channels) reduces
// the channel in double with a shared-memory tree, then normalizes it (or writes its gradient) in
// a second pass over the same elements.
#pragma once

#include <algorithm>
#include <string>

#include "paddle/kernels/funcs/batch_norm_view.h"
#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"
#include "paddle/kernels/impl/sync_batch_norm_kernel_impl.h"
namespace paddle {

namespace {

constexpr int kThreads = 256;  // a power of two, for the tree reduction

// The sum of every thread's `value`, returned to all threads of the block.
__device__ double BlockSum(double value, double* partial) {
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  const double total = partial[0];
  __syncthreads();  // before the next sum overwrites partial
  return total;
}

template <typename T>
struct ForwardArgs {
  const T* x;
  const T* running_mean;
  const T* running_var;
  const T* scale;  // null: 1
  const T* bias;   // null: 0
  T* y;
  T* new_mean;  // may be running_mean (batch_norm_), likewise new_var
  T* new_var;
  T* saved_mean;
  T* saved_inv_std;
  double keep;  // momentum
  double epsilon;
  bool global_stats;
};

template <typename T>
__global__ void BatchNormForwardGPUKernel(funcs::BatchNormView v, ForwardArgs<T> a) {
  __shared__ double partial[kThreads];
  const int64_t count = v.per_channel();
  // One element per channel has no variance: Paddle passes x through unchanged.
  const bool pass_through = !a.global_stats && count <= 1;
  for (int64_t c = blockIdx.x; c < v.channels; c += gridDim.x) {
    double mu = 0;
    double inv_std = 0;
    if (a.global_stats) {
      mu = a.running_mean[c];
      inv_std = 1.0 / sqrt(static_cast<double>(a.running_var[c]) + a.epsilon);
    } else if (!pass_through) {
      double total = 0;
      for (int64_t j = threadIdx.x; j < count; j += kThreads) total += a.x[v.Offset(c, j)];
      mu = BlockSum(total, partial) / static_cast<double>(count);
      double squares = 0;
      for (int64_t j = threadIdx.x; j < count; j += kThreads) {
        const double d = a.x[v.Offset(c, j)] - mu;
        squares += d * d;
      }
      const double var = BlockSum(squares, partial) / static_cast<double>(count);  // biased
      inv_std = 1.0 / sqrt(var + a.epsilon);
      if (threadIdx.x == 0) {
        a.new_mean[c] = static_cast<T>(a.keep * a.running_mean[c] + (1.0 - a.keep) * mu);
        a.new_var[c] = static_cast<T>(a.keep * a.running_var[c] + (1.0 - a.keep) * var);
      }
    }
    if (threadIdx.x == 0) {
      if (a.global_stats || pass_through) {
        a.new_mean[c] = a.running_mean[c];
        a.new_var[c] = a.running_var[c];
      }
      a.saved_mean[c] = static_cast<T>(mu);
      a.saved_inv_std[c] = static_cast<T>(inv_std);
    }
    // y = (x - mu) * inv_std * scale + bias = x * gain + shift.
    const double gain =
        pass_through ? 1.0 : inv_std * (a.scale ? static_cast<double>(a.scale[c]) : 1.0);
    const double shift =
        pass_through ? 0.0 : (a.bias ? static_cast<double>(a.bias[c]) : 0.0) - mu * gain;
    for (int64_t j = threadIdx.x; j < count; j += kThreads) {
      const int64_t i = v.Offset(c, j);
      a.y[i] = pass_through ? a.x[i] : static_cast<T>(a.x[i] * gain + shift);
    }
  }
}

template <typename T>
struct BackwardArgs {
  const T* x;
  const T* dy;
  const T* mean;
  const T* inv_std;
  const T* scale;  // null: 1
  T* dx;
  T* dscale;
  T* dbias;
  bool global_stats;
};

// The formulas of BatchNormGradKernel in cpu/norm_kernels.h.
template <typename T>
__global__ void BatchNormBackwardGPUKernel(funcs::BatchNormView v, BackwardArgs<T> a) {
  __shared__ double partial[kThreads];
  const int64_t count = v.per_channel();
  const bool pass_through = !a.global_stats && count <= 1;  // the forward passed x through
  for (int64_t c = blockIdx.x; c < v.channels; c += gridDim.x) {
    const double m = a.mean[c];
    const double istd = a.inv_std[c];
    double total = 0;
    double projected = 0;
    for (int64_t j = threadIdx.x; j < count; j += kThreads) {
      const int64_t i = v.Offset(c, j);
      total += a.dy[i];
      projected += a.dy[i] * (a.x[i] - m);
    }
    const double sum_dy = BlockSum(total, partial);
    const double sum_dy_xhat = BlockSum(projected, partial) * istd;
    if (threadIdx.x == 0) {
      a.dbias[c] = static_cast<T>(pass_through ? 0.0 : sum_dy);
      a.dscale[c] = static_cast<T>(pass_through ? 0.0 : sum_dy_xhat);
    }
    const double gain = istd * (a.scale ? static_cast<double>(a.scale[c]) : 1.0);
    const double mean_dy = sum_dy / static_cast<double>(count);
    const double mean_dy_xhat = sum_dy_xhat / static_cast<double>(count);
    for (int64_t j = threadIdx.x; j < count; j += kThreads) {
      const int64_t i = v.Offset(c, j);
      if (pass_through) {
        a.dx[i] = a.dy[i];
      } else if (a.global_stats) {
        a.dx[i] = static_cast<T>(a.dy[i] * gain);
      } else {
        const double xhat = (a.x[i] - m) * istd;
        a.dx[i] = static_cast<T>(gain * (a.dy[i] - mean_dy - xhat * mean_dy_xhat));
      }
    }
  }
}

int GridFor(const GPUContext& ctx, int64_t channels) {
  return static_cast<int>(std::min<int64_t>(channels, ctx.max_grid_size()));
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
  ForwardArgs<T> a;
  a.x = x.data<T>();
  a.running_mean = mean.data<T>();
  a.running_var = variance.data<T>();
  a.scale = scale ? scale->data<T>() : nullptr;
  a.bias = bias ? bias->data<T>() : nullptr;
  a.y = ctx.template Alloc<T>(out);
  a.new_mean = ctx.template Alloc<T>(mean_out);
  a.new_var = ctx.template Alloc<T>(variance_out);
  a.saved_mean = ctx.template Alloc<T>(saved_mean);
  a.saved_inv_std = ctx.template Alloc<T>(saved_variance);
  ctx.template Alloc<uint8_t>(reserve_space);
  a.keep = momentum;
  a.epsilon = epsilon;
  a.global_stats = (is_test && !trainable_statistics) || use_global_stats;
  if (v.channels == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  BatchNormForwardGPUKernel<T><<<GridFor(ctx, v.channels), kThreads, 0, ctx.stream()>>>(v, a);
  PD_CUDA_CHECK_LAUNCH("batch_norm", ctx.device());
}

template <typename T, typename Context>
void BatchNormGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* scale,
                         const DenseTensor& saved_mean, const DenseTensor& saved_variance,
                         const DenseTensor& out_grad, const std::string& data_format,
                         bool use_global_stats, DenseTensor* x_grad, DenseTensor* scale_grad,
                         DenseTensor* bias_grad) {
  const funcs::BatchNormView v(x.dims(), data_format, "batch_norm_grad");
  BackwardArgs<T> a;
  a.x = x.data<T>();
  a.dy = out_grad.data<T>();
  a.mean = saved_mean.data<T>();
  a.inv_std = saved_variance.data<T>();
  a.scale = scale ? scale->data<T>() : nullptr;
  a.dx = ctx.template Alloc<T>(x_grad);
  a.dscale = ctx.template Alloc<T>(scale_grad);
  a.dbias = ctx.template Alloc<T>(bias_grad);
  a.global_stats = use_global_stats;
  if (v.channels == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  BatchNormBackwardGPUKernel<T><<<GridFor(ctx, v.channels), kThreads, 0, ctx.stream()>>>(v, a);
  PD_CUDA_CHECK_LAUNCH("batch_norm_grad", ctx.device());
}

}  // namespace paddle
