#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// numpy.matmul's rules: 1-D operands are promoted to matrices and the added dim removed after;
// batch dims broadcast.
void MatmulInferMeta(const TensorMeta& x, const TensorMeta& y, bool transpose_x, bool transpose_y,
                     TensorMeta* out);

// Paddle's legacy `mul` (what paddle.static.nn.fc emits): x is read as the matrix
// [prod(x.dims[:x_num_col_dims]), prod(x.dims[x_num_col_dims:])], y likewise, and the product has
// dims x.dims[:x_num_col_dims] + y.dims[y_num_col_dims:]. Unknown (-1) dims pass through; the
// inner sizes are only compared when both are known.
void MulInferMeta(const TensorMeta& x, const TensorMeta& y, int x_num_col_dims, int y_num_col_dims,
                  TensorMeta* out);

// fc (see paddle/ops/yaml/linalg.yaml): input split into a matrix at in_num_col_dims, w [K, N],
// bias [N] or [1, N]; out has input.dims[:in_num_col_dims] + [N].
void FcInferMeta(const TensorMeta& input, const TensorMeta& w, const TensorMeta* bias,
                 int32_t in_num_col_dims, const std::string& activation_type, bool padding_weights,
                 TensorMeta* out);

}  // namespace paddle
