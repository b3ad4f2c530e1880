// exp and erf for the CPU loops of elementwise kernels. std::exp and std::erf are calls into libm
// that GCC does not vectorize (without -ffast-math), and they dominated GELU (about 10x slower
// than PyTorch). For float on the host these are polynomial forms with only arithmetic, selects
// and bit operations, so a loop over them vectorizes; double, and device code, keep std::.
//   exp: 2^n exp(r) with |r| <= ln(2) / 2 and Cephes' degree-6 polynomial for exp(r) (relative
//        error about 2e-7); 0 below -87.3 (where float turns subnormal), inf above 88.72.
//   erf: the odd rational approximation x P(x^2) / Q(x^2) on [-4, 4] that Eigen and XLA use
//        (absolute error below 5e-7); +-1 beyond.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "paddle/kernels/funcs/math_type.h"

namespace paddle::funcs {

PD_HOSTDEVICE inline float ExpFloat(float x) {
#if defined(__CUDA_ARCH__)
  return expf(x);
#else
  // Selects rather than std::fmin / fmax, which GCC calls out of line; NaN is clamped too (so
  // the conversion to int below is defined) and put back at the end.
  float clamped = x > -87.3f ? x : -87.3f;
  clamped = clamped > 88.7f ? 88.7f : clamped;
  const float n = std::floor(clamped * 1.44269504088896341f + 0.5f);
  float r = clamped - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float e = p * r * r + r + 1.0f;
  const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(n) + 127) << 23;
  float pow2;
  std::memcpy(&pow2, &bits, sizeof(pow2));
  const float value = x < -87.3f ? 0.0f : e * pow2;
  return x > 88.72283f ? std::numeric_limits<float>::infinity() : (x != x ? x : value);
#endif
}

PD_HOSTDEVICE inline float ErfFloat(float x) {
#if defined(__CUDA_ARCH__)
  return erff(x);
#else
  float c = x > -4.0f ? x : -4.0f;
  c = c > 4.0f ? 4.0f : c;
  const float x2 = c * c;
  float p = -2.72614225801306e-10f;
  p = p * x2 + 2.77068142495902e-08f;
  p = p * x2 - 2.10102402082508e-06f;
  p = p * x2 - 5.69250639462346e-05f;
  p = p * x2 - 7.34990630326855e-04f;
  p = p * x2 - 2.95459980854025e-03f;
  p = p * x2 - 1.60960333262415e-02f;
  float q = -1.45660718464996e-05f;
  q = q * x2 - 2.13374055278905e-04f;
  q = q * x2 - 1.68282697438203e-03f;
  q = q * x2 - 7.37332916720468e-03f;
  q = q * x2 - 1.42647390514189e-02f;
  return x != x ? x : c * p / q;
#endif
}

// exp / erf of a MathType value: the float forms above for float, std:: otherwise.
template <typename MT>
PD_HOSTDEVICE MT Exp(MT x) {
  if constexpr (std::is_same_v<MT, float>) {
    return ExpFloat(x);
  } else {
    return std::exp(x);
  }
}

template <typename MT>
PD_HOSTDEVICE MT Erf(MT x) {
  if constexpr (std::is_same_v<MT, float>) {
    return ErfFloat(x);
  } else {
    return std::erf(x);
  }
}

}  // namespace paddle::funcs
