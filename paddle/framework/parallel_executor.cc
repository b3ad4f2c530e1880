#include "paddle/framework/parallel_executor.h"

#include <algorithm>
#include <map>
#include <type_traits>

#include <omp.h>

#include "paddle/common/data_type_visit.h"
#include "paddle/common/errors.h"
#include "paddle/common/flags.h"
#include "paddle/imperative/grad_mode.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/memory/memcpy.h"

DECLARE_double(eager_delete_tensor_gb);

namespace paddle::framework {

namespace {

// A copy of `src`'s data in new storage on `place`.
DenseTensor CopyTo(const DenseTensor& src, const Place& place) {
  DenseTensor copy(src.meta());
  void* dst = copy.AllocateStorage(place);
  memory::Copy(place, dst, src.place(), src.raw_data(), src.nbytes());
  return copy;
}

// The persistable variables some op of the program writes: each place needs its own.
std::vector<const VarDesc*> WrittenPersistables(const ProgramDesc& program) {
  const BlockDesc* main = program.MainBlock();
  std::map<std::string, const VarDesc*> written;
  for (size_t b = 0; b < program.Size(); ++b) {
    const BlockDesc* block = program.Block(b);
    for (size_t i = 0; i < block->OpSize(); ++i) {
      for (const std::string& name : block->Op(i)->OutputNames()) {
        const VarDesc* var = main->FindVar(name);
        if (var != nullptr && var->persistable()) written.emplace(name, var);
      }
    }
  }
  std::vector<const VarDesc*> vars;
  for (const auto& [name, var] : written) vars.push_back(var);
  return vars;
}

// All CPU places or all GPU places, each GPU once.
void CheckPlaces(const std::vector<Place>& places) {
  auto describe = [&] {
    std::string names;
    for (const Place& place : places) names += (names.empty() ? "" : ", ") + place.ToString();
    return "[" + names + "]";
  };
  for (size_t i = 0; i < places.size(); ++i) {
    PD_CHECK(places[i].is_cpu() || places[i].is_gpu(),
             errors::InvalidArgument("ParallelExecutor: places must be CPU or GPU places, but "
                                     "received ",
                                     places[i].ToString(), " in ", describe()));
    PD_CHECK(
        places[i].is_gpu() == places[0].is_gpu(),
        errors::InvalidArgument("ParallelExecutor: places mix CPU and GPU places: ", describe(),
                                "; gradients are all-reduced either in process "
                                "(CPU) or with NCCL (GPU)"));
    for (size_t j = 0; j < i; ++j) {
      PD_CHECK(!places[i].is_gpu() || places[i] != places[j],
               errors::InvalidArgument("ParallelExecutor: places name ", places[i].ToString(),
                                       " more than once: ", describe()));
    }
  }
}

// The replicas of gradient `grad` (one per place) hold data of one dtype and shape, each on its
// place's kind of device.
void CheckGradientReplicas(const std::string& grad, const std::vector<DenseTensor*>& tensors,
                           const std::vector<Place>& places) {
  const DenseTensor& first = *tensors[0];
  for (size_t p = 0; p < tensors.size(); ++p) {
    const DenseTensor& t = *tensors[p];
    PD_CHECK(t.initialized(),
             errors::PreconditionNotMet("ParallelExecutor: gradient '", grad,
                                        "' holds no data on place ", p, " when it is all-reduced"));
    PD_CHECK(t.dims() == first.dims() && t.dtype() == first.dtype(),
             errors::InvalidArgument("ParallelExecutor: gradient '", grad, "' is ",
                                     DataTypeName(first.dtype()), first.dims().ToString(),
                                     " on place 0 but ", DataTypeName(t.dtype()),
                                     t.dims().ToString(), " on place ", p));
    PD_CHECK(t.place() == places[p],
             errors::InvalidArgument("ParallelExecutor: gradient '", grad, "' of place ", p, " (",
                                     places[p].ToString(), ") is on ", t.place().ToString()));
  }
}

}  // namespace

PlaceScopes::PlaceScopes(Scope* shared, std::vector<Place> places)
    : shared_(shared), places_(std::move(places)) {
  PD_CHECK(!places_.empty(), errors::InvalidArgument("ParallelExecutor: 'places' must name at "
                                                     "least one place, but it is empty"));
  for (size_t i = 1; i < places_.size(); ++i) locals_.push_back(&shared_->NewScope());
}

PlaceScopes::~PlaceScopes() {
  for (Scope* local : locals_) shared_->DeleteScope(local);
}

void PlaceScopes::Replicate(const std::vector<const VarDesc*>& vars) {
  for (const VarDesc* var : vars) {
    if (!replicated_.insert(var->name()).second) continue;
    Variable* source = shared_->FindVar(var->name());
    for (size_t i = 1; i < places_.size(); ++i) {
      Variable* replica = local(i)->Var(var->name());
      replica->set_kind(var->kind());
      if (source != nullptr && source->tensor()->initialized()) {
        *replica->tensor() = CopyTo(*source->tensor(), places_[i]);
      }
    }
  }
}

ParallelExecutor::ParallelExecutor(const ProgramDesc& program, std::shared_ptr<PlaceScopes> scopes,
                                   ParallelExecutorOptions options)
    : program_(program),
      revision_(program.revision()),
      scopes_(std::move(scopes)),
      options_(std::move(options)),
      graph_(*program.MainBlock(), [&] {
        options_.graph.num_places = static_cast<int>(scopes_->size());
        return options_.graph;
      }()) {
  PD_CHECK(options_.num_threads >= 0,
           errors::InvalidArgument("ExecutionStrategy.num_threads must be >= 0, but received ",
                                   options_.num_threads));
  PD_CHECK(options_.num_iteration_per_drop_scope >= 1,
           errors::InvalidArgument("ExecutionStrategy.num_iteration_per_drop_scope must be >= 1, "
                                   "but received ",
                                   options_.num_iteration_per_drop_scope));
  CheckPlaces(scopes_->places());
  if (scopes_->place(0).is_gpu()) {
#ifdef PADDLE_WITH_CUDA
    nccl_ = std::make_unique<NCCLPlaceGroup>(scopes_->places());
#else
    PD_THROW(errors::Unimplemented("ParallelExecutor: ", scopes_->place(0).ToString(),
                                   " needs a build with CUDA (WITH_GPU); this one has none"));
#endif
  }
  scopes_->Replicate(WrittenPersistables(program));
  PrepareOptions prepare;
  prepare.skip_vars = options_.skip_vars;
  prepare.enable_inplace = options_.enable_inplace;
  for (size_t p = 0; p < num_places(); ++p) {
    executors_.push_back(std::make_unique<Executor>(scopes_->place(p)));
    prepared_.push_back(executors_.back()->Prepare(program, 0, prepare));
  }
  bound_scopes_.assign(num_places(), {0, 0});

  // Which (place, variable) buffers a run releases, and how many node uses each waits for.
  const BlockDesc* block = program.MainBlock();
  for (const VarDesc* var : block->AllVars()) {
    if (!var->persistable()) temporaries_.push_back(var->name());
  }
  std::unordered_set<std::string> skip(options_.skip_vars.begin(), options_.skip_vars.end());
  std::map<std::pair<int, std::string>, size_t> keys;
  const auto& nodes = graph_.nodes();
  node_collectable_.resize(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (const auto& key : nodes[n].uses) {
      const VarDesc* var = block->FindVar(key.second);
      if (var == nullptr || var->persistable() || var->kind() != proto::VarType::DENSE_TENSOR ||
          skip.count(key.second) > 0) {
        continue;
      }
      auto [it, added] = keys.emplace(key, keys.size());
      if (added) collectable_uses_.push_back(0);
      ++collectable_uses_[it->second];
      node_collectable_[n].push_back(it->second);
    }
  }
  collectable_keys_.assign(keys.size(), {});
  for (const auto& [key, index] : keys) collectable_keys_[index] = key;
  pending_dependencies_ = std::vector<std::atomic<int>>(nodes.size());
  pending_uses_ = std::vector<std::atomic<int>>(keys.size());

  int threads =
      options_.num_threads > 0 ? options_.num_threads : 4 * static_cast<int>(num_places());
  for (int t = 0; t < threads; ++t) workers_.emplace_back([this] { Work(); });
}

ParallelExecutor::~ParallelExecutor() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

Scope* ParallelExecutor::ExecScope(size_t i) const {
  PD_CHECK(i < num_places(), errors::OutOfRange("ParallelExecutor: place index ", i,
                                                " is out of range for ", num_places(), " places"));
  return scopes_->local(i);
}

void ParallelExecutor::DropLocalExecScopes() {
  for (size_t p = 0; p < num_places(); ++p) ExecScope(p)->EraseVars(temporaries_);
}

void ParallelExecutor::Bind() {
  const BlockDesc* block = program_.MainBlock();
  bool changed = false;
  for (size_t p = 0; p < num_places(); ++p) {
    Scope* exec = ExecScope(p);
    std::pair<uint64_t, uint64_t> binding{exec->id(), exec->BindingVersion()};
    if (bound_scopes_[p] == binding) continue;
    changed = true;
    // Temporaries are each place's own; persistables are the shared scope's, or the place's
    // replica.
    for (const VarDesc* var : block->AllVars()) {
      if (!var->persistable()) {
        if (exec->FindLocalVar(var->name()) == nullptr)
          exec->Var(var->name())->set_kind(var->kind());
      } else if (exec->FindVar(var->name()) == nullptr) {
        scopes_->shared()->Var(var->name())->set_kind(var->kind());
      }
    }
    bound_scopes_[p] = binding;
  }
  for (size_t p = 0; p < num_places(); ++p) executors_[p]->Bind(prepared_[p].get(), ExecScope(p));
  if (!changed) return;
  collectable_.clear();
  for (const auto& [place, name] : collectable_keys_) {
    collectable_.push_back(ExecScope(place)->FindVar(name)->tensor());
  }
  bucket_tensors_.clear();
  for (const GradientBucket& bucket : graph_.buckets()) {
    auto& tensors = bucket_tensors_.emplace_back();
    for (const std::string& grad : bucket.gradients) {
      auto& per_place = tensors.emplace_back();
      for (size_t p = 0; p < num_places(); ++p) {
        per_place.push_back(ExecScope(p)->FindVar(grad)->tensor());
      }
    }
  }
  broadcast_tensors_.clear();
  for (const ParameterBroadcast& broadcast : graph_.broadcasts()) {
    auto& per_place = broadcast_tensors_.emplace_back();
    for (size_t p = 0; p < num_places(); ++p) {
      per_place.push_back(ExecScope(p)->FindVar(broadcast.parameter)->tensor());
    }
  }
}

std::vector<std::vector<DenseTensor>> ParallelExecutor::Run(
    const std::vector<std::string>& fetch_names) {
  PD_CHECK(revision_ == program_.revision(),
           errors::PreconditionNotMet("ParallelExecutor: the program changed after it was "
                                      "prepared; compile it again"));
  Bind();
  const auto& nodes = graph_.nodes();
  for (size_t n = 0; n < nodes.size(); ++n) {
    pending_dependencies_[n].store(nodes[n].num_dependencies, std::memory_order_relaxed);
  }
  for (size_t k = 0; k < collectable_uses_.size(); ++k) {
    pending_uses_[k].store(collectable_uses_[k], std::memory_order_relaxed);
  }
  collect_garbage_ = FLAGS_eager_delete_tensor_gb >= 0;
  if (!nodes.empty()) {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_ = 0;
    error_ = nullptr;
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].num_dependencies == 0) ready_.push_back(n);
    }
    work_ready_.notify_all();
    run_done_.wait(lock, [&] { return finished_ == nodes.size(); });
    if (error_ != nullptr) {
      std::exception_ptr error = error_;
      error_ = nullptr;
      lock.unlock();
      // A failed run leaves partial values behind; the next run starts from fresh ones.
      DropLocalExecScopes();
      std::rethrow_exception(error);
    }
  }

  std::vector<std::vector<DenseTensor>> fetched;
  for (const std::string& name : fetch_names) {
    auto& per_place = fetched.emplace_back();
    for (size_t p = 0; p < num_places(); ++p) {
      Variable* var = ExecScope(p)->FindVar(name);
      per_place.push_back(var != nullptr ? *var->tensor() : DenseTensor());
    }
  }
  if (++iterations_ % static_cast<uint64_t>(options_.num_iteration_per_drop_scope) == 0) {
    DropLocalExecScopes();
  }
  return fetched;
}

void ParallelExecutor::Work() {
  // Backward rules run forward ops eagerly; nothing here is recorded for dygraph autograd.
  imperative::GradModeGuard no_grad(false);
  // The places share the intra-op threads (OMP_NUM_THREADS, or the cores): each worker's
  // kernels get their share, so the places running at once do not oversubscribe the cores.
  omp_set_num_threads(std::max(1, omp_get_max_threads() / static_cast<int>(num_places())));
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
    if (stopping_) return;
    size_t n = ready_.back();
    ready_.pop_back();
    // Run n, then one of the nodes it made ready (a chain stays on this thread, with no
    // hand-over to a sleeping worker), until none is.
    while (true) {
      bool failed = error_ != nullptr;
      lock.unlock();
      if (!failed) {
        try {
          RunNode(n);
        } catch (...) {
          std::lock_guard<std::mutex> guard(mutex_);
          if (error_ == nullptr) error_ = std::current_exception();
        }
      }
      // After a failure the remaining nodes are passed through without running, so the run
      // still ends.
      std::vector<size_t> now_ready;
      for (size_t next : graph_.nodes()[n].successors) {
        if (pending_dependencies_[next].fetch_sub(1, std::memory_order_acq_rel) == 1) {
          now_ready.push_back(next);
        }
      }
      lock.lock();
      if (++finished_ == graph_.nodes().size()) run_done_.notify_all();
      if (now_ready.empty()) break;
      n = now_ready.front();
      ready_.insert(ready_.end(), now_ready.begin() + 1, now_ready.end());
      if (now_ready.size() > 2) {
        work_ready_.notify_all();
      } else if (now_ready.size() == 2) {
        work_ready_.notify_one();
      }
    }
  }
}

void ParallelExecutor::RunNode(size_t n) {
  const SSANode& node = graph_.nodes()[n];
  if (node.kind == SSANode::Kind::kOp) {
    prepared_[node.place]->instruction(node.op_index)->Run();
  } else if (node.kind == SSANode::Kind::kAllReduce) {
    AllReduce(graph_.buckets()[node.bucket], node.bucket);
  } else {
    Broadcast(graph_.broadcasts()[node.bucket], node.bucket);
  }
  if (!collect_garbage_) return;
  for (size_t key : node_collectable_[n]) {
    if (pending_uses_[key].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      collectable_[key]->set_holder(nullptr);
    }
  }
}

void ParallelExecutor::AllReduce(const GradientBucket& bucket, size_t b) {
  for (size_t g = 0; g < bucket.gradients.size(); ++g) {
    CheckGradientReplicas(bucket.gradients[g], bucket_tensors_[b][g], scopes_->places());
  }
#ifdef PADDLE_WITH_CUDA
  if (nccl_ != nullptr) {
    if (bucket.owner >= 0) {
      nccl_->Reduce(bucket_tensors_[b], bucket.owner);
    } else {
      nccl_->AllReduce(bucket_tensors_[b]);
    }
    return;
  }
#endif
  const Place host = CPUPlace();
  for (size_t g = 0; g < bucket.gradients.size(); ++g) {
    const std::string& grad = bucket.gradients[g];
    const std::vector<DenseTensor*>& tensors = bucket_tensors_[b][g];
    const DenseTensor& first = *tensors[0];
    std::vector<const void*> sources;
    for (const DenseTensor* t : tensors) sources.push_back(t->raw_data());
    DenseTensor sum(first.meta());
    void* out = sum.AllocateStorage(host);
    VisitDataType(first.dtype(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16> ||
                    std::is_same_v<T, bfloat16>) {
        using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
        T* dst = static_cast<T*>(out);
        // Summed in place order whatever the chunking: the same bits on every run.
        funcs::ParallelFor(first.numel(), [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) {
            Acc acc = static_cast<Acc>(static_cast<const T*>(sources[0])[i]);
            for (size_t p = 1; p < sources.size(); ++p) {
              acc += static_cast<Acc>(static_cast<const T*>(sources[p])[i]);
            }
            dst[i] = static_cast<T>(acc);
          }
        });
      } else {
        PD_THROW(errors::Unimplemented("ParallelExecutor: gradient '", grad, "' has data type ",
                                       DataTypeName(first.dtype()),
                                       "; only floating-point gradients are all-reduced"));
      }
    });
    if (bucket.owner >= 0) {
      *tensors[bucket.owner] = sum;
      continue;
    }
    for (size_t p = 0; p < tensors.size(); ++p) *tensors[p] = p == 0 ? sum : CopyTo(sum, host);
  }
}

void ParallelExecutor::Broadcast(const ParameterBroadcast& broadcast, size_t b) {
  const std::vector<DenseTensor*>& tensors = broadcast_tensors_[b];
  const DenseTensor& source = *tensors[broadcast.owner];
  PD_CHECK(source.initialized(),
           errors::PreconditionNotMet("ParallelExecutor: parameter '", broadcast.parameter,
                                      "' holds no data on place ", broadcast.owner,
                                      " when it is broadcast"));
#ifdef PADDLE_WITH_CUDA
  if (nccl_ != nullptr) {
    for (size_t p = 0; p < tensors.size(); ++p) {
      DenseTensor& target = *tensors[p];
      if (target.initialized() && target.nbytes() == source.nbytes() &&
          target.dtype() == source.dtype() && target.place() == scopes_->place(p)) {
        continue;
      }
      target = DenseTensor(source.meta());
      target.AllocateStorage(scopes_->place(p));
    }
    nccl_->Broadcast(tensors, broadcast.owner);
    return;
  }
#endif
  for (size_t p = 0; p < tensors.size(); ++p) {
    if (static_cast<int>(p) == broadcast.owner) continue;
    // Into the replica's own buffer when it has the size, so views of it stay valid.
    DenseTensor& target = *tensors[p];
    if (target.initialized() && target.nbytes() == source.nbytes() &&
        target.dtype() == source.dtype()) {
      memory::Copy(target.place(), target.raw_data(), source.place(), source.raw_data(),
                   source.nbytes());
    } else {
      target = CopyTo(source, target.has_allocation() ? target.place() : scopes_->place(p));
    }
  }
}

}  // namespace paddle::framework
