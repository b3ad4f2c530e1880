// What oneDNN reports about itself, for paddle.utils.run_check(); kept apart from
// onednn_context.h so that its readers need not see oneDNN's headers.
#pragma once

#include <string>

namespace paddle::funcs::onednn {

struct LibraryInfo {
  std::string version;  // "2.6.3"
  std::string isa;      // the instruction set its JIT kernels use, e.g. "avx512_core_bf16"
  int threads;          // the size of the OpenMP pool it runs on
};

LibraryInfo Info();

}  // namespace paddle::funcs::onednn
