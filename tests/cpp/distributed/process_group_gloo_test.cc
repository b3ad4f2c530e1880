// Two ranks of a ProcessGroupGloo as two threads of this process.
#include "paddle/distributed/process_group_gloo.h"

#include <gtest/gtest.h>

#include <thread>

#include "paddle/common/errors.h"

namespace paddle::distributed {
namespace {

using std::chrono::milliseconds;

Tensor Filled(std::vector<float> values) {
  auto t = std::make_shared<DenseTensor>(
      TensorMeta{DDim({static_cast<int64_t>(values.size())}), DataType::FLOAT32, DataLayout::NCHW});
  float* p = static_cast<float*>(t->AllocateStorage(CPUPlace()));
  std::copy(values.begin(), values.end(), p);
  return Tensor(std::move(t));
}

std::vector<float> Values(const Tensor& t) {
  const float* p = t.dense().data<float>();
  return std::vector<float>(p, p + t.numel());
}

std::shared_ptr<ProcessGroupGloo> Group(std::shared_ptr<TCPStore> store, int rank, int size,
                                        milliseconds timeout) {
  GroupOptions options;
  options.rank = rank;
  options.size = size;
  options.timeout = timeout;
  return std::make_shared<ProcessGroupGloo>(store, CreateGlooDevice("", "127.0.0.1"), options);
}

TEST(ProcessGroupGloo, AllReduceAndMismatchBetweenTwoRanks) {
  auto master = std::make_shared<TCPStore>("127.0.0.1", 0, true, 0, milliseconds(10000));
  auto client =
      std::make_shared<TCPStore>("127.0.0.1", master->port(), false, 1, milliseconds(10000));
  std::vector<float> sums[2];
  std::string mismatch[2];
  auto run = [&](int rank, std::shared_ptr<TCPStore> store) {
    auto group = Group(store, rank, 2, milliseconds(10000));
    Tensor t = Filled({1.0f + rank, 10.0f * rank});
    group->AllReduce(t, ReduceOp::SUM, true);
    sums[rank] = Values(t);
    try {
      group->AllReduce(Filled(std::vector<float>(3 + rank, 1.0f)), ReduceOp::SUM, true);
    } catch (const Error& e) {
      mismatch[rank] = e.what();
    }
  };
  std::thread other(run, 1, client);
  run(0, master);
  other.join();
  EXPECT_EQ(sums[0], (std::vector<float>{3.0f, 10.0f}));
  EXPECT_EQ(sums[1], sums[0]);
  EXPECT_NE(mismatch[0].find("rank 1 passed float32[4]"), std::string::npos) << mismatch[0];
  EXPECT_NE(mismatch[1].find("rank 0 passed float32[3]"), std::string::npos) << mismatch[1];
}

TEST(ProcessGroupGloo, RankThatNeverJoinsIsNamed) {
  auto master = std::make_shared<TCPStore>("127.0.0.1", 0, true, 0, milliseconds(10000));
  try {
    Group(master, 0, 3, milliseconds(300));
    FAIL() << "the group formed without ranks 1 and 2";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank(s) 1, 2 did not join"), std::string::npos)
        << e.what();
  }
}

TEST(ProcessGroupGloo, RankOutOfRangeIsRefused) {
  auto master = std::make_shared<TCPStore>("127.0.0.1", 0, true, 0, milliseconds(1000));
  try {
    Group(master, 2, 2, milliseconds(300));
    FAIL() << "rank 2 of 2 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfRange);
    EXPECT_NE(std::string(e.what()).find("received 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace paddle::distributed
