// device_allocators.h for builds without CUDA: there are no GPUs, and asking for GPU memory is an
// error the user can act on (install a CUDA build), not a crash.
#include "paddle/common/errors.h"
#include "paddle/memory/device_allocators.h"

namespace paddle::memory {

std::shared_ptr<Allocator> CreateCUDAAllocator(int device) {
  PD_THROW(errors::Unimplemented("cannot allocate memory on Place(gpu:", device,
                                 "): paddle was built without CUDA"));
}

std::shared_ptr<Allocator> CreatePinnedAllocator() {
  PD_THROW(errors::Unimplemented(
      "cannot allocate memory on Place(gpu_pinned): paddle was built without CUDA"));
}

std::shared_ptr<StreamEvents> CreateCUDAStreamEvents(int device) {
  PD_THROW(errors::Unimplemented("cannot use the streams of Place(gpu:", device,
                                 "): paddle was built without CUDA"));
}

int GetGPUDeviceCount() { return 0; }

void GetGPUMemoryInfo(int device, size_t*, size_t*) {
  PD_THROW(errors::Unimplemented("cannot query the memory of Place(gpu:", device,
                                 "): paddle was built without CUDA"));
}

}  // namespace paddle::memory
