// The draws behind paddle's CPU random ops, written out so that they give PaddlePaddle's numbers
// bit for bit. PaddlePaddle draws from a std::mt19937_64 through libstdc++'s distributions
// (GCC 11); the engine is fully specified by the standard, the distributions are not, so each
// one is spelled out here as libstdc++ computes it (the derivation is in docs/random.md).
// random_draws.cc is compiled with -ffp-contract=off: a fused multiply-add would round
// differently from PaddlePaddle's separate multiply and add.
#pragma once

#include <cstdint>
#include <random>

namespace paddle::random {

using Engine = std::mt19937_64;

// The engine paddle.seed(seed) sets up: seeded through std::seed_seq from the seed's low 32 bits
// (std::seed_seq keeps 32 bits of each value), as PaddlePaddle's generator does.
void SeedFromUserSeed(Engine* engine, uint64_t seed);

// One draw in [0, 1): the 64-bit output rounded to T, times 2^-64; a value that rounds up to 1
// becomes the largest T below 1 (std::generate_canonical).
float CanonicalFloat(Engine* engine);
double CanonicalDouble(Engine* engine);

// out[i] = canonical * (high - low) + low in T, one draw each (std::uniform_real_distribution).
void FillUniform(Engine* engine, float* out, int64_t n, float low, float high);
void FillUniform(Engine* engine, double* out, int64_t n, double low, double high);

// Marsaglia's polar method, as std::normal_distribution: each accepted pair (x, y) gives y then
// x; the pair's second value is kept for the next element of this fill only.
void FillNormal(Engine* engine, float* out, int64_t n, float mean, float std);
void FillNormal(Engine* engine, double* out, int64_t n, double mean, double std);

// out[i] = (-1 / lam) * log(1 - canonical) in T, one draw each (PaddlePaddle's exponential_).
void FillExponential(Engine* engine, float* out, int64_t n, float lam);
void FillExponential(Engine* engine, double* out, int64_t n, double lam);

// Normal draws truncated to [a, b] (absolute bounds) by inverting the normal CDF at a uniform
// draw in [FLT_MIN, 1), as PaddlePaddle's truncated_gaussian_random: erfinv by its rational
// approximations, mixed float/double steps as there, the result clamped to [a, b].
void FillTruncatedNormal(Engine* engine, float* out, int64_t n, float mean, float std, float a,
                         float b);
void FillTruncatedNormal(Engine* engine, double* out, int64_t n, double mean, double std, double a,
                         double b);

// An integer in [0, range) by Lemire's multiply-and-reject (std::uniform_int_distribution);
// range 0 stands for 2^64 (the raw output).
uint64_t UniformIndex(Engine* engine, uint64_t range);

// A random permutation of out[0, n) in place, as std::shuffle (two swap positions per draw
// while n * n fits in 64 bits).
void Shuffle(Engine* engine, int64_t* out, int64_t n);

// A Poisson variate of the given mean, as a fresh std::poisson_distribution<int>: the product
// method below 12, Devroye's rejection method from 12 on.
int Poisson(Engine* engine, double mean);

}  // namespace paddle::random
