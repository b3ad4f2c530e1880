#include "paddle/framework/backward_builder.h"

#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/op_builder.h"

namespace paddle::framework {

namespace {

class BackwardBuilder {
 public:
  BackwardBuilder(BlockDesc* block, const std::unordered_set<std::string>& no_grad)
      : block_(block), no_grad_(no_grad) {}

  std::map<std::string, std::string> Build(const std::vector<std::string>& targets,
                                           const std::vector<std::string>& target_grads) {
    size_t end = 0;  // one past the last op writing a target
    for (const std::string& target : targets) {
      VarDesc* var = block_->FindVarRecursive(target);
      PD_CHECK(var != nullptr,
               errors::NotFound("append_backward: target variable '", target, "' is not defined"));
      bool written = false;
      for (size_t i = 0; i < block_->OpSize(); ++i) {
        std::vector<std::string> outs = block_->Op(i)->OutputNames();
        if (std::count(outs.begin(), outs.end(), target) > 0) {
          end = std::max(end, i + 1);
          written = true;
        }
      }
      PD_CHECK(written, errors::InvalidArgument("append_backward: target '", target,
                                                "' is not computed by any op of the block"));
    }
    forward_ops_ = end;
    MarkRequiresGrad();
    CountUses(targets);

    OpRole saved_role = CurrentOpRole();
    SetCurrentOpRole(OpRole::kBackward);
    for (size_t t = 0; t < targets.size(); ++t) SeedTarget(targets[t], target_grads[t]);
    for (size_t i = end; i-- > 0;) AppendGradOf(*block_->Op(i));
    for (const auto& [name, parts] : contributions_) Finalize(name);
    SetCurrentOpRole(saved_role);
    return final_grads_;
  }

 private:
  bool Differentiable(const VarDesc* var) const {
    return var != nullptr && var->has_tensor_desc() && IsFloating(var->dtype());
  }

  // A variable needs a gradient when it is a trainable leaf or depends on one through ops with
  // a backward, unless it or a variable in `no_grad` stops the flow.
  void MarkRequiresGrad() {
    std::unordered_set<std::string> written;
    for (size_t i = 0; i < forward_ops_; ++i) {
      for (const std::string& name : block_->Op(i)->OutputNames()) written.insert(name);
    }
    for (size_t i = 0; i < forward_ops_; ++i) {
      const OpDesc& op = *block_->Op(i);
      for (const std::string& name : op.InputNames()) {
        const VarDesc* var = block_->FindVarRecursive(name);
        if (written.count(name) == 0 && Differentiable(var) && !var->stop_gradient() &&
            no_grad_.count(name) == 0) {
          requires_grad_.insert(name);
        }
      }
      const ops::OpSchema* schema = FindSchemaForOpDesc(op);
      if (schema == nullptr || schema->backward == nullptr) continue;
      bool any = false;
      for (size_t s = 0; s < schema->inputs.size(); ++s) {
        if (!schema->backward->differentiable[s]) continue;
        for (const std::string& name : op.Input(LegacyInputSlot(*schema, s))) {
          any = any || requires_grad_.count(name) > 0;
        }
      }
      if (!any) continue;
      for (const std::string& name : op.OutputNames()) {
        const VarDesc* var = block_->FindVarRecursive(name);
        if (Differentiable(var) && no_grad_.count(name) == 0) requires_grad_.insert(name);
      }
    }
  }

  // How many gradient contributions each variable will receive, to name them.
  void CountUses(const std::vector<std::string>& targets) {
    for (size_t i = 0; i < forward_ops_; ++i) {
      const OpDesc& op = *block_->Op(i);
      const ops::OpSchema* schema = FindSchemaForOpDesc(op);
      if (schema == nullptr || schema->backward == nullptr) continue;
      for (size_t s = 0; s < schema->inputs.size(); ++s) {
        if (!schema->backward->differentiable[s]) continue;
        for (const std::string& name : op.Input(LegacyInputSlot(*schema, s))) {
          if (requires_grad_.count(name) > 0) ++uses_[name];
        }
      }
    }
    for (const std::string& t : targets) ++uses_[t];
  }

  VarDesc* GradVarLike(const std::string& grad_name, const std::string& forward_name) {
    VarDesc* forward = block_->FindVarRecursive(forward_name);
    VarDesc* grad = block_->Var(grad_name);
    grad->set_dtype(forward->dtype());
    grad->set_shape(forward->shape());
    grad->set_stop_gradient(true);
    return grad;
  }

  // A fresh name for one more gradient contribution to `var`.
  std::string NewContribution(const std::string& var) {
    std::vector<std::string>& parts = contributions_[var];
    std::string name = uses_[var] <= 1
                           ? GradVarName(var)
                           : GradVarName(var) + "@RENAME@block" + std::to_string(block_->idx()) +
                                 "@" + std::to_string(parts.size());
    parts.push_back(name);
    GradVarLike(name, var);
    return name;
  }

  void SeedTarget(const std::string& target, const std::string& given) {
    if (!given.empty()) {
      contributions_[target].push_back(given);
      return;
    }
    std::string name = NewContribution(target);
    VarDesc* target_var = block_->FindVarRecursive(target);
    StaticOpCall call;
    call.inputs = {{target_var}};
    call.attrs = {Scalar(1.0), DataType::UNDEFINED};
    call.outputs = {{block_->Var(name)}};
    AppendSchemaOp(block_, ops::GetOp("full_like"), std::move(call), false, nullptr);
    block_->Op(block_->OpSize() - 1)
        ->SetAttr(MakeIntAttr(
            kOpRoleAttr, static_cast<int>(OpRole::kBackward) | static_cast<int>(OpRole::kLoss)));
  }

  // The gradient of `var` once every contribution is in: the only one, or their sum.
  std::string Finalize(const std::string& var) {
    auto done = final_grads_.find(var);
    if (done != final_grads_.end()) return done->second;
    const std::vector<std::string>& parts = contributions_[var];
    if (parts.empty()) return "";
    std::string grad = parts[0];
    if (parts.size() > 1) {
      grad = GradVarName(var);
      std::vector<VarDesc*> inputs;
      for (const std::string& p : parts) inputs.push_back(block_->FindVarRecursive(p));
      StaticOpCall call;
      call.inputs = {inputs};
      call.outputs = {{GradVarLike(grad, var)}};
      AppendSchemaOp(block_, ops::GetOp("add_n"), std::move(call), false, nullptr);
    }
    final_grads_[var] = grad;
    return grad;
  }

  void AppendGradOf(const OpDesc& op) {
    const ops::OpSchema* schema = FindSchemaForOpDesc(op);
    if (schema == nullptr || schema->backward == nullptr) return;
    const ops::BackwardSchema& backward = *schema->backward;
    // Output gradients available to this op.
    std::vector<std::vector<std::string>> out_grads(schema->outputs.size());
    bool any_out_grad = false;
    for (size_t k = 0; k < schema->outputs.size(); ++k) {
      for (const std::string& name : op.Output(LegacyOutputSlot(*schema, k))) {
        std::string grad = contributions_.count(name) ? Finalize(name) : "";
        out_grads[k].push_back(grad.empty() ? kEmptyVarName : grad);
        any_out_grad = any_out_grad || !grad.empty();
      }
    }
    if (!any_out_grad) return;
    bool any_input = false;
    std::vector<std::vector<std::string>> in_grads(schema->inputs.size());
    for (size_t s = 0; s < schema->inputs.size(); ++s) {
      if (!backward.differentiable[s]) continue;
      bool slot_any = false;
      for (const std::string& name : op.Input(LegacyInputSlot(*schema, s))) {
        bool wanted = requires_grad_.count(name) > 0;
        in_grads[s].push_back(wanted ? std::string() : kEmptyVarName);
        slot_any = slot_any || wanted;
      }
      if (!slot_any) in_grads[s].clear();
      any_input = any_input || slot_any;
    }
    if (!any_input) return;

    OpDesc* grad_op = block_->AppendOp();
    grad_op->set_type(LegacyType(*schema) + "_grad");
    for (const std::string& slot : op.InputSlots()) grad_op->SetInput(slot, op.Input(slot));
    for (const std::string& slot : op.OutputSlots()) grad_op->SetInput(slot, op.Output(slot));
    for (size_t k = 0; k < schema->outputs.size(); ++k) {
      const std::vector<std::string>& names = out_grads[k];
      bool any = std::any_of(names.begin(), names.end(),
                             [](const std::string& n) { return n != kEmptyVarName; });
      if (!any) continue;
      grad_op->SetInput(GradSlot(LegacyOutputSlot(*schema, k)), names);
    }
    for (size_t s = 0; s < schema->inputs.size(); ++s) {
      if (in_grads[s].empty()) continue;
      std::vector<std::string> inputs = op.Input(LegacyInputSlot(*schema, s));
      for (size_t j = 0; j < inputs.size(); ++j) {
        if (in_grads[s][j].empty()) in_grads[s][j] = NewContribution(inputs[j]);
      }
      grad_op->SetOutput(GradSlot(LegacyInputSlot(*schema, s)), in_grads[s]);
    }
    for (const std::string& name : op.AttrNames()) grad_op->SetAttr(*op.FindAttr(name));
    grad_op->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(OpRole::kBackward)));
  }

  BlockDesc* block_;
  const std::unordered_set<std::string>& no_grad_;
  size_t forward_ops_ = 0;
  std::unordered_set<std::string> requires_grad_;
  std::unordered_map<std::string, int> uses_;
  std::map<std::string, std::vector<std::string>> contributions_;
  std::map<std::string, std::string> final_grads_;
};

}  // namespace

std::map<std::string, std::string> AppendBackward(BlockDesc* block,
                                                  const std::vector<std::string>& targets,
                                                  const std::vector<std::string>& target_grads,
                                                  const std::unordered_set<std::string>& no_grad) {
  PD_CHECK(target_grads.empty() || target_grads.size() == targets.size(),
           errors::InvalidArgument("gradients: ", targets.size(), " targets but ",
                                   target_grads.size(), " target gradients"));
  std::vector<std::string> seeds = target_grads;
  seeds.resize(targets.size());
  return BackwardBuilder(block, no_grad).Build(targets, seeds);
}

}  // namespace paddle::framework
