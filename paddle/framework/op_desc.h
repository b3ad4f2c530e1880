// OpDesc: one operator of a block, a mutable view of framework.proto's OpDesc. Slots and
// attributes are kept sorted by name, the order PaddlePaddle writes them in.
#pragma once

#include <string>
#include <vector>

#include "proto/framework.pb.h"

namespace paddle::framework {

class ProgramDesc;

using ProtoAttr = proto::OpDesc::Attr;

// Paddle's op_role attribute: which part of a training program an op belongs to.
enum class OpRole : int { kForward = 0, kBackward = 1, kOptimize = 2, kLoss = 256 };
inline constexpr const char* kOpRoleAttr = "op_role";

class OpDesc {
 public:
  OpDesc() = default;
  explicit OpDesc(proto::OpDesc desc) : desc_(std::move(desc)) {}

  const std::string& type() const { return desc_.type(); }
  void set_type(const std::string& type) {
    desc_.set_type(type);
    Touch();
  }

  // The variables bound to a slot; empty when the slot is absent.
  std::vector<std::string> Input(const std::string& slot) const;
  std::vector<std::string> Output(const std::string& slot) const;
  void SetInput(const std::string& slot, const std::vector<std::string>& names);
  void SetOutput(const std::string& slot, const std::vector<std::string>& names);
  std::vector<std::string> InputSlots() const;
  std::vector<std::string> OutputSlots() const;
  // Every variable read or written, in slot order (a name may repeat).
  std::vector<std::string> InputNames() const;
  std::vector<std::string> OutputNames() const;
  void RenameInput(const std::string& from, const std::string& to);
  void RenameOutput(const std::string& from, const std::string& to);

  bool HasAttr(const std::string& name) const { return FindAttr(name) != nullptr; }
  // Null when absent.
  const ProtoAttr* FindAttr(const std::string& name) const;
  void SetAttr(ProtoAttr attr);
  void RemoveAttr(const std::string& name);
  std::vector<std::string> AttrNames() const;
  // The sub-block an op such as conditional_block or while runs, or -1.
  int SubBlockIndex() const;

  const proto::OpDesc& proto() const { return desc_; }
  // The program whose revision a change bumps (set by the block that holds the op).
  void set_program(ProgramDesc* program) { program_ = program; }

 private:
  void Touch();

  proto::OpDesc desc_;
  ProgramDesc* program_ = nullptr;
};

ProtoAttr MakeIntAttr(const std::string& name, int value);
ProtoAttr MakeBlockAttr(const std::string& name, int block_idx);

}  // namespace paddle::framework
