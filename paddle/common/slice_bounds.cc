#include "paddle/common/slice_bounds.h"

#include <algorithm>
#include <limits>

#include "paddle/common/errors.h"

namespace paddle {

SliceBounds NormalizeSlice(int64_t start, int64_t end, int64_t step, int64_t size) {
  PD_CHECK(step != 0, errors::InvalidArgument("slice step cannot be 0"));
  // The lengths are computed as 1 + (span - 1) / |step|, which cannot overflow for any step
  // (a span is at most `size`); INT64_MIN, whose magnitude int64 cannot hold, steps like
  // -INT64_MAX.
  if (step > 0) {
    start = start < 0 ? std::max<int64_t>(start + size, 0) : std::min(start, size);
    end = end < 0 ? std::max<int64_t>(end + size, 0) : std::min(end, size);
    int64_t length = end > start ? 1 + (end - start - 1) / step : 0;
    return {start, end, step, length};
  }
  start = start < 0 ? std::max<int64_t>(start + size, -1) : std::min(start, size - 1);
  end = end < 0 ? std::max<int64_t>(end + size, -1) : std::min(end, size - 1);
  int64_t magnitude =
      step == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -step;
  int64_t length = start > end ? 1 + (start - end - 1) / magnitude : 0;
  return {start, end, step, length};
}

}  // namespace paddle
