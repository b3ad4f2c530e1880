// InferMeta of batch_norm and its fused gradient.
#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// x is 2-D to 5-D and floating-point; mean, variance and the optional scale and bias are 1-D with
// one element per channel, in x's dtype (or float32 for a 16-bit x). mean_out and variance_out
// take the meta of mean and variance, saved_mean and saved_variance that of mean, and
// reserve_space is an empty uint8 tensor.
void BatchNormInferMeta(const TensorMeta& x, const TensorMeta& mean, const TensorMeta& variance,
                        const TensorMeta* scale, const TensorMeta* bias,
                        const std::string& data_format, TensorMeta* out, TensorMeta* mean_out,
                        TensorMeta* variance_out, TensorMeta* saved_mean,
                        TensorMeta* saved_variance, TensorMeta* reserve_space);

// x_grad takes x's meta; scale_grad and bias_grad are 1-D per channel in the dtype of scale (or
// of saved_mean when there is no scale).
void BatchNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale,
                            const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                            const TensorMeta& out_grad, const std::string& data_format,
                            bool use_global_stats, TensorMeta* x_grad, TensorMeta* scale_grad,
                            TensorMeta* bias_grad);

// batch_norm's meta with the channels on x's last axis (NHWC); act_type must be "relu".
void FusedBatchNormActInferMeta(const TensorMeta& x, const TensorMeta& scale,
                                const TensorMeta& bias, const TensorMeta& mean,
                                const TensorMeta& variance, float momentum, float epsilon,
                                const std::string& act_type, TensorMeta* out, TensorMeta* mean_out,
                                TensorMeta* variance_out, TensorMeta* saved_mean,
                                TensorMeta* saved_variance, TensorMeta* reserve_space);

// x_grad takes x's meta; out and out_grad have x's shape; scale_grad and bias_grad scale's.
void FusedBatchNormActGradInferMeta(const TensorMeta& x, const TensorMeta& scale,
                                    const TensorMeta& bias, const TensorMeta& out,
                                    const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                                    const TensorMeta& reserve_space, const TensorMeta& out_grad,
                                    float momentum, float epsilon, const std::string& act_type,
                                    TensorMeta* x_grad, TensorMeta* scale_grad,
                                    TensorMeta* bias_grad);

}  // namespace paddle
