// float pooling runs on oneDNN where oneDNN has the geometry and on loops elsewhere (float64,
// uneven adaptive bins); both must agree on every geometry oneDNN takes: ceil_mode's extra right
// padding, both average divisors, asymmetric paddings, channels last, 1 to 3 spatial dims, the
// adaptive poolings that equal strided ones, and max pooling's gradient going to the first
// maximum (oneDNN's from a recomputed workspace, the loops' from x == out).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/pool_compute.h"
#include "paddle/kernels/funcs/pool_geometry.h"

namespace paddle::funcs {

namespace {

struct Case {
  std::vector<int64_t> x;
  std::vector<int> kernel, strides, paddings;
  bool ceil_mode;
  std::string format;
  bool adaptive;
  const char* name;
};

std::vector<float> Random(int64_t n, std::mt19937* rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& e : v) e = u(*rng);
  return v;
}

int64_t Numel(const DDim& dims) { return dims.numel(); }

void ExpectNear(const std::vector<float>& a, const std::vector<float>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-5f) << what << " at " << i;
}

}  // namespace

TEST(PoolOnednn, MatchesTheLoops) {
  const std::vector<Case> cases = {
      {{2, 3, 9, 8}, {3, 3}, {2, 2}, {1, 1}, false, "NCHW", false, "3x3 stride 2"},
      {{1, 4, 7, 7}, {2, 3}, {2, 1}, {1, 0, 0, 1}, true, "NCHW", false, "ceil, pairs"},
      {{2, 6, 6, 17}, {2, 2}, {2, 2}, {0, 1}, true, "NHWC", false, "channels last, ceil"},
      {{1, 2, 4, 6, 5}, {2, 3, 2}, {1, 2, 2}, {1, 1, 0}, false, "NCDHW", false, "3-D"},
      {{1, 3, 5, 4, 4}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, true, "NDHWC", false, "3-D last"},
      {{2, 3, 8, 6}, {2, 3}, {1, 1}, {0, 0}, false, "NCHW", true, "adaptive even bins"},
      {{2, 7, 7, 16}, {1, 1}, {1, 1}, {0, 0}, false, "NHWC", true, "adaptive global"},
  };
  std::mt19937 rng(0);
  for (const Case& c : cases) {
    const std::string algorithm = "EXPLICIT";
    PoolGeometry g = PoolingGeometry(
        "pool_test", DDim(c.x), static_cast<int>(c.x.size()) - 2,
        {c.kernel, c.strides, c.paddings, c.ceil_mode, c.format, false, c.adaptive, algorithm});
    const int64_t in = Numel(g.InputDims()), out = Numel(g.OutputDims());
    const std::vector<float> x = Random(in, &rng), dy = Random(out, &rng);
    for (PoolMode mode : {PoolMode::kMax, PoolMode::kAvgExclusive, PoolMode::kAvgInclusive}) {
      const std::string what = std::string(c.name) + " mode " + std::to_string(int(mode));
      std::vector<float> y(out), y_loops(out), dx(in), dx_loops(in);
      PoolForward<float>(g, mode, x.data(), y.data());
      LoopPoolForward<float>(g, mode, x.data(), y_loops.data());
      ExpectNear(y, y_loops, what + " forward");
      PoolBackward<float>(g, mode, x.data(), y.data(), dy.data(), dx.data());
      LoopPoolBackward<float>(g, mode, x.data(), y.data(), dy.data(), dx_loops.data());
      ExpectNear(dx, dx_loops, what + " backward");
    }
  }
}

TEST(PoolGeometryTest, RejectsWindowsInThePadding) {
  const std::string format = "NCHW", algorithm = "EXPLICIT";
  const std::vector<int> kernel{2, 2}, strides{2, 2}, padding_two{2, 2}, padding_one{1, 1};
  EXPECT_THROW(
      PoolingGeometry("pool_test", DDim({1, 1, 4, 4}), 2,
                      {kernel, strides, padding_two, false, format, false, false, algorithm}),
      Error);
  // ceil_mode would start a last window at 3 on an input of 3.
  EXPECT_THROW(
      PoolingGeometry("pool_test", DDim({1, 1, 3, 3}), 2,
                      {kernel, strides, padding_one, true, format, false, false, algorithm}),
      Error);
  PoolGeometry g =
      PoolingGeometry("pool_test", DDim({1, 1, 3, 3}), 2,
                      {kernel, strides, padding_one, false, format, false, false, algorithm});
  EXPECT_EQ(g.output, (std::vector<int64_t>{2, 2}));
}

}  // namespace paddle::funcs
