// CPU p_norm and frobenius_norm: each element of x folds into the output element its kept dims
// name, accumulating in double, then each output is finalised (the 1/p power, the square root).
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "paddle/common/reduce_axes.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"

namespace paddle {

namespace {

// Calls fold(acc, value) for each element of x with the accumulator of its output element;
// `axes` (sorted) are the reduced dims.
template <typename T, typename Fold>
void FoldReduced(const DenseTensor& x, const std::vector<int>& axes, std::vector<double>* acc,
                 const Fold& fold) {
  const DDim& dims = x.dims();
  int rank = dims.size();
  std::vector<int64_t> out_strides(rank, 0);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    bool reduced = false;
    for (int a : axes) reduced = reduced || a == d;
    if (!reduced) {
      out_strides[d] = stride;
      stride *= dims[d];
    }
  }
  const T* in = x.data<T>();
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    fold(&(*acc)[offset], static_cast<double>(in[i]));
    for (int d = rank - 1; d >= 0; --d) {  // the next multi-index, carrying the output offset
      offset += out_strides[d];
      if (++index[d] < dims[d]) break;
      offset -= out_strides[d] * dims[d];
      index[d] = 0;
    }
  }
}

}  // namespace

// porder inf / -inf: the largest / smallest |x| (NaN propagates); 0: the count of nonzeros;
// otherwise (sum |x|^p)^(1/p).
template <typename T, typename Context>
void PNormKernel(const Context& ctx, const DenseTensor& x, float porder, int32_t axis,
                 float epsilon, bool keepdim, bool asvector, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int rank = x.dims().size();
  std::vector<int> axes = asvector || rank == 0 ? ReduceAxes({}, rank) : ReduceAxes({axis}, rank);
  double p = porder;
  bool largest = std::isinf(p) && p > 0, smallest = std::isinf(p) && p < 0;
  double init = smallest ? std::numeric_limits<double>::infinity() : 0.0;
  std::vector<double> acc(out->numel(), init);
  if (largest || smallest) {
    FoldReduced<T>(x, axes, &acc, [largest](double* a, double v) {
      double m = std::abs(v);
      if (m != m || (largest ? m > *a : m < *a)) *a = m;
    });
  } else if (p == 0) {
    FoldReduced<T>(x, axes, &acc, [](double* a, double v) { *a += v != 0 ? 1.0 : 0.0; });
  } else {
    FoldReduced<T>(x, axes, &acc, [p](double* a, double v) { *a += std::pow(std::abs(v), p); });
  }
  bool root = !(largest || smallest || p == 0);
  // The root's exponent in float, as Paddle computes it (porder is a float attribute), so
  // float64 results match Paddle's to the last bits.
  double exponent = static_cast<double>(1.0f / porder);
  for (int64_t i = 0; i < out->numel(); ++i) {
    o[i] = static_cast<T>(root ? std::pow(acc[i], exponent) : acc[i]);
  }
}

template <typename T, typename Context>
void FrobeniusNormKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& dim,
                         bool keep_dim, bool reduce_all, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  int rank = x.dims().size();
  std::vector<int> axes = reduce_all
                              ? ReduceAxes({}, rank)
                              : ReduceAxes(std::vector<int64_t>(dim.begin(), dim.end()), rank);
  std::vector<double> acc(out->numel(), 0.0);
  FoldReduced<T>(x, axes, &acc, [](double* a, double v) { *a += v * v; });
  for (int64_t i = 0; i < out->numel(); ++i) o[i] = static_cast<T>(std::sqrt(acc[i]));
}

}  // namespace paddle
