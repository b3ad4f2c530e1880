#include "paddle/framework/block_desc.h"

#include "paddle/framework/program_desc.h"

namespace paddle::framework {

BlockDesc::BlockDesc(ProgramDesc* program, const proto::BlockDesc& desc)
    : program_(program),
      idx_(desc.idx()),
      parent_idx_(desc.parent_idx()),
      forward_block_idx_(desc.forward_block_idx()) {
  for (const proto::VarDesc& var : desc.vars()) {
    vars_[var.name()] = std::make_unique<VarDesc>(var);
  }
  for (const proto::OpDesc& op : desc.ops()) ops_.push_back(std::make_unique<OpDesc>(op));
}

BlockDesc* BlockDesc::parent() const {
  return parent_idx_ < 0 ? nullptr : program_->Block(parent_idx_);
}

VarDesc* BlockDesc::Var(const std::string& name) {
  std::unique_ptr<VarDesc>& slot = vars_[name];
  if (!slot) {
    slot = std::make_unique<VarDesc>(name);
    Touch();
  }
  return slot.get();
}

VarDesc* BlockDesc::FindVar(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : it->second.get();
}

VarDesc* BlockDesc::FindVarRecursive(const std::string& name) const {
  for (const BlockDesc* b = this; b != nullptr; b = b->parent()) {
    if (VarDesc* var = b->FindVar(name)) return var;
  }
  return nullptr;
}

void BlockDesc::RemoveVar(const std::string& name) {
  vars_.erase(name);
  Touch();
}

std::vector<VarDesc*> BlockDesc::AllVars() const {
  std::vector<VarDesc*> vars;
  vars.reserve(vars_.size());
  for (const auto& [name, var] : vars_) vars.push_back(var.get());
  return vars;
}

OpDesc* BlockDesc::AppendOp() { return InsertOp(ops_.size()); }

OpDesc* BlockDesc::InsertOp(size_t index) {
  Touch();
  auto it =
      ops_.insert(ops_.begin() + static_cast<std::ptrdiff_t>(index), std::make_unique<OpDesc>());
  return it->get();
}

void BlockDesc::RemoveOps(size_t begin, size_t end) {
  Touch();
  ops_.erase(ops_.begin() + static_cast<std::ptrdiff_t>(begin),
             ops_.begin() + static_cast<std::ptrdiff_t>(end));
}

proto::BlockDesc BlockDesc::ToProto() const {
  proto::BlockDesc desc;
  desc.set_idx(idx_);
  desc.set_parent_idx(parent_idx_);
  desc.set_forward_block_idx(forward_block_idx_);
  for (const auto& [name, var] : vars_) *desc.add_vars() = var->proto();
  for (const auto& op : ops_) *desc.add_ops() = op->proto();
  return desc;
}

void BlockDesc::Touch() { program_->Touch(); }

}  // namespace paddle::framework
