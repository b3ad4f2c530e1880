// sync_batch_norm's kernel, shared by the CPU (cpu/norm_kernels.h) and CUDA
// (gpu/norm_kernels.cuh) kernels: in a single process, the only kind this framework runs, the
// batch whose statistics the processes share is the local one, so it is batch_norm's kernel.
#pragma once

#include <string>

#include "paddle/core/dense_tensor.h"

namespace paddle {

// Defined by the including family header for its device.
template <typename T, typename Context>
void BatchNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& mean,
                     const DenseTensor& variance, const DenseTensor* scale, const DenseTensor* bias,
                     bool is_test, float momentum, float epsilon, const std::string& data_format,
                     bool use_global_stats, bool trainable_statistics, DenseTensor* out,
                     DenseTensor* mean_out, DenseTensor* variance_out, DenseTensor* saved_mean,
                     DenseTensor* saved_variance, DenseTensor* reserve_space);

template <typename T, typename Context>
void SyncBatchNormKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& mean,
                         const DenseTensor& variance, const DenseTensor* scale,
                         const DenseTensor* bias, bool is_test, float momentum, float epsilon,
                         const std::string& data_format, bool use_global_stats,
                         bool trainable_statistics, DenseTensor* out, DenseTensor* mean_out,
                         DenseTensor* variance_out, DenseTensor* saved_mean,
                         DenseTensor* saved_variance, DenseTensor* reserve_space) {
  BatchNormKernel<T, Context>(ctx, x, mean, variance, scale, bias, is_test, momentum, epsilon,
                              data_format, use_global_stats, trainable_statistics, out, mean_out,
                              variance_out, saved_mean, saved_variance, reserve_space);
}

}  // namespace paddle
