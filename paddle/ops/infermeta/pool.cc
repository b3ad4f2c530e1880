#include "paddle/ops/infermeta/pool.h"

#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/pool_geometry.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

using funcs::PoolAttrs;
using funcs::PoolGeometry;

PoolGeometry Forward(const char* op, int rank, const TensorMeta& x, const PoolAttrs& attrs,
                     const std::string& pooling_type, bool exclusive) {
  PoolGeometry g = funcs::PoolingGeometry(op, x.dims, rank, attrs);
  funcs::ParsePoolMode(op, pooling_type, exclusive, attrs.adaptive);
  return g;
}

void CheckShape(const char* op, const char* name, const TensorMeta& t, const DDim& expected,
                const char* what) {
  PD_CHECK(ShapesAgree(t.dims, expected),
           errors::InvalidArgument(op, ": '", name, "' must have ", what, " ", expected.ToString(),
                                   ", received ", t.dims.ToString()));
}

void CheckDtype(const char* op, const char* name, const TensorMeta& t, const TensorMeta& x) {
  PD_CHECK(t.dtype == x.dtype,
           errors::InvalidArgument(op, ": '", name, "' must have the dtype of 'x' (",
                                   DataTypeName(x.dtype), "), received ", DataTypeName(t.dtype)));
}

void Grad(const char* op, int rank, const TensorMeta& x, const TensorMeta& out,
          const TensorMeta& out_grad, const PoolAttrs& attrs, const std::string& pooling_type,
          bool exclusive, TensorMeta* x_grad) {
  PoolGeometry g = Forward(op, rank, x, attrs, pooling_type, exclusive);
  CheckShape(op, "out", out, g.OutputDims(), "the forward output's shape");
  CheckShape(op, "out_grad", out_grad, g.OutputDims(), "the forward output's shape");
  CheckDtype(op, "out", out, x);
  CheckDtype(op, "out_grad", out_grad, x);
  *x_grad = x;
}

void DoubleGrad(const char* op, int rank, const TensorMeta& x, const TensorMeta& grad_x_grad,
                const PoolAttrs& attrs, const std::string& pooling_type, bool exclusive,
                TensorMeta* grad_out_grad) {
  PoolGeometry g = Forward(op, rank, x, attrs, pooling_type, exclusive);
  CheckShape(op, "grad_x_grad", grad_x_grad, x.dims, "the shape of 'x'");
  CheckDtype(op, "grad_x_grad", grad_x_grad, x);
  grad_out_grad->dims = g.OutputDims();
  grad_out_grad->dtype = x.dtype;
}

void WithIndex(const char* op, int rank, const TensorMeta& x,
               const std::vector<int32_t>& kernel_size, const std::vector<int32_t>& strides,
               const std::vector<int32_t>& paddings, bool global_pooling, bool adaptive,
               bool ceil_mode, TensorMeta* out, TensorMeta* mask) {
  const std::string format = rank == 2 ? "NCHW" : "NCDHW";
  const std::string algorithm = "EXPLICIT";
  PoolGeometry g = funcs::PoolingGeometry(
      op, x.dims, rank,
      {kernel_size, strides, paddings, ceil_mode, format, global_pooling, adaptive, algorithm});
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
  mask->dims = g.OutputDims();
  mask->dtype = DataType::INT32;
}

void Unpool(const char* op, int rank, const TensorMeta& x, const TensorMeta& indices,
            const std::vector<int32_t>& ksize, const std::vector<int32_t>& strides,
            const std::vector<int32_t>& paddings, const std::vector<int32_t>& output_size,
            const std::string& data_format, TensorMeta* out) {
  PD_CHECK(indices.dtype == DataType::INT32 || indices.dtype == DataType::INT64,
           errors::InvalidArgument(op, ": 'indices' must be an int32 or int64 tensor, received ",
                                   DataTypeName(indices.dtype)));
  funcs::UnpoolGeometry g = funcs::UnpoolingGeometry(op, x.dims, indices.dims, rank, ksize, strides,
                                                     paddings, output_size, data_format);
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

}  // namespace

void Pool2dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     bool ceil_mode, bool exclusive, const std::string& data_format,
                     const std::string& pooling_type, bool global_pooling, bool adaptive,
                     const std::string& padding_algorithm, TensorMeta* out) {
  PoolGeometry g = Forward("pool2d", 2, x,
                           {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                            adaptive, padding_algorithm},
                           pooling_type, exclusive);
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

void Pool3dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     bool ceil_mode, bool exclusive, const std::string& data_format,
                     const std::string& pooling_type, bool global_pooling, bool adaptive,
                     const std::string& padding_algorithm, TensorMeta* out) {
  PoolGeometry g = Forward("pool3d", 3, x,
                           {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                            adaptive, padding_algorithm},
                           pooling_type, exclusive);
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

void Pool2dGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& out_grad,
                         const std::vector<int32_t>& kernel_size,
                         const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                         bool ceil_mode, bool exclusive, const std::string& data_format,
                         const std::string& pooling_type, bool global_pooling, bool adaptive,
                         const std::string& padding_algorithm, TensorMeta* x_grad) {
  Grad("pool2d_grad", 2, x, out, out_grad,
       {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling, adaptive,
        padding_algorithm},
       pooling_type, exclusive, x_grad);
}

void Pool3dGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& out_grad,
                         const std::vector<int32_t>& kernel_size,
                         const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                         bool ceil_mode, bool exclusive, const std::string& data_format,
                         const std::string& pooling_type, bool global_pooling, bool adaptive,
                         const std::string& padding_algorithm, TensorMeta* x_grad) {
  Grad("pool3d_grad", 3, x, out, out_grad,
       {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling, adaptive,
        padding_algorithm},
       pooling_type, exclusive, x_grad);
}

void Pool2dDoubleGradInferMeta(const TensorMeta& x, const TensorMeta& grad_x_grad,
                               const std::vector<int32_t>& kernel_size,
                               const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings, bool ceil_mode, bool exclusive,
                               const std::string& data_format, const std::string& pooling_type,
                               bool global_pooling, bool adaptive,
                               const std::string& padding_algorithm, TensorMeta* grad_out_grad) {
  DoubleGrad("pool2d_double_grad", 2, x, grad_x_grad,
             {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling, adaptive,
              padding_algorithm},
             pooling_type, exclusive, grad_out_grad);
}

void Pool3dDoubleGradInferMeta(const TensorMeta& x, const TensorMeta& grad_x_grad,
                               const std::vector<int32_t>& kernel_size,
                               const std::vector<int32_t>& strides,
                               const std::vector<int32_t>& paddings, bool ceil_mode, bool exclusive,
                               const std::string& data_format, const std::string& pooling_type,
                               bool global_pooling, bool adaptive,
                               const std::string& padding_algorithm, TensorMeta* grad_out_grad) {
  DoubleGrad("pool3d_double_grad", 3, x, grad_x_grad,
             {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling, adaptive,
              padding_algorithm},
             pooling_type, exclusive, grad_out_grad);
}

void LpPool2dInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                       const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                       bool ceil_mode, bool exclusive, const std::string& data_format,
                       const std::string& pooling_type, bool global_pooling, bool adaptive,
                       const std::string& padding_algorithm, float norm_type, TensorMeta* out) {
  PD_CHECK(std::isfinite(norm_type) && norm_type != 0.0f,
           errors::InvalidArgument("lp_pool2d: 'norm_type' must be finite and non-zero, "
                                   "received ",
                                   norm_type));
  PoolGeometry g = funcs::PoolingGeometry("lp_pool2d", x.dims, 2,
                                          {kernel_size, strides, paddings, ceil_mode, data_format,
                                           global_pooling, adaptive, padding_algorithm});
  out->dims = g.OutputDims();
  out->dtype = x.dtype;
}

void MaxPool2dWithIndexInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                                 const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings, bool global_pooling,
                                 bool adaptive, bool ceil_mode, TensorMeta* out, TensorMeta* mask) {
  WithIndex("max_pool2d_with_index", 2, x, kernel_size, strides, paddings, global_pooling, adaptive,
            ceil_mode, out, mask);
}

void MaxPool3dWithIndexInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_size,
                                 const std::vector<int32_t>& strides,
                                 const std::vector<int32_t>& paddings, bool global_pooling,
                                 bool adaptive, bool ceil_mode, TensorMeta* out, TensorMeta* mask) {
  WithIndex("max_pool3d_with_index", 3, x, kernel_size, strides, paddings, global_pooling, adaptive,
            ceil_mode, out, mask);
}

void UnpoolInferMeta(const TensorMeta& x, const TensorMeta& indices,
                     const std::vector<int32_t>& ksize, const std::vector<int32_t>& strides,
                     const std::vector<int32_t>& padding, const std::vector<int32_t>& output_size,
                     const std::string& data_format, TensorMeta* out) {
  Unpool("unpool", 2, x, indices, ksize, strides, padding, output_size, data_format, out);
}

void Unpool3dInferMeta(const TensorMeta& x, const TensorMeta& indices,
                       const std::vector<int32_t>& ksize, const std::vector<int32_t>& strides,
                       const std::vector<int32_t>& paddings,
                       const std::vector<int32_t>& output_size, const std::string& data_format,
                       TensorMeta* out) {
  Unpool("unpool3d", 3, x, indices, ksize, strides, paddings, output_size, data_format, out);
}

}  // namespace paddle
