#include "paddle/framework/backward_builder.h"

#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/framework/control_flow_backward.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/op_builder.h"
#include "paddle/imperative/amp.h"

namespace paddle::framework {

namespace {

// Restores the op role new ops get when it goes out of scope.
class OpRoleGuard {
 public:
  explicit OpRoleGuard(OpRole role) : saved_(CurrentOpRole()) { SetCurrentOpRole(role); }
  ~OpRoleGuard() { SetCurrentOpRole(saved_); }
  OpRoleGuard(const OpRoleGuard&) = delete;
  OpRoleGuard& operator=(const OpRoleGuard&) = delete;

 private:
  OpRole saved_;
};

// Builds the gradient ops of the forward ops of one block into a gradient block: the same block
// for the main block, a new one for a control-flow sub-block. Walking the forward ops backwards,
// each variable collects gradient contributions from the ops reading it; the op writing it turns
// them into the gradient of the value it wrote. A variable written more than once (a loop
// variable, an in-place op's output) thus gets one gradient per value.
class BackwardBuilder : public GradContext {
 public:
  BackwardBuilder(const BlockDesc* forward, BlockDesc* grad,
                  const std::unordered_set<std::string>& no_grad)
      : forward_(forward), grad_(grad), no_grad_(no_grad) {}

  // The main block: gradients of the ops up to the last one writing a target. Returns the
  // gradient of every variable that received one (of its earliest value that did).
  std::map<std::string, std::string> Build(const std::vector<std::string>& targets,
                                           const std::vector<std::string>& target_grads) {
    size_t end = 0;  // one past the last op writing a target
    for (const std::string& target : targets) {
      VarDesc* var = forward_->FindVarRecursive(target);
      PD_CHECK(var != nullptr,
               errors::NotFound("append_backward: target variable '", target, "' is not defined"));
      bool written = false;
      for (size_t i = 0; i < forward_->OpSize(); ++i) {
        std::vector<std::string> outs = forward_->Op(i)->OutputNames();
        if (std::count(outs.begin(), outs.end(), target) > 0) {
          end = std::max(end, i + 1);
          written = true;
        }
      }
      PD_CHECK(written, errors::InvalidArgument("append_backward: target '", target,
                                                "' is not computed by any op of the block"));
    }
    forward_ops_ = end;
    MarkLeaves();
    MarkRequiresGrad();
    CountUses(targets);

    OpRoleGuard role(OpRole::kBackward);
    for (size_t t = 0; t < targets.size(); ++t) SeedTarget(targets[t], target_grads[t]);
    AppendGradOps();
    return grads_;
  }

  // A control-flow sub-block (see AppendSubBlockBackward).
  std::map<std::string, std::string> BuildSubBlock(
      const std::vector<std::string>& targets, const std::vector<std::string>& target_grads,
      const std::unordered_set<std::string>& requires_grad, bool loop) {
    forward_ops_ = forward_->OpSize();
    requires_grad_ = requires_grad;
    size_t marked = 0;
    do {
      marked = requires_grad_.size();
      MarkRequiresGrad();
    } while (loop && requires_grad_.size() != marked);
    CountUses(targets);

    OpRoleGuard role(OpRole::kBackward);
    for (size_t t = 0; t < targets.size(); ++t) {
      contributions_[targets[t]].push_back(target_grads[t]);
    }
    AppendGradOps();
    std::map<std::string, std::string> entry;
    for (const auto& [name, grad] : grads_) {
      if (IsExternal(name) && entry_grads_.count(name) > 0) entry[name] = grad;
    }
    return entry;
  }

  BlockDesc* grad_block() const override { return grad_; }
  bool RequiresGrad(const std::string& var) const override { return requires_grad_.count(var) > 0; }
  const std::unordered_set<std::string>& no_grad() const override { return no_grad_; }

  // A fresh name for one more gradient contribution to `var`.
  std::string NewContribution(const std::string& var) override {
    std::string name = uses_[var] <= 1 && PlainGradName(var) ? GradVarName(var) : FreshName(var);
    contributions_[var].push_back(name);
    GradVarLike(name, var);
    return name;
  }

 private:
  bool Differentiable(const VarDesc* var) const {
    return var != nullptr && var->has_tensor_desc() &&
           (IsFloating(var->dtype()) || IsComplex(var->dtype()));
  }

  // A variable by name, looked up from the forward block first: a sub-block's gradient block
  // is not nested in it.
  VarDesc* FindForwardVar(const std::string& name) const {
    VarDesc* var = forward_->FindVarRecursive(name);
    return var != nullptr ? var : grad_->FindVarRecursive(name);
  }

  // Declared outside the forward block (a control-flow sub-block reading or writing it).
  bool IsExternal(const std::string& var) const {
    return forward_ != grad_ && forward_->FindVar(var) == nullptr;
  }

  // Whether `var`'s gradient may take the name "<var>@GRAD": it has one value (so one gradient)
  // and that name cannot clash with one in the enclosing gradient block.
  bool PlainGradName(const std::string& var) const {
    auto writes = writes_.find(var);
    bool one_value =
        writes == writes_.end() || (writes->second == 1 && read_before_write_.count(var) == 0);
    return one_value && !IsExternal(var);
  }

  std::string FreshName(const std::string& var) {
    return GradVarName(var) + "@RENAME@block" + std::to_string(grad_->idx()) + "@" +
           std::to_string(renames_[var]++);
  }

  std::vector<std::string> DifferentiableInputs(const OpDesc& op) const {
    std::vector<std::string> names;
    if (const ops::OpSchema* schema = FindSchemaForOpDesc(op)) {
      if (schema->backward == nullptr) return names;
      for (size_t s = 0; s < schema->inputs.size(); ++s) {
        if (!schema->backward->differentiable[s]) continue;
        for (const std::string& name : op.Input(LegacyInputSlot(*schema, s))) {
          names.push_back(name);
        }
      }
    } else if (const ControlFlowGradMaker* maker = FindControlFlowGradMaker(op.type())) {
      for (const std::string& slot : maker->differentiable_inputs) {
        for (const std::string& name : op.Input(slot)) names.push_back(name);
      }
    }
    return names;
  }

  // Trainable leaves: read before any forward op writes them (a loop may overwrite a fed
  // variable), and not stopped.
  void MarkLeaves() {
    std::unordered_set<std::string> written;
    for (size_t i = 0; i < forward_ops_; ++i) {
      const OpDesc& op = *forward_->Op(i);
      for (const std::string& name : op.InputNames()) {
        const VarDesc* var = FindForwardVar(name);
        if (written.count(name) == 0 && Differentiable(var) && !var->stop_gradient() &&
            no_grad_.count(name) == 0) {
          requires_grad_.insert(name);
        }
      }
      for (const std::string& name : op.OutputNames()) written.insert(name);
    }
  }

  // A variable needs a gradient when it depends on one that does through ops with a backward,
  // unless it stops the flow (stop_gradient set on it, as Paddle's append_backward honours for
  // any variable) or is in `no_grad`.
  void MarkRequiresGrad() {
    for (size_t i = 0; i < forward_ops_; ++i) {
      const OpDesc& op = *forward_->Op(i);
      std::vector<std::string> inputs = DifferentiableInputs(op);
      bool any = std::any_of(inputs.begin(), inputs.end(),
                             [&](const std::string& n) { return requires_grad_.count(n) > 0; });
      if (!any) continue;
      for (const std::string& name : op.OutputNames()) {
        const VarDesc* var = FindForwardVar(name);
        if (Differentiable(var) && !var->stop_gradient() && no_grad_.count(name) == 0) {
          requires_grad_.insert(name);
        }
      }
    }
  }

  // How many gradient contributions each variable will receive and how many values it takes,
  // to name them.
  void CountUses(const std::vector<std::string>& targets) {
    for (size_t i = 0; i < forward_ops_; ++i) {
      const OpDesc& op = *forward_->Op(i);
      for (const std::string& name : DifferentiableInputs(op)) {
        if (requires_grad_.count(name) > 0) ++uses_[name];
      }
      for (const std::string& name : op.InputNames()) {
        if (writes_.count(name) == 0) read_before_write_.insert(name);
      }
      for (const std::string& name : op.OutputNames()) ++writes_[name];
    }
    for (const std::string& t : targets) ++uses_[t];
  }

  VarDesc* GradVarLike(const std::string& grad_name, const std::string& forward_name) {
    VarDesc* forward = FindForwardVar(forward_name);
    VarDesc* grad = grad_->Var(grad_name);
    grad->set_dtype(forward->dtype());
    grad->set_shape(forward->shape());
    grad->set_stop_gradient(true);
    return grad;
  }

  void SeedTarget(const std::string& target, const std::string& given) {
    if (!given.empty()) {
      contributions_[target].push_back(given);
      return;
    }
    std::string name = NewContribution(target);
    VarDesc* target_var = FindForwardVar(target);
    StaticOpCall call;
    call.inputs = {{target_var}};
    call.attrs = {Scalar(1.0), DataType::UNDEFINED};
    call.outputs = {{grad_->Var(name)}};
    AppendSchemaOp(grad_, ops::GetOp("full_like"), std::move(call), false, nullptr);
    grad_->Op(grad_->OpSize() - 1)
        ->SetAttr(MakeIntAttr(
            kOpRoleAttr, static_cast<int>(OpRole::kBackward) | static_cast<int>(OpRole::kLoss)));
  }

  // The gradient of `var`'s current value once every contribution is in: the only one, or
  // their sum. "" when none reached it.
  std::string Finalize(const std::string& var) {
    auto done = value_grads_.find(var);
    if (done != value_grads_.end()) return done->second;
    const std::vector<std::string>& parts = contributions_[var];
    if (parts.empty()) return "";
    std::string grad = parts[0];
    if (parts.size() > 1) {
      grad = PlainGradName(var) ? GradVarName(var) : FreshName(var);
      std::vector<VarDesc*> inputs;
      for (const std::string& p : parts) inputs.push_back(grad_->FindVarRecursive(p));
      StaticOpCall call;
      call.inputs = {inputs};
      call.outputs = {{GradVarLike(grad, var)}};
      AppendSchemaOp(grad_, ops::GetOp("add_n"), std::move(call), false, nullptr);
    }
    value_grads_[var] = grad;
    return grad;
  }

  // Ops before the one writing `var` see its earlier value, whose gradient starts empty.
  void EndValue(const std::string& var) {
    auto done = value_grads_.find(var);
    if (done != value_grads_.end()) grads_[var] = done->second;
    value_grads_.erase(var);
    contributions_.erase(var);
  }

  void AppendGradOps() {
    for (size_t i = forward_ops_; i-- > 0;) AppendGradOf(*forward_->Op(i));
    // What is left are the gradients of the values the variables had on entry.
    std::vector<std::string> remaining;
    for (const auto& [name, parts] : contributions_) remaining.push_back(name);
    for (const std::string& name : remaining) {
      std::string grad = Finalize(name);
      if (grad.empty()) continue;
      grads_[name] = grad;
      entry_grads_.insert(name);
    }
  }

  void AppendGradOf(const OpDesc& op) {
    std::map<std::string, std::string> out_grads;
    for (const std::string& name : op.OutputNames()) {
      std::string grad = Finalize(name);
      if (!grad.empty()) out_grads[name] = grad;
    }
    for (const std::string& name : op.OutputNames()) EndValue(name);
    if (out_grads.empty()) return;
    if (const ops::OpSchema* schema = FindSchemaForOpDesc(op)) {
      if (schema->backward != nullptr) AppendSchemaGradOf(op, *schema, out_grads);
    } else if (const ControlFlowGradMaker* maker = FindControlFlowGradMaker(op.type())) {
      maker->append(op, out_grads, this);
    }
  }

  void AppendSchemaGradOf(const OpDesc& op, const ops::OpSchema& schema,
                          const std::map<std::string, std::string>& out_grads) {
    const ops::BackwardSchema& backward = *schema.backward;
    bool any_input = false;
    std::vector<std::vector<std::string>> in_grads(schema.inputs.size());
    for (size_t s = 0; s < schema.inputs.size(); ++s) {
      if (!backward.differentiable[s]) continue;
      bool slot_any = false;
      for (const std::string& name : op.Input(LegacyInputSlot(schema, s))) {
        bool wanted = requires_grad_.count(name) > 0;
        in_grads[s].push_back(wanted ? std::string() : kEmptyVarName);
        slot_any = slot_any || wanted;
      }
      if (!slot_any) in_grads[s].clear();
      any_input = any_input || slot_any;
    }
    if (!any_input) return;

    OpDesc* grad_op = grad_->AppendOp();
    grad_op->set_type(LegacyType(schema) + "_grad");
    for (const std::string& slot : op.InputSlots()) grad_op->SetInput(slot, op.Input(slot));
    for (const std::string& slot : op.OutputSlots()) grad_op->SetInput(slot, op.Output(slot));
    for (size_t k = 0; k < schema.outputs.size(); ++k) {
      std::vector<std::string> names;
      bool any = false;
      for (const std::string& name : op.Output(LegacyOutputSlot(schema, k))) {
        auto it = out_grads.find(name);
        names.push_back(it == out_grads.end() ? kEmptyVarName : it->second);
        any = any || it != out_grads.end();
      }
      if (any) grad_op->SetInput(GradSlot(LegacyOutputSlot(schema, k)), names);
    }
    for (size_t s = 0; s < schema.inputs.size(); ++s) {
      if (in_grads[s].empty()) continue;
      std::vector<std::string> inputs = op.Input(LegacyInputSlot(schema, s));
      for (size_t j = 0; j < inputs.size(); ++j) {
        if (in_grads[s][j].empty()) in_grads[s][j] = NewContribution(inputs[j]);
      }
      grad_op->SetOutput(GradSlot(LegacyInputSlot(schema, s)), in_grads[s]);
      if (GradIsSelectedRows(op, schema, s)) {
        for (const std::string& name : in_grads[s]) {
          if (name != kEmptyVarName) grad_->Var(name)->set_kind(proto::VarType::SELECTED_ROWS);
        }
      }
    }
    for (const std::string& name : op.AttrNames()) grad_op->SetAttr(*op.FindAttr(name));
    grad_op->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(OpRole::kBackward)));
  }

  // Whether the gradient of input slot `s` is a SelectedRows: the backward declares it so for
  // an attribute (embedding's is_sparse) that `op` sets.
  static bool GradIsSelectedRows(const OpDesc& op, const ops::OpSchema& schema, size_t s) {
    int attr = schema.backward->selected_rows_attr[s];
    if (attr < 0) return false;
    std::vector<Attribute> attrs = SchemaAttrsOf(schema, op, CPUPlace(), op.type());
    return std::get<bool>(attrs[attr]);
  }

  const BlockDesc* forward_;
  BlockDesc* grad_;
  const std::unordered_set<std::string>& no_grad_;
  size_t forward_ops_ = 0;
  std::unordered_set<std::string> requires_grad_;
  std::unordered_map<std::string, int> uses_;
  std::unordered_map<std::string, int> writes_;
  std::unordered_set<std::string> read_before_write_;
  std::unordered_map<std::string, int> renames_;
  // Per variable, the contributions to the gradient of its current value, and that gradient
  // once summed.
  std::map<std::string, std::vector<std::string>> contributions_;
  std::map<std::string, std::string> value_grads_;
  // Per variable, the gradient of its earliest value that received one; entry_grads_: those
  // that are gradients of the value on entry to the block.
  std::map<std::string, std::string> grads_;
  std::unordered_set<std::string> entry_grads_;
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
  imperative::AmpSuspendGuard no_amp;  // gradient ops take their forward ops' dtypes
  return BackwardBuilder(block, block, no_grad).Build(targets, seeds);
}

std::map<std::string, std::string> AppendSubBlockBackward(
    const BlockDesc& forward_block, BlockDesc* grad_block, const std::vector<std::string>& targets,
    const std::vector<std::string>& target_grads,
    const std::unordered_set<std::string>& requires_grad,
    const std::unordered_set<std::string>& no_grad, bool loop) {
  PD_INTERNAL_ASSERT(targets.size() == target_grads.size(),
                     "one gradient variable per target expected");
  imperative::AmpSuspendGuard no_amp;
  return BackwardBuilder(&forward_block, grad_block, no_grad)
      .BuildSubBlock(targets, target_grads, requires_grad, loop);
}

}  // namespace paddle::framework
