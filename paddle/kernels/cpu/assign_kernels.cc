// CPU assign (a copy of x) and assign_value (a constant from attribute values).
#include <algorithm>
#include <vector>

#include "paddle/kernels/dtype_lists.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/kernel_registry.h"

namespace paddle {

template <typename T, typename Context>
void AssignKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  funcs::ParallelFor(
      x.numel(), [&](int64_t begin, int64_t end) { std::copy(in + begin, in + end, o + begin); });
}

// The values convert as cast does: through MathType<T>, and to bool as "!= 0".
template <typename T, typename Context>
void AssignValueKernel(const Context& ctx, const std::vector<int64_t>& shape, DataType dtype,
                       const std::vector<double>& values, const Place& place, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  std::transform(values.begin(), values.end(), o, funcs::CastFunctor<double, T>());
}

}  // namespace paddle

PD_REGISTER_KERNEL(assign, CPU, paddle::AssignKernel, PD_ALL_TYPES);
PD_REGISTER_KERNEL(assign_value, CPU, paddle::AssignValueKernel, PD_ALL_TYPES);
