// CUDA kernels of assign, assign_value, add_n and increment (impl/increment_kernel_impl.h).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"
#include "paddle/kernels/impl/increment_kernel_impl.h"

// CUDA assign (a device-to-device copy) and assign_value (values converted on the host, then one
// host-to-device copy). Both copies are queued on the context's stream, so they are ordered with
// the kernels around them.
namespace paddle {

template <typename T, typename Context>
void AssignKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (x.numel() == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  PD_CUDA_CHECK(cudaMemcpyAsync(o, x.data<T>(), x.nbytes(), cudaMemcpyDeviceToDevice, ctx.stream()),
                ctx.device());
}

// The values convert as cast does (see the CPU kernel). A copy from pageable host memory returns
// once the source has been staged, so the host buffer may go when the call returns.
template <typename T, typename Context>
void AssignValueKernel(const Context& ctx, const std::vector<int64_t>& shape, DataType dtype,
                       const std::vector<double>& values, const Place& place, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (values.empty()) return;
  std::unique_ptr<T[]> host(new T[values.size()]);
  funcs::CastFunctor<double, T> convert;
  for (size_t i = 0; i < values.size(); ++i) host[i] = convert(values[i]);
  gpu::DeviceGuard guard(ctx.device());
  PD_CUDA_CHECK(cudaMemcpyAsync(o, host.get(), values.size() * sizeof(T), cudaMemcpyHostToDevice,
                                ctx.stream()),
                ctx.device());
}

}  // namespace paddle

// CUDA add_n: the elementwise sum of same-shape tensors, accumulated in MathType<T> as on the CPU.
// The input pointers travel by value in the launch parameters, kAddNChunk at a time; a longer
// list adds chunk after chunk onto `out` (rounding to T once per chunk).
namespace paddle {

namespace {

constexpr int kAddNChunk = 64;  // 512 bytes of pointers, well inside the 4 KB parameter limit

template <typename T>
struct AddNChunk {
  const T* data[kAddNChunk];
  int count;
};

// out[i] = (accumulate ? out[i] : 0) + sum of the chunk's inputs at i.
template <typename T>
__global__ void AddNChunkKernel(AddNChunk<T> chunk, bool accumulate, T* out, int64_t n) {
  using MT = MathType<T>;
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    MT sum = accumulate ? static_cast<MT>(out[i]) : MT(0);
    for (int k = 0; k < chunk.count; ++k) sum += static_cast<MT>(chunk.data[k][i]);
    out[i] = static_cast<T>(sum);
  }
}

}  // namespace

template <typename T, typename Context>
void AddNKernel(const Context& ctx, const std::vector<const DenseTensor*>& inputs,
                DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int64_t n = out->numel();
  if (n == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  int grid = funcs::GridSizeFor(ctx, n);
  for (size_t first = 0; first < inputs.size(); first += kAddNChunk) {
    AddNChunk<T> chunk{};
    chunk.count = static_cast<int>(std::min<size_t>(kAddNChunk, inputs.size() - first));
    for (int k = 0; k < chunk.count; ++k) chunk.data[k] = inputs[first + k]->data<T>();
    AddNChunkKernel<T><<<grid, funcs::kGPUBlockSize, 0, ctx.stream()>>>(chunk, first > 0, o, n);
    PD_CUDA_CHECK_LAUNCH("add_n kernel launch", ctx.device());
  }
}

}  // namespace paddle
