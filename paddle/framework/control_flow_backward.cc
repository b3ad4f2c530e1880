#include "paddle/framework/control_flow_backward.h"

#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/framework/backward_builder.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/program_desc.h"

namespace paddle::framework {

namespace {

bool Differentiable(const VarDesc* var) {
  return var != nullptr && var->has_tensor_desc() &&
         (IsFloating(var->dtype()) || IsComplex(var->dtype()));
}

ProtoAttr MakeStringsAttr(const std::string& name, const std::vector<std::string>& values) {
  ProtoAttr attr;
  attr.set_name(name);
  attr.set_type(proto::STRINGS);
  for (const std::string& v : values) attr.add_strings(v);
  return attr;
}

// The gradient of conditional_block (`loop` false) or while (`loop` true): a gradient block
// built from the sub-block, run by a "<type>_grad" op in the child scopes the forward op kept
// (see control_flow_instructions.cc for the slots and attributes).
void AppendSubBlockGrad(const OpDesc& op, const std::map<std::string, std::string>& out_grads,
                        GradContext* ctx, const std::string& input_slot,
                        const std::string& steps_slot, bool loop) {
  BlockDesc* parent = ctx->grad_block();
  ProgramDesc* program = parent->program();
  const BlockDesc& forward = *program->Block(op.SubBlockIndex());
  std::vector<std::string> inputs = op.Input(input_slot);
  std::vector<std::string> outputs = op.Output("Out");

  std::unordered_set<std::string> wanted;
  for (const std::string& name : inputs) {
    if (ctx->RequiresGrad(name)) wanted.insert(name);
  }
  if (wanted.empty()) return;

  BlockDesc* grad = program->AppendBlock(*parent);
  grad->set_forward_block_idx(forward.idx());
  // The gradient block reads each output's gradient from a variable of its own: in a loop, the
  // gradient of a loop variable changes from step to step, and every loop variable has one
  // (zeros when nothing after the loop uses it) since later steps may carry it to earlier ones.
  std::vector<std::string> targets, target_grads, inner_output_grads;
  std::unordered_set<std::string> loop_vars;
  for (const std::string& name : outputs) {
    const VarDesc* var = forward.FindVarRecursive(name);
    if (!Differentiable(var) || (!loop && out_grads.count(name) == 0)) {
      inner_output_grads.push_back(kEmptyVarName);
      continue;
    }
    std::string seed = GradVarName(name) + "@block" + std::to_string(grad->idx());
    VarDesc* seed_var = grad->Var(seed);
    seed_var->set_dtype(var->dtype());
    seed_var->set_shape(var->shape());
    seed_var->set_stop_gradient(true);
    targets.push_back(name);
    target_grads.push_back(seed);
    inner_output_grads.push_back(seed);
    if (loop) loop_vars.insert(name);
  }
  std::map<std::string, std::string> entry =
      AppendSubBlockBackward(forward, grad, targets, target_grads, wanted, ctx->no_grad(), loop);

  std::vector<std::string> output_grads, inner_input_grads, input_grads;
  for (const std::string& name : outputs) {
    auto it = out_grads.find(name);
    output_grads.push_back(it == out_grads.end() ? kEmptyVarName : it->second);
  }
  std::unordered_set<std::string> done;
  for (const std::string& name : inputs) {
    auto it = entry.find(name);
    inner_input_grads.push_back(it == entry.end() ? kEmptyVarName : it->second);
    // A loop variable's gradient is the output's own when the loop runs no step.
    bool has_grad = it != entry.end() || loop_vars.count(name) > 0;
    bool first = done.insert(name).second;
    input_grads.push_back(wanted.count(name) > 0 && has_grad && first ? ctx->NewContribution(name)
                                                                      : kEmptyVarName);
  }

  OpDesc* grad_op = parent->AppendOp();
  grad_op->set_type(op.type() + "_grad");
  for (const std::string& slot : op.InputSlots()) grad_op->SetInput(slot, op.Input(slot));
  grad_op->SetInput("Out", outputs);
  grad_op->SetInput(GradSlot("Out"), output_grads);
  grad_op->SetInput(steps_slot, op.Output(steps_slot));
  grad_op->SetOutput(GradSlot(input_slot), input_grads);
  for (const std::string& name : op.AttrNames()) grad_op->SetAttr(*op.FindAttr(name));
  grad_op->SetAttr(MakeBlockAttr("sub_block", grad->idx()));
  grad_op->SetAttr(MakeStringsAttr("original_output_grad", inner_output_grads));
  grad_op->SetAttr(MakeStringsAttr("original_input_grad", inner_input_grads));
  grad_op->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(OpRole::kBackward)));
}

void AppendConditionalBlockGrad(const OpDesc& op,
                                const std::map<std::string, std::string>& out_grads,
                                GradContext* ctx) {
  AppendSubBlockGrad(op, out_grads, ctx, "Input", "Scope", false);
}

void AppendWhileGrad(const OpDesc& op, const std::map<std::string, std::string>& out_grads,
                     GradContext* ctx) {
  AppendSubBlockGrad(op, out_grads, ctx, "X", "StepScopes", true);
}

// select_output sends Out's gradient to the input select_input picked, as in Paddle.
void AppendSelectInputGrad(const OpDesc& op, const std::map<std::string, std::string>& out_grads,
                           GradContext* ctx) {
  std::vector<std::string> outs = op.Output("Out");
  PD_CHECK(outs.size() == 1, errors::InvalidArgument("select_input: slot 'Out' must name one "
                                                     "variable, but names ",
                                                     outs.size()));
  std::vector<std::string> input_grads;
  bool any = false;
  for (const std::string& name : op.Input("X")) {
    bool wanted = ctx->RequiresGrad(name);
    input_grads.push_back(wanted ? ctx->NewContribution(name) : kEmptyVarName);
    any = any || wanted;
  }
  if (!any) return;
  OpDesc* grad_op = ctx->grad_block()->AppendOp();
  grad_op->set_type("select_output");
  grad_op->SetInput("X", {out_grads.at(outs[0])});
  grad_op->SetInput("Mask", op.Input("Mask"));
  grad_op->SetOutput("Out", input_grads);
  grad_op->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(OpRole::kBackward)));
}

}  // namespace

const ControlFlowGradMaker* FindControlFlowGradMaker(const std::string& op_type) {
  static const auto* makers = new std::unordered_map<std::string, ControlFlowGradMaker>{
      {"conditional_block", {{"Input"}, &AppendConditionalBlockGrad}},
      {"while", {{"X"}, &AppendWhileGrad}},
      {"select_input", {{"X"}, &AppendSelectInputGrad}},
  };
  auto it = makers->find(op_type);
  return it == makers->end() ? nullptr : &it->second;
}

}  // namespace paddle::framework
