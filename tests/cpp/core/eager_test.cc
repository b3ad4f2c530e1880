// The eager path end to end from C++: dispatch, broadcasting, autograd through the backward
// rules, and in-place version checks.
#include <gtest/gtest.h>

#include <cmath>

#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/backward.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/multiply.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/api/tanh.h"
#include "paddle/ops/op_schema_table.h"

namespace paddle {

namespace {

class EagerTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }

  static Tensor Make(std::vector<int64_t> shape, std::vector<float> values, bool requires_grad) {
    Tensor t = ops::full(shape, 0.0, DataType::FLOAT32);
    float* data = t.dense().data<float>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
    imperative::EnsureAutogradMeta(&t).stop_gradient = !requires_grad;
    return t;
  }

  static std::vector<float> Values(const Tensor& t) {
    const float* data = t.dense().data<float>();
    return {data, data + t.numel()};
  }
};

}  // namespace

TEST_F(EagerTest, BroadcastAddAndItsGradient) {
  Tensor x = Make({2, 3}, {1, 2, 3, 4, 5, 6}, true);
  Tensor y = Make({3}, {10, 20, 30}, true);
  Tensor out = ops::add(x, y);
  EXPECT_EQ(Values(out), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  imperative::Backward({ops::sum(out)}, {}, false);
  const Tensor& gx = imperative::GetAutogradMeta(x)->grad;
  const Tensor& gy = imperative::GetAutogradMeta(y)->grad;
  EXPECT_EQ(Values(gx), (std::vector<float>(6, 1.0f)));
  EXPECT_EQ(gy.dims(), DDim({3}));  // summed back over the broadcast dim
  EXPECT_EQ(Values(gy), (std::vector<float>{2, 2, 2}));
}

TEST_F(EagerTest, PromotionCastsAndRecordsTheCast) {
  Tensor x = Make({2}, {1, 2}, true);
  Tensor y = ops::full({2}, 3.0, DataType::FLOAT64);
  Tensor out = ops::multiply(x, y);
  EXPECT_EQ(out.dtype(), DataType::FLOAT64);
  imperative::Backward({ops::sum(out)}, {}, false);
  const Tensor& gx = imperative::GetAutogradMeta(x)->grad;
  EXPECT_EQ(gx.dtype(), DataType::FLOAT32);
  EXPECT_EQ(Values(gx), (std::vector<float>{3, 3}));
}

TEST_F(EagerTest, BadShapesRaiseNamingTheOp) {
  Tensor x = Make({2, 3}, {}, false);
  Tensor y = Make({4}, {}, false);
  try {
    ops::add(x, y);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    std::string message = e.what();
    EXPECT_EQ(message.rfind("add:", 0), 0u) << message;
    EXPECT_NE(message.find("[2, 3]"), std::string::npos);
    EXPECT_NE(message.find("[4]"), std::string::npos);
  }
}

TEST_F(EagerTest, ModifyingASavedTensorInPlaceIsCaught) {
  Tensor x = Make({2}, {1, 2}, true);
  Tensor y = ops::scale(x, 1.0);  // non-leaf copy of x
  Tensor out = ops::multiply(y, y);
  ops::OpCall call{{{y}}, {Attribute(Scalar(2.0)), Attribute(Scalar(0.0)), Attribute(true)}};
  imperative::EagerDispatchInplace(ops::GetOp("scale"), &call);
  try {
    imperative::Backward({ops::sum(out)}, {}, false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kPreconditionNotMet);
    EXPECT_NE(std::string(e.what()).find("inplace"), std::string::npos);
  }
}

TEST_F(EagerTest, InplaceWritesEveryDeclaredPair) {
  // momentum declares (param -> param_out), (velocity -> velocity_out) and
  // (master_param -> master_param_out); master_param is an absent optional input.
  Tensor param = Make({2}, {1, 2}, false);
  Tensor grad = Make({2}, {1, -1}, false);
  Tensor velocity = Make({2}, {0.5, 0.5}, false);
  Tensor lr = Make({1}, {0.1f}, false);
  uint32_t param_version = param.dense().inplace_version();
  uint32_t velocity_version = velocity.dense().inplace_version();
  uint32_t grad_version = grad.dense().inplace_version();
  ops::OpCall call{{{param}, {grad}, {velocity}, {lr}, {}},
                   {Attribute(0.9), Attribute(false), Attribute(std::string()), Attribute(0.0),
                    Attribute(false), Attribute(1.0)}};
  ops::OpResult result = imperative::EagerDispatchInplace(ops::GetOp("momentum"), &call);
  ASSERT_EQ(result.size(), 3u);
  EXPECT_EQ(result[0][0].impl(), param.impl());
  EXPECT_EQ(result[1][0].impl(), velocity.impl());
  EXPECT_FALSE(result[2][0].defined());
  EXPECT_EQ(param.dense().inplace_version(), param_version + 1);
  EXPECT_EQ(velocity.dense().inplace_version(), velocity_version + 1);
  EXPECT_EQ(grad.dense().inplace_version(), grad_version);
  // v = 0.9 v + g; p -= 0.1 v
  std::vector<float> v = Values(velocity), p = Values(param);
  EXPECT_NEAR(v[0], 1.45f, 1e-6);
  EXPECT_NEAR(v[1], -0.55f, 1e-6);
  EXPECT_NEAR(p[0], 1 - 0.145f, 1e-6);
  EXPECT_NEAR(p[1], 2 + 0.055f, 1e-6);
}

TEST_F(EagerTest, InplaceChecksEveryPairBeforeWriting) {
  // A velocity of the wrong shape fails in InferMeta, before the param is touched.
  Tensor param = Make({2}, {1, 2}, false);
  Tensor velocity = Make({3}, {0, 0, 0}, false);
  Tensor lr = Make({1}, {0.1f}, false);
  ops::OpCall call{{{param}, {param}, {velocity}, {lr}, {}},
                   {Attribute(0.9), Attribute(false), Attribute(std::string()), Attribute(0.0),
                    Attribute(false), Attribute(1.0)}};
  try {
    imperative::EagerDispatchInplace(ops::GetOp("momentum"), &call);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("velocity"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Values(param), (std::vector<float>{1, 2}));
  EXPECT_EQ(param.dense().inplace_version(), 0u);
}

TEST_F(EagerTest, SecondOrderThroughTanh) {
  Tensor x = Make({1}, {0.5f}, true);
  Tensor y = ops::tanh(x);
  std::vector<Tensor> dy = imperative::Grad({y}, {x}, {}, true, true, false, {});
  std::vector<Tensor> d2y = imperative::Grad({dy[0]}, {x}, {}, false, false, false, {});
  float t = std::tanh(0.5f);
  EXPECT_NEAR(Values(dy[0])[0], 1 - t * t, 1e-6);
  EXPECT_NEAR(Values(d2y[0])[0], -2 * t * (1 - t * t), 1e-6);
}

}  // namespace paddle

namespace paddle {

// A caller may leave outputs of a multi-output op uncomputed: the kernel gets a null output and
// the result an undefined tensor, while the other outputs are the full call's.
TEST_F(EagerTest, SkippedOutputsAreLeftUncomputed) {
  Tensor x = Make({1, 2, 3, 3}, std::vector<float>(18, 0.5f), false);
  Tensor w = Make({2, 2, 1, 1}, {1.0f, 2.0f, 3.0f, 4.0f}, false);
  Tensor dy = Make({1, 2, 3, 3}, std::vector<float>(18, 1.0f), false);
  auto call = [&](bool skip_input_grad) {
    ops::OpCallBuilder builder(ops::GetOp("conv2d_grad"));
    builder.Input(x).Input(w).Input(dy);
    builder.Attr(std::vector<int32_t>{1, 1}).Attr(std::vector<int32_t>{0, 0});
    builder.Attr(std::string("EXPLICIT")).Attr(std::vector<int32_t>{1, 1}).Attr(int32_t{1});
    builder.Attr(std::string("NCHW"));
    if (skip_input_grad) builder.SkipOutput(0);
    builder.Run();
    return std::make_pair(builder.Output(0), builder.Output(1));
  };
  auto [full_dx, full_dw] = call(false);
  auto [dx, dw] = call(true);
  EXPECT_TRUE(full_dx.defined());
  EXPECT_FALSE(dx.defined());
  // d/dw of sum(dy * conv(x, w)) for 1x1 kernels: the sum of x over the 9 pixels, 4.5.
  EXPECT_EQ(Values(dw), std::vector<float>(4, 4.5f));
  EXPECT_EQ(Values(dw), Values(full_dw));
}

}  // namespace paddle
