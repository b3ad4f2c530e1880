// CPU embedding lookup and one_hot. Ids are int32 or int64 whatever the table's dtype; every id
// is bounds-checked before any row moves, so a bad id raises OutOfRange and never touches memory.
#pragma once

#include <cstring>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

// The ids of x as int64, each checked to lie in [0, size); `what` names the bound in messages.
std::vector<int64_t> CheckedIds(const DenseTensor& x, int64_t size, const char* op,
                                const char* what) {
  std::vector<int64_t> ids(x.numel());
  auto check = [&](const auto* data) {
    for (size_t i = 0; i < ids.size(); ++i) {
      int64_t v = data[i];
      PD_CHECK(
          v >= 0 && v < size,
          errors::OutOfRange(op, ": argument 'x' holds ", v, " at position ", i,
                             ", expected values in [0, ", size, ") (", what, " is ", size, ")"));
      ids[i] = v;
    }
  };
  switch (x.dtype()) {
    case DataType::INT32:
      check(x.data<int32_t>());
      break;
    case DataType::INT64:
      check(x.data<int64_t>());
      break;
    default:
      PD_THROW(errors::InvalidArgument(op,
                                       ": argument 'x' must be an int32 or int64 tensor, "
                                       "received ",
                                       DataTypeName(x.dtype())));
  }
  return ids;
}

}  // namespace

// out[i, :] = weight[x[i], :], or zeros where x[i] == padding_idx (padding_idx < 0: none).
template <typename T, typename Context>
void EmbeddingKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& weight,
                     int64_t padding_idx, bool sparse, DenseTensor* out) {
  int64_t rows = weight.dims()[0], dim = weight.dims()[1];
  std::vector<int64_t> ids = CheckedIds(x, rows, "embedding", "the number of rows of 'weight'");
  T* o = ctx.template Alloc<T>(out);
  int64_t n = static_cast<int64_t>(ids.size());
  if (n * dim == 0) return;
  const T* w = weight.data<T>();
  funcs::ParallelFor(
      n,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          if (padding_idx >= 0 && ids[i] == padding_idx) {
            for (int64_t k = 0; k < dim; ++k) o[i * dim + k] = static_cast<T>(0);
          } else {
            std::memcpy(o + i * dim, w + ids[i] * dim, dim * sizeof(T));
          }
        }
      },
      funcs::kParallelThreshold / dim + 1);
}

// out[i, c] = 1.0 where c == x[i], else 0.0 (float32).
template <typename T, typename Context>
void OneHotKernel(const Context& ctx, const DenseTensor& x, const Scalar& num_classes,
                  DenseTensor* out) {
  int64_t depth = num_classes.to<int64_t>();
  std::vector<int64_t> ids = CheckedIds(x, depth, "one_hot", "num_classes");
  float* o = ctx.template Alloc<float>(out);
  int64_t n = static_cast<int64_t>(ids.size());
  if (n * depth == 0) return;
  std::memset(o, 0, n * depth * sizeof(float));
  for (int64_t i = 0; i < n; ++i) o[i * depth + ids[i]] = 1.0f;
}

}  // namespace paddle
