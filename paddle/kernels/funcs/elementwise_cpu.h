// The CPU elementwise engine: every unary, binary, comparison and ternary op is a functor run
// through these loops, which handle broadcasting (with coalesced dimensions), the same-shape and
// scalar fast paths, and intra-op threads.
#pragma once

#include <array>
#include <type_traits>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

// Calls row(out_begin, count, offsets, inner_strides) for each innermost row of the broadcast
// iteration space of N operands; offsets are each operand's element offset at the row start.
template <size_t N, typename RowFn>
void ForEachBroadcastRow(const DDim& out_dims, const std::array<DDim, N>& operand_dims,
                         RowFn&& row) {
  BroadcastPlan plan =
      MakeBroadcastPlan(out_dims, std::vector<DDim>(operand_dims.begin(), operand_dims.end()));
  int rank = static_cast<int>(plan.dims.size());
  int64_t inner = plan.dims[rank - 1];
  int64_t rows = out_dims.numel() / inner;
  std::array<int64_t, N> inner_strides;
  for (size_t k = 0; k < N; ++k) inner_strides[k] = plan.strides[k][rank - 1];
  ParallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          std::array<int64_t, N> offsets{};
          int64_t rest = r;
          for (int d = rank - 2; d >= 0; --d) {
            int64_t index = rest % plan.dims[d];
            rest /= plan.dims[d];
            for (size_t k = 0; k < N; ++k) offsets[k] += index * plan.strides[k][d];
          }
          row(r * inner, inner, offsets, inner_strides);
        }
      },
      inner > 0 ? kParallelThreshold / inner + 1 : kParallelThreshold);
}

template <typename InT, typename OutT, typename Functor>
void UnaryElementwise(const CPUContext& ctx, const DenseTensor& x, DenseTensor* out, Functor f) {
  OutT* o = ctx.Alloc<OutT>(out);
  const InT* a = x.data<InT>();
  ParallelFor(x.numel(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) o[i] = f(a[i]);
  });
}

// out[0, count) = f(x, y) for one row of operands read at `offset`, each with `stride` 1 (a
// contiguous row) or 0 (a value broadcast along the row). Out of line so that every path of
// BinaryElementwise shares one compiled copy of these loops.
template <typename InT, typename OutT, typename Functor>
[[gnu::noinline]] void BinaryRow(const InT* a, const InT* b, OutT* out, int64_t count,
                                 const std::array<int64_t, 2>& stride, const Functor& f) {
  if (stride[0] == 1 && stride[1] == 1) {
    for (int64_t j = 0; j < count; ++j) out[j] = f(a[j], b[j]);
  } else if (stride[0] == 1 && stride[1] == 0) {
    InT s = b[0];
    for (int64_t j = 0; j < count; ++j) out[j] = f(a[j], s);
  } else if (stride[0] == 0 && stride[1] == 1) {
    InT s = a[0];
    for (int64_t j = 0; j < count; ++j) out[j] = f(s, b[j]);
  } else {
    for (int64_t j = 0; j < count; ++j) out[j] = f(a[j * stride[0]], b[j * stride[1]]);
  }
}

// out = f(x, y) with x and y broadcast to out's dims (set by InferMeta).
template <typename InT, typename OutT, typename Functor>
void BinaryElementwise(const CPUContext& ctx, const DenseTensor& x, const DenseTensor& y,
                       DenseTensor* out, Functor f) {
  OutT* o = ctx.Alloc<OutT>(out);
  const InT* a = x.data<InT>();
  const InT* b = y.data<InT>();
  int64_t n = out->numel();
  if (n == 0) return;
  bool x_full = x.numel() == n, y_full = y.numel() == n;
  if ((x_full || x.numel() == 1) && (y_full || y.numel() == 1)) {
    // Same shapes, or one operand a single value: one flat row, split across threads.
    std::array<int64_t, 2> stride = {x_full ? 1 : 0, y_full ? 1 : 0};
    ParallelFor(n, [&](int64_t begin, int64_t end) {
      BinaryRow(a + begin * stride[0], b + begin * stride[1], o + begin, end - begin, stride, f);
    });
    return;
  }
  ForEachBroadcastRow<2>(out->dims(), {x.dims(), y.dims()},
                         [&](int64_t begin, int64_t count, const std::array<int64_t, 2>& off,
                             const std::array<int64_t, 2>& stride) {
                           BinaryRow(a + off[0], b + off[1], o + begin, count, stride, f);
                         });
}

// Integer division by zero is undefined behaviour in C++: on the CPU the divisor is scanned and a
// zero raises InvalidArgument naming the op. Floating types divide as IEEE (inf/nan).
template <typename T, typename Functor>
Functor IntegerDivisionGuard(const CPUContext&, const DenseTensor& y, Functor f, const char* op) {
  if constexpr (std::is_integral_v<T>) {
    const T* d = y.data<T>();
    for (int64_t i = 0; i < y.numel(); ++i) {
      PD_CHECK(d[i] != 0, errors::InvalidArgument(op,
                                                  ": integer division by zero (argument 'y' "
                                                  "holds 0 at flat index ",
                                                  i, ")"));
    }
  }
  return f;
}

}  // namespace paddle::funcs
