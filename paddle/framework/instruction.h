// Instruction: one prepared op of a block. Prepare decides everything that does not depend on
// the scope (the op's implementation, kernel, attributes); Bind resolves variables in a scope
// once; Run only executes. Op types with their own semantics (feed, fetch, control flow) register
// a factory; every other type is a schema op or the gradient of one.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "paddle/common/place.h"
#include "paddle/framework/op_desc.h"
#include "paddle/framework/program_desc.h"
#include "paddle/framework/scope.h"

namespace paddle::framework {

class Executor;

struct PrepareContext {
  const ProgramDesc* program;
  const BlockDesc* block;
  size_t op_index;
  Place place;
  Executor* executor;
};

class Instruction {
 public:
  explicit Instruction(const OpDesc& op, std::string where) : op_(op), where_(std::move(where)) {}
  virtual ~Instruction() = default;

  virtual void Bind(Scope* scope) = 0;
  virtual void Run() = 0;

  // Inputs whose storage the op never reads (only their shape): they do not keep a buffer alive.
  virtual std::vector<std::string> NoNeedBufferInputs() const { return {}; }
  // (input, output) variable pairs that may share one buffer, as the op declares.
  virtual std::vector<std::pair<std::string, std::string>> InplaceCandidates() const { return {}; }
  // Asks the instruction to run the given pairs in place (a subset of InplaceCandidates).
  virtual void EnableInplace(const std::vector<std::pair<std::string, std::string>>& /*pairs*/) {}
  // Outputs that may alias another variable's storage after the op (views, gradients passed
  // through): they must not be written in place later.
  virtual bool OutputsMayAlias() const { return false; }

  const OpDesc& op() const { return op_; }
  // "op 'relu' (block 0, op 3)", for error messages.
  const std::string& where() const { return where_; }

 protected:
  // The variable `name` bound to an op slot; NotFound naming the op when it does not exist.
  Variable* LookUp(Scope* scope, const std::string& slot, const std::string& name) const;

  const OpDesc& op_;
  std::string where_;
};

using InstructionFactory =
    std::function<std::unique_ptr<Instruction>(const OpDesc&, const PrepareContext&)>;

// Called from static initialisers of the files implementing special op types.
bool RegisterInstruction(const std::string& op_type, InstructionFactory factory);
// Builds the instruction for `op`: a registered factory, else a schema op, else a schema op's
// gradient; Unimplemented naming the op when none applies.
std::unique_ptr<Instruction> CreateInstruction(const OpDesc& op, const PrepareContext& ctx);

std::string DescribeOp(const OpDesc& op, const PrepareContext& ctx);

// The one variable of a slot (`names`, from OpDesc::Input/Output); InvalidArgument naming
// `where` and the slot otherwise.
std::string SingleName(const std::vector<std::string>& names, const std::string& slot,
                       const std::string& where);

}  // namespace paddle::framework
