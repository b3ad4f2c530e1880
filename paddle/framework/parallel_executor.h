// ParallelExecutor: data-parallel execution of one block on several places. Each place runs the
// block's instructions (prepared by an Executor of that place, so kernels, in-place pairs and
// control flow are the Executor's own) in its own scope on its share of the batch; a pool of
// threads runs every node of the SSAGraph as soon as the nodes it depends on are done; after
// backward, each bucket of parameter gradients is summed across places in place order (so
// every run gives the same bits) and every place gets the sum, so the places' identical
// optimizer ops keep their parameter replicas equal (ReduceStrategy.Reduce: one place gets
// each sum, runs that parameter's optimizer ops and sends the parameter to the others). The
// places are all CPU places (summed in process) or all GPU places (NCCL, see NCCLPlaceGroup).
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "paddle/framework/executor.h"
#include "paddle/framework/ssa_graph.h"
#ifdef PADDLE_WITH_CUDA
#include "paddle/framework/nccl_place_group.h"
#endif

namespace paddle::framework {

// One scope per place: place 0 runs in the shared scope itself (as the single-place Executor
// does), places 1.. in local scopes under it holding their own copies (replicas) of the
// persistable variables a program writes (parameters, optimizer state, batch-norm statistics),
// copied from the shared scope the first time a program needs them; the persistables no op
// writes are read from the shared scope. Each place's temporaries (feeds, activations,
// gradients) are local to its scope. Shared by the executors of one CompiledProgram (one per
// feed/fetch list) and by `share_vars_from`.
class PlaceScopes {
 public:
  PlaceScopes(Scope* shared, std::vector<Place> places);
  ~PlaceScopes();
  PlaceScopes(const PlaceScopes&) = delete;
  PlaceScopes& operator=(const PlaceScopes&) = delete;

  size_t size() const { return places_.size(); }
  const Place& place(size_t i) const { return places_[i]; }
  const std::vector<Place>& places() const { return places_; }
  Scope* shared() const { return shared_; }
  // The scope place i runs in: the shared scope for place 0.
  Scope* local(size_t i) const { return i == 0 ? shared_ : locals_[i - 1]; }
  // Gives places 1.. their own variable for each of `vars` not replicated yet, holding a copy
  // of the shared scope's value when it has one.
  void Replicate(const std::vector<const VarDesc*>& vars);
  bool IsReplicated(const std::string& name) const { return replicated_.count(name) > 0; }

 private:
  Scope* shared_;
  std::vector<Place> places_;
  std::vector<Scope*> locals_;  // places 1..
  std::unordered_set<std::string> replicated_;
};

struct ParallelExecutorOptions {
  // Fed inputs and fetch targets: never released or written in place.
  std::vector<std::string> skip_vars;
  bool enable_inplace = true;
  // Threads that run nodes; 0 picks 4 per place (Paddle's default).
  int num_threads = 0;
  // The places' temporaries are dropped after this many runs.
  int num_iteration_per_drop_scope = 100;
  SSAGraphOptions graph;
};

class ParallelExecutor {
 public:
  // `program` must outlive the executor. options.graph.num_places is taken from `scopes`.
  ParallelExecutor(const ProgramDesc& program, std::shared_ptr<PlaceScopes> scopes,
                   ParallelExecutorOptions options);
  ~ParallelExecutor();
  ParallelExecutor(const ParallelExecutor&) = delete;
  ParallelExecutor& operator=(const ParallelExecutor&) = delete;

  size_t num_places() const { return scopes_->size(); }
  int num_threads() const { return static_cast<int>(workers_.size()); }
  uint64_t revision() const { return revision_; }
  const SSAGraph& graph() const { return graph_; }
  const std::shared_ptr<PlaceScopes>& place_scopes() const { return scopes_; }
  // The scope place i runs in (fed inputs and temporaries are local to it).
  Scope* ExecScope(size_t i) const;
  // Runs one iteration on every place and returns, for each of `fetch_names`, the value of each
  // place: result[fetch][place].
  std::vector<std::vector<DenseTensor>> Run(const std::vector<std::string>& fetch_names);
  // Erases the places' temporaries now (Run does it every num_iteration_per_drop_scope runs);
  // the next run creates them again and binds the instructions again.
  void DropLocalExecScopes();

 private:
  void Bind();
  void Work();
  void RunNode(size_t n);
  void AllReduce(const GradientBucket& bucket, size_t b);
  void Broadcast(const ParameterBroadcast& broadcast, size_t b);

  const ProgramDesc& program_;
  uint64_t revision_;
  std::shared_ptr<PlaceScopes> scopes_;
  ParallelExecutorOptions options_;
  SSAGraph graph_;
  std::vector<std::unique_ptr<Executor>> executors_;
  std::vector<std::unique_ptr<PreparedBlock>> prepared_;
  uint64_t iterations_ = 0;

  // Bound to the exec scopes: the (place, variable) keys whose buffers are released after their
  // last use in a run, each node's keys, and each bucket's gradient tensors [gradient][place].
  bool bound_ = false;
  std::vector<std::pair<uint64_t, uint64_t>> bound_scopes_;  // (id, binding version)
  std::vector<std::string> temporaries_;
  std::vector<std::pair<int, std::string>> collectable_keys_;
  std::vector<DenseTensor*> collectable_;
  std::vector<int> collectable_uses_;
  std::vector<std::vector<size_t>> node_collectable_;
  std::vector<std::vector<std::vector<DenseTensor*>>> bucket_tensors_;
  std::vector<std::vector<DenseTensor*>> broadcast_tensors_;  // [broadcast][place]
#ifdef PADDLE_WITH_CUDA
  // The communicators of the GPU places; null for CPU places.
  std::unique_ptr<NCCLPlaceGroup> nccl_;
#endif

  // One run's state, shared with the workers.
  std::vector<std::atomic<int>> pending_dependencies_;
  std::vector<std::atomic<int>> pending_uses_;
  bool collect_garbage_ = true;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable run_done_;
  std::vector<size_t> ready_;
  size_t finished_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

}  // namespace paddle::framework
