// CPU kernels of the copies and accumulations static programs are built from: assign,
// assign_value, add_n and increment (impl/increment_kernel_impl.h).
#pragma once

#include <algorithm>
#include <vector>

#include "paddle/common/place.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/impl/increment_kernel_impl.h"

// CPU assign (a copy of x) and assign_value (a constant from attribute values).
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

// CPU add_n: the elementwise sum of same-shape tensors, accumulated in MathType<T> (float for the
// 16-bit floats) so that a long list rounds once, not once per input.
namespace paddle {

template <typename T, typename Context>
void AddNKernel(const Context& ctx, const std::vector<const DenseTensor*>& inputs,
                DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  std::vector<const T*> data;
  data.reserve(inputs.size());
  for (const DenseTensor* t : inputs) data.push_back(t->data<T>());
  // Blocks of a stack buffer: each input is read in one sequential sweep per block, and the
  // inner loops vectorize.
  constexpr int64_t kBlock = 512;
  funcs::ParallelFor(out->numel(), [&](int64_t begin, int64_t end) {
    MT sum[kBlock];
    for (int64_t b = begin; b < end; b += kBlock) {
      int64_t len = std::min(kBlock, end - b);
      const T* first = data[0] + b;
      for (int64_t k = 0; k < len; ++k) sum[k] = static_cast<MT>(first[k]);
      for (size_t j = 1; j < data.size(); ++j) {
        const T* in = data[j] + b;
        for (int64_t k = 0; k < len; ++k) sum[k] += static_cast<MT>(in[k]);
      }
      for (int64_t k = 0; k < len; ++k) o[b + k] = static_cast<T>(sum[k]);
    }
  });
}

}  // namespace paddle
