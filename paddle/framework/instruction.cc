#include "paddle/framework/instruction.h"

#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/framework/grad_op_instruction.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/schema_op_instruction.h"

namespace paddle::framework {

namespace {

std::unordered_map<std::string, InstructionFactory>& Factories() {
  static auto* factories = new std::unordered_map<std::string, InstructionFactory>();
  return *factories;
}

}  // namespace

bool RegisterInstruction(const std::string& op_type, InstructionFactory factory) {
  Factories()[op_type] = std::move(factory);
  return true;
}

std::string DescribeOp(const OpDesc& op, const PrepareContext& ctx) {
  return "op '" + op.type() + "' (block " + std::to_string(ctx.block->idx()) + ", op " +
         std::to_string(ctx.op_index) + ")";
}

std::string SingleName(const std::vector<std::string>& names, const std::string& slot,
                       const std::string& where) {
  PD_CHECK(names.size() == 1,
           errors::InvalidArgument(where, ": slot '", slot, "' must name one variable, but names ",
                                   names.size()));
  return names[0];
}

std::unique_ptr<Instruction> CreateInstruction(const OpDesc& op, const PrepareContext& ctx) {
  auto it = Factories().find(op.type());
  if (it != Factories().end()) return it->second(op, ctx);
  if (const ops::OpSchema* schema = FindSchemaForOpDesc(op)) {
    return CreateSchemaOpInstruction(*schema, op, ctx);
  }
  if (const ops::OpSchema* forward = FindForwardSchemaForGradDesc(op)) {
    return CreateGradOpInstruction(*forward, op, ctx);
  }
  PD_THROW(errors::Unimplemented(DescribeOp(op, ctx),
                                 ": no kernel or implementation is "
                                 "registered for op type '",
                                 op.type(), "'"));
}

Variable* Instruction::LookUp(Scope* scope, const std::string& slot,
                              const std::string& name) const {
  Variable* var = scope->FindVar(name);
  PD_CHECK(var != nullptr, errors::NotFound(where_, ": variable '", name, "' (", slot,
                                            ") is not defined in the program or the scope"));
  return var;
}

}  // namespace paddle::framework
