// InferMeta of the ops that build complex numbers and take them apart.
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// complex(real, imag): both float32 or both float64, broadcast; out is complex64/complex128.
void ComplexInferMeta(const TensorMeta& real, const TensorMeta& imag, TensorMeta* out);
// real/imag: x complex; out has x's shape and the dtype of its parts.
void ComplexPartInferMeta(const TensorMeta& x, TensorMeta* out);
// abs/angle: out has x's shape, and the dtype of x's parts where x is complex.
void ComplexToRealInferMeta(const TensorMeta& x, TensorMeta* out);
// angle_grad: out_grad has x's shape and the dtype of x's parts; x_grad is x's meta.
void AngleGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad, TensorMeta* x_grad);
// as_real: x complex of shape [...]; out real of shape [..., 2].
void AsRealInferMeta(const TensorMeta& x, TensorMeta* out);
// as_complex: x float32/float64 of shape [..., 2]; out complex of shape [...].
void AsComplexInferMeta(const TensorMeta& x, TensorMeta* out);

}  // namespace paddle
