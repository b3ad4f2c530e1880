// CPU kernels of the shape-manipulation ops: the views (reshape, squeeze, unsqueeze, flatten),
// transpose, concat/split/stack, expand, and the slices (slice, strided_slice, set_value).
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "paddle/common/slice_bounds.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/funcs/parallel_for.h"

// CPU kernels of the view ops (reshape, squeeze, unsqueeze, flatten). A DenseTensor is always
// row-major contiguous, so these ops only change the meta, which InferMeta has already set: the
// output shares the input's allocation and no element is copied (the ops declare `view: (x ->
// out)`).
namespace paddle {

namespace {

void ShareAsView(const DenseTensor& x, DenseTensor* out) {
  PD_INTERNAL_ASSERT(out->numel() == x.numel(), "a view of ", x.dims().ToString(),
                     " cannot have shape ", out->dims().ToString());
  out->ShareBufferWith(x);
}

}  // namespace

template <typename T, typename Context>
void ReshapeKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& shape,
                   DenseTensor* out) {
  ShareAsView(x, out);
}

template <typename T, typename Context>
void SqueezeKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                   DenseTensor* out) {
  ShareAsView(x, out);
}

template <typename T, typename Context>
void UnsqueezeKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axis,
                     DenseTensor* out) {
  ShareAsView(x, out);
}

template <typename T, typename Context>
void FlattenKernel(const Context& ctx, const DenseTensor& x, int32_t start_axis, int32_t stop_axis,
                   DenseTensor* out) {
  ShareAsView(x, out);
}

template <typename T, typename Context>
void ShapeKernel(const Context& ctx, const DenseTensor& input, DenseTensor* out) {
  int64_t* dims = ctx.template Alloc<int64_t>(out);
  for (int i = 0; i < input.dims().size(); ++i) dims[i] = input.dims()[i];
}

}  // namespace paddle

// CPU transpose: a permuted copy into a contiguous output.
//
// The permutation is first coalesced: size-1 dims are dropped and input dims that stay adjacent
// and in order in the output are merged, so e.g. [N, C, H, W] -> [N, H, W, C] becomes the 3-d
// permutation [N, C, H*W] -> [N, H*W, C], and an identity permutation becomes one memcpy. Then:
// - when the innermost dim is unchanged, each output row is one memcpy;
// - otherwise the output is copied in square tiles over the plane of the input's innermost dim
//   and the output's innermost dim (the 2-d transpose, batched over the other dims), so that
//   reads and writes both stay within a few cache lines.
namespace paddle {

namespace {

// The coalesced problem: output dim i is input dim perm[i].
struct TransposePlan {
  std::vector<int64_t> in_dims;
  std::vector<int> perm;
};

TransposePlan CoalescePermutation(const DDim& dims, const std::vector<int32_t>& perm) {
  int rank = dims.size();
  // next_kept[d]: the next input dim after d that is not of size 1, or rank.
  std::vector<int> next_kept(rank, rank);
  for (int d = rank - 2; d >= 0; --d) next_kept[d] = dims[d + 1] != 1 ? d + 1 : next_kept[d + 1];

  struct Group {
    int first_in_dim;
    int64_t size;
  };
  std::vector<Group> groups;  // in output order
  int last = -1;
  for (int i = 0; i < rank; ++i) {
    int d = perm[i] < 0 ? perm[i] + rank : perm[i];
    if (dims[d] == 1) continue;
    if (last >= 0 && next_kept[last] == d) {
      groups.back().size *= dims[d];
    } else {
      groups.push_back({d, dims[d]});
    }
    last = d;
  }

  TransposePlan plan;
  int n = static_cast<int>(groups.size());
  plan.perm.resize(n);
  plan.in_dims.resize(n);
  for (int i = 0; i < n; ++i) {
    // The rank of group i in input order is how many groups start before it.
    int position = 0;
    for (int j = 0; j < n; ++j) position += groups[j].first_in_dim < groups[i].first_in_dim;
    plan.perm[i] = position;
    plan.in_dims[position] = groups[i].size;
  }
  return plan;
}

constexpr int64_t kTile = 32;

template <typename T>
void TransposeTiled(const T* src, T* dst, const std::vector<int64_t>& out_dims,
                    const std::vector<int64_t>& src_strides,
                    const std::vector<int64_t>& dst_strides, int j) {
  int r = static_cast<int>(out_dims.size());
  int k = r - 1;
  // Output dim j is the input's innermost dim (source stride 1); output dim k is the output's
  // innermost (destination stride 1). The remaining dims form the batch.
  std::vector<int> batch_dims;
  for (int d = 0; d < r; ++d) {
    if (d != j && d != k) batch_dims.push_back(d);
  }
  int64_t rows = out_dims[j], cols = out_dims[k];
  int64_t row_stride = dst_strides[j], col_stride = src_strides[k];
  int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (cols + kTile - 1) / kTile;
  int64_t batch = 1;
  for (int d : batch_dims) batch *= out_dims[d];

  funcs::ParallelFor(
      batch * row_tiles * col_tiles,
      [&](int64_t begin, int64_t end) {
        for (int64_t unit = begin; unit < end; ++unit) {
          int64_t col_tile = unit % col_tiles;
          int64_t row_tile = (unit / col_tiles) % row_tiles;
          int64_t b = unit / (col_tiles * row_tiles);
          int64_t src_base = 0, dst_base = 0;
          for (int i = static_cast<int>(batch_dims.size()) - 1; i >= 0; --i) {
            int d = batch_dims[i];
            int64_t index = b % out_dims[d];
            b /= out_dims[d];
            src_base += index * src_strides[d];
            dst_base += index * dst_strides[d];
          }
          int64_t r0 = row_tile * kTile, r1 = std::min(rows, r0 + kTile);
          int64_t c0 = col_tile * kTile, c1 = std::min(cols, c0 + kTile);
          for (int64_t row = r0; row < r1; ++row) {
            T* out_row = dst + dst_base + row * row_stride;
            const T* in_col = src + src_base + row;
            for (int64_t col = c0; col < c1; ++col) out_row[col] = in_col[col * col_stride];
          }
        }
      },
      funcs::kParallelThreshold / (kTile * kTile) + 1);
}

}  // namespace

template <typename T, typename Context>
void TransposeKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& perm,
                     DenseTensor* out) {
  T* dst = ctx.template Alloc<T>(out);
  int64_t numel = x.numel();
  if (numel == 0) return;
  const T* src = x.data<T>();
  TransposePlan plan = CoalescePermutation(x.dims(), perm);
  int r = static_cast<int>(plan.perm.size());
  if (r <= 1) {
    std::memcpy(dst, src, numel * sizeof(T));
    return;
  }

  std::vector<int64_t> in_strides(r), out_dims(r), src_strides(r), dst_strides(r);
  in_strides[r - 1] = 1;
  for (int d = r - 2; d >= 0; --d) in_strides[d] = in_strides[d + 1] * plan.in_dims[d + 1];
  for (int i = 0; i < r; ++i) {
    out_dims[i] = plan.in_dims[plan.perm[i]];
    src_strides[i] = in_strides[plan.perm[i]];
  }
  dst_strides[r - 1] = 1;
  for (int d = r - 2; d >= 0; --d) dst_strides[d] = dst_strides[d + 1] * out_dims[d + 1];

  if (plan.perm[r - 1] == r - 1) {
    // The innermost dim is kept: copy whole rows.
    int64_t inner = out_dims[r - 1];
    funcs::ParallelFor(
        numel / inner,
        [&](int64_t begin, int64_t end) {
          for (int64_t row = begin; row < end; ++row) {
            int64_t rest = row, offset = 0;
            for (int d = r - 2; d >= 0; --d) {
              offset += (rest % out_dims[d]) * src_strides[d];
              rest /= out_dims[d];
            }
            std::memcpy(dst + row * inner, src + offset, inner * sizeof(T));
          }
        },
        funcs::kParallelThreshold / inner + 1);
    return;
  }
  int j = 0;
  while (plan.perm[j] != r - 1) ++j;
  TransposeTiled(src, dst, out_dims, src_strides, dst_strides, j);
}

}  // namespace paddle

// CPU pixel_shuffle and its gradient. pixel_shuffle moves each group of r * r channels into an
// r x r block of pixels: on the 6-d view [N, C, r, r, H, W] of an NCHW input it is the transpose
// to [N, C, H, r, W, r], and on the view [N, H, W, C, r, r] of an NHWC input the transpose to
// [N, H, r, W, r, C] (the same permutation). The gradient is the inverse transpose, so both run
// TransposeKernel's tiled copy.
namespace paddle {

namespace {

// Transposes `from`, seen with the dims `view` (same element count), by `perm` into `to`, whose
// meta InferMeta has set.
template <typename T, typename Context>
void TransposeViewInto(const Context& ctx, const DenseTensor& from,
                       const std::vector<int64_t>& view, const std::vector<int32_t>& perm,
                       DenseTensor* to) {
  DenseTensor source(from.meta());
  source.Resize(DDim(view));
  source.ShareBufferWith(from);
  ctx.template Alloc<T>(to);
  DenseTensor target(to->meta());
  target.ShareBufferWith(*to);
  TransposeKernel<T>(ctx, source, perm, &target);
}

}  // namespace

template <typename T, typename Context>
void PixelShuffleKernel(const Context& ctx, const DenseTensor& x, int32_t upscale_factor,
                        const std::string& data_format, DenseTensor* out) {
  const int64_t r = upscale_factor;
  const DDim& d = x.dims();
  std::vector<int64_t> view = data_format == "NCHW"
                                  ? std::vector<int64_t>{d[0], d[1] / (r * r), r, r, d[2], d[3]}
                                  : std::vector<int64_t>{d[0], d[1], d[2], d[3] / (r * r), r, r};
  TransposeViewInto<T>(ctx, x, view, {0, 1, 4, 2, 5, 3}, out);
}

template <typename T, typename Context>
void PixelShuffleGradKernel(const Context& ctx, const DenseTensor& out_grad, int32_t upscale_factor,
                            const std::string& data_format, DenseTensor* x_grad) {
  const int64_t r = upscale_factor;
  const DDim& d = out_grad.dims();
  std::vector<int64_t> view = data_format == "NCHW"
                                  ? std::vector<int64_t>{d[0], d[1], d[2] / r, r, d[3] / r, r}
                                  : std::vector<int64_t>{d[0], d[1] / r, r, d[2] / r, r, d[3]};
  TransposeViewInto<T>(ctx, out_grad, view, {0, 1, 3, 5, 2, 4}, x_grad);
}

}  // namespace paddle

// CPU concat, split and stack. Around the axis each tensor is a matrix [outer, width] with
// width = dims[axis] * (product of the dims after it); concatenation places the pieces side by
// side in each of the `outer` rows, so every piece of a row is one memcpy. stack is concat of
// the inputs viewed as [outer, 1, inner].
namespace paddle {

namespace {

// A piece of each row: `width` elements at `data + row * width`.
template <typename Pointer>
struct Piece {
  Pointer data;
  int64_t width;
};

int64_t ProductOf(const DDim& dims, int begin, int end) {
  int64_t product = 1;
  for (int i = begin; i < end; ++i) product *= dims[i];
  return product;
}

// Copies the pieces side by side into rows of `row_width` elements (concat), or, with
// kSplit, the other way round.
template <typename T, bool kSplit>
void CopyRows(int64_t outer, int64_t row_width, std::conditional_t<kSplit, const T*, T*> rows,
              const std::vector<Piece<std::conditional_t<kSplit, T*, const T*>>>& pieces) {
  if (outer == 0 || row_width == 0) return;
  funcs::ParallelFor(
      outer,
      [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) {
          auto row = rows + o * row_width;
          for (const auto& piece : pieces) {
            if (piece.width == 0) continue;
            size_t bytes = piece.width * sizeof(T);
            if constexpr (kSplit) {
              std::memcpy(piece.data + o * piece.width, row, bytes);
            } else {
              std::memcpy(row, piece.data + o * piece.width, bytes);
            }
            row += piece.width;
          }
        }
      },
      funcs::kParallelThreshold / row_width + 1);
}

}  // namespace

template <typename T, typename Context>
void ConcatKernel(const Context& ctx, const std::vector<const DenseTensor*>& x, int64_t axis,
                  DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const DDim& dims = out->dims();
  int a = AxisOfDim(axis, dims.size(), "concat");
  int64_t outer = ProductOf(dims, 0, a);
  std::vector<Piece<const T*>> pieces;
  for (const DenseTensor* t : x) {
    pieces.push_back({t->data<T>(), ProductOf(t->dims(), a, t->dims().size())});
  }
  CopyRows<T, false>(outer, ProductOf(dims, a, dims.size()), o, pieces);
}

template <typename T, typename Context>
void SplitKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& sections,
                 int64_t axis, std::vector<DenseTensor*> out) {
  const DDim& dims = x.dims();
  int a = AxisOfDim(axis, dims.size(), "split");
  std::vector<Piece<T*>> pieces;
  for (DenseTensor* t : out) {
    T* data = ctx.template Alloc<T>(t);
    pieces.push_back({data, ProductOf(t->dims(), a, t->dims().size())});
  }
  CopyRows<T, true>(ProductOf(dims, 0, a), ProductOf(dims, a, dims.size()), x.data<T>(), pieces);
}

template <typename T, typename Context>
void StackKernel(const Context& ctx, const std::vector<const DenseTensor*>& x, int32_t axis,
                 DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const DDim& dims = out->dims();
  int a = NormalizeAxis(axis, dims.size(), "stack");
  int64_t inner = ProductOf(dims, a + 1, dims.size());
  std::vector<Piece<const T*>> pieces;
  for (const DenseTensor* t : x) pieces.push_back({t->data<T>(), inner});
  CopyRows<T, false>(ProductOf(dims, 0, a), inner * static_cast<int64_t>(x.size()), o, pieces);
}

}  // namespace paddle

// CPU expand: x broadcast to a larger shape, row by row through the elementwise engine's
// broadcast iteration (dims coalesced, so a row is as long as the broadcast allows).
namespace paddle {

template <typename T, typename Context>
void ExpandKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& shape,
                  DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const T* in = x.data<T>();
  funcs::ForEachBroadcastRow<1>(
      out->dims(), {x.dims()},
      [&](int64_t begin, int64_t count, const std::array<int64_t, 1>& offset,
          const std::array<int64_t, 1>& stride) {
        const T* src = in + offset[0];
        if (stride[0] == 1) {
          std::memcpy(o + begin, src, count * sizeof(T));
        } else if (stride[0] == 0) {
          std::fill(o + begin, o + begin + count, *src);
        } else {
          for (int64_t j = 0; j < count; ++j) o[begin + j] = src[j * stride[0]];
        }
      });
}

}  // namespace paddle

// CPU slice, strided_slice and set_value_with_tensor. A (strided) slice of a row-major tensor is
// itself a strided view: a base offset plus, per dim, length and stride (step * the dim's
// stride, negative for negative steps). Slicing copies that view out; set_value writes into it.
// Both run as a coalesced strided walk whose innermost rows become memcpy where contiguous.
namespace paddle {

namespace {

// A strided view of a row-major tensor, in elements.
struct Region {
  int64_t base = 0;
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
};

template <typename Axis>
Region MakeRegion(const DDim& x_dims, const std::vector<Axis>& axes,
                  const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                  const std::vector<int64_t>* steps, const char* op) {
  Region region;
  region.dims = x_dims.ToVector();
  region.strides = ContiguousStrides(x_dims);
  std::vector<int64_t> x_strides = region.strides;
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = AxisOfDim(axes[i], x_dims.size(), op, "axes");
    SliceBounds b = NormalizeSlice(starts[i], ends[i], steps ? (*steps)[i] : 1, x_dims[a]);
    region.dims[a] = b.length;
    // With one element or none the stride is never used; a huge step would overflow it.
    region.strides[a] = b.length > 1 ? b.step * x_strides[a] : 0;
    // An empty slice may have a start outside the dim; it is never read.
    if (b.length > 0) region.base += b.start * x_strides[a];
  }
  return region;
}

// A strided walk over `dims` for N operands with per-dim element strides of any sign. Size-1
// dims are dropped and a dim merges into the one before it when every operand steps across both
// evenly, so the innermost rows are as long as possible.
template <size_t N>
struct StridedLoop {
  std::vector<int64_t> dims;
  std::array<std::vector<int64_t>, N> strides;
};

template <size_t N>
StridedLoop<N> CoalesceLoop(const std::vector<int64_t>& dims,
                            const std::array<std::vector<int64_t>, N>& strides) {
  StridedLoop<N> loop;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    bool merge = !loop.dims.empty();
    for (size_t k = 0; k < N && merge; ++k) {
      merge = loop.strides[k].back() == strides[k][i] * dims[i];
    }
    if (merge) {
      loop.dims.back() *= dims[i];
      for (size_t k = 0; k < N; ++k) loop.strides[k].back() = strides[k][i];
    } else {
      loop.dims.push_back(dims[i]);
      for (size_t k = 0; k < N; ++k) loop.strides[k].push_back(strides[k][i]);
    }
  }
  if (loop.dims.empty()) {
    loop.dims.push_back(1);
    for (size_t k = 0; k < N; ++k) loop.strides[k].push_back(0);
  }
  return loop;
}

// Calls row(offsets, count, inner_strides) for each innermost row; `dims` must hold no 0.
template <size_t N, typename RowFn>
void ForEachStridedRow(const std::vector<int64_t>& dims,
                       const std::array<std::vector<int64_t>, N>& strides, RowFn&& row) {
  StridedLoop<N> loop = CoalesceLoop<N>(dims, strides);
  int rank = static_cast<int>(loop.dims.size());
  int64_t inner = loop.dims[rank - 1];
  int64_t rows = 1;
  for (int d = 0; d < rank - 1; ++d) rows *= loop.dims[d];
  std::array<int64_t, N> inner_strides;
  for (size_t k = 0; k < N; ++k) inner_strides[k] = loop.strides[k][rank - 1];
  funcs::ParallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          std::array<int64_t, N> offsets{};
          int64_t rest = r;
          for (int d = rank - 2; d >= 0; --d) {
            int64_t index = rest % loop.dims[d];
            rest /= loop.dims[d];
            for (size_t k = 0; k < N; ++k) offsets[k] += index * loop.strides[k][d];
          }
          row(offsets, inner, inner_strides);
        }
      },
      funcs::kParallelThreshold / inner + 1);
}

// Copies the region of x into the contiguous `out`.
template <typename T>
void CopyRegion(const T* x, const Region& region, T* out) {
  if (region.numel() == 0) return;
  std::array<std::vector<int64_t>, 2> strides = {ContiguousStrides(DDim(region.dims)),
                                                 region.strides};
  const T* src = x + region.base;
  ForEachStridedRow<2>(
      region.dims, strides,
      [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
        T* d = out + off[0];
        const T* s = src + off[1];
        if (step[0] == 1 && step[1] == 1) {
          std::memcpy(d, s, count * sizeof(T));
        } else {
          for (int64_t j = 0; j < count; ++j) d[j * step[0]] = s[j * step[1]];
        }
      });
}

}  // namespace

template <typename T, typename Context>
void SliceKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& axes,
                 const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                 const std::vector<int64_t>& decrease_axis, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  // decrease_axis drops size-1 dims, which does not change the order of the elements.
  CopyRegion(x.data<T>(), MakeRegion(x.dims(), axes, starts, ends, nullptr, "slice"), o);
}

template <typename T, typename Context>
void StridedSliceKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& axes,
                        const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                        const std::vector<int64_t>& strides, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  CopyRegion(x.data<T>(), MakeRegion(x.dims(), axes, starts, ends, &strides, "strided_slice"), o);
}

// out = x with the region x[starts:ends:steps] (on `axes`) replaced by `values` broadcast to the
// region's shape. In-place execution (x.set_value_) hands in an `out` sharing x's buffer; then
// only the region is written.
template <typename T, typename Context>
void SetValueWithTensorKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& values,
                              const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                              const std::vector<int64_t>& steps, const std::vector<int64_t>& axes,
                              DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const T* in = x.data<T>();
  if (o != in && x.numel() > 0) std::memcpy(o, in, x.numel() * sizeof(T));
  Region region = MakeRegion(x.dims(), axes, starts, ends, &steps, "set_value");
  if (region.numel() == 0) return;

  // The values' strides aligned to the region's trailing dims, 0 where they broadcast.
  int rank = static_cast<int>(region.dims.size());
  const DDim& value_dims = values.dims();
  PD_INTERNAL_ASSERT(value_dims.size() <= rank, "set_value: values of shape ",
                     value_dims.ToString(), " outrank the region");
  std::vector<int64_t> value_strides(rank, 0);
  std::vector<int64_t> contiguous = ContiguousStrides(value_dims);
  for (int i = 0; i < value_dims.size(); ++i) {
    int d = rank - value_dims.size() + i;
    if (value_dims[i] != 1) value_strides[d] = contiguous[i];
  }
  const T* v = values.data<T>();
  T* dst = o + region.base;
  ForEachStridedRow<2>(
      region.dims, {region.strides, value_strides},
      [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
        T* d = dst + off[0];
        const T* s = v + off[1];
        if (step[0] == 1 && step[1] == 1) {
          std::memcpy(d, s, count * sizeof(T));
        } else if (step[1] == 0) {
          for (int64_t j = 0; j < count; ++j) d[j * step[0]] = *s;
        } else {
          for (int64_t j = 0; j < count; ++j) d[j * step[0]] = s[j * step[1]];
        }
      });
}

}  // namespace paddle
