#include "paddle/framework/schema_op_instruction.h"

#include <algorithm>

#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/kernels/kernel_context.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/kernels/selected_rows_kernel.h"
#include "paddle/memory/malloc.h"
#include "paddle/memory/memcpy.h"

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
      CheckSingle(LegacyInputSlot(schema, i), input_names_.back(),
                  schema.inputs[i].kind == ops::InputKind::kList);
    }
    for (size_t k = 0; k < schema.outputs.size(); ++k) {
      output_names_.push_back(op.Output(LegacyOutputSlot(schema, k)));
      CheckSingle(LegacyOutputSlot(schema, k), output_names_.back(), schema.outputs[k].is_list);
    }
    // Programs from older Paddle versions align Y with X at `axis` (elementwise ops); the
    // schema op broadcasts from the trailing dimension, so Y gets trailing 1s at run time.
    if (schema.legacy.extra_attrs.count("axis") > 0 && schema.inputs.size() == 2) {
      if (const ProtoAttr* axis = op.FindAttr("axis")) {
        broadcast_axis_ =
            std::get<int32_t>(FromProtoAttr(*axis, AttributeIndex<int32_t>(), where_));
        PD_CHECK(broadcast_axis_ >= -1,
                 errors::InvalidArgument(where_, ": attribute 'axis' is ", broadcast_axis_,
                                         "; expected -1 or a dimension of X"));
      }
    }
    kernel_dtype_ = KernelDataType(*ctx.block);
    FindSelectedRowsInputs(*ctx.block);
    try {
      kernel_ =
          schema.kernels().Select(KernelKey{BackendOf(place_), DataLayout::NCHW, kernel_dtype_}).fn;
    } catch (const Error& e) {
      throw Error(e.code(), where_ + ": " + e.what());  // name the op in the program
    }
  }

  void Bind(Scope* scope) override {
    context_ = std::make_unique<KernelContext>(&GetDeviceContext(place_));
    inputs_.clear();
    input_selected_rows_.clear();
    slot_selected_rows_.assign(schema_.inputs.size(), {});
    for (size_t i = 0; i < schema_.inputs.size(); ++i) {
      const std::string& slot = LegacyInputSlot(schema_, i);
      std::vector<const DenseTensor*> list;
      for (const std::string& name : input_names_[i]) {
        Variable* var = LookUp(scope, slot, name);
        list.push_back(var->tensor());
        bool sparse = var_is_selected_rows_[input_selected_rows_.size()];
        input_selected_rows_.push_back(sparse ? var->selected_rows() : nullptr);
        slot_selected_rows_[i].push_back(input_selected_rows_.back());
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
      if (list.empty() && !schema_.outputs[k].is_list && !AbsentWithItsOptionalInput(k)) {
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
    shared_writes_.clear();
    for (DenseTensor* out : outputs_) {
      bool in_place = std::any_of(inplace_tensors_.begin(), inplace_tensors_.end(),
                                  [out](const auto& pair) { return pair.second == out; });
      if (in_place || out == nullptr) continue;
      bool also_input = std::any_of(inputs_.begin(), inputs_.end(),
                                    [out](const auto& input) { return input.first == out; });
      shared_writes_.emplace_back(out, also_input);
    }
    dtype_source_ = nullptr;
    if (schema_.data_type_input >= 0 && !input_names_[schema_.data_type_input].empty()) {
      size_t flat = 0;
      for (int i = 0; i < schema_.data_type_input; ++i) flat += input_names_[i].size();
      dtype_source_ = inputs_[flat].first;
      dtype_source_name_ = inputs_[flat].second;
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
    if (dtype_source_ != nullptr && dtype_source_->dtype() != kernel_dtype_) ThrowDtypeMismatch();
    for (const auto& [tensor, also_input] : shared_writes_) SeparateStorage(tensor, also_input);
    for (const auto& [in, out] : inplace_tensors_) out->ShareBufferWith(*in);
    if (selected_rows_kernel_ != nullptr) {
      selected_rows_kernel_(*context_, slot_selected_rows_);
    } else {
      kernel_(context_.get());
    }
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
  bool AbsentWithItsOptionalInput(size_t k) const {
    int in = ops::OptionalInplaceInput(schema_, k);
    return in >= 0 && input_names_[in].empty();
  }

  // A tensor slot holds at most one variable.
  void CheckSingle(const std::string& slot, const std::vector<std::string>& names,
                   bool is_list) const {
    PD_CHECK(is_list || names.size() <= 1,
             errors::InvalidArgument(where_, ": slot '", slot, "' takes one variable, but names ",
                                     names.size()));
  }

  // Kernels write through an output's existing buffer. When a view or a passed-through gradient
  // shares that buffer with another variable, the write would change that variable too: the
  // output gets a buffer of its own first (a copy when the op also reads it, as an optimizer's
  // ParamOut = Param does).
  static void SeparateStorage(DenseTensor* tensor, bool also_input) {
    const std::shared_ptr<memory::Allocation>& holder = tensor->holder();
    if (holder == nullptr || holder.use_count() <= 1) return;
    if (!also_input) {
      tensor->set_holder(nullptr);
      return;
    }
    std::shared_ptr<memory::Allocation> own = memory::Alloc(holder->place(), tensor->nbytes());
    memory::Copy(holder->place(), own->ptr(), holder->place(), tensor->raw_data(),
                 tensor->nbytes());
    tensor->set_holder(std::move(own));
  }

  [[noreturn]] void ThrowDtypeMismatch() const {
    PD_THROW(errors::InvalidType(where_, ": input '", *dtype_source_name_, "' holds ",
                                 DataTypeName(dtype_source_->dtype()), " but the program declares ",
                                 DataTypeName(kernel_dtype_),
                                 ", the dtype its kernel was chosen for"));
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
      for (size_t j = 0; j < input_names_[i].size(); ++j, ++flat) {
        // A SelectedRows stands for its whole table as far as shapes go.
        const SelectedRows* rows = input_selected_rows_[flat];
        args.inputs[i].push_back(rows ? rows->complete_meta() : inputs_[flat].first->meta());
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

  // Marks the inputs the program declares SELECTED_ROWS (a sparse gradient) and picks the op's
  // SelectedRows kernel for them; Unimplemented naming the op and the input when it has none.
  void FindSelectedRowsInputs(const BlockDesc& block) {
    var_is_selected_rows_.clear();
    for (size_t i = 0; i < schema_.inputs.size(); ++i) {
      for (const std::string& name : input_names_[i]) {
        const VarDesc* var = block.FindVarRecursive(name);
        bool sparse = var != nullptr && var->kind() == proto::VarType::SELECTED_ROWS;
        var_is_selected_rows_.push_back(sparse);
        if (!sparse) continue;
        selected_rows_kernel_ = FindSelectedRowsKernel(schema_.kernel_name, BackendOf(place_));
        PD_CHECK(selected_rows_kernel_ != nullptr,
                 errors::Unimplemented(where_, ": input '", LegacyInputSlot(schema_, i),
                                       "' is the SelectedRows variable '", name,
                                       "' (a sparse gradient), but the op has no ",
                                       BackendName(BackendOf(place_)),
                                       " kernel for one; it expects a dense tensor"));
      }
    }
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
  // Set when an input is SELECTED_ROWS: the kernel run instead of kernel_.
  SelectedRowsKernelFn selected_rows_kernel_ = nullptr;
  std::vector<bool> var_is_selected_rows_;  // per input variable, over all slots
  std::vector<std::pair<std::string, std::string>> inplace_pairs_;

  // Bound to a scope.
  std::unique_ptr<KernelContext> context_;
  std::vector<std::pair<const DenseTensor*, const std::string*>> inputs_;
  std::vector<const SelectedRows*> input_selected_rows_;  // per entry of inputs_, null if dense
  SelectedRowsInputs slot_selected_rows_;                 // per slot and variable, for the kernel
  std::vector<DenseTensor*> outputs_;
  std::vector<std::vector<DenseTensor*>> output_slots_;
  std::vector<DenseTensor> unwritten_outputs_;
  std::vector<std::pair<DenseTensor*, DenseTensor*>> inplace_tensors_;
  int broadcast_axis_ = -1;
  const DenseTensor* aligned_source_ = nullptr;
  DenseTensor aligned_y_;
  bool metas_inferred_ = false;
  DataType kernel_dtype_;
  const DenseTensor* dtype_source_ = nullptr;  // the input whose dtype chose the kernel
  const std::string* dtype_source_name_ = nullptr;
  std::vector<std::pair<DenseTensor*, bool>> shared_writes_;  // (output, also an input)
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
