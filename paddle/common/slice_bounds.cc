#include "paddle/common/slice_bounds.h"

#include <algorithm>

#include "paddle/common/errors.h"

namespace paddle {

SliceBounds NormalizeSlice(int64_t start, int64_t end, int64_t step, int64_t size) {
  PD_CHECK(step != 0, errors::InvalidArgument("slice step cannot be 0"));
  if (step > 0) {
    start = start < 0 ? std::max<int64_t>(start + size, 0) : std::min(start, size);
    end = end < 0 ? std::max<int64_t>(end + size, 0) : std::min(end, size);
    int64_t length = end > start ? (end - start + step - 1) / step : 0;
    return {start, end, step, length};
  }
  start = start < 0 ? std::max<int64_t>(start + size, -1) : std::min(start, size - 1);
  end = end < 0 ? std::max<int64_t>(end + size, -1) : std::min(end, size - 1);
  int64_t length = start > end ? (start - end - step - 1) / (-step) : 0;
  return {start, end, step, length};
}

}  // namespace paddle
