// Shape rules of cross and kron (paddle/ops/yaml/products.yaml).
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// cross: x and y of one shape whose dim `axis` (9, Paddle's default: the first dim of size 3)
// has size 3; out has that shape.
void CrossInferMeta(const TensorMeta& x, const TensorMeta& y, int32_t axis, TensorMeta* out);

// kron: the ranks aligned right (missing dims 1), out's dims the products of x's and y's.
void KronInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);

// bmm: x [b, m, k] and y [b, k, n], out [b, m, n].
void BmmInferMeta(const TensorMeta& x, const TensorMeta& y, TensorMeta* out);

}  // namespace paddle
