#include "paddle/imperative/backward.h"

#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "paddle/imperative/amp.h"
#include "paddle/imperative/grad_mode.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/full_like.h"

namespace paddle::imperative {

namespace {

// Where a requested gradient is taken from: a slot of a node.
struct Capture {
  GradNode* node;
  int slot;
};

class Engine {
 public:
  Engine(bool retain_graph, bool create_graph)
      : retain_graph_(retain_graph), create_graph_(create_graph) {}

  // Seeds the gradient of `tensor` with `grad` (ones when undefined).
  void AddRoot(const Tensor& tensor, const Tensor& grad, const char* api) {
    AutogradMeta* meta = GetAutogradMeta(tensor);
    PD_CHECK(meta != nullptr && !meta->stop_gradient,
             errors::PreconditionNotMet(
                 api,
                 ": the tensor does not require grad (its stop_gradient is True), so no "
                 "gradient can flow from it; set stop_gradient=False on the inputs it is "
                 "computed from"));
    Tensor seed = grad;
    if (seed.defined()) {
      PD_CHECK(
          seed.dims() == tensor.dims(),
          errors::InvalidArgument(api, ": grad_tensor of shape ", seed.dims().ToString(),
                                  " does not match the tensor's shape ", tensor.dims().ToString()));
    } else {
      GradModeGuard no_grad(false);
      seed = ops::full_like(tensor, 1.0, tensor.dtype());
    }
    int slot = 0;
    std::shared_ptr<GradNode> node = GradTarget(tensor, &slot);
    roots_.push_back(node);
    Accumulate(node.get(), slot, seed);
  }

  void CaptureAt(GradNode* node, int slot) { captures_.push_back({node, slot}); }
  void Block(GradNode* node) { blocked_.insert(node); }
  // With captures, only nodes on a path to a capture run, and accumulation nodes do not.
  void Run();
  const std::vector<Tensor>& captured() const { return captured_; }

 private:
  void Accumulate(GradNode* node, int slot, const Tensor& grad) {
    std::vector<Tensor>& buffer = buffers_[node];
    if (buffer.empty()) buffer.resize(node->num_slots());
    Tensor& dst = buffer[slot];
    if (!dst.defined()) {
      dst = grad;
    } else {
      GradModeGuard guard(create_graph_);
      dst = AddGradients(dst, grad);
    }
  }

  void CountDependencies();
  bool Useful(GradNode* node);

  bool retain_graph_;
  bool create_graph_;
  std::vector<std::shared_ptr<GradNode>> roots_;
  std::unordered_map<GradNode*, std::vector<Tensor>> buffers_;
  std::unordered_map<GradNode*, int> dependencies_;
  std::unordered_map<GradNode*, bool> useful_;  // leads to a capture
  std::unordered_set<GradNode*> blocked_;
  std::vector<Capture> captures_;
  std::vector<Tensor> captured_;
};

void Engine::CountDependencies() {
  std::vector<GradNode*> stack;
  std::unordered_set<GradNode*> seen;
  for (const auto& root : roots_) {
    if (seen.insert(root.get()).second) stack.push_back(root.get());
  }
  while (!stack.empty()) {
    GradNode* node = stack.back();
    stack.pop_back();
    for (const Edge& edge : node->edges()) {
      if (!edge.node) continue;
      ++dependencies_[edge.node.get()];
      if (seen.insert(edge.node.get()).second) stack.push_back(edge.node.get());
    }
  }
}

bool Engine::Useful(GradNode* node) {
  if (captures_.empty()) return true;
  auto it = useful_.find(node);
  if (it != useful_.end()) return it->second;
  useful_[node] = false;  // the graph is acyclic; this only guards the recursion
  bool useful = false;
  for (const Capture& c : captures_) useful = useful || c.node == node;
  if (!blocked_.count(node)) {
    for (const Edge& edge : node->edges()) {
      if (edge.node && Useful(edge.node.get())) useful = true;
    }
  }
  useful_[node] = useful;
  return useful;
}

void Engine::Run() {
  AmpSuspendGuard no_amp;
  CountDependencies();
  captured_.resize(captures_.size());
  std::deque<std::shared_ptr<GradNode>> ready;
  std::unordered_set<GradNode*> queued;
  for (const auto& root : roots_) {
    if (dependencies_[root.get()] == 0 && queued.insert(root.get()).second) {
      ready.push_back(root);
    }
  }
  while (!ready.empty()) {
    std::shared_ptr<GradNode> node = ready.front();
    ready.pop_front();
    std::vector<Tensor> grads = std::move(buffers_[node.get()]);
    buffers_.erase(node.get());
    grads.resize(node->num_slots());
    {
      GradModeGuard guard(create_graph_);
      for (int slot = 0; slot < node->num_slots(); ++slot) {
        if (!grads[slot].defined()) {
          const TensorMeta& m = node->slot_meta(slot);
          grads[slot] = ops::full(m.dims.ToVector(), 0.0, m.dtype, node->slot_place(slot));
        }
        grads[slot] = node->ApplyHooks(slot, grads[slot]);
      }
    }
    for (size_t i = 0; i < captures_.size(); ++i) {
      if (captures_[i].node == node.get()) {
        const Tensor& g = grads[captures_[i].slot];
        captured_[i] = captured_[i].defined() ? AddGradients(captured_[i], g) : g;
      }
    }
    bool run = Useful(node.get()) && !blocked_.count(node.get());
    bool is_accumulation = dynamic_cast<AccumulationNode*>(node.get()) != nullptr;
    if (!captures_.empty() && is_accumulation) run = false;
    std::vector<Tensor> input_grads;
    if (run) input_grads = node->Apply(&grads, create_graph_);
    if (!retain_graph_) node->ReleaseSaved();

    const std::vector<Edge>& edges = node->edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& edge = edges[i];
      if (!edge.node) continue;
      GradNode* next = edge.node.get();
      if (i < input_grads.size() && input_grads[i].defined()) {
        Accumulate(next, edge.slot, input_grads[i]);
      }
      if (--dependencies_[next] == 0 && queued.insert(next).second) {
        // Accumulation first: leaf gradients land, and their buffers free, as early as possible.
        if (dynamic_cast<AccumulationNode*>(next) != nullptr) {
          ready.push_front(edge.node);
        } else {
          ready.push_back(edge.node);
        }
      }
    }
  }
}

}  // namespace

void Backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors,
              bool retain_graph) {
  PD_CHECK(
      grad_tensors.empty() || grad_tensors.size() == tensors.size(),
      errors::InvalidArgument("backward: expected ", tensors.size(),
                              " grad_tensors (one per tensor), received ", grad_tensors.size()));
  Engine engine(retain_graph, false);
  for (size_t i = 0; i < tensors.size(); ++i) {
    engine.AddRoot(tensors[i], grad_tensors.empty() ? Tensor() : grad_tensors[i], "backward");
  }
  engine.Run();
}

std::vector<Tensor> Grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs, bool retain_graph,
                         bool create_graph, bool allow_unused,
                         const std::vector<Tensor>& no_grad_vars) {
  PD_CHECK(
      grad_outputs.empty() || grad_outputs.size() == outputs.size(),
      errors::InvalidArgument("grad: expected ", outputs.size(),
                              " grad_outputs (one per output), received ", grad_outputs.size()));
  Engine engine(retain_graph, create_graph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    int slot = 0;
    std::shared_ptr<GradNode> node = GradTarget(inputs[i], &slot);
    PD_CHECK(node != nullptr, errors::PreconditionNotMet("grad: inputs[", i,
                                                         "] does not require grad (its "
                                                         "stop_gradient is True)"));
    engine.CaptureAt(node.get(), slot);
  }
  for (const Tensor& t : no_grad_vars) {
    int slot = 0;
    if (auto node = GradTarget(t, &slot)) engine.Block(node.get());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    engine.AddRoot(outputs[i], grad_outputs.empty() ? Tensor() : grad_outputs[i], "grad");
  }
  engine.Run();
  std::vector<Tensor> result = engine.captured();
  for (size_t i = 0; i < result.size(); ++i) {
    PD_CHECK(result[i].defined() || allow_unused,
             errors::InvalidArgument("grad: inputs[", i,
                                     "] is not reachable from the outputs; "
                                     "pass allow_unused=True to get None for it"));
    if (result[i].defined() && !create_graph) result[i].set_autograd_meta(nullptr);
  }
  return result;
}

}  // namespace paddle::imperative
