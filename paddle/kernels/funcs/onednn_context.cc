#include "paddle/kernels/funcs/onednn_context.h"

#include <omp.h>

#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "paddle/common/place.h"
#include "paddle/kernels/funcs/constant_weights.h"
#include "paddle/kernels/funcs/onednn_info.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/memory/malloc.h"

namespace paddle::funcs::onednn {

namespace {

class PrimitiveCache {
 public:
  std::shared_ptr<void> Get(const std::string& key,
                            const std::function<std::shared_ptr<void>()>& create) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = index_.find(key);
      if (it != index_.end()) {
        entries_.splice(entries_.begin(), entries_, it->second);
        return it->second->second;
      }
    }
    // Built outside the lock: JIT compilation is slow, and two threads building the same entry
    // at once only waste a little work.
    std::shared_ptr<void> made = create();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) return it->second->second;
    entries_.emplace_front(key, made);
    index_[key] = entries_.begin();
    if (entries_.size() > kPrimitiveCacheCapacity) {
      index_.erase(entries_.back().first);
      entries_.pop_back();
    }
    return made;
  }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<void>>;
  std::mutex mutex_;
  std::list<Entry> entries_;
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

PrimitiveCache& Cache() {
  static PrimitiveCache* cache = new PrimitiveCache();  // never destroyed: used at exit
  return *cache;
}

dnnl::memory InScratch(const dnnl::memory::desc& desc, memory::AllocationPtr* scratch) {
  *scratch = memory::AllocUnique(CPUPlace(), desc.get_size());
  return dnnl::memory(desc, CpuEngine(), (*scratch)->ptr());
}

// A desc's blob identifies its dims, data type and layout exactly.
std::string DescKey(const dnnl::memory::desc& desc) {
  return std::string(reinterpret_cast<const char*>(&desc.data), sizeof(desc.data));
}

}  // namespace

void Reorder(const dnnl::memory& from, const dnnl::memory& to) {
  if (from.get_desc() == to.get_desc()) {
    // oneDNN reorders between equal layouts with its generic implementation, several times
    // slower than a copy.
    const auto* src = static_cast<const char*>(from.get_data_handle());
    auto* dst = static_cast<char*>(to.get_data_handle());
    ParallelFor(static_cast<int64_t>(from.get_desc().get_size()), [&](int64_t begin, int64_t end) {
      std::memcpy(dst + begin, src + begin, end - begin);
    });
    return;
  }
  const std::string key = "reorder:" + DescKey(from.get_desc()) + DescKey(to.get_desc());
  struct Entry {
    dnnl::reorder::primitive_desc desc;
    dnnl::reorder primitive;
  };
  auto entry = Cached<Entry>(key, [&] {
    dnnl::reorder::primitive_desc pd(from, to, WithUserScratchpad());
    return std::make_shared<Entry>(Entry{pd, dnnl::reorder(pd)});
  });
  Execute(entry->primitive, entry->desc.scratchpad_desc(),
          {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

dnnl::primitive_attr WithUserScratchpad(dnnl::primitive_attr attr) {
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void Execute(const dnnl::primitive& primitive, const dnnl::memory::desc& scratchpad,
             std::unordered_map<int, dnnl::memory> args) {
  // One growing buffer per executing thread, as oneDNN's own but owned by the thread that runs
  // the primitive (executions are synchronous, so one at a time uses it).
  thread_local memory::AllocationPtr buffer;
  const size_t size = scratchpad.get_size();
  if (size > 0) {
    if (!buffer || buffer->size() < size) buffer = memory::AllocUnique(CPUPlace(), size);
    args[DNNL_ARG_SCRATCHPAD] = dnnl::memory(scratchpad, CpuEngine(), buffer->ptr());
  }
  primitive.execute(ThreadStream(), args);
}

const dnnl::engine& CpuEngine() {
  static const dnnl::engine* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

dnnl::stream& ThreadStream() {
  thread_local dnnl::stream stream(CpuEngine());
  return stream;
}

std::shared_ptr<void> CachedOrCreate(const std::string& key,
                                     const std::function<std::shared_ptr<void>()>& create) {
  return Cache().Get(key, create);
}

dnnl::memory Reordered(const dnnl::memory& user, const dnnl::memory::desc& desc,
                       memory::AllocationPtr* scratch) {
  if (user.get_desc() == desc) return user;
  dnnl::memory converted = InScratch(desc, scratch);
  Reorder(user, converted);
  return converted;
}

dnnl::memory ReorderedWeights(const dnnl::memory& user, const dnnl::memory::desc& desc,
                              memory::AllocationPtr* scratch) {
  ConstantWeights* constant = ConstantWeights::Current();
  const void* data = user.get_data_handle();
  if (constant == nullptr || !constant->Holds(data) || user.get_desc() == desc) {
    return Reordered(user, desc, scratch);
  }
  struct Form {
    memory::AllocationPtr storage;
    dnnl::memory reordered;
  };
  auto form = std::static_pointer_cast<Form>(
      constant->Derived(data, DescKey(user.get_desc()) + DescKey(desc), [&] {
        auto made = std::make_shared<Form>();
        made->reordered = Reordered(user, desc, &made->storage);
        // The copy is read by later calls on other streams, so it must be complete now.
        ThreadStream().wait();
        return made;
      }));
  return form->reordered;
}

dnnl::memory OutputIn(const dnnl::memory& user, const dnnl::memory::desc& desc,
                      memory::AllocationPtr* scratch) {
  return user.get_desc() == desc ? user : InScratch(desc, scratch);
}

LibraryInfo Info() {
  const dnnl_version_t* v = dnnl_version();
  std::string isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::sse41:
      isa = "sse41";
      break;
    case dnnl::cpu_isa::avx:
      isa = "avx";
      break;
    case dnnl::cpu_isa::avx2:
      isa = "avx2";
      break;
    case dnnl::cpu_isa::avx2_vnni:
      isa = "avx2_vnni";
      break;
    case dnnl::cpu_isa::avx512_core:
      isa = "avx512_core";
      break;
    case dnnl::cpu_isa::avx512_core_vnni:
      isa = "avx512_core_vnni";
      break;
    case dnnl::cpu_isa::avx512_core_bf16:
      isa = "avx512_core_bf16";
      break;
    case dnnl::cpu_isa::avx512_core_amx:
      isa = "avx512_core_amx";
      break;
    default:
      isa = "other";
      break;
  }
  return {
      std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch),
      isa, omp_get_max_threads()};
}

void CopyBack(const dnnl::memory& produced, const dnnl::memory& user) {
  if (produced.get_data_handle() != user.get_data_handle()) Reorder(produced, user);
}

}  // namespace paddle::funcs::onednn
