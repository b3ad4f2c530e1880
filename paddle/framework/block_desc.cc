#include "paddle/framework/block_desc.h"

#include "paddle/common/errors.h"

#include "paddle/framework/program_desc.h"

namespace paddle::framework {

BlockDesc::BlockDesc(ProgramDesc* program, const proto::BlockDesc& desc)
    : program_(program),
      idx_(desc.idx()),
      parent_idx_(desc.parent_idx()),
      forward_block_idx_(desc.forward_block_idx()) {
  for (const proto::VarDesc& var : desc.vars()) {
    auto& slot = vars_[var.name()] = std::make_unique<VarDesc>(var);
    slot->set_program(program);
  }
  for (const proto::OpDesc& op : desc.ops()) {
    ops_.push_back(std::make_unique<OpDesc>(op));
    ops_.back()->set_program(program);
  }
}

BlockDesc* BlockDesc::parent() const {
  return parent_idx_ < 0 ? nullptr : program_->Block(parent_idx_);
}

VarDesc* BlockDesc::Var(const std::string& name) {
  std::unique_ptr<VarDesc>& slot = vars_[name];
  if (!slot) {
    slot = std::make_unique<VarDesc>(name);
    slot->set_program(program_);
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
  auto it = vars_.find(name);
  if (it == vars_.end()) return;
  retired_vars_.push_back(std::move(it->second));
  vars_.erase(it);
  Touch();
}

void BlockDesc::RenameVar(const std::string& from, const std::string& to) {
  if (from == to) return;
  auto it = vars_.find(from);
  PD_CHECK(it != vars_.end(),
           errors::InvalidArgument("Variable.name: no variable '", from, "' in block ", idx_));
  PD_CHECK(vars_.count(to) == 0,
           errors::InvalidArgument("Variable.name: cannot rename '", from, "' to '", to,
                                   "': block ", idx_, " already has a variable of that name"));
  std::unique_ptr<VarDesc> var = std::move(it->second);
  vars_.erase(it);
  var->set_name(to);
  vars_[to] = std::move(var);
  for (size_t b = 0; b < program_->Size(); ++b) {
    BlockDesc* block = program_->Block(b);
    bool sees_it = false;  // this block, or one under it that does not shadow `from`
    for (const BlockDesc* a = block; a != nullptr; a = a->parent()) {
      if (a == this) {
        sees_it = true;
        break;
      }
      if (a->FindVar(from) != nullptr) break;
    }
    if (!sees_it) continue;
    for (const auto& op : block->ops_) {
      op->RenameInput(from, to);
      op->RenameOutput(from, to);
    }
  }
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
  PD_CHECK(index <= ops_.size(),
           errors::OutOfRange("cannot insert an op at index ", index, " of block ", idx_,
                              ", which has ", ops_.size(), " ops"));
  Touch();
  auto it =
      ops_.insert(ops_.begin() + static_cast<std::ptrdiff_t>(index), std::make_unique<OpDesc>());
  (*it)->set_program(program_);
  return it->get();
}

void BlockDesc::RemoveOps(size_t begin, size_t end) {
  PD_CHECK(begin <= end && end <= ops_.size(),
           errors::OutOfRange("cannot remove ops [", begin, ", ", end, ") of block ", idx_,
                              ", which has ", ops_.size(), " ops"));
  Touch();
  auto first = ops_.begin() + static_cast<std::ptrdiff_t>(begin);
  auto last = ops_.begin() + static_cast<std::ptrdiff_t>(end);
  for (auto it = first; it != last; ++it) retired_ops_.push_back(std::move(*it));
  ops_.erase(first, last);
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
