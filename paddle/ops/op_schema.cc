#include "paddle/ops/op_schema.h"

#include <unordered_map>

#include "paddle/kernels/kernel_registry.h"
#include "paddle/ops/op_schema_table.h"

namespace paddle::ops {

namespace {

struct SchemaTables {
  std::vector<OpSchema> ops;
  std::vector<BackwardSchema> backwards;
  std::unordered_map<std::string, int> index;

  SchemaTables() : ops(BuildOpSchemas()) {
    for (size_t i = 0; i < ops.size(); ++i) {
      ops[i].id = static_cast<int>(i);
      index.emplace(ops[i].name, static_cast<int>(i));
    }
    std::vector<BackwardSpec> specs = BuildBackwardSpecs();
    backwards.reserve(specs.size());  // pointers into it are handed out below
    for (BackwardSpec& spec : specs) {
      OpSchema& forward = ops[index.at(spec.forward)];
      BackwardSchema b;
      b.name = spec.name;
      b.forward = &forward;
      b.fn = spec.fn;
      b.save_inputs = std::move(spec.save_inputs);
      b.save_outputs = std::move(spec.save_outputs);
      b.no_need_buffer = std::move(spec.no_need_buffer);
      b.differentiable = std::move(spec.differentiable);
      b.selected_rows_attr = std::move(spec.selected_rows_attr);
      b.selected_rows_attr.resize(forward.inputs.size(), -1);
      b.yaml_line = spec.yaml_line;
      backwards.push_back(std::move(b));
      forward.backward = &backwards.back();
    }
  }
};

const SchemaTables& Tables() {
  static const SchemaTables tables;
  return tables;
}

DispatchFn g_dispatcher = nullptr;

}  // namespace

const KernelTable& OpSchema::kernels() const {
  if (kernels_ == nullptr) {
    kernels_ = KernelRegistry::Instance().Find(kernel_name);
    PD_CHECK(kernels_ != nullptr,
             errors::Unimplemented(name, ": no kernel named '", kernel_name, "' is registered"));
  }
  return *kernels_;
}

int OpSchema::FindAttr(const std::string& attr_name) const {
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (attrs[i].name == attr_name) return static_cast<int>(i);
  }
  return -1;
}

int OpSchema::FindInput(const std::string& input_name) const {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == input_name) return static_cast<int>(i);
  }
  return -1;
}

const std::vector<OpSchema>& AllOps() { return Tables().ops; }

const OpSchema* FindOp(const std::string& name) {
  const SchemaTables& tables = Tables();
  auto it = tables.index.find(name);
  return it == tables.index.end() ? nullptr : &tables.ops[it->second];
}

const OpSchema& GetOp(const std::string& name) {
  const OpSchema* op = FindOp(name);
  PD_CHECK(op != nullptr, errors::NotFound("no op named '", name, "'"));
  return *op;
}

int OptionalInplaceInput(const OpSchema& op, size_t output) {
  for (const auto& [in, out] : op.inplace) {
    if (out == static_cast<int>(output) && op.inputs[in].kind == InputKind::kOptional) return in;
  }
  return -1;
}

void RunInferMeta(const OpSchema& op, InferMetaArgs* args) {
  // A complex input to an op with no complex kernel is the registry's TypeError (naming the op and
  // the dtype) before InferMeta, which may reject it as a non-floating tensor with a ValueError.
  // No CUDA kernel takes complex numbers yet, so the CPU kernels decide.
  if (op.data_type_input >= 0 && static_cast<size_t>(op.data_type_input) < args->inputs.size()) {
    const KernelTable* kernels = KernelRegistry::Instance().Find(op.kernel_name);
    for (const TensorMeta& m : args->inputs[op.data_type_input]) {
      if (kernels && IsComplex(m.dtype) && !kernels->Find(Backend::CPU, m.dtype)) {
        kernels->Select(KernelKey{Backend::CPU, DataLayout::ANY, m.dtype});
      }
    }
  }
  args->outputs.resize(op.outputs.size());
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    if (!op.outputs[k].is_list) args->outputs[k].resize(1);
  }
  try {
    op.infer_meta(args);
  } catch (const Error& e) {
    std::string message = e.what();
    if (message.rfind(op.name, 0) == 0) throw;
    throw Error(e.code(), op.name + ": " + message);
  }
}

DataType PromotedType(const OpSchema& op, const std::array<DataType, kMaxPromotedInputs>& dtypes) {
  DataType common = dtypes[0];
  bool differ = false;
  for (size_t k = 0; k < op.promote.size(); ++k) {
    DataType t = dtypes[k];
    if (t == common && !differ) continue;
    // Paddle promotes among the floating and complex dtypes, and anything with a complex one.
    bool promotable =
        ((IsFloating(t) || IsComplex(t)) && (IsFloating(common) || IsComplex(common))) ||
        IsComplex(t) || IsComplex(common);
    PD_CHECK(promotable,
             errors::InvalidType(op.name,
                                 ": type promotion only applies between floating-point or "
                                 "complex dtypes, but '",
                                 op.inputs[op.promote[0]].name, "' is ", DataTypeName(dtypes[0]),
                                 " and '", op.inputs[op.promote[k]].name, "' is ", DataTypeName(t),
                                 "; cast one of them first"));
    differ = true;
    common = PromoteTypes(common, t);
  }
  return common;
}

void SetDispatcher(DispatchFn fn) { g_dispatcher = fn; }

OpResult Dispatch(const OpSchema& op, OpCall* call) {
  PD_INTERNAL_ASSERT(g_dispatcher != nullptr, "no dispatcher installed before calling ", op.name);
  return g_dispatcher(op, call);
}

}  // namespace paddle::ops
