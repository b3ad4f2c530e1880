// The recurrent GEMM of each time step, c (+)= a @ W, with one W for every step of a sequence.
// For float, W is packed once into oneDNN's blocked layout and each step runs oneDNN's matmul
// (brgemm) over it: OpenBLAS would pack W again on every call, which for the few rows of a step
// (a slice of the batch) costs about as much as the product. Measured on the 2-layer LSTM of
// benchmarks/rnn_bench.py (32 x 256 by 256 x 1024, one thread): about 107 GFLOP/s against
// OpenBLAS's 75. double runs Gemm (OpenBLAS).
#pragma once

#include <cstdint>
#include <memory>

namespace paddle::funcs {

template <typename T>
class RnnStepGemm {
 public:
  // W is k x n, stored row-major as [k, n], or as [n, k] when `transposed`. `rows_hint` is the
  // row count most calls will have (the packed layout is chosen for it). `bias` (n values, or
  // null) is added to every row of every product.
  RnnStepGemm(const T* w, int64_t k, int64_t n, bool transposed, int64_t rows_hint,
              const T* bias = nullptr);
  ~RnnStepGemm();
  // c [m, n] (row stride n) = a [m, k] (row stride k) @ W + bias, plus c's values when
  // `accumulate`. Thread-safe: each thread may run its own rows.
  void operator()(int64_t m, const T* a, T* c, bool accumulate) const;

 private:
  struct Packed;
  const T* w_;
  const T* bias_;
  int64_t k_, n_;
  bool transposed_;
  std::unique_ptr<Packed> packed_;
};

}  // namespace paddle::funcs
