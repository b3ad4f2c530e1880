#include "paddle/kernels/funcs/rnn_step_gemm.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <dnnl.hpp>

#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/funcs/onednn_context.h"

namespace paddle::funcs {

namespace {

struct StepMatmul {
  dnnl::matmul::primitive_desc desc;
  dnnl::matmul primitive;
};

using dnnl::memory;

memory::desc Dense(int64_t rows, int64_t cols) {
  return memory::desc({rows, cols}, memory::data_type::f32, memory::format_tag::ab);
}

// The matmul of an m x k by k x n product on weights in the layout oneDNN picks, with a bias
// row when `bias`, adding into the destination when `accumulate`; built once per shape.
std::shared_ptr<StepMatmul> StepPrimitive(int64_t m, int64_t k, int64_t n, bool bias,
                                          bool accumulate) {
  std::string key = "rnn_step_matmul," + std::to_string(m) + ',' + std::to_string(k) + ',' +
                    std::to_string(n) + (bias ? ",bias" : "") + (accumulate ? ",sum" : "");
  return onednn::Cached<StepMatmul>(key, [&] {
    dnnl::primitive_attr attr;
    // The batch slices run their steps concurrently, and oneDNN's own scratchpad is shared by
    // every primitive (Debian builds it without DNNL_ENABLE_CONCURRENT_EXEC): each thread brings
    // its own.
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (accumulate) {
      dnnl::post_ops sum;
      sum.append_sum(1.0f);
      attr.set_post_ops(sum);
    }
    memory::desc any({k, n}, memory::data_type::f32, memory::format_tag::any);
    dnnl::matmul::desc desc = bias ? dnnl::matmul::desc(Dense(m, k), any, Dense(1, n), Dense(m, n))
                                   : dnnl::matmul::desc(Dense(m, k), any, Dense(m, n));
    dnnl::matmul::primitive_desc pd(desc, attr, onednn::CpuEngine());
    return std::make_shared<StepMatmul>(StepMatmul{pd, dnnl::matmul(pd)});
  });
}

}  // namespace

template <typename T>
struct RnnStepGemm<T>::Packed {
  memory weights;
  int64_t rows;
  // The primitives for `rows` rows, writing and accumulating: looking them up by name in the
  // cache on every step cost about as much as a step's gate math.
  std::shared_ptr<StepMatmul> write, accumulate;
};

template <typename T>
RnnStepGemm<T>::RnnStepGemm(const T* w, int64_t k, int64_t n, bool transposed, int64_t rows_hint,
                            const T* bias)
    : w_(w), bias_(bias), k_(k), n_(n), transposed_(transposed) {
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0 || n == 0 || rows_hint == 0) return;
    auto step = StepPrimitive(rows_hint, k, n, bias != nullptr, true);
    memory::desc user({k, n}, memory::data_type::f32,
                      transposed ? memory::format_tag::ba : memory::format_tag::ab);
    memory source(user, onednn::CpuEngine(), const_cast<float*>(w));
    packed_ = std::make_unique<Packed>(
        Packed{memory(step->desc.weights_desc(), onednn::CpuEngine()), rows_hint,
               StepPrimitive(rows_hint, k, n, bias != nullptr, false), step});
    dnnl::reorder(source, packed_->weights)
        .execute(onednn::ThreadStream(), source, packed_->weights);
    onednn::ThreadStream().wait();
  }
}

template <typename T>
RnnStepGemm<T>::~RnnStepGemm() = default;

template <typename T>
void RnnStepGemm<T>::operator()(int64_t m, const T* a, T* c, bool accumulate) const {
  if (m == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    if (packed_) {
      auto step = m != packed_->rows ? StepPrimitive(m, k_, n_, bias_ != nullptr, accumulate)
                  : accumulate       ? packed_->accumulate
                                     : packed_->write;
      // Another row count may want another layout; OpenBLAS then takes that call.
      if (step->desc.weights_desc() == packed_->weights.get_desc()) {
        memory src(Dense(m, k_), onednn::CpuEngine(), const_cast<float*>(a));
        memory dst(Dense(m, n_), onednn::CpuEngine(), c);
        const memory::desc scratch_desc = step->desc.scratchpad_desc();
        thread_local std::vector<uint8_t> scratch;
        scratch.resize(std::max<size_t>({scratch.size(), scratch_desc.get_size(), 1}));
        memory scratchpad(scratch_desc, onednn::CpuEngine(), scratch.data());
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src},
                                                {DNNL_ARG_WEIGHTS, packed_->weights},
                                                {DNNL_ARG_DST, dst},
                                                {DNNL_ARG_SCRATCHPAD, scratchpad}};
        if (bias_) {
          args[DNNL_ARG_BIAS] =
              memory(Dense(1, n_), onednn::CpuEngine(), const_cast<float*>(bias_));
        }
        step->primitive.execute(onednn::ThreadStream(), args);
        onednn::ThreadStream().wait();
        return;
      }
    }
  }
  Gemm<T>(false, transposed_, m, n_, k_, T(1), a, k_, w_, transposed_ ? k_ : n_,
          accumulate ? T(1) : T(0), c, n_);
  if (bias_) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n_; ++j) c[i * n_ + j] += bias_[j];
    }
  }
}

template class RnnStepGemm<float>;
template class RnnStepGemm<double>;

}  // namespace paddle::funcs
