// Static-graph backward: appends to a block the gradient ops of the ops between its inputs and
// `targets`, from the backward schema (one "<legacy type>_grad" op per forward op), summing the
// gradients of a variable used more than once. Control-flow ops get theirs from
// control_flow_backward.h, which builds their sub-blocks' gradients with AppendSubBlockBackward.
#pragma once

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "paddle/framework/block_desc.h"

namespace paddle::framework {

// `target_grads`: per target, the variable holding its initial gradient, or "" for ones.
// `no_grad`: variables no gradient flows into. Returns each variable that received a gradient,
// mapped to its gradient variable.
std::map<std::string, std::string> AppendBackward(BlockDesc* block,
                                                  const std::vector<std::string>& targets,
                                                  const std::vector<std::string>& target_grads,
                                                  const std::unordered_set<std::string>& no_grad);

// Appends to `grad_block` the gradient ops of every op of `forward_block`, a control-flow
// sub-block. `targets`: variables from outside the block that it writes, each with the variable
// of `grad_block` holding the gradient of the value written. `requires_grad`: variables from
// outside the block that it reads and whose gradient is wanted. `loop`: the block runs once per
// loop step, so what a step writes to a variable it also reads reaches that read in the next
// step. Returns, for each variable from outside the block that received a gradient, the
// variable of `grad_block` holding the gradient of its value on entry to the block.
std::map<std::string, std::string> AppendSubBlockBackward(
    const BlockDesc& forward_block, BlockDesc* grad_block, const std::vector<std::string>& targets,
    const std::vector<std::string>& target_grads,
    const std::unordered_set<std::string>& requires_grad,
    const std::unordered_set<std::string>& no_grad, bool loop);

}  // namespace paddle::framework
