#include "paddle/framework/ssa_graph.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/common/flags.h"

DEFINE_double(fuse_parameter_memory_size, -1.0,
              "ParallelExecutor with fuse_all_reduce_ops: a bucket of gradients all-reduced "
              "together is closed once it holds this many MB; 0 or below: no size limit");
DEFINE_int32(fuse_parameter_groups_size, 1,
             "ParallelExecutor with fuse_all_reduce_ops: at most this many gradients in a "
             "bucket all-reduced together when above 1; 1 or -1: no count limit");

namespace paddle::framework {

SSAGraphOptions SSAGraphOptions::FromFlags() {
  SSAGraphOptions options;
  options.bucket_count = FLAGS_fuse_parameter_groups_size;
  options.bucket_megabytes = FLAGS_fuse_parameter_memory_size;
  return options;
}

namespace {

bool IsOptimizeOp(const OpDesc& op) {
  const ProtoAttr* role = op.FindAttr(kOpRoleAttr);
  return role != nullptr && (role->i() & static_cast<int>(OpRole::kOptimize)) != 0;
}

size_t GradientBytes(const VarDesc& var) {
  int64_t numel = 1;
  for (int64_t d : var.shape()) numel *= std::max<int64_t>(d, 0);
  return static_cast<size_t>(numel) * SizeOf(var.dtype());
}

// The last writer and the readers since of each (place, variable): what the next writer waits
// for.
class VersionTracker {
 public:
  // The nodes `node` must wait for, and records its reads and writes.
  std::set<size_t> Visit(size_t node, const std::vector<std::pair<int, std::string>>& reads,
                         const std::vector<std::pair<int, std::string>>& writes) {
    std::set<size_t> waits;
    for (const auto& key : reads) {
      auto& version = versions_[key];
      if (version.writer) waits.insert(*version.writer);
    }
    for (const auto& key : writes) {
      auto& version = versions_[key];
      if (version.writer) waits.insert(*version.writer);
      waits.insert(version.readers.begin(), version.readers.end());
    }
    for (const auto& key : reads) versions_[key].readers.push_back(node);
    for (const auto& key : writes) {
      auto& version = versions_[key];
      version.writer = node;
      version.readers.clear();
    }
    waits.erase(node);
    return waits;
  }

 private:
  struct Version {
    std::optional<size_t> writer;
    std::vector<size_t> readers;
  };
  std::map<std::pair<int, std::string>, Version> versions_;
};

}  // namespace

SSAGraph::SSAGraph(const BlockDesc& block, const SSAGraphOptions& options)
    : num_places_(options.num_places) {
  PD_CHECK(num_places_ >= 1, errors::InvalidArgument("ParallelExecutor: the number of places "
                                                     "must be at least 1, but received ",
                                                     num_places_));
  PD_CHECK(options.bucket_count == -1 || options.bucket_count >= 1,
           errors::InvalidArgument("FLAGS_fuse_parameter_groups_size must be -1 (no limit) or "
                                   ">= 1, but received ",
                                   options.bucket_count));
  // Where each gradient is complete: the last op writing it before the optimizer starts.
  std::unordered_map<std::string, size_t> complete_after;
  for (const std::string& grad : options.gradients) {
    const VarDesc* var = block.FindVar(grad);
    PD_CHECK(var != nullptr, errors::NotFound("ParallelExecutor: gradient '", grad,
                                              "' is not a variable of the program"));
    PD_CHECK(var->kind() == proto::VarType::DENSE_TENSOR,
             errors::Unimplemented("ParallelExecutor: gradient '", grad,
                                   "' is not a dense tensor (a SelectedRows gradient from a "
                                   "sparse embedding); all-reducing it across places is not "
                                   "supported, use Embedding(sparse=False)"));
    std::optional<size_t> last;
    for (size_t i = 0; i < block.OpSize(); ++i) {
      const OpDesc& op = *block.Op(i);
      if (IsOptimizeOp(op)) break;
      std::vector<std::string> outputs = op.OutputNames();
      if (std::count(outputs.begin(), outputs.end(), grad) > 0) last = i;
    }
    PD_CHECK(last.has_value(),
             errors::InvalidArgument("ParallelExecutor: gradient '", grad,
                                     "' is not written by any op before the optimizer"));
    complete_after[grad] = *last;
  }

  // Buckets in the order the gradients become complete (ties in the given order).
  std::vector<std::string> order = options.gradients;
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return complete_after[a] < complete_after[b];
  });
  size_t max_bytes = options.bucket_megabytes > 0
                         ? static_cast<size_t>(options.bucket_megabytes * 1024.0 * 1024.0)
                         : 0;
  for (const std::string& grad : order) {
    size_t bytes = GradientBytes(*block.FindVar(grad));
    bool open = !buckets_.empty() && options.fuse_all_reduce && !options.reduce_to_owner &&
                (options.bucket_count <= 1 ||
                 buckets_.back().gradients.size() < static_cast<size_t>(options.bucket_count)) &&
                (max_bytes == 0 || buckets_.back().bytes < max_bytes);
    if (!open) buckets_.emplace_back();
    buckets_.back().gradients.push_back(grad);
    buckets_.back().bytes += bytes;
  }
  // Reduce: each gradient's owner is the place with the fewest bytes so far; the optimizer ops
  // reading a variable an owner holds (a reduced gradient, or what such an op computed from
  // it) run on that owner only.
  std::vector<int> op_owner(block.OpSize(), -1);
  if (options.reduce_to_owner) {
    std::vector<size_t> place_bytes(num_places_, 0);
    std::unordered_map<std::string, int> var_owner;
    for (GradientBucket& bucket : buckets_) {
      bucket.owner = static_cast<int>(std::min_element(place_bytes.begin(), place_bytes.end()) -
                                      place_bytes.begin());
      place_bytes[bucket.owner] += bucket.bytes;
      var_owner[bucket.gradients[0]] = bucket.owner;
    }
    std::map<std::string, int> parameters;
    const std::string suffix = "@GRAD";
    for (const std::string& grad : options.gradients) {
      if (grad.size() > suffix.size() &&
          grad.compare(grad.size() - suffix.size(), suffix.size(), suffix) == 0) {
        parameters.emplace(grad.substr(0, grad.size() - suffix.size()), -1);
      }
    }
    for (size_t i = 0; i < block.OpSize(); ++i) {
      const OpDesc& op = *block.Op(i);
      if (!IsOptimizeOp(op)) continue;
      std::set<int> owners;
      for (const std::string& name : op.InputNames()) {
        auto it = var_owner.find(name);
        if (it != var_owner.end()) owners.insert(it->second);
      }
      PD_CHECK(owners.size() <= 1,
               errors::Unimplemented("BuildStrategy.reduce_strategy Reduce: op '", op.type(),
                                     "' (op ", i,
                                     ") reads gradients reduced to different "
                                     "places (a clip by global norm?); use ReduceStrategy."
                                     "AllReduce"));
      if (owners.empty()) continue;
      op_owner[i] = *owners.begin();
      for (const std::string& name : op.OutputNames()) {
        var_owner[name] = op_owner[i];
        auto param = parameters.find(name);
        if (param != parameters.end()) param->second = op_owner[i];
      }
    }
    for (const auto& [name, owner] : parameters) {
      if (owner >= 0) broadcasts_.push_back({name, owner});
    }
  }

  // A bucket is reduced after the op that completes its last gradient.
  std::multimap<size_t, size_t> buckets_after;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    buckets_after.emplace(complete_after[buckets_[b].gradients.back()], b);
  }

  // Nodes in program order (each op on every place, then the buckets that op completes), each
  // waiting on the versions it touches.
  VersionTracker versions;
  std::vector<std::set<size_t>> waits;
  auto add = [&](SSANode node, const std::vector<std::pair<int, std::string>>& reads,
                 const std::vector<std::pair<int, std::string>>& writes) {
    waits.push_back(versions.Visit(nodes_.size(), reads, writes));
    node.uses = reads;
    node.uses.insert(node.uses.end(), writes.begin(), writes.end());
    nodes_.push_back(std::move(node));
  };
  for (size_t i = 0; i < block.OpSize(); ++i) {
    const OpDesc& op = *block.Op(i);
    for (int place = 0; place < num_places_; ++place) {
      if (op_owner[i] >= 0 && op_owner[i] != place) continue;
      std::vector<std::pair<int, std::string>> reads, writes;
      for (const std::string& name : op.InputNames()) reads.emplace_back(place, name);
      for (const std::string& name : op.OutputNames()) writes.emplace_back(place, name);
      SSANode node;
      node.place = place;
      node.op_index = i;
      add(std::move(node), reads, writes);
    }
    auto [first, end] = buckets_after.equal_range(i);
    for (auto it = first; it != end; ++it) {
      const GradientBucket& bucket = buckets_[it->second];
      std::vector<std::pair<int, std::string>> reads, writes;
      for (const std::string& grad : bucket.gradients) {
        for (int place = 0; place < num_places_; ++place) {
          bool written = bucket.owner < 0 || bucket.owner == place;
          (written ? writes : reads).emplace_back(place, grad);
        }
      }
      SSANode node;
      node.kind = SSANode::Kind::kAllReduce;
      node.place = -1;
      node.bucket = it->second;
      add(std::move(node), reads, writes);
    }
  }
  // Reduce: the updated parameters go from their owners to the other places.
  for (size_t b = 0; b < broadcasts_.size(); ++b) {
    std::vector<std::pair<int, std::string>> reads, writes;
    for (int place = 0; place < num_places_; ++place) {
      (place == broadcasts_[b].owner ? reads : writes)
          .emplace_back(place, broadcasts_[b].parameter);
    }
    SSANode node;
    node.kind = SSANode::Kind::kBroadcast;
    node.place = -1;
    node.bucket = b;
    add(std::move(node), reads, writes);
  }
  for (size_t n = 0; n < nodes_.size(); ++n) {
    nodes_[n].num_dependencies = static_cast<int>(waits[n].size());
    for (size_t before : waits[n]) nodes_[before].successors.push_back(n);
  }
}

}  // namespace paddle::framework
