// ProcessGroupGloo: the CPU collectives on Gloo's TCP transport. Gloo's rendezvous (each pair's
// address) goes through the group's TCPStore; one communication thread runs the queued
// operations. A failure (a peer exited, a timeout, a mismatch) is turned into an error that
// names the ranks involved, and the group stays failed: later operations raise the same error
// at once instead of waiting on a broken connection.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "paddle/distributed/process_group.h"
#include "paddle/distributed/tcp_store.h"

namespace gloo {
class Context;
namespace transport {
class Buffer;
class Device;
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

  // Queues `run` (given the operation's tag) on the communication thread, or runs it here when
  // it is synchronous and nothing is queued: operations still run one at a time, in call order.
  std::shared_ptr<Task> Enqueue(const char* name, std::function<void(uint32_t)> run, bool sync_op);
  void Loop();
  void Execute(Work* work);
  // The bytes this rank sends `peer` after its descriptor in an exchange.
  struct Payload {
    const void* data = nullptr;
    size_t bytes = 0;
  };
  // Every rank's descriptor of its tensor (the collective, dtype, shape, root, reduce op), sent
  // to every peer and compared; raises naming the rank that differs. `payload_for(peer)` travels
  // with it: a small all-reduce's whole data (in the descriptor's message), or a medium one's
  // first step (in a message of its own, straight from the tensor). What rank r sent this rank is
  // then ReceivedPayload(r).
  void ExchangeDescriptors(const char* name, const DenseTensor& tensor, int root, ReduceOp op,
                           const std::function<Payload(int peer)>& payload_for = nullptr);
  void CheckSameTensor(const char* name, const DenseTensor& tensor, int root) {
    if (options_.check_tensors && options_.size > 1) ExchangeDescriptors(name, tensor, root, {});
  }
  // The most payload bytes a small all-reduce sends each peer: every rank receives at most
  // kInlineBytes from all peers together.
  size_t InlineLimit() const;
  // An outgoing message: the descriptor and at most InlineLimit() bytes.
  size_t OutgoingStride() const;
  // Where a peer's messages land: the descriptor and at most the larger of InlineLimit() and a
  // medium all-reduce's chunk.
  size_t IncomingStride() const;
  const uint8_t* ReceivedPayload(int rank) const;
  // The copy of this rank's inline payload in its outgoing message to `peer`.
  const uint8_t* SentPayload(int peer) const;
  // The all-reduces that carry their data in the exchange: the small one in one step, the medium
  // one as a reduce-scatter in the exchange, then an all-gather.
  void InlineAllReduce(DenseTensor* t, ReduceOp op);
  void DirectAllReduce(DenseTensor* t, ReduceOp op);
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
  // ExchangeDescriptors' messages go through buffers registered with Gloo once per group, one
  // pair per peer, so that a message lands without the peer posting a receive for it: per peer,
  // one outgoing stride and two incoming ones, used by turns (a peer may write the next exchange's
  // message before this rank has read the last one, never the one after).
  std::unique_ptr<uint8_t[]> exchange_out_, exchange_in_;
  std::vector<std::unique_ptr<gloo::transport::Buffer>> exchange_out_buffers_;
  std::vector<std::unique_ptr<gloo::transport::Buffer>> exchange_in_buffers_;
  int exchange_turn_ = 0;     // the incoming stride the last exchange used
  uint64_t all_gathers_ = 0;  // direct all-reduces run: picks their buffers' slot
  std::thread thread_;
};

}  // namespace paddle::distributed
