#include "paddle/distributed/reducer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <unordered_set>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/memory/memcpy.h"

namespace paddle::distributed {

Reducer::Reducer(std::vector<Tensor> params, std::vector<std::vector<size_t>> buckets,
                 std::shared_ptr<ProcessGroup> group, bool find_unused_parameters)
    : params_(std::move(params)),
      bucket_of_(params_.size()),
      slot_in_bucket_(params_.size()),
      ready_(params_.size()),
      group_(std::move(group)),
      find_unused_(find_unused_parameters) {
  std::vector<bool> seen(params_.size());
  for (auto& indices : buckets) {
    Bucket bucket;
    int64_t total = 0;
    for (size_t i : indices) {
      PD_CHECK(i < params_.size() && !seen[i],
               errors::InvalidArgument("DataParallel: parameter index ", i,
                                       " is out of range or in two buckets"));
      seen[i] = true;
      PD_CHECK(params_[i].dtype() == params_[indices[0]].dtype(),
               errors::InvalidArgument("DataParallel: a bucket mixes ",
                                       DataTypeName(params_[i].dtype()), " and ",
                                       DataTypeName(params_[indices[0]].dtype()), " parameters"));
      bucket_of_[i] = buckets_.size();
      slot_in_bucket_[i] = bucket.params.size();
      bucket.params.push_back(i);
      bucket.offsets.push_back(total);
      total += params_[i].numel();
    }
    if (bucket.params.empty()) continue;
    auto flat = std::make_shared<DenseTensor>(
        TensorMeta{DDim({total}), params_[indices[0]].dtype(), DataLayout::NCHW});
    flat->AllocateStorage(params_[indices[0]].place());
    bucket.flat = Tensor(std::move(flat));
    buckets_.push_back(std::move(bucket));
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    PD_CHECK(seen[i], errors::InvalidArgument("DataParallel: parameter ", i, " is in no bucket"));
    int slot = 0;
    auto node = std::dynamic_pointer_cast<imperative::AccumulationNode>(
        imperative::GradTarget(params_[i], &slot));
    PD_CHECK(node != nullptr,
             errors::InvalidArgument("DataParallel: parameter ", params_[i].name(),
                                     " must be a leaf that requires grad (stop_gradient=False)"));
    // The hook stays on the parameter after the reducer is gone; `alive_` tells it so.
    std::weak_ptr<bool> alive = alive_;
    node->AddReduceHook([this, alive, i] {
      if (!alive.expired()) MarkReady(i);
    });
  }
}

void Reducer::PrepareForBackward(const std::vector<Tensor>& outputs) {
  // A forward whose backward never ran (evaluation with gradients on) leaves nothing ready; a
  // backward that reached only some parameters leaves them unsynchronised, which is an error.
  bool partial = armed_ && std::find(ready_.begin(), ready_.end(), true) != ready_.end();
  if (partial) {
    std::string unused;
    for (size_t i = 0; i < params_.size(); ++i) {
      if (!ready_[i]) unused += (unused.empty() ? "" : ", ") + params_[i].name();
    }
    armed_ = false;
    PD_THROW(errors::PreconditionNotMet(
        "DataParallel: the previous backward gave no gradient to parameter(s) ", unused,
        ", so their gradients were not synchronised. Pass find_unused_parameters=True to "
        "DataParallel when some parameters do not take part in the loss"));
  }
  for (Bucket& bucket : buckets_) {
    bucket.pending = bucket.params.size();
    bucket.task = nullptr;
  }
  std::fill(ready_.begin(), ready_.end(), false);
  next_launch_ = 0;
  armed_ = true;
  if (!find_unused_) return;
  // The accumulation nodes that backward from `outputs` reaches; the other parameters are
  // unused in this step.
  std::unordered_set<const imperative::GradNode*> reached;
  std::vector<std::shared_ptr<imperative::GradNode>> stack;
  for (const Tensor& out : outputs) {
    int slot = 0;
    auto* meta = imperative::GetAutogradMeta(out);
    if (meta == nullptr || meta->stop_gradient || meta->grad_node == nullptr) continue;
    if (auto node = imperative::GradTarget(out, &slot)) stack.push_back(node);
  }
  while (!stack.empty()) {
    auto node = stack.back();
    stack.pop_back();
    if (!reached.insert(node.get()).second) continue;
    for (const imperative::Edge& edge : node->edges()) {
      if (edge.node) stack.push_back(edge.node);
    }
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    auto* meta = imperative::GetAutogradMeta(params_[i]);
    if (meta == nullptr || meta->accumulation_node == nullptr ||
        reached.count(meta->accumulation_node.get()) == 0) {
      MarkReady(i);
    }
  }
}

void Reducer::MarkReady(size_t param) {
  if (!armed_ || ready_[param]) return;
  ready_[param] = true;
  Bucket& bucket = buckets_[bucket_of_[param]];
  DenseTensor& flat = bucket.flat.dense();
  size_t element = SizeOf(flat.dtype());
  auto* dst = static_cast<uint8_t*>(flat.raw_data()) +
              bucket.offsets[slot_in_bucket_[param]] * static_cast<int64_t>(element);
  size_t bytes = static_cast<size_t>(params_[param].numel()) * element;
  auto* meta = imperative::GetAutogradMeta(params_[param]);
  if (meta != nullptr && meta->grad.defined()) {
    PD_CHECK(!meta->grad.is_selected_rows(),
             errors::Unimplemented("DataParallel: parameter ", params_[param].name(),
                                   " has a sparse (SelectedRows) gradient, which the reducer "
                                   "does not synchronise"));
    memory::Copy(flat.place(), dst, meta->grad.place(), meta->grad.dense().raw_data(), bytes);
  } else {
    // Unused here; other ranks may have a gradient for it.
    std::vector<uint8_t> zeros(bytes, 0);
    memory::Copy(flat.place(), dst, CPUPlace(), zeros.data(), bytes);
  }
  --bucket.pending;
  Launch();
}

void Reducer::Launch() {
  while (next_launch_ < buckets_.size() && buckets_[next_launch_].pending == 0) {
    Bucket& bucket = buckets_[next_launch_++];
    bucket.task = group_->AllReduce(bucket.flat, ReduceOp::AVG, false);
  }
  if (next_launch_ == buckets_.size()) Finalize();
}

void Reducer::Finalize() {
  armed_ = false;
  auto start = std::chrono::steady_clock::now();
  for (Bucket& bucket : buckets_) bucket.task->Wait();
  last_wait_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (Bucket& bucket : buckets_) {
    const DenseTensor& flat = bucket.flat.dense();
    size_t element = SizeOf(flat.dtype());
    for (size_t k = 0; k < bucket.params.size(); ++k) {
      size_t param = bucket.params[k];
      auto* meta = imperative::GetAutogradMeta(params_[param]);
      const auto* src = static_cast<const uint8_t*>(flat.raw_data()) + bucket.offsets[k] * element;
      size_t bytes = static_cast<size_t>(params_[param].numel()) * element;
      if (!meta->grad.defined()) {
        auto grad = std::make_shared<DenseTensor>(params_[param].dense().meta());
        grad->AllocateStorage(params_[param].place());
        meta->grad = Tensor(std::move(grad));
      }
      memory::Copy(meta->grad.place(), meta->grad.dense().raw_data(), flat.place(), src, bytes);
    }
  }
}

}  // namespace paddle::distributed
