// The written-out draws of paddle/core/random_draws.h against the libstdc++ distributions they
// reproduce (PaddlePaddle's CPU kernels call those, built with GCC 11, whose algorithms this
// compiler's libstdc++ shares), and the generator's state round trip.
#include "paddle/core/random_draws.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "paddle/core/generator.h"

namespace paddle {
namespace {

#if defined(__GLIBCXX__) && _GLIBCXX_RELEASE >= 11
constexpr bool kLibstdcxx11 = true;
#else
constexpr bool kLibstdcxx11 = false;
#endif

class RandomDrawsTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  void SetUp() override {
    if (!kLibstdcxx11) GTEST_SKIP() << "the reference distributions are libstdc++ 11's";
    random::SeedFromUserSeed(&ours_, GetParam());
    std::seed_seq sequence{static_cast<uint32_t>(GetParam())};
    theirs_.seed(sequence);
  }
  void TearDown() override {
    if (kLibstdcxx11) EXPECT_EQ(ours_(), theirs_()) << "the streams went out of step";
  }
  random::Engine ours_;
  std::mt19937_64 theirs_;
};

TEST_P(RandomDrawsTest, UniformIsUniformRealDistribution) {
  std::vector<float> f(999);
  random::FillUniform(&ours_, f.data(), 999, -2.0f, 3.0f);
  std::uniform_real_distribution<float> uf(-2.0f, 3.0f);
  for (float v : f) ASSERT_EQ(v, uf(theirs_));
  std::vector<double> d(999);
  random::FillUniform(&ours_, d.data(), 999, 0.25, 0.5);
  std::uniform_real_distribution<double> ud(0.25, 0.5);
  for (double v : d) ASSERT_EQ(v, ud(theirs_));
}

TEST_P(RandomDrawsTest, NormalIsNormalDistributionFreshPerFill) {
  for (int64_t n : {1, 2, 7, 1000}) {
    std::vector<float> f(n);
    random::FillNormal(&ours_, f.data(), n, 1.5f, 0.3f);
    std::normal_distribution<float> nf(1.5f, 0.3f);
    for (float v : f) ASSERT_EQ(v, nf(theirs_));
    std::vector<double> d(n);
    random::FillNormal(&ours_, d.data(), n, -1.0, 2.0);
    std::normal_distribution<double> nd(-1.0, 2.0);
    for (double v : d) ASSERT_EQ(v, nd(theirs_));
  }
}

TEST_P(RandomDrawsTest, UniformIndexIsUniformIntDistribution) {
  for (uint64_t range : {1ull, 2ull, 3ull, 10ull, 1000003ull, (1ull << 63) + 12345, ~0ull}) {
    std::uniform_int_distribution<uint64_t> reference(0, range - 1);
    for (int i = 0; i < 300; ++i)
      ASSERT_EQ(random::UniformIndex(&ours_, range), reference(theirs_));
  }
}

TEST_P(RandomDrawsTest, ShuffleIsStdShuffle) {
  for (int64_t n : {1, 2, 3, 6, 7, 100, 1001}) {
    std::vector<int64_t> a(n), b(n);
    std::iota(a.begin(), a.end(), 0);
    std::iota(b.begin(), b.end(), 0);
    random::Shuffle(&ours_, a.data(), n);
    std::shuffle(b.begin(), b.end(), theirs_);
    ASSERT_EQ(a, b) << "n = " << n;
  }
}

TEST_P(RandomDrawsTest, PoissonIsPoissonDistribution) {
  for (double mean : {0.0, 0.5, 1.0, 5.0, 11.99, 12.0, 12.5, 20.0, 100.0, 1234.5, 1e6}) {
    for (int i = 0; i < 200; ++i) {
      std::poisson_distribution<int> reference(mean);
      ASSERT_EQ(random::Poisson(&ours_, mean), reference(theirs_)) << "mean " << mean;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomDrawsTest, ::testing::Values(1, 5, 2023, (1ull << 40) + 7));

TEST(GeneratorTest, SeedKeepsTheLow32BitsThroughSeedSeq) {
  random::Engine low, high;
  random::SeedFromUserSeed(&low, 5);
  random::SeedFromUserSeed(&high, (1ull << 40) + 5);
  EXPECT_EQ(low(), high());
}

TEST(GeneratorTest, StateRoundTripsAndRejectsGarbage) {
  Generator generator(77);
  generator.Use([](random::Engine* engine) { (*engine)(); });
  const std::string state = generator.State();
  const uint64_t next = generator.Use([](random::Engine* engine) { return (*engine)(); });
  EXPECT_FALSE(generator.SetState("77 1 2 3"));
  EXPECT_FALSE(generator.SetState(state + " trailing"));
  ASSERT_TRUE(generator.SetState(state));
  EXPECT_EQ(generator.seed(), 77u);
  EXPECT_EQ(generator.Use([](random::Engine* engine) { return (*engine)(); }), next);
}

}  // namespace
}  // namespace paddle
