// Static-graph backward: appends to a block the gradient ops of the ops between its inputs and
// `targets`, from the backward schema (one "<legacy type>_grad" op per forward op), summing the
// gradients of a variable used more than once.
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

}  // namespace paddle::framework
