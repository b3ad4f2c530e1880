// CUDA add_n: the elementwise sum of same-shape tensors, accumulated in MathType<T> as on the CPU.
// The input pointers travel by value in the launch parameters, kAddNChunk at a time; a longer
// list adds chunk after chunk onto `out` (rounding to T once per chunk).
#include <algorithm>
#include <vector>

#include "paddle/kernels/dtype_lists.h"
#include "paddle/kernels/funcs/elementwise_gpu.cuh"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/kernel_registry.h"

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

PD_REGISTER_KERNEL(add_n, GPU, paddle::AddNKernel, PD_FLOAT_TYPES, int32_t, int64_t);
