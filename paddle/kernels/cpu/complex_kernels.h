// CPU kernels that build complex numbers and take them apart, over the elementwise engine. The
// functors are in funcs/elementwise_functors.h beside the other elementwise ones, so that a CUDA
// file and the FFT ops can use the same ones.
#pragma once

#include <cstring>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/elementwise_functors.h"

namespace paddle {

// T is the dtype of the parts (float or double).
template <typename T, typename Context>
void ComplexKernel(const Context& ctx, const DenseTensor& real, const DenseTensor& imag,
                   DenseTensor* out) {
  funcs::BinaryElementwise<T, std::complex<T>>(ctx, real, imag, out, funcs::ComplexFunctor<T>());
}

template <typename T, typename Context>
void RealKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, RealType<T>>(ctx, x, out, funcs::RealFunctor<T>());
}

template <typename T, typename Context>
void ImagKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, RealType<T>>(ctx, x, out, funcs::ImagFunctor<T>());
}

template <typename T, typename Context>
void ConjKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, T>(ctx, x, out, funcs::ConjFunctor<T>());
}

template <typename T, typename Context>
void AngleKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, RealType<T>>(ctx, x, out, funcs::AngleFunctor<T>());
}

// out_grad is real (angle's output); x_grad has x's dtype.
template <typename T, typename Context>
void AngleGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out_grad,
                     DenseTensor* x_grad) {
  T* g = ctx.template Alloc<T>(x_grad);
  const T* z = x.data<T>();
  const RealType<T>* d = out_grad.data<RealType<T>>();
  funcs::AngleGradFunctor<T> grad;
  funcs::ParallelFor(x.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) g[i] = grad(z[i], d[i]);
  });
}

// A complex tensor's bytes are its [..., 2] real view (std::complex is laid out as two parts).
template <typename T, typename Context>
void AsRealKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  auto* o = ctx.template Alloc<RealType<T>>(out);
  if (x.numel() > 0) std::memcpy(o, x.data<T>(), x.nbytes());
}

// T is the dtype of the parts (float or double).
template <typename T, typename Context>
void AsComplexKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  auto* o = ctx.template Alloc<std::complex<T>>(out);
  if (x.numel() > 0) std::memcpy(o, x.data<T>(), x.nbytes());
}

}  // namespace paddle
