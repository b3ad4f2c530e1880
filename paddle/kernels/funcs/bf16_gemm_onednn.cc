#include "paddle/kernels/funcs/bf16_gemm_onednn.h"

#include <string>

#include "paddle/kernels/funcs/onednn_context.h"

namespace paddle::funcs {

namespace {

using Dims = dnnl::memory::dims;
using DataType = dnnl::memory::data_type;

// A rows x cols row-major matrix with row stride ld, or (transposed) the transpose of one
// stored cols x rows.
dnnl::memory::desc MatrixDesc(int64_t rows, int64_t cols, int64_t ld, bool transposed) {
  Dims strides = transposed ? Dims{1, ld} : Dims{ld, 1};
  return dnnl::memory::desc(Dims{rows, cols}, DataType::bf16, strides);
}

struct GemmEntry {
  dnnl::matmul::primitive_desc desc;
  dnnl::matmul primitive;
};

}  // namespace

bool Bf16GemmOnOnednn() {
  static const bool native = [] {
    auto isa = static_cast<int>(dnnl::get_effective_cpu_isa());
    auto bf16 = static_cast<int>(dnnl::cpu_isa::avx512_core_bf16);
    return (isa & bf16) == bf16;
  }();
  return native;
}

void OnednnBf16Gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const bfloat16* a,
                    int64_t lda, const bfloat16* b, int64_t ldb, bfloat16* c, int64_t ldc) {
  dnnl::memory::desc a_desc = MatrixDesc(m, k, lda, trans_a);
  dnnl::memory::desc b_desc = MatrixDesc(k, n, ldb, trans_b);
  dnnl::memory::desc c_desc = MatrixDesc(m, n, ldc, false);
  std::string key = "bf16_gemm";
  for (int64_t v : {m, n, k, lda, ldb, ldc, int64_t{trans_a}, int64_t{trans_b}}) {
    key += ',' + std::to_string(v);
  }
  auto entry = onednn::Cached<GemmEntry>(key, [&] {
    dnnl::matmul::desc desc(a_desc, b_desc, c_desc);
    dnnl::matmul::primitive_desc pd(desc, onednn::WithUserScratchpad(), onednn::CpuEngine());
    return std::make_shared<GemmEntry>(GemmEntry{pd, dnnl::matmul(pd)});
  });
  const dnnl::engine& engine = onednn::CpuEngine();
  onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(),
                  {{DNNL_ARG_SRC, dnnl::memory(a_desc, engine, const_cast<bfloat16*>(a))},
                   {DNNL_ARG_WEIGHTS, dnnl::memory(b_desc, engine, const_cast<bfloat16*>(b))},
                   {DNNL_ARG_DST, dnnl::memory(c_desc, engine, c)}});
  onednn::ThreadStream().wait();
}

}  // namespace paddle::funcs
