// ProcessGroupGloo: the CPU collectives on Gloo's TCP transport. Gloo's rendezvous (each pair's
// address) goes through the group's TCPStore; one communication thread runs the queued
// operations. A failure (a peer exited, a timeout, a mismatch) is turned into an error that
// names the ranks involved, and the group stays failed: later operations raise the same error
// at once instead of waiting on a broken connection.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paddle/distributed/process_group.h"
#include "paddle/distributed/tcp_store.h"

namespace gloo {
class Algorithm;
class Context;
namespace transport {
class Device;
class UnboundBuffer;
}  // namespace transport
}  // namespace gloo

namespace paddle::distributed {

// The network interface or address Gloo binds to: `iface` (GLOO_SOCKET_IFNAME) when set, else
// `hostname`.
std::shared_ptr<gloo::transport::Device> CreateGlooDevice(const std::string& iface,
                                                          const std::string& hostname);

class ProcessGroupGloo : public ProcessGroup {
 public:
  ProcessGroupGloo(std::shared_ptr<TCPStore> store, std::shared_ptr<gloo::transport::Device> device,
                   GroupOptions options);
  ~ProcessGroupGloo() override;

  std::string backend() const override { return "gloo"; }

  std::shared_ptr<Task> AllReduce(Tensor tensor, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> Broadcast(Tensor tensor, int root, bool sync_op) override;
  std::shared_ptr<Task> Reduce(Tensor tensor, int root, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> AllGather(Tensor out, Tensor in, bool sync_op) override;
  std::shared_ptr<Task> ReduceScatter(Tensor out, Tensor in, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> Scatter(Tensor out, Tensor in, int root, bool sync_op) override;
  std::shared_ptr<Task> AllToAll(Tensor out, Tensor in, bool sync_op) override;
  std::shared_ptr<Task> Send(Tensor tensor, int dst, bool sync_op) override;
  std::shared_ptr<Task> Recv(Tensor tensor, int src, bool sync_op) override;
  std::shared_ptr<Task> Barrier() override;

 private:
  struct Work {
    const char* name;
    std::function<void(uint32_t)> run;
    std::shared_ptr<Task> task;
  };

  // Queues `run` (given the operation's tags) on the communication thread, or runs it here when
  // it is synchronous and nothing is queued: operations still run one at a time, in call order.
  std::shared_ptr<Task> Enqueue(const char* name, std::function<void(uint32_t)> run, bool sync_op);
  void Loop();
  void Execute(Work* work);
  // Every rank's descriptor of its tensor (the collective, dtype, shape, root, reduce op),
  // compared; raises naming the rank that differs. `payload` (at most InlineLimit() bytes) travels
  // in the same message as the descriptor: the small all-reduce's whole data exchange. Returns
  // rank r's payload (this rank's own too) as ExchangedPayload(r).
  // `algorithm`: the id of the cached algorithm this rank would run (-1: none); returns whether
  // every rank named the same one.
  bool ExchangeDescriptors(const char* name, uint32_t tag, const DenseTensor& tensor, int root,
                           ReduceOp op, const void* payload, size_t payload_bytes,
                           int64_t algorithm = -1);
  void CheckSameTensor(const char* name, uint32_t tag, const DenseTensor& tensor, int root) {
    if (options_.check_tensors && options_.size > 1) {
      ExchangeDescriptors(name, tag, tensor, root, ReduceOp::SUM, nullptr, 0);
    }
  }
  // The most payload bytes a rank sends inline with its descriptor: every rank receives at most
  // this much from all peers together, so small all-reduces go in one message per peer.
  size_t InlineLimit() const;
  const uint8_t* ExchangedPayload(int rank) const;
  // Medium all-reduces run Gloo's AllreduceHalvingDoubling, whose buffers are registered when it
  // is built: built objects are kept per (data pointer, numel, dtype, op).
  void HalvingDoublingAllReduce(uint32_t tag, DenseTensor* t, ReduceOp op);
  // The error for a failed operation: which ranks exited, or that the peers timed out.
  std::string DescribeFailure(const char* name, const std::string& cause);
  std::string Where() const;
  int GlobalRank(int group_rank) const;
  void CheckPeer(const char* name, const char* arg, int peer) const;

  std::shared_ptr<TCPStore> store_;
  std::shared_ptr<gloo::Context> context_;

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<Work> queue_;
  bool stopping_ = false;
  bool busy_ = false;  // an operation is running (on the thread or inline)
  uint32_t next_tag_ = 0;
  std::string failure_;  // set once an operation failed; later ones raise it
  std::vector<uint64_t> sends_to_, recvs_from_;  // point-to-point sequence numbers per peer
  // ExchangeDescriptors' messages, one stride (descriptor + InlineLimit()) per rank, registered
  // with Gloo once; this rank's stride is what it sends.
  std::vector<uint8_t> exchange_;
  std::unique_ptr<gloo::transport::UnboundBuffer> exchange_buffer_;
  struct CachedAllReduce {
    int64_t id;  // the same on every rank: built in the same order everywhere
    const void* data;
    int64_t numel;
    DataType dtype;
    ReduceOp op;
    std::shared_ptr<void> reduction;  // the gloo::ReductionFunction the algorithm points to
    std::unique_ptr<gloo::Algorithm> algorithm;
  };
  std::deque<CachedAllReduce> cached_all_reduces_;  // newest last
  int64_t next_algorithm_id_ = 0;
  std::thread thread_;
};

}  // namespace paddle::distributed
