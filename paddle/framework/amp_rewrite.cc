#include "paddle/framework/amp_rewrite.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/imperative/amp.h"

namespace paddle::framework {

namespace {

// Paddle's op_role bits that mark an op outside the forward pass: backward, optimize, and the
// learning-rate schedule.
constexpr int kNotForwardRoles = 1 | 2 | 16;

bool IsForward(const OpDesc& op) {
  const ProtoAttr* role = op.FindAttr(kOpRoleAttr);
  return role == nullptr || (role->i() & kNotForwardRoles) == 0;
}

bool WritesAnInput(const OpDesc& op) {
  std::vector<std::string> inputs = op.InputNames();
  std::set<std::string> read(inputs.begin(), inputs.end());
  for (const std::string& name : op.OutputNames()) {
    if (read.count(name) > 0) return true;
  }
  return false;
}

// The schema op `op` is rebuilt as, or null when it is kept as it is.
const ops::OpSchema* Rebuildable(const OpDesc& op) {
  if (!IsForward(op) || op.SubBlockIndex() >= 0 || WritesAnInput(op)) return nullptr;
  return FindSchemaForOpDesc(op);
}

std::vector<VarDesc*> Vars(BlockDesc* block, const std::vector<std::string>& names,
                           const std::string& where) {
  std::vector<VarDesc*> vars;
  for (const std::string& name : names) {
    VarDesc* var = block->FindVarRecursive(name);
    PD_CHECK(var != nullptr,
             errors::NotFound(where, ": variable '", name, "' is not in the program"));
    vars.push_back(var);
  }
  return vars;
}

bool Touches(const OpDesc& op, const std::set<std::string>& vars) {
  if (vars.empty()) return false;
  for (const auto& names : {op.InputNames(), op.OutputNames()}) {
    for (const std::string& name : names) {
      if (vars.count(name) > 0) return true;
    }
  }
  return false;
}

// Casts the 16-bit floating inputs of a call to float32 (an op AMP must leave in float32).
void CastLowInputsToFloat32(BlockDesc* block, StaticOpCall* call, const NameFn& make_name) {
  const ops::OpSchema& cast = ops::GetOp("cast");
  for (std::vector<VarDesc*>& slot : call->inputs) {
    for (VarDesc*& var : slot) {
      if (!var->has_tensor_desc() ||
          (var->dtype() != DataType::FLOAT16 && var->dtype() != DataType::BFLOAT16)) {
        continue;
      }
      StaticOpCall cast_call;
      cast_call.inputs = {{var}};
      cast_call.attrs = {DataType::FLOAT32};
      var = AppendSchemaOp(block, cast, std::move(cast_call), false, make_name).outputs[0][0];
    }
  }
}

}  // namespace

int RebuildForwardOpsWithAmp(BlockDesc* block, const std::set<std::string>& float32_vars,
                             const NameFn& make_name) {
  PD_CHECK(imperative::AmpEnabled(),
           errors::PreconditionNotMet("static AMP: the program is rewritten under an AMP state, "
                                      "but none is enabled"));
  std::vector<OpDesc> originals;
  for (size_t i = 0; i < block->OpSize(); ++i) originals.push_back(*block->Op(i));
  const size_t count = originals.size();
  const OpRole role = CurrentOpRole();
  int casts = 0;
  for (const OpDesc& original : originals) {
    const ops::OpSchema* schema = Rebuildable(original);
    if (schema == nullptr) {
      *block->AppendOp() = original;
      continue;
    }
    StaticOpCall call;
    for (size_t i = 0; i < schema->inputs.size(); ++i) {
      call.inputs.push_back(
          Vars(block, original.Input(LegacyInputSlot(*schema, i)), original.type()));
    }
    call.attrs = SchemaAttrsOf(*schema, original, CPUPlace(), original.type());
    for (size_t k = 0; k < schema->outputs.size(); ++k) {
      call.outputs.push_back(
          Vars(block, original.Output(LegacyOutputSlot(*schema, k)), original.type()));
    }
    const size_t before = block->OpSize();
    SetCurrentOpRole(OpRole::kForward);
    AppendedOp rebuilt;
    if (Touches(original, float32_vars)) {
      imperative::AmpSuspendGuard float32;
      CastLowInputsToFloat32(block, &call, make_name);
      rebuilt = AppendSchemaOp(block, *schema, std::move(call), false, make_name);
    } else {
      rebuilt = AppendSchemaOp(block, *schema, std::move(call), false, make_name);
    }
    SetCurrentOpRole(role);
    casts += static_cast<int>(block->OpSize() - before) - 1;
    // The attributes outside the schema (op_role with its loss bit, name scopes, call stacks,
    // Paddle's extra ones) as the original had them.
    for (const ProtoAttr& attr : original.proto().attrs()) {
      if (!rebuilt.op->HasAttr(attr.name()) || attr.name() == kOpRoleAttr) {
        rebuilt.op->SetAttr(attr);
      }
    }
  }
  block->RemoveOps(0, count);
  return casts;
}

}  // namespace paddle::framework
