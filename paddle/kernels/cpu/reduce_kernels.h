// CPU reductions (sum, mean, max, min, prod) over one engine, and argmax/argmin.
//
// Note [Reduction engine]
// The input's dims are coalesced first: size-1 dims are dropped and neighbours that are both
// reduced or both kept merge, so any reduction becomes a short alternation of kept and reduced
// groups. Each pass folds the innermost reduced group of an [outer, r, inner] view into an
// [outer, inner] buffer of the accumulator type, until no reduced group is left; the usual
// cases (reduce all, the last dims, or the leading dims) take one pass. inner == 1 folds
// contiguous runs with several independent accumulators (they vectorise, and a long run is
// split over threads); inner > 1 folds rows into a block of accumulators, blocks in parallel.
// Nothing is permuted or copied. Float sums and products accumulate in double and integer ones in
// int64, so float32 sums of large tensors keep their accuracy; max/min work in MathType<T>.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "paddle/common/reduce_axes.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

template <typename T>
inline constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// Accumulators of sum, mean and prod: double for every float type, complex128 for the complex
// types, int64 for integers and bool.
template <typename T>
using WideType =
    std::conditional_t<kIsComplex<T>, complex128, std::conditional_t<kIsFloat<T>, double, int64_t>>;

template <typename AccT>
struct SumOp {
  using Acc = AccT;
  static Acc Identity() { return Acc(0); }
  // Integer sums wrap on overflow, as NumPy's (Note [Integer overflow]).
  static Acc Combine(Acc a, Acc b) { return funcs::AddFunctor<Acc>()(a, b); }
  static Acc Finalize(Acc a, int64_t /*count*/) { return a; }
};

template <typename AccT>
struct MeanOp : SumOp<AccT> {
  // The mean of nothing is NaN, as in NumPy.
  static AccT Finalize(AccT a, int64_t count) { return a / static_cast<AccT>(count); }
};

template <typename AccT>
struct ProdOp {
  using Acc = AccT;
  static Acc Identity() { return Acc(1); }
  static Acc Combine(Acc a, Acc b) { return funcs::MultiplyFunctor<Acc>()(a, b); }
  static Acc Finalize(Acc a, int64_t /*count*/) { return a; }
};

// max/min propagate NaN: once either side is NaN the result is NaN.
template <typename AccT>
struct MaxOp {
  using Acc = AccT;
  static Acc Identity() {
    return std::numeric_limits<Acc>::has_infinity ? -std::numeric_limits<Acc>::infinity()
                                                  : std::numeric_limits<Acc>::lowest();
  }
  static Acc Combine(Acc a, Acc b) { return (b > a || b != b) ? b : a; }
  static Acc Finalize(Acc a, int64_t /*count*/) { return a; }
};

template <typename AccT>
struct MinOp {
  using Acc = AccT;
  static Acc Identity() {
    return std::numeric_limits<Acc>::has_infinity ? std::numeric_limits<Acc>::infinity()
                                                  : std::numeric_limits<Acc>::max();
  }
  static Acc Combine(Acc a, Acc b) { return (b < a || b != b) ? b : a; }
  static Acc Finalize(Acc a, int64_t /*count*/) { return a; }
};

// Folds n contiguous values with independent lanes, so the loop vectorises without reassociating
// a single chain (and rounding error grows more slowly than in one running sum).
template <typename Op, typename In>
typename Op::Acc FoldContiguous(const In* src, int64_t n) {
  using Acc = typename Op::Acc;
  constexpr int kLanes = 8;
  Acc lanes[kLanes];
  for (Acc& lane : lanes) lane = Op::Identity();
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] = Op::Combine(lanes[l], static_cast<Acc>(src[j + l]));
  }
  Acc acc = Op::Identity();
  for (Acc lane : lanes) acc = Op::Combine(acc, lane);
  for (; j < n; ++j) acc = Op::Combine(acc, static_cast<Acc>(src[j]));
  return acc;
}

// Folds the middle dim of an [outer, r, inner] view of `in` into out[outer, inner].
template <typename Op, typename In>
void ReduceMiddle(const In* in, typename Op::Acc* out, int64_t outer, int64_t r, int64_t inner) {
  using Acc = typename Op::Acc;
  if (inner == 1) {
    int threads = omp_get_max_threads();
    if (outer >= threads || outer * r < funcs::kParallelThreshold) {
      funcs::ParallelFor(
          outer,
          [&](int64_t begin, int64_t end) {
            for (int64_t o = begin; o < end; ++o) out[o] = FoldContiguous<Op>(in + o * r, r);
          },
          funcs::kParallelThreshold / std::max<int64_t>(r, 1) + 1);
      return;
    }
    // Few long runs (reduce all): split each run into one chunk per thread. The chunking depends
    // only on the thread count, so results are reproducible run to run.
    std::vector<Acc> partial(threads);
    for (int64_t o = 0; o < outer; ++o) {
      const In* run = in + o * r;
      funcs::ParallelFor(
          threads,
          [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c) {
              int64_t lo = r * c / threads, hi = r * (c + 1) / threads;
              partial[c] = FoldContiguous<Op>(run + lo, hi - lo);
            }
          },
          1);
      Acc acc = Op::Identity();
      for (Acc p : partial) acc = Op::Combine(acc, p);
      out[o] = acc;
    }
    return;
  }
  constexpr int64_t kBlock = 512;
  int64_t blocks = (inner + kBlock - 1) / kBlock;
  funcs::ParallelFor(
      outer * blocks,
      [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          int64_t o = task / blocks;
          int64_t j0 = (task % blocks) * kBlock;
          int64_t width = std::min(kBlock, inner - j0);
          Acc acc[kBlock];  // local, so the row loop is known not to alias the input
          for (int64_t j = 0; j < width; ++j) acc[j] = Op::Identity();
          for (int64_t p = 0; p < r; ++p) {
            const In* src = in + (o * r + p) * inner + j0;
            for (int64_t j = 0; j < width; ++j)
              acc[j] = Op::Combine(acc[j], static_cast<Acc>(src[j]));
          }
          std::copy(acc, acc + width, out + o * inner + j0);
        }
      },
      funcs::kParallelThreshold / std::max<int64_t>(r * std::min(kBlock, inner), 1) + 1);
}

// The input's dims after coalescing (Note [Reduction engine]).
struct ReduceGroups {
  std::vector<int64_t> sizes;
  std::vector<bool> reduced;
};

ReduceGroups CoalesceDims(const DDim& dims, const std::vector<int>& axes) {
  ReduceGroups g;
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    bool reduced = std::binary_search(axes.begin(), axes.end(), i);
    if (!g.sizes.empty() && g.reduced.back() == reduced) {
      g.sizes.back() *= dims[i];
    } else {
      g.sizes.push_back(dims[i]);
      g.reduced.push_back(reduced);
    }
  }
  return g;
}

// How many input elements fold into each output element.
int64_t ReducedCount(const DDim& dims, const std::vector<int>& axes) {
  int64_t count = 1;
  for (int a : axes) count *= dims[a];
  return count;
}

// Writes Op's reduction of x over `axes` (sorted, normalised) to `out` as OutT.
template <typename Op, typename InT, typename OutT>
void Reduce(const DenseTensor& x, const std::vector<int>& axes, OutT* out, int64_t out_numel) {
  using Acc = typename Op::Acc;
  if (out_numel == 0) return;
  const InT* in = x.numel() == 0 ? nullptr : x.data<InT>();
  int64_t count = ReducedCount(x.dims(), axes);
  ReduceGroups g = CoalesceDims(x.dims(), axes);
  auto last_reduced = [&g]() {
    for (int i = static_cast<int>(g.sizes.size()) - 1; i >= 0; --i) {
      if (g.reduced[i]) return i;
    }
    return -1;
  };
  int group = last_reduced();
  if (group < 0) {  // only size-1 dims reduced: each output folds one element
    funcs::ParallelFor(out_numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        out[i] = static_cast<OutT>(Op::Finalize(static_cast<Acc>(in[i]), count));
      }
    });
    return;
  }
  std::vector<Acc> buffer, next;
  for (bool first = true; group >= 0; group = last_reduced(), first = false) {
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < group; ++i) outer *= g.sizes[i];
    for (size_t i = group + 1; i < g.sizes.size(); ++i) inner *= g.sizes[i];
    next.resize(outer * inner);
    if (first) {
      ReduceMiddle<Op>(in, next.data(), outer, g.sizes[group], inner);
    } else {
      ReduceMiddle<Op>(buffer.data(), next.data(), outer, g.sizes[group], inner);
    }
    buffer.swap(next);
    g.sizes.erase(g.sizes.begin() + group);
    g.reduced.erase(g.reduced.begin() + group);
  }
  funcs::ParallelFor(out_numel, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      out[i] = static_cast<OutT>(Op::Finalize(buffer[i], count));
  });
}

// Runs Op over x with the output in x's dtype.
template <typename Op, typename T>
void ReduceSameType(const CPUContext& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                    DenseTensor* out) {
  std::vector<int> axes = ReduceAxes(axis, x.dims().size());
  T* o = ctx.Alloc<T>(out);
  Reduce<Op, T, T>(x, axes, o, out->numel());
}

// max and min have no identity to return for an empty set.
void CheckNotEmpty(const DenseTensor& x, const std::vector<int64_t>& axis, const char* op) {
  int64_t count = ReducedCount(x.dims(), ReduceAxes(axis, x.dims().size()));
  PD_CHECK(count > 0,
           errors::InvalidArgument(op, ": cannot reduce an empty set (argument 'x' of shape ",
                                   x.dims().ToString(),
                                   " has no elements along the reduced axes); "
                                   "expected at least one element per output"));
}

// Calls fn(OutT{}) for the output dtypes sum supports.
template <typename Fn>
void VisitSumType(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DataType::BOOL:
      return fn(bool{});
    case DataType::INT32:
      return fn(int32_t{});
    case DataType::INT64:
      return fn(int64_t{});
    case DataType::FLOAT16:
      return fn(float16{});
    case DataType::BFLOAT16:
      return fn(bfloat16{});
    case DataType::FLOAT32:
      return fn(float{});
    case DataType::FLOAT64:
      return fn(double{});
    case DataType::COMPLEX64:
      return fn(complex64{});
    case DataType::COMPLEX128:
      return fn(complex128{});
    default:
      PD_THROW(errors::InvalidArgument(
          "sum: argument 'dtype' must be one of bool, int32, int64, float16, bfloat16, float32, "
          "float64, complex64, complex128, received ",
          DataTypeName(dtype)));
  }
}

}  // namespace

// Paddle's sum with `dtype` casts x to that dtype before summing, so each element is rounded (a
// float summed as int64 truncates every term, a sum to bool is a logical or). Only those casts
// are materialised; every other case loads x directly into the wide accumulator.
template <typename T, typename Context>
void SumKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
               DataType dtype, bool keepdim, DenseTensor* out) {
  std::vector<int> axes = ReduceAxes(axis, x.dims().size());
  DataType out_dtype = out->dtype();  // InferMeta applied `dtype` and the int64 default
  VisitSumType(out_dtype, [&](auto tag) {
    using OutT = decltype(tag);
    constexpr bool kRoundsEachTerm = (std::is_same_v<OutT, bool> && !std::is_same_v<T, bool>) ||
                                     (kIsFloat<T> && !kIsFloat<OutT>);
    auto* o = static_cast<OutT*>(ctx.Alloc(out, out_dtype));
    if constexpr (kIsComplex<T> != kIsComplex<OutT>) {
      // A complex sum stays complex, and a real one real (as in Paddle); cast first otherwise.
      PD_THROW(errors::InvalidType("sum: argument 'dtype' (", DataTypeName(out_dtype),
                                   ") must be complex exactly when x (", DataTypeName(x.dtype()),
                                   ") is; cast x first"));
    } else if constexpr (kRoundsEachTerm) {
      DenseTensor cast(TensorMeta{x.dims(), out_dtype});
      OutT* c = ctx.template Alloc<OutT>(&cast);
      const T* in = x.numel() == 0 ? nullptr : x.data<T>();
      funcs::ParallelFor(x.numel(), [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) c[i] = static_cast<OutT>(in[i]);
      });
      Reduce<SumOp<WideType<OutT>>, OutT, OutT>(cast, axes, o, out->numel());
    } else {
      Reduce<SumOp<WideType<OutT>>, T, OutT>(x, axes, o, out->numel());
    }
  });
}

template <typename T, typename Context>
void MeanKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                bool keepdim, DenseTensor* out) {
  ReduceSameType<MeanOp<std::conditional_t<kIsComplex<T>, complex128, double>>, T>(ctx, x, axis,
                                                                                   out);
}

template <typename T, typename Context>
void ProdKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                bool keepdim, DenseTensor* out) {
  ReduceSameType<ProdOp<WideType<T>>, T>(ctx, x, axis, out);
}

template <typename T, typename Context>
void MaxKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
               bool keepdim, DenseTensor* out) {
  CheckNotEmpty(x, axis, "max");
  ReduceSameType<MaxOp<MathType<T>>, T>(ctx, x, axis, out);
}

template <typename T, typename Context>
void MinKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
               bool keepdim, DenseTensor* out) {
  CheckNotEmpty(x, axis, "min");
  ReduceSameType<MinOp<MathType<T>>, T>(ctx, x, axis, out);
}

namespace {

// The running best of argmax/argmin: a strictly better value wins, so ties keep the first
// index, and the first NaN wins over everything (as in NumPy).
template <bool kMax, typename V>
inline bool Better(V v, V best) {
  if (v != v) return best == best;
  return kMax ? v > best : v < best;
}

// argmax/argmin along the middle dim of an [outer, n, inner] view (n > 0).
template <typename T, typename IndexT, bool kMax>
void ArgReduce(const T* in, IndexT* out, int64_t outer, int64_t n, int64_t inner) {
  using MT = MathType<T>;
  auto scan = [in](int64_t base, int64_t lo, int64_t hi, MT* best_value) {
    MT best = static_cast<MT>(in[base + lo]);
    int64_t index = lo;
    for (int64_t j = lo + 1; j < hi; ++j) {
      MT v = static_cast<MT>(in[base + j]);
      if (Better<kMax>(v, best)) {
        best = v;
        index = j;
      }
    }
    *best_value = best;
    return index;
  };
  if (inner == 1) {
    int threads = omp_get_max_threads();
    if (outer >= threads || outer * n < funcs::kParallelThreshold) {
      funcs::ParallelFor(
          outer,
          [&](int64_t begin, int64_t end) {
            MT unused;
            for (int64_t o = begin; o < end; ++o)
              out[o] = static_cast<IndexT>(scan(o * n, 0, n, &unused));
          },
          funcs::kParallelThreshold / n + 1);
      return;
    }
    // Few long lines (flatten): one chunk per thread, then the earliest of the best chunks.
    std::vector<MT> values(threads);
    std::vector<int64_t> indices(threads, -1);
    for (int64_t o = 0; o < outer; ++o) {
      funcs::ParallelFor(
          threads,
          [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c) {
              int64_t lo = n * c / threads, hi = n * (c + 1) / threads;
              if (lo < hi) indices[c] = scan(o * n, lo, hi, &values[c]);
            }
          },
          1);
      int64_t index = -1;
      MT best{};
      for (int c = 0; c < threads; ++c) {
        if (indices[c] < 0) continue;
        if (index < 0 || Better<kMax>(values[c], best)) {
          best = values[c];
          index = indices[c];
        }
      }
      out[o] = static_cast<IndexT>(index);
    }
    return;
  }
  constexpr int64_t kBlock = 256;
  int64_t blocks = (inner + kBlock - 1) / kBlock;
  funcs::ParallelFor(
      outer * blocks,
      [&](int64_t begin, int64_t end) {
        MT best[kBlock];
        for (int64_t task = begin; task < end; ++task) {
          int64_t o = task / blocks;
          int64_t j0 = (task % blocks) * kBlock;
          int64_t width = std::min(kBlock, inner - j0);
          const T* line = in + o * n * inner + j0;
          IndexT* dst = out + o * inner + j0;
          for (int64_t j = 0; j < width; ++j) {
            best[j] = static_cast<MT>(line[j]);
            dst[j] = 0;
          }
          for (int64_t p = 1; p < n; ++p) {
            const T* row = line + p * inner;
            for (int64_t j = 0; j < width; ++j) {
              MT v = static_cast<MT>(row[j]);
              if (Better<kMax>(v, best[j])) {
                best[j] = v;
                dst[j] = static_cast<IndexT>(p);
              }
            }
          }
        }
      },
      funcs::kParallelThreshold / (n * std::min(kBlock, inner)) + 1);
}

template <typename T, bool kMax>
void ArgMinMax(const CPUContext& ctx, const DenseTensor& x, int64_t axis, bool flatten,
               DenseTensor* out) {
  const char* op = kMax ? "argmax" : "argmin";
  const DDim& dims = x.dims();
  int64_t outer = 1, n = x.numel(), inner = 1;
  if (!flatten && dims.size() > 0) {
    int a = NormalizeAxis(axis, dims.size(), op);
    n = dims[a];
    for (int i = 0; i < a; ++i) outer *= dims[i];
    for (int i = a + 1; i < dims.size(); ++i) inner *= dims[i];
  }
  PD_CHECK(n > 0, errors::InvalidArgument(op, ": argument 'x' of shape ", dims.ToString(),
                                          " has no elements to compare along the reduced axis; "
                                          "expected a non-empty axis"));
  DataType index_type = out->dtype();
  PD_CHECK(index_type == DataType::INT64 ||
               (index_type == DataType::INT32 && n <= std::numeric_limits<int32_t>::max()),
           errors::InvalidArgument(op, ": argument 'dtype' ", DataTypeName(index_type),
                                   " cannot hold indices up to ", n - 1,
                                   "; expected int64 (or int32 for shorter axes)"));
  void* o = ctx.Alloc(out, index_type);
  if (out->numel() == 0) return;
  const T* in = x.data<T>();
  if (index_type == DataType::INT32) {
    ArgReduce<T, int32_t, kMax>(in, static_cast<int32_t*>(o), outer, n, inner);
  } else {
    ArgReduce<T, int64_t, kMax>(in, static_cast<int64_t*>(o), outer, n, inner);
  }
}

}  // namespace

template <typename T, typename Context>
void ArgmaxKernel(const Context& ctx, const DenseTensor& x, int64_t axis, bool keepdim,
                  bool flatten, DataType dtype, DenseTensor* out) {
  ArgMinMax<T, true>(ctx, x, axis, flatten, out);
}

template <typename T, typename Context>
void ArgminKernel(const Context& ctx, const DenseTensor& x, int64_t axis, bool keepdim,
                  bool flatten, DataType dtype, DenseTensor* out) {
  ArgMinMax<T, false>(ctx, x, axis, flatten, out);
}

}  // namespace paddle
