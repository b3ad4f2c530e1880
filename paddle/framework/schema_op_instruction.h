// The instruction for a schema op: runs its kernel.
#pragma once

#include <memory>

#include "paddle/framework/instruction.h"
#include "paddle/ops/op_schema.h"

namespace paddle::framework {

std::unique_ptr<Instruction> CreateSchemaOpInstruction(const ops::OpSchema& schema,
                                                       const OpDesc& op, const PrepareContext& ctx);

}  // namespace paddle::framework
