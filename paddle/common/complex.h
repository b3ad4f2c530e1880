// complex64 and complex128: std::complex<float> and std::complex<double>, whose layout (real part,
// then imaginary part) is the one NumPy, OpenBLAS's cgemm/zgemm, FFT libraries and Paddle's
// .pdiparams files use, so complex data passes through all of them without conversion.
#pragma once

#include <complex>
#include <type_traits>

namespace paddle {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

template <typename T>
inline constexpr bool kIsComplex = false;
template <typename R>
inline constexpr bool kIsComplex<std::complex<R>> = true;

// The real type of T's parts: float for complex64, T itself for real types.
template <typename T>
struct RealTypeOf {
  using type = T;
};
template <typename R>
struct RealTypeOf<std::complex<R>> {
  using type = R;
};
template <typename T>
using RealType = typename RealTypeOf<T>::type;

// conj(x) for complex T, x otherwise: the factor gradients of complex functions carry (Paddle's
// convention: the gradient of a real loss L is dL/dRe(x) + i dL/dIm(x), so a holomorphic f passes
// back out_grad * conj(f'(x))).
template <typename T>
inline T ConjIfComplex(T x) {
  if constexpr (kIsComplex<T>) {
    return std::conj(x);
  } else {
    return x;
  }
}

}  // namespace paddle
