// CPU kernels of unique and unique_consecutive (paddle/ops/yaml/unique.yaml). x is read as
// slices along the axis (without one, every element is a slice): unique sorts the slices
// (stably, so the first of equal slices is the one that occurs first) and groups equal
// neighbours; unique_consecutive groups equal neighbours as they lie. NaN sorts after every
// number and equals nothing, not even itself, so each NaN is a value of its own.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"

namespace paddle {
namespace unique_detail {

// Slice j of x along the axis holds x[o, j, i] for every outer index o and inner index i, in
// that order.
template <typename T>
struct Slices {
  const T* data;
  int64_t outer, count, inner;

  Slices(const DenseTensor& x, const std::vector<int32_t>& axis) : data(x.data<T>()) {
    const DDim& dims = x.dims();
    if (axis.empty()) {
      outer = inner = 1;
      count = x.numel();
      return;
    }
    const int d = axis[0] < 0 ? axis[0] + dims.size() : axis[0];
    outer = inner = 1;
    for (int i = 0; i < d; ++i) outer *= dims[i];
    for (int i = d + 1; i < dims.size(); ++i) inner *= dims[i];
    count = dims[d];
  }

  int64_t length() const { return outer * inner; }
  T at(int64_t slice, int64_t k) const {
    return data[(k / inner * count + slice) * inner + k % inner];
  }
  // Copies slice `from` to position `to` of `out`, whose axis holds `out_count` slices.
  void CopyTo(int64_t from, T* out, int64_t to, int64_t out_count) const {
    if (inner == 0) return;  // empty slices: nothing to copy, and no buffers to copy between
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(out + (o * out_count + to) * inner, data + (o * count + from) * inner,
                  inner * sizeof(T));
    }
  }
};

template <typename T>
bool Less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <typename T>
bool SliceLess(const Slices<T>& s, int64_t a, int64_t b) {
  for (int64_t k = 0; k < s.length(); ++k) {
    const T x = s.at(a, k), y = s.at(b, k);
    if (Less(x, y)) return true;
    if (Less(y, x)) return false;
  }
  return false;
}

template <typename T>
bool SliceEqual(const Slices<T>& s, int64_t a, int64_t b) {
  for (int64_t k = 0; k < s.length(); ++k) {
    if (!(s.at(a, k) == s.at(b, k))) return false;
  }
  return true;
}

// The groups of equal slices: for each, the slice that stands for it and how many there are;
// and for each slice its group.
struct Groups {
  std::vector<int64_t> first, counts, of_slice;
};

// Groups the slices visited in `order`, equal neighbours together.
template <typename T>
Groups GroupRuns(const Slices<T>& s, const std::vector<int64_t>& order) {
  Groups g;
  g.of_slice.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || !SliceEqual(s, order[i - 1], order[i])) {
      g.first.push_back(order[i]);
      g.counts.push_back(0);
    }
    g.of_slice[order[i]] = static_cast<int64_t>(g.first.size()) - 1;
    ++g.counts.back();
  }
  return g;
}

// Renumbers the groups by where they first occur (Paddle's unsorted unique).
inline void OrderByFirstOccurrence(Groups* g) {
  std::vector<int64_t> by_first(g->first.size());
  std::iota(by_first.begin(), by_first.end(), 0);
  std::sort(by_first.begin(), by_first.end(),
            [&](int64_t a, int64_t b) { return g->first[a] < g->first[b]; });
  std::vector<int64_t> renumbered(by_first.size());
  Groups sorted;
  for (size_t n = 0; n < by_first.size(); ++n) {
    renumbered[by_first[n]] = static_cast<int64_t>(n);
    sorted.first.push_back(g->first[by_first[n]]);
    sorted.counts.push_back(g->counts[by_first[n]]);
  }
  for (int64_t group : g->of_slice) sorted.of_slice.push_back(renumbered[group]);
  *g = std::move(sorted);
}

template <typename Context>
void WriteIndices(const Context& ctx, const std::vector<int64_t>& values, DataType dtype,
                  DenseTensor* out) {
  out->Resize(DDim({static_cast<int64_t>(values.size())}));
  if (dtype == DataType::INT32) {
    int32_t* o = ctx.template Alloc<int32_t>(out);
    for (size_t i = 0; i < values.size(); ++i) o[i] = static_cast<int32_t>(values[i]);
  } else {
    int64_t* o = ctx.template Alloc<int64_t>(out);
    std::copy(values.begin(), values.end(), o);
  }
}

// out: the groups' slices in group order, along the axis (flat without one).
template <typename T, typename Context>
void WriteSlices(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& axis,
                 const Slices<T>& s, const Groups& g, DenseTensor* out) {
  const int64_t n = static_cast<int64_t>(g.first.size());
  if (axis.empty()) {
    out->Resize(DDim({n}));
  } else {
    DDim dims = x.dims();
    dims[axis[0] < 0 ? axis[0] + dims.size() : axis[0]] = n;
    out->Resize(dims);
  }
  T* o = ctx.template Alloc<T>(out);
  for (int64_t i = 0; i < n; ++i) s.CopyTo(g.first[i], o, i, n);
}

}  // namespace unique_detail

template <typename T, typename Context>
void UniqueKernel(const Context& ctx, const DenseTensor& x, bool return_index, bool return_inverse,
                  bool return_counts, const std::vector<int32_t>& axis, DataType dtype,
                  bool is_sorted, DenseTensor* out, DenseTensor* indices, DenseTensor* inverse,
                  DenseTensor* counts) {
  // Paddle's legacy unsorted unique takes the values flat, in the order they first occur.
  const std::vector<int32_t> slice_axis = is_sorted ? axis : std::vector<int32_t>{};
  unique_detail::Slices<T> s(x, slice_axis);
  std::vector<int64_t> order(s.count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return unique_detail::SliceLess(s, a, b); });
  unique_detail::Groups g = unique_detail::GroupRuns(s, order);
  if (!is_sorted) unique_detail::OrderByFirstOccurrence(&g);
  unique_detail::WriteSlices(ctx, x, slice_axis, s, g, out);
  unique_detail::WriteIndices(ctx, g.first, dtype, indices);
  unique_detail::WriteIndices(ctx, g.of_slice, dtype, inverse);
  unique_detail::WriteIndices(ctx, g.counts, dtype, counts);
}

template <typename T, typename Context>
void UniqueConsecutiveKernel(const Context& ctx, const DenseTensor& x, bool return_inverse,
                             bool return_counts, const std::vector<int32_t>& axis, DataType dtype,
                             DenseTensor* out, DenseTensor* inverse, DenseTensor* counts) {
  unique_detail::Slices<T> s(x, axis);
  std::vector<int64_t> order(s.count);
  std::iota(order.begin(), order.end(), 0);
  unique_detail::Groups g = unique_detail::GroupRuns(s, order);
  unique_detail::WriteSlices(ctx, x, axis, s, g, out);
  unique_detail::WriteIndices(ctx, g.of_slice, dtype, inverse);
  unique_detail::WriteIndices(ctx, g.counts, dtype, counts);
}

}  // namespace paddle
