// CPU take_along_axis, put_along_axis, topk, argsort, cumsum and cumprod. Each works on the
// independent 1-d lines of a tensor along one axis: a line is fixed by its coordinates in the
// other dims, and the lines run in parallel. Index tensors are int32 or int64; every index is
// checked (negative ones count from the end, as in Paddle) before any element moves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/elementwise_functors.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

// A tensor's dims seen as 1-d lines along `axis`: line l starts at Start(l) and steps by
// `stride`. A 0-d tensor is one line of one element.
struct Lines {
  std::vector<int64_t> dims;     // the dims other than axis
  std::vector<int64_t> strides;  // their element strides in the tensor
  int64_t count = 1, size = 1, stride = 1;

  Lines(const DDim& shape, int axis, const std::vector<int64_t>& tensor_strides) {
    for (int i = 0; i < shape.size(); ++i) {
      if (i == axis) {
        size = shape[i];
        stride = tensor_strides[i];
      } else {
        dims.push_back(shape[i]);
        strides.push_back(tensor_strides[i]);
        count *= shape[i];
      }
    }
  }

  // Offset of line l's first element, for a tensor with `other` strides in the non-axis dims.
  int64_t Start(int64_t l, const std::vector<int64_t>& other) const {
    int64_t offset = 0;
    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
      offset += (l % dims[i]) * other[i];
      l /= dims[i];
    }
    return offset;
  }
  int64_t Start(int64_t l) const { return Start(l, strides); }
};

Lines LinesOf(const DDim& dims, int axis) { return Lines(dims, axis, ContiguousStrides(dims)); }

// The non-axis strides of a tensor of shape `dims` (contiguous).
std::vector<int64_t> OtherStrides(const DDim& dims, int axis) {
  return LinesOf(dims, axis).strides;
}

int64_t AxisStride(const DDim& dims, int axis) {
  return dims.size() == 0 ? 1 : ContiguousStrides(dims)[axis];
}

// The indices as int64, each checked to lie in [-size, size) and wrapped into [0, size).
std::vector<int64_t> CheckedAlongAxis(const DenseTensor& indices, int64_t size, const char* op) {
  std::vector<int64_t> result(indices.numel());
  auto check = [&](const auto* data) {
    for (size_t i = 0; i < result.size(); ++i) {
      int64_t v = data[i];
      PD_CHECK(v >= -size && v < size,
               errors::OutOfRange(op, ": argument 'indices' holds ", v, " at position ", i,
                                  ", expected values in [", -size, ", ", size, ")"));
      result[i] = v < 0 ? v + size : v;
    }
  };
  switch (indices.dtype()) {
    case DataType::INT32:
      check(indices.data<int32_t>());
      break;
    case DataType::INT64:
      check(indices.data<int64_t>());
      break;
    default:
      PD_THROW(errors::InvalidArgument(op,
                                       ": argument 'indices' must be an int32 or int64 tensor, "
                                       "received ",
                                       DataTypeName(indices.dtype())));
  }
  return result;
}

// Calls fn(index_offset, arr_offset) for every element of `indices`, line by line in parallel:
// index_offset is the element's offset in indices (and values, out of take_along_axis),
// arr_offset the offset in arr it selects. Different lines touch different lines of arr.
template <typename Fn>
void ForEachAlongAxis(const DDim& arr_dims, const DDim& index_dims, int axis,
                      const std::vector<int64_t>& index, Fn&& fn) {
  Lines lines = LinesOf(index_dims, axis);
  if (lines.count * lines.size == 0) return;
  std::vector<int64_t> arr_other = OtherStrides(arr_dims, axis);
  int64_t arr_stride = AxisStride(arr_dims, axis);
  funcs::ParallelFor(
      lines.count,
      [&](int64_t begin, int64_t end) {
        for (int64_t l = begin; l < end; ++l) {
          int64_t in = lines.Start(l), a = lines.Start(l, arr_other);
          for (int64_t j = 0; j < lines.size; ++j) {
            int64_t i = in + j * lines.stride;
            fn(i, a + index[i] * arr_stride);
          }
        }
      },
      funcs::kParallelThreshold / (lines.size + 1) + 1);
}

template <typename T>
void CopyUnlessAliased(const DenseTensor& x, T* out) {
  const T* in = x.data<T>();
  if (out != in && x.numel() > 0) std::memcpy(out, in, x.numel() * sizeof(T));
}

template <typename T>
using MT = MathType<T>;

// NaN-aware orders of the sort ops: NaN is larger than every number (NumPy's order), and equal
// values keep their index order.
template <typename T>
bool IsNan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<MT<T>>(v));
  }
}

template <typename T>
struct Entry {
  MT<T> value;
  int64_t index;
};

template <typename T>
bool Less(const Entry<T>& a, const Entry<T>& b) {
  bool an = IsNan(a.value), bn = IsNan(b.value);
  if (an || bn) return !an && bn ? true : (an && bn ? a.index < b.index : false);
  if (a.value != b.value) return a.value < b.value;
  return a.index < b.index;
}

template <typename T>
bool Greater(const Entry<T>& a, const Entry<T>& b) {
  bool an = IsNan(a.value), bn = IsNan(b.value);
  if (an || bn) return an && !bn ? true : (an && bn ? a.index < b.index : false);
  if (a.value != b.value) return a.value > b.value;
  return a.index < b.index;
}

// Sorts every line of x along `axis` (the first k entries of each, when k < size), writing the
// first k values and their indices. Both orders are total, so the result is stable.
template <typename T>
void SortLines(const DenseTensor& x, int axis, int64_t k, bool descending, bool sorted, T* out,
               int64_t* out_index) {
  Lines lines = LinesOf(x.dims(), axis);
  if (lines.count * k == 0) return;
  DDim out_dims = x.dims();
  if (out_dims.size() > 0) out_dims[axis] = k;
  std::vector<int64_t> out_other = OtherStrides(out_dims, axis);
  int64_t out_stride = AxisStride(out_dims, axis);
  const T* in = x.data<T>();
  auto cmp = descending ? Greater<T> : Less<T>;
  funcs::ParallelFor(
      lines.count,
      [&](int64_t begin, int64_t end) {
        std::vector<Entry<T>> line(lines.size);
        for (int64_t l = begin; l < end; ++l) {
          int64_t start = lines.Start(l);
          for (int64_t j = 0; j < lines.size; ++j) {
            line[j] = {static_cast<MT<T>>(in[start + j * lines.stride]), j};
          }
          if (k < lines.size) {
            std::partial_sort(line.begin(), line.begin() + k, line.end(), cmp);
            // Unsorted top-k keeps the input order of the chosen entries.
            if (!sorted) {
              std::sort(line.begin(), line.begin() + k,
                        [](const Entry<T>& a, const Entry<T>& b) { return a.index < b.index; });
            }
          } else {
            std::sort(line.begin(), line.end(), cmp);
          }
          int64_t o = lines.Start(l, out_other);
          for (int64_t j = 0; j < k; ++j) {
            out[o + j * out_stride] = static_cast<T>(line[j].value);
            out_index[o + j * out_stride] = line[j].index;
          }
        }
      },
      funcs::kParallelThreshold / (lines.size + 1) + 1);
}

// out[i] = op(previous, x[i]) along each line: inclusive or exclusive, forwards or reversed.
template <typename T, typename Op>
void ScanLines(const DenseTensor& x, const DDim& dims, int axis, bool exclusive, bool reverse,
               MT<T> identity, Op op, T* out) {
  Lines lines = LinesOf(dims, axis);
  if (lines.count * lines.size == 0) return;
  const T* in = x.data<T>();
  funcs::ParallelFor(
      lines.count,
      [&](int64_t begin, int64_t end) {
        for (int64_t l = begin; l < end; ++l) {
          int64_t start = lines.Start(l);
          MT<T> acc = identity;
          for (int64_t j = 0; j < lines.size; ++j) {
            int64_t p = start + (reverse ? lines.size - 1 - j : j) * lines.stride;
            MT<T> v = static_cast<MT<T>>(in[p]);
            if (exclusive) {
              out[p] = static_cast<T>(acc);
              acc = op(acc, v);
            } else {
              acc = op(acc, v);
              out[p] = static_cast<T>(acc);
            }
          }
        }
      },
      funcs::kParallelThreshold / (lines.size + 1) + 1);
}

}  // namespace

template <typename T, typename Context>
void TakeAlongAxisKernel(const Context& ctx, const DenseTensor& arr, const DenseTensor& indices,
                         int32_t axis, DenseTensor* out) {
  int a = NormalizeAxis(axis, arr.dims().size(), "take_along_axis");
  int64_t size = arr.dims().size() == 0 ? 1 : arr.dims()[a];
  std::vector<int64_t> index = CheckedAlongAxis(indices, size, "take_along_axis");
  T* o = ctx.template Alloc<T>(out);
  const T* in = arr.data<T>();
  ForEachAlongAxis(arr.dims(), indices.dims(), a, index,
                   [&](int64_t i, int64_t src) { o[i] = in[src]; });
}

// out = arr, then every value is reduced into the arr position its index selects: assigned
// (the last duplicate wins), added or multiplied. include_self = false first resets the
// selected positions to the reduction's identity.
template <typename T, typename Context>
void PutAlongAxisKernel(const Context& ctx, const DenseTensor& arr, const DenseTensor& indices,
                        const DenseTensor& values, int32_t axis, const std::string& reduce,
                        bool include_self, DenseTensor* out) {
  int a = NormalizeAxis(axis, arr.dims().size(), "put_along_axis");
  int64_t size = arr.dims().size() == 0 ? 1 : arr.dims()[a];
  std::vector<int64_t> index = CheckedAlongAxis(indices, size, "put_along_axis");
  T* o = ctx.template Alloc<T>(out);
  CopyUnlessAliased(arr, o);
  const T* v = values.data<T>();
  if (reduce == "assign") {
    ForEachAlongAxis(arr.dims(), indices.dims(), a, index,
                     [&](int64_t i, int64_t dst) { o[dst] = v[i]; });
    return;
  }
  bool add = reduce == "add";
  PD_CHECK(add || reduce == "mul" || reduce == "multiply",
           errors::InvalidArgument("put_along_axis: argument 'reduce' must be 'assign', 'add', "
                                   "'mul' or 'multiply', received '",
                                   reduce, "'"));
  if (!include_self) {
    T identity = static_cast<T>(add ? 0 : 1);
    ForEachAlongAxis(arr.dims(), indices.dims(), a, index,
                     [&](int64_t, int64_t dst) { o[dst] = identity; });
  }
  ForEachAlongAxis(arr.dims(), indices.dims(), a, index, [&](int64_t i, int64_t dst) {
    MT<T> x = static_cast<MT<T>>(o[dst]), y = static_cast<MT<T>>(v[i]);
    o[dst] = static_cast<T>(add ? x + y : x * y);
  });
}

template <typename T, typename Context>
void TopkKernel(const Context& ctx, const DenseTensor& x, const Scalar& k, int32_t axis,
                bool largest, bool sorted, DenseTensor* out, DenseTensor* indices) {
  int a = NormalizeAxis(axis, x.dims().size(), "topk");
  int64_t size = x.dims().size() == 0 ? 1 : x.dims()[a];
  int64_t kv = k.to<int64_t>();
  PD_CHECK(kv >= 0 && kv <= size,
           errors::InvalidArgument("topk: argument 'k' expected to be in range [0, ", size,
                                   "], received ", kv));
  T* o = ctx.template Alloc<T>(out);
  int64_t* idx = ctx.template Alloc<int64_t>(indices);
  SortLines(x, a, kv, largest, sorted, o, idx);
}

// Sorts along `axis`; both orders are stable, so `stable` changes nothing here.
template <typename T, typename Context>
void ArgsortKernel(const Context& ctx, const DenseTensor& x, int32_t axis, bool descending,
                   bool stable, DenseTensor* out, DenseTensor* indices) {
  int a = NormalizeAxis(axis, x.dims().size(), "argsort");
  int64_t size = x.dims().size() == 0 ? 1 : x.dims()[a];
  T* o = ctx.template Alloc<T>(out);
  int64_t* idx = ctx.template Alloc<int64_t>(indices);
  SortLines(x, a, size, descending, true, o, idx);
}

template <typename T, typename Context>
void CumsumKernel(const Context& ctx, const DenseTensor& x, const Scalar& axis, bool flatten,
                  bool exclusive, bool reverse, DenseTensor* out) {
  DDim dims = flatten ? DDim(std::vector<int64_t>{x.numel()}) : x.dims();
  int a = flatten ? 0 : NormalizeAxis(axis.to<int64_t>(), dims.size(), "cumsum");
  T* o = ctx.template Alloc<T>(out);
  ScanLines<T>(x, dims, a, exclusive, reverse, MT<T>(0), funcs::AddFunctor<MT<T>>(), o);
}

template <typename T, typename Context>
void CumprodKernel(const Context& ctx, const DenseTensor& x, int32_t dim, bool exclusive,
                   bool reverse, DenseTensor* out) {
  int a = NormalizeAxis(dim, x.dims().size(), "cumprod", "dim");
  T* o = ctx.template Alloc<T>(out);
  ScanLines<T>(x, x.dims(), a, exclusive, reverse, MT<T>(1), funcs::MultiplyFunctor<MT<T>>(), o);
}

// The gradient of cumprod, exact when x holds zeros. Along one line (forwards, inclusive),
// out_j = x_0 ... x_j, so dx_i = sum_{j >= i} g_j * prod_{k <= j, k != i} x_k. With z the first
// zero of the line: for i < z, dx_i = (sum_{i <= j < z} g_j out_j) / x_i; dx_z sums g_j times
// the product with x_z left out; after z every term holds a zero. An exclusive scan is the
// inclusive one of x_0 .. x_{n-2} written one place later, so its last x gets no gradient.
template <typename T, typename Context>
void CumprodGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out,
                       const DenseTensor& out_grad, int32_t dim, bool exclusive, bool reverse,
                       DenseTensor* x_grad) {
  int a = NormalizeAxis(dim, x.dims().size(), "cumprod_grad", "dim");
  T* dx = ctx.template Alloc<T>(x_grad);
  Lines lines = LinesOf(x.dims(), a);
  if (lines.count * lines.size == 0) return;
  const T* xs = x.data<T>();
  const T* g = out_grad.data<T>();
  funcs::ParallelFor(
      lines.count,
      [&](int64_t begin, int64_t end) {
        std::vector<MT<T>> lx(lines.size), lg(lines.size), ldx(lines.size);
        std::vector<int64_t> pos(lines.size);
        for (int64_t l = begin; l < end; ++l) {
          int64_t start = lines.Start(l);
          for (int64_t j = 0; j < lines.size; ++j) {
            pos[j] = start + (reverse ? lines.size - 1 - j : j) * lines.stride;
          }
          // The inclusive problem: n elements of x, gradient g_j for the product up to j.
          int64_t n = exclusive ? lines.size - 1 : lines.size;
          for (int64_t j = 0; j < n; ++j) {
            lx[j] = static_cast<MT<T>>(xs[pos[j]]);
            lg[j] = static_cast<MT<T>>(g[pos[exclusive ? j + 1 : j]]);
          }
          int64_t z = n;
          for (int64_t j = 0; j < n; ++j) {
            if (lx[j] == MT<T>(0)) {
              z = j;
              break;
            }
          }
          std::fill(ldx.begin(), ldx.end(), MT<T>(0));
          // Suffix sums of g_j out_j over j < z.
          MT<T> prefix = 1, suffix = 0;
          std::vector<MT<T>> prods(z);
          for (int64_t j = 0; j < z; ++j) prods[j] = prefix = prefix * lx[j];
          for (int64_t i = z - 1; i >= 0; --i) {
            suffix += lg[i] * prods[i];
            ldx[i] = suffix / lx[i];
          }
          if (z < n) {
            MT<T> before = z > 0 ? prods[z - 1] : MT<T>(1), running = before, sum = 0;
            for (int64_t j = z; j < n; ++j) {
              if (j > z) running *= lx[j];
              sum += lg[j] * running;
            }
            ldx[z] = sum;
          }
          for (int64_t j = 0; j < lines.size; ++j) dx[pos[j]] = static_cast<T>(ldx[j]);
        }
      },
      funcs::kParallelThreshold / (lines.size + 1) + 1);
}

}  // namespace paddle
