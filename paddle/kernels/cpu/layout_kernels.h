// CPU kernels of the layout ops: pad and pad3d (with pad3d's gradient), flip, roll, tile and
// expand_as, pixel_unshuffle and channel_shuffle, unfold and fold.
//
// Each kernel walks its output in rows (the innermost dimension, or W * C for a channel-last
// pad3d), works out once per row where the row reads from, and copies it with memcpy/fill where
// it is contiguous; ParallelFor shares the rows out among the threads.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/cpu/manipulation_kernels.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle {

namespace {

// The ParallelFor threshold for rows of `row_size` elements: a thread gets at least
// kParallelThreshold elements.
int64_t RowThreshold(int64_t row_size) {
  return funcs::kParallelThreshold / std::max<int64_t>(row_size, 1) + 1;
}

// Splits `row` into the indices of `dims[0 .. count)` (row-major) and returns the offset
// sum(index(d) * strides[d]), with `index` mapping each output index to an input index.
template <typename IndexFn>
int64_t RowOffset(int64_t row, const DDim& dims, int count, const std::vector<int64_t>& strides,
                  IndexFn&& index) {
  int64_t offset = 0;
  for (int d = count - 1; d >= 0; --d) {
    int64_t i = row % dims[d];
    row /= dims[d];
    offset += index(d, i) * strides[d];
  }
  return offset;
}

// dst[0 .. n) += src[0 .. n), accumulating in T's math type.
template <typename T>
void AddRow(T* dst, const T* src, int64_t n) {
  using MT = MathType<T>;
  for (int64_t k = 0; k < n; ++k) {
    dst[k] = static_cast<T>(static_cast<MT>(dst[k]) + static_cast<MT>(src[k]));
  }
}

}  // namespace

// ---------------------------------------------------------------- pad (constant, any rank)

template <typename T, typename Context>
void PadKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& paddings,
               float pad_value, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const int64_t numel = out->numel();
  if (numel == 0) return;
  const T value = static_cast<T>(pad_value);
  const DDim& od = out->dims();
  const DDim& xd = x.dims();
  const int rank = xd.size();
  if (rank == 0) {
    o[0] = x.data<T>()[0];
    return;
  }
  if (x.numel() == 0) {  // all padding
    std::fill(o, o + numel, value);
    return;
  }
  const T* in = x.data<T>();
  const std::vector<int64_t> strides = ContiguousStrides(xd);
  const int64_t row_out = od[rank - 1], row_in = xd[rank - 1];
  const int64_t left = paddings[2 * (rank - 1)];
  funcs::ParallelFor(
      numel / row_out,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          T* dst = o + row * row_out;
          bool inside = true;
          int64_t src = RowOffset(row, od, rank - 1, strides, [&](int d, int64_t i) {
            int64_t j = i - paddings[2 * d];
            inside = inside && j >= 0 && j < xd[d];
            return j;
          });
          if (!inside) {
            std::fill(dst, dst + row_out, value);
            continue;
          }
          std::fill(dst, dst + left, value);
          std::memcpy(dst + left, in + src, row_in * sizeof(T));
          std::fill(dst + left + row_in, dst + row_out, value);
        }
      },
      RowThreshold(row_out));
}

// ---------------------------------------------------------------- pad3d and its gradient
//
// A 5-D tensor is seen as [outer, D, H, W, inner]: outer = N*C and inner = 1 for NCDHW, outer =
// N and inner = C for NDHWC. Along each padded axis, output index o reads input index
// map[o] (-1: the constant), which the mode decides; the gradient sums each output's gradient
// into the input element it read.

namespace {

enum class PadMode { kConstant, kReflect, kReplicate, kCircular };

PadMode PadModeOf(const std::string& mode) {
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "replicate") return PadMode::kReplicate;
  if (mode == "circular") return PadMode::kCircular;
  return PadMode::kConstant;
}

// The input index each of `out_size` output indices reads along an axis of `size` padded by
// `before` in front (InferMeta has checked that `mode` can fill the axis).
std::vector<int64_t> PadSourceIndices(int64_t out_size, int64_t size, int64_t before,
                                      PadMode mode) {
  std::vector<int64_t> map(out_size);
  for (int64_t o = 0; o < out_size; ++o) {
    int64_t i = o - before;
    if (i < 0 || i >= size) {
      switch (mode) {
        case PadMode::kConstant:
          i = -1;
          break;
        case PadMode::kReflect:
          i = i < 0 ? -i : 2 * (size - 1) - i;
          break;
        case PadMode::kReplicate:
          i = i < 0 ? 0 : size - 1;
          break;
        case PadMode::kCircular:
          i = (i % size + size) % size;
          break;
      }
    }
    map[o] = i;
  }
  return map;
}

// The geometry of one pad3d call: sizes of the input and output views and the index maps.
struct Pad3dPlan {
  int64_t outer, inner;
  int64_t in[3], out[3];  // D, H, W
  int64_t left;           // the W padding in front
  std::vector<int64_t> map[3];
};

Pad3dPlan MakePad3dPlan(const DDim& x_dims, const DDim& out_dims,
                        const std::vector<int32_t>& paddings, const std::string& mode,
                        const std::string& data_format) {
  Pad3dPlan plan;
  const bool ncdhw = data_format == "NCDHW";
  const int first = ncdhw ? 2 : 1;
  plan.outer = ncdhw ? x_dims[0] * x_dims[1] : x_dims[0];
  plan.inner = ncdhw ? 1 : x_dims[4];
  plan.left = paddings[0];
  const int64_t before[3] = {paddings[4], paddings[2], paddings[0]};
  const PadMode pad_mode = PadModeOf(mode);
  for (int s = 0; s < 3; ++s) {
    plan.in[s] = x_dims[first + s];
    plan.out[s] = out_dims[first + s];
    plan.map[s] = PadSourceIndices(plan.out[s], plan.in[s], before[s], pad_mode);
  }
  return plan;
}

// Writes `inner` elements: a copy of src, or `value` where src is null.
template <typename T>
void CopyOrFill(T* dst, const T* src, int64_t inner, T value) {
  if (src) {
    std::memcpy(dst, src, inner * sizeof(T));
  } else {
    std::fill(dst, dst + inner, value);
  }
}

}  // namespace

template <typename T, typename Context>
void Pad3dKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& paddings,
                 const std::string& mode, float pad_value, const std::string& data_format,
                 DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const int64_t numel = out->numel();
  if (numel == 0) return;
  const T value = static_cast<T>(pad_value);
  if (x.numel() == 0) {  // constant mode around an empty input: all padding
    std::fill(o, o + numel, value);
    return;
  }
  const Pad3dPlan p = MakePad3dPlan(x.dims(), out->dims(), paddings, mode, data_format);
  const T* in = x.data<T>();
  const int64_t in_row = p.in[2] * p.inner, out_row = p.out[2] * p.inner;
  const int64_t right = p.left + p.in[2];
  funcs::ParallelFor(
      p.outer * p.out[0] * p.out[1],
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t oh = row % p.out[1], od = row / p.out[1] % p.out[0];
          const int64_t n = row / (p.out[1] * p.out[0]);
          T* dst = o + row * out_row;
          const int64_t id = p.map[0][od], ih = p.map[1][oh];
          if (id < 0 || ih < 0) {
            std::fill(dst, dst + out_row, value);
            continue;
          }
          const T* src = in + ((n * p.in[0] + id) * p.in[1] + ih) * in_row;
          // The middle of the row is the input row; the edges read through the W map.
          auto edge = [&](int64_t ow) {
            const int64_t iw = p.map[2][ow];
            CopyOrFill(dst + ow * p.inner, iw < 0 ? nullptr : src + iw * p.inner, p.inner, value);
          };
          for (int64_t ow = 0; ow < p.left; ++ow) edge(ow);
          std::memcpy(dst + p.left * p.inner, src, in_row * sizeof(T));
          for (int64_t ow = right; ow < p.out[2]; ++ow) edge(ow);
        }
      },
      RowThreshold(out_row));
}

template <typename T, typename Context>
void Pad3dGradKernel(const Context& ctx, const DenseTensor& out_grad,
                     const std::vector<int32_t>& paddings, const std::string& mode,
                     const std::string& data_format, DenseTensor* x_grad) {
  T* g = ctx.template Alloc<T>(x_grad);
  if (x_grad->numel() == 0) return;
  const Pad3dPlan p = MakePad3dPlan(x_grad->dims(), out_grad.dims(), paddings, mode, data_format);
  // The output indices that read each input index, along D and H; rows of x_grad are then
  // independent, so threads never add into the same element.
  std::vector<std::vector<int64_t>> readers[2];
  for (int s = 0; s < 2; ++s) {
    readers[s].resize(p.in[s]);
    for (int64_t o = 0; o < p.out[s]; ++o) {
      if (p.map[s][o] >= 0) readers[s][p.map[s][o]].push_back(o);
    }
  }
  const T* og = out_grad.data<T>();
  const int64_t in_row = p.in[2] * p.inner, out_row = p.out[2] * p.inner;
  const int64_t right = p.left + p.in[2];
  funcs::ParallelFor(
      p.outer * p.in[0] * p.in[1],
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t ih = row % p.in[1], id = row / p.in[1] % p.in[0];
          const int64_t n = row / (p.in[1] * p.in[0]);
          T* dst = g + row * in_row;
          std::fill(dst, dst + in_row, T(0));
          for (int64_t od : readers[0][id]) {
            for (int64_t oh : readers[1][ih]) {
              const T* src = og + ((n * p.out[0] + od) * p.out[1] + oh) * out_row;
              auto edge = [&](int64_t ow) {
                const int64_t iw = p.map[2][ow];
                if (iw >= 0) AddRow(dst + iw * p.inner, src + ow * p.inner, p.inner);
              };
              for (int64_t ow = 0; ow < p.left; ++ow) edge(ow);
              AddRow(dst, src + p.left * p.inner, in_row);
              for (int64_t ow = right; ow < p.out[2]; ++ow) edge(ow);
            }
          }
        }
      },
      RowThreshold(in_row));
}

// ---------------------------------------------------------------- flip and roll

template <typename T, typename Context>
void FlipKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& axis,
                DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const int64_t numel = x.numel();
  if (numel == 0) return;
  const T* in = x.data<T>();
  const DDim& dims = x.dims();
  const int rank = dims.size();
  if (rank == 0) {
    o[0] = in[0];
    return;
  }
  std::vector<bool> flipped(rank, false);
  for (int32_t a : axis) flipped[a < 0 ? a + rank : a] = true;
  const std::vector<int64_t> strides = ContiguousStrides(dims);
  const int64_t row = dims[rank - 1];
  const bool reverse_rows = flipped[rank - 1];
  funcs::ParallelFor(
      numel / row,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* src = in + RowOffset(r, dims, rank - 1, strides, [&](int d, int64_t i) {
                           return flipped[d] ? dims[d] - 1 - i : i;
                         });
          T* dst = o + r * row;
          if (reverse_rows) {
            std::reverse_copy(src, src + row, dst);
          } else {
            std::memcpy(dst, src, row * sizeof(T));
          }
        }
      },
      RowThreshold(row));
}

// out = x rolled by shifts[k] along axis[k] (element i goes to i + shift, wrapping around); with
// no axis, x rolls as one flat sequence.
template <typename T, typename Context>
void RollKernel(const Context& ctx, const DenseTensor& x, const std::vector<int64_t>& shifts,
                const std::vector<int64_t>& axis, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  const int64_t numel = x.numel();
  if (numel == 0) return;
  const T* in = x.data<T>();
  // The shift of a flat sequence of n, or of a dim of n, in [0, n).
  auto wrapped = [](int64_t shift, int64_t n) { return (shift % n + n) % n; };
  if (axis.empty()) {
    const int64_t s = wrapped(shifts[0], numel);
    std::memcpy(o + s, in, (numel - s) * sizeof(T));
    std::memcpy(o, in + numel - s, s * sizeof(T));
    return;
  }
  const DDim& dims = x.dims();
  const int rank = dims.size();
  std::vector<int64_t> shift(rank, 0);
  for (size_t k = 0; k < axis.size(); ++k) {
    int d = static_cast<int>(axis[k] < 0 ? axis[k] + rank : axis[k]);
    shift[d] = wrapped(shift[d] + wrapped(shifts[k], dims[d]), dims[d]);
  }
  const std::vector<int64_t> strides = ContiguousStrides(dims);
  const int64_t row = dims[rank - 1], s = shift[rank - 1];
  funcs::ParallelFor(
      numel / row,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* src = in + RowOffset(r, dims, rank - 1, strides, [&](int d, int64_t i) {
                           return (i - shift[d] + dims[d]) % dims[d];
                         });
          T* dst = o + r * row;
          std::memcpy(dst + s, src, (row - s) * sizeof(T));
          std::memcpy(dst, src + row - s, s * sizeof(T));
        }
      },
      RowThreshold(row));
}

// ---------------------------------------------------------------- tile and expand_as

namespace {

// out[i] = x[i mod x_dims] along every axis, x's dims aligned with out's trailing ones (each
// either divides its output dim, for tile, or is 1 or equal to it, for expand_as).
template <typename T>
void RepeatInto(const DenseTensor& x, T* o, const DDim& out_dims) {
  const int64_t numel = out_dims.numel();
  if (numel == 0) return;
  const T* in = x.data<T>();
  const int rank = out_dims.size();
  if (rank == 0) {
    o[0] = in[0];
    return;
  }
  std::vector<int64_t> x_dims(rank, 1);
  const DDim& xd = x.dims();
  for (int i = 0; i < xd.size(); ++i) x_dims[rank - xd.size() + i] = xd[i];
  const std::vector<int64_t> strides = ContiguousStrides(DDim(x_dims));
  const int64_t row = out_dims[rank - 1], x_row = x_dims[rank - 1];
  funcs::ParallelFor(
      numel / row,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* src = in + RowOffset(r, out_dims, rank - 1, strides,
                                        [&](int d, int64_t i) { return i % x_dims[d]; });
          T* dst = o + r * row;
          if (x_row == 1) {
            std::fill(dst, dst + row, *src);
          } else {
            for (int64_t k = 0; k < row; k += x_row) std::memcpy(dst + k, src, x_row * sizeof(T));
          }
        }
      },
      RowThreshold(row));
}

}  // namespace

template <typename T, typename Context>
void TileKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& repeat_times,
                DenseTensor* out) {
  RepeatInto(x, ctx.template Alloc<T>(out), out->dims());
}

// y's data is never read: InferMeta took its shape.
template <typename T, typename Context>
void ExpandAsKernel(const Context& ctx, const DenseTensor& x, const DenseTensor* y,
                    const std::vector<int32_t>& target_shape, DenseTensor* out) {
  RepeatInto(x, ctx.template Alloc<T>(out), out->dims());
}

// ---------------------------------------------------------------- pixel_unshuffle, channel_shuffle

// pixel_unshuffle is the inverse permutation of pixel_shuffle, which pixel_shuffle_grad
// computes: channel c*r*r + i*r + j of out[., ., h, w] is x[., c, h*r + i, w*r + j].
template <typename T, typename Context>
void PixelUnshuffleKernel(const Context& ctx, const DenseTensor& x, int32_t downscale_factor,
                          const std::string& data_format, DenseTensor* out) {
  PixelShuffleGradKernel<T>(ctx, x, downscale_factor, data_format, out);
}

// The channels seen as [groups, C / groups] are transposed to [C / groups, groups].
template <typename T, typename Context>
void ChannelShuffleKernel(const Context& ctx, const DenseTensor& x, int32_t groups,
                          const std::string& data_format, DenseTensor* out) {
  const DDim& d = x.dims();
  if (data_format == "NCHW") {
    TransposeViewInto<T>(ctx, x, {d[0], groups, d[1] / groups, d[2], d[3]}, {0, 2, 1, 3, 4}, out);
  } else {
    TransposeViewInto<T>(ctx, x, {d[0], d[1], d[2], groups, d[3] / groups}, {0, 1, 2, 4, 3}, out);
  }
}

// ---------------------------------------------------------------- unfold and fold
//
// Block (by, bx) of an [H, W] image covers rows by*stride_h - pad_top + i*dilation_h (i <
// kernel_h) and columns likewise; unfold copies block element (c, i, j) into column
// (c*kh + i)*kw + j, block by*blocks_w + bx, and fold sums it back.

namespace {

struct BlockGeometry {
  int64_t kernel[2], stride[2], dilation[2], pad[2];  // pad: top, left
  int64_t size[2];                                    // the image's H, W
  int64_t blocks[2];
};

BlockGeometry MakeBlockGeometry(int64_t height, int64_t width,
                                const std::vector<int32_t>& kernel_sizes,
                                const std::vector<int32_t>& strides,
                                const std::vector<int32_t>& paddings,
                                const std::vector<int32_t>& dilations) {
  BlockGeometry g;
  g.size[0] = height;
  g.size[1] = width;
  for (int a = 0; a < 2; ++a) {
    g.kernel[a] = kernel_sizes[a];
    g.stride[a] = strides[a];
    g.dilation[a] = dilations[a];
    g.pad[a] = paddings[a];
    int64_t span = g.dilation[a] * (g.kernel[a] - 1) + 1;
    g.blocks[a] = (g.size[a] + paddings[a] + paddings[a + 2] - span) / g.stride[a] + 1;
  }
  return g;
}

// The blocks [first, last) along axis a whose element k falls inside the image, and where
// block b's element k sits: b * stride + offset.
struct BlockRange {
  int64_t first, last, offset;
};

BlockRange BlocksInside(const BlockGeometry& g, int a, int64_t k) {
  const int64_t offset = k * g.dilation[a] - g.pad[a];
  const int64_t s = g.stride[a];
  // b * s + offset >= 0  <=>  b >= ceil(-offset / s);  b * s + offset < size  <=>  b <= (size -
  // 1 - offset) / s.
  int64_t first = offset >= 0 ? 0 : (-offset + s - 1) / s;
  int64_t last = g.size[a] - 1 - offset < 0 ? 0 : (g.size[a] - 1 - offset) / s + 1;
  first = std::min(first, g.blocks[a]);
  last = std::clamp(last, first, g.blocks[a]);
  return {first, last, offset};
}

}  // namespace

template <typename T, typename Context>
void UnfoldKernel(const Context& ctx, const DenseTensor& x,
                  const std::vector<int32_t>& kernel_sizes, const std::vector<int32_t>& strides,
                  const std::vector<int32_t>& paddings, const std::vector<int32_t>& dilations,
                  DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& d = x.dims();
  const BlockGeometry g = MakeBlockGeometry(d[2], d[3], kernel_sizes, strides, paddings, dilations);
  const T* in = x.data<T>();
  const int64_t area = g.kernel[0] * g.kernel[1], plane = d[2] * d[3];
  const int64_t columns = g.blocks[0] * g.blocks[1];
  funcs::ParallelFor(
      d[0] * d[1] * area,
      [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t i = row % area / g.kernel[1], j = row % g.kernel[1];
          const T* src = in + row / area * plane;
          T* dst = o + row * columns;
          std::fill(dst, dst + columns, T(0));
          const BlockRange ys = BlocksInside(g, 0, i), xs = BlocksInside(g, 1, j);
          for (int64_t by = ys.first; by < ys.last; ++by) {
            // Element (iy, bx * stride_w + xs.offset) of the image; base may be negative, the
            // indices read are not.
            const int64_t base = (by * g.stride[0] + ys.offset) * g.size[1] + xs.offset;
            T* dst_row = dst + by * g.blocks[1];
            for (int64_t bx = xs.first; bx < xs.last; ++bx) {
              dst_row[bx] = src[base + bx * g.stride[1]];
            }
          }
        }
      },
      RowThreshold(columns));
}

template <typename T, typename Context>
void FoldKernel(const Context& ctx, const DenseTensor& x, const std::vector<int32_t>& output_sizes,
                const std::vector<int32_t>& kernel_sizes, const std::vector<int32_t>& strides,
                const std::vector<int32_t>& paddings, const std::vector<int32_t>& dilations,
                DenseTensor* out) {
  using MT = MathType<T>;
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& d = out->dims();
  const BlockGeometry g = MakeBlockGeometry(d[2], d[3], kernel_sizes, strides, paddings, dilations);
  const T* in = x.data<T>();
  const int64_t area = g.kernel[0] * g.kernel[1], plane = d[2] * d[3];
  const int64_t columns = g.blocks[0] * g.blocks[1];
  // One image plane per task: the kernel_h * kernel_w rows of x that sum into it are its own.
  funcs::ParallelFor(
      d[0] * d[1],
      [&](int64_t begin, int64_t end) {
        for (int64_t image = begin; image < end; ++image) {
          T* dst = o + image * plane;
          std::fill(dst, dst + plane, T(0));
          for (int64_t k = 0; k < area; ++k) {
            const T* src = in + (image * area + k) * columns;
            const BlockRange ys = BlocksInside(g, 0, k / g.kernel[1]);
            const BlockRange xs = BlocksInside(g, 1, k % g.kernel[1]);
            for (int64_t by = ys.first; by < ys.last; ++by) {
              const int64_t base = (by * g.stride[0] + ys.offset) * g.size[1] + xs.offset;
              const T* src_row = src + by * g.blocks[1];
              for (int64_t bx = xs.first; bx < xs.last; ++bx) {
                T& target = dst[base + bx * g.stride[1]];
                target = static_cast<T>(static_cast<MT>(target) + static_cast<MT>(src_row[bx]));
              }
            }
          }
        }
      },
      RowThreshold(area * columns));
}

}  // namespace paddle
