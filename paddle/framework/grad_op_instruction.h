// The instruction for the gradient of a schema op ("<legacy type>_grad"): runs the op's backward
// rule, as dygraph does.
#pragma once

#include <memory>

#include "paddle/framework/instruction.h"
#include "paddle/ops/op_schema.h"

namespace paddle::framework {

std::unique_ptr<Instruction> CreateGradOpInstruction(const ops::OpSchema& forward, const OpDesc& op,
                                                     const PrepareContext& ctx);

}  // namespace paddle::framework
