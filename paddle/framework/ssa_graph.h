// SSAGraph: one block replicated on several places, as the ParallelExecutor schedules it. Each
// node is an op of the block on one place, or the all-reduce of a bucket of gradients across
// every place. Dependencies come from variable versions: a node waits for the last writer of
// each (place, variable) it reads or writes (read after write, write after write) and a writer
// also waits for the readers of the version it replaces (write after read). So independent ops,
// and the same op on different places, may run at once, and every order the graph allows
// computes the same values. With `reduce_to_owner` (ReduceStrategy.Reduce) each gradient is
// summed onto one place only, the optimizer ops that depend on it run on that place only, and
// a broadcast node then copies the updated parameter to the other places.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "paddle/framework/block_desc.h"

namespace paddle::framework {

struct SSANode {
  enum class Kind { kOp, kAllReduce, kBroadcast };
  Kind kind = Kind::kOp;
  // kOp: which place and which op of the block. kAllReduce and kBroadcast: place is -1 and
  // `bucket` indexes SSAGraph::buckets or SSAGraph::broadcasts.
  int place = 0;
  size_t op_index = 0;
  size_t bucket = 0;
  // The (place, variable) pairs the node reads or writes, for dependencies and for reference
  // counting of buffers.
  std::vector<std::pair<int, std::string>> uses;
  std::vector<size_t> successors;
  int num_dependencies = 0;
};

// Gradients all-reduced together, in the order backward produces them.
struct GradientBucket {
  std::vector<std::string> gradients;
  size_t bytes = 0;
  // The place that receives the sum (Reduce), or -1: every place (AllReduce).
  int owner = -1;
};

// Reduce: a parameter its owner place updated, copied to the other places.
struct ParameterBroadcast {
  std::string parameter;
  int owner = 0;
};

struct SSAGraphOptions {
  int num_places = 1;
  // Parameter gradients to all-reduce between places. Each is reduced after the last op that
  // writes it before the optimizer (ops whose op_role has the Optimize bit) starts.
  std::vector<std::string> gradients;
  // false: one bucket per gradient. true: buckets of at most `bucket_count` gradients when it
  // is above 1 (1 and -1: no limit), closed once they hold `bucket_megabytes` when that is
  // above 0. Defaults: FLAGS_fuse_parameter_groups_size and FLAGS_fuse_parameter_memory_size.
  bool fuse_all_reduce = true;
  int bucket_count = 1;
  double bucket_megabytes = -1.0;
  // ReduceStrategy.Reduce: each gradient (unfused) goes to one place, chosen to balance the
  // bytes per place; the parameter of gradient "<p>@GRAD" is "<p>".
  bool reduce_to_owner = false;

  // Options with the bucket limits of the flags.
  static SSAGraphOptions FromFlags();
};

class SSAGraph {
 public:
  SSAGraph(const BlockDesc& block, const SSAGraphOptions& options);

  const std::vector<SSANode>& nodes() const { return nodes_; }
  const std::vector<GradientBucket>& buckets() const { return buckets_; }
  const std::vector<ParameterBroadcast>& broadcasts() const { return broadcasts_; }
  int num_places() const { return num_places_; }

 private:
  int num_places_;
  std::vector<SSANode> nodes_;
  std::vector<GradientBucket> buckets_;
  std::vector<ParameterBroadcast> broadcasts_;
};

}  // namespace paddle::framework
