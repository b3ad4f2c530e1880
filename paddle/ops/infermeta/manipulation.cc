#include "paddle/ops/infermeta/manipulation.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/common/slice_bounds.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/memory/cpu_allocator.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// An input whose values are added into x must have x's dtype: the kernel reads both as one type.
void CheckSameDtype(const TensorMeta& x, const TensorMeta& other, const char* arg) {
  PD_CHECK(other.dtype == x.dtype,
           errors::InvalidType("argument '", arg, "' must have the dtype of 'x' (",
                               DataTypeName(x.dtype), "), received ", DataTypeName(other.dtype)));
}

}  // namespace

namespace {

void CheckIndexDtype(const TensorMeta& index, const char* arg) {
  PD_CHECK(index.dtype == DataType::INT32 || index.dtype == DataType::INT64,
           errors::InvalidArgument("argument '", arg,
                                   "' must be an int32 or int64 tensor, "
                                   "received ",
                                   DataTypeName(index.dtype)));
}

}  // namespace

void ReshapeInferMeta(const TensorMeta& x, const std::vector<int64_t>& shape, TensorMeta* out) {
  std::vector<int64_t> dims(shape);
  int infer = -1;
  int64_t known = 1;
  int copied_unknown = 0;  // unknown input dims that a 0 carries over to the output
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      PD_CHECK(infer < 0, errors::InvalidArgument("argument 'shape' ", DDim(shape).ToString(),
                                                  " may contain at most one -1"));
      infer = static_cast<int>(i);
      continue;
    }
    if (dims[i] == 0) {
      PD_CHECK(static_cast<int>(i) < x.dims.size(),
               errors::InvalidArgument("argument 'shape' has 0 at position ", i,
                                       ", but the input has only ", x.dims.size(), " dims"));
      dims[i] = x.dims[i];
      if (IsUnknown(dims[i])) {
        ++copied_unknown;
        continue;
      }
    }
    PD_CHECK(dims[i] > 0, errors::InvalidArgument("argument 'shape' ", DDim(shape).ToString(),
                                                  " has an invalid entry ", dims[i]));
    PD_CHECK(!__builtin_mul_overflow(known, dims[i], &known),
             errors::InvalidArgument("argument 'shape' ", DDim(shape).ToString(),
                                     " has more elements than an int64 counts"));
  }
  // The element count of the input's known dims. Unknown dims that reach the output through a
  // 0 cancel out, so the sizes still check and the -1 entry is still inferred; any other
  // unknown input dim leaves the -1 entry unknown and nothing to check.
  int64_t numel = 1;
  int unknown = 0;
  for (int i = 0; i < x.dims.size(); ++i) {
    if (IsUnknown(x.dims[i])) {
      ++unknown;
    } else {
      numel *= x.dims[i];
    }
  }
  if (unknown > copied_unknown) {
    if (infer >= 0) dims[infer] = kUnknownDim;
  } else if (infer >= 0) {
    PD_CHECK(known > 0 && numel % known == 0,
             errors::InvalidArgument("cannot reshape a tensor of shape ", x.dims.ToString(), " (",
                                     numel, " elements) into ", DDim(shape).ToString()));
    dims[infer] = numel / known;
  } else {
    PD_CHECK(known == numel,
             errors::InvalidArgument("cannot reshape a tensor of shape ", x.dims.ToString(), " (",
                                     numel, " elements) into ", DDim(shape).ToString(), " (", known,
                                     " elements)"));
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void TransposeInferMeta(const TensorMeta& x, const std::vector<int32_t>& perm, TensorMeta* out) {
  int rank = x.dims.size();
  PD_CHECK(static_cast<int>(perm.size()) == rank,
           errors::InvalidArgument("argument 'perm' must have one entry per dimension (", rank,
                                   "), received ", perm.size()));
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    int p = NormalizeAxis(perm[i], rank, "transpose", "perm");
    PD_CHECK(!seen[p], errors::InvalidArgument("argument 'perm' repeats dimension ", p));
    seen[p] = true;
    dims[i] = x.dims[p];
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void ConcatInferMeta(const std::vector<TensorMeta>& x, int64_t axis, TensorMeta* out) {
  PD_CHECK(!x.empty(), errors::InvalidArgument("argument 'x' must hold at least one tensor"));
  int rank = x[0].dims.size();
  PD_CHECK(rank > 0, errors::InvalidArgument("cannot concatenate 0-d tensors"));
  int a = AxisOfDim(axis, rank, "concat");
  DDim dims = x[0].dims;
  for (size_t i = 1; i < x.size(); ++i) {
    const DDim& d = x[i].dims;
    PD_CHECK(d.size() == rank && x[i].dtype == x[0].dtype,
             errors::InvalidArgument("x[", i, "] has shape ", d.ToString(), " and dtype ",
                                     DataTypeName(x[i].dtype), ", expected rank ", rank,
                                     " and dtype ", DataTypeName(x[0].dtype), " like x[0]"));
    for (int j = 0; j < rank; ++j) {
      if (j == a) continue;
      PD_CHECK(DimsAgree(d[j], dims[j]),
               errors::InvalidArgument("x[", i, "] has shape ", d.ToString(),
                                       ", which differs from x[0]'s ", x[0].dims.ToString(),
                                       " outside axis ", a));
      if (IsUnknown(dims[j])) dims[j] = d[j];
    }
    dims[a] = AddDims(dims[a], d[a]);
  }
  out->dims = dims;
  out->dtype = x[0].dtype;
}

void SplitInferMeta(const TensorMeta& x, const std::vector<int64_t>& sections, int64_t axis,
                    std::vector<TensorMeta>* out) {
  int a = AxisOfDim(axis, x.dims.size(), "split");
  int64_t size = x.dims[a];
  std::vector<int64_t> parts;
  if (sections.size() == 1) {
    int64_t n = sections[0];
    PD_CHECK(n > 0 && (IsUnknown(size) || size % n == 0),
             errors::InvalidArgument("cannot split dimension ", a, " of size ", size, " into ", n,
                                     " equal parts"));
    // An empty dimension splits into any number of empty parts; more than memory can describe
    // is a MemoryError, not an allocation that ends the process.
    PD_CHECK(static_cast<uint64_t>(n) <= memory::TotalHostMemory() / sizeof(TensorMeta),
             errors::ResourceExhausted("split: ", n, " parts need more memory than the machine's ",
                                       memory::TotalHostMemory(), " bytes"));
    parts.assign(n, IsUnknown(size) ? kUnknownDim : size / n);
  } else {
    PD_CHECK(!sections.empty(), errors::InvalidArgument("argument 'num_or_sections' is empty"));
    int infer = -1;
    int64_t known = 0;
    for (size_t i = 0; i < sections.size(); ++i) {
      if (sections[i] == -1) {
        PD_CHECK(infer < 0, errors::InvalidArgument("argument 'num_or_sections' may contain at "
                                                    "most one -1"));
        infer = static_cast<int>(i);
      } else {
        PD_CHECK(sections[i] >= 0, errors::InvalidArgument("argument 'num_or_sections' has a "
                                                           "negative size ",
                                                           sections[i]));
        PD_CHECK(!__builtin_add_overflow(known, sections[i], &known),
                 errors::InvalidArgument("argument 'num_or_sections' sums to more than an int64 "
                                         "holds"));
      }
    }
    parts = sections;
    if (infer >= 0) parts[infer] = IsUnknown(size) ? kUnknownDim : size - known;
    PD_CHECK(IsUnknown(size) || (infer >= 0 && known <= size) || (infer < 0 && known == size),
             errors::InvalidArgument("the sections ", DDim(sections).ToString(),
                                     " do not add up to the size ", size, " of dimension ", a));
  }
  out->clear();
  for (int64_t p : parts) {
    TensorMeta m = x;
    m.dims[a] = p;
    out->push_back(m);
  }
}

void StackInferMeta(const std::vector<TensorMeta>& x, int32_t axis, TensorMeta* out) {
  PD_CHECK(!x.empty(), errors::InvalidArgument("argument 'x' must hold at least one tensor"));
  DDim shape = x[0].dims;
  for (size_t i = 1; i < x.size(); ++i) {
    PD_CHECK(ShapesAgree(x[i].dims, shape) && x[i].dtype == x[0].dtype,
             errors::InvalidArgument("x[", i, "] has shape ", x[i].dims.ToString(), " and dtype ",
                                     DataTypeName(x[i].dtype), ", but all inputs must match x[0] (",
                                     x[0].dims.ToString(), ", ", DataTypeName(x[0].dtype), ")"));
    shape = MergeShapes(shape, x[i].dims);
  }
  int rank = shape.size();
  int a = NormalizeAxis(axis, rank + 1, "stack");
  std::vector<int64_t> dims = shape.ToVector();
  dims.insert(dims.begin() + a, static_cast<int64_t>(x.size()));
  out->dims = DDim(dims);
  out->dtype = x[0].dtype;
}

void SqueezeInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, TensorMeta* out) {
  int rank = x.dims.size();
  std::vector<bool> drop(rank, false);
  if (axis.empty()) {
    for (int i = 0; i < rank; ++i) drop[i] = x.dims[i] == 1;
  } else {
    for (int64_t a : axis) {
      int n = NormalizeAxis(a, rank, "squeeze");
      // As in Paddle, a listed axis whose size is not 1 is left alone; an unknown one is
      // taken to be 1, as Paddle does when building a program.
      if (rank > 0 && (x.dims[n] == 1 || IsUnknown(x.dims[n]))) drop[n] = true;
    }
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i) {
    if (!drop[i]) dims.push_back(x.dims[i]);
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void UnsqueezeInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, TensorMeta* out) {
  std::vector<int64_t> dims = x.dims.ToVector();
  for (int64_t a : axis) {
    int rank = static_cast<int>(dims.size());
    int n = NormalizeAxis(a, rank + 1, "unsqueeze");
    dims.insert(dims.begin() + n, 1);
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void ShapeInferMeta(const TensorMeta& input, TensorMeta* out) {
  out->dims = DDim({static_cast<int64_t>(input.dims.size())});
  out->dtype = DataType::INT64;
}

void FlattenInferMeta(const TensorMeta& x, int32_t start_axis, int32_t stop_axis, TensorMeta* out) {
  int rank = x.dims.size();
  out->dtype = x.dtype;
  if (rank == 0) {
    out->dims = DDim({1});
    return;
  }
  int start = NormalizeAxis(start_axis, rank, "flatten", "start_axis");
  int stop = NormalizeAxis(stop_axis, rank, "flatten", "stop_axis");
  PD_CHECK(start <= stop,
           errors::InvalidArgument("argument 'start_axis' (", start_axis,
                                   ") must not come after 'stop_axis' (", stop_axis, ")"));
  std::vector<int64_t> dims;
  for (int i = 0; i < start; ++i) dims.push_back(x.dims[i]);
  dims.push_back(KnownNumel(DDim(x.dims.data() + start, stop - start + 1)));
  for (int i = stop + 1; i < rank; ++i) dims.push_back(x.dims[i]);
  out->dims = DDim(dims);
}

void ExpandInferMeta(const TensorMeta& x, const std::vector<int64_t>& shape, TensorMeta* out) {
  int rank = static_cast<int>(shape.size());
  PD_CHECK(rank >= x.dims.size(),
           errors::InvalidArgument("argument 'shape' ", DDim(shape).ToString(),
                                   " has fewer "
                                   "dims than the input's shape ",
                                   x.dims.ToString()));
  std::vector<int64_t> dims(rank);
  int offset = rank - x.dims.size();
  for (int i = 0; i < rank; ++i) {
    int64_t in = i >= offset ? x.dims[i - offset] : 1;
    int64_t want = shape[i];
    if (want == -1) {
      PD_CHECK(i >= offset, errors::InvalidArgument("argument 'shape' may use -1 only for an "
                                                    "existing dimension"));
      want = in;
    }
    // An unknown input dim must be 1 or `want` when the program runs: either way it expands to
    // `want`.
    PD_CHECK(in == want || in == 1 || IsUnknown(in),
             errors::InvalidArgument("cannot expand shape ", x.dims.ToString(), " to ",
                                     DDim(shape).ToString(), ": dimension ", i, " is ", in,
                                     ", expected 1 or ", want));
    dims[i] = want;
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

namespace {

// The length of a slice of a dim of `size`; unknown when the size is.
int64_t SlicedLength(int64_t start, int64_t end, int64_t step, int64_t size) {
  if (IsUnknown(size)) {
    PD_CHECK(step != 0, errors::InvalidArgument("slice step cannot be 0"));
    return kUnknownDim;
  }
  return NormalizeSlice(start, end, step, size).length;
}

}  // namespace

void SliceInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                    const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                    const std::vector<int64_t>& decrease_axis, TensorMeta* out) {
  PD_CHECK(axes.size() == starts.size() && axes.size() == ends.size(),
           errors::InvalidArgument("arguments 'axes', 'starts' and 'ends' must have the same "
                                   "length, received ",
                                   axes.size(), ", ", starts.size(), ", ", ends.size()));
  std::vector<int64_t> dims = x.dims.ToVector();
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = AxisOfDim(axes[i], x.dims.size(), "slice", "axes");
    dims[a] = SlicedLength(starts[i], ends[i], 1, x.dims[a]);
  }
  std::vector<int64_t> kept;
  for (size_t i = 0; i < dims.size(); ++i) {
    bool drop = std::find(decrease_axis.begin(), decrease_axis.end(), static_cast<int64_t>(i)) !=
                decrease_axis.end();
    if (drop) {
      PD_CHECK(dims[i] == 1 || IsUnknown(dims[i]),
               errors::InvalidArgument("decrease_axis ", i, " has size ", dims[i],
                                       " after slicing, expected 1"));
    } else {
      kept.push_back(dims[i]);
    }
  }
  out->dims = DDim(kept);
  out->dtype = x.dtype;
}

void StridedSliceInferMeta(const TensorMeta& x, const std::vector<int32_t>& axes,
                           const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                           const std::vector<int64_t>& strides, TensorMeta* out) {
  PD_CHECK(
      axes.size() == starts.size() && axes.size() == ends.size() && axes.size() == strides.size(),
      errors::InvalidArgument("arguments 'axes', 'starts', 'ends' and 'strides' must have "
                              "the same length"));
  std::vector<int64_t> dims = x.dims.ToVector();
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = AxisOfDim(axes[i], x.dims.size(), "strided_slice", "axes");
    dims[a] = SlicedLength(starts[i], ends[i], strides[i], x.dims[a]);
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void SetValueInferMeta(const TensorMeta& x, const TensorMeta& values,
                       const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                       const std::vector<int64_t>& steps, const std::vector<int64_t>& axes,
                       TensorMeta* out) {
  PD_CHECK(
      axes.size() == starts.size() && axes.size() == ends.size() && axes.size() == steps.size(),
      errors::InvalidArgument("arguments 'starts', 'ends', 'steps' and 'axes' must have the "
                              "same length"));
  std::vector<int64_t> region = x.dims.ToVector();
  for (size_t i = 0; i < axes.size(); ++i) {
    int a = AxisOfDim(axes[i], x.dims.size(), "set_value", "axes");
    region[a] = SlicedLength(starts[i], ends[i], steps[i], x.dims[a]);
  }
  DDim target(region);
  // The value broadcasts to the region: each of its dims is 1 or the region's.
  bool fits = values.dims.size() <= target.size();
  for (int i = 1; fits && i <= values.dims.size(); ++i) {
    int64_t v = values.dims[values.dims.size() - i];
    fits = v == 1 || DimsAgree(v, target[target.size() - i]);
  }
  PD_CHECK(fits,
           errors::InvalidArgument("the value of shape ", values.dims.ToString(),
                                   " cannot be assigned to a region of shape ", target.ToString()));
  *out = x;
}

void GatherInferMeta(const TensorMeta& x, const TensorMeta& index, int64_t axis, TensorMeta* out) {
  CheckIndexDtype(index, "index");
  PD_CHECK(index.dims.size() <= 1,
           errors::InvalidArgument("argument 'index' must be 0-d or 1-d, received shape ",
                                   index.dims.ToString()));
  int a = AxisOfDim(axis, x.dims.size(), "gather");
  std::vector<int64_t> dims = x.dims.ToVector();
  if (index.dims.size() == 0) {
    dims.erase(dims.begin() + a);
  } else {
    dims[a] = index.dims[0];
  }
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void IndexSelectInferMeta(const TensorMeta& x, const TensorMeta& index, int32_t axis,
                          TensorMeta* out) {
  CheckIndexDtype(index, "index");
  PD_CHECK(index.dims.size() == 1,
           errors::InvalidArgument("argument 'index' must be 1-d, received shape ",
                                   index.dims.ToString()));
  int a = AxisOfDim(axis, x.dims.size(), "index_select");
  std::vector<int64_t> dims = x.dims.ToVector();
  dims[a] = index.dims[0];
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void IndexAddInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& add_value,
                       int32_t axis, TensorMeta* out) {
  CheckSameDtype(x, add_value, "add_value");
  TensorMeta selected;
  IndexSelectInferMeta(x, index, axis, &selected);
  PD_CHECK(
      ShapesAgree(selected.dims, add_value.dims),
      errors::InvalidArgument("argument 'add_value' must have shape ", selected.dims.ToString(),
                              ", received ", add_value.dims.ToString()));
  *out = x;
}

void GatherNdInferMeta(const TensorMeta& x, const TensorMeta& index, TensorMeta* out) {
  CheckIndexDtype(index, "index");
  int irank = index.dims.size();
  PD_CHECK(irank >= 1, errors::InvalidArgument("argument 'index' must have at least one dim"));
  int64_t depth = index.dims[irank - 1];
  // The result's rank depends on it.
  PD_CHECK(!IsUnknown(depth), errors::InvalidArgument("the last dim of 'index' must be known "
                                                      "when the program is built, received "
                                                      "shape ",
                                                      index.dims.ToString()));
  PD_CHECK(depth <= x.dims.size(), errors::InvalidArgument("the last dim of 'index' (", depth,
                                                           ") exceeds the rank of "
                                                           "'x' (",
                                                           x.dims.size(), ")"));
  std::vector<int64_t> dims;
  for (int i = 0; i < irank - 1; ++i) dims.push_back(index.dims[i]);
  for (int i = static_cast<int>(depth); i < x.dims.size(); ++i) dims.push_back(x.dims[i]);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void ScatterInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& updates,
                      bool overwrite, TensorMeta* out) {
  CheckSameDtype(x, updates, "updates");
  PD_CHECK(x.dims.size() >= 1,
           errors::InvalidArgument("argument 'x' must have 1 or more dimensions, received shape ",
                                   x.dims.ToString()));
  const DDim& ids = index.dims;
  PD_CHECK(ids.size() <= 1 || (ids.size() == 2 && (ids[1] == 1 || ids[1] < 0)),
           errors::InvalidArgument("argument 'index' must be 0-d, 1-D or of shape [N, 1], "
                                   "received shape ",
                                   ids.ToString()));
  PD_CHECK(index.dtype == DataType::INT32 || index.dtype == DataType::INT64,
           errors::InvalidArgument("argument 'index' must be an int32 or int64 tensor, received ",
                                   DataTypeName(index.dtype)));
  // Each index value picks a row of x; updates holds one such row per value.
  std::vector<int64_t> expected;
  if (ids.size() > 0) expected.push_back(ids[0]);
  for (int i = 1; i < x.dims.size(); ++i) expected.push_back(x.dims[i]);
  PD_CHECK(ShapesAgree(DDim(expected), updates.dims),
           errors::InvalidArgument("argument 'updates' must have shape ", DDim(expected).ToString(),
                                   " (the index count, then x's shape "
                                   "without its first dim), received ",
                                   updates.dims.ToString()));
  *out = x;
}

void ScatterNdAddInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& updates,
                           TensorMeta* out) {
  CheckSameDtype(x, updates, "updates");
  TensorMeta gathered;
  GatherNdInferMeta(x, index, &gathered);
  PD_CHECK(ShapesAgree(gathered.dims, updates.dims),
           errors::InvalidArgument("argument 'updates' must have shape ", gathered.dims.ToString(),
                                   ", received ", updates.dims.ToString()));
  *out = x;
}

void MaskedSelectInferMeta(const TensorMeta& x, const TensorMeta& mask, TensorMeta* out) {
  PD_CHECK(mask.dtype == DataType::BOOL,
           errors::InvalidArgument("argument 'mask' must be a bool tensor, received ",
                                   DataTypeName(mask.dtype)));
  funcs::BroadcastShape(x.dims, mask.dims, "");
  out->dims = DDim({-1});
  out->dtype = x.dtype;
}

void MaskedScatterInferMeta(const TensorMeta& x, const TensorMeta& mask, const TensorMeta& value,
                            TensorMeta* out) {
  PD_CHECK(mask.dtype == DataType::BOOL,
           errors::InvalidArgument("argument 'mask' must be a bool tensor, received ",
                                   DataTypeName(mask.dtype)));
  DDim dims = funcs::BroadcastShape(x.dims, mask.dims, "");
  PD_CHECK(ShapesAgree(dims, x.dims),
           errors::InvalidArgument("argument 'mask' of shape ", mask.dims.ToString(),
                                   " must broadcast to x's shape ", x.dims.ToString()));
  *out = x;
}

void NonZeroInferMeta(const TensorMeta& condition, TensorMeta* out) {
  out->dims = DDim({-1, condition.dims.size()});
  out->dtype = DataType::INT64;
}

namespace {

// The spatial and channel axes of a 4-D pixel_shuffle operand in `data_format`.
struct PixelShuffleAxes {
  int channel, height, width;
};

PixelShuffleAxes PixelShuffleLayout(const TensorMeta& t, const char* arg, int32_t upscale_factor,
                                    const std::string& data_format, const char* op) {
  PD_CHECK(t.dims.size() == 4,
           errors::InvalidArgument(op, ": argument '", arg,
                                   "' must be a 4-D tensor, received shape ", t.dims.ToString()));
  PD_CHECK(upscale_factor > 0,
           errors::InvalidArgument(op, ": argument 'upscale_factor' must be positive, received ",
                                   upscale_factor));
  PD_CHECK(
      data_format == "NCHW" || data_format == "NHWC",
      errors::InvalidArgument(op, ": argument 'data_format' must be 'NCHW' or 'NHWC', received '",
                              data_format, "'"));
  return data_format == "NCHW" ? PixelShuffleAxes{1, 2, 3} : PixelShuffleAxes{3, 1, 2};
}

// `dim` times `factor`, or unknown when `dim` is.
int64_t Scaled(int64_t dim, int64_t factor) { return IsUnknown(dim) ? kUnknownDim : dim * factor; }

}  // namespace

void PixelShuffleInferMeta(const TensorMeta& x, int32_t upscale_factor,
                           const std::string& data_format, TensorMeta* out) {
  PixelShuffleAxes axes = PixelShuffleLayout(x, "x", upscale_factor, data_format, "pixel_shuffle");
  const int64_t blocks = int64_t{upscale_factor} * upscale_factor;
  const int64_t channels = x.dims[axes.channel];
  PD_CHECK(IsUnknown(channels) || channels % blocks == 0,
           errors::InvalidArgument("pixel_shuffle: the channels of argument 'x' (", channels,
                                   ", shape ", x.dims.ToString(),
                                   ") must be divisible by upscale_factor^2 = ", blocks));
  std::vector<int64_t> dims = x.dims.ToVector();
  dims[axes.channel] = IsUnknown(channels) ? kUnknownDim : channels / blocks;
  dims[axes.height] = Scaled(dims[axes.height], upscale_factor);
  dims[axes.width] = Scaled(dims[axes.width], upscale_factor);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
}

void PixelShuffleGradInferMeta(const TensorMeta& out_grad, int32_t upscale_factor,
                               const std::string& data_format, TensorMeta* x_grad) {
  PixelShuffleAxes axes =
      PixelShuffleLayout(out_grad, "out_grad", upscale_factor, data_format, "pixel_shuffle_grad");
  std::vector<int64_t> dims = out_grad.dims.ToVector();
  for (int axis : {axes.height, axes.width}) {
    PD_CHECK(IsUnknown(dims[axis]) || dims[axis] % upscale_factor == 0,
             errors::InvalidArgument("pixel_shuffle_grad: the spatial dims of argument 'out_grad' "
                                     "(shape ",
                                     out_grad.dims.ToString(),
                                     ") must be divisible by upscale_factor = ", upscale_factor));
    dims[axis] = IsUnknown(dims[axis]) ? kUnknownDim : dims[axis] / upscale_factor;
  }
  dims[axes.channel] = Scaled(dims[axes.channel], int64_t{upscale_factor} * upscale_factor);
  x_grad->dims = DDim(dims);
  x_grad->dtype = out_grad.dtype;
}

}  // namespace paddle
