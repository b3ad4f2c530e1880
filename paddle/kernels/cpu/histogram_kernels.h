// CPU kernels of bincount and histogram (paddle/ops/yaml/histogram.yaml). Counts are exact
// (int64); weighted sums accumulate in double and are stored in the output's dtype.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"

namespace paddle {
namespace histogram_detail {

// Element i of a real tensor of any of the weights' dtypes, as O.
template <typename O>
O WeightAt(const DenseTensor& w, int64_t i) {
  switch (w.dtype()) {
    case DataType::FLOAT32:
      return static_cast<O>(w.data<float>()[i]);
    case DataType::FLOAT64:
      return static_cast<O>(w.data<double>()[i]);
    case DataType::INT32:
      return static_cast<O>(w.data<int32_t>()[i]);
    default:
      return static_cast<O>(w.data<int64_t>()[i]);
  }
}

// Allocates out as `size` zeros of O (through the allocator, so that an impossible size is its
// typed out-of-memory error) and adds 1, or the weight, at bin_of(i) for each element i with a
// bin (bin_of < 0: none).
template <typename O, typename Context, typename BinOf>
O* Accumulate(const Context& ctx, int64_t size, int64_t n, const DenseTensor* weights,
              BinOf&& bin_of, DenseTensor* out) {
  out->Resize(DDim({size}));
  O* o = ctx.template Alloc<O>(out);
  std::fill(o, o + size, O(0));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bin = bin_of(i);
    if (bin >= 0) o[bin] += weights ? WeightAt<O>(*weights, i) : O(1);
  }
  return o;
}

}  // namespace histogram_detail

// Sums in the output's dtype, as Paddle: int64 counts, float32 or float64 weights.
template <typename T, typename Context>
void BincountKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* weights,
                    int64_t minlength, DenseTensor* out) {
  const T* v = x.data<T>();
  const int64_t n = x.numel();
  int64_t largest = -1;
  for (int64_t i = 0; i < n; ++i) {
    PD_CHECK(v[i] >= 0, errors::InvalidArgument("bincount(): every element of 'x' must be "
                                                "non-negative, received ",
                                                static_cast<int64_t>(v[i]), " at index ", i));
    largest = std::max<int64_t>(largest, v[i]);
  }
  const int64_t size = std::max(largest + 1, minlength);
  auto bin_of = [v](int64_t i) { return static_cast<int64_t>(v[i]); };
  // The output dtype of BincountInferMeta.
  if (weights == nullptr) {
    histogram_detail::Accumulate<int64_t>(ctx, size, n, weights, bin_of, out);
  } else if (weights->dtype() == DataType::FLOAT32) {
    histogram_detail::Accumulate<float>(ctx, size, n, weights, bin_of, out);
  } else {
    histogram_detail::Accumulate<double>(ctx, size, n, weights, bin_of, out);
  }
}

// Bin k of `bins` equal bins over [min, max] holds the values v with
// k = floor((v - min) / (max - min) * bins), max in the last bin; values outside are left out.
// With min == max == 0 the range is the input's smallest and largest values (NaN left out),
// widened by 1 on each side when they are equal (Paddle's rule); an infinite range is an error.
// density divides by the total and the width.
template <typename T, typename Context>
void HistogramKernel(const Context& ctx, const DenseTensor& input, const DenseTensor* weight,
                     int64_t bins, float min, float max, bool density, DenseTensor* out) {
  const T* v = input.data<T>();
  const int64_t n = input.numel();
  double low = min, high = max;
  if (low == 0.0 && high == 0.0) {
    // The input's range, NaNs left out (as Paddle: they fall in no bin).
    bool any = false;
    for (int64_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(v[i]);
      if (std::isnan(x)) continue;
      low = any ? std::min(low, x) : x;
      high = any ? std::max(high, x) : x;
      any = true;
    }
  }
  if (low == high) {
    low -= 1.0;
    high += 1.0;
  }
  PD_CHECK(
      std::isfinite(low) && std::isfinite(high),
      errors::InvalidArgument("histogram(): the range [", low, ", ", high, "] must be finite"));
  auto bin_of = [&](int64_t i) -> int64_t {
    const double x = static_cast<double>(v[i]);
    if (!(x >= low && x <= high)) return -1;
    const auto k = static_cast<int64_t>((x - low) / (high - low) * static_cast<double>(bins));
    return std::min(k, bins - 1);
  };
  // The output dtype of HistogramInferMeta.
  if (weight == nullptr && !density) {
    histogram_detail::Accumulate<int64_t>(ctx, bins, n, weight, bin_of, out);
    return;
  }
  float* o = histogram_detail::Accumulate<float>(ctx, bins, n, weight, bin_of, out);
  if (density) {
    double total = 0.0;
    for (int64_t k = 0; k < bins; ++k) total += o[k];
    const double width = (high - low) / static_cast<double>(bins);
    for (int64_t k = 0; k < bins; ++k) {
      o[k] = total == 0.0 ? 0.0f : static_cast<float>(o[k] / (total * width));
    }
  }
}

}  // namespace paddle
