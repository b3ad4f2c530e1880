// What every oneDNN-backed kernel shares: the CPU engine, a stream per thread, and the cache of
// primitives. Creating a primitive JIT-compiles its code (about a millisecond), so each is built
// once per distinct shape and attribute set and looked up by a key on later calls.
//
// oneDNN (Debian's build) threads with OpenMP, the process's one intra-op pool that OpenBLAS and
// ParallelFor use too, so the libraries never oversubscribe the cores.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include <dnnl.hpp>

#include "paddle/memory/allocator.h"

namespace paddle::funcs::onednn {

const dnnl::engine& CpuEngine();

// The calling thread's stream on CpuEngine().
dnnl::stream& ThreadStream();

// The cached object for `key`, made by `create` on the first request. Thread-safe; the cache
// keeps the most recently used entries (FLAGS-free: a bounded LRU of kPrimitiveCacheCapacity).
std::shared_ptr<void> CachedOrCreate(const std::string& key,
                                     const std::function<std::shared_ptr<void>()>& create);

template <typename Entry, typename Create>
std::shared_ptr<Entry> Cached(const std::string& key, Create&& create) {
  return std::static_pointer_cast<Entry>(
      CachedOrCreate(key, [&]() -> std::shared_ptr<void> { return create(); }));
}

inline constexpr size_t kPrimitiveCacheCapacity = 1024;

// Every primitive is made with `attr` plus a user scratchpad, and run by Execute, which gives it
// the executing thread's scratch buffer. oneDNN's own scratchpad (Debian's build lacks concurrent
// execution) belongs to the thread that created the primitive, so the threads running one cached
// primitive at once (a predictor's clones) would share it.
dnnl::primitive_attr WithUserScratchpad(dnnl::primitive_attr attr = dnnl::primitive_attr());

// Runs `primitive`, whose descriptor asked for `scratchpad`, on the thread's stream.
void Execute(const dnnl::primitive& primitive, const dnnl::memory::desc& scratchpad,
             std::unordered_map<int, dnnl::memory> args);

// oneDNN memory in `desc` over the buffer `data` when the layouts agree, else over scratch
// storage that `reorder` (built on first use) fills from `data`. `scratch` keeps that storage
// alive as long as the returned memory is used.
dnnl::memory Reordered(const dnnl::memory& user, const dnnl::memory::desc& desc,
                       memory::AllocationPtr* scratch);

// Reordered for a primitive's weights: when the user's buffer is one of the thread's
// ConstantWeights (constant_weights.h), the reordered copy is made once and kept with them.
dnnl::memory ReorderedWeights(const dnnl::memory& user, const dnnl::memory::desc& desc,
                              memory::AllocationPtr* scratch);

// Memory in `desc` to be written by a primitive and then copied into `user` by CopyBack: the
// user's buffer itself when the layouts agree.
dnnl::memory OutputIn(const dnnl::memory& user, const dnnl::memory::desc& desc,
                      memory::AllocationPtr* scratch);
void CopyBack(const dnnl::memory& produced, const dnnl::memory& user);

// Writes `from` into `to`, converting the layout.
void Reorder(const dnnl::memory& from, const dnnl::memory& to);

}  // namespace paddle::funcs::onednn
