// InferMeta of the fused optimizer updates (sgd, momentum, adam, adamw, adagrad, and those of
// optimizer_extra.yaml: adadelta ... rprop). Every output
// takes the meta of the input it is written into; an output whose optional input is absent stays
// undefined (the dispatcher leaves it out). Mismatched shapes and dtypes raise naming the argument.
#pragma once

#include <string>
#include <vector>

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

// merged_momentum and merged_adam: the checks of momentum (adam) for each param, and the
// lists' lengths: one entry per param, learning_rate one or one per param, master_param none
// or one per param.
void MergedMomentumInferMeta(
    const std::vector<TensorMeta>& param, const std::vector<TensorMeta>& grad,
    const std::vector<TensorMeta>& velocity, const std::vector<TensorMeta>& learning_rate,
    const std::vector<TensorMeta>& master_param,
    const std::vector<std::string>& regularization_method,
    const std::vector<double>& regularization_coeff, std::vector<TensorMeta>* param_out,
    std::vector<TensorMeta>* velocity_out, std::vector<TensorMeta>* master_param_out);

void MergedAdamInferMeta(
    const std::vector<TensorMeta>& param, const std::vector<TensorMeta>& grad,
    const std::vector<TensorMeta>& learning_rate, const std::vector<TensorMeta>& moment1,
    const std::vector<TensorMeta>& moment2, const std::vector<TensorMeta>& beta1_pow,
    const std::vector<TensorMeta>& beta2_pow, const std::vector<TensorMeta>& master_param,
    std::vector<TensorMeta>* param_out, std::vector<TensorMeta>* moment1_out,
    std::vector<TensorMeta>* moment2_out, std::vector<TensorMeta>* beta1_pow_out,
    std::vector<TensorMeta>* beta2_pow_out, std::vector<TensorMeta>* master_param_out);

void AdadeltaInferMeta(const TensorMeta& param, const TensorMeta& grad,
                       const TensorMeta& avg_squared_grad, const TensorMeta& avg_squared_update,
                       const TensorMeta& learning_rate, const TensorMeta* master_param,
                       TensorMeta* param_out, TensorMeta* avg_squared_grad_out,
                       TensorMeta* avg_squared_update_out, TensorMeta* master_param_out);

void AdamaxInferMeta(const TensorMeta& param, const TensorMeta& grad,
                     const TensorMeta& learning_rate, const TensorMeta& moment,
                     const TensorMeta& inf_norm, const TensorMeta& beta1_pow,
                     const TensorMeta* master_param, TensorMeta* param_out, TensorMeta* moment_out,
                     TensorMeta* inf_norm_out, TensorMeta* master_param_out);

void RmspropInferMeta(const TensorMeta& param, const TensorMeta& mean_square,
                      const TensorMeta& grad, const TensorMeta& moment,
                      const TensorMeta& learning_rate, const TensorMeta* mean_grad,
                      const TensorMeta* master_param, bool centered, TensorMeta* param_out,
                      TensorMeta* moment_out, TensorMeta* mean_square_out,
                      TensorMeta* mean_grad_out, TensorMeta* master_param_out);

void LambInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& moment1, const TensorMeta& moment2,
                   const TensorMeta& beta1_pow, const TensorMeta& beta2_pow,
                   const TensorMeta* master_param, const TensorMeta* skip_update,
                   TensorMeta* param_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                   TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                   TensorMeta* master_param_out);

void NadamInferMeta(const TensorMeta& param, const TensorMeta& grad,
                    const TensorMeta& learning_rate, const TensorMeta& momentum_decay_pow,
                    const TensorMeta& beta2_pow, const TensorMeta& mu_product,
                    const TensorMeta& moment1, const TensorMeta& moment2,
                    const TensorMeta* master_param, TensorMeta* param_out,
                    TensorMeta* momentum_decay_pow_out, TensorMeta* beta2_pow_out,
                    TensorMeta* mu_product_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                    TensorMeta* master_param_out);

void RadamInferMeta(const TensorMeta& param, const TensorMeta& grad,
                    const TensorMeta& learning_rate, const TensorMeta& beta1_pow,
                    const TensorMeta& beta2_pow, const TensorMeta& rho, const TensorMeta& moment1,
                    const TensorMeta& moment2, const TensorMeta* master_param,
                    TensorMeta* param_out, TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                    TensorMeta* rho_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                    TensorMeta* master_param_out);

void AsgdInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& d, const TensorMeta& y, const TensorMeta& n,
                   const TensorMeta* master_param, TensorMeta* param_out, TensorMeta* d_out,
                   TensorMeta* y_out, TensorMeta* master_param_out);

void RpropInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& prev,
                    const TensorMeta& learning_rate, const TensorMeta* master_param,
                    const TensorMeta& learning_rate_range, const TensorMeta& etas,
                    TensorMeta* param_out, TensorMeta* prev_out, TensorMeta* learning_rate_out,
                    TensorMeta* master_param_out);

}  // namespace paddle
