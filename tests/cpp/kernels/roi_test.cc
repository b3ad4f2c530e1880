// The RoI pooling and deformable convolution routines (funcs/roi_pooling.h,
// funcs/deformable_conv.h): each backward routine is the adjoint of its forward one in every
// argument the forward is linear in (<forward(x), dy> == <x, backward(dy)>), overwriting what its
// outputs held; the offset gradient against central differences; float against double;
// roi_pool's arg_max pointing at its maxima; the box-to-image assignment and the geometry's
// errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/deformable_conv.h"
#include "paddle/kernels/funcs/roi_pooling.h"

namespace paddle::funcs {

namespace {

template <typename T>
std::vector<T> Random(int64_t n, unsigned seed, double low = -1, double high = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(low, high);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(rng));
  return v;
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// Boxes over a 9 x 11 map, some reaching past it, one smaller than a pixel.
const std::vector<double> kBoxes = {0.3,  0.6, 7.1, 5.9, 2.2, 1.4,  10.8, 8.3,
                                    -2.5, 3.1, 4.4, 12., 5.6, 4.25, 5.9,  4.5};
const std::vector<int64_t> kImages = {0, 1, 1, 0};

RoiPoolingShape Shape(int64_t channels, int64_t pooled_h, int64_t pooled_w, float scale) {
  RoiPoolingShape s;
  s.batch = 2;
  s.channels = channels;
  s.height = 9;
  s.width = 11;
  s.num_rois = 4;
  s.pooled_height = pooled_h;
  s.pooled_width = pooled_w;
  s.spatial_scale = scale;
  return s;
}

struct AlignCase {
  int sampling_ratio;
  bool aligned;
  float scale;
};

class RoiAlignAdjointTest : public ::testing::TestWithParam<AlignCase> {};

TEST_P(RoiAlignAdjointTest, BackwardIsTheAdjointOfForward) {
  const AlignCase c = GetParam();
  const RoiPoolingShape s = Shape(3, 3, 2, c.scale);
  const std::vector<double> x = Random<double>(2 * 3 * 9 * 11, 1);
  const std::vector<double> dy = Random<double>(4 * 3 * 3 * 2, 2);
  std::vector<double> y(dy.size(), 7.0), dx(x.size(), 7.0);
  RoiAlignForward<double>(s, x.data(), kBoxes.data(), kImages.data(), c.sampling_ratio, c.aligned,
                          y.data());
  RoiAlignBackward<double>(s, kBoxes.data(), kImages.data(), c.sampling_ratio, c.aligned, dy.data(),
                           dx.data());
  EXPECT_NEAR(Dot(y, dy), Dot(x, dx), 1e-12 * (1 + std::abs(Dot(y, dy))));

  const std::vector<float> xf(x.begin(), x.end()), boxes(kBoxes.begin(), kBoxes.end());
  std::vector<float> yf(dy.size());
  RoiAlignForward<float>(s, xf.data(), boxes.data(), kImages.data(), c.sampling_ratio, c.aligned,
                         yf.data());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(yf[i], y[i], 1e-5) << i;
}

INSTANTIATE_TEST_SUITE_P(Cases, RoiAlignAdjointTest,
                         ::testing::Values(AlignCase{-1, true, 1.0f}, AlignCase{2, false, 1.0f},
                                           AlignCase{0, true, 0.5f}, AlignCase{3, true, 2.0f}));

TEST(PsroiPoolTest, BackwardIsTheAdjointOfForward) {
  const RoiPoolingShape s = Shape(12, 2, 3, 0.75f);  // 2 output channels
  const std::vector<double> x = Random<double>(2 * 12 * 9 * 11, 3);
  const std::vector<double> dy = Random<double>(4 * 12, 4);
  std::vector<double> y(dy.size(), 7.0), dx(x.size(), 7.0);
  PsroiPoolForward<double>(s, x.data(), kBoxes.data(), kImages.data(), y.data());
  PsroiPoolBackward<double>(s, kBoxes.data(), kImages.data(), dy.data(), dx.data());
  EXPECT_NEAR(Dot(y, dy), Dot(x, dx), 1e-12 * (1 + std::abs(Dot(y, dy))));
}

TEST(RoiPoolTest, ArgMaxPointsAtEachMaximumAndRoutesTheGradient) {
  const RoiPoolingShape s = Shape(3, 2, 3, 1.0f);
  const std::vector<double> x = Random<double>(2 * 3 * 9 * 11, 5);
  const int64_t outputs = 4 * 3 * 2 * 3, plane = 9 * 11;
  std::vector<double> y(outputs), dy = Random<double>(outputs, 6), dx(x.size(), 7.0);
  std::vector<int64_t> arg_max(outputs);
  RoiPoolForward<double>(s, x.data(), kBoxes.data(), kImages.data(), y.data(), arg_max.data());
  double routed = 0;
  for (int64_t i = 0; i < outputs; ++i) {
    const int64_t r = i / (3 * 6), c = i / 6 % 3;
    if (arg_max[i] < 0) {
      EXPECT_EQ(y[i], 0.0) << i;  // an empty bin
      continue;
    }
    EXPECT_EQ(y[i], x[(kImages[r] * 3 + c) * plane + arg_max[i]]) << i;
    routed += dy[i] * y[i];
  }
  RoiPoolBackward<double>(s, kImages.data(), arg_max.data(), dy.data(), dx.data());
  EXPECT_NEAR(Dot(x, dx), routed, 1e-12);
}

TEST(RoiPoolTest, BoxesThatAreNotFiniteGiveNaN) {
  const RoiPoolingShape s = Shape(1, 1, 1, 1.0f);
  std::vector<float> x(2 * 9 * 11, 1.0f), out(4);
  std::vector<float> boxes = {0, 0, 2, 2, NAN, 0, 2, 2, 0, INFINITY, 2, 2, 1e30f, 0, 3e38f, 2};
  std::vector<int64_t> arg_max(4);
  RoiPoolForward<float>(s, x.data(), boxes.data(), kImages.data(), out.data(), arg_max.data());
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[1]) && std::isnan(out[2]));
  EXPECT_EQ(arg_max[1], -1);
  EXPECT_EQ(out[3], 0.0f);  // finite but past the map: an empty bin
  // A box whose width overflows float is not finite either.
  boxes[12] = -3e38f;
  RoiAlignForward<float>(s, x.data(), boxes.data(), kImages.data(), -1, true, out.data());
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[1]) && std::isnan(out[2]) && std::isnan(out[3]));
}

TEST(RoiImagesTest, CountsAssignBoxesToImagesAndBadCountsRaise) {
  DenseTensor counts(TensorMeta{DDim({3}), DataType::INT32});
  int32_t* c = GetDeviceContext(CPUPlace()).Alloc<int32_t>(&counts);
  c[0] = 2;
  c[1] = 0;
  c[2] = 3;
  EXPECT_EQ(RoiImages("op", &counts, 5, 3), (std::vector<int64_t>{0, 0, 2, 2, 2}));
  EXPECT_EQ(RoiImages("op", nullptr, 2, 1), (std::vector<int64_t>{0, 0}));
  auto raises = [&](int64_t num_rois, int64_t batch, const DenseTensor* n, const char* words) {
    try {
      RoiImages("op", n, num_rois, batch);
      ADD_FAILURE() << "no error for " << words;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  raises(4, 3, &counts, "must add up to the number of boxes (4)");
  raises(6, 3, &counts, "received counts adding up to 5");
  raises(5, 2, &counts, "one count per image");
  raises(2, 2, nullptr, "'boxes_num' is required");
  c[1] = -1;
  raises(5, 3, &counts, "must not be negative");
}

// ---------------------------------------------------------------- deformable convolution

struct DeformCase {
  std::vector<int64_t> x, filter;
  std::vector<int> strides, paddings, dilations;
  int deformable_groups, groups;
  bool mask;
};

class DeformableConvTest : public ::testing::TestWithParam<DeformCase> {
 protected:
  void SetUp() override {
    const DeformCase& c = GetParam();
    g = DeformableConvolutionGeometry("test", DDim(c.x), DDim(c.filter), c.strides, c.paddings,
                                      c.dilations, c.deformable_groups, c.groups);
    x = Random<double>(DDim(c.x).numel(), 1);
    w = Random<double>(DDim(c.filter).numel(), 2);
    // Offsets off whole pixels (bilinear interpolation has kinks there), some past the map.
    offset = Random<double>(g.OffsetDims().numel(), 3, -2.5, 2.5);
    for (double& o : offset) {
      if (std::abs(o - std::round(o)) < 0.1) o += 0.25;
    }
    if (c.mask) mask = Random<double>(g.MaskDims().numel(), 4, 0, 1);
    dy = Random<double>(g.OutputDims().numel(), 5);
  }

  std::vector<double> Forward(const std::vector<double>& x_, const std::vector<double>& offset_,
                              const std::vector<double>& w_, const std::vector<double>& mask_) {
    std::vector<double> y(dy.size(), 7.0);
    DeformableConvForward<double>(g, x_.data(), offset_.data(),
                                  mask_.empty() ? nullptr : mask_.data(), w_.data(), y.data());
    return y;
  }

  DeformableConvGeometry g;
  std::vector<double> x, w, offset, mask, dy;
};

TEST_P(DeformableConvTest, GradientsAreAdjointsAndDerivatives) {
  std::vector<double> dx(x.size(), 7.0), doffset(offset.size(), 7.0), dw(w.size(), 7.0);
  std::vector<double> dmask(mask.size(), 7.0);
  DeformableConvBackward<double>(g, x.data(), offset.data(), mask.empty() ? nullptr : mask.data(),
                                 w.data(), dy.data(), dx.data(), doffset.data(), dw.data(),
                                 dmask.data());
  const double total = Dot(Forward(x, offset, w, mask), dy);
  const double tolerance = 1e-10 * (1 + std::abs(total));
  EXPECT_NEAR(total, Dot(x, dx), tolerance);  // linear in x, in w and in the mask
  EXPECT_NEAR(total, Dot(w, dw), tolerance);
  if (!mask.empty()) {
    EXPECT_NEAR(total, Dot(mask, dmask), tolerance);
  }
  for (size_t i = 0; i < offset.size(); i += 7) {
    std::vector<double> plus = offset, minus = offset;
    plus[i] += 1e-6;
    minus[i] -= 1e-6;
    const double numeric =
        (Dot(Forward(x, plus, w, mask), dy) - Dot(Forward(x, minus, w, mask), dy)) / 2e-6;
    EXPECT_NEAR(doffset[i], numeric, 1e-6 * (1 + std::abs(numeric))) << "offset " << i;
  }
  // float agrees with double.
  auto as_float = [](const std::vector<double>& v) {
    return std::vector<float>(v.begin(), v.end());
  };
  const std::vector<float> xf = as_float(x), of = as_float(offset), wf = as_float(w),
                           mf = as_float(mask);
  std::vector<float> yf(dy.size());
  DeformableConvForward<float>(g, xf.data(), of.data(), mf.empty() ? nullptr : mf.data(), wf.data(),
                               yf.data());
  const std::vector<double> y = Forward(x, offset, w, mask);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(yf[i], y[i], 1e-4) << i;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DeformableConvTest,
    ::testing::Values(DeformCase{{2, 4, 6, 5}, {6, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 2, 2, true},
                      DeformCase{{1, 3, 7, 6}, {2, 3, 2, 3}, {2, 1}, {0, 1}, {2, 1}, 1, 1, false},
                      DeformCase{{1, 4, 5, 5}, {4, 4, 1, 1}, {1, 2}, {0, 0}, {1, 1}, 4, 1, true},
                      DeformCase{{0, 2, 4, 4}, {2, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, 1, true}));

TEST(DeformableConvGeometryTest, BadShapesAndAttributesRaise) {
  auto raises = [](const std::vector<int64_t>& x, const std::vector<int64_t>& filter,
                   const std::vector<int>& strides, const std::vector<int>& paddings,
                   int deformable_groups, int groups, const char* words) {
    try {
      DeformableConvolutionGeometry("deformable_conv", DDim(x), DDim(filter), strides, paddings,
                                    {1, 1}, deformable_groups, groups);
      ADD_FAILURE() << "no error for " << words;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      const std::string message = e.what();
      EXPECT_NE(message.find("deformable_conv: "), std::string::npos) << message;
      EXPECT_NE(message.find(words), std::string::npos) << message;
    }
  };
  raises({1, 4, 5, 5}, {2, 2, 3, 3}, {1, 1}, {0, 0}, 1, 3, "divisible by 'groups' (3)");
  raises({1, 6, 5, 5}, {2, 6, 3, 3}, {1, 1}, {0, 0}, 4, 1, "divisible by 'deformable_groups'");
  raises({1, 4, 5, 5}, {2, 3, 3, 3}, {1, 1}, {0, 0}, 1, 1, "filter's dim 1");
  raises({1, 4, 5, 5}, {3, 2, 3, 3}, {1, 1}, {0, 0}, 1, 2, "output channels");
  raises({1, 4, 5, 5}, {2, 4, 3, 3}, {0, 1}, {0, 0}, 1, 1, "'strides'");
  raises({1, 4, 5, 5}, {2, 4, 3, 3}, {1, 1}, {-1, 0}, 1, 1, "'paddings'");
  raises({1, 4, 5, 5}, {2, 4, 3, 3}, {1, 1, 1}, {0, 0}, 1, 1, "'strides' must have 2 values");
  raises({1, 4, 2, 5}, {2, 4, 3, 3}, {1, 1}, {0, 0}, 1, 1, "dilated kernel's height");
  raises({4, 5, 5}, {2, 4, 3, 3}, {1, 1}, {0, 0}, 1, 1, "argument 'x' must be a 4-D");
  // Unknown dims (static programs) pass and stay unknown.
  const auto g = DeformableConvolutionGeometry("deformable_conv", DDim({-1, 4, -1, 5}),
                                               DDim({2, 4, 3, 3}), {1, 1}, {1, 1}, {1, 1}, 2, 1);
  EXPECT_EQ(g.OutputDims(), DDim({-1, 2, -1, 5}));
  EXPECT_EQ(g.OffsetDims(), DDim({-1, 36, -1, 5}));
}

}  // namespace

}  // namespace paddle::funcs
