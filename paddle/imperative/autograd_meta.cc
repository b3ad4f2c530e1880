#include "paddle/imperative/autograd_meta.h"

#include "paddle/imperative/grad_node.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/scale.h"

namespace paddle::imperative {

AutogradMeta* GetAutogradMeta(const Tensor& tensor) {
  return static_cast<AutogradMeta*>(tensor.autograd_meta());
}

AutogradMeta& EnsureAutogradMeta(Tensor* tensor) {
  if (tensor->autograd_meta() == nullptr) {
    tensor->set_autograd_meta(std::make_shared<AutogradMeta>());
  }
  return *static_cast<AutogradMeta*>(tensor->autograd_meta());
}

bool RequiresGrad(const Tensor& tensor) {
  const AutogradMeta* meta = GetAutogradMeta(tensor);
  return meta != nullptr && !meta->stop_gradient;
}

std::shared_ptr<GradNode> GradTarget(const Tensor& tensor, int* slot) {
  AutogradMeta* meta = GetAutogradMeta(tensor);
  *slot = 0;
  if (meta == nullptr || meta->stop_gradient) return nullptr;
  if (meta->grad_node) {
    *slot = meta->output_index;
    return meta->grad_node;
  }
  if (!meta->accumulation_node) {
    meta->accumulation_node = std::make_shared<AccumulationNode>(tensor);
  }
  return meta->accumulation_node;
}

std::pair<std::shared_ptr<GradNode>, int64_t> RegisterHook(Tensor* tensor, TensorHook hook) {
  AutogradMeta& meta = EnsureAutogradMeta(tensor);
  PD_CHECK(!meta.stop_gradient,
           errors::PreconditionNotMet("register_hook: cannot register a hook on a tensor whose "
                                      "stop_gradient is True (it never receives a gradient)"));
  int slot = 0;
  std::shared_ptr<GradNode> node = GradTarget(*tensor, &slot);
  int64_t id = node->AddHook(slot, std::move(hook));
  return {node, id};
}

void RetainGrads(Tensor* tensor) {
  AutogradMeta& meta = EnsureAutogradMeta(tensor);
  if (meta.is_leaf() || meta.retain_grads) return;
  meta.retain_grads = true;
  std::weak_ptr<AutogradMetaBase> weak = tensor->shared_autograd_meta();
  meta.grad_node->AddHook(meta.output_index, [weak](const Tensor& grad) {
    if (auto locked = weak.lock()) {
      auto* m = static_cast<AutogradMeta*>(locked.get());
      m->grad = m->grad.defined() ? ops::add(m->grad, grad) : ops::scale(grad, 1.0);
    }
    return Tensor();
  });
}

}  // namespace paddle::imperative
