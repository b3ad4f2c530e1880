#include "paddle/distributed/process_group_gloo.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/scatter.h>
#include <gloo/transport/buffer.h>
#include <gloo/transport/pair.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>
#include <gloo/types.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <sstream>

#include "paddle/common/data_type_visit.h"
#include "paddle/common/errors.h"

namespace paddle::distributed {

namespace {

constexpr uint8_t kSendRecvSlotPrefix = 0x40;  // above Gloo's own collective prefixes

std::string Seconds(std::chrono::milliseconds t) {
  std::ostringstream os;
  os << static_cast<double>(t.count()) / 1000.0 << " s";
  return os.str();
}

// Gloo's rendezvous keys, kept under the group's prefix in the TCPStore.
class GlooStore : public gloo::rendezvous::Store {
 public:
  GlooStore(std::shared_ptr<TCPStore> store, std::string prefix)
      : store_(std::move(store)), prefix_(std::move(prefix)) {}

  void set(const std::string& key, const std::vector<char>& data) override {
    store_->Set(prefix_ + key, std::vector<uint8_t>(data.begin(), data.end()));
  }
  std::vector<char> get(const std::string& key) override {
    std::vector<uint8_t> value = store_->Get(prefix_ + key);
    return std::vector<char>(value.begin(), value.end());
  }
  void wait(const std::vector<std::string>& keys) override { wait(keys, store_->timeout()); }
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override {
    std::vector<std::string> full;
    for (const std::string& key : keys) full.push_back(prefix_ + key);
    store_->Wait(full, timeout);
  }

 private:
  std::shared_ptr<TCPStore> store_;
  std::string prefix_;
};

// Fixed-size element carriers: Gloo moves elements by size, the reduction function knows the type.
template <size_t N>
struct Bytes {
  uint8_t b[N];
};

template <typename Fn>
void VisitElementSize(size_t size, Fn&& fn) {
  switch (size) {
    case 1:
      return fn(Bytes<1>{});
    case 2:
      return fn(Bytes<2>{});
    case 4:
      return fn(Bytes<4>{});
    case 8:
      return fn(Bytes<8>{});
    case 16:
      return fn(Bytes<16>{});
    default:
      PD_INTERNAL_ASSERT(false, "no element carrier of ", size, " bytes");
  }
}

template <typename T>
T Combine(ReduceOp op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case ReduceOp::SUM:
      case ReduceOp::MAX:
        return a || b;
      default:  // MIN, PROD
        return a && b;
    }
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return T(Combine<float>(op, static_cast<float>(a), static_cast<float>(b)));
  } else if constexpr (kIsComplex<T>) {
    return op == ReduceOp::PROD ? a * b : a + b;  // MAX/MIN are refused before
  } else {
    switch (op) {
      case ReduceOp::MAX:
        return a < b ? b : a;
      case ReduceOp::MIN:
        return b < a ? b : a;
      case ReduceOp::PROD:
        return static_cast<T>(a * b);
      default:  // SUM, and AVG's sum
        return static_cast<T>(a + b);
    }
  }
}

// One loop per (dtype, op), the op a template argument, so that the compiler vectorises the
// float and integer loops: Gloo calls it on every chunk of the ring.
template <typename T, ReduceOp kOp>
void ReduceLoop(void* out, const void* a, const void* b, size_t n) {
  T* o = static_cast<T*>(out);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  for (size_t i = 0; i < n; ++i) o[i] = Combine<T>(kOp, x[i], y[i]);
}

using ReduceFn = void (*)(void*, const void*, const void*, size_t);

ReduceFn ReduceFunction(DataType dtype, ReduceOp op) {
  ReduceFn fn = nullptr;
  VisitDataType(dtype, [&](auto zero) {
    using T = decltype(zero);
    switch (op) {
      case ReduceOp::MAX:
        fn = &ReduceLoop<T, ReduceOp::MAX>;
        break;
      case ReduceOp::MIN:
        fn = &ReduceLoop<T, ReduceOp::MIN>;
        break;
      case ReduceOp::PROD:
        fn = &ReduceLoop<T, ReduceOp::PROD>;
        break;
      default:  // SUM, and AVG's sum
        fn = &ReduceLoop<T, ReduceOp::SUM>;
    }
  });
  return fn;
}

// AVG's division of the sum by the number of ranks, over `count` elements at `data`.
void DivideBy(DataType dtype, void* data, size_t count, int n) {
  VisitDataType(dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
      PD_INTERNAL_ASSERT(false, "AVG on an integer tensor is refused before");
    } else {
      T* p = static_cast<T*>(data);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const T divisor = static_cast<T>(n);  // in T, so that the loop vectorises
        for (size_t i = 0; i < count; ++i) p[i] /= divisor;
      } else if constexpr (kIsComplex<T>) {
        for (size_t i = 0; i < count; ++i) p[i] /= static_cast<typename T::value_type>(n);
      } else {
        for (size_t i = 0; i < count; ++i) p[i] = T(static_cast<float>(p[i]) / n);
      }
    }
  });
}

void DivideBy(DenseTensor* t, int n) {
  DivideBy(t->dtype(), t->raw_data(), static_cast<size_t>(t->numel()), n);
}

// ExchangeDescriptors' message: a fixed-size descriptor, then the payload if any.
constexpr int kMaxCheckedDims = 9;
enum DescriptorField : int {
  kCollective,
  kDtype,
  kNumel,
  kNdim,
  kDims,
  kRoot = kDims + kMaxCheckedDims,
  kReduceOp,
  kFollowingBytes,  // not compared: the payload sent as a message of its own, after this one
  kDescriptorFields
};
constexpr size_t kDescriptorBytes = kDescriptorFields * sizeof(int64_t);
// Every rank receives at most this many inline payload bytes per operation, from all peers
// together.
constexpr size_t kInlineBytes = size_t{256} << 10;
// Up to this size, all_reduce runs the direct reduce-scatter and all-gather (two steps whatever
// the group's size, the first one in the exchange); above, Gloo's ring, whose chunks pipeline the
// reduction with the transfer.
constexpr size_t kDirectBytes = size_t{8} << 20;
constexpr size_t kLargestElementBytes = 16;  // complex128
// The slots of the buffers on Gloo's pairs (a namespace of their own, apart from the unbound
// buffers' tags). A message lands in the peer's receive buffer of the send buffer's slot, and
// destroying any buffer, send or receive, unregisters its slot on the pair: so the exchange
// messages to rank r use slot r, and the short-lived send buffers of a rank's exchanges never
// share a slot with its own receive buffers. Above the group's size, one slot per direct
// all-reduce's all-gather, reused after a billion calls, long after the call that used it.
constexpr uint64_t kAllGatherSlots = uint64_t{1} << 30;

constexpr const char* kCollectives[] = {"all_reduce", "broadcast", "reduce",        "all_gather",
                                        "alltoall",   "scatter",   "reduce_scatter"};

int64_t CollectiveCode(const char* name) {
  for (size_t i = 0; i < std::size(kCollectives); ++i) {
    if (std::strcmp(kCollectives[i], name) == 0) return static_cast<int64_t>(i);
  }
  PD_INTERNAL_ASSERT(false, "no descriptor code for the collective ", name);
  return -1;
}

std::string ShapeString(const int64_t* d) {
  std::ostringstream os;
  os << DataTypeName(static_cast<DataType>(d[kDtype])) << "[";
  for (int64_t i = 0; i < d[kNdim]; ++i) os << (i ? ", " : "") << d[kDims + i];
  os << "]";
  return os.str();
}

// Waits for a posted point-to-point transfer when the caller waits. Gloo offers no test for a
// transfer short of waiting, so is_completed() turns true once wait() has returned.
class SendRecvTask : public Task {
 public:
  SendRecvTask(std::unique_ptr<gloo::transport::UnboundBuffer> buffer, Tensor tensor, bool is_send,
               std::chrono::milliseconds timeout, std::function<std::string(const char*)> describe)
      : buffer_(std::move(buffer)),
        tensor_(std::move(tensor)),
        is_send_(is_send),
        timeout_(timeout),
        describe_(std::move(describe)) {}

  bool IsCompleted() override { return Task::IsCompleted(); }

  void Wait() override {
    std::call_once(waited_, [this] {
      try {
        bool done = is_send_ ? buffer_->waitSend(timeout_) : buffer_->waitRecv(timeout_);
        if (!done) throw gloo::IoException("timed out");
        Finish(nullptr);
      } catch (const std::exception& e) {
        Finish(std::make_exception_ptr(errors::PreconditionNotMet(describe_(e.what()))));
      }
    });
    Task::Wait();
  }

 private:
  std::unique_ptr<gloo::transport::UnboundBuffer> buffer_;
  Tensor tensor_;  // keeps the buffer alive
  bool is_send_;
  std::chrono::milliseconds timeout_;
  std::function<std::string(const char*)> describe_;
  std::once_flag waited_;
};

DenseTensor& CheckedDense(const Tensor& t, const char* op, const char* arg) {
  PD_CHECK(t.defined(), errors::InvalidArgument("paddle.distributed.", op, ": `", arg,
                                                "` is an undefined tensor"));
  DenseTensor& d = t.dense();
  PD_CHECK(d.place().is_cpu(),
           errors::InvalidArgument("paddle.distributed.", op, ": the gloo backend needs `", arg,
                                   "` on the CPU, received a tensor on ", d.place().ToString()));
  PD_CHECK(d.initialized() || d.numel() == 0,
           errors::InvalidArgument("paddle.distributed.", op, ": `", arg,
                                   "` holds no data (not initialised)"));
  return d;
}

void CheckReduceOp(const char* op_name, DataType dtype, ReduceOp op) {
  PD_CHECK(!(IsComplex(dtype) && (op == ReduceOp::MAX || op == ReduceOp::MIN)),
           errors::InvalidArgument("paddle.distributed.", op_name, ": ReduceOp.", ReduceOpName(op),
                                   " is not defined for ", DataTypeName(dtype), " tensors"));
  PD_CHECK(!(op == ReduceOp::AVG && !IsFloating(dtype) && !IsComplex(dtype)),
           errors::InvalidArgument("paddle.distributed.", op_name,
                                   ": ReduceOp.AVG needs a floating-point tensor, received ",
                                   DataTypeName(dtype)));
}

}  // namespace

std::shared_ptr<gloo::transport::Device> CreateGlooDevice(const std::string& iface,
                                                          const std::string& hostname) {
  gloo::transport::tcp::attr attr;
  if (!iface.empty()) {
    attr.iface = iface;
  } else {
    attr.hostname = hostname;
  }
  try {
    return gloo::transport::tcp::CreateDevice(attr);
  } catch (const std::exception& e) {
    PD_THROW(errors::InvalidArgument(
        "paddle.distributed: gloo cannot use ",
        iface.empty() ? "the address '" + hostname + "'" : "GLOO_SOCKET_IFNAME='" + iface + "'",
        ": ", e.what()));
  }
}

ProcessGroupGloo::ProcessGroupGloo(std::shared_ptr<TCPStore> store,
                                   std::shared_ptr<gloo::transport::Device> device,
                                   GroupOptions options)
    : ProcessGroup(std::move(options)),
      store_(std::move(store)),
      sends_to_(options_.size),
      recvs_from_(options_.size) {
  const int size = options_.size;
  PD_CHECK(size >= 1, errors::InvalidArgument("paddle.distributed: the world size must be at "
                                              "least 1, received ",
                                              size));
  PD_CHECK(options_.rank >= 0 && options_.rank < size,
           errors::OutOfRange("paddle.distributed: the rank must be in [0, ", size,
                              ") for a group of ", size, " ranks, received ", options_.rank));
  if (options_.ranks.empty()) {
    for (int r = 0; r < size; ++r) options_.ranks.push_back(r);
  }
  // Every rank announces itself first, so a rank that never starts is named instead of
  // surfacing as a Gloo connection timeout.
  std::string prefix = "pg/" + std::to_string(options_.gid) + "/";
  store_->Set(prefix + "joined/" + std::to_string(options_.rank), {1});
  std::vector<std::string> keys;
  for (int r = 0; r < size; ++r) keys.push_back(prefix + "joined/" + std::to_string(r));
  auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  std::vector<std::string> missing = keys;
  while (!(missing = store_->Missing(missing)).empty() &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& key : missing) {
      int group_rank = std::stoi(key.substr(key.rfind('/') + 1));
      names += (names.empty() ? "" : ", ") + std::to_string(GlobalRank(group_rank));
    }
    PD_THROW(errors::PreconditionNotMet("paddle.distributed: ", Where(), ": rank(s) ", names,
                                        " did not join within the timeout of ",
                                        Seconds(options_.timeout),
                                        " (they never started, or failed before "
                                        "init_parallel_env/new_group)"));
  }
  auto context = std::make_shared<gloo::rendezvous::Context>(options_.rank, size);
  context->setTimeout(options_.timeout);
  GlooStore gloo_store(store_, prefix + "gloo/");
  try {
    context->connectFullMesh(gloo_store, device);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    PD_THROW(errors::PreconditionNotMet(DescribeFailure("connect", e.what())));
  }
  context_ = std::move(context);
  if (size > 1) {
    // Allocated, not initialised: the pages a group never writes stay untouched.
    const size_t out_stride = OutgoingStride();
    const size_t in_stride = IncomingStride();
    exchange_out_.reset(new uint8_t[out_stride * size]);
    exchange_in_.reset(new uint8_t[2 * in_stride * size]);
    exchange_out_buffers_.resize(size);
    exchange_in_buffers_.resize(size);
    for (int peer = 0; peer < size; ++peer) {
      if (peer == options_.rank) continue;
      auto& pair = context_->getPair(peer);
      exchange_in_buffers_[peer] = pair->createRecvBuffer(
          options_.rank, exchange_in_.get() + 2 * in_stride * peer, 2 * in_stride);
      exchange_out_buffers_[peer] =
          pair->createSendBuffer(peer, exchange_out_.get() + out_stride * peer, out_stride);
    }
  }
  thread_ = std::thread([this] { Loop(); });
}

ProcessGroupGloo::~ProcessGroupGloo() {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int ProcessGroupGloo::GlobalRank(int group_rank) const {
  return group_rank >= 0 && group_rank < static_cast<int>(options_.ranks.size())
             ? options_.ranks[group_rank]
             : group_rank;
}

std::string ProcessGroupGloo::Where() const {
  std::ostringstream os;
  os << "rank " << GlobalRank(options_.rank);
  if (options_.gid != 0) os << " (rank " << options_.rank << " of group " << options_.gid << ")";
  os << " of " << options_.size;
  return os.str();
}

std::string ProcessGroupGloo::DescribeFailure(const char* name, const std::string& cause) {
  // A killed peer closes its store connection as well as its Gloo pairs; give the master a
  // moment to see the close when Gloo noticed it first.
  std::vector<int> dead;
  // Gloo says "timed out" for a transfer and "timeout" for a registered buffer's wait.
  bool timed_out =
      cause.find("imed out") != std::string::npos || cause.find("timeout") != std::string::npos;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timed_out ? 0 : 2);
  while (true) {
    dead = store_->DeadRanksOrMasterGone();
    if (!dead.empty() || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::ostringstream os;
  os << "paddle.distributed: " << name << " failed on " << Where() << ": ";
  if (dead == std::vector<int>{-1}) {
    os << "rank 0 (the store master at " << store_->host() << ":" << store_->port() << ") exited";
  } else if (!dead.empty()) {
    os << "rank" << (dead.size() > 1 ? "s " : " ");
    for (size_t i = 0; i < dead.size(); ++i) os << (i ? ", " : "") << dead[i];
    os << (dead.size() > 1 ? " have" : " has") << " exited";
  } else if (timed_out) {
    os << "a peer did not take part within the timeout of " << Seconds(options_.timeout)
       << " (no rank has exited; one is stuck or called a different collective)";
  } else {
    os << "the connection to a peer failed";
  }
  os << " [gloo: " << cause << "]";
  return os.str();
}

void ProcessGroupGloo::CheckPeer(const char* name, const char* arg, int peer) const {
  PD_CHECK(peer >= 0 && peer < options_.size,
           errors::OutOfRange("paddle.distributed.", name, ": `", arg, "` must be a rank in [0, ",
                              options_.size, ") of the group, received ", peer));
}

std::shared_ptr<Task> ProcessGroupGloo::Enqueue(const char* name, std::function<void(uint32_t)> run,
                                                bool sync_op) {
  Work work{name, std::move(run), std::make_shared<Task>()};
  std::shared_ptr<Task> task = work.task;
  {
    std::unique_lock<std::mutex> lock(queue_mutex_);
    if (!sync_op || busy_ || !queue_.empty()) {
      queue_.push_back(std::move(work));
      lock.unlock();
      queue_cv_.notify_all();
      if (sync_op) task->Wait();
      return task;
    }
    busy_ = true;
  }
  // Nothing is queued or running: a synchronous operation runs on the calling thread, which
  // saves the two thread hand-offs that dominate small messages.
  Execute(&work);
  bool queued;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    busy_ = false;
    queued = !queue_.empty();
  }
  // Wake the communication thread only for work queued meanwhile: an idle wake-up per call
  // costs a context switch, which on a loaded machine is most of a small message's time.
  if (queued) queue_cv_.notify_all();
  task->Wait();
  return task;
}

void ProcessGroupGloo::Loop() {
  while (true) {
    Work work;
    {
      std::unique_lock<std::mutex> lock(queue_mutex_);
      queue_cv_.wait(lock, [this] { return stopping_ || (!queue_.empty() && !busy_); });
      if (queue_.empty()) return;
      work = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    Execute(&work);
    std::lock_guard<std::mutex> lock(queue_mutex_);
    busy_ = false;  // this thread is the only waiter and checks the queue before it waits
  }
}

void ProcessGroupGloo::Execute(Work* work) {
  if (!failure_.empty()) {
    work->task->Finish(std::make_exception_ptr(
        errors::PreconditionNotMet("paddle.distributed: ", work->name,
                                   " on a failed group; the first failure was: ", failure_)));
    return;
  }
  try {
    work->run(next_tag_++);
    work->task->Finish(nullptr);
  } catch (const Error&) {
    work->task->Finish(std::current_exception());
  } catch (const std::exception& e) {
    failure_ = DescribeFailure(work->name, e.what());
    work->task->Finish(std::make_exception_ptr(errors::PreconditionNotMet(failure_)));
  }
}

size_t ProcessGroupGloo::InlineLimit() const {
  return options_.size > 1 ? kInlineBytes / (options_.size - 1) : 0;
}

// Rounded up so that every stride's descriptor stays aligned.
size_t ProcessGroupGloo::OutgoingStride() const {
  return kDescriptorBytes + (InlineLimit() + 63) / 64 * 64;
}

size_t ProcessGroupGloo::IncomingStride() const {
  // A medium all-reduce sends each peer the chunk it owns: ceil(numel / n) elements.
  const size_t chunk = kDirectBytes / options_.size + kLargestElementBytes;
  return kDescriptorBytes + (std::max(InlineLimit(), chunk) + 63) / 64 * 64;
}

const uint8_t* ProcessGroupGloo::ReceivedPayload(int rank) const {
  return exchange_in_.get() + (2 * rank + exchange_turn_) * IncomingStride() + kDescriptorBytes;
}

const uint8_t* ProcessGroupGloo::SentPayload(int peer) const {
  return exchange_out_.get() + peer * OutgoingStride() + kDescriptorBytes;
}

// One or two messages to and from every peer through the registered buffers. Gloo aborts the
// process when a message is longer than the buffer it lands in, so no message may depend on a
// length the peers have not agreed on yet: every incoming stride holds the most any rank ever
// sends whatever its tensor. A peer whose tensor differs sends messages of other lengths, which
// still land, and its descriptor names the difference; payloads are used only after every
// descriptor matched.
void ProcessGroupGloo::ExchangeDescriptors(const char* name, const DenseTensor& tensor, int root,
                                           ReduceOp op,
                                           const std::function<Payload(int peer)>& payload_for) {
  const int size = options_.size;
  const int rank = options_.rank;
  int64_t mine[kDescriptorFields] = {};
  mine[kCollective] = CollectiveCode(name);
  mine[kDtype] = static_cast<int64_t>(tensor.dtype());
  mine[kNumel] = tensor.numel();
  mine[kNdim] = std::min<int64_t>(tensor.dims().size(), kMaxCheckedDims);
  for (int64_t i = 0; i < mine[kNdim]; ++i) mine[kDims + i] = tensor.dims()[static_cast<int>(i)];
  mine[kRoot] = root;
  mine[kReduceOp] = static_cast<int64_t>(op);
  exchange_turn_ ^= 1;
  // A payload up to the inline limit is copied behind the descriptor, one message; a larger one
  // is sent straight from its memory as a second message into the same place, which the
  // descriptor announces, so that the receiver knows how many messages to wait for.
  std::vector<std::unique_ptr<gloo::transport::Buffer>> following(size);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    uint8_t* out = exchange_out_.get() + peer * OutgoingStride();
    const Payload payload = payload_for ? payload_for(peer) : Payload{};
    PD_INTERNAL_ASSERT(kDescriptorBytes + payload.bytes <= IncomingStride(),
                       "exchange payload over the capacity");
    const bool copied = payload.bytes <= InlineLimit();
    std::memcpy(out, mine, kDescriptorBytes);
    reinterpret_cast<int64_t*>(out)[kFollowingBytes] = copied ? 0 : payload.bytes;
    if (copied && payload.bytes > 0)
      std::memcpy(out + kDescriptorBytes, payload.data, payload.bytes);
    const size_t offset = exchange_turn_ * IncomingStride();
    exchange_out_buffers_[peer]->send(0, kDescriptorBytes + (copied ? payload.bytes : 0), offset);
    if (!copied) {
      following[peer] = context_->getPair(peer)->createSendBuffer(
          peer, const_cast<void*>(payload.data), payload.bytes);
      following[peer]->send(0, payload.bytes, offset + kDescriptorBytes);
    }
  }
  // Every message is received before any descriptor is compared: one left unread would be taken
  // for the next exchange's.
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    exchange_in_buffers_[peer]->waitRecv();
    const auto* theirs = reinterpret_cast<const int64_t*>(ReceivedPayload(peer) - kDescriptorBytes);
    if (theirs[kFollowingBytes] > 0) exchange_in_buffers_[peer]->waitRecv();
  }
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    exchange_out_buffers_[peer]->waitSend();
    if (following[peer]) following[peer]->waitSend();
  }
  for (int r = 0; r < size; ++r) {
    if (r == rank) continue;
    const auto* theirs = reinterpret_cast<const int64_t*>(ReceivedPayload(r) - kDescriptorBytes);
    auto differs = [&](int field) { return theirs[field] != mine[field]; };
    const char* their_name =
        theirs[kCollective] >= 0 &&
                theirs[kCollective] < static_cast<int64_t>(std::size(kCollectives))
            ? kCollectives[theirs[kCollective]]
            : "an unknown operation";
    if (differs(kCollective)) {
      PD_THROW(errors::InvalidArgument("paddle.distributed.", name, ": rank ", GlobalRank(r),
                                       " called ", their_name, " where ", Where(), " called ", name,
                                       " (every rank must call the same collectives in "
                                       "the same order)"));
    }
    if (differs(kRoot)) {
      PD_THROW(errors::InvalidArgument("paddle.distributed.", name, ": rank ", GlobalRank(r),
                                       " passed root/src ", GlobalRank(theirs[kRoot]), " where ",
                                       Where(), " passed ", GlobalRank(root)));
    }
    if (differs(kDtype) || differs(kNumel) || differs(kNdim) ||
        !std::equal(mine + kDims, mine + kDims + kMaxCheckedDims, theirs + kDims)) {
      PD_THROW(errors::InvalidArgument("paddle.distributed.", name,
                                       ": every rank must pass a tensor of the same shape and "
                                       "dtype; rank ",
                                       GlobalRank(r), " passed ", ShapeString(theirs), " where ",
                                       Where(), " passed ", ShapeString(mine)));
    }
    if (differs(kReduceOp)) {
      PD_THROW(errors::InvalidArgument("paddle.distributed.", name, ": rank ", GlobalRank(r),
                                       " passed ReduceOp.",
                                       ReduceOpName(static_cast<ReduceOp>(theirs[kReduceOp])),
                                       " where ", Where(), " passed ReduceOp.", ReduceOpName(op)));
    }
  }
}

// The tensor travels with the descriptor, one message to and from each peer (for 2 ranks the
// bytes a ring sends, in one step instead of two).
void ProcessGroupGloo::InlineAllReduce(DenseTensor* t, ReduceOp op) {
  const int size = options_.size;
  const int rank = options_.rank;
  ExchangeDescriptors("all_reduce", *t, 0, op, [t](int) {
    return Payload{t->raw_data(), t->nbytes()};
  });
  if (t->numel() == 0) return;
  // Every rank folds the contributions in rank order, so that all ranks get the same bits. The
  // fold overwrites the tensor, so this rank's contribution is read from its outgoing message.
  auto contribution = [&](int r) {
    return r == rank ? SentPayload((rank + 1) % size) : ReceivedPayload(r);
  };
  ReduceFn reduce = ReduceFunction(t->dtype(), op);
  const size_t count = static_cast<size_t>(t->numel());
  reduce(t->raw_data(), contribution(0), contribution(1), count);
  for (int r = 2; r < size; ++r) reduce(t->raw_data(), t->raw_data(), contribution(r), count);
  if (op == ReduceOp::AVG) DivideBy(t, size);
}

// Rank r owns the r-th of n chunks. The exchange sends every peer the chunk it owns (the
// reduce-scatter); each rank reduces its own chunk and writes it into every peer's tensor (the
// all-gather). Two steps whatever the group's size, each moving (n-1)/n of the tensor in and out
// of every rank, the ring's traffic; only the owner reduces a chunk, so all ranks get the same
// bits. The all-gather goes through buffers registered over the tensors for this call: a
// message lands without a receive being posted for it, which on a loaded machine avoids the
// thread hand-offs (and their scheduler stalls) of Gloo's unbound buffers.
void ProcessGroupGloo::DirectAllReduce(DenseTensor* t, ReduceOp op) {
  const int size = options_.size;
  const int rank = options_.rank;
  const size_t element = SizeOf(t->dtype());
  const size_t numel = static_cast<size_t>(t->numel());
  const size_t per_rank = (numel + size - 1) / size;
  struct Chunk {
    size_t offset, bytes;
  };
  auto chunk = [&](int r) {
    const size_t begin = std::min(r * per_rank, numel);
    const size_t end = std::min(begin + per_rank, numel);
    return Chunk{begin * element, (end - begin) * element};
  };
  auto* data = static_cast<uint8_t*>(t->raw_data());
  ExchangeDescriptors("all_reduce", *t, 0, op, [&](int peer) {
    return Payload{data + chunk(peer).offset, chunk(peer).bytes};
  });
  // Registered before the reduction, so that a peer's chunk rarely arrives before its buffer
  // (Gloo's loop then polls for the registration). Every rank takes the slot in step: the
  // exchange has just matched their calls.
  const int slot = size + static_cast<int>(all_gathers_++ % kAllGatherSlots);
  const Chunk mine = chunk(rank);
  std::vector<std::unique_ptr<gloo::transport::Buffer>> theirs(size), ours(size);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    auto& pair = context_->getPair(peer);
    const Chunk other = chunk(peer);
    if (other.bytes > 0) {
      theirs[peer] = pair->createRecvBuffer(slot, data + other.offset, other.bytes);
    }
    if (mine.bytes > 0) ours[peer] = pair->createSendBuffer(slot, data + mine.offset, mine.bytes);
  }
  if (mine.bytes > 0) {
    ReduceFn reduce = ReduceFunction(t->dtype(), op);
    const size_t count = mine.bytes / element;
    for (int peer = 0; peer < size; ++peer) {
      if (peer != rank)
        reduce(data + mine.offset, data + mine.offset, ReceivedPayload(peer), count);
    }
    if (op == ReduceOp::AVG) DivideBy(t->dtype(), data + mine.offset, count, size);
    for (int peer = 0; peer < size; ++peer) {
      if (ours[peer]) ours[peer]->send(0, mine.bytes);
    }
  }
  for (int peer = 0; peer < size; ++peer) {
    if (theirs[peer]) theirs[peer]->waitRecv();
  }
  for (int peer = 0; peer < size; ++peer) {
    if (ours[peer]) ours[peer]->waitSend();
  }
}

std::shared_ptr<Task> ProcessGroupGloo::AllReduce(Tensor tensor, ReduceOp op, bool sync_op) {
  DenseTensor& t = CheckedDense(tensor, "all_reduce", "tensor");
  CheckReduceOp("all_reduce", t.dtype(), op);
  return Enqueue(
      "all_reduce",
      [this, tensor, op](uint32_t tag) {
        DenseTensor& t = tensor.dense();
        if (options_.size > 1 && t.nbytes() <= InlineLimit()) {
          InlineAllReduce(&t, op);
        } else if (options_.size > 1 && t.nbytes() <= kDirectBytes) {
          DirectAllReduce(&t, op);
        } else if (options_.size > 1) {
          if (options_.check_tensors) ExchangeDescriptors("all_reduce", t, 0, op);
          VisitElementSize(SizeOf(t.dtype()), [&](auto carrier) {
            using C = decltype(carrier);
            gloo::AllreduceOptions opts(context_);
            opts.setOutput(static_cast<C*>(t.raw_data()), static_cast<size_t>(t.numel()));
            opts.setReduceFunction(ReduceFunction(t.dtype(), op));
            opts.setTag(tag);
            gloo::allreduce(opts);
          });
          if (op == ReduceOp::AVG) DivideBy(&t, options_.size);
        }
        t.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::Broadcast(Tensor tensor, int root, bool sync_op) {
  CheckedDense(tensor, "broadcast", "tensor");
  CheckPeer("broadcast", "src", root);
  return Enqueue(
      "broadcast",
      [this, tensor, root](uint32_t tag) {
        DenseTensor& t = tensor.dense();
        CheckSameTensor("broadcast", t, root);
        if (options_.size == 1 || t.numel() == 0) return;
        gloo::BroadcastOptions opts(context_);
        opts.setOutput(static_cast<uint8_t*>(t.raw_data()), t.nbytes());
        opts.setRoot(root);
        opts.setTag(tag);
        gloo::broadcast(opts);
        t.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::Reduce(Tensor tensor, int root, ReduceOp op, bool sync_op) {
  DenseTensor& t = CheckedDense(tensor, "reduce", "tensor");
  CheckReduceOp("reduce", t.dtype(), op);
  CheckPeer("reduce", "dst", root);
  return Enqueue(
      "reduce",
      [this, tensor, root, op](uint32_t tag) {
        DenseTensor& t = tensor.dense();
        CheckSameTensor("reduce", t, root);
        if (options_.size > 1 && t.numel() > 0) {
          VisitElementSize(SizeOf(t.dtype()), [&](auto carrier) {
            using C = decltype(carrier);
            // Gloo's reduce uses the output as scratch on every rank: reduce into a copy so that
            // the other ranks' tensors keep their values, as in Paddle.
            std::vector<uint8_t> scratch(t.nbytes());
            std::memcpy(scratch.data(), t.raw_data(), t.nbytes());
            gloo::ReduceOptions opts(context_);
            opts.setOutput(reinterpret_cast<C*>(scratch.data()), static_cast<size_t>(t.numel()));
            opts.setRoot(root);
            opts.setReduceFunction(ReduceFunction(t.dtype(), op));
            opts.setTag(tag);
            gloo::reduce(opts);
            if (options_.rank == root) std::memcpy(t.raw_data(), scratch.data(), t.nbytes());
          });
        }
        if (options_.rank == root) {
          if (op == ReduceOp::AVG) DivideBy(&t, options_.size);
          t.BumpInplaceVersion();
        }
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::AllGather(Tensor out, Tensor in, bool sync_op) {
  DenseTensor& o = CheckedDense(out, "all_gather", "out");
  DenseTensor& i = CheckedDense(in, "all_gather", "tensor");
  PD_CHECK(
      o.dtype() == i.dtype() && o.numel() == i.numel() * options_.size,
      errors::InvalidArgument("paddle.distributed.all_gather: the output must hold ", options_.size,
                              " x ", i.numel(), " ", DataTypeName(i.dtype()),
                              " elements, received ", o.numel(), " ", DataTypeName(o.dtype())));
  return Enqueue(
      "all_gather",
      [this, out, in](uint32_t tag) {
        DenseTensor& o = out.dense();
        DenseTensor& i = in.dense();
        CheckSameTensor("all_gather", i, 0);
        if (i.nbytes() > 0) {
          gloo::AllgatherOptions opts(context_);
          opts.setInput(static_cast<uint8_t*>(i.raw_data()), i.nbytes());
          opts.setOutput(static_cast<uint8_t*>(o.raw_data()), o.nbytes());
          opts.setTag(tag);
          gloo::allgather(opts);
        }
        o.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::AllToAll(Tensor out, Tensor in, bool sync_op) {
  DenseTensor& o = CheckedDense(out, "alltoall", "out");
  DenseTensor& i = CheckedDense(in, "alltoall", "in");
  PD_CHECK(o.dtype() == i.dtype() && o.numel() == i.numel() && i.numel() % options_.size == 0,
           errors::InvalidArgument("paddle.distributed.alltoall: input and output must hold the "
                                   "same number of elements of one dtype, divisible by the ",
                                   options_.size, " ranks; received ", i.numel(), " ",
                                   DataTypeName(i.dtype()), " and ", o.numel(), " ",
                                   DataTypeName(o.dtype())));
  return Enqueue(
      "alltoall",
      [this, out, in](uint32_t tag) {
        DenseTensor& o = out.dense();
        DenseTensor& i = in.dense();
        CheckSameTensor("alltoall", i, 0);
        if (options_.size == 1) {
          std::memcpy(o.raw_data(), i.raw_data(), i.nbytes());
        } else if (i.nbytes() > 0) {
          gloo::AlltoallOptions opts(context_);
          opts.setInput(static_cast<uint8_t*>(i.raw_data()), i.nbytes());
          opts.setOutput(static_cast<uint8_t*>(o.raw_data()), o.nbytes());
          opts.setTag(tag);
          gloo::alltoall(opts);
        }
        o.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::ReduceScatter(Tensor out, Tensor in, ReduceOp op,
                                                      bool sync_op) {
  DenseTensor& o = CheckedDense(out, "reduce_scatter", "tensor");
  DenseTensor& i = CheckedDense(in, "reduce_scatter", "tensor_list");
  CheckReduceOp("reduce_scatter", i.dtype(), op);
  PD_CHECK(o.dtype() == i.dtype() && i.numel() == o.numel() * options_.size,
           errors::InvalidArgument("paddle.distributed.reduce_scatter: the input must hold ",
                                   options_.size, " chunks of the output's ", o.numel(), " ",
                                   DataTypeName(o.dtype()), " elements, received ", i.numel(), " ",
                                   DataTypeName(i.dtype())));
  return Enqueue(
      "reduce_scatter",
      [this, out, in, op](uint32_t tag) {
        DenseTensor& o = out.dense();
        DenseTensor& i = in.dense();
        CheckSameTensor("reduce_scatter", i, 0);
        // An all-to-all of the chunks, then each rank reduces the chunks it received: every rank
        // sends (n-1)/n of its input once, the traffic of a ring reduce-scatter.
        const size_t chunk = o.nbytes();
        std::vector<uint8_t> received(i.nbytes());
        if (options_.size == 1) {
          std::memcpy(received.data(), i.raw_data(), i.nbytes());
        } else if (chunk > 0) {
          gloo::AlltoallOptions opts(context_);
          opts.setInput(static_cast<uint8_t*>(i.raw_data()), i.nbytes());
          opts.setOutput(received.data(), received.size());
          opts.setTag(tag);
          gloo::alltoall(opts);
        }
        auto reduce = ReduceFunction(o.dtype(), op);
        std::memcpy(o.raw_data(), received.data(), chunk);
        for (int r = 1; r < options_.size; ++r) {
          reduce(o.raw_data(), o.raw_data(), received.data() + r * chunk,
                 static_cast<size_t>(o.numel()));
        }
        if (op == ReduceOp::AVG) DivideBy(&o, options_.size);
        o.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::Scatter(Tensor out, Tensor in, int root, bool sync_op) {
  DenseTensor& o = CheckedDense(out, "scatter", "tensor");
  CheckPeer("scatter", "src", root);
  if (options_.rank == root) {
    DenseTensor& i = CheckedDense(in, "scatter", "tensor_list");
    PD_CHECK(
        i.dtype() == o.dtype() && i.numel() == o.numel() * options_.size,
        errors::InvalidArgument("paddle.distributed.scatter: the source rank needs ", options_.size,
                                " tensors like `tensor` (", DataTypeName(o.dtype()), ", ",
                                o.numel(), " elements each), received ", i.numel(), " ",
                                DataTypeName(i.dtype()), " elements in all"));
  }
  return Enqueue(
      "scatter",
      [this, out, in, root](uint32_t tag) {
        DenseTensor& o = out.dense();
        CheckSameTensor("scatter", o, root);
        if (options_.size == 1) {
          std::memcpy(o.raw_data(), in.dense().raw_data(), o.nbytes());
        } else if (o.nbytes() > 0) {
          gloo::ScatterOptions opts(context_);
          if (options_.rank == root) {
            std::vector<uint8_t*> chunks;
            auto* base = static_cast<uint8_t*>(in.dense().raw_data());
            for (int r = 0; r < options_.size; ++r) chunks.push_back(base + r * o.nbytes());
            opts.setInputs(chunks, o.nbytes());
          }
          opts.setOutput(static_cast<uint8_t*>(o.raw_data()), o.nbytes());
          opts.setRoot(root);
          opts.setTag(tag);
          gloo::scatter(opts);
        }
        o.BumpInplaceVersion();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::Send(Tensor tensor, int dst, bool sync_op) {
  DenseTensor& t = CheckedDense(tensor, "send", "tensor");
  CheckPeer("send", "dst", dst);
  PD_CHECK(dst != options_.rank,
           errors::InvalidArgument("paddle.distributed.send: rank ", GlobalRank(dst),
                                   " cannot send to itself"));
  if (!failure_.empty()) PD_THROW(errors::PreconditionNotMet(failure_));
  auto buffer = context_->createUnboundBuffer(t.raw_data(), t.nbytes());
  buffer->send(dst, gloo::Slot::build(kSendRecvSlotPrefix, sends_to_[dst]++));
  auto task = std::make_shared<SendRecvTask>(
      std::move(buffer), tensor, true, options_.timeout, [this, dst](const char* cause) {
        return DescribeFailure("send", std::string(cause) + " (sending to rank " +
                                           std::to_string(GlobalRank(dst)) + ")");
      });
  if (sync_op) task->Wait();
  return task;
}

std::shared_ptr<Task> ProcessGroupGloo::Recv(Tensor tensor, int src, bool sync_op) {
  DenseTensor& t = CheckedDense(tensor, "recv", "tensor");
  CheckPeer("recv", "src", src);
  PD_CHECK(src != options_.rank,
           errors::InvalidArgument("paddle.distributed.recv: rank ", GlobalRank(src),
                                   " cannot receive from itself"));
  if (!failure_.empty()) PD_THROW(errors::PreconditionNotMet(failure_));
  auto buffer = context_->createUnboundBuffer(t.raw_data(), t.nbytes());
  buffer->recv(src, gloo::Slot::build(kSendRecvSlotPrefix, recvs_from_[src]++));
  t.BumpInplaceVersion();
  auto task = std::make_shared<SendRecvTask>(
      std::move(buffer), tensor, false, options_.timeout, [this, src](const char* cause) {
        return DescribeFailure("recv", std::string(cause) + " (receiving from rank " +
                                           std::to_string(GlobalRank(src)) + ")");
      });
  if (sync_op) task->Wait();
  return task;
}

std::shared_ptr<Task> ProcessGroupGloo::Barrier() {
  return Enqueue(
      "barrier",
      [this](uint32_t tag) {
        if (options_.size == 1) return;
        gloo::BarrierOptions opts(context_);
        opts.setTag(tag);
        gloo::barrier(opts);
      },
      true);
}

}  // namespace paddle::distributed
