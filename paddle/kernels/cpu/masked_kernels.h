// CPU masked_select, masked_scatter and nonzero: ops whose output positions depend on the data.
// Each runs over fixed chunks of the (broadcast) iteration space in two passes: count the
// selected elements per chunk, then, after a prefix sum gives each chunk its first output
// position, write them; the result is in row-major order however many threads run.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

// [0, n) cut into chunks of a fixed size, so both passes see the same chunks.
class Chunks {
 public:
  explicit Chunks(int64_t n)
      : n_(n),
        size_(std::max(funcs::kParallelThreshold, (n + 63) / 64)),
        count_(n == 0 ? 0 : (n + size_ - 1) / size_) {}

  int64_t count() const { return count_; }

  // Calls fn(chunk, begin, end) for every chunk, in parallel when there are several.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    funcs::ParallelFor(
        count_,
        [&](int64_t first, int64_t last) {
          for (int64_t c = first; c < last; ++c) fn(c, c * size_, std::min(n_, (c + 1) * size_));
        },
        2);
  }

 private:
  int64_t n_, size_, count_;
};

// Exclusive prefix sum in place; returns the total.
int64_t PrefixSum(std::vector<int64_t>* counts) {
  int64_t total = 0;
  for (int64_t& c : *counts) {
    int64_t n = c;
    c = total;
    total += n;
  }
  return total;
}

// Walks a broadcast iteration space (a BroadcastPlan) in row-major order from any flat
// position, tracking each operand's element offset.
template <size_t N>
class BroadcastCursor {
 public:
  BroadcastCursor(const funcs::BroadcastPlan& plan, int64_t flat)
      : plan_(plan), index_(plan.dims.size(), 0) {
    for (int d = static_cast<int>(plan.dims.size()) - 1; d >= 0; --d) {
      index_[d] = flat % plan.dims[d];
      flat /= plan.dims[d];
      for (size_t k = 0; k < N; ++k) offsets_[k] += index_[d] * plan.strides[k][d];
    }
  }

  int64_t offset(size_t k) const { return offsets_[k]; }

  void Next() {
    for (int d = static_cast<int>(index_.size()) - 1; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k) offsets_[k] += plan_.strides[k][d];
      if (++index_[d] < plan_.dims[d]) return;
      for (size_t k = 0; k < N; ++k) offsets_[k] -= plan_.dims[d] * plan_.strides[k][d];
      index_[d] = 0;
    }
  }

 private:
  const funcs::BroadcastPlan& plan_;
  std::vector<int64_t> index_;
  std::array<int64_t, N> offsets_{};
};

// The number of true mask entries in each chunk of the iteration space of `plan`, whose
// operand `k` is the mask.
template <size_t N>
std::vector<int64_t> CountPerChunk(const Chunks& chunks, const funcs::BroadcastPlan& plan,
                                   const bool* mask, size_t k) {
  std::vector<int64_t> counts(chunks.count(), 0);
  chunks.ForEach([&](int64_t c, int64_t begin, int64_t end) {
    BroadcastCursor<N> cursor(plan, begin);
    int64_t count = 0;
    for (int64_t i = begin; i < end; ++i, cursor.Next()) count += mask[cursor.offset(k)];
    counts[c] = count;
  });
  return counts;
}

template <typename T>
bool IsNonZero(T v) {
  return static_cast<MathType<T>>(v) != static_cast<MathType<T>>(0);
}

}  // namespace

// out = the elements of x (broadcast with mask) where mask is true, in row-major order.
template <typename T, typename Context>
void MaskedSelectKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& mask,
                        DenseTensor* out) {
  DDim dims = funcs::BroadcastShape(x.dims(), mask.dims(), "masked_select");
  Chunks chunks(dims.numel());
  funcs::BroadcastPlan plan = funcs::MakeBroadcastPlan(dims, {x.dims(), mask.dims()});
  const bool* m = mask.data<bool>();
  std::vector<int64_t> starts = CountPerChunk<2>(chunks, plan, m, 1);
  out->Resize(DDim({PrefixSum(&starts)}));
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  chunks.ForEach([&](int64_t c, int64_t begin, int64_t end) {
    BroadcastCursor<2> cursor(plan, begin);
    T* dst = o + starts[c];
    for (int64_t i = begin; i < end; ++i, cursor.Next()) {
      if (m[cursor.offset(1)]) *dst++ = in[cursor.offset(0)];
    }
  });
}

// out = x with the leading elements of `value` (flattened) written, in order, where mask
// (broadcast to x's shape) is true.
template <typename T, typename Context>
void MaskedScatterKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& mask,
                         const DenseTensor& value, DenseTensor* out) {
  const DDim& dims = x.dims();
  Chunks chunks(dims.numel());
  funcs::BroadcastPlan plan = funcs::MakeBroadcastPlan(dims, {mask.dims()});
  const bool* m = mask.data<bool>();
  std::vector<int64_t> starts = CountPerChunk<1>(chunks, plan, m, 0);
  int64_t selected = PrefixSum(&starts);
  PD_CHECK(selected <= value.numel(),
           errors::InvalidArgument("masked_scatter: argument 'value' has ", value.numel(),
                                   " elements, but 'mask' selects ", selected,
                                   " positions; expected at least as many values"));
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  if (o != in && x.numel() > 0) std::copy(in, in + x.numel(), o);
  const T* v = value.data<T>();
  chunks.ForEach([&](int64_t c, int64_t begin, int64_t end) {
    BroadcastCursor<1> cursor(plan, begin);
    const T* src = v + starts[c];
    for (int64_t i = begin; i < end; ++i, cursor.Next()) {
      if (m[cursor.offset(0)]) o[i] = *src++;
    }
  });
}

// out[i, :] = the coordinates of the i-th nonzero element of condition, in row-major order.
template <typename T, typename Context>
void NonzeroKernel(const Context& ctx, const DenseTensor& condition, DenseTensor* out) {
  const DDim& dims = condition.dims();
  int rank = dims.size();
  Chunks chunks(condition.numel());
  const T* c = condition.data<T>();
  std::vector<int64_t> starts(chunks.count(), 0);
  chunks.ForEach([&](int64_t chunk, int64_t begin, int64_t end) {
    int64_t count = 0;
    for (int64_t i = begin; i < end; ++i) count += IsNonZero(c[i]);
    starts[chunk] = count;
  });
  int64_t total = PrefixSum(&starts);
  out->Resize(DDim({total, static_cast<int64_t>(rank)}));
  int64_t* o = ctx.template Alloc<int64_t>(out);
  if (rank == 0) return;
  chunks.ForEach([&](int64_t chunk, int64_t begin, int64_t end) {
    std::vector<int64_t> index(rank);
    int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    int64_t* dst = o + starts[chunk] * rank;
    for (int64_t i = begin; i < end; ++i) {
      if (IsNonZero(c[i])) {
        std::copy(index.begin(), index.end(), dst);
        dst += rank;
      }
      for (int d = rank - 1; d >= 0 && ++index[d] == dims[d]; --d) index[d] = 0;
    }
  });
}

}  // namespace paddle
