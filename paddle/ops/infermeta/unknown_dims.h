// Dimensions unknown until a static program runs. A program describes such a dimension as -1 (a
// batch size, or a size that depends on data); InferMeta checks a constraint only where the dims
// it involves are known, and derives -1 where a result depends on an unknown dim, as Paddle's
// compile-time InferShape does. Dygraph shapes are always known, so these helpers change nothing
// there.
#pragma once

#include <cstdint>

#include "paddle/common/ddim.h"

namespace paddle {

constexpr int64_t kUnknownDim = -1;

inline bool IsUnknown(int64_t dim) { return dim < 0; }

// Whether two dims may be equal when the program runs.
inline bool DimsAgree(int64_t a, int64_t b) { return a == b || IsUnknown(a) || IsUnknown(b); }

// Same rank, and every pair of dims may be equal when the program runs.
inline bool ShapesAgree(const DDim& a, const DDim& b) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i) {
    if (!DimsAgree(a[i], b[i])) return false;
  }
  return true;
}

// The shape two agreeing shapes describe: each dim known in either is known in the result.
inline DDim MergeShapes(const DDim& a, const DDim& b) {
  DDim out = a;
  for (int i = 0; i < a.size(); ++i) {
    if (IsUnknown(out[i])) out[i] = b[i];
  }
  return out;
}

// The number of elements, or -1 where a dim is unknown.
inline int64_t KnownNumel(const DDim& dims) {
  int64_t n = 1;
  for (int i = 0; i < dims.size(); ++i) {
    if (IsUnknown(dims[i])) return kUnknownDim;
    n *= dims[i];
  }
  return n;
}

// a + b, or -1 where either is unknown.
inline int64_t AddDims(int64_t a, int64_t b) {
  return IsUnknown(a) || IsUnknown(b) ? kUnknownDim : a + b;
}

// Whether a tensor of these dims may hold exactly one element when the program runs.
inline bool MayHoldOneElement(const DDim& dims) {
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] != 1 && !IsUnknown(dims[i])) return false;
  }
  return true;
}

}  // namespace paddle
