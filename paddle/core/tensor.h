// Tensor: the handle user code and op APIs pass around (paddle.Tensor in Python). It shares a
// DenseTensor and, once the tensor takes part in autograd, an AutogradMeta defined by the
// imperative layer; copies of a Tensor share both. A tensor may instead hold a SelectedRows (a
// sparse gradient); its DenseTensor is then the SelectedRows' value, so shape, dtype and data
// are the value's, as in PaddlePaddle.
#pragma once

#include <memory>
#include <string>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/selected_rows.h"

namespace paddle {

// Implemented by paddle::imperative::AutogradMeta; the core only holds it.
class AutogradMetaBase {
 public:
  virtual ~AutogradMetaBase() = default;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<DenseTensor> impl) : impl_(std::move(impl)) {}
  explicit Tensor(std::shared_ptr<SelectedRows> rows)
      : impl_(rows->shared_value()), selected_rows_(std::move(rows)) {}

  bool defined() const { return impl_ != nullptr; }
  const std::shared_ptr<DenseTensor>& impl() const { return impl_; }
  void set_impl(std::shared_ptr<DenseTensor> impl) {
    impl_ = std::move(impl);
    selected_rows_ = nullptr;
  }
  DenseTensor& dense() const;
  bool is_selected_rows() const { return selected_rows_ != nullptr; }
  // Null unless the tensor holds a SelectedRows.
  const std::shared_ptr<SelectedRows>& selected_rows() const { return selected_rows_; }

  const DDim& dims() const { return dense().dims(); }
  DataType dtype() const { return dense().dtype(); }
  const Place& place() const { return dense().place(); }
  int64_t numel() const { return dense().numel(); }

  AutogradMetaBase* autograd_meta() const { return autograd_meta_.get(); }
  const std::shared_ptr<AutogradMetaBase>& shared_autograd_meta() const { return autograd_meta_; }
  void set_autograd_meta(std::shared_ptr<AutogradMetaBase> meta) {
    autograd_meta_ = std::move(meta);
  }

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

 private:
  std::shared_ptr<DenseTensor> impl_;
  std::shared_ptr<SelectedRows> selected_rows_;
  std::shared_ptr<AutogradMetaBase> autograd_meta_;
  std::string name_;
};

}  // namespace paddle
