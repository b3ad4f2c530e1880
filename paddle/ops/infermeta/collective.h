// InferMeta of the static-graph collective ops (paddle/ops/yaml/collective.yaml).
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// c_allgather: out stacks `nranks` copies of x along the first axis.
void CAllgatherInferMeta(const TensorMeta& x, int ring_id, int nranks, bool use_calc_stream,
                         TensorMeta* out);
// c_reducescatter: out is x's first axis divided by `nranks`.
void CReducescatterInferMeta(const TensorMeta& x, int ring_id, int nranks, bool use_calc_stream,
                             TensorMeta* out);

}  // namespace paddle
