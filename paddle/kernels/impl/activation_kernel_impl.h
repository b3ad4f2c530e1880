// The unary elementwise and activation kernels and cast, shared by the CPU
// (cpu/activation_kernels.h) and CUDA (gpu/activation_kernels.cuh) kernels. The including
// file provides the device's engine first (funcs::UnaryElementwise is overloaded per context).
#pragma once

#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/elementwise_functors.h"

namespace paddle {

#define PD_DEFINE_UNARY_KERNEL(Kernel, Functor)                             \
  template <typename T, typename Context>                                   \
  void Kernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) { \
    funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::Functor<T>());        \
  }
PD_DEFINE_UNARY_KERNEL(ExpKernel, ExpFunctor)
PD_DEFINE_UNARY_KERNEL(LogKernel, LogFunctor)
PD_DEFINE_UNARY_KERNEL(SqrtKernel, SqrtFunctor)
PD_DEFINE_UNARY_KERNEL(RsqrtKernel, RsqrtFunctor)
PD_DEFINE_UNARY_KERNEL(AbsKernel, AbsFunctor)
PD_DEFINE_UNARY_KERNEL(SinKernel, SinFunctor)
PD_DEFINE_UNARY_KERNEL(CosKernel, CosFunctor)
PD_DEFINE_UNARY_KERNEL(TanhKernel, TanhFunctor)
PD_DEFINE_UNARY_KERNEL(SigmoidKernel, SigmoidFunctor)
PD_DEFINE_UNARY_KERNEL(ReluKernel, ReluFunctor)
PD_DEFINE_UNARY_KERNEL(SiluKernel, SiluFunctor)
PD_DEFINE_UNARY_KERNEL(ErfKernel, ErfFunctor)
PD_DEFINE_UNARY_KERNEL(SquareKernel, SquareFunctor)
PD_DEFINE_UNARY_KERNEL(ReciprocalKernel, ReciprocalFunctor)
PD_DEFINE_UNARY_KERNEL(SignKernel, SignFunctor)
PD_DEFINE_UNARY_KERNEL(FloorKernel, FloorFunctor)
PD_DEFINE_UNARY_KERNEL(CeilKernel, CeilFunctor)
PD_DEFINE_UNARY_KERNEL(RoundKernel, RoundFunctor)
#undef PD_DEFINE_UNARY_KERNEL

template <typename T, typename Context>
void GeluKernel(const Context& ctx, const DenseTensor& x, bool approximate, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::GeluFunctor<T>{approximate});
}

template <typename T, typename Context>
void PowKernel(const Context& ctx, const DenseTensor& x, const Scalar& y, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::PowScalarFunctor<T>{y.to<MathType<T>>()});
}

template <typename T, typename Context>
void ScaleKernel(const Context& ctx, const DenseTensor& x, const Scalar& scale, const Scalar& bias,
                 bool bias_after_scale, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(
      ctx, x, out,
      funcs::ScaleFunctor<T>{scale.to<MathType<T>>(), bias.to<MathType<T>>(), bias_after_scale});
}

template <typename T, typename Context>
void ClipKernel(const Context& ctx, const DenseTensor& x, const Scalar& min, const Scalar& max,
                DenseTensor* out) {
  PD_CHECK(min.to<double>() <= max.to<double>(),
           errors::InvalidArgument("clip: argument 'min' (", min.ToString(),
                                   ") must not exceed 'max' (", max.ToString(), ")"));
  funcs::UnaryElementwise<T, T>(
      ctx, x, out, funcs::ClipFunctor<T>{min.to<MathType<T>>(), max.to<MathType<T>>()});
}

template <typename T, typename Context>
void CastKernel(const Context& ctx, const DenseTensor& x, DataType dtype, DenseTensor* out) {
  VisitDataType(dtype, [&](auto tag) {
    using Out = decltype(tag);
    funcs::UnaryElementwise<T, Out>(ctx, x, out, funcs::CastFunctor<T, Out>());
  });
}

}  // namespace paddle
