// bfloat16 GEMM on oneDNN's matmul, for CPUs with native bf16 dot products (AVX512-BF16 or AMX):
// bf16 operands, float32 accumulation, the result rounded to bf16 once, which is what
// Gemm<bfloat16> computes on its float32 path, without the conversions and in half the memory
// traffic. Elsewhere oneDNN would emulate bf16, which is slower than the float32 path, so
// Gemm<bfloat16> (blas.cc) asks Bf16GemmOnOnednn first.
#pragma once

#include <cstdint>

#include "paddle/common/float16.h"

namespace paddle::funcs {

// Whether the CPU runs bf16 dot products natively (oneDNN's ISA is avx512_core_bf16 or above).
bool Bf16GemmOnOnednn();

// c = a * b (row-major; trans_a / trans_b as in Gemm) of bf16 matrices with leading dimensions
// lda, ldb, ldc. Only for Bf16GemmOnOnednn() CPUs, m, n, k > 0.
void OnednnBf16Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const bfloat16* a,
                    int64_t lda, const bfloat16* b, int64_t ldb, bfloat16* c, int64_t ldc);

}  // namespace paddle::funcs
