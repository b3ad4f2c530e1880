#include "paddle/framework/grad_op_instruction.h"

#include <algorithm>

#include "paddle/framework/legacy_op_map.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/ops/generated/api/full.h"

namespace paddle::framework {

namespace {

// The gradient of a schema op, "<legacy type>_grad": its slots are the forward op's input and
// output slots, "<Out>@GRAD" for the output gradients and "<X>@GRAD" for the input gradients.
// It runs the op's backward rule, which runs forward ops eagerly, then sums each gradient back
// to its input's shape where the forward broadcast, as the dygraph engine does.
class GradOpInstruction : public Instruction {
 public:
  GradOpInstruction(const ops::OpSchema& forward, const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        forward_(forward),
        backward_(*forward.backward),
        attrs_(SchemaAttrsOf(forward, op, ctx.place, where_)) {
    for (size_t i = 0; i < forward.inputs.size(); ++i) {
      const std::string& slot = LegacyInputSlot(forward, i);
      input_names_.push_back(op.Input(slot));
      grad_names_.push_back(op.Output(GradSlot(slot)));
      RejectEmptyNames(slot, input_names_.back());
      // PaddlePaddle's own gradient descs may leave out an input the rule does not read
      // (relu_grad has only Out and Out@GRAD); its gradient then takes the gradient's shape.
      bool omitted = input_names_[i].empty() && !backward_.save_inputs[i];
      PD_CHECK(grad_names_[i].empty() || omitted || grad_names_[i].size() == input_names_[i].size(),
               errors::InvalidArgument(where_, ": slot '", GradSlot(slot), "' has ",
                                       grad_names_[i].size(), " variables but '", slot, "' has ",
                                       input_names_[i].size()));
      // An optional input, or a list (Paddle's dispensable SizeTensor), may be left out.
      PD_CHECK(!input_names_[i].empty() || !backward_.save_inputs[i] ||
                   forward.inputs[i].kind != ops::InputKind::kTensor,
               errors::InvalidArgument(where_, ": input '", slot,
                                       "', which the gradient reads, is missing"));
    }
    for (size_t k = 0; k < forward.outputs.size(); ++k) {
      const std::string& slot = LegacyOutputSlot(forward, k);
      output_names_.push_back(op.Input(slot));
      out_grad_names_.push_back(op.Input(GradSlot(slot)));
      RejectEmptyNames(slot, output_names_.back());
      PD_CHECK(!output_names_[k].empty() || !backward_.save_outputs[k],
               errors::InvalidArgument(where_, ": output '", slot,
                                       "', which the gradient reads, is missing"));
    }
  }

  std::vector<std::string> NoNeedBufferInputs() const override {
    std::vector<std::string> names;
    for (size_t i = 0; i < input_names_.size(); ++i) {
      if (!backward_.save_inputs[i] || backward_.no_need_buffer[i]) {
        names.insert(names.end(), input_names_[i].begin(), input_names_[i].end());
      }
    }
    for (size_t k = 0; k < output_names_.size(); ++k) {
      if (!backward_.save_outputs[k]) {
        names.insert(names.end(), output_names_[k].begin(), output_names_[k].end());
      }
    }
    return names;
  }

  bool OutputsMayAlias() const override { return true; }

  void Bind(Scope* scope) override {
    auto bind = [&](const std::vector<std::vector<std::string>>& names, const char* what) {
      std::vector<std::vector<Variable*>> vars;
      for (const auto& slot : names) {
        vars.emplace_back();
        for (const std::string& name : slot) {
          vars.back().push_back(name == kEmptyVarName ? nullptr : LookUp(scope, what, name));
        }
      }
      return vars;
    };
    inputs_ = bind(input_names_, "forward input");
    outputs_ = bind(output_names_, "forward output");
    out_grads_ = bind(out_grad_names_, "output gradient");
    grads_.clear();
    for (const auto& slot : grad_names_) {
      grads_.emplace_back();
      for (const std::string& name : slot) {
        grads_.back().push_back(name == kEmptyVarName ? nullptr : scope->Var(name));
      }
    }
  }

  void Run() override {
    std::vector<std::vector<Tensor>> inputs(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      size_t count = std::max(inputs_[i].size(), grads_[i].size());
      for (size_t j = 0; j < count; ++j) {
        Variable* v = j < inputs_[i].size() ? inputs_[i][j] : nullptr;
        if (v == nullptr || !backward_.save_inputs[i]) {
          inputs[i].emplace_back();
          continue;
        }
        // A no-need-buffer input's storage may already be released: the rule reads its shape.
        if (!backward_.no_need_buffer[i]) CheckHoldsData(*v, input_names_[i][j]);
        inputs[i].emplace_back(v->shared_tensor());
      }
    }
    std::vector<std::vector<Tensor>> outputs(outputs_.size());
    std::vector<std::vector<Tensor>> out_grads(outputs_.size());
    for (size_t k = 0; k < outputs_.size(); ++k) {
      // PaddlePaddle's gradient descs leave out the forward outputs their kernels do not read
      // (mul_grad, reduce_mean_grad list only Out@GRAD): one entry per gradient then.
      size_t count = std::max(outputs_[k].size(), out_grads_[k].size());
      for (size_t j = 0; j < count; ++j) {
        Variable* out = j < outputs_[k].size() ? outputs_[k][j] : nullptr;
        if (backward_.save_outputs[k] && out != nullptr) {
          CheckHoldsData(*out, output_names_[k][j]);
          outputs[k].emplace_back(out->shared_tensor());
        } else {
          outputs[k].emplace_back();
        }
        Variable* grad = j < out_grads_[k].size() ? out_grads_[k][j] : nullptr;
        if (grad != nullptr && grad->tensor()->initialized()) {
          out_grads[k].emplace_back(grad->shared_tensor());
        } else {
          PD_CHECK(out != nullptr,
                   errors::InvalidArgument(where_, ": output ", j, " of slot '",
                                           LegacyOutputSlot(forward_, k),
                                           "' has neither a variable nor a gradient"));
          // An output no gradient reaches contributes zeros, as in dygraph.
          const DenseTensor& o = *out->tensor();
          out_grads[k].push_back(ops::full(o.dims().ToVector(), 0, o.dtype(), o.place()));
        }
      }
    }
    std::vector<std::vector<Tensor>> results(grads_.size());
    ops::GradCall call;
    call.inputs = &inputs;
    call.outputs = &outputs;
    call.attrs = &attrs_;
    call.out_grads = &out_grads;
    call.input_grads.resize(grads_.size());
    for (size_t i = 0; i < grads_.size(); ++i) {
      if (grads_[i].empty() || !backward_.differentiable[i]) continue;
      results[i].resize(grads_[i].size());
      for (Tensor& t : results[i]) call.input_grads[i].push_back(&t);
    }
    try {
      backward_.fn(&call);
    } catch (const Error& e) {
      throw Error(e.code(), where_ + ": " + e.what());
    }
    for (size_t i = 0; i < grads_.size(); ++i) {
      for (size_t j = 0; j < results[i].size(); ++j) {
        Variable* target = grads_[i][j];
        if (target == nullptr) continue;
        Variable* input = j < inputs_[i].size() ? inputs_[i][j] : nullptr;
        Tensor grad = results[i][j];
        if (input == nullptr) {
          PD_CHECK(grad.defined(),
                   errors::InvalidArgument(where_, ": no gradient for '", grad_names_[i][j],
                                           "', and no forward input to take its shape from"));
        } else if (!grad.defined()) {
          const DenseTensor& x = *input->tensor();
          grad = ops::full(x.dims().ToVector(), 0, x.dtype(), x.place());
        } else {
          grad = imperative::ReduceToShape(grad, input->tensor()->dims());
        }
        if (grad.is_selected_rows()) {  // the program declares the variable SELECTED_ROWS
          SelectedRows* rows = target->selected_rows();
          rows->set_rows(grad.selected_rows()->rows());
          rows->set_height(grad.selected_rows()->height());
        }
        *target->tensor() = *grad.impl();
      }
    }
  }

 private:
  // Forward variables are real names: "@EMPTY@" marks only gradients no one wants.
  void RejectEmptyNames(const std::string& slot, const std::vector<std::string>& names) const {
    PD_CHECK(std::find(names.begin(), names.end(), kEmptyVarName) == names.end(),
             errors::InvalidArgument(where_, ": slot '", slot, "' names ", kEmptyVarName,
                                     ", which only gradient slots may"));
  }

  void CheckHoldsData(Variable& var, const std::string& name) const {
    PD_CHECK(var.tensor()->initialized(),
             errors::PreconditionNotMet(where_, ": variable '", name,
                                        "', which the gradient reads, holds no data"));
  }

  const ops::OpSchema& forward_;
  const ops::BackwardSchema& backward_;
  std::vector<Attribute> attrs_;
  std::vector<std::vector<std::string>> input_names_, output_names_, out_grad_names_, grad_names_;
  std::vector<std::vector<Variable*>> inputs_, outputs_, out_grads_, grads_;
};

}  // namespace

std::unique_ptr<Instruction> CreateGradOpInstruction(const ops::OpSchema& forward, const OpDesc& op,
                                                     const PrepareContext& ctx) {
  return std::make_unique<GradOpInstruction>(forward, op, ctx);
}

}  // namespace paddle::framework
