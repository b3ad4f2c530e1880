#include "paddle/memory/cpu_allocator.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "paddle/common/errors.h"

namespace paddle::memory {

namespace {
uint64_t PagesToBytes(long pages) {
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * page_size : 0;
}
}  // namespace

uint64_t TotalHostMemory() { return PagesToBytes(sysconf(_SC_PHYS_PAGES)); }
uint64_t AvailableHostMemory() { return PagesToBytes(sysconf(_SC_AVPHYS_PAGES)); }

CPUAllocator::CPUAllocator(size_t alignment) : alignment_(alignment) {
  // posix_memalign's own requirement.
  PD_CHECK(alignment >= sizeof(void*) && (alignment & (alignment - 1)) == 0,
           errors::InvalidArgument("CPUAllocator: alignment must be a power of two of at least ",
                                   sizeof(void*), " bytes, got ", alignment));
}

Allocation* CPUAllocator::AllocateImpl(size_t size) {
  // More than the machine has would succeed here under overcommit and end the process in the
  // kernel's OOM killer once touched; refuse it as MemoryError instead.
  uint64_t total = TotalHostMemory();
  PD_CHECK(
      total == 0 || size <= total,
      errors::ResourceExhausted("CPUAllocator: cannot allocate ", size,
                                " bytes, more than the machine's ", total, " bytes of memory"));
  void* ptr = nullptr;
  int status = posix_memalign(&ptr, alignment_, size);
  if (status != 0) {
    PD_THROW(errors::ResourceExhausted("CPUAllocator: cannot allocate ", size, " bytes (",
                                       std::strerror(status), "); ", AvailableHostMemory(),
                                       " bytes of host memory are available"));
  }
  return new Allocation(ptr, size, CPUPlace());
}

void CPUAllocator::FreeImpl(Allocation* allocation) {
  std::free(allocation->ptr());
  delete allocation;
}

}  // namespace paddle::memory
