// CUDA assign (a device-to-device copy) and assign_value (values converted on the host, then one
// host-to-device copy). Both copies are queued on the context's stream, so they are ordered with
// the kernels around them.
#include <memory>
#include <vector>

#include "paddle/kernels/dtype_lists.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/gpu/gpu_check.h"
#include "paddle/kernels/gpu/gpu_context.h"
#include "paddle/kernels/kernel_registry.h"

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

PD_REGISTER_KERNEL(assign, GPU, paddle::AssignKernel, PD_ALL_TYPES);
PD_REGISTER_KERNEL(assign_value, GPU, paddle::AssignValueKernel, PD_ALL_TYPES);
