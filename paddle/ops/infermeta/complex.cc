#include "paddle/ops/infermeta/complex.h"

#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckComplex(const TensorMeta& x, const char* op) {
  PD_CHECK(IsComplex(x.dtype),
           errors::InvalidType(op,
                               ": argument 'x' must be a complex64 or complex128 tensor, "
                               "received ",
                               DataTypeName(x.dtype)));
}

}  // namespace

void ComplexInferMeta(const TensorMeta& real, const TensorMeta& imag, TensorMeta* out) {
  PD_CHECK(real.dtype == DataType::FLOAT32 || real.dtype == DataType::FLOAT64,
           errors::InvalidType("complex: argument 'real' must be a float32 or float64 tensor, "
                               "received ",
                               DataTypeName(real.dtype)));
  PD_CHECK(imag.dtype == real.dtype,
           errors::InvalidType("complex: argument 'imag' must have the dtype of 'real' (",
                               DataTypeName(real.dtype), "), received ", DataTypeName(imag.dtype)));
  out->dims = funcs::BroadcastShape(real.dims, imag.dims, "");
  out->dtype = ToComplexType(real.dtype);
  out->layout = real.layout;
}

void ComplexPartInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckComplex(x, "real/imag");
  *out = x;
  out->dtype = ToRealType(x.dtype);
}

void ComplexToRealInferMeta(const TensorMeta& x, TensorMeta* out) {
  *out = x;
  out->dtype = ToRealType(x.dtype);
}

void AngleGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad, TensorMeta* x_grad) {
  PD_CHECK(ShapesAgree(out_grad.dims, x.dims),
           errors::InvalidArgument("angle_grad: 'out_grad' must have the shape of 'x' ",
                                   x.dims.ToString(), ", received ", out_grad.dims.ToString()));
  PD_CHECK(out_grad.dtype == ToRealType(x.dtype),
           errors::InvalidType("angle_grad: 'out_grad' must be ", DataTypeName(ToRealType(x.dtype)),
                               " for 'x' of ", DataTypeName(x.dtype), ", received ",
                               DataTypeName(out_grad.dtype)));
  *x_grad = x;
}

void AsRealInferMeta(const TensorMeta& x, TensorMeta* out) {
  CheckComplex(x, "as_real");
  std::vector<int64_t> dims = x.dims.ToVector();
  dims.push_back(2);
  out->dims = DDim(dims);
  out->dtype = ToRealType(x.dtype);
  out->layout = x.layout;
}

void AsComplexInferMeta(const TensorMeta& x, TensorMeta* out) {
  PD_CHECK(x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
           errors::InvalidType("as_complex: argument 'x' must be a float32 or float64 tensor, "
                               "received ",
                               DataTypeName(x.dtype)));
  std::vector<int64_t> dims = x.dims.ToVector();
  PD_CHECK(!dims.empty() && DimsAgree(dims.back(), 2),
           errors::InvalidArgument("as_complex: the last dimension of argument 'x' must be 2 "
                                   "(the real and imaginary parts), received shape ",
                                   x.dims.ToString()));
  dims.pop_back();
  out->dims = DDim(dims);
  out->dtype = ToComplexType(x.dtype);
  out->layout = x.layout;
}

}  // namespace paddle
