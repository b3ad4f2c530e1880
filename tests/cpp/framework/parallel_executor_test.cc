// The SSAGraph (dependencies between ops on several places, gradient buckets) and the
// ParallelExecutor on hand-built programs: gradients summed across places in place order, every
// place seeing the sum, errors of a kernel on a worker thread reaching the caller.
#include <gtest/gtest.h>

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/framework/parallel_executor.h"
#include "tests/cpp/framework/scale_program_test_util.h"

namespace paddle::framework {
namespace {

using ParallelExecutorTest = testing::ScaleProgramTest;

TEST_F(ParallelExecutorTest, SamePlaceOpsFollowTheirInputsAndPlacesAreIndependent) {
  Declare("x");
  Declare("a");
  Declare("b");
  Scale("x", "a", 2.0f, OpRole::kForward);
  Scale("a", "b", 2.0f, OpRole::kForward);
  SSAGraphOptions options;
  options.num_places = 2;
  SSAGraph graph(*program_.MainBlock(), options);
  const auto& nodes = graph.nodes();
  ASSERT_EQ(nodes.size(), 4u);  // (op 0, place 0), (op 0, place 1), (op 1, place 0), ...
  EXPECT_EQ(nodes[0].num_dependencies, 0);
  EXPECT_EQ(nodes[1].num_dependencies, 0);
  EXPECT_EQ(nodes[2].num_dependencies, 1);
  EXPECT_EQ(nodes[0].successors, std::vector<size_t>{2});
  EXPECT_EQ(nodes[1].successors, std::vector<size_t>{3});
}

TEST_F(ParallelExecutorTest, GradientsAreBucketedAndTheOptimizerWaitsForTheirBucket) {
  BuildGradientProgram();
  SSAGraphOptions options;
  options.num_places = 2;
  options.gradients = {"w@GRAD", "v@GRAD"};
  options.fuse_all_reduce = false;
  SSAGraph unfused(*program_.MainBlock(), options);
  ASSERT_EQ(unfused.buckets().size(), 2u);
  // w@GRAD's bucket follows op 0 on both places; the optimizer op reading it waits for it.
  const auto& nodes = unfused.nodes();
  auto reduce = std::find_if(nodes.begin(), nodes.end(),
                             [](const SSANode& n) { return n.kind == SSANode::Kind::kAllReduce; });
  ASSERT_NE(reduce, nodes.end());
  EXPECT_EQ(unfused.buckets()[reduce->bucket].gradients, std::vector<std::string>{"w@GRAD"});
  EXPECT_EQ(reduce->num_dependencies, 2);
  for (size_t next : reduce->successors) {
    EXPECT_EQ(nodes[next].kind, SSANode::Kind::kOp);
    EXPECT_EQ(nodes[next].op_index, 2u);
  }
  options.fuse_all_reduce = true;
  SSAGraph fused(*program_.MainBlock(), options);
  ASSERT_EQ(fused.buckets().size(), 1u);
  EXPECT_EQ(fused.buckets()[0].gradients, (std::vector<std::string>{"w@GRAD", "v@GRAD"}));
  EXPECT_EQ(fused.buckets()[0].bytes, 2 * 3 * sizeof(float));
  options.bucket_count = 2;
  options.gradients = {"w@GRAD", "v@GRAD", "w@GRAD"};
  EXPECT_EQ(SSAGraph(*program_.MainBlock(), options).buckets().size(), 2u);
}

TEST_F(ParallelExecutorTest, AGradientNobodyWritesIsAnError) {
  BuildGradientProgram();
  Declare("u@GRAD");
  SSAGraphOptions options;
  options.num_places = 2;
  options.gradients = {"u@GRAD"};
  try {
    SSAGraph graph(*program_.MainBlock(), options);
    FAIL() << "expected InvalidArgument";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("u@GRAD"), std::string::npos);
  }
}

TEST_F(ParallelExecutorTest, EveryPlaceGetsTheSumOfTheGradients) {
  BuildGradientProgram();
  auto scopes = std::make_shared<PlaceScopes>(
      &scope_, std::vector<Place>{CPUPlace(), CPUPlace(), CPUPlace()});
  ParallelExecutorOptions options;
  options.skip_vars = {"x", "w_out", "v_out"};
  options.num_threads = 3;
  options.graph.gradients = {"w@GRAD", "v@GRAD"};
  ParallelExecutor executor(program_, scopes, options);
  for (int step = 0; step < 3; ++step) {  // the same values on every run
    for (size_t p = 0; p < 3; ++p) {
      float base = static_cast<float>(p + 1);
      Feed(executor.ExecScope(p), "x", {base, 10 * base, 100 * base});
    }
    auto fetched = executor.Run({"w_out", "v_out"});
    ASSERT_EQ(fetched.size(), 2u);
    for (size_t p = 0; p < 3; ++p) {
      // x summed over places is {6, 60, 600}.
      EXPECT_EQ(Values(fetched[0][p]), (std::vector<float>{12, 120, 1200}));
      EXPECT_EQ(Values(fetched[1][p]), (std::vector<float>{18, 180, 1800}));
    }
  }
}

TEST_F(ParallelExecutorTest, AKernelErrorOnAWorkerReachesTheCaller) {
  BuildGradientProgram();
  auto scopes = std::make_shared<PlaceScopes>(&scope_, std::vector<Place>{CPUPlace(), CPUPlace()});
  ParallelExecutorOptions options;
  options.skip_vars = {"w_out"};
  options.graph.gradients = {"w@GRAD", "v@GRAD"};
  ParallelExecutor executor(program_, scopes, options);
  Feed(executor.ExecScope(0), "x", {1, 2, 3});  // place 1 is fed nothing
  EXPECT_THROW(executor.Run({"w_out"}), Error);
  Feed(executor.ExecScope(0), "x", {1, 2, 3});
  Feed(executor.ExecScope(1), "x", {1, 2, 3});
  auto fetched = executor.Run({"w_out"});
  EXPECT_EQ(Values(fetched[0][1]), (std::vector<float>{4, 8, 12}));
}

TEST_F(ParallelExecutorTest, ReduceUpdatesEachParameterOnItsOwnerAndBroadcastsIt) {
  for (const char* name : {"x", "w@GRAD", "v@GRAD"}) Declare(name);
  Declare("w", true);
  Declare("v", true);
  Scale("x", "w@GRAD", 2.0f, OpRole::kBackward);
  Scale("x", "v@GRAD", 3.0f, OpRole::kBackward);
  Scale("w@GRAD", "w", 1.0f, OpRole::kOptimize);
  Scale("v@GRAD", "v", 1.0f, OpRole::kOptimize);
  auto scopes = std::make_shared<PlaceScopes>(&scope_, std::vector<Place>{CPUPlace(), CPUPlace()});
  ParallelExecutorOptions options;
  options.skip_vars = {"x"};
  options.graph.gradients = {"w@GRAD", "v@GRAD"};
  options.graph.reduce_to_owner = true;
  ParallelExecutor executor(program_, scopes, options);
  const SSAGraph& graph = executor.graph();
  ASSERT_EQ(graph.buckets().size(), 2u);
  EXPECT_EQ(graph.buckets()[0].owner, 0);  // equal sizes: the places take turns
  EXPECT_EQ(graph.buckets()[1].owner, 1);
  ASSERT_EQ(graph.broadcasts().size(), 2u);
  size_t optimizer_nodes = std::count_if(
      graph.nodes().begin(), graph.nodes().end(),
      [](const SSANode& n) { return n.kind == SSANode::Kind::kOp && n.op_index >= 2; });
  EXPECT_EQ(optimizer_nodes, 2u);  // one place each
  Feed(executor.ExecScope(0), "x", {1, 2, 3});
  Feed(executor.ExecScope(1), "x", {10, 20, 30});
  executor.Run({});
  for (size_t p = 0; p < 2; ++p) {
    EXPECT_EQ(Values(*executor.ExecScope(p)->FindVar("w")->tensor()),
              (std::vector<float>{22, 44, 66}));
    EXPECT_EQ(Values(*executor.ExecScope(p)->FindVar("v")->tensor()),
              (std::vector<float>{33, 66, 99}));
  }
}

// Checked before any device is touched, so these run without a GPU.
TEST_F(ParallelExecutorTest, PlacesMixingCPUAndGPUOrNamingAGPUTwiceAreRefused) {
  BuildGradientProgram();
  const std::vector<std::pair<std::vector<Place>, std::string>> cases{
      {{CPUPlace(), GPUPlace(0)}, "mix CPU and GPU places"},
      {{GPUPlace(0), CPUPlace()}, "mix CPU and GPU places"},
      {{GPUPlace(0), GPUPlace(0)}, "Place(gpu:0) more than once"},
  };
  for (const auto& [places, message] : cases) {
    auto scopes = std::make_shared<PlaceScopes>(&scope_, places);
    try {
      ParallelExecutor executor(program_, scopes, ParallelExecutorOptions());
      FAIL() << "expected InvalidArgument: " << message;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace paddle::framework
