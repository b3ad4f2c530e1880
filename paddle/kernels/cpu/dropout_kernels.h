// CPU dropout (Paddle's DropoutRawKernel). Training: an element is dropped when a uniform float
// draw (float whatever T is, as in PaddlePaddle) is < p (mask 0, out 0), else kept (mask 1, out
// x / (1 - p) for upscale_in_train, x for downgrade_in_infer). is_test: out = x
// (upscale_in_train) or x * (1 - p) (downgrade_in_infer), and mask is all ones. As in Paddle, p
// is read as float and 1 - p is rounded to T before it divides or multiplies. The draws follow
// Note [Random streams] (funcs/random_fill.h): seed_tensor's value when given, else `seed` when
// fix_seed, else the default generator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/funcs/random_fill.h"
namespace paddle {

namespace {

int64_t SeedOf(const DenseTensor* seed_tensor, int32_t seed, bool fix_seed) {
  if (seed_tensor == nullptr) return fix_seed ? seed : 0;
  PD_CHECK(seed_tensor->numel() == 1,
           errors::InvalidArgument("dropout: argument 'seed_tensor' must hold one element, "
                                   "received shape ",
                                   seed_tensor->dims().ToString()));
  if (seed_tensor->dtype() == DataType::INT64) return seed_tensor->data<int64_t>()[0];
  return seed_tensor->data<int32_t>()[0];
}

}  // namespace

template <typename T, typename Context>
void DropoutKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* seed_tensor,
                   const Scalar& p, bool is_test, const std::string& mode, int32_t seed,
                   bool fix_seed, DenseTensor* out, DenseTensor* mask) {
  using MT = MathType<T>;
  const float prob = p.to<float>();
  const bool upscale = mode == "upscale_in_train";
  const int64_t n = x.numel();
  const T* in = x.data<T>();
  T* o = ctx.template Alloc<T>(out);
  uint8_t* m = ctx.template Alloc<uint8_t>(mask);
  if (n == 0) return;  // the buffers are null then, which memset and memcpy may not be given
  if (is_test) {
    const MT keep = static_cast<MT>(static_cast<T>(1.0f - prob));
    funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        o[i] = upscale ? in[i] : static_cast<T>(static_cast<MT>(in[i]) * keep);
      }
      std::memset(m + begin, 1, static_cast<size_t>(end - begin));
    });
    return;
  }
  if (prob == 1.0f) {  // everything dropped, whatever x holds (no division by 0)
    funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
      std::fill(o + begin, o + end, static_cast<T>(0));
      std::memset(m + begin, 0, static_cast<size_t>(end - begin));
    });
    return;
  }
  const MT keep = static_cast<MT>(static_cast<T>(1.0f - prob));
  // One float draw per element, in order, as Paddle draws them (bit-identical masks); the draws
  // of a chunk come first, then a loop over the chunk without calls, which vectorizes.
  funcs::WithRandomEngine(SeedOf(seed_tensor, seed, fix_seed), [&](random::Engine* engine) {
    constexpr int64_t kChunk = 256;
    float draws[kChunk];
    for (int64_t start = 0; start < n; start += kChunk) {
      const int64_t count = std::min(kChunk, n - start);
      for (int64_t j = 0; j < count; ++j) draws[j] = random::CanonicalFloat(engine);
      const T* src = in + start;
      T* dst = o + start;
      uint8_t* kept_mask = m + start;
      for (int64_t j = 0; j < count; ++j) {
        const bool kept = draws[j] >= prob;
        kept_mask[j] = kept ? 1 : 0;
        const T value = upscale ? static_cast<T>(static_cast<MT>(src[j]) / keep) : src[j];
        dst[j] = kept ? value : static_cast<T>(0);
      }
    }
  });
}

}  // namespace paddle
