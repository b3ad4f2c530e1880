// CPU add_n: the elementwise sum of same-shape tensors, accumulated in MathType<T> (float for the
// 16-bit floats) so that a long list rounds once, not once per input.
#include <algorithm>
#include <vector>

#include "paddle/kernels/dtype_lists.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/kernel_registry.h"

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

PD_REGISTER_KERNEL(add_n, CPU, paddle::AddNKernel, PD_FLOAT_TYPES, int32_t, int64_t);
