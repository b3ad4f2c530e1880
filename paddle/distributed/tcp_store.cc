#include "paddle/distributed/tcp_store.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "paddle/common/errors.h"

namespace paddle::distributed {

namespace {

// The request: [command u8][key length u32][key][value length u32][value]; the reply:
// [length u32][bytes].
enum Command : uint8_t {
  kSet = 1,
  kGet = 2,  // reply: [found u8][value]
  kAdd = 3,  // value and reply: int64
  kCheck = 4,
  kHello = 5,  // key: the client's rank
  kGoodbye = 6,
  kDeadRanks = 7,  // reply: int32 per rank
};

std::string Seconds(std::chrono::milliseconds t) {
  std::ostringstream os;
  os << static_cast<double>(t.count()) / 1000.0 << " s";
  return os.str();
}

bool WriteAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool ReadAll(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    ssize_t n = ::recv(fd, p, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void AppendU32(std::vector<uint8_t>* out, uint32_t v) {
  const auto* b = reinterpret_cast<const uint8_t*>(&v);
  out->insert(out->end(), b, b + 4);
}

}  // namespace

// One thread polls the listening socket and every client; requests are answered in arrival order.
class TCPStoreServer {
 public:
  explicit TCPStoreServer(int port) {
    listen_fd_ = ::socket(AF_INET6, SOCK_STREAM, 0);
    bool ipv6 = listen_fd_ >= 0;
    if (!ipv6) listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    PD_CHECK(listen_fd_ >= 0,
             errors::PreconditionNotMet("TCPStore: socket() failed: ", std::strerror(errno)));
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    int rc;
    if (ipv6) {
      int zero = 0;  // accept IPv4 clients too
      ::setsockopt(listen_fd_, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
      sockaddr_in6 addr{};
      addr.sin6_family = AF_INET6;
      addr.sin6_addr = in6addr_any;
      addr.sin6_port = htons(static_cast<uint16_t>(port));
      rc = ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    } else {
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_ANY);
      addr.sin_port = htons(static_cast<uint16_t>(port));
      rc = ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    }
    if (rc != 0 || ::listen(listen_fd_, 1024) != 0) {
      std::string reason = std::strerror(errno);
      ::close(listen_fd_);
      PD_THROW(errors::PreconditionNotMet("TCPStore: the master cannot listen on port ", port, ": ",
                                          reason));
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof(bound);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    PD_CHECK(::pipe(wake_) == 0, errors::PreconditionNotMet("TCPStore: pipe() failed"));
    thread_ = std::thread([this] { Serve(); });
  }

  ~TCPStoreServer() {
    char byte = 0;
    (void)!::write(wake_[1], &byte, 1);
    thread_.join();
    for (auto& [fd, client] : clients_) ::close(fd);
    ::close(listen_fd_);
    ::close(wake_[0]);
    ::close(wake_[1]);
  }

  int port() const { return port_; }

 private:
  struct Client {
    std::vector<uint8_t> pending;  // bytes of requests not yet complete
    int rank = -1;
    bool said_goodbye = false;
  };

  void Serve() {
    while (true) {
      std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
      for (auto& [fd, client] : clients_) fds.push_back({fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents) return;
      if (fds[1].revents & POLLIN) {
        int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd >= 0) {
          int one = 1;
          ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
          clients_[fd] = Client{};
        }
      }
      for (size_t i = 2; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        int fd = fds[i].fd;
        uint8_t buffer[65536];
        ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
        if (n <= 0) {
          Drop(fd);
          continue;
        }
        Client& client = clients_[fd];
        client.pending.insert(client.pending.end(), buffer, buffer + n);
        if (!HandleRequests(fd, &client)) Drop(fd);
      }
    }
  }

  void Drop(int fd) {
    const Client& client = clients_[fd];
    if (client.rank >= 0 && !client.said_goodbye) dead_ranks_.insert(client.rank);
    ::close(fd);
    clients_.erase(fd);
  }

  // Answers every complete request in the client's buffer; false when the client must be dropped.
  bool HandleRequests(int fd, Client* client) {
    std::vector<uint8_t>& in = client->pending;
    size_t pos = 0;
    while (true) {
      if (in.size() - pos < 5) break;
      uint32_t key_len;
      std::memcpy(&key_len, &in[pos + 1], 4);
      if (in.size() - pos < 5 + key_len + 4) break;
      uint32_t value_len;
      std::memcpy(&value_len, &in[pos + 5 + key_len], 4);
      size_t total = 5 + key_len + 4 + value_len;
      if (in.size() - pos < total) break;
      uint8_t command = in[pos];
      std::string key(reinterpret_cast<const char*>(&in[pos + 5]), key_len);
      std::vector<uint8_t> value(in.begin() + pos + 9 + key_len, in.begin() + pos + total);
      pos += total;
      std::vector<uint8_t> reply = Answer(command, key, std::move(value), client);
      std::vector<uint8_t> framed;
      AppendU32(&framed, static_cast<uint32_t>(reply.size()));
      framed.insert(framed.end(), reply.begin(), reply.end());
      if (!WriteAll(fd, framed.data(), framed.size())) return false;
    }
    in.erase(in.begin(), in.begin() + pos);
    return true;
  }

  std::vector<uint8_t> Answer(uint8_t command, const std::string& key, std::vector<uint8_t> value,
                              Client* client) {
    switch (command) {
      case kSet:
        data_[key] = std::move(value);
        return {};
      case kGet: {
        auto it = data_.find(key);
        if (it == data_.end()) return {0};
        std::vector<uint8_t> reply{1};
        reply.insert(reply.end(), it->second.begin(), it->second.end());
        return reply;
      }
      case kAdd: {
        int64_t delta = 0, sum = 0;
        if (value.size() == 8) std::memcpy(&delta, value.data(), 8);
        std::vector<uint8_t>& stored = data_[key];
        if (stored.size() == 8) std::memcpy(&sum, stored.data(), 8);
        sum += delta;
        stored.assign(8, 0);
        std::memcpy(stored.data(), &sum, 8);
        return stored;
      }
      case kCheck:
        return {static_cast<uint8_t>(data_.count(key) ? 1 : 0)};
      case kHello:
        client->rank = std::stoi(key);
        dead_ranks_.erase(client->rank);  // a rank that reconnects (a new group) is alive again
        return {};
      case kGoodbye:
        client->said_goodbye = true;
        return {};
      case kDeadRanks: {
        std::vector<uint8_t> reply;
        for (int rank : dead_ranks_) AppendU32(&reply, static_cast<uint32_t>(rank));
        return reply;
      }
      default:
        return {};
    }
  }

  int listen_fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};
  std::map<int, Client> clients_;
  std::map<std::string, std::vector<uint8_t>> data_;
  std::set<int> dead_ranks_;
  std::thread thread_;
};

TCPStore::TCPStore(std::string host, int port, bool is_master, int rank,
                   std::chrono::milliseconds timeout)
    : host_(std::move(host)), port_(port), rank_(rank), timeout_(timeout) {
  PD_CHECK(
      port >= 0 && port < 65536,
      errors::InvalidArgument("TCPStore: the master port must be in [0, 65535], received ", port));
  if (is_master) {
    server_ = std::make_unique<TCPStoreServer>(port);
    port_ = server_->port();
  } else {
    PD_CHECK(port > 0, errors::InvalidArgument("TCPStore: rank ", rank,
                                               " needs the master's port, received 0"));
  }
  Connect();
  Request(kHello, std::to_string(rank_), {});
}

TCPStore::~TCPStore() {
  if (fd_ >= 0) {
    try {
      Request(kGoodbye, "", {});
    } catch (const std::exception&) {
      // The master is gone already; nothing to tell it.
    }
    ::close(fd_);
  }
}

void TCPStore::Connect() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::string port = std::to_string(port_);
  int rc = ::getaddrinfo(host_.c_str(), port.c_str(), &hints, &found);
  PD_CHECK(rc == 0,
           errors::InvalidArgument("TCPStore: rank ", rank_, " cannot resolve the master address '",
                                   host_, "': ", gai_strerror(rc)));
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::string last_error;
  while (true) {
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        // A master that stops answering makes a request fail instead of blocking forever.
        timeval tv{};
        tv.tv_sec = static_cast<time_t>(timeout_.count() / 1000);
        tv.tv_usec = static_cast<suseconds_t>((timeout_.count() % 1000) * 1000);
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        fd_ = fd;
        ::freeaddrinfo(found);
        return;
      }
      last_error = std::strerror(errno);
      ::close(fd);
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::freeaddrinfo(found);
  PD_THROW(errors::PreconditionNotMet("TCPStore: rank ", rank_,
                                      " could not connect to the store master (rank 0) at ", host_,
                                      ":", port_, " within ", Seconds(timeout_), " (", last_error,
                                      "); check PADDLE_MASTER / the master's address "
                                      "and that rank 0 is running"));
}

std::vector<uint8_t> TCPStore::Request(uint8_t command, const std::string& key,
                                       const std::vector<uint8_t>& value) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<uint8_t> message{command};
  AppendU32(&message, static_cast<uint32_t>(key.size()));
  message.insert(message.end(), key.begin(), key.end());
  AppendU32(&message, static_cast<uint32_t>(value.size()));
  message.insert(message.end(), value.begin(), value.end());
  uint32_t length = 0;
  std::vector<uint8_t> reply;
  bool ok = fd_ >= 0 && WriteAll(fd_, message.data(), message.size()) && ReadAll(fd_, &length, 4);
  if (ok) {
    reply.resize(length);
    ok = ReadAll(fd_, reply.data(), length);
  }
  PD_CHECK(ok, errors::PreconditionNotMet("TCPStore: rank ", rank_,
                                          " lost the store master (rank 0) at ", host_, ":", port_,
                                          ": rank 0 exited or stopped answering"));
  return reply;
}

void TCPStore::Set(const std::string& key, const std::vector<uint8_t>& value) {
  Request(kSet, key, value);
}

std::vector<uint8_t> TCPStore::Get(const std::string& key) {
  Wait({key}, timeout_);
  std::vector<uint8_t> reply = Request(kGet, key, {});
  return std::vector<uint8_t>(reply.begin() + 1, reply.end());
}

int64_t TCPStore::Add(const std::string& key, int64_t delta) {
  std::vector<uint8_t> value(8);
  std::memcpy(value.data(), &delta, 8);
  std::vector<uint8_t> reply = Request(kAdd, key, value);
  int64_t sum;
  std::memcpy(&sum, reply.data(), 8);
  return sum;
}

bool TCPStore::Check(const std::string& key) { return Request(kCheck, key, {}).at(0) == 1; }

std::vector<std::string> TCPStore::Missing(const std::vector<std::string>& keys) {
  std::vector<std::string> missing;
  for (const std::string& key : keys) {
    if (!Check(key)) missing.push_back(key);
  }
  return missing;
}

void TCPStore::Wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(200);
  std::vector<std::string> missing = keys;
  while (true) {
    missing = Missing(missing);
    if (missing.empty()) return;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
  }
  std::string names;
  for (const std::string& key : missing) names += (names.empty() ? "'" : ", '") + key + "'";
  PD_THROW(errors::PreconditionNotMet("TCPStore: rank ", rank_, " waited ", Seconds(timeout),
                                      " for keys ", names, " that never appeared"));
}

std::vector<int> TCPStore::DeadRanks() {
  std::vector<uint8_t> reply = Request(kDeadRanks, "", {});
  std::vector<int> ranks(reply.size() / 4);
  for (size_t i = 0; i < ranks.size(); ++i) {
    uint32_t r;
    std::memcpy(&r, &reply[i * 4], 4);
    ranks[i] = static_cast<int>(r);
  }
  return ranks;
}

std::vector<int> TCPStore::DeadRanksOrMasterGone() {
  try {
    return DeadRanks();
  } catch (const Error&) {
    return {-1};
  }
}

}  // namespace paddle::distributed
