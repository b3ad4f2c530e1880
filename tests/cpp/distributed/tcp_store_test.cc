#include "paddle/distributed/tcp_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "paddle/common/errors.h"

namespace paddle::distributed {
namespace {

using std::chrono::milliseconds;

TEST(TCPStore, SetGetAddAcrossClients) {
  TCPStore master("127.0.0.1", 0, true, 0, milliseconds(5000));
  TCPStore client("127.0.0.1", master.port(), false, 1, milliseconds(5000));
  std::thread setter([&] {
    std::this_thread::sleep_for(milliseconds(50));
    master.Set("key", {1, 2, 3});
  });
  EXPECT_EQ(client.Get("key"), (std::vector<uint8_t>{1, 2, 3}));  // waits for the set
  setter.join();
  EXPECT_EQ(master.Add("counter", 2), 2);
  EXPECT_EQ(client.Add("counter", 3), 5);
  EXPECT_TRUE(client.Check("counter"));
  EXPECT_FALSE(client.Check("absent"));
  EXPECT_TRUE(master.DeadRanks().empty());
}

TEST(TCPStore, WaitTimesOutNamingTheMissingKeys) {
  TCPStore master("127.0.0.1", 0, true, 0, milliseconds(5000));
  master.Set("present", {0});
  auto start = std::chrono::steady_clock::now();
  try {
    master.Wait({"present", "missing"}, milliseconds(200));
    FAIL() << "Wait did not time out";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'missing'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("'present'"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST(TCPStore, UnreachableMasterIsNamed) {
  int port;
  {
    TCPStore probe("127.0.0.1", 0, true, 0, milliseconds(1000));
    port = probe.port();
  }  // nobody listens there any more
  try {
    TCPStore client("127.0.0.1", port, false, 1, milliseconds(300));
    FAIL() << "connected to a closed port";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(port)), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("rank 1"), std::string::npos) << e.what();
  }
}

TEST(TCPStore, UnresolvableMasterIsAnInvalidArgument) {
  try {
    TCPStore client("no-such-host.invalid", 1234, false, 1, milliseconds(300));
    FAIL() << "resolved an invalid host";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("'no-such-host.invalid'"), std::string::npos);
  }
}

}  // namespace
}  // namespace paddle::distributed
