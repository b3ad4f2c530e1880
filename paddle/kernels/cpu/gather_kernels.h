// CPU gather, index_select, index_add, gather_nd, scatter and scatter_nd_add. Around `axis` a
// tensor is [outer, size, inner]; gathering along it copies `inner`-element slices, scattering adds
// them. Index tensors are int32 or int64 whatever x's dtype; every index is bounds-checked before
// any element moves, so a bad index raises OutOfRange and never touches memory.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

// Calls fn(data) with the index tensor's values as int32_t or int64_t.
template <typename Fn>
void VisitIndex(const DenseTensor& index, const char* op, Fn&& fn) {
  switch (index.dtype()) {
    case DataType::INT32:
      fn(index.data<int32_t>());
      break;
    case DataType::INT64:
      fn(index.data<int64_t>());
      break;
    default:
      PD_THROW(errors::InvalidArgument(op,
                                       ": argument 'index' must be an int32 or int64 tensor, "
                                       "received ",
                                       DataTypeName(index.dtype())));
  }
}

// The values of a 0-d or 1-d index, each checked to lie in [0, size).
std::vector<int64_t> CheckedIndices(const DenseTensor& index, int64_t size, const char* op) {
  std::vector<int64_t> result(index.numel());
  VisitIndex(index, op, [&](const auto* data) {
    for (size_t i = 0; i < result.size(); ++i) {
      int64_t v = data[i];
      PD_CHECK(v >= 0 && v < size,
               errors::OutOfRange(op, ": argument 'index' holds ", v, " at position ", i,
                                  ", expected values in [0, ", size, ")"));
      result[i] = v;
    }
  });
  return result;
}

// a + b in T's math type; for bool, logical or.
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else {
    using MT = MathType<T>;
    return static_cast<T>(static_cast<MT>(a) + static_cast<MT>(b));
  }
}

struct AxisShape {
  int64_t outer = 1, size = 1, inner = 1;
};

AxisShape ShapeAround(const DDim& dims, int axis) {
  AxisShape s;
  for (int i = 0; i < axis; ++i) s.outer *= dims[i];
  s.size = dims[axis];
  for (int i = axis + 1; i < dims.size(); ++i) s.inner *= dims[i];
  return s;
}

// out[o, j, :] = x[o, index[j], :]
template <typename T>
void GatherAlongAxis(const DenseTensor& x, const std::vector<int64_t>& index, int axis, T* out) {
  AxisShape s = ShapeAround(x.dims(), axis);
  int64_t n = static_cast<int64_t>(index.size());
  if (s.outer * n * s.inner == 0) return;
  const T* in = x.data<T>();
  funcs::ParallelFor(
      s.outer * n,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          int64_t o = row / n, j = row % n;
          std::memcpy(out + row * s.inner, in + (o * s.size + index[j]) * s.inner,
                      s.inner * sizeof(T));
        }
      },
      funcs::kParallelThreshold / s.inner + 1);
}

// Copies x into out unless out already is x's buffer (in-place execution).
template <typename T>
void CopyUnlessAliased(const DenseTensor& x, T* out) {
  const T* in = x.data<T>();
  if (out != in && x.numel() > 0) std::memcpy(out, in, x.numel() * sizeof(T));
}

// gather_nd's index as element offsets of the slices of x it selects, each component checked.
std::vector<int64_t> GatherNdOffsets(const DDim& x_dims, const DenseTensor& index, int64_t slice,
                                     const char* op) {
  const DDim& index_dims = index.dims();
  int depth = static_cast<int>(index_dims[index_dims.size() - 1]);
  int64_t count = 1;
  for (int i = 0; i + 1 < index_dims.size(); ++i) count *= index_dims[i];
  std::vector<int64_t> offsets(count, 0);
  if (count == 0 || depth == 0) return offsets;
  std::vector<int64_t> strides(depth);
  strides[depth - 1] = slice;
  for (int k = depth - 2; k >= 0; --k) strides[k] = strides[k + 1] * x_dims[k + 1];
  VisitIndex(index, op, [&](const auto* data) {
    for (int64_t i = 0; i < count; ++i) {
      int64_t offset = 0;
      for (int k = 0; k < depth; ++k) {
        int64_t v = data[i * depth + k];
        PD_CHECK(v >= 0 && v < x_dims[k],
                 errors::OutOfRange(op, ": argument 'index' holds ", v, " at position ",
                                    i * depth + k, " (component ", k, " of index entry ", i,
                                    "), expected values in [0, ", x_dims[k], ")"));
        offset += v * strides[k];
      }
      offsets[i] = offset;
    }
  });
  return offsets;
}

int64_t SliceSize(const DDim& x_dims, const DenseTensor& index) {
  int64_t depth = index.dims()[index.dims().size() - 1];
  int64_t slice = 1;
  for (int i = static_cast<int>(depth); i < x_dims.size(); ++i) slice *= x_dims[i];
  return slice;
}

}  // namespace

template <typename T, typename Context>
void GatherKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index, int64_t axis,
                  DenseTensor* out) {
  int a = AxisOfDim(axis, x.dims().size(), "gather");
  std::vector<int64_t> indices = CheckedIndices(index, x.dims()[a], "gather");
  T* o = ctx.template Alloc<T>(out);
  GatherAlongAxis(x, indices, a, o);
}

template <typename T, typename Context>
void IndexSelectKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index,
                       int32_t axis, DenseTensor* out) {
  int a = AxisOfDim(axis, x.dims().size(), "index_select");
  std::vector<int64_t> indices = CheckedIndices(index, x.dims()[a], "index_select");
  T* o = ctx.template Alloc<T>(out);
  GatherAlongAxis(x, indices, a, o);
}

// out = x; out[o, index[j], :] += add_value[o, j, :], repeated indices accumulating.
template <typename T, typename Context>
void IndexAddKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index,
                    const DenseTensor& add_value, int32_t axis, DenseTensor* out) {
  int a = AxisOfDim(axis, x.dims().size(), "index_add");
  std::vector<int64_t> indices = CheckedIndices(index, x.dims()[a], "index_add");
  T* o = ctx.template Alloc<T>(out);
  CopyUnlessAliased(x, o);
  AxisShape s = ShapeAround(x.dims(), a);
  int64_t n = static_cast<int64_t>(indices.size());
  if (s.outer * n * s.inner == 0) return;
  const T* add = add_value.data<T>();
  // Threads own disjoint ranges of (outer, inner) columns, so duplicates never race.
  funcs::ParallelFor(
      s.outer * s.inner,
      [&](int64_t begin, int64_t end) {
        for (int64_t first = begin; first < end;) {
          int64_t outer = first / s.inner, k0 = first % s.inner;
          int64_t k1 = std::min(s.inner, k0 + (end - first));
          for (int64_t j = 0; j < n; ++j) {
            T* dst = o + (outer * s.size + indices[j]) * s.inner;
            const T* src = add + (outer * n + j) * s.inner;
            for (int64_t k = k0; k < k1; ++k) dst[k] = Add(dst[k], src[k]);
          }
          first += k1 - k0;
        }
      },
      funcs::kParallelThreshold / n + 1);
}

template <typename T, typename Context>
void GatherNdKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index,
                    DenseTensor* out) {
  int64_t slice = SliceSize(x.dims(), index);
  std::vector<int64_t> offsets = GatherNdOffsets(x.dims(), index, slice, "gather_nd");
  T* o = ctx.template Alloc<T>(out);
  int64_t count = static_cast<int64_t>(offsets.size());
  if (count * slice == 0) return;
  const T* in = x.data<T>();
  funcs::ParallelFor(
      count,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
          std::memcpy(o + i * slice, in + offsets[i], slice * sizeof(T));
        }
      },
      funcs::kParallelThreshold / slice + 1);
}

// out = x; out[index[i]] += updates[i] for every index entry, repeated entries accumulating.
// out = x with the rows index[i] replaced by updates[i] (the last one wins for a repeated
// index), or with overwrite=false zeroed and then the sum of their updates added.
template <typename T, typename Context>
void ScatterKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index,
                   const DenseTensor& updates, bool overwrite, DenseTensor* out) {
  int64_t rows = x.dims()[0];
  int64_t slice = rows == 0 ? 0 : x.numel() / rows;
  std::vector<int64_t> ids = CheckedIndices(index, rows, "scatter");
  T* o = ctx.template Alloc<T>(out);
  CopyUnlessAliased(x, o);
  if (slice == 0) return;
  const T* u = updates.data<T>();
  if (!overwrite) {
    for (int64_t id : ids) std::fill(o + id * slice, o + (id + 1) * slice, T{});
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    T* dst = o + ids[i] * slice;
    const T* src = u + static_cast<int64_t>(i) * slice;
    if (overwrite) {
      std::copy(src, src + slice, dst);
    } else {
      for (int64_t k = 0; k < slice; ++k) dst[k] = Add(dst[k], src[k]);
    }
  }
}

template <typename T, typename Context>
void ScatterNdAddKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& index,
                        const DenseTensor& updates, DenseTensor* out) {
  int64_t slice = SliceSize(x.dims(), index);
  std::vector<int64_t> offsets = GatherNdOffsets(x.dims(), index, slice, "scatter_nd_add");
  T* o = ctx.template Alloc<T>(out);
  CopyUnlessAliased(x, o);
  int64_t count = static_cast<int64_t>(offsets.size());
  if (count * slice == 0) return;
  const T* u = updates.data<T>();
  // Threads own disjoint column ranges of the slices, so duplicates never race.
  funcs::ParallelFor(
      slice,
      [&](int64_t begin, int64_t end) {
        for (int64_t i = 0; i < count; ++i) {
          T* dst = o + offsets[i];
          const T* src = u + i * slice;
          for (int64_t k = begin; k < end; ++k) dst[k] = Add(dst[k], src[k]);
        }
      },
      funcs::kParallelThreshold / count + 1);
}

}  // namespace paddle
