#include "paddle/common/reduce_axes.h"

#include <algorithm>

#include "paddle/common/errors.h"

namespace paddle {

std::vector<int> ReduceAxes(const std::vector<int64_t>& axis, int rank) {
  std::vector<int> axes;
  if (axis.empty()) {
    for (int i = 0; i < rank; ++i) axes.push_back(i);
    return axes;
  }
  for (int64_t a : axis) {
    int n = NormalizeAxis(a, rank, "reduce");
    PD_CHECK(std::find(axes.begin(), axes.end(), n) == axes.end(),
             errors::InvalidArgument("argument 'axis' lists dimension ", n, " twice"));
    axes.push_back(n);
  }
  std::sort(axes.begin(), axes.end());
  // A 0-d tensor accepts axis 0 / -1 but has no dimension to reduce.
  if (rank == 0) axes.clear();
  return axes;
}

DDim ReducedDims(const DDim& dims, const std::vector<int>& axes, bool keepdim) {
  std::vector<int64_t> out;
  for (int i = 0; i < dims.size(); ++i) {
    bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) {
      out.push_back(dims[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return DDim(out);
}

}  // namespace paddle
