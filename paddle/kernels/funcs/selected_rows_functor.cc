#include "paddle/kernels/funcs/selected_rows_functor.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "paddle/kernels/funcs/math_type.h"

namespace paddle::funcs {

namespace {

void CheckHost(const SelectedRows& in, const char* what) {
  PD_CHECK(in.value().place().is_cpu(),
           errors::Unimplemented(what, ": SelectedRows on ", in.value().place().ToString(),
                                 " are not supported; only CPU"));
}

std::shared_ptr<DenseTensor> NewValue(const DenseTensor& like, int64_t rows) {
  std::vector<int64_t> dims = like.dims().ToVector();
  dims[0] = rows;
  TensorMeta meta = like.meta();
  meta.dims = DDim(dims);
  auto value = std::make_shared<DenseTensor>(meta);
  value->AllocateStorage(CPUPlace());
  return value;
}

}  // namespace

int64_t RowWidth(const SelectedRows& in) {
  const DDim& dims = in.value().dims();
  int64_t width = 1;
  for (int i = 1; i < dims.size(); ++i) width *= dims[i];
  return width;
}

void CheckRowsInRange(const SelectedRows& in, const char* what) {
  for (int64_t row : in.rows()) {
    PD_CHECK(row >= 0 && row < in.height(),
             errors::OutOfRange(what, ": row ", row, " is outside the table of height ",
                                in.height(), " (expected 0 <= row < ", in.height(), ")"));
  }
}

std::shared_ptr<SelectedRows> MergeRows(const SelectedRows& in) {
  CheckHost(in, "MergeRows");
  const std::vector<int64_t>& rows = in.rows();
  std::vector<int64_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return rows[a] < rows[b]; });
  std::vector<int64_t> merged_rows;
  for (int64_t i : order) {
    if (merged_rows.empty() || merged_rows.back() != rows[i]) merged_rows.push_back(rows[i]);
  }
  auto value = NewValue(in.value(), static_cast<int64_t>(merged_rows.size()));
  int64_t width = RowWidth(in);
  VisitFloatingType(in.value().dtype(), "MergeRows", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    const T* src = in.value().data<T>();
    T* dst = value->data<T>();
    std::vector<MT> sum(width);
    size_t k = 0;
    for (size_t out = 0; out < merged_rows.size(); ++out) {
      std::fill(sum.begin(), sum.end(), MT(0));
      for (; k < order.size() && rows[order[k]] == merged_rows[out]; ++k) {
        const T* row = src + order[k] * width;
        for (int64_t j = 0; j < width; ++j) sum[j] += static_cast<MT>(row[j]);
      }
      for (int64_t j = 0; j < width; ++j) dst[out * width + j] = static_cast<T>(sum[j]);
    }
  });
  return std::make_shared<SelectedRows>(std::move(merged_rows), in.height(), std::move(value));
}

std::shared_ptr<SelectedRows> ConcatRows(const SelectedRows& a, const SelectedRows& b) {
  CheckHost(a, "ConcatRows");
  CheckHost(b, "ConcatRows");
  PD_CHECK(a.height() == b.height() && RowWidth(a) == RowWidth(b) &&
               a.value().dtype() == b.value().dtype(),
           errors::InvalidArgument(
               "cannot add SelectedRows of table shape ", a.complete_dims().ToString(), " (",
               DataTypeName(a.value().dtype()), ") and ", b.complete_dims().ToString(), " (",
               DataTypeName(b.value().dtype()), ")"));
  std::vector<int64_t> rows = a.rows();
  rows.insert(rows.end(), b.rows().begin(), b.rows().end());
  auto value = NewValue(a.value(), static_cast<int64_t>(rows.size()));
  auto* dst = static_cast<char*>(value->raw_data());
  std::memcpy(dst, a.value().raw_data(), a.value().nbytes());
  std::memcpy(dst + a.value().nbytes(), b.value().raw_data(), b.value().nbytes());
  return std::make_shared<SelectedRows>(std::move(rows), a.height(), std::move(value));
}

void AddRowsTo(const SelectedRows& in, DenseTensor* dense) {
  CheckHost(in, "AddRowsTo");
  PD_CHECK(dense->dims() == in.complete_dims() && dense->dtype() == in.value().dtype(),
           errors::InvalidArgument(
               "cannot add SelectedRows of table shape ", in.complete_dims().ToString(), " (",
               DataTypeName(in.value().dtype()), ") to a tensor of shape ",
               dense->dims().ToString(), " (", DataTypeName(dense->dtype()), ")"));
  CheckRowsInRange(in, "AddRowsTo");
  int64_t width = RowWidth(in);
  VisitFloatingType(in.value().dtype(), "AddRowsTo", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    const T* src = in.value().data<T>();
    T* dst = dense->data<T>();
    for (size_t i = 0; i < in.rows().size(); ++i) {
      T* row = dst + in.rows()[i] * width;
      for (int64_t j = 0; j < width; ++j) {
        row[j] = static_cast<T>(static_cast<MT>(row[j]) + static_cast<MT>(src[i * width + j]));
      }
    }
  });
}

std::shared_ptr<DenseTensor> RowsToDense(const SelectedRows& in) {
  auto dense = std::make_shared<DenseTensor>(in.complete_meta());
  std::memset(dense->AllocateStorage(CPUPlace()), 0, dense->nbytes());
  AddRowsTo(in, dense.get());
  return dense;
}

std::shared_ptr<SelectedRows> CopyRows(const SelectedRows& in) {
  CheckHost(in, "CopyRows");
  auto value = NewValue(in.value(), in.value().dims()[0]);
  std::memcpy(value->raw_data(), in.value().raw_data(), in.value().nbytes());
  return std::make_shared<SelectedRows>(in.rows(), in.height(), std::move(value));
}

}  // namespace paddle::funcs
