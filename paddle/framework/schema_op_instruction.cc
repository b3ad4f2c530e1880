#include "paddle/framework/schema_op_instruction.h"

#include <algorithm>

#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/kernels/kernel_context.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/ops/generated/api.h"

namespace paddle::framework {

namespace {

class SchemaOpInstruction : public Instruction {
 public:
  SchemaOpInstruction(const ops::OpSchema& schema, const OpDesc& op, const PrepareContext& ctx)
      : Instruction(op, DescribeOp(op, ctx)),
        schema_(schema),
        place_(ctx.place),
        attrs_(SchemaAttrsOf(schema, op, ctx.place, where_)) {
    for (size_t i = 0; i < schema.inputs.size(); ++i) {
      input_names_.push_back(op.Input(LegacyInputSlot(schema, i)));
      PD_CHECK(!input_names_.back().empty() || schema.inputs[i].kind != ops::InputKind::kTensor,
               errors::InvalidArgument(where_, ": required input '", LegacyInputSlot(schema, i),
                                       "' is missing"));
    }
    for (size_t k = 0; k < schema.outputs.size(); ++k) {
      output_names_.push_back(op.Output(LegacyOutputSlot(schema, k)));
    }
    // Programs from older Paddle versions align Y with X at `axis` (elementwise ops); the
    // schema op broadcasts from the trailing dimension, so Y gets trailing 1s at run time.
    if (schema.legacy.extra_attrs.count("axis") > 0 && schema.inputs.size() == 2) {
      if (const ProtoAttr* axis = op.FindAttr("axis")) {
        broadcast_axis_ = std::get<int32_t>(FromProtoAttr(*axis, 1, where_));
      }
    }
    DataType dtype = KernelDataType(*ctx.block);
    try {
      kernel_ = schema.kernels().Select(KernelKey{BackendOf(place_), DataLayout::NCHW, dtype}).fn;
    } catch (const Error& e) {
      throw Error(e.code(), where_ + ": " + e.what());  // name the op in the program
    }
  }

  void Bind(Scope* scope) override {
    context_ = std::make_unique<KernelContext>(&GetDeviceContext(place_));
    inputs_.clear();
    for (size_t i = 0; i < schema_.inputs.size(); ++i) {
      const std::string& slot = LegacyInputSlot(schema_, i);
      std::vector<const DenseTensor*> list;
      for (const std::string& name : input_names_[i]) {
        list.push_back(LookUp(scope, slot, name)->tensor());
        if (i == 1 && broadcast_axis_ >= 0) {
          aligned_source_ = list.back();
          list.back() = &aligned_y_;
        }
        inputs_.push_back({list.back(), &name});
      }
      if (schema_.inputs[i].kind == ops::InputKind::kList) {
        context_->AddInputList(std::move(list));
      } else {
        context_->AddInput(list.empty() ? nullptr : list[0]);
      }
    }
    for (const Attribute& attr : attrs_) context_->AddAttr(&attr);
    outputs_.clear();
    output_slots_.assign(schema_.outputs.size(), {});
    unwritten_outputs_.assign(schema_.outputs.size(), DenseTensor());
    for (size_t k = 0; k < schema_.outputs.size(); ++k) {
      std::vector<DenseTensor*> list;
      for (const std::string& name : output_names_[k]) list.push_back(scope->Var(name)->tensor());
      // Programs from Paddle leave out outputs nothing reads (dropout's Mask, XShape): the
      // kernel still writes them, into a tensor of the instruction's own.
      if (list.empty() && !schema_.outputs[k].is_list && !PairedWithAbsentInput(k)) {
        list.push_back(&unwritten_outputs_[k]);
      }
      output_slots_[k] = list;
      outputs_.insert(outputs_.end(), list.begin(), list.end());
      if (schema_.outputs[k].is_list) {
        context_->AddOutputList(list);
      } else {
        context_->AddOutput(list.empty() ? nullptr : list[0]);
      }
    }
    inplace_tensors_.clear();
    for (const auto& [in, out] : inplace_pairs_) {
      inplace_tensors_.emplace_back(scope->FindVar(in)->tensor(), scope->FindVar(out)->tensor());
    }
    metas_inferred_ = false;
  }

  void Run() override {
    if (aligned_source_ != nullptr) AlignY();
    for (const auto& [tensor, name] : inputs_) {
      if (!tensor->initialized()) ThrowUninitialized(*name);
    }
    if (!InputMetasCached()) InferOutputMetas();
    for (size_t k = 0; k < output_slots_.size(); ++k) {
      for (size_t j = 0; j < output_slots_[k].size(); ++j) {
        output_slots_[k][j]->set_meta(output_metas_[k][j]);
      }
    }
    for (const auto& [in, out] : inplace_tensors_) out->ShareBufferWith(*in);
    kernel_(context_.get());
  }

  std::vector<std::pair<std::string, std::string>> InplaceCandidates() const override {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [in, out] : schema_.inplace) {
      if (input_names_[in].size() == 1 && output_names_[out].size() == 1) {
        pairs.emplace_back(input_names_[in][0], output_names_[out][0]);
      }
    }
    return pairs;
  }

  void EnableInplace(const std::vector<std::pair<std::string, std::string>>& pairs) override {
    inplace_pairs_ = pairs;
  }

  bool OutputsMayAlias() const override { return !schema_.view.empty(); }

 private:
  // Whether output k is paired in place with an optional input the op does not have: the
  // kernel then expects no output at all.
  bool PairedWithAbsentInput(size_t k) const {
    for (const auto& [in, out] : schema_.inplace) {
      if (out == static_cast<int>(k) && schema_.inputs[in].kind == ops::InputKind::kOptional &&
          input_names_[in].empty()) {
        return true;
      }
    }
    return false;
  }

  DataType KernelDataType(const BlockDesc& block) const {
    if (schema_.data_type_input >= 0) {
      const auto& names = input_names_[schema_.data_type_input];
      PD_CHECK(!names.empty(),
               errors::InvalidArgument(where_, ": input '",
                                       LegacyInputSlot(schema_, schema_.data_type_input),
                                       "' is required"));
      const VarDesc* var = block.FindVarRecursive(names[0]);
      PD_CHECK(var != nullptr,
               errors::NotFound(where_, ": input variable '", names[0], "' is not defined"));
      return var->dtype();
    }
    DataType dtype = std::get<DataType>(attrs_[schema_.data_type_attr]);
    if (dtype == DataType::UNDEFINED && !input_names_.empty() && !input_names_[0].empty()) {
      const VarDesc* var = block.FindVarRecursive(input_names_[0][0]);
      if (var != nullptr) return var->dtype();
    }
    return dtype;
  }

  bool InputMetasCached() const {
    if (!metas_inferred_) return false;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const TensorMeta& m = inputs_[i].first->meta();
      if (m.dims != cached_input_metas_[i].dims || m.dtype != cached_input_metas_[i].dtype) {
        return false;
      }
    }
    return true;
  }

  void InferOutputMetas() {
    ops::InferMetaArgs args;
    args.inputs.resize(schema_.inputs.size());
    size_t flat = 0;
    for (size_t i = 0; i < schema_.inputs.size(); ++i) {
      for (size_t j = 0; j < input_names_[i].size(); ++j) {
        args.inputs[i].push_back(inputs_[flat++].first->meta());
      }
    }
    args.attrs = &attrs_;
    args.outputs.resize(schema_.outputs.size());
    for (size_t k = 0; k < schema_.outputs.size(); ++k) {
      args.outputs[k].resize(schema_.outputs[k].is_list ? output_names_[k].size() : 1);
    }
    try {
      schema_.infer_meta(&args);
    } catch (const Error& e) {
      throw Error(e.code(), where_ + ": " + e.what());
    }
    output_metas_ = std::move(args.outputs);
    metas_inferred_ = true;
    cached_input_metas_.clear();
    for (const auto& [tensor, name] : inputs_) cached_input_metas_.push_back(tensor->meta());
  }

  // Y as a view with trailing 1s, so that its dimensions start at X's dimension `axis`.
  void AlignY() {
    aligned_y_ = *aligned_source_;
    const DDim& x_dims = inputs_[0].first->dims();
    const DDim& y_dims = aligned_source_->dims();
    int trailing = x_dims.size() - broadcast_axis_ - y_dims.size();
    PD_CHECK(
        broadcast_axis_ <= x_dims.size() && trailing >= 0,
        errors::InvalidArgument(where_, ": axis ", broadcast_axis_, " cannot align Y of shape ",
                                y_dims.ToString(), " with X of shape ", x_dims.ToString()));
    std::vector<int64_t> dims = y_dims.ToVector();
    dims.insert(dims.end(), trailing, 1);
    aligned_y_.Resize(DDim(dims));
  }

  [[noreturn]] void ThrowUninitialized(const std::string& name) const {
    PD_THROW(errors::PreconditionNotMet(
        where_, ": input variable '", name,
        "' holds no data; feed it, run the startup program, or check that an earlier op writes "
        "it (an op reading a variable written only later is a cycle)"));
  }

  const ops::OpSchema& schema_;
  Place place_;
  std::vector<Attribute> attrs_;
  std::vector<std::vector<std::string>> input_names_;
  std::vector<std::vector<std::string>> output_names_;
  KernelFn kernel_;
  std::vector<std::pair<std::string, std::string>> inplace_pairs_;

  // Bound to a scope.
  std::unique_ptr<KernelContext> context_;
  std::vector<std::pair<const DenseTensor*, const std::string*>> inputs_;
  std::vector<DenseTensor*> outputs_;
  std::vector<std::vector<DenseTensor*>> output_slots_;
  std::vector<DenseTensor> unwritten_outputs_;
  std::vector<std::pair<DenseTensor*, DenseTensor*>> inplace_tensors_;
  int broadcast_axis_ = -1;
  const DenseTensor* aligned_source_ = nullptr;
  DenseTensor aligned_y_;
  bool metas_inferred_ = false;
  std::vector<TensorMeta> cached_input_metas_;
  std::vector<std::vector<TensorMeta>> output_metas_;
};

}  // namespace

std::unique_ptr<Instruction> CreateSchemaOpInstruction(const ops::OpSchema& schema,
                                                       const OpDesc& op,
                                                       const PrepareContext& ctx) {
  return std::make_unique<SchemaOpInstruction>(schema, op, ctx);
}

}  // namespace paddle::framework

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
      input_names_.push_back(op.Input(LegacyInputSlot(forward, i)));
      grad_names_.push_back(op.Output(GradSlot(LegacyInputSlot(forward, i))));
      PD_CHECK(
          grad_names_[i].empty() || grad_names_[i].size() == input_names_[i].size(),
          errors::InvalidArgument(where_, ": slot '", GradSlot(LegacyInputSlot(forward, i)),
                                  "' has ", grad_names_[i].size(), " variables but '",
                                  LegacyInputSlot(forward, i), "' has ", input_names_[i].size()));
    }
    for (size_t k = 0; k < forward.outputs.size(); ++k) {
      output_names_.push_back(op.Output(LegacyOutputSlot(forward, k)));
      if (output_names_.back().empty())
        output_names_.back() = op.Input(LegacyOutputSlot(forward, k));
      out_grad_names_.push_back(op.Input(GradSlot(LegacyOutputSlot(forward, k))));
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
      for (Variable* v : inputs_[i]) {
        inputs[i].push_back(backward_.save_inputs[i] ? Tensor(v->shared_tensor()) : Tensor());
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
        outputs[k].push_back(
            backward_.save_outputs[k] && out != nullptr ? Tensor(out->shared_tensor()) : Tensor());
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
        const DenseTensor& input = *inputs_[i][j]->tensor();
        Tensor grad = results[i][j];
        if (!grad.defined()) {
          grad = ops::full(input.dims().ToVector(), 0, input.dtype(), input.place());
        } else {
          grad = imperative::ReduceToShape(grad, input.dims());
        }
        *target->tensor() = *grad.impl();
      }
    }
  }

 private:
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
