#include "paddle/distributed/reducer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/memory/memcpy.h"

namespace paddle::distributed {

namespace {

std::shared_ptr<DenseTensor> HostTensor(std::vector<int64_t> dims, DataType dtype) {
  auto t = std::make_shared<DenseTensor>(TensorMeta{DDim(dims), dtype, DataLayout::NCHW});
  t->AllocateStorage(CPUPlace());
  return t;
}

}  // namespace

Reducer::Reducer(std::vector<Tensor> params, std::vector<std::vector<size_t>> buckets,
                 std::vector<bool> sparse, std::shared_ptr<ProcessGroup> group,
                 bool find_unused_parameters)
    : params_(std::move(params)),
      bucket_of_(params_.size()),
      slot_in_bucket_(params_.size()),
      ready_(params_.size()),
      group_(std::move(group)),
      find_unused_(find_unused_parameters) {
  PD_CHECK(sparse.size() == params_.size(),
           errors::InvalidArgument("DataParallel: ", sparse.size(), " sparse flags for ",
                                   params_.size(), " parameters"));
  std::vector<bool> seen(params_.size());
  for (auto& indices : buckets) {
    Bucket bucket;
    int64_t total = 0;
    for (size_t i : indices) {
      PD_CHECK(i < params_.size() && !seen[i],
               errors::InvalidArgument("DataParallel: parameter index ", i,
                                       " is out of range or in two buckets"));
      seen[i] = true;
      PD_CHECK(!sparse[i] || indices.size() == 1,
               errors::InvalidArgument("DataParallel: parameter ", params_[i].name(),
                                       " has a sparse gradient and must be alone in its bucket"));
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
    bucket.sparse = sparse[bucket.params[0]];
    if (bucket.sparse) {
      PD_CHECK(params_[bucket.params[0]].place().is_cpu() &&
                   params_[bucket.params[0]].dims().size() >= 1,
               errors::InvalidArgument("DataParallel: the sparse-gradient parameter ",
                                       params_[bucket.params[0]].name(),
                                       " must be a table on the CPU (at least 1-D)"));
      buckets_.push_back(std::move(bucket));
      continue;
    }
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
    bucket.gathered = nullptr;
  }
  std::fill(ready_.begin(), ready_.end(), false);
  next_launch_ = 0;
  armed_ = true;
  armed_at_ = std::chrono::steady_clock::now();
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
  last_ready_at_ = std::chrono::steady_clock::now();
  Bucket& bucket = buckets_[bucket_of_[param]];
  if (bucket.sparse) {  // gathered at launch, straight from the gradient
    --bucket.pending;
    Launch();
    return;
  }
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
    bucket.launched = std::chrono::steady_clock::now();
    if (bucket.sparse) {
      GatherRows(&bucket);
      bucket.gathered_at = std::chrono::steady_clock::now();
    } else {
      bucket.task = group_->AllReduce(bucket.flat, ReduceOp::AVG, false);
    }
  }
  if (next_launch_ == buckets_.size()) Finalize();
}

void Reducer::GatherRows(Bucket* bucket) {
  const Tensor& param = params_[bucket->params[0]];
  auto* meta = imperative::GetAutogradMeta(param);
  std::shared_ptr<SelectedRows> mine;
  if (meta != nullptr && meta->grad.defined()) {
    PD_CHECK(meta->grad.is_selected_rows(),
             errors::InvalidArgument("DataParallel: parameter ", param.name(),
                                     " was declared sparse (Embedding(sparse=True)) but its "
                                     "gradient is a dense tensor"));
    mine = meta->grad.selected_rows();
  }
  const int n = group_->size();
  const DataType dtype = param.dtype();
  std::vector<int64_t> row_dims = param.dims().ToVector();
  const int64_t height = row_dims[0];
  const int64_t width = height > 0 ? param.numel() / height : 0;
  const int64_t count = mine ? static_cast<int64_t>(mine->rows().size()) : 0;

  auto count_in = HostTensor({1}, DataType::INT64);
  *static_cast<int64_t*>(count_in->raw_data()) = count;
  auto counts = HostTensor({n}, DataType::INT64);
  group_->AllGather(Tensor(counts), Tensor(count_in), true)->Wait();
  const auto* count_of = static_cast<const int64_t*>(counts->raw_data());
  const int64_t most = *std::max_element(count_of, count_of + n);

  // Every rank sends `most` rows; the padding is never read.
  row_dims[0] = most;
  auto rows_in = HostTensor({most}, DataType::INT64);
  auto values_in = HostTensor(row_dims, dtype);
  const size_t row_bytes = static_cast<size_t>(width) * SizeOf(dtype);
  if (most > 0) {
    std::memset(rows_in->raw_data(), 0, rows_in->nbytes());
    std::memset(values_in->raw_data(), 0, values_in->nbytes());
  }
  if (count > 0) {
    std::memcpy(rows_in->raw_data(), mine->rows().data(), count * sizeof(int64_t));
    std::memcpy(values_in->raw_data(), mine->value().raw_data(), count * row_bytes);
  }
  row_dims[0] = most * n;
  auto rows_out = HostTensor({most * n}, DataType::INT64);
  auto values_out = HostTensor(row_dims, dtype);
  if (most > 0) {
    group_->AllGather(Tensor(rows_out), Tensor(rows_in), true)->Wait();
    group_->AllGather(Tensor(values_out), Tensor(values_in), true)->Wait();
  }

  const int64_t total = std::accumulate(count_of, count_of + n, int64_t{0});
  std::vector<int64_t> rows;
  rows.reserve(total);
  row_dims[0] = total;
  auto values = HostTensor(row_dims, dtype);
  auto* out = static_cast<uint8_t*>(values->raw_data());
  for (int r = 0; r < n; ++r) {
    if (count_of[r] == 0) continue;
    const auto* their_rows = static_cast<const int64_t*>(rows_out->raw_data()) + r * most;
    rows.insert(rows.end(), their_rows, their_rows + count_of[r]);
    const auto* their_values =
        static_cast<const uint8_t*>(values_out->raw_data()) + r * most * row_bytes;
    std::memcpy(out, their_values, count_of[r] * row_bytes);
    out += count_of[r] * row_bytes;
  }
  funcs::VisitFloatingType(dtype, "DataParallel (sparse gradient)", [&](auto zero) {
    using T = decltype(zero);
    auto* v = static_cast<T*>(values->raw_data());
    for (int64_t i = 0; i < values->numel(); ++i) {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        v[i] /= static_cast<T>(n);
      } else {  // float16, bfloat16: divided in float
        v[i] = T(static_cast<float>(v[i]) / n);
      }
    }
  });
  bucket->gathered = funcs::MergeRows(SelectedRows(std::move(rows), height, std::move(values)));
}

double Reducer::Since(std::chrono::steady_clock::time_point t) const {
  return std::chrono::duration<double>(t - armed_at_).count();
}

void Reducer::Finalize() {
  armed_ = false;
  auto start = std::chrono::steady_clock::now();
  Timeline timeline;
  timeline.last_gradient = Since(last_ready_at_);
  for (Bucket& bucket : buckets_) {
    if (bucket.task) bucket.task->Wait();
  }
  auto end = std::chrono::steady_clock::now();
  last_wait_seconds_ = std::chrono::duration<double>(end - start).count();
  for (Bucket& bucket : buckets_) {
    timeline.launched.push_back(Since(bucket.launched));
    // A gather finished when its launch returned; a group that keeps no finish time (NCCL)
    // counts as finishing when the wait ended.
    auto finished = bucket.sparse ? bucket.gathered_at : bucket.task->finished_at();
    if (finished == std::chrono::steady_clock::time_point{}) finished = end;
    timeline.finished.push_back(Since(finished));
    if (bucket.launched < last_ready_at_) ++timeline.launched_before_last_gradient;
  }
  last_timeline_ = std::move(timeline);
  for (Bucket& bucket : buckets_) {
    if (bucket.sparse) {
      imperative::GetAutogradMeta(params_[bucket.params[0]])->grad = Tensor(bucket.gathered);
      continue;
    }
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
