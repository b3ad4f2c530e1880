// Executor: runs one block of a program on a place. Prepare does the per-program work once
// (instructions with their kernels and attributes, each variable's last use for garbage
// collection, which ops run in place); Run binds the prepared block to a scope (once per scope)
// and then only executes instructions and releases dead buffers.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "paddle/framework/instruction.h"

namespace paddle::framework {

struct PrepareOptions {
  // Variables whose buffers must survive the run and never be written in place: fed inputs
  // and fetch targets.
  std::vector<std::string> skip_vars;
  bool enable_inplace = true;
};

class PreparedBlock {
 public:
  // The program's revision when prepared; a changed program needs a new Prepare.
  uint64_t revision() const { return revision_; }
  size_t size() const { return instructions_.size(); }
  // For tests and tools: the variables released after instruction i, and the in-place pairs.
  const std::vector<std::string>& DeadAfter(size_t i) const { return dead_after_[i]; }
  const std::vector<std::pair<std::string, std::string>>& InplacePairs() const {
    return inplace_pairs_;
  }
  // Instruction i, for executors that schedule the instructions themselves.
  Instruction* instruction(size_t i) { return instructions_[i].get(); }

 private:
  friend class Executor;

  const ProgramDesc* program_ = nullptr;
  int block_idx_ = 0;
  uint64_t revision_ = 0;
  std::vector<std::unique_ptr<Instruction>> instructions_;
  std::vector<std::vector<std::string>> dead_after_;
  std::vector<std::pair<std::string, std::string>> inplace_pairs_;
  // Bound to a scope.
  uint64_t bound_scope_id_ = 0;  // 0: not bound
  uint64_t bound_scope_version_ = 0;
  std::vector<std::vector<DenseTensor*>> dead_tensors_;
};

class Executor {
 public:
  explicit Executor(const Place& place) : place_(place) {}

  const Place& place() const { return place_; }

  std::unique_ptr<PreparedBlock> Prepare(const ProgramDesc& program, int block_idx,
                                         const PrepareOptions& options);
  // Creates the block's variables in `scope` where missing, binds (when `scope` changed) and
  // runs every instruction.
  void Run(PreparedBlock* prepared, Scope* scope);
  // The binding step of Run alone: variables created where missing and every instruction
  // bound to `scope`, unless it is already bound to it.
  void Bind(PreparedBlock* prepared, Scope* scope);

 private:
  Place place_;
};

}  // namespace paddle::framework
