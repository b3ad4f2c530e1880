// CUDA kernels of full and full_like (a fill kernel; all-zero values use cudaMemsetAsync).
// Signatures as in paddle/ops/yaml/creation.yaml.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/elementwise_gpu.cuh"
namespace paddle {

namespace {

template <typename T>
void Fill(const GPUContext& ctx, const Scalar& value, DenseTensor* out) {
  T* data = ctx.Alloc<T>(out);
  int64_t n = out->numel();
  if (n == 0) return;
  T v;
  if constexpr (std::is_same_v<T, bool>) {
    v = value.to<double>() != 0.0;  // as the CPU kernel: 0.5 is true
  } else {
    v = value.to<T>();
  }
  T zero{};
  if (std::memcmp(&v, &zero, sizeof(T)) == 0) {
    gpu::DeviceGuard guard(ctx.device());
    PD_CUDA_CHECK(cudaMemsetAsync(data, 0, static_cast<size_t>(n) * sizeof(T), ctx.stream()),
                  ctx.device());
    return;
  }
  funcs::FillGPU<T>(ctx, data, n, v);
}

}  // namespace

template <typename T, typename Context>
void FullKernel(const Context& ctx, const std::vector<int64_t>& shape, const Scalar& value,
                DataType dtype, const Place& place, DenseTensor* out) {
  Fill<T>(ctx, value, out);
}

template <typename T, typename Context>
void FullLikeKernel(const Context& ctx, const DenseTensor& x, const Scalar& value, DataType dtype,
                    DenseTensor* out) {
  Fill<T>(ctx, value, out);
}

}  // namespace paddle
