// InferMeta of the fused optimizer updates (sgd, momentum, adam, adamw, adagrad). Every output
// takes the meta of the input it is written into; an output whose optional input is absent stays
// undefined (the dispatcher leaves it out). Mismatched shapes and dtypes raise naming the argument.
#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

void SgdInferMeta(const TensorMeta& param, const TensorMeta& learning_rate, const TensorMeta& grad,
                  const TensorMeta* master_param, TensorMeta* param_out,
                  TensorMeta* master_param_out);

void MomentumInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& velocity,
                       const TensorMeta& learning_rate, const TensorMeta* master_param,
                       const std::string& regularization_method, TensorMeta* param_out,
                       TensorMeta* velocity_out, TensorMeta* master_param_out);

void AdagradInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& moment,
                      const TensorMeta& learning_rate, const TensorMeta* master_param,
                      TensorMeta* param_out, TensorMeta* moment_out, TensorMeta* master_param_out);

// Shared by adam and adamw.
void AdamInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& moment1, const TensorMeta& moment2,
                   const TensorMeta* moment2_max, const TensorMeta& beta1_pow,
                   const TensorMeta& beta2_pow, const TensorMeta* master_param,
                   const TensorMeta* skip_update, bool amsgrad, TensorMeta* param_out,
                   TensorMeta* moment1_out, TensorMeta* moment2_out, TensorMeta* moment2_max_out,
                   TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                   TensorMeta* master_param_out);

}  // namespace paddle
