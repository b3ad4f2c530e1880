// The CUDA kernels checked against the CPU kernels (and, for matmul, a double-precision
// reference): the same op API call on tensors placed on gpu:0 and on the CPU. Every test skips
// when no GPU is visible, so the suite passes on CPU-only machines with a CUDA build.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "paddle/core/device_context.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/memory/memcpy.h"
#include "paddle/ops/generated/api/add.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/floor_divide.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/greater_than.h"
#include "paddle/ops/generated/api/matmul.h"
#include "paddle/ops/generated/api/relu.h"
#include "paddle/ops/generated/api/scale.h"
#include "paddle/ops/generated/api/where.h"

namespace paddle {

namespace {

#define PD_SKIP_WITHOUT_GPU() \
  if (::paddle::GetGPUDeviceCount() == 0) GTEST_SKIP() << "no GPU"

class GPUKernelsTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }

  // A CPU tensor of `shape` with uninitialised float32 storage.
  static Tensor MakeCPU(const std::vector<int64_t>& shape, DataType dtype = DataType::FLOAT32) {
    auto dense = std::make_shared<DenseTensor>(TensorMeta{DDim(shape), dtype});
    GetDeviceContext(CPUPlace()).Alloc(dense.get(), dtype);
    return Tensor(dense);
  }

  // Random float32 values in [-2, 2), on the CPU.
  static Tensor RandomCPU(const std::vector<int64_t>& shape, unsigned seed = 1) {
    Tensor t = MakeCPU(shape);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    float* data = t.dense().data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) data[i] = dist(gen);
    return t;
  }

  // A copy of `t` on `place`, through memory::Copy into storage from that place's context.
  static Tensor CopyTo(const Tensor& t, const Place& place) {
    const DenseTensor& src = t.dense();
    auto dense = std::make_shared<DenseTensor>(src.meta());
    const DeviceContext& ctx = GetDeviceContext(place);
    void* dst = ctx.Alloc(dense.get(), src.dtype());
    GetDeviceContext(src.place()).Wait();  // the source's producer has finished
    memory::Copy(place, dst, src.place(), src.raw_data(), src.nbytes());
    return Tensor(dense);
  }
  static Tensor ToGPU(const Tensor& t) { return CopyTo(t, GPUPlace(0)); }
  static Tensor ToCPU(const Tensor& t) { return CopyTo(t, CPUPlace()); }

  // Bytes of a CPU tensor, for exact comparisons of any dtype.
  static std::vector<uint8_t> Bytes(const Tensor& t) {
    const uint8_t* p = static_cast<const uint8_t*>(t.dense().raw_data());
    return {p, p + t.dense().nbytes()};
  }

  // The GPU result (copied back) equals the CPU result bit for bit, with the same dims and dtype.
  static void ExpectSame(const Tensor& gpu, const Tensor& cpu) {
    ASSERT_TRUE(gpu.place().is_gpu());
    Tensor back = ToCPU(gpu);
    ASSERT_EQ(back.dims(), cpu.dims());
    ASSERT_EQ(back.dtype(), cpu.dtype());
    EXPECT_EQ(Bytes(back), Bytes(cpu));
  }

  static std::vector<float> Floats(const Tensor& cpu) {
    const float* p = cpu.dense().data<float>();
    return {p, p + cpu.numel()};
  }
};

TEST_F(GPUKernelsTest, AddBroadcastsLikeTheCPU) {
  PD_SKIP_WITHOUT_GPU();
  struct Case {
    std::vector<int64_t> x, y;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4}, {2, 3, 4}},  // same shape
      {{2, 3, 4}, {1}},        // scalar y
      {{1}, {5, 7}},           // scalar x
      {{2, 3, 4}, {3, 1}},     // general broadcast
      {{4, 1, 5}, {1, 6, 1}},  // both operands broadcast
      {{2, 1, 3, 1, 2}, {3, 4, 1}},
      {{0, 3}, {3}},  // empty
  };
  unsigned seed = 1;
  for (const Case& c : cases) {
    Tensor x = RandomCPU(c.x, seed++), y = RandomCPU(c.y, seed++);
    Tensor cpu = ops::add(x, y);
    Tensor gpu = ops::add(ToGPU(x), ToGPU(y));
    ExpectSame(gpu, cpu);
  }
}

TEST_F(GPUKernelsTest, ReluMatchesTheCPU) {
  PD_SKIP_WITHOUT_GPU();
  Tensor x = RandomCPU({1000, 37});
  ExpectSame(ops::relu(ToGPU(x)), ops::relu(x));
}

TEST_F(GPUKernelsTest, CastMatchesTheCPU) {
  PD_SKIP_WITHOUT_GPU();
  Tensor x = ops::scale(RandomCPU({513}), 50.0);
  Tensor gx = ToGPU(x);
  for (DataType dtype : {DataType::INT32, DataType::INT64, DataType::FLOAT16, DataType::BFLOAT16,
                         DataType::FLOAT64, DataType::BOOL, DataType::INT8}) {
    SCOPED_TRACE(DataTypeName(dtype));
    Tensor cpu = ops::cast(x, dtype);
    Tensor gpu = ops::cast(gx, dtype);
    ExpectSame(gpu, cpu);
    // and back to float32 from that dtype
    ExpectSame(ops::cast(gpu, DataType::FLOAT32), ops::cast(cpu, DataType::FLOAT32));
  }
}

TEST_F(GPUKernelsTest, WhereAndCompareMatchTheCPU) {
  PD_SKIP_WITHOUT_GPU();
  Tensor x = RandomCPU({3, 4, 5}, 7), y = RandomCPU({4, 1}, 8);
  Tensor cond = ops::greater_than(x, y);
  Tensor gcond = ops::greater_than(ToGPU(x), ToGPU(y));
  ExpectSame(gcond, cond);
  ExpectSame(ops::where(gcond, ToGPU(x), ToGPU(y)), ops::where(cond, x, y));
}

TEST_F(GPUKernelsTest, FullFillsOnTheGPU) {
  PD_SKIP_WITHOUT_GPU();
  Tensor a = ops::full({3, 5}, 2.5, DataType::FLOAT32, GPUPlace(0));
  EXPECT_TRUE(a.place().is_gpu());
  EXPECT_EQ(Floats(ToCPU(a)), std::vector<float>(15, 2.5f));
  Tensor z = ops::full({7}, 0.0, DataType::FLOAT32, GPUPlace(0));
  EXPECT_EQ(Floats(ToCPU(z)), std::vector<float>(7, 0.0f));
}

// Row-major reference in double, with MatmulInferMeta's semantics.
std::vector<double> ReferenceMatmul(const Tensor& x, const Tensor& y, bool tx, bool ty,
                                    const DDim& out_dims) {
  const DDim& xd = x.dims();
  const DDim& yd = y.dims();
  tx = tx && xd.size() > 1;
  ty = ty && yd.size() > 1;
  int64_t m = 1, k, n = 1;
  if (xd.size() == 1) {
    k = xd[0];
  } else {
    m = tx ? xd[xd.size() - 1] : xd[xd.size() - 2];
    k = tx ? xd[xd.size() - 2] : xd[xd.size() - 1];
  }
  if (yd.size() > 1) n = ty ? yd[yd.size() - 2] : yd[yd.size() - 1];
  std::vector<int64_t> xb(xd.data(), xd.data() + std::max(0, xd.size() - 2));
  std::vector<int64_t> yb(yd.data(), yd.data() + std::max(0, yd.size() - 2));
  size_t rank = std::max(xb.size(), yb.size());
  xb.insert(xb.begin(), rank - xb.size(), 1);
  yb.insert(yb.begin(), rank - yb.size(), 1);
  std::vector<int64_t> ob(rank);
  int64_t batch = 1;
  for (size_t i = 0; i < rank; ++i) batch *= (ob[i] = std::max(xb[i], yb[i]));
  const float* xp = x.dense().data<float>();
  const float* yp = y.dense().data<float>();
  std::vector<double> out(batch * m * n);
  for (int64_t b = 0; b < batch; ++b) {
    int64_t rest = b, xo = 0, yo = 0, xs = 1, ys = 1;
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
      int64_t index = rest % ob[i];
      rest /= ob[i];
      xo += (xb[i] == 1 ? 0 : index) * xs;
      yo += (yb[i] == 1 ? 0 : index) * ys;
      xs *= xb[i];
      ys *= yb[i];
    }
    const float* xm = xp + xo * m * k;
    const float* ym = yp + yo * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          double a = tx ? xm[p * m + i] : xm[i * k + p];
          double c = ty ? ym[j * k + p] : ym[p * n + j];
          sum += a * c;
        }
        out[(b * m + i) * n + j] = sum;
      }
    }
  }
  EXPECT_EQ(static_cast<int64_t>(out.size()), out_dims.numel());
  return out;
}

TEST_F(GPUKernelsTest, MatmulMatchesAReference) {
  PD_SKIP_WITHOUT_GPU();
  struct Case {
    std::vector<int64_t> x, y;
    bool tx, ty;
    std::vector<int64_t> out;
  };
  const std::vector<Case> cases = {
      {{3, 4}, {4, 5}, false, false, {3, 5}},
      {{4, 3}, {4, 5}, true, false, {3, 5}},
      {{3, 4}, {5, 4}, false, true, {3, 5}},
      {{4, 3}, {5, 4}, true, true, {3, 5}},
      {{2, 3, 4}, {2, 4, 5}, false, false, {2, 3, 5}},        // batched, same batch
      {{2, 3, 4}, {4, 5}, false, false, {2, 3, 5}},           // folded into one GEMM
      {{2, 4, 3}, {4, 5}, true, false, {2, 3, 5}},            // broadcast y, stride 0
      {{3, 4}, {6, 4, 5}, false, false, {6, 3, 5}},           // broadcast x
      {{2, 1, 3, 4}, {3, 4, 5}, false, false, {2, 3, 3, 5}},  // irregular: host loop
      {{2, 1, 3, 4}, {1, 3, 5, 4}, false, true, {2, 3, 3, 5}},
      {{4}, {4, 5}, false, false, {5}},  // vector x
      {{3, 4}, {4}, false, false, {3}},  // vector y
      {{4}, {4}, false, false, {}},      // dot
      {{2, 3, 4}, {4}, false, false, {2, 3}},
      {{3, 0}, {0, 5}, false, false, {3, 5}},  // k == 0: zeros
      {{64, 128}, {128, 96}, false, false, {64, 96}},
  };
  unsigned seed = 11;
  for (const Case& c : cases) {
    SCOPED_TRACE(DDim(c.x).ToString() + " x " + DDim(c.y).ToString());
    Tensor x = RandomCPU(c.x, seed++), y = RandomCPU(c.y, seed++);
    Tensor gpu = ops::matmul(ToGPU(x), ToGPU(y), c.tx, c.ty);
    ASSERT_EQ(gpu.dims(), DDim(c.out));
    std::vector<float> got = Floats(ToCPU(gpu));
    std::vector<double> want = ReferenceMatmul(x, y, c.tx, c.ty, gpu.dims());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << "at " << i;
    }
  }
}

TEST_F(GPUKernelsTest, HalfPrecisionMatmulAccumulatesInFloat) {
  PD_SKIP_WITHOUT_GPU();
  Tensor x = RandomCPU({2, 16, 32}, 3), y = RandomCPU({32, 8}, 4);
  for (DataType dtype : {DataType::FLOAT16, DataType::BFLOAT16}) {
    SCOPED_TRACE(DataTypeName(dtype));
    // The reference multiplies the rounded inputs, so only the output rounding differs.
    Tensor xr = ops::cast(ops::cast(x, dtype), DataType::FLOAT32);
    Tensor yr = ops::cast(ops::cast(y, dtype), DataType::FLOAT32);
    Tensor gpu = ops::matmul(ToGPU(ops::cast(x, dtype)), ToGPU(ops::cast(y, dtype)));
    ASSERT_EQ(gpu.dtype(), dtype);
    std::vector<float> got = Floats(ToCPU(ops::cast(gpu, DataType::FLOAT32)));
    std::vector<double> want = ReferenceMatmul(xr, yr, false, false, gpu.dims());
    double tolerance = dtype == DataType::FLOAT16 ? 1e-3 : 8e-3;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], tolerance * (1 + std::abs(want[i]))) << "at " << i;
    }
  }
}

TEST_F(GPUKernelsTest, IntegerDivisionByZeroGivesZeroOnTheGPU) {
  PD_SKIP_WITHOUT_GPU();
  Tensor x = ops::cast(ops::scale(RandomCPU({6}), 10.0), DataType::INT32);
  Tensor zero = ops::cast(ops::scale(RandomCPU({6}), 0.0), DataType::INT32);
  Tensor out = ToCPU(ops::floor_divide(ToGPU(x), ToGPU(zero)));
  const int32_t* p = out.dense().data<int32_t>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(p[i], 0);
}

}  // namespace

}  // namespace paddle
