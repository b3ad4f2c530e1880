// CPU kernels of the pooling ops. Each resolves its attributes into a PoolGeometry
// (funcs/pool_geometry.h) and runs the routines of funcs/pool_compute.h: oneDNN for float
// max/average pooling, loops for the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/pool_compute.h"
#include "paddle/kernels/funcs/pool_geometry.h"

namespace paddle {

namespace pool_detail {

// The spatial rank comes from x: the InferMeta of each op has already checked that it is the
// op's.
inline int SpatialRank(const DenseTensor& x) { return x.dims().size() - 2; }

inline const char* PoolOp(int rank) { return rank == 2 ? "pool2d" : "pool3d"; }

inline funcs::PoolGeometry Geometry(const char* op, const DenseTensor& x,
                                    const funcs::PoolAttrs& attrs) {
  return funcs::PoolingGeometry(op, x.dims(), SpatialRank(x), attrs);
}

}  // namespace pool_detail

template <typename T, typename Context>
void PoolKernel(const Context& ctx, const DenseTensor& x, const std::vector<int>& kernel_size,
                const std::vector<int>& strides, const std::vector<int>& paddings, bool ceil_mode,
                bool exclusive, const std::string& data_format, const std::string& pooling_type,
                bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                DenseTensor* out) {
  const char* op = pool_detail::PoolOp(pool_detail::SpatialRank(x));
  funcs::PoolGeometry g =
      pool_detail::Geometry(op, x,
                            {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                             adaptive, padding_algorithm});
  funcs::PoolMode mode = funcs::ParsePoolMode(op, pooling_type, exclusive, adaptive);
  T* y = ctx.template Alloc<T>(out);
  if (out->numel() > 0) funcs::PoolForward<T>(g, mode, x.data<T>(), y);
}

template <typename T, typename Context>
void PoolGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& out,
                    const DenseTensor& out_grad, const std::vector<int>& kernel_size,
                    const std::vector<int>& strides, const std::vector<int>& paddings,
                    bool ceil_mode, bool exclusive, const std::string& data_format,
                    const std::string& pooling_type, bool global_pooling, bool adaptive,
                    const std::string& padding_algorithm, DenseTensor* x_grad) {
  const char* op = pool_detail::SpatialRank(x) == 2 ? "pool2d_grad" : "pool3d_grad";
  funcs::PoolGeometry g =
      pool_detail::Geometry(op, x,
                            {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                             adaptive, padding_algorithm});
  funcs::PoolMode mode = funcs::ParsePoolMode(op, pooling_type, exclusive, adaptive);
  T* dx = ctx.template Alloc<T>(x_grad);
  if (x_grad->numel() > 0)
    funcs::PoolBackward<T>(g, mode, x.data<T>(), out.data<T>(), out_grad.data<T>(), dx);
}

// The gradient of PoolGradKernel in out_grad applied to grad_x_grad: the pooling itself for an
// average, the value at each window's first maximum of x for max pooling.
template <typename T, typename Context>
void PoolDoubleGradKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& grad_x_grad,
                          const std::vector<int>& kernel_size, const std::vector<int>& strides,
                          const std::vector<int>& paddings, bool ceil_mode, bool exclusive,
                          const std::string& data_format, const std::string& pooling_type,
                          bool global_pooling, bool adaptive, const std::string& padding_algorithm,
                          DenseTensor* grad_out_grad) {
  const char* op = pool_detail::SpatialRank(x) == 2 ? "pool2d_double_grad" : "pool3d_double_grad";
  funcs::PoolGeometry g =
      pool_detail::Geometry(op, x,
                            {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                             adaptive, padding_algorithm});
  funcs::PoolMode mode = funcs::ParsePoolMode(op, pooling_type, exclusive, adaptive);
  T* y = ctx.template Alloc<T>(grad_out_grad);
  if (grad_out_grad->numel() == 0) return;
  if (mode == funcs::PoolMode::kMax) {
    funcs::MaxPoolSelect<T>(g, x.data<T>(), grad_x_grad.data<T>(), y);
  } else {
    funcs::PoolForward<T>(g, mode, grad_x_grad.data<T>(), y);
  }
}

// Paddle's LPPool: norm_type is the power; pooling_type and exclusive do not change it (the sum
// runs over the window's input elements).
template <typename T, typename Context>
void LpPool2dKernel(const Context& ctx, const DenseTensor& x, const std::vector<int>& kernel_size,
                    const std::vector<int>& strides, const std::vector<int>& paddings,
                    bool ceil_mode, bool exclusive, const std::string& data_format,
                    const std::string& pooling_type, bool global_pooling, bool adaptive,
                    const std::string& padding_algorithm, float norm_type, DenseTensor* out) {
  funcs::PoolGeometry g =
      pool_detail::Geometry("lp_pool2d", x,
                            {kernel_size, strides, paddings, ceil_mode, data_format, global_pooling,
                             adaptive, padding_algorithm});
  T* y = ctx.template Alloc<T>(out);
  if (out->numel() > 0) funcs::LpPoolForward<T>(g, norm_type, x.data<T>(), y);
}

template <typename T, typename Context>
void MaxPoolWithIndexKernel(const Context& ctx, const DenseTensor& x,
                            const std::vector<int>& kernel_size, const std::vector<int>& strides,
                            const std::vector<int>& paddings, bool global_pooling, bool adaptive,
                            bool ceil_mode, DenseTensor* out, DenseTensor* mask) {
  const int rank = pool_detail::SpatialRank(x);
  const std::string format = rank == 2 ? "NCHW" : "NCDHW";
  const std::string algorithm = "EXPLICIT";
  funcs::PoolGeometry g = pool_detail::Geometry(
      rank == 2 ? "max_pool2d_with_index" : "max_pool3d_with_index", x,
      {kernel_size, strides, paddings, ceil_mode, format, global_pooling, adaptive, algorithm});
  T* y = ctx.template Alloc<T>(out);
  int32_t* m = ctx.template Alloc<int32_t>(mask);
  if (out->numel() > 0) funcs::MaxPoolWithIndex<T>(g, x.data<T>(), y, m);
}

template <typename T, typename Context>
void UnpoolKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& indices,
                  const std::vector<int>& ksize, const std::vector<int>& strides,
                  const std::vector<int>& paddings, const std::vector<int>& output_size,
                  const std::string& data_format, DenseTensor* out) {
  const int rank = pool_detail::SpatialRank(x);
  const char* op = rank == 2 ? "unpool" : "unpool3d";
  funcs::UnpoolGeometry g = funcs::UnpoolingGeometry(op, x.dims(), indices.dims(), rank, ksize,
                                                     strides, paddings, output_size, data_format);
  T* y = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  if (indices.dtype() == DataType::INT64) {
    funcs::Unpool<T, int64_t>(op, g, x.data<T>(), indices.data<int64_t>(), y);
  } else {
    funcs::Unpool<T, int32_t>(op, g, x.data<T>(), indices.data<int32_t>(), y);
  }
}

}  // namespace paddle
