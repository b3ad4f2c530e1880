// The reduction, matmul, creation, random and cross-entropy CPU kernels, run through the C++ op
// API (InferMeta + dispatch + kernel) and checked against values computed by hand or by naive
// reference loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "paddle/core/generator.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/ops/generated/api/arange.h"
#include "paddle/ops/generated/api/argmax.h"
#include "paddle/ops/generated/api/argmin.h"
#include "paddle/ops/generated/api/cross_entropy_with_softmax.h"
#include "paddle/ops/generated/api/cross_entropy_with_softmax_grad.h"
#include "paddle/ops/generated/api/eye.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/full_like.h"
#include "paddle/ops/generated/api/gaussian.h"
#include "paddle/ops/generated/api/linspace.h"
#include "paddle/ops/generated/api/matmul.h"
#include "paddle/ops/generated/api/max.h"
#include "paddle/ops/generated/api/mean.h"
#include "paddle/ops/generated/api/min.h"
#include "paddle/ops/generated/api/prod.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/api/uniform.h"

namespace paddle {

namespace {

class KernelTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }
};

template <typename T>
Tensor Make(const std::vector<int64_t>& shape, const std::vector<T>& values) {
  Tensor t = ops::full(shape, 0, kDataTypeOf<T>);
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  std::copy(values.begin(), values.end(), t.dense().data<T>());
  return t;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  const T* data = t.numel() == 0 ? nullptr : t.dense().data<T>();
  return std::vector<T>(data, data + t.numel());
}

std::vector<float> Iota(int64_t n, float start = 0.0f) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

std::vector<float> RandomValues(int64_t n, uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(engine);
  return v;
}

// Expects `fn` to throw paddle::Error with `code`.
void ExpectError(const std::function<void()>& fn, ErrorCode code) {
  try {
    fn();
    ADD_FAILURE() << "expected an error, none was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
  }
}

// Sums `values` (shape `dims`) over `axes` by visiting every element: the reference for sum.
std::vector<double> NaiveSum(const std::vector<float>& values, const std::vector<int64_t>& dims,
                             const std::vector<int>& axes) {
  int rank = static_cast<int>(dims.size());
  std::vector<int64_t> out_dims;
  for (int d = 0; d < rank; ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) out_dims.push_back(dims[d]);
  }
  int64_t out_numel = 1;
  for (int64_t d : out_dims) out_numel *= d;
  std::vector<double> out(out_numel, 0.0);
  std::vector<int64_t> index(rank, 0);
  for (size_t flat = 0; flat < values.size(); ++flat) {
    int64_t rest = static_cast<int64_t>(flat);
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    int64_t o = 0;
    for (int d = 0; d < rank; ++d) {
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) o = o * dims[d] + index[d];
    }
    out[o] += values[flat];
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- reductions

TEST_F(KernelTest, SumOverAxisSetsAndKeepdim) {
  Tensor x = Make<float>({2, 3, 4}, Iota(24));
  Tensor all = ops::sum(x);
  EXPECT_EQ(all.dims(), DDim());
  EXPECT_EQ(Values<float>(all), std::vector<float>{276});

  Tensor rows = ops::sum(x, {1}, DataType::UNDEFINED, false);
  EXPECT_EQ(rows.dims(), DDim({2, 4}));
  EXPECT_EQ(Values<float>(rows), (std::vector<float>{12, 15, 18, 21, 48, 51, 54, 57}));

  Tensor kept = ops::sum(x, {-1}, DataType::UNDEFINED, true);
  EXPECT_EQ(kept.dims(), DDim({2, 3, 1}));
  EXPECT_EQ(Values<float>(kept), (std::vector<float>{6, 22, 38, 54, 70, 86}));

  Tensor outer_inner = ops::sum(x, {0, 2}, DataType::UNDEFINED, false);
  EXPECT_EQ(Values<float>(outer_inner), (std::vector<float>{60, 92, 124}));

  Tensor leading = ops::sum(x, {0, 1}, DataType::UNDEFINED, true);
  EXPECT_EQ(leading.dims(), DDim({1, 1, 4}));
  EXPECT_EQ(Values<float>(leading), (std::vector<float>{60, 66, 72, 78}));
}

TEST_F(KernelTest, SumMatchesANaiveReferenceOnEveryAxisSet) {
  std::vector<int64_t> dims = {3, 1, 4, 5, 2};
  std::vector<float> values = RandomValues(120, 1);
  Tensor x = Make<float>(dims, values);
  for (int mask = 0; mask < 32; ++mask) {
    std::vector<int64_t> axis;
    std::vector<int> axes;
    for (int d = 0; d < 5; ++d) {
      if (mask & (1 << d)) {
        axis.push_back(d);
        axes.push_back(d);
      }
    }
    if (axis.empty()) {  // empty means all
      for (int d = 0; d < 5; ++d) axes.push_back(d);
    }
    std::vector<double> want = NaiveSum(values, dims, axes);
    std::vector<float> got = Values<float>(ops::sum(x, axis, DataType::UNDEFINED, false));
    ASSERT_EQ(got.size(), want.size()) << "mask " << mask;
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "mask " << mask;
  }
}

TEST_F(KernelTest, SumOfWideInnerRowsCrossesBlocks) {
  std::vector<float> values = RandomValues(3 * 5 * 1100, 2);
  Tensor x = Make<float>({3, 5, 1100}, values);
  std::vector<double> want = NaiveSum(values, {3, 5, 1100}, {1});
  std::vector<float> got = Values<float>(ops::sum(x, {1}, DataType::UNDEFINED, false));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5);
}

TEST_F(KernelTest, SumOfFloat32AccumulatesWide) {
  // 2e7 ones: a float32 running sum stops at 2^24 = 16777216.
  Tensor x = ops::full({20000000}, 1.0, DataType::FLOAT32);
  EXPECT_EQ(Values<float>(ops::sum(x)), std::vector<float>{2e7f});
  Tensor tenths = ops::full({1000, 1000}, 0.1, DataType::FLOAT32);
  float got = Values<float>(ops::sum(tenths))[0];
  EXPECT_NEAR(got, 1e6 * static_cast<double>(0.1f), 0.1);
}

TEST_F(KernelTest, SumDtypes) {
  Tensor ints = Make<int32_t>({2, 2}, {1, 2, 3, 4});
  Tensor s = ops::sum(ints, {0}, DataType::UNDEFINED, false);
  EXPECT_EQ(s.dtype(), DataType::INT64);
  EXPECT_EQ(Values<int64_t>(s), (std::vector<int64_t>{4, 6}));

  Tensor flags = Make<bool>({4}, {true, false, true, true});
  Tensor count = ops::sum(flags);
  EXPECT_EQ(count.dtype(), DataType::INT64);
  EXPECT_EQ(Values<int64_t>(count), std::vector<int64_t>{3});

  Tensor f = Make<float>({3}, {0.5f, 0.75f, 1.5f});
  Tensor as_double = ops::sum(f, {}, DataType::FLOAT64, false);
  EXPECT_EQ(as_double.dtype(), DataType::FLOAT64);
  EXPECT_EQ(Values<double>(as_double), std::vector<double>{2.75});
  // Paddle casts before summing: each term truncates.
  EXPECT_EQ(Values<int64_t>(ops::sum(f, {}, DataType::INT64, false)), std::vector<int64_t>{1});

  Tensor h = Make<float16>({3}, {float16(1.5f), float16(2.0f), float16(-0.5f)});
  Tensor hs = ops::sum(h);
  EXPECT_EQ(hs.dtype(), DataType::FLOAT16);
  EXPECT_EQ(static_cast<float>(Values<float16>(hs)[0]), 3.0f);
}

TEST_F(KernelTest, ReducingAnEmptyDim) {
  Tensor empty = ops::full({0, 3}, 1.0, DataType::FLOAT32);
  EXPECT_EQ(Values<float>(ops::sum(empty, {0}, DataType::UNDEFINED, false)),
            (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(Values<float>(ops::prod(empty, {0}, false)), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(ops::sum(empty, {1}, DataType::UNDEFINED, false).dims(), DDim({0}));
  ExpectError([&] { ops::max(empty, {0}, false); }, ErrorCode::kInvalidArgument);
  ExpectError([&] { ops::min(empty); }, ErrorCode::kInvalidArgument);
  // Reducing the non-empty axis of an empty tensor is fine: the result is empty too.
  EXPECT_EQ(ops::max(empty, {1}, false).dims(), DDim({0}));
}

TEST_F(KernelTest, Mean) {
  Tensor x = Make<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(Values<float>(ops::mean(x)), std::vector<float>{3.5f});
  EXPECT_EQ(Values<float>(ops::mean(x, {1}, false)), (std::vector<float>{2, 5}));
  Tensor kept = ops::mean(x, {0}, true);
  EXPECT_EQ(kept.dims(), DDim({1, 3}));
  EXPECT_EQ(Values<float>(kept), (std::vector<float>{2.5f, 3.5f, 4.5f}));
  Tensor h = Make<bfloat16>({4}, {bfloat16(1.0f), bfloat16(2.0f), bfloat16(3.0f), bfloat16(6.0f)});
  EXPECT_EQ(static_cast<float>(Values<bfloat16>(ops::mean(h))[0]), 3.0f);
}

TEST_F(KernelTest, MaxMinProd) {
  Tensor x = Make<float>({2, 3}, {1, -7, 3, 4, 5, -6});
  EXPECT_EQ(Values<float>(ops::max(x)), std::vector<float>{5});
  EXPECT_EQ(Values<float>(ops::min(x)), std::vector<float>{-7});
  EXPECT_EQ(Values<float>(ops::max(x, {0}, false)), (std::vector<float>{4, 5, 3}));
  EXPECT_EQ(Values<float>(ops::min(x, {1}, true)), (std::vector<float>{-7, -6}));
  EXPECT_EQ(Values<float>(ops::prod(x, {1}, false)), (std::vector<float>{-21, -120}));

  Tensor i = Make<int64_t>({3}, {std::numeric_limits<int64_t>::min(), 4, -2});
  EXPECT_EQ(Values<int64_t>(ops::max(i)), std::vector<int64_t>{4});
  EXPECT_EQ(Values<int64_t>(ops::min(i)),
            std::vector<int64_t>{std::numeric_limits<int64_t>::min()});
  Tensor j = Make<int32_t>({4}, {2, 3, -1, 5});
  EXPECT_EQ(Values<int32_t>(ops::prod(j)), std::vector<int32_t>{-30});

  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor with_nan = Make<float>({2, 2}, {1, nan, 3, 4});
  std::vector<float> m = Values<float>(ops::max(with_nan, {1}, false));
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_EQ(m[1], 4);
  EXPECT_TRUE(std::isnan(Values<float>(ops::min(with_nan))[0]));
}

TEST_F(KernelTest, ArgMaxArgMin) {
  Tensor x = Make<float>({2, 3}, {1, 9, 9, 8, -2, 5});
  Tensor a1 = ops::argmax(x, 1, false, false, DataType::INT64);
  EXPECT_EQ(a1.dtype(), DataType::INT64);
  EXPECT_EQ(Values<int64_t>(a1), (std::vector<int64_t>{1, 0}));  // ties keep the first
  EXPECT_EQ(Values<int64_t>(ops::argmax(x, 0, false, false, DataType::INT64)),
            (std::vector<int64_t>{1, 0, 0}));
  Tensor kept = ops::argmin(x, -1, true, false, DataType::INT32);
  EXPECT_EQ(kept.dtype(), DataType::INT32);
  EXPECT_EQ(kept.dims(), DDim({2, 1}));
  EXPECT_EQ(Values<int32_t>(kept), (std::vector<int32_t>{0, 1}));
  Tensor flat = ops::argmax(x, 0, false, true, DataType::INT64);
  EXPECT_EQ(flat.dims(), DDim());
  EXPECT_EQ(Values<int64_t>(flat), std::vector<int64_t>{1});
  EXPECT_EQ(Values<int64_t>(ops::argmin(x, 0, false, true, DataType::INT64)),
            std::vector<int64_t>{4});

  Tensor u8 = Make<uint8_t>({2, 2, 2}, {3, 7, 1, 9, 8, 0, 2, 4});
  EXPECT_EQ(Values<int64_t>(ops::argmax(u8, 1, false, false, DataType::INT64)),
            (std::vector<int64_t>{0, 1, 0, 1}));

  std::vector<float> big = RandomValues(300000, 3);
  big[123457] = 5.0f;
  big[200000] = -5.0f;
  Tensor b = Make<float>({300000}, big);
  EXPECT_EQ(Values<int64_t>(ops::argmax(b, 0, false, true, DataType::INT64)),
            std::vector<int64_t>{123457});
  EXPECT_EQ(Values<int64_t>(ops::argmin(b, 0, false, false, DataType::INT64)),
            std::vector<int64_t>{200000});

  ExpectError(
      [&] { ops::argmax(ops::full({0}, 0.0, DataType::FLOAT32), 0, false, true, DataType::INT64); },
      ErrorCode::kInvalidArgument);
}

// ---------------------------------------------------------------- matmul

namespace {

// out = op(x) @ op(y) by the definition, with NumPy 1-D promotion and batch broadcasting.
std::vector<double> NaiveMatmul(const std::vector<float>& x, std::vector<int64_t> xd,
                                const std::vector<float>& y, std::vector<int64_t> yd, bool tx,
                                bool ty) {
  if (xd.size() == 1) {
    xd.insert(xd.begin(), 1);
    tx = false;
  }
  if (yd.size() == 1) {
    yd.push_back(1);
    ty = false;
  }
  size_t xr = xd.size(), yr = yd.size();
  int64_t m = tx ? xd[xr - 1] : xd[xr - 2], k = tx ? xd[xr - 2] : xd[xr - 1];
  int64_t n = ty ? yd[yr - 2] : yd[yr - 1];
  size_t br = std::max(xr, yr) - 2;
  std::vector<int64_t> xb(br, 1), yb(br, 1), ob(br);
  for (size_t i = 0; i < xr - 2; ++i) xb[br - (xr - 2) + i] = xd[i];
  for (size_t i = 0; i < yr - 2; ++i) yb[br - (yr - 2) + i] = yd[i];
  int64_t batches = 1;
  for (size_t i = 0; i < br; ++i) {
    ob[i] = std::max(xb[i], yb[i]);
    batches *= ob[i];
  }
  std::vector<double> out(batches * m * n, 0.0);
  for (int64_t b = 0; b < batches; ++b) {
    int64_t rest = b, xo = 0, yo = 0, xs = 1, ys = 1;
    for (int i = static_cast<int>(br) - 1; i >= 0; --i) {
      int64_t idx = rest % ob[i];
      rest /= ob[i];
      xo += (xb[i] == 1 ? 0 : idx) * xs;
      yo += (yb[i] == 1 ? 0 : idx) * ys;
      xs *= xb[i];
      ys *= yb[i];
    }
    const float* a = x.data() + xo * m * k;
    const float* c = y.data() + yo * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double dot = 0;
        for (int64_t p = 0; p < k; ++p) {
          double av = tx ? a[p * m + i] : a[i * k + p];
          double cv = ty ? c[j * k + p] : c[p * n + j];
          dot += av * cv;
        }
        out[(b * m + i) * n + j] = dot;
      }
    }
  }
  return out;
}

int64_t Numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

void CheckMatmul(std::vector<int64_t> xd, std::vector<int64_t> yd, bool tx, bool ty,
                 std::vector<int64_t> want_dims) {
  std::vector<float> xv = RandomValues(Numel(xd), 11), yv = RandomValues(Numel(yd), 12);
  std::vector<double> want = NaiveMatmul(xv, xd, yv, yd, tx, ty);
  SCOPED_TRACE(DDim(xd).ToString() + (tx ? "^T" : "") + " @ " + DDim(yd).ToString() +
               (ty ? "^T" : ""));

  Tensor out = ops::matmul(Make<float>(xd, xv), Make<float>(yd, yv), tx, ty);
  ASSERT_EQ(out.dims(), DDim(want_dims));
  std::vector<float> got = Values<float>(out);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4);

  std::vector<double> xd64(xv.begin(), xv.end()), yd64(yv.begin(), yv.end());
  std::vector<double> got64 =
      Values<double>(ops::matmul(Make<double>(xd, xd64), Make<double>(yd, yd64), tx, ty));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got64[i], want[i], 1e-12);

  // Integers: small values, exact.
  std::vector<int64_t> xi(xv.size()), yi(yv.size());
  std::vector<float> xr(xv.size()), yr(yv.size());
  for (size_t i = 0; i < xv.size(); ++i) xr[i] = static_cast<float>(xi[i] = std::lround(xv[i] * 5));
  for (size_t i = 0; i < yv.size(); ++i) yr[i] = static_cast<float>(yi[i] = std::lround(yv[i] * 5));
  std::vector<double> want_int = NaiveMatmul(xr, xd, yr, yd, tx, ty);
  std::vector<int64_t> got_int =
      Values<int64_t>(ops::matmul(Make<int64_t>(xd, xi), Make<int64_t>(yd, yi), tx, ty));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got_int[i], static_cast<int64_t>(want_int[i]));
  std::vector<int32_t> xi32(xi.begin(), xi.end()), yi32(yi.begin(), yi.end());
  std::vector<int32_t> got_i32 =
      Values<int32_t>(ops::matmul(Make<int32_t>(xd, xi32), Make<int32_t>(yd, yi32), tx, ty));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got_i32[i], static_cast<int32_t>(want_int[i]));
}

}  // namespace

TEST_F(KernelTest, Matmul2DAndTransposes) {
  CheckMatmul({3, 4}, {4, 5}, false, false, {3, 5});
  CheckMatmul({4, 3}, {4, 5}, true, false, {3, 5});
  CheckMatmul({3, 4}, {5, 4}, false, true, {3, 5});
  CheckMatmul({4, 3}, {5, 4}, true, true, {3, 5});
  CheckMatmul({64, 70}, {70, 33}, false, false, {64, 33});
}

TEST_F(KernelTest, MatmulBatchedBroadcast) {
  CheckMatmul({2, 3, 4}, {4, 5}, false, false, {2, 3, 5});  // one tall gemm
  CheckMatmul({2, 3, 4}, {5, 4}, false, true, {2, 3, 5});   // one tall gemm, y transposed
  CheckMatmul({2, 4, 3}, {4, 5}, true, false, {2, 3, 5});   // per batch
  CheckMatmul({2, 1, 3, 4}, {5, 4, 6}, false, false, {2, 5, 3, 6});
  CheckMatmul({3, 4}, {2, 4, 5}, false, false, {2, 3, 5});
  CheckMatmul({2, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5});
  CheckMatmul({1, 3, 4}, {1, 4, 5}, false, false, {1, 3, 5});
  CheckMatmul({64, 4, 3}, {64, 5, 4}, true, true, {64, 3, 5});  // many small batches
}

TEST_F(KernelTest, MatmulVectors) {
  CheckMatmul({4}, {4}, false, false, {});
  CheckMatmul({4}, {4, 5}, false, false, {5});
  CheckMatmul({4}, {5, 4}, true, true, {5});  // the vector's transpose flag is ignored
  CheckMatmul({3, 4}, {4}, false, false, {3});
  CheckMatmul({2, 3, 4}, {4}, false, false, {2, 3});
  CheckMatmul({4}, {2, 4, 5}, false, false, {2, 5});
}

TEST_F(KernelTest, MatmulFloat16AndEmpty) {
  Tensor x = Make<float16>({2, 2}, {float16(1.0f), float16(2.0f), float16(3.0f), float16(4.0f)});
  Tensor y = Make<float16>({2, 2}, {float16(0.5f), float16(1.0f), float16(-1.0f), float16(2.0f)});
  std::vector<float16> out = Values<float16>(ops::matmul(x, y, false, false));
  std::vector<float> want = {-1.5f, 5.0f, -2.5f, 11.0f};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(static_cast<float>(out[i]), want[i]);

  Tensor a = ops::full({3, 0}, 1.0, DataType::FLOAT32);
  Tensor b = ops::full({0, 2}, 1.0, DataType::FLOAT32);
  EXPECT_EQ(Values<float>(ops::matmul(a, b, false, false)), std::vector<float>(6, 0.0f));
  ExpectError(
      [&] {
        ops::matmul(ops::full({2, 3}, 1.0, DataType::FLOAT32),
                    ops::full({2, 3}, 1.0, DataType::FLOAT32), false, false);
      },
      ErrorCode::kInvalidArgument);
}

// ---------------------------------------------------------------- creation

TEST_F(KernelTest, FullAndFullLike) {
  Tensor f = ops::full({2, 3}, 2.5, DataType::FLOAT64);
  EXPECT_EQ(f.dtype(), DataType::FLOAT64);
  EXPECT_EQ(Values<double>(f), std::vector<double>(6, 2.5));
  Tensor i = ops::full({4}, int64_t{1} << 40, DataType::INT64);
  EXPECT_EQ(Values<int64_t>(i), std::vector<int64_t>(4, int64_t{1} << 40));
  Tensor b = ops::full({2}, 1, DataType::BOOL);
  EXPECT_EQ(Values<bool>(b), std::vector<bool>(2, true));
  Tensor h = ops::full({1}, 0.5, DataType::BFLOAT16);
  EXPECT_EQ(static_cast<float>(Values<bfloat16>(h)[0]), 0.5f);

  Tensor like = ops::full_like(f, 7, DataType::UNDEFINED);
  EXPECT_EQ(like.dtype(), DataType::FLOAT64);
  EXPECT_EQ(like.dims(), DDim({2, 3}));
  EXPECT_EQ(Values<double>(like), std::vector<double>(6, 7.0));
  Tensor like_int = ops::full_like(f, 3, DataType::INT32);
  EXPECT_EQ(like_int.dtype(), DataType::INT32);
  EXPECT_EQ(Values<int32_t>(like_int), std::vector<int32_t>(6, 3));
}

TEST_F(KernelTest, ArangeLinspaceEye) {
  EXPECT_EQ(Values<int64_t>(ops::arange(0, 5, 1, DataType::INT64)),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(Values<int32_t>(ops::arange(10, 0, -3, DataType::INT32)),
            (std::vector<int32_t>{10, 7, 4, 1}));
  EXPECT_EQ(Values<float>(ops::arange(0.0, 1.0, 0.25, DataType::FLOAT32)),
            (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
  EXPECT_EQ(ops::arange(3, 3, 1, DataType::INT64).numel(), 0);

  EXPECT_EQ(Values<float>(ops::linspace(0.0, 1.0, 5, DataType::FLOAT32)),
            (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
  EXPECT_EQ(Values<double>(ops::linspace(2.0, 3.0, 1, DataType::FLOAT64)), std::vector<double>{2});
  std::vector<double> tenth = Values<double>(ops::linspace(0.0, 0.3, 4, DataType::FLOAT64));
  EXPECT_EQ(tenth.back(), 0.3);
  EXPECT_EQ(Values<int64_t>(ops::linspace(0, 10, 3, DataType::INT64)),
            (std::vector<int64_t>{0, 5, 10}));
  EXPECT_EQ(ops::linspace(0, 10, 0, DataType::FLOAT32).numel(), 0);

  Tensor e = ops::eye(2, 3, DataType::FLOAT32);
  EXPECT_EQ(e.dims(), DDim({2, 3}));
  EXPECT_EQ(Values<float>(e), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  Tensor square = ops::eye(3, -1, DataType::INT64);
  EXPECT_EQ(Values<int64_t>(square), (std::vector<int64_t>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
}

TEST_F(KernelTest, UniformRangeAndReproducibility) {
  Tensor u = ops::uniform({200000}, DataType::FLOAT32, -2.0, 3.0, 0);
  std::vector<float> v = Values<float>(u);
  double total = 0;
  // u * (max - min) + min may round up to max, in PaddlePaddle too.
  for (float x : v) {
    ASSERT_GE(x, -2.0f);
    ASSERT_LE(x, 3.0f);
    total += x;
  }
  EXPECT_NEAR(total / v.size(), 0.5, 0.02);

  EXPECT_EQ(Values<float>(ops::uniform({1000}, DataType::FLOAT32, 0.0, 1.0, 42)),
            Values<float>(ops::uniform({1000}, DataType::FLOAT32, 0.0, 1.0, 42)));
  EXPECT_NE(Values<float>(ops::uniform({1000}, DataType::FLOAT32, 0.0, 1.0, 0)),
            Values<float>(ops::uniform({1000}, DataType::FLOAT32, 0.0, 1.0, 0)));
  DefaultGenerator().Seed(2024);
  std::vector<double> first =
      Values<double>(ops::uniform({300000}, DataType::FLOAT64, 0.0, 1.0, 0));
  DefaultGenerator().Seed(2024);
  std::vector<double> again =
      Values<double>(ops::uniform({300000}, DataType::FLOAT64, 0.0, 1.0, 0));
  EXPECT_EQ(first, again);

  std::vector<float16> h = Values<float16>(ops::uniform({5000}, DataType::FLOAT16, 0.0, 1.0, 7));
  for (float16 x : h) {  // float draws rounded to float16: 1 is possible
    ASSERT_GE(static_cast<float>(x), 0.0f);
    ASSERT_LE(static_cast<float>(x), 1.0f);
  }
}

TEST_F(KernelTest, GaussianStatisticsAndReproducibility) {
  std::vector<double> v = Values<double>(ops::gaussian({200000}, 1.5f, 2.0f, 3, DataType::FLOAT64));
  double mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  double stddev = std::sqrt(var / v.size());
  EXPECT_NEAR(mean, 1.5, 0.03);
  EXPECT_NEAR(stddev, 2.0, 0.03);

  EXPECT_EQ(Values<float>(ops::gaussian({100}, 0.0f, 1.0f, 9, DataType::FLOAT32)),
            Values<float>(ops::gaussian({100}, 0.0f, 1.0f, 9, DataType::FLOAT32)));
  DefaultGenerator().Seed(5);
  std::vector<float> first = Values<float>(ops::gaussian({100}, 0.0f, 1.0f, 0, DataType::FLOAT32));
  DefaultGenerator().Seed(5);
  EXPECT_EQ(first, Values<float>(ops::gaussian({100}, 0.0f, 1.0f, 0, DataType::FLOAT32)));
  EXPECT_EQ(Values<float>(ops::gaussian({3}, 4.0f, 0.0f, 0, DataType::FLOAT32)),
            std::vector<float>(3, 4.0f));
}

// ---------------------------------------------------------------- cross entropy

namespace {

double LogSumExp(const std::vector<double>& v) {
  double m = *std::max_element(v.begin(), v.end());
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}

}  // namespace

TEST_F(KernelTest, CrossEntropyHardLabels) {
  std::vector<double> logits = {1.0, 2.0, 3.0, 1000.0, 0.0, -1000.0, 0.5, 0.5, 0.5};
  Tensor input = Make<double>({3, 3}, logits);
  Tensor label = Make<int64_t>({3, 1}, {2, 0, -100});
  auto [softmax, loss] = ops::cross_entropy_with_softmax(input, label, false, true, true, -100, -1);
  EXPECT_EQ(loss.dims(), DDim({3, 1}));
  std::vector<double> l = Values<double>(loss);
  EXPECT_NEAR(l[0], LogSumExp({1, 2, 3}) - 3.0, 1e-12);
  EXPECT_NEAR(l[1], 0.0, 1e-12);  // large logits stay finite
  EXPECT_EQ(l[2], 0.0);           // ignored
  std::vector<double> p = Values<double>(softmax);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(p[j], std::exp(logits[j] - LogSumExp({1, 2, 3})), 1e-12);
  EXPECT_NEAR(p[6], 1.0 / 3, 1e-12);

  // The gradient: softmax - onehot, scaled by loss_grad, zero where ignored.
  Tensor loss_grad = Make<double>({3, 1}, {2.0, 1.0, 1.0});
  std::vector<double> g = Values<double>(
      ops::cross_entropy_with_softmax_grad(label, softmax, loss_grad, false, true, true, -100, -1));
  EXPECT_NEAR(g[0], 2.0 * p[0], 1e-12);
  EXPECT_NEAR(g[2], 2.0 * (p[2] - 1.0), 1e-12);
  EXPECT_NEAR(g[3], p[3] - 1.0, 1e-12);
  for (int j = 6; j < 9; ++j) EXPECT_EQ(g[j], 0.0);

  // int32 labels, float32 input.
  Tensor input32 = Make<float>({2, 2}, {0.0f, 0.0f, 3.0f, 1.0f});
  Tensor label32 = Make<int32_t>({2, 1}, {1, 0});
  std::vector<float> l32 = Values<float>(
      std::get<1>(ops::cross_entropy_with_softmax(input32, label32, false, true, true, -100, -1)));
  EXPECT_NEAR(l32[0], std::log(2.0), 1e-6);
  EXPECT_NEAR(l32[1], LogSumExp({3, 1}) - 3.0, 1e-6);
}

TEST_F(KernelTest, CrossEntropyOnAnInnerAxis) {
  // Classes on axis 1 of [2, 3, 2]: each (n, w) column is a sample.
  std::vector<float> x = RandomValues(12, 5);
  Tensor input = Make<float>({2, 3, 2}, x);
  Tensor label = Make<int64_t>({2, 1, 2}, {0, 2, 1, 1});
  std::vector<float> l = Values<float>(
      std::get<1>(ops::cross_entropy_with_softmax(input, label, false, true, true, -100, 1)));
  std::vector<int64_t> labels = {0, 2, 1, 1};
  for (int n = 0; n < 2; ++n) {
    for (int w = 0; w < 2; ++w) {
      std::vector<double> column;
      for (int c = 0; c < 3; ++c) column.push_back(x[n * 6 + c * 2 + w]);
      double want = LogSumExp(column) - column[labels[n * 2 + w]];
      EXPECT_NEAR(l[n * 2 + w], want, 1e-5);
    }
  }
}

TEST_F(KernelTest, CrossEntropySoftLabelsAndProbabilities) {
  Tensor input = Make<double>({1, 3}, {0.0, 1.0, 2.0});
  Tensor label = Make<double>({1, 3}, {0.25, 0.25, 0.5});
  auto [softmax, loss] = ops::cross_entropy_with_softmax(input, label, true, true, true, -100, -1);
  double lse = LogSumExp({0, 1, 2});
  double want = -(0.25 * (0 - lse) + 0.25 * (1 - lse) + 0.5 * (2 - lse));
  EXPECT_NEAR(Values<double>(loss)[0], want, 1e-12);
  std::vector<double> p = Values<double>(softmax);
  std::vector<double> g = Values<double>(ops::cross_entropy_with_softmax_grad(
      label, softmax, Make<double>({1, 1}, {1.0}), true, true, true, -100, -1));
  EXPECT_NEAR(g[0], p[0] - 0.25, 1e-12);
  EXPECT_NEAR(g[2], p[2] - 0.5, 1e-12);

  // use_softmax = false: the input already holds probabilities.
  Tensor probs = Make<double>({2, 2}, {0.25, 0.75, 0.5, 0.5});
  Tensor hard = Make<int64_t>({2, 1}, {1, 0});
  auto [same, nll] = ops::cross_entropy_with_softmax(probs, hard, false, false, true, -100, -1);
  EXPECT_EQ(Values<double>(same), Values<double>(probs));
  EXPECT_NEAR(Values<double>(nll)[0], -std::log(0.75), 1e-12);
  EXPECT_NEAR(Values<double>(nll)[1], -std::log(0.5), 1e-12);
  std::vector<double> gp = Values<double>(ops::cross_entropy_with_softmax_grad(
      hard, probs, Make<double>({2, 1}, {1.0, 3.0}), false, false, true, -100, -1));
  EXPECT_EQ(gp, (std::vector<double>{0.0, -1.0 / 0.75, -3.0 / 0.5, 0.0}));
}

TEST_F(KernelTest, CrossEntropyHalfPrecision) {
  Tensor input =
      Make<float16>({2, 2}, {float16(0.0f), float16(0.0f), float16(2.0f), float16(0.0f)});
  Tensor label = Make<int64_t>({2, 1}, {0, 0});
  auto [softmax, loss] = ops::cross_entropy_with_softmax(input, label, false, true, true, -100, -1);
  EXPECT_EQ(loss.dtype(), DataType::FLOAT16);
  std::vector<float16> l = Values<float16>(loss);
  EXPECT_NEAR(static_cast<float>(l[0]), std::log(2.0), 1e-3);
  EXPECT_NEAR(static_cast<float>(l[1]), LogSumExp({2, 0}) - 2.0, 1e-3);
  std::vector<float16> p = Values<float16>(softmax);
  EXPECT_NEAR(static_cast<float>(p[0]), 0.5, 1e-3);
}

TEST_F(KernelTest, CrossEntropyLabelOutOfRange) {
  Tensor input = Make<float>({2, 3}, {0, 0, 0, 0, 0, 0});
  ExpectError(
      [&] {
        ops::cross_entropy_with_softmax(input, Make<int64_t>({2, 1}, {1, 3}), false, true, true,
                                        -100, -1);
      },
      ErrorCode::kOutOfRange);
  ExpectError(
      [&] {
        ops::cross_entropy_with_softmax(input, Make<int32_t>({2, 1}, {-1, 0}), false, true, true,
                                        -100, -1);
      },
      ErrorCode::kOutOfRange);
  try {
    ops::cross_entropy_with_softmax(input, Make<int64_t>({2, 1}, {7, 0}), false, true, true, -100,
                                    -1);
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("7"), std::string::npos) << message;
    EXPECT_NE(message.find("[0, 3)"), std::string::npos) << message;
  }
}

}  // namespace paddle
