// Shape rules of diagonal, diagonal_grad, trace and diag_embed (paddle/ops/yaml/diagonal.yaml).
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// The diagonal `offset` of the matrices spanned by axis1 and axis2 (distinct dims of x, rank
// >= 2): x's other dims, then the diagonal's length.
void DiagonalInferMeta(const TensorMeta& x, int32_t offset, int32_t axis1, int32_t axis2,
                       TensorMeta* out);

// diagonal_grad: x's dims (x is read for its shape only).
void DiagonalGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad, int32_t offset,
                           int32_t axis1, int32_t axis2, TensorMeta* x_grad);

// trace: x's dims other than axis1 and axis2.
void TraceInferMeta(const TensorMeta& x, int32_t offset, int32_t axis1, int32_t axis2,
                    TensorMeta* out);

// diag_embed: rank + 1 dims, x's last dim n as n + |offset| at dim1 and dim2 of the result.
void DiagEmbedInferMeta(const TensorMeta& x, int32_t offset, int32_t dim1, int32_t dim2,
                        TensorMeta* out);

}  // namespace paddle
