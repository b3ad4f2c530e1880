// The control-flow ops. conditional_block and while run a sub-block of the program, prepared
// once with the op, in child scopes of the scope they run in; conditional_block_grad and
// while_grad run the gradient block built for that sub-block (control_flow_backward.h) in the
// same child scopes. select_input picks one of its inputs (it merges cond's branches) and
// select_output, its gradient, routes a tensor to one of its outputs.
//
// How a sub-block exchanges values with the scope its op runs in:
// - It reads the op's inputs (Input / X) through copies made in its child scope: it then sees
//   the values the op saw even where an enclosing sub-block already holds a variable of that name
//   for a later write, and its gradient block reads the same values afterwards.
// - Ops write their outputs into the scope they run in, so the sub-block's writes to the op's
//   outputs (Out) land in the child scope; the op then publishes them as its own outputs.
// - When the program holds the op's gradient, each run (conditional_block) or loop step (while)
//   gets its own child scope, kept in the op's STEP_SCOPES variable until the op runs again, and
//   the gradient op runs the gradient block in them. A kept scope holds the op's outputs as they
//   were when it started (for a loop step, the loop variables its ops read), which is what that
//   step's gradient needs. Without a gradient op, a run uses one child scope and drops it.
#include <algorithm>
#include <optional>

#include "paddle/common/errors.h"
#include "paddle/framework/executor.h"
#include "paddle/framework/instruction.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/memory/memcpy.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/full.h"

namespace paddle::framework {

namespace {

std::vector<std::string> StringsAttr(const OpDesc& op, const std::string& name,
                                     const std::string& where) {
  const ProtoAttr* attr = op.FindAttr(name);
  PD_CHECK(
      attr != nullptr && attr->type() == proto::STRINGS,
      errors::InvalidArgument(where, ": attribute '", name, "' (a list of strings) is missing"));
  return {attr->strings().begin(), attr->strings().end()};
}

bool BoolAttr(const OpDesc& op, const std::string& name, bool default_value) {
  const ProtoAttr* attr = op.FindAttr(name);
  return attr != nullptr && attr->type() == proto::BOOLEAN ? attr->b() : default_value;
}

// The sub-block `op` runs (its `sub_block` attribute), checked.
int SubBlockOf(const OpDesc& op, const PrepareContext& ctx, const std::string& where) {
  int idx = op.SubBlockIndex();
  // Sub-blocks come after the block of their op (as Paddle appends them), so a chain of
  // control-flow ops can never lead back to a block it is in.
  PD_CHECK(idx > ctx.block->idx() && static_cast<size_t>(idx) < ctx.program->Size(),
           errors::InvalidArgument(where, ": attribute 'sub_block' is ", idx,
                                   "; expected a block after block ", ctx.block->idx(),
                                   " (the program has ", ctx.program->Size(), " blocks)"));
  return idx;
}

// The gradient blocks that the program's `grad_type` ops run for sub-block `forward_block`.
std::vector<const BlockDesc*> GradBlocksOf(const ProgramDesc& program, int forward_block,
                                           const std::string& grad_type) {
  std::vector<const BlockDesc*> blocks;
  for (size_t b = 0; b < program.Size(); ++b) {
    for (const auto& op : program.Block(b)->ops()) {
      int sub = op->SubBlockIndex();
      if (op->type() != grad_type || sub <= 0 || static_cast<size_t>(sub) >= program.Size()) {
        continue;
      }
      if (program.Block(sub)->forward_block_idx() == forward_block) {
        blocks.push_back(program.Block(sub));
      }
    }
  }
  return blocks;
}

// Control-flow ops read a condition or a mask: a tensor of one element of `expected` type.
void CheckScalar(const DenseTensor& t, const std::string& where, const std::string& what,
                 const std::string& name, DataType expected) {
  PD_CHECK(t.initialized(),
           errors::PreconditionNotMet(where, ": ", what, " '", name, "' holds no data"));
  PD_CHECK(t.dtype() == expected, errors::InvalidType(where, ": ", what, " '", name, "' must be a ",
                                                      DataTypeName(expected), " tensor, but it is ",
                                                      DataTypeName(t.dtype())));
  PD_CHECK(t.numel() == 1, errors::InvalidArgument(where, ": ", what, " '", name,
                                                   "' must hold one element, but its shape is ",
                                                   t.dims().ToString()));
}

bool ReadCondition(const DenseTensor& t, const std::string& where, const std::string& name) {
  CheckScalar(t, where, "the condition", name, DataType::BOOL);
  bool value = false;
  memory::Copy(CPUPlace(), &value, t.place(), t.raw_data(), sizeof(bool));
  return value;
}

int ReadMask(const DenseTensor& t, const std::string& where, const std::string& name) {
  CheckScalar(t, where, "the mask", name, DataType::INT32);
  int32_t value = 0;
  memory::Copy(CPUPlace(), &value, t.place(), t.raw_data(), sizeof(int32_t));
  return value;
}

DenseTensor ZerosLike(const DenseTensor& t) {
  return *ops::full(t.dims().ToVector(), 0, t.dtype(), t.place()).impl();
}

// conditional_block and while: the prepared sub-block, the child scopes it runs in, the op's
// inputs copied into them and its outputs published from them.
class SubBlockInstruction : public Instruction {
 public:
  // `grad_type`: the gradient op type, whose presence in the program makes runs keep their
  // child scopes (unless `for_test`).
  SubBlockInstruction(const OpDesc& op, const PrepareContext& ctx, const std::string& input_slot,
                      const std::string& steps_slot, const std::string& grad_type, bool for_test)
      : Instruction(op, DescribeOp(op, ctx)),
        executor_(ctx.executor),
        input_names_(op.Input(input_slot)),
        output_names_(op.Output("Out")),
        steps_name_(SingleName(op.Output(steps_slot), steps_slot, where_)) {
    int sub_block = SubBlockOf(op, ctx, where_);
    PrepareOptions options;
    // The gradient block reads the forward values of each step: keep them all.
    std::vector<const BlockDesc*> grads;
    if (!for_test) grads = GradBlocksOf(*ctx.program, sub_block, grad_type);
    for (const BlockDesc* grad : grads) {
      keep_steps_ = true;
      for (const auto& grad_op : grad->ops()) {
        for (const std::string& name : grad_op->InputNames()) options.skip_vars.push_back(name);
      }
    }
    sub_ = executor_->Prepare(*ctx.program, sub_block, options);
  }

  void Bind(Scope* scope) override {
    scope_ = scope;
    inputs_.clear();
    for (const std::string& name : input_names_) inputs_.push_back(LookUp(scope, "input", name));
    seeded_.clear();
    for (size_t i = 0; i < input_names_.size(); ++i) {
      if (std::count(output_names_.begin(), output_names_.end(), input_names_[i]) == 0) {
        seeded_.push_back(i);
      }
    }
    outputs_.clear();
    output_sources_.clear();
    for (const std::string& name : output_names_) {
      Variable* seen = scope->FindVar(name);
      outputs_.push_back(scope->Var(name));
      if (seen != nullptr && seen != outputs_.back()) {
        output_sources_.emplace_back(outputs_.back(), seen);
      }
    }
    steps_ = scope->Var(steps_name_)->step_scopes();
  }

  bool OutputsMayAlias() const override { return true; }

 protected:
  // Drops the child scopes kept from the previous run, and starts each output that the op also
  // sees outside its scope (a loop variable of an enclosing loop) at that value.
  void BeginRun() {
    for (Scope* step : *steps_) scope_->DeleteScope(step);
    steps_->clear();
    for (const auto& [out, source] : output_sources_) *out->tensor() = *source->tensor();
  }

  Scope* NewStepScope() {
    Scope* step = &scope_->NewScope();
    for (size_t i : seeded_) *step->Var(input_names_[i])->tensor() = *inputs_[i]->tensor();
    return step;
  }

  void RunSubBlock(Scope* step, bool bound) {
    if (bound) {
      executor_->Run(sub_.get(), step);
    } else {
      executor_->Run(sub_.get(), step);
    }
  }

  // Makes what the sub-block wrote in `step` the op's outputs.
  void Publish(Scope* step) {
    for (size_t i = 0; i < output_names_.size(); ++i) {
      DenseTensor* out = outputs_[i]->tensor();
      Variable* local = step->FindLocalVar(output_names_[i]);
      if (local == nullptr) {
        if (keep_steps_) *step->Var(output_names_[i])->tensor() = *out;
        continue;
      }
      if (keep_steps_) {
        std::swap(*local->tensor(), *out);
      } else {
        // The next loop step writes a fresh buffer rather than through the published one.
        *out = std::move(*local->tensor());
        *local->tensor() = DenseTensor();
      }
    }
  }

  void EndStepScope(Scope* step) {
    if (keep_steps_) {
      steps_->push_back(step);
    } else {
      scope_->DeleteScope(step);
    }
  }

  const DenseTensor& Output(size_t i) const { return *outputs_[i]->tensor(); }
  const std::vector<std::string>& output_names() const { return output_names_; }
  bool keep_steps() const { return keep_steps_; }

 private:
  Executor* executor_;
  std::vector<std::string> input_names_, output_names_;
  std::string steps_name_;
  bool keep_steps_ = false;
  std::unique_ptr<PreparedBlock> sub_;

  // Bound to a scope.
  Scope* scope_ = nullptr;
  std::vector<Variable*> inputs_;
  std::vector<size_t> seeded_;  // inputs the sub-block does not write
  std::vector<Variable*> outputs_;
  std::vector<std::pair<Variable*, Variable*>> output_sources_;
  std::vector<Scope*>* steps_ = nullptr;
};

// conditional_block: runs the sub-block when Cond holds (is_scalar_condition: one bool element;
// otherwise: every Cond tensor is non-empty, Paddle's older semantics).
class ConditionalBlockInstruction : public SubBlockInstruction {
 public:
  ConditionalBlockInstruction(const OpDesc& op, const PrepareContext& ctx)
      : SubBlockInstruction(op, ctx, "Input", "Scope", "conditional_block_grad", false),
        cond_names_(op.Input("Cond")),
        is_scalar_condition_(BoolAttr(op, "is_scalar_condition", false)) {
    PD_CHECK(!is_scalar_condition_ || cond_names_.size() == 1,
             errors::InvalidArgument(where_,
                                     ": slot 'Cond' must name one variable when "
                                     "is_scalar_condition is true, but names ",
                                     cond_names_.size()));
  }

  void Bind(Scope* scope) override {
    SubBlockInstruction::Bind(scope);
    conds_.clear();
    for (const std::string& name : cond_names_) conds_.push_back(LookUp(scope, "Cond", name));
  }

  void Run() override {
    BeginRun();
    if (!Holds()) return;
    Scope* step = NewStepScope();
    RunSubBlock(step, false);
    Publish(step);
    EndStepScope(step);
  }

 private:
  bool Holds() const {
    if (is_scalar_condition_) return ReadCondition(*conds_[0]->tensor(), where_, cond_names_[0]);
    return std::all_of(conds_.begin(), conds_.end(),
                       [](Variable* v) { return v->tensor()->numel() != 0; });
  }

  std::vector<std::string> cond_names_;
  bool is_scalar_condition_;
  std::vector<Variable*> conds_;
};

// while: runs the sub-block as long as Condition holds; the sub-block writes the loop variables
// and the condition.
class WhileInstruction : public SubBlockInstruction {
 public:
  WhileInstruction(const OpDesc& op, const PrepareContext& ctx)
      : SubBlockInstruction(op, ctx, "X", "StepScopes", "while_grad",
                            BoolAttr(op, "is_test", false)),
        cond_name_(SingleName(op.Input("Condition"), "Condition", where_)) {
    const std::vector<std::string>& outs = output_names();
    cond_output_ = std::find(outs.begin(), outs.end(), cond_name_) - outs.begin();
    PD_CHECK(cond_output_ < outs.size(),
             errors::InvalidArgument(where_, ": the condition '", cond_name_,
                                     "' must be one of the outputs (Out), since the loop body "
                                     "writes it"));
  }

  void Run() override {
    BeginRun();
    if (!Condition()) return;
    if (keep_steps()) {
      do {
        Scope* step = NewStepScope();
        RunSubBlock(step, false);
        Publish(step);
        EndStepScope(step);
      } while (Condition());
      return;
    }
    // One scope for every step, bound once.
    Scope* step = NewStepScope();
    bool bound = false;
    do {
      RunSubBlock(step, bound);
      bound = true;
      Publish(step);
    } while (Condition());
    EndStepScope(step);
  }

 private:
  bool Condition() const { return ReadCondition(Output(cond_output_), where_, cond_name_); }

  std::string cond_name_;
  size_t cond_output_ = 0;
};

// conditional_block_grad and while_grad: run the gradient block in the child scopes the forward
// op kept. Slots: the forward's inputs (Input / X) and outputs (Out), the output gradients
// (Out@GRAD, one per output, @EMPTY@ for none) and the input gradients to write (<X>@GRAD, one
// per input, @EMPTY@ where none is wanted). Attributes name the gradient block's variables:
// original_output_grad, per output, the one it reads the output's gradient from (@EMPTY@ for
// outputs without a gradient); original_input_grad, per input, the one holding the input's
// gradient on entry to the sub-block (@EMPTY@ where it computes none).
class SubBlockGradInstruction : public Instruction {
 public:
  SubBlockGradInstruction(const OpDesc& op, const PrepareContext& ctx,
                          const std::string& input_slot, const std::string& steps_slot)
      : Instruction(op, DescribeOp(op, ctx)),
        executor_(ctx.executor),
        input_names_(op.Input(input_slot)),
        input_grad_names_(op.Output(GradSlot(input_slot))),
        output_names_(op.Input("Out")),
        output_grad_names_(op.Input(GradSlot("Out"))),
        inner_output_grads_(StringsAttr(op, "original_output_grad", where_)),
        inner_input_grads_(StringsAttr(op, "original_input_grad", where_)),
        steps_name_(SingleName(op.Input(steps_slot), steps_slot, where_)) {
    output_grad_names_.resize(output_names_.size(), kEmptyVarName);
    input_grad_names_.resize(input_names_.size(), kEmptyVarName);
    PD_CHECK(inner_output_grads_.size() == output_names_.size() &&
                 inner_input_grads_.size() == input_names_.size(),
             errors::InvalidArgument(where_,
                                     ": attributes original_output_grad and "
                                     "original_input_grad must have one name per output "
                                     "and per input"));
    PrepareOptions options;
    for (const std::string& name : inner_input_grads_) {
      if (name != kEmptyVarName) options.skip_vars.push_back(name);
    }
    grad_ = executor_->Prepare(*ctx.program, SubBlockOf(op, ctx, where_), options);
  }

  void Bind(Scope* scope) override {
    auto find = [&](const std::vector<std::string>& names) {
      std::vector<Variable*> vars;
      for (const std::string& name : names) {
        vars.push_back(name == kEmptyVarName ? nullptr : scope->FindVar(name));
      }
      return vars;
    };
    inputs_.clear();
    for (const std::string& name : input_names_) inputs_.push_back(LookUp(scope, "input", name));
    outputs_.clear();
    for (const std::string& name : output_names_) outputs_.push_back(LookUp(scope, "Out", name));
    output_grads_ = find(output_grad_names_);
    input_grads_.clear();
    for (const std::string& name : input_grad_names_) {
      input_grads_.push_back(name == kEmptyVarName ? nullptr : scope->Var(name));
    }
    steps_ = LookUp(scope, "step scopes", steps_name_)->step_scopes();
  }

  bool OutputsMayAlias() const override { return true; }

 protected:
  // The output gradient as given, or none.
  std::optional<DenseTensor> OutputGrad(size_t i) const {
    if (output_grads_[i] == nullptr || !output_grads_[i]->tensor()->initialized()) return {};
    return *output_grads_[i]->tensor();
  }

  bool HasInnerOutputGrad(size_t i) const { return inner_output_grads_[i] != kEmptyVarName; }
  void SetInnerOutputGrad(Scope* step, size_t i, const DenseTensor& grad) const {
    *step->Var(inner_output_grads_[i])->tensor() = grad;
  }

  // The gradient block's gradient of input `i` in `step`, or none.
  std::optional<DenseTensor> InnerInputGrad(Scope* step, size_t i) const {
    if (inner_input_grads_[i] == kEmptyVarName) return {};
    Variable* var = step->FindLocalVar(inner_input_grads_[i]);
    if (var == nullptr || !var->tensor()->initialized()) return {};
    return *var->tensor();
  }

  void RunGradBlock(Scope* step) { executor_->Run(grad_.get(), step); }

  // Writes input i's gradient: `grad`, or zeros shaped like the input.
  void SetInputGrad(size_t i, const std::optional<DenseTensor>& grad) const {
    if (input_grads_[i] == nullptr) return;
    *input_grads_[i]->tensor() = grad ? *grad : ZerosLike(*inputs_[i]->tensor());
  }

  const std::vector<std::string>& input_names() const { return input_names_; }
  const std::vector<std::string>& output_names() const { return output_names_; }
  bool WantsInputGrad(size_t i) const { return input_grads_[i] != nullptr; }
  const DenseTensor& Output(size_t i) const { return *outputs_[i]->tensor(); }
  const std::vector<Scope*>& steps() const { return *steps_; }

 private:
  Executor* executor_;
  std::vector<std::string> input_names_, input_grad_names_, output_names_, output_grad_names_;
  std::vector<std::string> inner_output_grads_, inner_input_grads_;
  std::string steps_name_;
  std::unique_ptr<PreparedBlock> grad_;

  // Bound to a scope.
  std::vector<Variable*> inputs_, outputs_, output_grads_, input_grads_;
  std::vector<Scope*>* steps_ = nullptr;
};

// When the forward ran its block, the gradient block runs in that run's scope; otherwise every
// input's gradient is zero.
class ConditionalBlockGradInstruction : public SubBlockGradInstruction {
 public:
  ConditionalBlockGradInstruction(const OpDesc& op, const PrepareContext& ctx)
      : SubBlockGradInstruction(op, ctx, "Input", "Scope") {}

  void Run() override {
    Scope* step = steps().empty() ? nullptr : steps().back();
    if (step != nullptr) {
      for (size_t i = 0; i < output_names().size(); ++i) {
        if (!HasInnerOutputGrad(i)) continue;
        std::optional<DenseTensor> grad = OutputGrad(i);
        SetInnerOutputGrad(step, i, grad ? *grad : ZerosLike(Output(i)));
      }
      RunGradBlock(step);
    }
    for (size_t i = 0; i < input_names().size(); ++i) {
      SetInputGrad(i, step != nullptr ? InnerInputGrad(step, i) : std::nullopt);
    }
  }
};

// Runs the gradient block once per loop step, last step first. A loop variable's gradient on
// entry to a step is the gradient of its value at the end of the step before; the gradients of
// the other inputs (read by every step) add up over the steps.
class WhileGradInstruction : public SubBlockGradInstruction {
 public:
  WhileGradInstruction(const OpDesc& op, const PrepareContext& ctx)
      : SubBlockGradInstruction(op, ctx, "X", "StepScopes") {
    PD_CHECK(!BoolAttr(op, "is_test", false),
             errors::PreconditionNotMet(where_,
                                        ": the loop runs with is_test=True, which keeps no "
                                        "step scopes for its gradient"));
    const std::vector<std::string>& outs = output_names();
    for (const std::string& name : input_names()) {
      size_t k = std::find(outs.begin(), outs.end(), name) - outs.begin();
      loop_output_of_input_.push_back(k < outs.size() && HasInnerOutputGrad(k) ? k : kNone);
    }
  }

  void Run() override {
    const std::vector<Scope*>& scopes = steps();
    const std::vector<std::string>& outs = output_names();
    // Per output: the gradient of its value at the end of the step being processed.
    std::vector<std::optional<DenseTensor>> carried(outs.size());
    for (size_t k = 0; k < outs.size(); ++k) {
      if (HasInnerOutputGrad(k)) carried[k] = OutputGrad(k);
    }
    std::vector<std::optional<DenseTensor>> summed(input_names().size());
    for (size_t t = scopes.size(); t-- > 0;) {
      Scope* step = scopes[t];
      for (size_t k = 0; k < outs.size(); ++k) {
        if (!HasInnerOutputGrad(k)) continue;
        // Its value at the end of step t is what step t + 1 started from.
        SetInnerOutputGrad(step, k, carried[k] ? *carried[k] : ZerosLike(StartValue(t + 1, k)));
      }
      RunGradBlock(step);
      for (size_t k = 0; k < outs.size(); ++k) carried[k].reset();
      for (size_t i = 0; i < input_names().size(); ++i) {
        std::optional<DenseTensor> grad = InnerInputGrad(step, i);
        size_t k = loop_output_of_input_[i];
        if (k != kNone) {
          carried[k] = grad ? *grad : ZerosLike(StartValue(t, k));
        } else if (grad && WantsInputGrad(i)) {
          summed[i] = summed[i] ? *ops::add(Tensor(std::make_shared<DenseTensor>(*summed[i])),
                                            Tensor(std::make_shared<DenseTensor>(*grad)))
                                       .impl()
                                : *grad;
        }
      }
    }
    for (size_t i = 0; i < input_names().size(); ++i) {
      size_t k = loop_output_of_input_[i];
      SetInputGrad(i, k != kNone ? carried[k] : summed[i]);
    }
  }

 private:
  // The value output k had when step t started (kept in the step's scope), or the result of
  // the loop after the last step.
  const DenseTensor& StartValue(size_t t, size_t k) const {
    Variable* kept = t < steps().size() ? steps()[t]->FindLocalVar(output_names()[k]) : nullptr;
    return kept != nullptr ? *kept->tensor() : Output(k);
  }

  static constexpr size_t kNone = static_cast<size_t>(-1);
  // Per input: the output it is the loop variable of, or kNone.
  std::vector<size_t> loop_output_of_input_;
};

// select_input: Out is X[Mask].
class SelectInputInstruction : public Instruction {
 public:
  SelectInputInstruction(const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        input_names_(op.Input("X")),
        mask_name_(SingleName(op.Input("Mask"), "Mask", where_)),
        out_name_(SingleName(op.Output("Out"), "Out", where_)) {}

  void Bind(Scope* scope) override {
    inputs_.clear();
    for (const std::string& name : input_names_) inputs_.push_back(LookUp(scope, "X", name));
    mask_ = LookUp(scope, "Mask", mask_name_)->tensor();
    out_ = scope->Var(out_name_)->tensor();
  }

  void Run() override {
    int mask = ReadMask(*mask_, where_, mask_name_);
    PD_CHECK(mask >= 0 && static_cast<size_t>(mask) < inputs_.size(),
             errors::OutOfRange(where_, ": the mask is ", mask, " but there are ", inputs_.size(),
                                " inputs"));
    const DenseTensor& selected = *inputs_[mask]->tensor();
    PD_CHECK(selected.initialized(),
             errors::PreconditionNotMet(where_, ": the selected input '", input_names_[mask],
                                        "' holds no data"));
    *out_ = selected;
  }

  bool OutputsMayAlias() const override { return true; }

 private:
  std::vector<std::string> input_names_;
  std::string mask_name_, out_name_;
  std::vector<Variable*> inputs_;
  const DenseTensor* mask_ = nullptr;
  DenseTensor* out_ = nullptr;
};

// select_output (the gradient of select_input): Out[Mask] is X. The other outputs are left
// without data rather than with a value from an earlier run.
class SelectOutputInstruction : public Instruction {
 public:
  SelectOutputInstruction(const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        in_name_(SingleName(op.Input("X"), "X", where_)),
        mask_name_(SingleName(op.Input("Mask"), "Mask", where_)),
        output_names_(op.Output("Out")) {}

  void Bind(Scope* scope) override {
    in_ = LookUp(scope, "X", in_name_)->tensor();
    mask_ = LookUp(scope, "Mask", mask_name_)->tensor();
    outputs_.clear();
    for (const std::string& name : output_names_) {
      outputs_.push_back(name == kEmptyVarName ? nullptr : scope->Var(name)->tensor());
    }
  }

  void Run() override {
    int mask = ReadMask(*mask_, where_, mask_name_);
    PD_CHECK(mask >= 0 && static_cast<size_t>(mask) < outputs_.size(),
             errors::OutOfRange(where_, ": the mask is ", mask, " but there are ", outputs_.size(),
                                " outputs"));
    for (size_t i = 0; i < outputs_.size(); ++i) {
      if (outputs_[i] == nullptr) continue;
      *outputs_[i] = static_cast<int>(i) == mask ? *in_ : DenseTensor();
    }
  }

  bool OutputsMayAlias() const override { return true; }

 private:
  std::string in_name_, mask_name_;
  std::vector<std::string> output_names_;
  const DenseTensor* in_ = nullptr;
  const DenseTensor* mask_ = nullptr;
  std::vector<DenseTensor*> outputs_;
};

template <typename T>
bool Register(const char* type) {
  return RegisterInstruction(
      type, [](const OpDesc& op, const PrepareContext& ctx) -> std::unique_ptr<Instruction> {
        return std::make_unique<T>(op, ctx);
      });
}

const bool kRegistered = Register<ConditionalBlockInstruction>("conditional_block") &&
                         Register<WhileInstruction>("while") &&
                         Register<ConditionalBlockGradInstruction>("conditional_block_grad") &&
                         Register<WhileGradInstruction>("while_grad") &&
                         Register<SelectInputInstruction>("select_input") &&
                         Register<SelectOutputInstruction>("select_output");

}  // namespace

}  // namespace paddle::framework
