#include "paddle/imperative/grad_node.h"

#include <atomic>

#include "paddle/imperative/grad_mode.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sum.h"

namespace paddle::imperative {

int64_t GradNode::AddHook(int slot, TensorHook hook) {
  static std::atomic<int64_t> next_id{0};
  int64_t id = next_id++;
  hooks_[slot].emplace_back(id, std::move(hook));
  return id;
}

bool GradNode::RemoveHook(int64_t id) {
  for (auto& [slot, hooks] : hooks_) {
    for (auto it = hooks.begin(); it != hooks.end(); ++it) {
      if (it->first == id) {
        hooks.erase(it);
        return true;
      }
    }
  }
  return false;
}

Tensor GradNode::ApplyHooks(int slot, Tensor grad) const {
  auto it = hooks_.find(slot);
  if (it == hooks_.end()) return grad;
  for (const auto& [id, hook] : it->second) {
    Tensor replaced = hook(grad);
    if (replaced.defined()) {
      PD_CHECK(replaced.dims() == grad.dims(),
               errors::InvalidArgument("a gradient hook must return a tensor of the gradient's "
                                       "shape ",
                                       grad.dims().ToString(), ", but returned shape ",
                                       replaced.dims().ToString()));
      grad = replaced;
    }
  }
  return grad;
}

AccumulationNode::AccumulationNode(const Tensor& leaf) {
  leaf_ = std::static_pointer_cast<AutogradMeta>(leaf.shared_autograd_meta());
  slot_metas_.push_back(leaf.dense().meta());
  slot_places_.push_back(leaf.place());
}

std::vector<Tensor> AccumulationNode::Apply(std::vector<Tensor>* slot_grads, bool create_graph) {
  std::shared_ptr<AutogradMeta> meta = leaf_.lock();
  if (!meta) return {};
  GradModeGuard guard(create_graph);
  const Tensor& incoming = (*slot_grads)[0];
  if (!meta->grad.defined() && incoming.is_selected_rows()) {
    meta->grad = Tensor(funcs::CopyRows(*incoming.selected_rows()));
  } else if (!meta->grad.defined()) {
    // A copy: the incoming gradient may share its buffer with other leaves' gradients.
    meta->grad = create_graph ? incoming : ops::scale(incoming, 1.0);
  } else {
    meta->grad = AddGradients(meta->grad, incoming);
  }
  if (!create_graph) meta->grad.set_autograd_meta(nullptr);
  for (const auto& hook : reduce_hooks_) hook();
  return {};
}

SavedTensor::SavedTensor(const Tensor& tensor, bool is_output, bool meta_only, GradNode* node,
                         int slot)
    : slot_(slot), is_output_(is_output) {
  if (meta_only) {
    auto shape_only = std::make_shared<DenseTensor>(tensor.dense().meta());
    shape_only->set_place(tensor.place());
    tensor_ = Tensor(std::move(shape_only));
    return;
  }
  version_ = tensor.dense().inplace_version();
  if (is_output) {
    tensor_ = Tensor(tensor.impl());
    owner_ = node->weak_from_this();
  } else {
    tensor_ = tensor;
  }
}

Tensor SavedTensor::Unpack(const std::string& op_name) const {
  if (!tensor_.defined()) return tensor_;
  PD_CHECK(tensor_.dense().inplace_version() == version_,
           errors::PreconditionNotMet(
               op_name,
               ": a tensor saved for the gradient was modified by an inplace operation "
               "after it was saved (version ",
               version_, " saved, now ", tensor_.dense().inplace_version(),
               "); use the out-of-place API instead"));
  if (!is_output_) return tensor_;
  Tensor unpacked(tensor_.impl());
  if (auto owner = owner_.lock()) {
    AutogradMeta& meta = EnsureAutogradMeta(&unpacked);
    meta.stop_gradient = false;
    meta.grad_node = owner;
    meta.output_index = slot_;
  }
  return unpacked;
}

OpGradNode::OpGradNode(const ops::OpSchema& op, const ops::OpCall& call)
    : op_(&op), attrs_(call.attrs) {}

void OpGradNode::Record(const ops::OpCall& call, const ops::OpResult& outputs) {
  const ops::BackwardSchema& backward = *op_->backward;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    const std::vector<Tensor>& slot = call.inputs[i];
    input_sizes_.push_back(static_cast<int>(slot.size()));
    std::vector<SavedTensor> saved;
    for (const Tensor& t : slot) {
      input_metas_.push_back(t.dense().meta());
      Edge edge;
      if (backward.differentiable[i]) edge.node = GradTarget(t, &edge.slot);
      edges_.push_back(std::move(edge));
      if (backward.save_inputs[i]) {
        saved.emplace_back(t, false, backward.no_need_buffer[i], this, 0);
      }
    }
    saved_inputs_.push_back(std::move(saved));
  }
  int flat = 0;
  for (size_t k = 0; k < outputs.size(); ++k) {
    output_sizes_.push_back(static_cast<int>(outputs[k].size()));
    std::vector<SavedTensor> saved;
    for (const Tensor& t : outputs[k]) {
      slot_metas_.push_back(t.dense().meta());
      slot_places_.push_back(t.place());
      if (backward.save_outputs[k]) saved.emplace_back(t, true, false, this, flat);
      ++flat;
    }
    saved_outputs_.push_back(std::move(saved));
  }
}

void OpGradNode::ReleaseSaved() {
  saved_inputs_.clear();
  saved_outputs_.clear();
  released_ = true;
}

std::vector<Tensor> OpGradNode::Apply(std::vector<Tensor>* slot_grads, bool create_graph) {
  PD_CHECK(!released_, errors::PreconditionNotMet(
                           name(),
                           ": the saved tensors of this backward node were freed by a previous "
                           "backward pass; call backward(retain_graph=True) to backward twice"));
  GradModeGuard guard(create_graph);
  const ops::BackwardSchema& backward = *op_->backward;

  std::vector<std::vector<Tensor>> inputs(input_sizes_.size());
  for (size_t i = 0; i < input_sizes_.size(); ++i) {
    if (backward.save_inputs[i]) {
      for (const SavedTensor& s : saved_inputs_[i]) inputs[i].push_back(s.Unpack(op_->name));
    } else {
      inputs[i].resize(input_sizes_[i]);
    }
  }
  std::vector<std::vector<Tensor>> outputs(output_sizes_.size());
  std::vector<std::vector<Tensor>> out_grads(output_sizes_.size());
  int flat = 0;
  for (size_t k = 0; k < output_sizes_.size(); ++k) {
    if (backward.save_outputs[k]) {
      for (const SavedTensor& s : saved_outputs_[k]) outputs[k].push_back(s.Unpack(op_->name));
    } else {
      outputs[k].resize(output_sizes_[k]);
    }
    for (int j = 0; j < output_sizes_[k]; ++j) out_grads[k].push_back((*slot_grads)[flat++]);
  }

  std::vector<Tensor> input_grads(edges_.size());
  ops::GradCall call;
  call.inputs = &inputs;
  call.outputs = &outputs;
  call.attrs = &attrs_;
  call.out_grads = &out_grads;
  call.input_grads.resize(input_sizes_.size());
  flat = 0;
  for (size_t i = 0; i < input_sizes_.size(); ++i) {
    bool any = false;
    for (int j = 0; j < input_sizes_[i]; ++j) any = any || edges_[flat + j].node != nullptr;
    if (any && backward.differentiable[i]) {
      for (int j = 0; j < input_sizes_[i]; ++j)
        call.input_grads[i].push_back(&input_grads[flat + j]);
    }
    flat += input_sizes_[i];
  }
  backward.fn(&call);

  for (size_t i = 0; i < input_grads.size(); ++i) {
    if (!edges_[i].node || !input_grads[i].defined()) {
      input_grads[i] = Tensor();
      continue;
    }
    input_grads[i] = ReduceToShape(input_grads[i], input_metas_[i].dims);
  }
  return input_grads;
}

Tensor ReduceToShape(const Tensor& grad, const DDim& dims) {
  if (grad.is_selected_rows()) return grad;
  const DDim& from = grad.dims();
  if (from == dims) return grad;
  int lead = from.size() - dims.size();
  PD_INTERNAL_ASSERT(lead >= 0, "gradient of shape ", from.ToString(),
                     " cannot be reduced to shape ", dims.ToString());
  std::vector<int64_t> axes;
  for (int i = 0; i < from.size(); ++i) {
    if (i < lead || (dims[i - lead] == 1 && from[i] != 1)) axes.push_back(i);
  }
  Tensor reduced = axes.empty() ? grad : ops::sum(grad, axes, DataType::UNDEFINED, false);
  return ops::reshape(reduced, dims.ToVector());
}

Tensor AddGradients(const Tensor& a, const Tensor& b) {
  if (!a.is_selected_rows() && !b.is_selected_rows()) return ops::add(a, b);
  if (a.is_selected_rows() && b.is_selected_rows()) {
    return Tensor(funcs::MergeRows(*funcs::ConcatRows(*a.selected_rows(), *b.selected_rows())));
  }
  const Tensor& rows = a.is_selected_rows() ? a : b;
  const Tensor& dense = a.is_selected_rows() ? b : a;
  Tensor sum;
  {
    GradModeGuard no_grad(false);  // a sum with SelectedRows is not differentiated further
    sum = ops::scale(dense, 1.0);  // a copy to add the rows into
  }
  funcs::AddRowsTo(*rows.selected_rows(), sum.impl().get());
  return sum;
}

}  // namespace paddle::imperative
