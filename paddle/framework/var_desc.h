// VarDesc: one variable of a block (name, kind, element type, shape, flags), a mutable view of
// framework.proto's VarDesc. Shapes use -1 for a dimension unknown until run time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/data_type.h"
#include "proto/framework.pb.h"

namespace paddle::framework {

class ProgramDesc;

// The kinds of variable a program declares (a subset of VarType.Type).
using VarKind = proto::VarType::Type;

class VarDesc {
 public:
  // A dense float32 tensor of unknown rank.
  explicit VarDesc(const std::string& name);
  explicit VarDesc(proto::VarDesc desc) : desc_(std::move(desc)) {}

  // Changed only through BlockDesc::RenameVar: the block indexes its variables by name.
  const std::string& name() const { return desc_.name(); }

  VarKind kind() const { return desc_.type().type(); }
  void set_kind(VarKind kind);
  // Dense tensors, SelectedRows and tensor arrays hold elements; the other kinds have no dtype
  // or shape.
  bool has_tensor_desc() const;

  DataType dtype() const;
  void set_dtype(DataType dtype);
  std::vector<int64_t> shape() const;
  void set_shape(const std::vector<int64_t>& shape);

  bool persistable() const { return desc_.persistable(); }
  void set_persistable(bool v) {
    desc_.set_persistable(v);
    Touch();
  }
  bool is_parameter() const { return desc_.is_parameter(); }
  void set_is_parameter(bool v) {
    desc_.set_is_parameter(v);
    Touch();
  }
  bool stop_gradient() const { return desc_.stop_gradient(); }
  void set_stop_gradient(bool v) {
    desc_.set_stop_gradient(v);
    Touch();
  }
  bool need_check_feed() const { return desc_.need_check_feed(); }
  void set_need_check_feed(bool v) {
    desc_.set_need_check_feed(v);
    Touch();
  }

  const proto::VarDesc& proto() const { return desc_; }
  // The program whose revision a change bumps (set by the block that holds the variable).
  void set_program(ProgramDesc* program) { program_ = program; }

 private:
  friend class BlockDesc;
  void set_name(const std::string& name);
  void Touch();

  const proto::VarType::TensorDesc* tensor_desc() const;
  proto::VarType::TensorDesc* mutable_tensor_desc();

  proto::VarDesc desc_;
  ProgramDesc* program_ = nullptr;
};

}  // namespace paddle::framework
