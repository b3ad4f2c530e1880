// CPU kernels of the logical reductions (all, any; any dtype, read as "!= 0") and logsumexp.
//
// Note [Reduce plan]
// Each output element folds the reduced elements of x that share its kept coordinates. After
// dropping size-1 dims, the kept dims give each output's base offset in x, and the reduced
// positions lie at fixed offsets from it: 0, 1, ..., count - 1 when the reduced dims are the
// trailing ones (reduce all, the last dims), else a table of offsets built once. Outputs fold in
// parallel; when there are fewer outputs than threads (reduce all), each output's reduced range
// is split into one chunk per thread and the partial results are combined. The chunking depends
// only on the thread count, so results are reproducible run to run.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "paddle/common/reduce_axes.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

// Where the reduced elements of each output lie in x (Note [Reduce plan]).
class ReducePlan {
 public:
  ReducePlan(const DDim& dims, const std::vector<int64_t>& axis) {
    std::vector<int> axes = ReduceAxes(axis, dims.size());
    std::vector<int64_t> strides = ContiguousStrides(dims);
    std::vector<int64_t> reduced_dims, reduced_strides;
    bool kept_after_reduced = false;
    for (int i = 0; i < dims.size(); ++i) {
      if (dims[i] == 1) continue;
      if (std::binary_search(axes.begin(), axes.end(), i)) {
        reduced_dims.push_back(dims[i]);
        reduced_strides.push_back(strides[i]);
        count_ *= dims[i];
      } else {
        kept_after_reduced = kept_after_reduced || !reduced_dims.empty();
        kept_dims_.push_back(dims[i]);
        kept_strides_.push_back(strides[i]);
      }
    }
    for (int a : axes) {
      if (dims[a] == 0) count_ = 0;
    }
    contiguous_ = !kept_after_reduced;
    if (contiguous_ || count_ == 0) return;
    // An odometer over the reduced dims, last fastest.
    offsets_.resize(count_);
    std::vector<int64_t> index(reduced_dims.size(), 0);
    int64_t offset = 0;
    for (int64_t r = 0; r < count_; ++r) {
      offsets_[r] = offset;
      for (int d = static_cast<int>(reduced_dims.size()) - 1; d >= 0; --d) {
        offset += reduced_strides[d];
        if (++index[d] < reduced_dims[d]) break;
        offset -= reduced_strides[d] * reduced_dims[d];
        index[d] = 0;
      }
    }
  }

  // How many elements fold into each output.
  int64_t count() const { return count_; }
  bool contiguous() const { return contiguous_; }
  // The offset in x of reduced position r, relative to an output's base.
  int64_t Offset(int64_t r) const { return contiguous_ ? r : offsets_[r]; }
  // The offset in x of output o's first reduced element.
  int64_t Base(int64_t o) const {
    int64_t base = 0;
    for (int d = static_cast<int>(kept_dims_.size()) - 1; d >= 0; --d) {
      base += (o % kept_dims_[d]) * kept_strides_[d];
      o /= kept_dims_[d];
    }
    return base;
  }

 private:
  int64_t count_ = 1;
  bool contiguous_ = true;
  std::vector<int64_t> kept_dims_, kept_strides_, offsets_;
};

// Calls fold(acc, base, lo, hi) to accumulate reduced positions [lo, hi) of the output whose base
// offset is `base`, combine(a, b) to merge partial results, and finish(o, acc) to store output o.
template <typename Acc, typename Fold, typename Combine, typename Finish>
void ReduceWithPlan(const ReducePlan& plan, int64_t out_numel, Acc init, Fold&& fold,
                    Combine&& combine, Finish&& finish) {
  int64_t r = plan.count();
  int threads = omp_get_max_threads();
  if (out_numel >= threads || out_numel * r < funcs::kParallelThreshold) {
    funcs::ParallelFor(
        out_numel,
        [&](int64_t begin, int64_t end) {
          for (int64_t o = begin; o < end; ++o) {
            Acc acc = init;
            fold(acc, plan.Base(o), 0, r);
            finish(o, acc);
          }
        },
        funcs::kParallelThreshold / std::max<int64_t>(r, 1) + 1);
    return;
  }
  std::vector<Acc> partial(threads, init);
  for (int64_t o = 0; o < out_numel; ++o) {
    int64_t base = plan.Base(o);
    funcs::ParallelFor(
        threads,
        [&](int64_t begin, int64_t end) {
          for (int64_t c = begin; c < end; ++c) {
            Acc acc = init;
            fold(acc, base, r * c / threads, r * (c + 1) / threads);
            partial[c] = acc;
          }
        },
        1);
    Acc acc = init;
    for (const Acc& p : partial) acc = combine(acc, p);
    finish(o, acc);
  }
}

// all (kAll) or any of x != 0 over `axis`; an empty set is all-true and any-false.
template <typename T, bool kAll>
void LogicalReduce(const CPUContext& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                   DenseTensor* out) {
  bool* o = ctx.Alloc<bool>(out);
  if (out->numel() == 0) return;
  ReducePlan plan(x.dims(), axis);
  const T* in = plan.count() == 0 ? nullptr : x.data<T>();
  auto fold = [&](bool& acc, int64_t base, int64_t lo, int64_t hi) {
    // Stops at the first element that decides the result.
    for (int64_t j = lo; j < hi && acc == kAll; ++j) {
      acc = static_cast<bool>(static_cast<MathType<T>>(in[base + plan.Offset(j)]));
    }
  };
  ReduceWithPlan<bool>(
      plan, out->numel(), kAll, fold, [](bool a, bool b) { return kAll ? (a && b) : (a || b); },
      [o](int64_t i, bool acc) { o[i] = acc; });
}

// A partial logsumexp: the running maximum m and the sum s of exp(x - m) (s = 1 once m is
// infinite or NaN, so the result is m itself).
template <typename MT>
struct LseAcc {
  MT m;
  MT s;
};

template <typename MT>
LseAcc<MT> Normalize(LseAcc<MT> a) {
  if (!std::isfinite(a.m)) a.s = MT(1);
  return a;
}

template <typename MT>
inline MT NanMax(MT a, MT b) {
  return (b > a || b != b) ? b : a;
}

}  // namespace

template <typename T, typename Context>
void AllKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
               bool keepdim, DenseTensor* out) {
  LogicalReduce<T, true>(ctx, x, axis, out);
}

template <typename T, typename Context>
void AnyKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
               bool keepdim, DenseTensor* out) {
  LogicalReduce<T, false>(ctx, x, axis, out);
}

// log(sum(exp(x))) = m + log(sum(exp(x - m))) with m the maximum, so nothing overflows. Each
// range is folded in two passes (its maximum, then the shifted sum); partial results combine as
// (m, s) = (max(m1, m2), s1 exp(m1 - m) + s2 exp(m2 - m)).
template <typename T, typename Context>
void LogsumexpKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                     bool keepdim, bool reduce_all, DenseTensor* out) {
  using MT = MathType<T>;
  using Acc = LseAcc<MT>;
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  ReducePlan plan(x.dims(), axis);
  const T* in = plan.count() == 0 ? nullptr : x.data<T>();
  constexpr MT kNegInf = -std::numeric_limits<MT>::infinity();
  auto fold = [&](Acc& acc, int64_t base, int64_t lo, int64_t hi) {
    if (lo >= hi) return;
    MT m = kNegInf;
    for (int64_t j = lo; j < hi; ++j) m = NanMax(m, static_cast<MT>(in[base + plan.Offset(j)]));
    MT s = 0;
    if (std::isfinite(m)) {
      if (plan.contiguous()) {
        const T* src = in + base;
        for (int64_t j = lo; j < hi; ++j) s += std::exp(static_cast<MT>(src[j]) - m);
      } else {
        for (int64_t j = lo; j < hi; ++j)
          s += std::exp(static_cast<MT>(in[base + plan.Offset(j)]) - m);
      }
    }
    acc = Normalize(Acc{m, s});
  };
  auto combine = [](Acc a, Acc b) {
    MT m = NanMax(a.m, b.m);
    if (!std::isfinite(m)) return Normalize(Acc{m, MT(1)});
    return Acc{m, a.s * std::exp(a.m - m) + b.s * std::exp(b.m - m)};
  };
  ReduceWithPlan<Acc>(plan, out->numel(), Acc{kNegInf, MT(0)}, fold, combine,
                      [o](int64_t i, Acc acc) { o[i] = static_cast<T>(acc.m + std::log(acc.s)); });
}

}  // namespace paddle
