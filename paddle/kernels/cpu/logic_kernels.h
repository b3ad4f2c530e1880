// CPU kernels of the floating-point class tests (isnan, isinf, isfinite; integers and bool are
// never NaN or infinite) and of the triangular masks tril/triu over the last two dims.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

template <typename T>
inline constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

template <typename T>
struct IsNanFunctor {
  bool operator()(T a) const {
    if constexpr (kIsFloat<T>) {
      return std::isnan(static_cast<MathType<T>>(a));
    } else {
      return false;
    }
  }
};

template <typename T>
struct IsInfFunctor {
  bool operator()(T a) const {
    if constexpr (kIsFloat<T>) {
      return std::isinf(static_cast<MathType<T>>(a));
    } else {
      return false;
    }
  }
};

template <typename T>
struct IsFiniteFunctor {
  bool operator()(T a) const {
    if constexpr (kIsFloat<T>) {
      return std::isfinite(static_cast<MathType<T>>(a));
    } else {
      return true;
    }
  }
};

// Keeps element (i, j) of every trailing [rows, cols] matrix where j - i <= diagonal (lower) or
// j - i >= diagonal (upper), and zeroes the rest.
template <typename T, bool kLower>
void Triangular(const CPUContext& ctx, const DenseTensor& x, int diagonal, DenseTensor* out) {
  T* o = ctx.Alloc<T>(out);
  int64_t numel = x.numel();
  if (numel == 0) return;
  const DDim& dims = x.dims();
  int64_t rows = dims[dims.size() - 2], cols = dims[dims.size() - 1];
  const T* in = x.data<T>();
  int64_t total_rows = numel / cols;
  funcs::ParallelFor(
      total_rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          int64_t i = r % rows;
          // Row i keeps columns [0, i + diagonal] (lower) or [i + diagonal, cols) (upper).
          int64_t split = std::clamp<int64_t>(kLower ? i + diagonal + 1 : i + diagonal, 0, cols);
          const T* src = in + r * cols;
          T* dst = o + r * cols;
          if (kLower) {
            std::copy(src, src + split, dst);
            std::fill(dst + split, dst + cols, T(0));
          } else {
            std::fill(dst, dst + split, T(0));
            std::copy(src + split, src + cols, dst + split);
          }
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(cols, 1) + 1);
}

}  // namespace

template <typename T, typename Context>
void IsnanKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, bool>(ctx, x, out, IsNanFunctor<T>());
}

template <typename T, typename Context>
void IsinfKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, bool>(ctx, x, out, IsInfFunctor<T>());
}

template <typename T, typename Context>
void IsfiniteKernel(const Context& ctx, const DenseTensor& x, DenseTensor* out) {
  funcs::UnaryElementwise<T, bool>(ctx, x, out, IsFiniteFunctor<T>());
}

template <typename T, typename Context>
void TrilKernel(const Context& ctx, const DenseTensor& x, int32_t diagonal, DenseTensor* out) {
  Triangular<T, true>(ctx, x, diagonal, out);
}

template <typename T, typename Context>
void TriuKernel(const Context& ctx, const DenseTensor& x, int32_t diagonal, DenseTensor* out) {
  Triangular<T, false>(ctx, x, diagonal, out);
}

}  // namespace paddle
