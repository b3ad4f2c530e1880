// The CUDA system allocators behind plain functions, so that the facade and the rest of the core
// compile the same with and without CUDA: cuda_allocator.cc implements them over the CUDA
// runtime, no_cuda_allocator.cc for builds without it.
#pragma once

#include <cstddef>
#include <memory>

#include "paddle/memory/allocator.h"
#include "paddle/memory/stream_safe_allocator.h"

namespace paddle::memory {

// cudaMalloc/cudaFree on `device`, capped at FLAGS_gpu_memory_limit_mb (0: no cap) as read when
// the allocator is created. Throws InvalidArgument for a device that is not visible.
std::shared_ptr<Allocator> CreateCUDAAllocator(int device);
// Page-locked host memory (cudaHostAlloc/cudaFreeHost) for fast host-device copies.
std::shared_ptr<Allocator> CreatePinnedAllocator();
// The number of visible GPUs; 0 when there is no driver or no device, and in a build without CUDA.
int GetGPUDeviceCount();
// CUDA events for the stream-safe allocator of `device`'s chain.
std::shared_ptr<StreamEvents> CreateCUDAStreamEvents(int device);
// Free and total memory of `device` in bytes (cudaMemGetInfo).
void GetGPUMemoryInfo(int device, size_t* free_bytes, size_t* total_bytes);

}  // namespace paddle::memory
