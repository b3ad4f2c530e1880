// BlockDesc: the variables and the ordered operators of one block. Block 0 is the program's
// main block; control-flow ops run sub-blocks whose variable lookups fall back to their parent.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "paddle/framework/op_desc.h"
#include "paddle/framework/var_desc.h"

namespace paddle::framework {

class ProgramDesc;

class BlockDesc {
 public:
  BlockDesc(ProgramDesc* program, int idx, int parent_idx)
      : program_(program), idx_(idx), parent_idx_(parent_idx) {}
  BlockDesc(ProgramDesc* program, const proto::BlockDesc& desc);
  BlockDesc(const BlockDesc&) = delete;
  BlockDesc& operator=(const BlockDesc&) = delete;

  int idx() const { return idx_; }
  int parent_idx() const { return parent_idx_; }
  int forward_block_idx() const { return forward_block_idx_; }
  void set_forward_block_idx(int idx) { forward_block_idx_ = idx; }
  ProgramDesc* program() const { return program_; }
  // Null for block 0.
  BlockDesc* parent() const;

  // Creates a dense float32 variable when `name` is new; returns the existing one otherwise.
  VarDesc* Var(const std::string& name);
  // This block only; null when absent.
  VarDesc* FindVar(const std::string& name) const;
  // This block, then its ancestors; null when absent everywhere.
  VarDesc* FindVarRecursive(const std::string& name) const;
  void RemoveVar(const std::string& name);
  // Gives this block's variable `from` the name `to`, in the ops of this block and of the
  // blocks under it that see it (those without a variable `from` of their own), as Paddle's
  // `Variable.name = ...`. InvalidArgument when `from` is not in this block or `to` is taken
  // in it.
  void RenameVar(const std::string& from, const std::string& to);
  // Sorted by name, the order PaddlePaddle writes them in.
  std::vector<VarDesc*> AllVars() const;

  OpDesc* AppendOp();
  OpDesc* InsertOp(size_t index);
  void RemoveOps(size_t begin, size_t end);
  size_t OpSize() const { return ops_.size(); }
  OpDesc* Op(size_t i) const { return ops_.at(i).get(); }
  const std::vector<std::unique_ptr<OpDesc>>& ops() const { return ops_; }

  proto::BlockDesc ToProto() const;

 private:
  void Touch();

  ProgramDesc* program_;
  int idx_;
  int parent_idx_;
  int forward_block_idx_ = -1;
  std::map<std::string, std::unique_ptr<VarDesc>> vars_;
  std::vector<std::unique_ptr<OpDesc>> ops_;
  // Removed ops and variables live as long as the block: Python wrappers may still point at
  // them.
  std::vector<std::unique_ptr<OpDesc>> retired_ops_;
  std::vector<std::unique_ptr<VarDesc>> retired_vars_;
};

}  // namespace paddle::framework
