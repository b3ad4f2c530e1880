// InferMeta of the normalization ops.
#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// layer_norm normalizes over dims [begin_norm_axis, rank): `scale` and `bias` (optional) are 1-D
// of their product; `mean` and `variance` are 1-D of the product of the leading dims, float32
// for 16-bit inputs.
void LayerNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                        float epsilon, int32_t begin_norm_axis, TensorMeta* out, TensorMeta* mean,
                        TensorMeta* variance);

// group_norm: x of rank >= 2 and floating-point, its channels (axis 1 for the NC* data formats,
// the last axis for N*C) divisible by `groups` >= 1; `scale` and `bias` (optional) 1-D of the
// channels, in x's dtype. y takes x's meta; mean and variance are [N, groups], float32 for 16-bit
// x.
void GroupNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                        float epsilon, int32_t groups, const std::string& data_format,
                        TensorMeta* y, TensorMeta* mean, TensorMeta* variance);

// x_grad takes x's meta, scale_grad and bias_grad are 1-D of the channels in x's dtype. mean and
// variance are [N, groups], y_grad has x's shape.
void GroupNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta& mean,
                            const TensorMeta& variance, const TensorMeta& y_grad, float epsilon,
                            int32_t groups, const std::string& data_format, TensorMeta* x_grad,
                            TensorMeta* scale_grad, TensorMeta* bias_grad);

// instance_norm: x 2-D to 5-D, channel first, floating-point; scale and bias (optional) 1-D of the
// channels in x's dtype. y takes x's meta; saved_mean and saved_variance are [N * C], float32 for
// 16-bit x.
void InstanceNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                           float epsilon, TensorMeta* y, TensorMeta* saved_mean,
                           TensorMeta* saved_variance);

void InstanceNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale,
                               const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                               const TensorMeta& y_grad, float epsilon, TensorMeta* x_grad,
                               TensorMeta* scale_grad, TensorMeta* bias_grad);

// lrn: x 3-D to 5-D, floating-point, n >= 1, data_format one of batch_norm's or "AnyLayout"
// (NCHW). out and mid_out take x's meta.
void LrnInferMeta(const TensorMeta& x, int32_t n, float k, float alpha, float beta,
                  const std::string& data_format, TensorMeta* out, TensorMeta* mid_out);

// out, mid_out and out_grad have x's shape; x_grad takes x's meta.
void LrnGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& mid_out,
                      const TensorMeta& out_grad, int32_t n, float alpha, float beta,
                      const std::string& data_format, TensorMeta* x_grad);

// spectral_norm: weight of rank >= 2, floating-point; dim in [0, rank); power_iters >= 0; u 1-D of
// weight's dim `dim` and v 1-D of the product of the others, in weight's dtype. out takes
// weight's meta.
void SpectralNormInferMeta(const TensorMeta& weight, const TensorMeta& u, const TensorMeta& v,
                           int32_t dim, int32_t power_iters, float eps, TensorMeta* out);

void SpectralNormGradInferMeta(const TensorMeta& weight, const TensorMeta& u, const TensorMeta& v,
                               const TensorMeta& out_grad, int32_t dim, int32_t power_iters,
                               float eps, TensorMeta* weight_grad);

}  // namespace paddle
