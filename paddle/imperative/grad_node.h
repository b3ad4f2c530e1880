// GradNode: one node of the backward graph. Its "slots" are the forward outputs (gradients come
// in) and its edges the forward inputs (gradients go out), both flattened over tensor lists.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "paddle/core/tensor.h"
#include "paddle/imperative/autograd_meta.h"
#include "paddle/ops/op_schema.h"

namespace paddle::imperative {

struct Edge {
  std::shared_ptr<GradNode> node;  // null: no gradient flows to this input
  int slot = 0;
};

class GradNode : public std::enable_shared_from_this<GradNode> {
 public:
  virtual ~GradNode() = default;

  virtual std::string name() const = 0;
  // Gradients of the forward inputs (one per edge, undefined where none) from the gradients of
  // the forward outputs (one per slot, zero-filled by the engine).
  virtual std::vector<Tensor> Apply(std::vector<Tensor>* slot_grads, bool create_graph) = 0;
  // Drops the saved tensors once backward has used them (retain_graph=False).
  virtual void ReleaseSaved() {}

  const std::vector<Edge>& edges() const { return edges_; }
  int num_slots() const { return static_cast<int>(slot_metas_.size()); }
  const TensorMeta& slot_meta(int slot) const { return slot_metas_[slot]; }
  const Place& slot_place(int slot) const { return slot_places_[slot]; }

  // Returns an id for RemoveHook.
  int64_t AddHook(int slot, TensorHook hook);
  bool RemoveHook(int64_t id);
  // Runs the hooks registered on `slot` over `grad`, in registration order.
  Tensor ApplyHooks(int slot, Tensor grad) const;

 protected:
  std::vector<Edge> edges_;
  std::vector<TensorMeta> slot_metas_;
  std::vector<Place> slot_places_;
  std::map<int, std::vector<std::pair<int64_t, TensorHook>>> hooks_;
};

// The sink of a leaf tensor: adds incoming gradients into the leaf's `grad`.
class AccumulationNode : public GradNode {
 public:
  explicit AccumulationNode(const Tensor& leaf);
  std::string name() const override { return "AccumulationNode"; }
  std::vector<Tensor> Apply(std::vector<Tensor>* slot_grads, bool create_graph) override;
  std::shared_ptr<AutogradMeta> leaf_meta() const { return leaf_.lock(); }
  // Runs `hook` each time a gradient has been accumulated into the leaf's `grad`, as Paddle's
  // reduce hooks: DataParallel's reducer learns there that a parameter's gradient is final.
  void AddReduceHook(std::function<void()> hook) { reduce_hooks_.push_back(std::move(hook)); }

 private:
  std::weak_ptr<AutogradMeta> leaf_;
  std::vector<std::function<void()>> reduce_hooks_;
};

// A forward tensor kept for backward, with the version it had, so an in-place write in between
// is caught instead of giving a wrong gradient.
class SavedTensor {
 public:
  SavedTensor() = default;
  // `is_output`: the tensor is an output of `node` itself; keep a weak link to the node to avoid
  // a cycle, and rebuild the link when unpacked. `meta_only`: keep only the shape and dtype.
  SavedTensor(const Tensor& tensor, bool is_output, bool meta_only, GradNode* node, int slot);
  Tensor Unpack(const std::string& op_name) const;
  void Release() { *this = SavedTensor(); }

 private:
  Tensor tensor_;
  std::weak_ptr<GradNode> owner_;
  int slot_ = 0;
  bool is_output_ = false;
  uint32_t version_ = 0;
};

// The node recorded for one op call; its backward is the rule of the op's backward entry
// (paddle/ops/yaml).
class OpGradNode : public GradNode {
 public:
  OpGradNode(const ops::OpSchema& op, const ops::OpCall& call);
  // Called once the outputs exist: saves what the rule reads, sets edges and slot metas.
  void Record(const ops::OpCall& call, const ops::OpResult& outputs);

  std::string name() const override { return op_->backward->name; }
  std::vector<Tensor> Apply(std::vector<Tensor>* slot_grads, bool create_graph) override;
  void ReleaseSaved() override;

 private:
  const ops::OpSchema* op_;
  std::vector<Attribute> attrs_;
  std::vector<std::vector<SavedTensor>> saved_inputs_;
  std::vector<std::vector<SavedTensor>> saved_outputs_;
  std::vector<int> input_sizes_;         // tensors per forward input slot
  std::vector<int> output_sizes_;        // tensors per forward output slot
  std::vector<TensorMeta> input_metas_;  // flat, to sum broadcast gradients back to shape
  bool released_ = false;
};

// Sums `grad` over the dimensions that broadcasting added or expanded, giving `dims`. A
// SelectedRows gradient is returned as it is (it never comes from a broadcast).
Tensor ReduceToShape(const Tensor& grad, const DDim& dims);

// The sum of two gradients of one tensor: two SelectedRows give a SelectedRows with their rows
// merged (sorted, each once); a SelectedRows and a dense tensor give a dense tensor.
Tensor AddGradients(const Tensor& a, const Tensor& b);

}  // namespace paddle::imperative
