#include "paddle/core/selected_rows.h"

namespace paddle {

DDim SelectedRows::complete_dims() const {
  std::vector<int64_t> dims = value_->dims().ToVector();
  if (dims.empty()) return DDim({height_});
  dims[0] = height_;
  return DDim(dims);
}

TensorMeta SelectedRows::complete_meta() const {
  TensorMeta meta = value_->meta();
  meta.dims = complete_dims();
  return meta;
}

}  // namespace paddle
