#include "paddle/framework/var_desc.h"

#include "paddle/common/errors.h"
#include "paddle/framework/program_desc.h"
#include "paddle/framework/proto_data_type.h"

namespace paddle::framework {

VarDesc::VarDesc(const std::string& name) {
  desc_.set_name(name);
  set_kind(proto::VarType::DENSE_TENSOR);
  set_dtype(DataType::FLOAT32);
}

void VarDesc::set_name(const std::string& name) {
  desc_.set_name(name);
  Touch();
}

void VarDesc::Touch() {
  if (program_ != nullptr) program_->Touch();
}

void VarDesc::set_kind(VarKind kind) {
  Touch();
  DataType element_type = has_tensor_desc() ? dtype() : DataType::FLOAT32;
  std::vector<int64_t> dims = shape();
  proto::VarType* type = desc_.mutable_type();
  type->Clear();
  type->set_type(kind);
  if (has_tensor_desc()) {
    set_dtype(element_type);
    set_shape(dims);
  }
}

bool VarDesc::has_tensor_desc() const {
  return kind() == proto::VarType::DENSE_TENSOR || kind() == proto::VarType::DENSE_TENSOR_ARRAY ||
         kind() == proto::VarType::SELECTED_ROWS;
}

const proto::VarType::TensorDesc* VarDesc::tensor_desc() const {
  if (kind() == proto::VarType::DENSE_TENSOR) return &desc_.type().dense_tensor().tensor();
  if (kind() == proto::VarType::DENSE_TENSOR_ARRAY) return &desc_.type().tensor_array().tensor();
  if (kind() == proto::VarType::SELECTED_ROWS) return &desc_.type().selected_rows();
  return nullptr;
}

proto::VarType::TensorDesc* VarDesc::mutable_tensor_desc() {
  proto::VarType* type = desc_.mutable_type();
  if (kind() == proto::VarType::DENSE_TENSOR) return type->mutable_dense_tensor()->mutable_tensor();
  if (kind() == proto::VarType::DENSE_TENSOR_ARRAY) {
    return type->mutable_tensor_array()->mutable_tensor();
  }
  if (kind() == proto::VarType::SELECTED_ROWS) return type->mutable_selected_rows();
  PD_THROW(errors::InvalidArgument("variable '", name(), "' of kind ", ProtoTypeName(kind()),
                                   " has no element type or shape"));
}

DataType VarDesc::dtype() const {
  const proto::VarType::TensorDesc* t = tensor_desc();
  PD_CHECK(t != nullptr, errors::InvalidArgument("variable '", name(), "' of kind ",
                                                 ProtoTypeName(kind()), " has no element type"));
  return FromProtoDataType(t->data_type());
}

void VarDesc::set_dtype(DataType dtype) {
  Touch();
  mutable_tensor_desc()->set_data_type(ToProtoDataType(dtype));
}

std::vector<int64_t> VarDesc::shape() const {
  const proto::VarType::TensorDesc* t = tensor_desc();
  if (t == nullptr) return {};
  return {t->dims().begin(), t->dims().end()};
}

void VarDesc::set_shape(const std::vector<int64_t>& shape) {
  Touch();
  auto* dims = mutable_tensor_desc()->mutable_dims();
  dims->Clear();
  for (int64_t d : shape) dims->Add(d);
}

}  // namespace paddle::framework
