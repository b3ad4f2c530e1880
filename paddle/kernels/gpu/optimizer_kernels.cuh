// CUDA optimizer updates (sgd, momentum, adam, adamw): the bodies are in
// impl/optimizer_kernel_impl.h; here each is one grid-stride kernel over the parameter. The
// learning rate, beta powers and skip_update are read inside the kernels, so a step never waits
// for the device; Adam's beta powers advance in a one-thread kernel queued after the update, which
// has read them. Same signatures, names and dtypes as cpu/optimizer_kernels.h.
#pragma once

#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/impl/optimizer_kernel_impl.h"
namespace paddle::funcs {

namespace {

__device__ __forceinline__ int64_t FirstIndex() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t GridStride() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

template <typename T, typename MT>
__global__ void SgdGPUKernel(SgdArgs<T, MT> a) {
  MT lr = LoadScalar<MT>(a.learning_rate);
  for (int64_t i = FirstIndex(); i < a.numel; i += GridStride()) SgdElement(a, lr, i);
}

template <typename T, typename S, typename MT>
__global__ void MomentumGPUKernel(MomentumArgs<T, S, MT> a) {
  MT lr = LoadScalar<MT>(a.learning_rate);
  for (int64_t i = FirstIndex(); i < a.numel; i += GridStride()) MomentumElement(a, lr, i);
}

template <typename T, typename S, typename MT>
__global__ void AdamGPUKernel(AdamArgs<T, S, MT> a) {
  if (a.skip_update && *a.skip_update) {
    for (int64_t i = FirstIndex(); i < a.numel; i += GridStride()) AdamKeepElement(a, i);
    return;
  }
  AdamStep<MT> step = MakeAdamStep(a);
  for (int64_t i = FirstIndex(); i < a.numel; i += GridStride()) AdamElement(a, step, i);
}

template <typename T, typename S, typename MT>
__global__ void AdamBetaPowGPUKernel(AdamArgs<T, S, MT> a) {
  AdamUpdateBetaPow(a);
}

}  // namespace

template <typename T, typename MT>
void RunSgd(const GPUContext& ctx, const SgdArgs<T, MT>& a) {
  if (a.numel == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  SgdGPUKernel<T, MT><<<GridSizeFor(ctx, a.numel), kGPUBlockSize, 0, ctx.stream()>>>(a);
  PD_CUDA_CHECK_LAUNCH("sgd", ctx.device());
}

template <typename T, typename S, typename MT>
void RunMomentum(const GPUContext& ctx, const MomentumArgs<T, S, MT>& a) {
  if (a.numel == 0) return;
  gpu::DeviceGuard guard(ctx.device());
  MomentumGPUKernel<T, S, MT><<<GridSizeFor(ctx, a.numel), kGPUBlockSize, 0, ctx.stream()>>>(a);
  PD_CUDA_CHECK_LAUNCH("momentum", ctx.device());
}

template <typename T, typename S, typename MT>
void RunAdam(const GPUContext& ctx, const AdamArgs<T, S, MT>& a) {
  gpu::DeviceGuard guard(ctx.device());
  if (a.numel > 0) {
    AdamGPUKernel<T, S, MT><<<GridSizeFor(ctx, a.numel), kGPUBlockSize, 0, ctx.stream()>>>(a);
    PD_CUDA_CHECK_LAUNCH("adam", ctx.device());
  }
  AdamBetaPowGPUKernel<T, S, MT><<<1, 1, 0, ctx.stream()>>>(a);
  PD_CUDA_CHECK_LAUNCH("adam beta powers", ctx.device());
}

}  // namespace paddle::funcs
