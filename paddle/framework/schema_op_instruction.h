// The instructions for schema ops (run their kernel) and for their gradients (run the backward
// rule, as dygraph does).
#pragma once

#include <memory>

#include "paddle/framework/instruction.h"
#include "paddle/ops/op_schema.h"

namespace paddle::framework {

std::unique_ptr<Instruction> CreateSchemaOpInstruction(const ops::OpSchema& schema,
                                                       const OpDesc& op, const PrepareContext& ctx);
std::unique_ptr<Instruction> CreateGradOpInstruction(const ops::OpSchema& forward, const OpDesc& op,
                                                     const PrepareContext& ctx);

}  // namespace paddle::framework
