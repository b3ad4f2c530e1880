// device_allocators.h over the CUDA runtime. Compiled by the host compiler: it only calls the
// runtime API.
#include <cuda_runtime.h>
#include <gflags/gflags.h>

#include <atomic>

#include "paddle/common/errors.h"
#include "paddle/memory/cpu_allocator.h"
#include "paddle/memory/device_allocators.h"

DECLARE_uint64(gpu_memory_limit_mb);

namespace paddle::memory {

namespace {

// Makes `device` current for a scope and restores the caller's device afterwards, so that
// allocating on one GPU does not move the caller's later work to it. Never throws: frees use it
// too.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    status_ = cudaGetDevice(&previous_);
    if (status_ == cudaSuccess && previous_ != device) {
      status_ = cudaSetDevice(device);
      switched_ = status_ == cudaSuccess;
    }
  }
  ~DeviceGuard() {
    if (switched_) cudaSetDevice(previous_);
  }
  cudaError_t status() const { return status_; }

 private:
  int previous_ = 0;
  bool switched_ = false;
  cudaError_t status_;
};

void CheckDevice(int device) {
  int count = GetGPUDeviceCount();
  PD_CHECK(device >= 0 && device < count,
           errors::InvalidArgument("Place(gpu:", device, ") is not available: ", count,
                                   " GPU(s) are visible"));
}

void CheckCuda(cudaError_t status, int device, const char* call) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // so that the failure is not reported again by an unrelated later call
    PD_THROW(errors::PreconditionNotMet(call, " failed on Place(gpu:", device,
                                        "): ", cudaGetErrorString(status)));
  }
}

class CUDAAllocator : public Allocator {
 public:
  CUDAAllocator(int device, uint64_t limit_bytes) : device_(device), limit_bytes_(limit_bytes) {}

  bool IsAllocThreadSafe() const override { return true; }
  Place place() const override { return GPUPlace(device_); }

 protected:
  Allocation* AllocateImpl(size_t size) override {
    uint64_t used = allocated_.fetch_add(size) + size;
    if (limit_bytes_ > 0 && used > limit_bytes_) {
      allocated_.fetch_sub(size);
      PD_THROW(errors::ResourceExhausted(
          "CUDAAllocator: out of memory on Place(gpu:", device_, "): requested ", size,
          " bytes, but FLAGS_gpu_memory_limit_mb=", FLAGS_gpu_memory_limit_mb, " allows ",
          limit_bytes_, " bytes and ", used - size, " are allocated"));
    }
    try {
      return new Allocation(Malloc(size), size, GPUPlace(device_));
    } catch (...) {
      allocated_.fetch_sub(size);
      throw;
    }
  }

  void FreeImpl(Allocation* allocation) override {
    {
      DeviceGuard guard(device_);
      // Errors are ignored: at exit the CUDA runtime may already be unloaded, and a free has no
      // caller to report to.
      cudaFree(allocation->ptr());
    }
    allocated_.fetch_sub(allocation->size());
    delete allocation;
  }

 private:
  void* Malloc(size_t size) {
    DeviceGuard guard(device_);
    CheckCuda(guard.status(), device_, "cudaSetDevice");
    void* ptr = nullptr;
    cudaError_t status = cudaMalloc(&ptr, size);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      size_t free_bytes = 0, total_bytes = 0;
      cudaMemGetInfo(&free_bytes, &total_bytes);
      PD_THROW(errors::ResourceExhausted("CUDAAllocator: out of memory on Place(gpu:", device_,
                                         "): requested ", size, " bytes, ", free_bytes,
                                         " bytes free of ", total_bytes));
    }
    CheckCuda(status, device_, "cudaMalloc");
    return ptr;
  }

  int device_;
  uint64_t limit_bytes_;
  std::atomic<uint64_t> allocated_{0};
};

class CUDAPinnedAllocator : public Allocator {
 public:
  bool IsAllocThreadSafe() const override { return true; }
  Place place() const override { return GPUPinnedPlace(); }

 protected:
  Allocation* AllocateImpl(size_t size) override {
    void* ptr = nullptr;
    // Portable: usable from every GPU context, not only the current device's.
    cudaError_t status = cudaHostAlloc(&ptr, size, cudaHostAllocPortable);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      PD_THROW(errors::ResourceExhausted(
          "CUDAPinnedAllocator: cannot allocate ", size, " bytes of page-locked host memory; ",
          AvailableHostMemory(), " bytes of host memory are available"));
    }
    if (status != cudaSuccess) {
      cudaGetLastError();
      PD_THROW(errors::PreconditionNotMet("cudaHostAlloc of ", size,
                                          " bytes failed: ", cudaGetErrorString(status)));
    }
    return new Allocation(ptr, size, GPUPinnedPlace());
  }

  void FreeImpl(Allocation* allocation) override {
    cudaFreeHost(allocation->ptr());  // errors ignored, as in CUDAAllocator::FreeImpl
    delete allocation;
  }
};

// Events that only order work (no timing, the cheapest kind), created on `device`.
class CUDAStreamEvents : public StreamEvents {
 public:
  explicit CUDAStreamEvents(int device) : device_(device) {}

  Event Record(StreamHandle stream) override {
    DeviceGuard guard(device_);
    CheckCuda(guard.status(), device_, "cudaSetDevice");
    cudaEvent_t event = nullptr;
    CheckCuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), device_,
              "cudaEventCreateWithFlags");
    cudaError_t status = cudaEventRecord(event, static_cast<cudaStream_t>(stream));
    if (status != cudaSuccess) cudaEventDestroy(event);
    CheckCuda(status, device_, "cudaEventRecord");
    return event;
  }

  bool Done(Event event) override {
    cudaError_t status = cudaEventQuery(static_cast<cudaEvent_t>(event));
    if (status == cudaErrorNotReady) {
      cudaGetLastError();  // not an error: the work is still running
      return false;
    }
    CheckCuda(status, device_, "cudaEventQuery");
    return true;
  }

  void Wait(Event event) override {
    CheckCuda(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), device_,
              "cudaEventSynchronize");
  }

  void Destroy(Event event) override { cudaEventDestroy(static_cast<cudaEvent_t>(event)); }

 private:
  int device_;
};

}  // namespace

std::shared_ptr<StreamEvents> CreateCUDAStreamEvents(int device) {
  CheckDevice(device);
  return std::make_shared<CUDAStreamEvents>(device);
}

std::shared_ptr<Allocator> CreateCUDAAllocator(int device) {
  CheckDevice(device);
  return std::make_shared<CUDAAllocator>(device, FLAGS_gpu_memory_limit_mb << 20);
}

std::shared_ptr<Allocator> CreatePinnedAllocator() {
  return std::make_shared<CUDAPinnedAllocator>();
}

int GetGPUDeviceCount() {
  // The visible devices do not change while the process runs.
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();  // no driver or no device: a CPU-only machine, not an error
      return 0;
    }
    return n;
  }();
  return count;
}

void GetGPUMemoryInfo(int device, size_t* free_bytes, size_t* total_bytes) {
  CheckDevice(device);
  DeviceGuard guard(device);
  CheckCuda(guard.status(), device, "cudaSetDevice");
  CheckCuda(cudaMemGetInfo(free_bytes, total_bytes), device, "cudaMemGetInfo");
}

}  // namespace paddle::memory
