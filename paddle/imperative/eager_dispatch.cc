#include "paddle/imperative/eager_dispatch.h"

#include "paddle/imperative/amp.h"
#include "paddle/imperative/grad_mode.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/kernels/selected_rows_kernel.h"
#include "paddle/ops/generated/api/cast.h"

namespace paddle::imperative {

namespace {

Place g_default_place = CPUPlace();

// The place all tensor inputs share; creation ops use their Place attribute.
Place ResolvePlace(const ops::OpSchema& op, const ops::OpCall& call) {
  const Tensor* first = nullptr;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    for (const Tensor& t : call.inputs[i]) {
      PD_CHECK(t.defined(), errors::InvalidArgument(op.name, ": input '", op.inputs[i].name,
                                                    "' is an undefined tensor"));
      if (first == nullptr) {
        first = &t;
      } else {
        PD_CHECK(
            t.place() == first->place(),
            errors::InvalidArgument(op.name, ": all inputs must be on the same place, but '",
                                    op.inputs[0].name, "' is on ", first->place().ToString(),
                                    " and '", op.inputs[i].name, "' is on ", t.place().ToString()));
      }
    }
  }
  if (first != nullptr) return first->place();
  for (size_t j = 0; j < op.attrs.size(); ++j) {
    if (const Place* p = std::get_if<Place>(&call.attrs[j])) {
      if (p->type() != AllocationType::UNDEFINED) return *p;
    }
  }
  return g_default_place;
}

// Casts the inputs listed in `promote` to their common dtype (recorded, so gradients flow back
// through the cast). As in Paddle, only floating-point operands promote; mixing integer, bool
// and floating dtypes is an error the caller resolves with an explicit cast.
void PromoteInputs(const ops::OpSchema& op, ops::OpCall* call) {
  std::array<DataType, ops::kMaxPromotedInputs> dtypes{};
  for (size_t k = 0; k < op.promote.size(); ++k) dtypes[k] = call->inputs[op.promote[k]][0].dtype();
  DataType common = ops::PromotedType(op, dtypes);
  for (int i : op.promote) {
    Tensor& t = call->inputs[i][0];
    if (t.dtype() != common) t = ops::cast(t, common);
  }
}

DataType KernelDataType(const ops::OpSchema& op, const ops::OpCall& call) {
  if (op.data_type_input >= 0) {
    const std::vector<Tensor>& slot = call.inputs[op.data_type_input];
    PD_CHECK(!slot.empty(),
             errors::InvalidArgument(op.name, ": input '", op.inputs[op.data_type_input].name,
                                     "' is required"));
    return slot[0].dtype();
  }
  DataType dtype = std::get<DataType>(call.attrs[op.data_type_attr]);
  if (dtype == DataType::UNDEFINED && !call.inputs.empty() && !call.inputs[0].empty()) {
    return call.inputs[0][0].dtype();  // full_like with no dtype: the input's
  }
  return dtype;
}

// The kernel for a call with a SelectedRows input (the sparse optimizer updates, add_n), and
// the SelectedRows per input tensor; null when every input is dense. Unimplemented, naming the
// op and the input, when the op has no such kernel.
SelectedRowsKernelFn SelectedRowsKernelFor(const ops::OpSchema& op, const ops::OpCall& call,
                                           Backend backend, SelectedRowsInputs* selected_rows) {
  int first = -1;
  for (size_t i = 0; i < call.inputs.size() && first < 0; ++i) {
    for (const Tensor& t : call.inputs[i]) {
      if (t.is_selected_rows()) first = static_cast<int>(i);
    }
  }
  if (first < 0) return nullptr;
  SelectedRowsKernelFn fn = FindSelectedRowsKernel(op.kernel_name, backend);
  PD_CHECK(fn != nullptr, errors::Unimplemented(op.name, ": input '", op.inputs[first].name,
                                                "' is a SelectedRows (a sparse gradient, as "
                                                "Embedding(sparse=True) produces), but ",
                                                op.name, " has no ", BackendName(backend),
                                                " kernel for one; it expects a dense tensor"));
  for (const std::vector<Tensor>& slot : call.inputs) {
    selected_rows->emplace_back();
    for (const Tensor& t : slot) selected_rows->back().push_back(t.selected_rows().get());
  }
  return fn;
}

bool NeedsGrad(const ops::OpSchema& op, const ops::OpCall& call) {
  if (op.backward == nullptr || !GradEnabled()) return false;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    if (!op.backward->differentiable[i]) continue;
    for (const Tensor& t : call.inputs[i]) {
      if (RequiresGrad(t)) return true;
    }
  }
  return false;
}

// Runs `op`. With `inplace`, every declared pair (x -> out) writes out into x's buffer: x's
// version is bumped and x (the caller's tensor, with its autograd meta) is returned as out. An
// output paired with an absent optional input, or skipped by the caller, is absent: the kernel
// gets a null output and the result holds an undefined tensor.
ops::OpResult Run(const ops::OpSchema& op, ops::OpCall* call, bool inplace) {
  PD_INTERNAL_ASSERT(
      call->inputs.size() == op.inputs.size() && call->attrs.size() == op.attrs.size(), op.name,
      " called with the wrong number of arguments");
  Place place = ResolvePlace(op, *call);
  // The tensors written in place, one per pair (undefined for an absent optional input), taken
  // before promotion may replace the inputs.
  std::vector<Tensor> targets;
  if (inplace) {
    targets.reserve(op.inplace.size());
    for (const auto& pair : op.inplace) {
      const std::vector<Tensor>& slot = call->inputs[pair.first];
      targets.push_back(slot.empty() ? Tensor() : slot[0]);
    }
  }
  if (!inplace && AmpEnabled()) AmpCastInputs(op, call);
  if (!op.promote.empty()) PromoteInputs(op, call);
  for (size_t p = 0; p < targets.size(); ++p) {
    const Tensor& target = targets[p];
    if (!target.defined()) continue;
    int in = op.inplace[p].first;
    const Tensor& input = call->inputs[in][0];
    PD_CHECK(
        input.impl() == target.impl(),
        errors::InvalidArgument(op.name, "_: the in-place op would change the dtype of '",
                                op.inputs[in].name, "' from ", DataTypeName(target.dtype()), " to ",
                                DataTypeName(input.dtype()), "; use the out-of-place ", op.name));
    const AutogradMeta* meta = GetAutogradMeta(target);
    PD_CHECK(!(GradEnabled() && meta && !meta->stop_gradient && meta->is_leaf()),
             errors::InvalidArgument(
                 op.name,
                 "_: a leaf tensor that requires grad "
                 "(stop_gradient=False) cannot be modified in place",
                 op.inplace.size() > 1 ? " ('" + op.inputs[in].name + "')" : std::string()));
  }

  // Shapes and dtypes first, so bad input fails before any memory is touched.
  ops::InferMetaArgs meta;
  meta.inputs.resize(call->inputs.size());
  for (size_t i = 0; i < call->inputs.size(); ++i) {
    for (const Tensor& t : call->inputs[i]) {
      // A SelectedRows stands for its whole table as far as shapes go.
      meta.inputs[i].push_back(t.is_selected_rows() ? t.selected_rows()->complete_meta()
                                                    : t.dense().meta());
    }
  }
  meta.attrs = &call->attrs;
  ops::RunInferMeta(op, &meta);
  for (size_t p = 0; p < targets.size(); ++p) {
    if (!targets[p].defined()) continue;
    const DDim& in_dims = targets[p].dims();
    const DDim& out_dims = meta.outputs[op.inplace[p].second][0].dims;
    PD_CHECK(in_dims == out_dims,
             errors::InvalidArgument(op.name, "_: the result has shape ", out_dims.ToString(),
                                     ", which differs from the shape ", in_dims.ToString(),
                                     " of the tensor modified in place"));
  }

  DataType dtype = KernelDataType(op, *call);
  // The first tensor input's layout picks a layout-specific kernel when one is registered.
  DataLayout layout = DataLayout::ANY;
  for (const std::vector<Tensor>& slot : call->inputs) {
    if (!slot.empty()) {
      layout = slot[0].dense().layout();
      break;
    }
  }
  SelectedRowsInputs selected_rows;
  SelectedRowsKernelFn selected_rows_kernel =
      SelectedRowsKernelFor(op, *call, BackendOf(place), &selected_rows);
  const Kernel& kernel = op.kernels().Select(KernelKey{BackendOf(place), layout, dtype});
  const DeviceContext& device_context = GetDeviceContext(place);

  ops::OpResult result(op.outputs.size());
  KernelContext kernel_context(&device_context);
  for (size_t i = 0; i < call->inputs.size(); ++i) {
    const std::vector<Tensor>& slot = call->inputs[i];
    switch (op.inputs[i].kind) {
      case ops::InputKind::kTensor:
        PD_CHECK(slot.size() == 1,
                 errors::InvalidArgument(op.name, ": input '", op.inputs[i].name,
                                         "' expects one tensor, received ", slot.size()));
        kernel_context.AddInput(slot[0].impl().get());
        break;
      case ops::InputKind::kOptional:
        kernel_context.AddInput(slot.empty() ? nullptr : slot[0].impl().get());
        break;
      case ops::InputKind::kList: {
        std::vector<const DenseTensor*> list;
        for (const Tensor& t : slot) list.push_back(t.impl().get());
        kernel_context.AddInputList(std::move(list));
        break;
      }
    }
  }
  for (const Attribute& attr : call->attrs) kernel_context.AddAttr(&attr);
  // Outputs paired with an absent optional input are absent.
  for (const auto& [in, out] : op.inplace) {
    if (op.inputs[in].kind == ops::InputKind::kOptional && call->inputs[in].empty()) {
      result[out].emplace_back();
    }
  }
  for (size_t p = 0; p < targets.size(); ++p) {
    if (targets[p].defined()) result[op.inplace[p].second].emplace_back(targets[p].impl());
  }
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    std::vector<DenseTensor*> outs;
    const bool skipped = k < call->skipped_outputs.size() && call->skipped_outputs[k];
    if (skipped && result[k].empty() && !op.outputs[k].is_list) result[k].emplace_back();
    if (!result[k].empty()) {  // written in place, or absent
      outs.push_back(result[k][0].defined() ? result[k][0].impl().get() : nullptr);
    } else {
      for (const TensorMeta& m : meta.outputs[k]) {
        auto dense = std::make_shared<DenseTensor>(m);
        dense->set_place(place);
        outs.push_back(dense.get());
        result[k].emplace_back(std::move(dense));
      }
    }
    if (op.outputs[k].is_list) {
      kernel_context.AddOutputList(outs);
    } else {
      kernel_context.AddOutput(outs[0]);
    }
  }
  if (selected_rows_kernel != nullptr) {
    selected_rows_kernel(kernel_context, selected_rows);
  } else {
    kernel.fn(&kernel_context);
  }
  // Tensors saved earlier from these buffers now see a newer version than they recorded.
  for (Tensor& target : targets) {
    if (target.defined()) target.impl()->BumpInplaceVersion();
  }

  if (NeedsGrad(op, *call)) {
    auto node = std::make_shared<OpGradNode>(op, *call);
    node->Record(*call, result);
    int flat = 0;
    std::vector<int> first_flat(result.size());
    for (size_t k = 0; k < result.size(); ++k) {
      first_flat[k] = flat;
      for (Tensor& t : result[k]) {
        if (!t.defined()) {  // an absent optional output
          ++flat;
          continue;
        }
        AutogradMeta& m = EnsureAutogradMeta(&t);
        // Integer and bool outputs carry no gradient.
        m.stop_gradient = !IsFloating(t.dtype()) && !IsComplex(t.dtype());
        m.grad_node = node;
        m.output_index = flat++;
      }
    }
    // The modified tensors now come out of this node.
    for (size_t p = 0; p < targets.size(); ++p) {
      if (!targets[p].defined()) continue;
      AutogradMeta& m = EnsureAutogradMeta(&targets[p]);
      m.stop_gradient = false;
      m.grad_node = node;
      m.output_index = first_flat[op.inplace[p].second];
    }
  }
  // Each tensor modified in place is itself the output (same handle, same autograd meta).
  for (size_t p = 0; p < targets.size(); ++p) {
    if (targets[p].defined()) result[op.inplace[p].second][0] = targets[p];
  }
  return result;
}

}  // namespace

ops::OpResult EagerDispatch(const ops::OpSchema& op, ops::OpCall* call) {
  return Run(op, call, false);
}

ops::OpResult EagerDispatchInplace(const ops::OpSchema& op, ops::OpCall* call) {
  PD_CHECK(!op.inplace.empty(),
           errors::Unimplemented(op.name, " has no in-place variant ", op.name, "_"));
  return Run(op, call, true);
}

void InitEager() { ops::SetDispatcher(&EagerDispatch); }

const Place& DefaultPlace() { return g_default_place; }
void SetDefaultPlace(const Place& place) { g_default_place = place; }

}  // namespace paddle::imperative
