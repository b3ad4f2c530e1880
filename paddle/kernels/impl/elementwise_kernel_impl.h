// The elementwise binary kernels, shared by the CPU (cpu/elementwise_kernels.h) and CUDA
// (gpu/elementwise_kernels.cuh) kernels. Each is a functor over the device's engine, whose
// header the including file provides first: funcs::BinaryElementwise and
// funcs::IntegerDivisionGuard are overloaded per device context.
#pragma once

#include "paddle/kernels/funcs/elementwise_functors.h"

namespace paddle {

#define PD_DEFINE_BINARY_KERNEL(Kernel, Functor)                                                  \
  template <typename T, typename Context>                                                         \
  void Kernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) { \
    funcs::BinaryElementwise<T, T>(ctx, x, y, out, funcs::Functor<T>());                          \
  }
PD_DEFINE_BINARY_KERNEL(AddKernel, AddFunctor)
PD_DEFINE_BINARY_KERNEL(SubtractKernel, SubtractFunctor)
PD_DEFINE_BINARY_KERNEL(MultiplyKernel, MultiplyFunctor)
PD_DEFINE_BINARY_KERNEL(MaximumKernel, MaximumFunctor)
PD_DEFINE_BINARY_KERNEL(MinimumKernel, MinimumFunctor)
PD_DEFINE_BINARY_KERNEL(ElementwisePowKernel, PowFunctor)
#undef PD_DEFINE_BINARY_KERNEL

#define PD_DEFINE_DIVISION_KERNEL(Kernel, Functor, name)                                          \
  template <typename T, typename Context>                                                         \
  void Kernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y, DenseTensor* out) { \
    funcs::BinaryElementwise<T, T>(                                                               \
        ctx, x, y, out, funcs::IntegerDivisionGuard<T>(ctx, y, funcs::Functor<T>(), name));       \
  }
PD_DEFINE_DIVISION_KERNEL(DivideKernel, DivideFunctor, "divide")
PD_DEFINE_DIVISION_KERNEL(FloorDivideKernel, FloorDivideFunctor, "floor_divide")
PD_DEFINE_DIVISION_KERNEL(RemainderKernel, RemainderFunctor, "remainder")
#undef PD_DEFINE_DIVISION_KERNEL

}  // namespace paddle
