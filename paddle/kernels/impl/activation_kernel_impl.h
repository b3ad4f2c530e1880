// The unary elementwise and activation kernels and cast, shared by the CPU
// (cpu/activation_kernels.h) and CUDA (gpu/activation_kernels.cuh) kernels. The including
// file provides the device's engine first (funcs::UnaryElementwise and BinaryElementwise are
// overloaded per context).
#pragma once

#include <string>

#include "paddle/common/data_format.h"
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
PD_DEFINE_UNARY_KERNEL(HardswishKernel, HardswishFunctor)
PD_DEFINE_UNARY_KERNEL(SwishKernel, SiluFunctor)  // swish is silu under its legacy name
PD_DEFINE_UNARY_KERNEL(SoftsignKernel, SoftsignFunctor)
PD_DEFINE_UNARY_KERNEL(TanhShrinkKernel, TanhShrinkFunctor)
PD_DEFINE_UNARY_KERNEL(LogsigmoidKernel, LogsigmoidFunctor)
#undef PD_DEFINE_UNARY_KERNEL

// Complex x gives its real modulus (complex64 -> float32).
template <typename T, typename Context>
void AbsKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, RealType<T>>(ctx, x, out, funcs::AbsFunctor<T>());
}

template <typename T, typename Context>
void GeluKernel(const Context& ctx, const DenseTensor& x, bool approximate, DenseTensor* out) {
  if (approximate) {
    funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::GeluTanhFunctor<T>());
  } else {
    funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::GeluFunctor<T>());
  }
}

template <typename T, typename Context>
void GeluGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_grad,
                    bool approximate, DenseTensor* x_grad) {
  if (approximate) {
    funcs::BinaryElementwise<T, T>(ctx, x, out_grad, x_grad, funcs::GeluTanhGradFunctor<T>());
  } else {
    funcs::BinaryElementwise<T, T>(ctx, x, out_grad, x_grad, funcs::GeluGradFunctor<T>());
  }
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

// The activations with attributes: each converts its attributes to MathType<T> once.
template <typename T, typename Context>
void Relu6Kernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::ClipFunctor<T>{MT(0), MT(6)});
}

template <typename T, typename Context>
void HardtanhKernel(const Context& ctx, const DenseTensor& x, float min, float max,
                    DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(ctx, x, out,
                                funcs::ClipFunctor<T>{static_cast<MT>(min), static_cast<MT>(max)});
}

template <typename T, typename Context>
void HardsigmoidKernel(const Context& ctx, const DenseTensor& x, float slope, float offset,
                       DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(
      ctx, x, out, funcs::HardsigmoidFunctor<T>{static_cast<MT>(slope), static_cast<MT>(offset)});
}

template <typename T, typename Context>
void MishKernel(const Context& ctx, const DenseTensor& x, float threshold, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out,
                                funcs::MishFunctor<T>{static_cast<MathType<T>>(threshold)});
}

template <typename T, typename Context>
void SoftplusKernel(const Context& ctx, const DenseTensor& x, float beta, float threshold,
                    DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(
      ctx, x, out, funcs::SoftplusFunctor<T>{static_cast<MT>(beta), static_cast<MT>(threshold)});
}

template <typename T, typename Context>
void EluKernel(const Context& ctx, const DenseTensor& x, float alpha, DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::EluFunctor<T>{static_cast<MT>(alpha), MT(1)});
}

template <typename T, typename Context>
void SeluKernel(const Context& ctx, const DenseTensor& x, float scale, float alpha,
                DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(
      ctx, x, out, funcs::EluFunctor<T>{static_cast<MT>(alpha), static_cast<MT>(scale)});
}

template <typename T, typename Context>
void CeluKernel(const Context& ctx, const DenseTensor& x, float alpha, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out,
                                funcs::CeluFunctor<T>{static_cast<MathType<T>>(alpha)});
}

template <typename T, typename Context>
void LeakyReluKernel(const Context& ctx, const DenseTensor& x, float negative_slope,
                     DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(
      ctx, x, out, funcs::LeakyReluFunctor<T>{static_cast<MathType<T>>(negative_slope)});
}

template <typename T, typename Context>
void ThresholdedReluKernel(const Context& ctx, const DenseTensor& x, float threshold, float value,
                           DenseTensor* out) {
  using MT = MathType<T>;
  funcs::UnaryElementwise<T, T>(
      ctx, x, out,
      funcs::ThresholdedReluFunctor<T>{static_cast<MT>(threshold), static_cast<MT>(value)});
}

template <typename T, typename Context>
void SoftshrinkKernel(const Context& ctx, const DenseTensor& x, float threshold, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out,
                                funcs::SoftshrinkFunctor<T>{static_cast<MathType<T>>(threshold)});
}

template <typename T, typename Context>
void HardshrinkKernel(const Context& ctx, const DenseTensor& x, float threshold, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out,
                                funcs::HardshrinkFunctor<T>{static_cast<MathType<T>>(threshold)});
}

// alpha, viewed with the dims that broadcast it against x in `mode` (PreluAlphaDims).
template <typename T, typename Context>
void PreluKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& alpha,
                 const std::string& data_format, const std::string& mode, DenseTensor* out) {
  DenseTensor alpha_view(alpha.meta());
  alpha_view.ShareBufferWith(alpha);
  alpha_view.Resize(PreluAlphaDims(x.dims(), data_format, mode));
  funcs::BinaryElementwise<T, T>(ctx, x, alpha_view, out, funcs::PreluFunctor<T>());
}

template <typename T, typename Context>
void CastKernel(const Context& ctx, const DenseTensor& x, DataType dtype, DenseTensor* out) {
  VisitDataType(dtype, [&](auto tag) {
    using Out = decltype(tag);
    if constexpr (kIsComplex<Out> && !std::is_same_v<Context, CPUContext>) {
      // std::complex is host code; the CUDA kernels take no complex dtype yet.
      PD_THROW(errors::Unimplemented("cast: no GPU kernel for data type ", DataTypeName(dtype)));
    } else {
      funcs::UnaryElementwise<T, Out>(ctx, x, out, funcs::CastFunctor<T, Out>());
    }
  });
}

}  // namespace paddle
