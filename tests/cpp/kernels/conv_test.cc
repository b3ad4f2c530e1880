// The convolution routines: the oneDNN path (float) against the im2col path on the same
// geometries, forward, backward-data and backward-filter, over strides, dilations, asymmetric
// padding, groups, both data formats, 1 to 3 spatial dims, transposed geometries with an
// enlarged output, and zero-size batches; the fused forward's post-ops (bias, residual,
// activation) against im2col + ApplyConvEpilogue; filters kept reordered for ConstantWeights; the
// bfloat16 routines against float on the same operands; and the geometry's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/common/float16.h"
#include "paddle/kernels/funcs/constant_weights.h"
#include "paddle/kernels/funcs/conv_compute.h"
#include "paddle/kernels/funcs/conv_geometry.h"
#include "paddle/kernels/funcs/conv_onednn.h"

namespace paddle::funcs {

namespace {

struct Case {
  std::vector<int64_t> input;  // as laid out
  std::vector<int64_t> filter;
  std::vector<int> strides, paddings, dilations;
  int groups;
  std::string data_format;
  bool transposed = false;
  std::vector<int> output_size = {};
};

std::vector<float> Random(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

int64_t Numel(const DDim& d) { return d.numel(); }

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], 1e-4f * (1.0f + std::abs(b[i]))) << what << " at " << i;
  }
}

ConvGeometry Geometry(const Case& c) {
  const int rank = static_cast<int>(c.input.size()) - 2;
  const std::string algorithm = "EXPLICIT";
  ConvAttrs attrs{c.strides, c.paddings, algorithm, c.dilations, c.groups, c.data_format};
  if (c.transposed) {
    return TransposedConvolutionGeometry("test", DDim(c.input), DDim(c.filter), rank, attrs, {},
                                         c.output_size);
  }
  return ConvolutionGeometry("test", DDim(c.input), DDim(c.filter), rank, attrs);
}

class ConvPathsTest : public ::testing::TestWithParam<Case> {};

// Both layouts of the oneDNN path (its own choice, and the user's layout that 1x1 kernels may
// be run in), and the dispatching routines, against im2col.
TEST_P(ConvPathsTest, OneDnnMatchesIm2col) {
  const ConvGeometry g = Geometry(GetParam());
  const int64_t x_size = Numel(g.InputDims()), y_size = Numel(g.OutputDims());
  const int64_t w_size = Numel(g.FilterDims());
  std::vector<float> x = Random(x_size, 1), w = Random(w_size, 2), dy = Random(y_size, 3);
  std::vector<float> y_ref(y_size), dx_ref(x_size), dw_ref(w_size);
  Im2colConvForward<float>(g, x.data(), w.data(), y_ref.data());
  Im2colConvBackwardData<float>(g, dy.data(), w.data(), dx_ref.data());
  Im2colConvBackwardFilter<float>(g, x.data(), dy.data(), dw_ref.data());

  std::vector<float> y(y_size), dx(x_size, 7.0f), dw(w_size, 7.0f);
  ConvForward<float>(g, x.data(), w.data(), y.data());
  ConvBackwardData<float>(g, dy.data(), w.data(), dx.data());
  ConvBackwardFilter<float>(g, x.data(), dy.data(), dw.data());
  ExpectNear(y, y_ref, "forward");
  ExpectNear(dx, dx_ref, "backward data");
  ExpectNear(dw, dw_ref, "backward filter");
  if (g.batch == 0) return;  // the oneDNN routines take no zero-size dims
  for (ConvLayout layout : {ConvLayout::kOneDnnChoice, ConvLayout::kUser}) {
    const std::string name = layout == ConvLayout::kUser ? " (user layout)" : " (oneDNN's)";
    std::fill(dx.begin(), dx.end(), 7.0f);
    std::fill(dw.begin(), dw.end(), 7.0f);
    OneDnnConvForward(g, layout, x.data(), w.data(), y.data());
    OneDnnConvBackwardData(g, layout, dy.data(), w.data(), dx.data());
    OneDnnConvBackwardFilter(g, layout, x.data(), dy.data(), dw.data());
    ExpectNear(y, y_ref, "forward" + name);
    ExpectNear(dx, dx_ref, "backward data" + name);
    ExpectNear(dw, dw_ref, "backward filter" + name);
  }
}

std::vector<bfloat16> ToBf16(const std::vector<float>& v) {
  return std::vector<bfloat16>(v.begin(), v.end());
}

std::vector<float> ToFloat(const std::vector<bfloat16>& v) {
  return std::vector<float>(v.begin(), v.end());
}

// bfloat16 against float on the same bf16-rounded operands: both accumulate in float32, so they
// differ by the rounding of each result to bf16 (a relative 2^-9), whichever path the CPU takes.
TEST_P(ConvPathsTest, Bfloat16MatchesFloatOnRoundedOperands) {
  const ConvGeometry g = Geometry(GetParam());
  const int64_t x_size = Numel(g.InputDims()), y_size = Numel(g.OutputDims());
  const int64_t w_size = Numel(g.FilterDims());
  std::vector<bfloat16> x = ToBf16(Random(x_size, 1)), w = ToBf16(Random(w_size, 2));
  std::vector<bfloat16> dy = ToBf16(Random(y_size, 3));
  std::vector<float> y_ref(y_size), dx_ref(x_size), dw_ref(w_size);
  ConvForward<float>(g, ToFloat(x).data(), ToFloat(w).data(), y_ref.data());
  ConvBackwardData<float>(g, ToFloat(dy).data(), ToFloat(w).data(), dx_ref.data());
  ConvBackwardFilter<float>(g, ToFloat(x).data(), ToFloat(dy).data(), dw_ref.data());

  std::vector<bfloat16> y(y_size), dx(x_size, bfloat16(7.0f)), dw(w_size, bfloat16(7.0f));
  ConvForward<bfloat16>(g, x.data(), w.data(), y.data());
  ConvBackwardData<bfloat16>(g, dy.data(), w.data(), dx.data());
  ConvBackwardFilter<bfloat16>(g, x.data(), dy.data(), dw.data());
  auto expect_rounded = [](const std::vector<bfloat16>& got, const std::vector<float>& want,
                           const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(static_cast<float>(got[i]), want[i], 1e-4f + 4e-3f * std::abs(want[i]))
          << what << " at " << i;
    }
  };
  expect_rounded(y, y_ref, "bf16 forward");
  expect_rounded(dx, dx_ref, "bf16 backward data");
  expect_rounded(dw, dw_ref, "bf16 backward filter");
}

INSTANTIATE_TEST_SUITE_P(
    Geometries, ConvPathsTest,
    ::testing::Values(
        Case{{2, 8, 9, 7}, {16, 8, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW"},
        Case{{2, 8, 9, 7}, {6, 4, 3, 2}, {2, 1}, {1, 0, 2, 1}, {1, 2}, 2, "NCHW"},
        Case{{2, 9, 7, 8}, {16, 8, 3, 3}, {2, 2}, {0, 1, 1, 0}, {1, 1}, 1, "NHWC"},
        Case{{1, 16, 6, 6}, {16, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 16, "NCHW"},
        Case{{2, 32, 5, 5}, {24, 32, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, "NCHW"},
        Case{{2, 4, 11}, {6, 2, 3}, {2}, {1}, {2}, 2, "NCL"},
        Case{{1, 4, 5, 6, 7}, {8, 4, 2, 3, 2}, {1, 2, 1}, {1, 0, 1}, {1, 1, 2}, 1, "NCDHW"},
        Case{{1, 5, 6, 7, 4}, {6, 2, 2, 2, 2}, {2, 1, 1}, {0, 1, 1}, {1, 1, 1}, 2, "NDHWC"},
        Case{{0, 4, 5, 5}, {4, 4, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, "NCHW"},
        Case{{2, 7, 5, 6}, {8, 3, 1, 1}, {2, 1}, {1, 0}, {1, 1}, 2, "NHWC"},
        // Transposed: x [N, C_x, ...], filter [C_x, C_out / groups, k...].
        Case{{2, 8, 4, 5}, {8, 3, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 1, "NCHW", true},
        Case{{1, 6, 3, 3}, {6, 2, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 3, "NCHW", true, {6, 6}},
        Case{{1, 3, 4, 6}, {6, 3, 2, 2}, {2, 1}, {0, 0}, {1, 2}, 1, "NHWC", true}));

TEST(ConvLayoutTest, OnlyOneByOneKernelsMayUseTheUserLayout) {
  const std::vector<int> strides{1, 1}, paddings{1, 1}, dilations{1, 1};
  const std::string algorithm = "EXPLICIT", format = "NCHW";
  ConvAttrs attrs{strides, paddings, algorithm, dilations, 1, format};
  ConvGeometry g =
      ConvolutionGeometry("conv2d", DDim({2, 16, 8, 8}), DDim({16, 16, 3, 3}), 2, attrs);
  EXPECT_EQ(ChooseConvLayout(g), ConvLayout::kOneDnnChoice);
  ConvGeometry one =
      ConvolutionGeometry("conv2d", DDim({2, 16, 8, 8}), DDim({16, 16, 1, 1}), 2, attrs);
  const ConvLayout first = ChooseConvLayout(one);
  EXPECT_EQ(ChooseConvLayout(one), first);  // timed once, then kept
}

ConvGeometry Forward2d(std::vector<int64_t> input, std::vector<int64_t> filter, int stride,
                       int padding, int groups, const std::string& format) {
  const std::vector<int> strides{stride, stride}, paddings{padding, padding}, dilations{1, 1};
  const std::string algorithm = "EXPLICIT";
  ConvAttrs attrs{strides, paddings, algorithm, dilations, groups, format};
  return ConvolutionGeometry("conv2d", DDim(input), DDim(filter), 2, attrs);
}

// oneDNN's bias and post-ops in both layouts, and the dispatching FusedConvForward, against the
// plain convolution followed by ApplyConvEpilogue, for each activation with and without a
// residual.
TEST(ConvEpilogueTest, PostOpsMatchTheConvolutionThenTheEpilogue) {
  const std::vector<ConvGeometry> geometries{
      Forward2d({2, 8, 9, 7}, {16, 8, 3, 3}, 1, 1, 1, "NCHW"),
      Forward2d({2, 9, 7, 8}, {6, 4, 3, 3}, 2, 1, 2, "NHWC"),
      Forward2d({1, 32, 5, 5}, {24, 32, 1, 1}, 1, 0, 1, "NCHW")};
  const std::vector<std::pair<ConvActivation, float>> activations{
      {ConvActivation::kIdentity, 0.0f}, {ConvActivation::kRelu, 0.0f},
      {ConvActivation::kRelu6, 0.0f},    {ConvActivation::kReluX, 0.3f},
      {ConvActivation::kSigmoid, 0.0f},  {ConvActivation::kTanh, 0.0f}};
  for (const ConvGeometry& g : geometries) {
    const int64_t y_size = Numel(g.OutputDims());
    // Scaled so that relu6 clips somewhere.
    std::vector<float> x = Random(Numel(g.InputDims()), 4), w = Random(Numel(g.FilterDims()), 5);
    for (float& v : w) v *= 4.0f;
    std::vector<float> bias = Random(g.out_channels, 6), residual = Random(y_size, 7);
    for (const auto& [activation, alpha] : activations) {
      for (bool with_residual : {false, true}) {
        ConvEpilogue<float> epilogue;
        epilogue.bias = bias.data();
        epilogue.residual = with_residual ? residual.data() : nullptr;
        epilogue.activation = activation;
        epilogue.alpha = alpha;
        std::vector<float> expected(y_size), got(y_size, 7.0f);
        Im2colConvForward<float>(g, x.data(), w.data(), expected.data());
        ApplyConvEpilogue(g, epilogue, expected.data());
        const std::string what = "activation " + std::to_string(static_cast<int>(activation)) +
                                 (with_residual ? " with residual" : "");
        FusedConvForward<float>(g, x.data(), w.data(), epilogue, got.data());
        ExpectNear(got, expected, what);
        for (ConvLayout layout : {ConvLayout::kOneDnnChoice, ConvLayout::kUser}) {
          std::fill(got.begin(), got.end(), 7.0f);
          OneDnnConvForward(g, layout, x.data(), w.data(), got.data(), &epilogue);
          ExpectNear(got, expected, what + (layout == ConvLayout::kUser ? " (user)" : ""));
        }
      }
    }
  }
}

// Two fused convolutions passing their tensors in oneDNN's blocked layout (the first writes its
// output blocked, the second reads it blocked as its input and as its residual) give what the
// NCHW path gives.
TEST(ConvEpilogueTest, BlockedOperandsBetweenConvolutionsMatchNchw) {
  const ConvGeometry first = Forward2d({2, 3, 6, 5}, {32, 3, 3, 3}, 1, 1, 1, "NCHW");
  const ConvGeometry second = Forward2d({2, 32, 6, 5}, {32, 32, 1, 1}, 1, 0, 1, "NCHW");
  std::vector<float> x = Random(Numel(first.InputDims()), 10);
  std::vector<float> w1 = Random(Numel(first.FilterDims()), 11);
  std::vector<float> w2 = Random(Numel(second.FilterDims()), 12);
  std::vector<float> b1 = Random(32, 13), b2 = Random(32, 14);
  const int64_t size = Numel(first.OutputDims());
  ConvEpilogue<float> relu{b1.data(), nullptr, ConvActivation::kRelu, 0.0f};
  std::vector<float> hidden(size), expected(size);
  FusedConvForward<float>(first, x.data(), w1.data(), relu, hidden.data());
  ConvEpilogue<float> residual{b2.data(), hidden.data(), ConvActivation::kTanh, 0.0f};
  FusedConvForward<float>(second, hidden.data(), w2.data(), residual, expected.data());

  std::vector<float> blocked_hidden(size), got(size);
  FusedConvForward<float>(first, x.data(), w1.data(), relu, blocked_hidden.data(),
                          {false, false, true});
  residual.residual = blocked_hidden.data();
  FusedConvForward<float>(second, blocked_hidden.data(), w2.data(), residual, got.data(),
                          {true, true, false});
  ExpectNear(got, expected, "through blocked tensors");
}

// A registered filter is reordered once and the copy reused; an unregistered one is reordered on
// every call, so new values in its buffer are seen.
TEST(ConstantWeightsTest, OnlyRegisteredFiltersKeepTheirReorderedCopy) {
  const ConvGeometry g = Forward2d({1, 16, 8, 8}, {16, 16, 3, 3}, 1, 1, 1, "NCHW");
  std::vector<float> x = Random(Numel(g.InputDims()), 8), w = Random(Numel(g.FilterDims()), 9);
  const int64_t y_size = Numel(g.OutputDims());
  std::vector<float> expected(y_size), got(y_size);
  Im2colConvForward<float>(g, x.data(), w.data(), expected.data());

  ConstantWeights constant({w.data()});
  EXPECT_TRUE(constant.Holds(w.data()));
  EXPECT_FALSE(constant.Holds(x.data()));
  EXPECT_EQ(ConstantWeights::Current(), nullptr);
  {
    ConstantWeights::Installed installed(&constant);
    EXPECT_EQ(ConstantWeights::Current(), &constant);
    for (int run = 0; run < 2; ++run) {
      OneDnnConvForward(g, ConvLayout::kOneDnnChoice, x.data(), w.data(), got.data());
      ExpectNear(got, expected, "registered, run " + std::to_string(run));
    }
    EXPECT_EQ(constant.DerivedCount(), 1u);

    std::vector<float> other = w;
    OneDnnConvForward(g, ConvLayout::kOneDnnChoice, x.data(), other.data(), got.data());
    for (float& v : other) v = -v;
    OneDnnConvForward(g, ConvLayout::kOneDnnChoice, x.data(), other.data(), got.data());
    for (float& v : expected) v = -v;
    ExpectNear(got, expected, "unregistered filter changed between calls");
    EXPECT_EQ(constant.DerivedCount(), 1u);
  }
  EXPECT_EQ(ConstantWeights::Current(), nullptr);
}

TEST(ConvGeometryTest, TransposedOutputSizeMustBeReachable) {
  const std::vector<int> strides{2, 2}, paddings{1, 1}, dilations{1, 1};
  const std::string algorithm = "EXPLICIT", format = "NCHW";
  ConvAttrs attrs{strides, paddings, algorithm, dilations, 1, format};
  // The natural size is (3 - 1) * 2 - 2 + 3 = 5; 6 is reachable, 7 is not.
  ConvGeometry g = TransposedConvolutionGeometry("conv2d_transpose", DDim({1, 2, 3, 3}),
                                                 DDim({2, 4, 3, 3}), 2, attrs, {}, {6, 6});
  EXPECT_EQ(g.InputDims(), DDim({1, 4, 6, 6}));
  try {
    TransposedConvolutionGeometry("conv2d_transpose", DDim({1, 2, 3, 3}), DDim({2, 4, 3, 3}), 2,
                                  attrs, {}, {7, 7});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("conv2d_transpose: 'output_size' [7, 7] is impossible"),
              std::string::npos)
        << e.what();
  }
}

TEST(ConvGeometryTest, SamePaddingIgnoresDilationAndSplitsTheRemainder) {
  const std::vector<int> strides{2, 1}, paddings{0, 0}, dilations{3, 3};
  const std::string algorithm = "SAME", format = "NCHW";
  ConvAttrs attrs{strides, paddings, algorithm, dilations, 1, format};
  ConvGeometry g = ConvolutionGeometry("conv2d", DDim({1, 1, 5, 4}), DDim({1, 1, 4, 3}), 2, attrs);
  // H: out 3, total pad (3 - 1) * 2 + 4 - 5 = 3 -> 1 before, 2 after; W: out 4, total 2.
  EXPECT_EQ(g.pad_before, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(g.pad_after, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(g.dilations, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(g.OutputDims(), DDim({1, 1, 3, 4}));
}

}  // namespace

}  // namespace paddle::funcs
