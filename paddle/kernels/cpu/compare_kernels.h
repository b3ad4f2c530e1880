// CPU kernels of the comparison ops and the logical ops (bool results), over the elementwise
// engine.
#pragma once

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/elementwise_functors.h"

// CPU kernels of the comparison ops (bool results).
namespace paddle {

#define PD_DEFINE_COMPARE_KERNEL(Kernel, Functor)                                                 \
  template <typename T, typename Context>                                                         \
  void Kernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) { \
    funcs::BinaryElementwise<T, bool>(ctx, x, y, out, funcs::Functor<T>());                       \
  }
PD_DEFINE_COMPARE_KERNEL(EqualKernel, EqualFunctor)
PD_DEFINE_COMPARE_KERNEL(NotEqualKernel, NotEqualFunctor)
PD_DEFINE_COMPARE_KERNEL(LessThanKernel, LessThanFunctor)
PD_DEFINE_COMPARE_KERNEL(LessEqualKernel, LessEqualFunctor)
PD_DEFINE_COMPARE_KERNEL(GreaterThanKernel, GreaterThanFunctor)
PD_DEFINE_COMPARE_KERNEL(GreaterEqualKernel, GreaterEqualFunctor)
#undef PD_DEFINE_COMPARE_KERNEL

}  // namespace paddle

// CPU kernels of the logical ops: any dtype, read as "!= 0", with bool results. Kept apart from
// the comparisons so the two heavy instantiation sets compile in parallel.
namespace paddle {

#define PD_DEFINE_LOGICAL_KERNEL(Kernel, Functor)                                                 \
  template <typename T, typename Context>                                                         \
  void Kernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) { \
    funcs::BinaryElementwise<T, bool>(ctx, x, y, out, funcs::Functor<T>());                       \
  }
PD_DEFINE_LOGICAL_KERNEL(LogicalAndKernel, LogicalAndFunctor)
PD_DEFINE_LOGICAL_KERNEL(LogicalOrKernel, LogicalOrFunctor)
PD_DEFINE_LOGICAL_KERNEL(LogicalXorKernel, LogicalXorFunctor)
#undef PD_DEFINE_LOGICAL_KERNEL

template <typename T, typename Context>
void LogicalNotKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, bool>(ctx, x, out, funcs::LogicalNotFunctor<T>());
}

}  // namespace paddle
