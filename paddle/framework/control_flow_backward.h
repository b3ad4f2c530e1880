// Gradients of the control-flow ops, which have no op schema: conditional_block and while get a
// gradient op (conditional_block_grad, while_grad) running a gradient block built from their
// sub-block; select_input gets select_output. The static backward (backward_builder.h) asks for
// them by op type.
#pragma once

#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "paddle/framework/block_desc.h"

namespace paddle::framework {

// What a control-flow gradient maker sees of the backward pass over the op's block.
class GradContext {
 public:
  virtual ~GradContext() = default;
  // The block the gradient ops go into.
  virtual BlockDesc* grad_block() const = 0;
  // Whether a gradient is wanted for `var` as the op reads it.
  virtual bool RequiresGrad(const std::string& var) const = 0;
  // Declares a variable for one more gradient contribution to `var` as the op reads it.
  virtual std::string NewContribution(const std::string& var) = 0;
  virtual const std::unordered_set<std::string>& no_grad() const = 0;
};

struct ControlFlowGradMaker {
  // The input slots gradients flow into: the op's floating outputs need a gradient when a
  // variable of these slots does.
  std::vector<std::string> differentiable_inputs;
  // Appends the gradient op of `op`; `out_grads` maps each output that has a gradient to its
  // gradient variable.
  void (*append)(const OpDesc& op, const std::map<std::string, std::string>& out_grads,
                 GradContext* ctx);
};

// Null for op types that are not control flow.
const ControlFlowGradMaker* FindControlFlowGradMaker(const std::string& op_type);

}  // namespace paddle::framework
