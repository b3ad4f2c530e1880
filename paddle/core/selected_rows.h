// SelectedRows: a sparse set of rows of a [height, ...] table, as PaddlePaddle's. `rows[i]` is
// the table row that `value[i]` belongs to; rows may repeat (their values then add up) until the
// rows are merged. An embedding's sparse gradient is one: only the looked-up rows are stored.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "paddle/core/dense_tensor.h"

namespace paddle {

class SelectedRows {
 public:
  SelectedRows() : value_(std::make_shared<DenseTensor>()) {}
  SelectedRows(std::vector<int64_t> rows, int64_t height, std::shared_ptr<DenseTensor> value)
      : rows_(std::move(rows)), height_(height), value_(std::move(value)) {}

  const std::vector<int64_t>& rows() const { return rows_; }
  std::vector<int64_t>* mutable_rows() { return &rows_; }
  void set_rows(std::vector<int64_t> rows) { rows_ = std::move(rows); }
  int64_t height() const { return height_; }
  void set_height(int64_t height) { height_ = height; }

  // [len(rows), ...]: the values of the rows, in the order of `rows`.
  const DenseTensor& value() const { return *value_; }
  DenseTensor* mutable_value() { return value_.get(); }
  const std::shared_ptr<DenseTensor>& shared_value() const { return value_; }

  // The dims of the dense table this stands for: [height, value dims after the first].
  DDim complete_dims() const;
  // The dense table's meta (complete dims, the value's dtype and layout): what shape checks see.
  TensorMeta complete_meta() const;

 private:
  std::vector<int64_t> rows_;
  int64_t height_ = 0;
  std::shared_ptr<DenseTensor> value_;
};

}  // namespace paddle
