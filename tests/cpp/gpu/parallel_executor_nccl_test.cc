// The ParallelExecutor on two GPU places: gradients summed with NCCL (all-reduce, and the
// Reduce strategy's reduce and broadcast) give every place the same values as the in-process
// sum of the CPU places. Every test skips unless two GPUs are visible.
#include <gtest/gtest.h>

#include <vector>

#include "paddle/core/device_context.h"
#include "paddle/framework/parallel_executor.h"
#include "tests/cpp/framework/scale_program_test_util.h"

namespace paddle::framework {
namespace {

#define PD_SKIP_WITHOUT_TWO_GPUS() \
  if (::paddle::GetGPUDeviceCount() < 2) GTEST_SKIP() << "needs 2 GPUs"

using ParallelExecutorNCCLTest = testing::ScaleProgramTest;

TEST_F(ParallelExecutorNCCLTest, EveryGPUPlaceGetsTheSumOfTheGradients) {
  PD_SKIP_WITHOUT_TWO_GPUS();
  BuildGradientProgram();
  std::vector<Place> places{GPUPlace(0), GPUPlace(1)};
  auto scopes = std::make_shared<PlaceScopes>(&scope_, places);
  ParallelExecutorOptions options;
  options.skip_vars = {"x", "w_out", "v_out"};
  options.graph.gradients = {"w@GRAD", "v@GRAD"};  // one fused bucket
  ParallelExecutor executor(program_, scopes, options);
  ASSERT_EQ(executor.graph().buckets().size(), 1u);
  for (int step = 0; step < 2; ++step) {
    Feed(executor.ExecScope(0), "x", {1, 10, 100}, places[0]);
    Feed(executor.ExecScope(1), "x", {2, 20, 200}, places[1]);
    auto fetched = executor.Run({"w_out", "v_out"});
    for (size_t p = 0; p < 2; ++p) {
      EXPECT_EQ(fetched[0][p].place(), places[p]);
      EXPECT_EQ(Values(fetched[0][p]), (std::vector<float>{6, 60, 600}));
      EXPECT_EQ(Values(fetched[1][p]), (std::vector<float>{9, 90, 900}));
    }
  }
}

TEST_F(ParallelExecutorNCCLTest, ReduceSumsOntoTheOwnerAndBroadcastsTheParameter) {
  PD_SKIP_WITHOUT_TWO_GPUS();
  for (const char* name : {"x", "w@GRAD", "v@GRAD"}) Declare(name);
  Declare("w", true);
  Declare("v", true);
  Scale("x", "w@GRAD", 2.0f, OpRole::kBackward);
  Scale("x", "v@GRAD", 3.0f, OpRole::kBackward);
  Scale("w@GRAD", "w", 1.0f, OpRole::kOptimize);
  Scale("v@GRAD", "v", 1.0f, OpRole::kOptimize);
  std::vector<Place> places{GPUPlace(0), GPUPlace(1)};
  auto scopes = std::make_shared<PlaceScopes>(&scope_, places);
  ParallelExecutorOptions options;
  options.skip_vars = {"x"};
  options.graph.gradients = {"w@GRAD", "v@GRAD"};
  options.graph.reduce_to_owner = true;
  ParallelExecutor executor(program_, scopes, options);
  ASSERT_EQ(executor.graph().broadcasts().size(), 2u);
  Feed(executor.ExecScope(0), "x", {1, 2, 3}, places[0]);
  Feed(executor.ExecScope(1), "x", {10, 20, 30}, places[1]);
  executor.Run({});
  for (size_t p = 0; p < 2; ++p) {
    EXPECT_EQ(Values(*executor.ExecScope(p)->FindVar("w")->tensor()),
              (std::vector<float>{22, 44, 66}));
    EXPECT_EQ(Values(*executor.ExecScope(p)->FindVar("v")->tensor()),
              (std::vector<float>{33, 66, 99}));
  }
}

}  // namespace
}  // namespace paddle::framework
