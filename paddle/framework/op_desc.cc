#include "paddle/framework/op_desc.h"

#include <algorithm>

#include "paddle/framework/program_desc.h"

namespace paddle::framework {

namespace {

using ProtoVars = google::protobuf::RepeatedPtrField<proto::OpDesc::Var>;

std::vector<std::string> SlotArguments(const ProtoVars& vars, const std::string& slot) {
  for (const auto& var : vars) {
    if (var.parameter() == slot) return {var.arguments().begin(), var.arguments().end()};
  }
  return {};
}

void SetSlot(ProtoVars* vars, const std::string& slot, const std::vector<std::string>& names) {
  auto it = std::find_if(vars->begin(), vars->end(),
                         [&](const proto::OpDesc::Var& v) { return v.parameter() >= slot; });
  int index = static_cast<int>(it - vars->begin());
  if (it == vars->end() || it->parameter() != slot) {
    vars->Add()->set_parameter(slot);
    // Move the new slot from the end to its sorted place.
    for (int i = vars->size() - 1; i > index; --i) vars->SwapElements(i, i - 1);
  }
  proto::OpDesc::Var* var = vars->Mutable(index);
  var->clear_arguments();
  for (const std::string& name : names) var->add_arguments(name);
}

std::vector<std::string> Slots(const ProtoVars& vars) {
  std::vector<std::string> slots;
  for (const auto& var : vars) slots.push_back(var.parameter());
  return slots;
}

std::vector<std::string> AllArguments(const ProtoVars& vars) {
  std::vector<std::string> names;
  for (const auto& var : vars)
    names.insert(names.end(), var.arguments().begin(), var.arguments().end());
  return names;
}

void Rename(ProtoVars* vars, const std::string& from, const std::string& to) {
  for (auto& var : *vars) {
    for (auto& arg : *var.mutable_arguments()) {
      if (arg == from) arg = to;
    }
  }
}

}  // namespace

void OpDesc::Touch() {
  if (program_ != nullptr) program_->Touch();
}

std::vector<std::string> OpDesc::Input(const std::string& slot) const {
  return SlotArguments(desc_.inputs(), slot);
}
std::vector<std::string> OpDesc::Output(const std::string& slot) const {
  return SlotArguments(desc_.outputs(), slot);
}
void OpDesc::SetInput(const std::string& slot, const std::vector<std::string>& names) {
  Touch();
  SetSlot(desc_.mutable_inputs(), slot, names);
}
void OpDesc::SetOutput(const std::string& slot, const std::vector<std::string>& names) {
  Touch();
  SetSlot(desc_.mutable_outputs(), slot, names);
}
std::vector<std::string> OpDesc::InputSlots() const { return Slots(desc_.inputs()); }
std::vector<std::string> OpDesc::OutputSlots() const { return Slots(desc_.outputs()); }
std::vector<std::string> OpDesc::InputNames() const { return AllArguments(desc_.inputs()); }
std::vector<std::string> OpDesc::OutputNames() const { return AllArguments(desc_.outputs()); }
void OpDesc::RenameInput(const std::string& from, const std::string& to) {
  Touch();
  Rename(desc_.mutable_inputs(), from, to);
}
void OpDesc::RenameOutput(const std::string& from, const std::string& to) {
  Touch();
  Rename(desc_.mutable_outputs(), from, to);
}

const ProtoAttr* OpDesc::FindAttr(const std::string& name) const {
  for (const ProtoAttr& attr : desc_.attrs()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

void OpDesc::SetAttr(ProtoAttr attr) {
  Touch();
  auto* attrs = desc_.mutable_attrs();
  auto it = std::find_if(attrs->begin(), attrs->end(),
                         [&](const ProtoAttr& a) { return a.name() >= attr.name(); });
  if (it != attrs->end() && it->name() == attr.name()) {
    *it = std::move(attr);
    return;
  }
  int index = static_cast<int>(it - attrs->begin());
  *attrs->Add() = std::move(attr);
  for (int i = attrs->size() - 1; i > index; --i) attrs->SwapElements(i, i - 1);
}

void OpDesc::RemoveAttr(const std::string& name) {
  Touch();
  auto* attrs = desc_.mutable_attrs();
  for (int i = 0; i < attrs->size(); ++i) {
    if (attrs->Get(i).name() == name) {
      attrs->DeleteSubrange(i, 1);
      return;
    }
  }
}

std::vector<std::string> OpDesc::AttrNames() const {
  std::vector<std::string> names;
  for (const ProtoAttr& attr : desc_.attrs()) names.push_back(attr.name());
  return names;
}

int OpDesc::SubBlockIndex() const {
  const ProtoAttr* attr = FindAttr("sub_block");
  return attr != nullptr && attr->type() == proto::BLOCK ? attr->block_idx() : -1;
}

ProtoAttr MakeIntAttr(const std::string& name, int value) {
  ProtoAttr attr;
  attr.set_name(name);
  attr.set_type(proto::INT);
  attr.set_i(value);
  return attr;
}

ProtoAttr MakeBlockAttr(const std::string& name, int block_idx) {
  ProtoAttr attr;
  attr.set_name(name);
  attr.set_type(proto::BLOCK);
  attr.set_block_idx(block_idx);
  return attr;
}

}  // namespace paddle::framework
