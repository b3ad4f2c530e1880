// TCPStore: the rendezvous key-value store of a process group, as PaddlePaddle's TCPStore. The
// master (rank 0) serves it from a background thread; every rank, the master included, is a
// client that sets, gets, adds and waits for keys. Gloo's rendezvous (its pair addresses) and
// NCCL's unique id travel through it; tensors never do.
//
// The server also keeps the liveness record the fault handling reports: a client says which rank
// it is when it connects and says goodbye when it shuts down, so a connection that closes
// without goodbye marks its rank as exited (DeadRanks()).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace paddle::distributed {

class TCPStoreServer;

class TCPStore {
 public:
  // `is_master`: this process listens on `port` (0 picks a free one, see port()) and serves the
  // store. Every process then connects to host:port, retrying until `timeout` passes; `rank`
  // names it in the liveness record and in errors.
  TCPStore(std::string host, int port, bool is_master, int rank, std::chrono::milliseconds timeout);
  ~TCPStore();
  TCPStore(const TCPStore&) = delete;
  TCPStore& operator=(const TCPStore&) = delete;

  void Set(const std::string& key, const std::vector<uint8_t>& value);
  // Waits for the key up to the store's timeout.
  std::vector<uint8_t> Get(const std::string& key);
  // Adds `delta` to the integer stored under `key` (0 when absent) and returns the sum.
  int64_t Add(const std::string& key, int64_t delta);
  bool Check(const std::string& key);
  // Waits until every key exists; on timeout the error lists the missing keys.
  void Wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout);
  // The keys of `keys` that do not exist yet.
  std::vector<std::string> Missing(const std::vector<std::string>& keys);
  // Ranks whose connection to the master closed without a goodbye (they exited or were killed).
  std::vector<int> DeadRanks();
  // Ranks whose connection closed without goodbye, asked once with a short timeout; when the
  // master itself is gone the answer is {-1}.
  std::vector<int> DeadRanksOrMasterGone();

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  int rank() const { return rank_; }
  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  std::vector<uint8_t> Request(uint8_t command, const std::string& key,
                               const std::vector<uint8_t>& value);
  void Connect();

  std::string host_;
  int port_;
  int rank_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<TCPStoreServer> server_;
  int fd_ = -1;
  std::mutex mutex_;  // one request at a time on the connection
};

}  // namespace paddle::distributed
