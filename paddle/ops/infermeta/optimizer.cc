#include "paddle/ops/infermeta/optimizer.h"

#include <initializer_list>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

bool Is16BitFloat(DataType dtype) {
  return dtype == DataType::FLOAT16 || dtype == DataType::BFLOAT16;
}

void CheckParam(const TensorMeta& param) {
  PD_CHECK(IsFloating(param.dtype),
           errors::InvalidType("argument 'param' must be a floating-point tensor, received ",
                               DataTypeName(param.dtype)));
}

void CheckLikeParam(const TensorMeta& param, const TensorMeta& x, const char* name) {
  PD_CHECK(ShapesAgree(x.dims, param.dims),
           errors::InvalidArgument("argument '", name, "' has shape ", x.dims.ToString(),
                                   ", which differs from the shape ", param.dims.ToString(),
                                   " of 'param'"));
}

// The gradient has the param's dtype.
void CheckGrad(const TensorMeta& param, const TensorMeta& grad) {
  CheckLikeParam(param, grad, "grad");
  PD_CHECK(
      grad.dtype == param.dtype,
      errors::InvalidType("argument 'grad' must have the dtype of 'param' (",
                          DataTypeName(param.dtype), "), received ", DataTypeName(grad.dtype)));
}

// Optimizer state (moments, velocity): the param's shape, and its dtype or, for a 16-bit param,
// float32.
void CheckState(const TensorMeta& param, const TensorMeta& state, const char* name) {
  CheckLikeParam(param, state, name);
  bool ok =
      state.dtype == param.dtype || (Is16BitFloat(param.dtype) && state.dtype == DataType::FLOAT32);
  PD_CHECK(ok, errors::InvalidType("argument '", name, "' must have the dtype of 'param' (",
                                   DataTypeName(param.dtype),
                                   Is16BitFloat(param.dtype) ? " or float32" : "", "), received ",
                                   DataTypeName(state.dtype)));
}

// learning_rate, beta1_pow, beta2_pow: one floating-point element.
void CheckScalarTensor(const TensorMeta& x, const char* name) {
  PD_CHECK(MayHoldOneElement(x.dims),
           errors::InvalidArgument("argument '", name, "' must hold one element, received shape ",
                                   x.dims.ToString()));
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidType("argument '", name, "' must be floating-point, received ",
                               DataTypeName(x.dtype)));
}

// The float32 copy a 16-bit param is updated from (for other dtypes: the param's dtype).
void CheckMasterParam(const TensorMeta& param, const TensorMeta* master_param,
                      TensorMeta* master_param_out) {
  if (master_param == nullptr) return;
  CheckLikeParam(param, *master_param, "master_param");
  DataType want = Is16BitFloat(param.dtype) ? DataType::FLOAT32 : param.dtype;
  PD_CHECK(master_param->dtype == want,
           errors::InvalidType("argument 'master_param' must be ", DataTypeName(want), " for a ",
                               DataTypeName(param.dtype), " param, received ",
                               DataTypeName(master_param->dtype)));
  *master_param_out = *master_param;
}

// The optional flag that makes Adam-family updates leave everything unchanged.
void CheckSkipUpdate(const TensorMeta* skip_update) {
  if (skip_update == nullptr) return;
  PD_CHECK(MayHoldOneElement(skip_update->dims) && skip_update->dtype == DataType::BOOL,
           errors::InvalidArgument("argument 'skip_update' must be a bool tensor of one "
                                   "element, received ",
                                   DataTypeName(skip_update->dtype), " of shape ",
                                   skip_update->dims.ToString()));
}

// Several states updated together: each one as CheckState, and all of one dtype (the kernel
// reads them as one type).
void CheckStates(const TensorMeta& param, std::initializer_list<const TensorMeta*> states,
                 std::initializer_list<const char*> names) {
  const TensorMeta* first = *states.begin();
  const char* first_name = *names.begin();
  auto name = names.begin();
  for (const TensorMeta* state : states) {
    CheckState(param, *state, *name);
    PD_CHECK(state->dtype == first->dtype,
             errors::InvalidType("argument '", *name, "' must have the dtype of '", first_name,
                                 "' (", DataTypeName(first->dtype), "), received ",
                                 DataTypeName(state->dtype)));
    ++name;
  }
}

// A tensor of `count` real elements (rprop's learning_rate_range and etas, asgd's n).
void CheckSmallTensor(const TensorMeta& x, int64_t count, const char* name) {
  int64_t numel = KnownNumel(x.dims);
  PD_CHECK(numel == count || IsUnknown(numel),
           errors::InvalidArgument("argument '", name, "' must hold ", count,
                                   count == 1 ? " element" : " elements", ", received shape ",
                                   x.dims.ToString()));
  PD_CHECK(IsFloating(x.dtype) || IsInteger(x.dtype),
           errors::InvalidType("argument '", name, "' must be a real number tensor, received ",
                               DataTypeName(x.dtype)));
}

}  // namespace

void SgdInferMeta(const TensorMeta& param, const TensorMeta& learning_rate, const TensorMeta& grad,
                  const TensorMeta* master_param, TensorMeta* param_out,
                  TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
}

void MomentumInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& velocity,
                       const TensorMeta& learning_rate, const TensorMeta* master_param,
                       const std::string& regularization_method, TensorMeta* param_out,
                       TensorMeta* velocity_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckState(param, velocity, "velocity");
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckMasterParam(param, master_param, master_param_out);
  PD_CHECK(regularization_method.empty() || regularization_method == "l2_decay",
           errors::InvalidArgument("argument 'regularization_method' must be \"\" or "
                                   "\"l2_decay\", received \"",
                                   regularization_method, "\""));
  *param_out = param;
  *velocity_out = velocity;
}

void AdagradInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& moment,
                      const TensorMeta& learning_rate, const TensorMeta* master_param,
                      TensorMeta* param_out, TensorMeta* moment_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckState(param, moment, "moment");
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *moment_out = moment;
}

void AdamInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& moment1, const TensorMeta& moment2,
                   const TensorMeta* moment2_max, const TensorMeta& beta1_pow,
                   const TensorMeta& beta2_pow, const TensorMeta* master_param,
                   const TensorMeta* skip_update, bool amsgrad, TensorMeta* param_out,
                   TensorMeta* moment1_out, TensorMeta* moment2_out, TensorMeta* moment2_max_out,
                   TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                   TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckState(param, moment1, "moment1");
  CheckState(param, moment2, "moment2");
  PD_CHECK(moment1.dtype == moment2.dtype,
           errors::InvalidType("arguments 'moment1' and 'moment2' must have one dtype, received ",
                               DataTypeName(moment1.dtype), " and ", DataTypeName(moment2.dtype)));
  if (moment2_max != nullptr) {
    CheckState(param, *moment2_max, "moment2_max");
    PD_CHECK(moment2_max->dtype == moment2.dtype,
             errors::InvalidType("argument 'moment2_max' must have the dtype of 'moment2' (",
                                 DataTypeName(moment2.dtype), "), received ",
                                 DataTypeName(moment2_max->dtype)));
    *moment2_max_out = *moment2_max;
  }
  PD_CHECK(!amsgrad || moment2_max != nullptr,
           errors::InvalidArgument("amsgrad=True needs the argument 'moment2_max'"));
  CheckScalarTensor(beta1_pow, "beta1_pow");
  CheckScalarTensor(beta2_pow, "beta2_pow");
  CheckMasterParam(param, master_param, master_param_out);
  CheckSkipUpdate(skip_update);
  *param_out = param;
  *moment1_out = moment1;
  *moment2_out = moment2;
  *beta1_pow_out = beta1_pow;
  *beta2_pow_out = beta2_pow;
}

void AdadeltaInferMeta(const TensorMeta& param, const TensorMeta& grad,
                       const TensorMeta& avg_squared_grad, const TensorMeta& avg_squared_update,
                       const TensorMeta& learning_rate, const TensorMeta* master_param,
                       TensorMeta* param_out, TensorMeta* avg_squared_grad_out,
                       TensorMeta* avg_squared_update_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckStates(param, {&avg_squared_grad, &avg_squared_update},
              {"avg_squared_grad", "avg_squared_update"});
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *avg_squared_grad_out = avg_squared_grad;
  *avg_squared_update_out = avg_squared_update;
}

void AdamaxInferMeta(const TensorMeta& param, const TensorMeta& grad,
                     const TensorMeta& learning_rate, const TensorMeta& moment,
                     const TensorMeta& inf_norm, const TensorMeta& beta1_pow,
                     const TensorMeta* master_param, TensorMeta* param_out, TensorMeta* moment_out,
                     TensorMeta* inf_norm_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckStates(param, {&moment, &inf_norm}, {"moment", "inf_norm"});
  CheckScalarTensor(beta1_pow, "beta1_pow");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *moment_out = moment;
  *inf_norm_out = inf_norm;
}

void RmspropInferMeta(const TensorMeta& param, const TensorMeta& mean_square,
                      const TensorMeta& grad, const TensorMeta& moment,
                      const TensorMeta& learning_rate, const TensorMeta* mean_grad,
                      const TensorMeta* master_param, bool centered, TensorMeta* param_out,
                      TensorMeta* moment_out, TensorMeta* mean_square_out,
                      TensorMeta* mean_grad_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckStates(param, {&mean_square, &moment}, {"mean_square", "moment"});
  CheckScalarTensor(learning_rate, "learning_rate");
  PD_CHECK(!centered || mean_grad != nullptr,
           errors::InvalidArgument("centered=True needs the argument 'mean_grad'"));
  if (mean_grad != nullptr) {
    CheckStates(param, {&mean_square, mean_grad}, {"mean_square", "mean_grad"});
    *mean_grad_out = *mean_grad;
  }
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *moment_out = moment;
  *mean_square_out = mean_square;
}

void LambInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& moment1, const TensorMeta& moment2,
                   const TensorMeta& beta1_pow, const TensorMeta& beta2_pow,
                   const TensorMeta* master_param, const TensorMeta* skip_update,
                   TensorMeta* param_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                   TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                   TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckStates(param, {&moment1, &moment2}, {"moment1", "moment2"});
  CheckScalarTensor(beta1_pow, "beta1_pow");
  CheckScalarTensor(beta2_pow, "beta2_pow");
  CheckMasterParam(param, master_param, master_param_out);
  CheckSkipUpdate(skip_update);
  *param_out = param;
  *moment1_out = moment1;
  *moment2_out = moment2;
  *beta1_pow_out = beta1_pow;
  *beta2_pow_out = beta2_pow;
}

void NadamInferMeta(const TensorMeta& param, const TensorMeta& grad,
                    const TensorMeta& learning_rate, const TensorMeta& momentum_decay_pow,
                    const TensorMeta& beta2_pow, const TensorMeta& mu_product,
                    const TensorMeta& moment1, const TensorMeta& moment2,
                    const TensorMeta* master_param, TensorMeta* param_out,
                    TensorMeta* momentum_decay_pow_out, TensorMeta* beta2_pow_out,
                    TensorMeta* mu_product_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                    TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckStates(param, {&momentum_decay_pow, &beta2_pow, &mu_product, &moment1, &moment2},
              {"momentum_decay_pow", "beta2_pow", "mu_product", "moment1", "moment2"});
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *momentum_decay_pow_out = momentum_decay_pow;
  *beta2_pow_out = beta2_pow;
  *mu_product_out = mu_product;
  *moment1_out = moment1;
  *moment2_out = moment2;
}

void RadamInferMeta(const TensorMeta& param, const TensorMeta& grad,
                    const TensorMeta& learning_rate, const TensorMeta& beta1_pow,
                    const TensorMeta& beta2_pow, const TensorMeta& rho, const TensorMeta& moment1,
                    const TensorMeta& moment2, const TensorMeta* master_param,
                    TensorMeta* param_out, TensorMeta* beta1_pow_out, TensorMeta* beta2_pow_out,
                    TensorMeta* rho_out, TensorMeta* moment1_out, TensorMeta* moment2_out,
                    TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckStates(param, {&beta1_pow, &beta2_pow, &rho, &moment1, &moment2},
              {"beta1_pow", "beta2_pow", "rho", "moment1", "moment2"});
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *beta1_pow_out = beta1_pow;
  *beta2_pow_out = beta2_pow;
  *rho_out = rho;
  *moment1_out = moment1;
  *moment2_out = moment2;
}

void AsgdInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& learning_rate,
                   const TensorMeta& d, const TensorMeta& y, const TensorMeta& n,
                   const TensorMeta* master_param, TensorMeta* param_out, TensorMeta* d_out,
                   TensorMeta* y_out, TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckScalarTensor(learning_rate, "learning_rate");
  CheckStates(param, {&d, &y}, {"d", "y"});
  CheckSmallTensor(n, 1, "n");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *d_out = d;
  *y_out = y;
}

void RpropInferMeta(const TensorMeta& param, const TensorMeta& grad, const TensorMeta& prev,
                    const TensorMeta& learning_rate, const TensorMeta* master_param,
                    const TensorMeta& learning_rate_range, const TensorMeta& etas,
                    TensorMeta* param_out, TensorMeta* prev_out, TensorMeta* learning_rate_out,
                    TensorMeta* master_param_out) {
  CheckParam(param);
  CheckGrad(param, grad);
  CheckStates(param, {&prev, &learning_rate}, {"prev", "learning_rate"});
  CheckSmallTensor(learning_rate_range, 2, "learning_rate_range");
  CheckSmallTensor(etas, 2, "etas");
  CheckMasterParam(param, master_param, master_param_out);
  *param_out = param;
  *prev_out = prev;
  *learning_rate_out = learning_rate;
}

namespace {

// Raises unless `list` of op `op` has one entry per param (or, where `or_one`/`or_none`, one
// or none).
void CheckListLength(const char* op, const char* name, size_t size, size_t params, bool or_one,
                     bool or_none) {
  bool ok = size == params || (or_one && size == 1) || (or_none && size == 0);
  PD_CHECK(ok, errors::InvalidArgument(
                   op, ": argument '", name, "' must have one entry per param (", params, ")",
                   or_one ? " or one entry" : "", or_none ? " or none" : "", ", received ", size));
}

}  // namespace

void MergedMomentumInferMeta(
    const std::vector<TensorMeta>& param, const std::vector<TensorMeta>& grad,
    const std::vector<TensorMeta>& velocity, const std::vector<TensorMeta>& learning_rate,
    const std::vector<TensorMeta>& master_param,
    const std::vector<std::string>& regularization_method,
    const std::vector<double>& regularization_coeff, std::vector<TensorMeta>* param_out,
    std::vector<TensorMeta>* velocity_out, std::vector<TensorMeta>* master_param_out) {
  const char* op = "merged_momentum";
  const size_t n = param.size();
  CheckListLength(op, "grad", grad.size(), n, false, false);
  CheckListLength(op, "velocity", velocity.size(), n, false, false);
  CheckListLength(op, "learning_rate", learning_rate.size(), n, true, false);
  CheckListLength(op, "master_param", master_param.size(), n, false, true);
  CheckListLength(op, "regularization_method", regularization_method.size(), n, false, true);
  CheckListLength(op, "regularization_coeff", regularization_coeff.size(), n, false, true);
  param_out->resize(n);
  velocity_out->resize(n);
  master_param_out->resize(master_param.size());
  for (size_t i = 0; i < n; ++i) {
    TensorMeta unused_master_out;
    MomentumInferMeta(
        param[i], grad[i], velocity[i], learning_rate[learning_rate.size() == 1 ? 0 : i],
        master_param.empty() ? nullptr : &master_param[i],
        regularization_method.empty() ? std::string() : regularization_method[i], &(*param_out)[i],
        &(*velocity_out)[i], master_param.empty() ? &unused_master_out : &(*master_param_out)[i]);
  }
}

void MergedAdamInferMeta(
    const std::vector<TensorMeta>& param, const std::vector<TensorMeta>& grad,
    const std::vector<TensorMeta>& learning_rate, const std::vector<TensorMeta>& moment1,
    const std::vector<TensorMeta>& moment2, const std::vector<TensorMeta>& beta1_pow,
    const std::vector<TensorMeta>& beta2_pow, const std::vector<TensorMeta>& master_param,
    std::vector<TensorMeta>* param_out, std::vector<TensorMeta>* moment1_out,
    std::vector<TensorMeta>* moment2_out, std::vector<TensorMeta>* beta1_pow_out,
    std::vector<TensorMeta>* beta2_pow_out, std::vector<TensorMeta>* master_param_out) {
  const char* op = "merged_adam";
  const size_t n = param.size();
  CheckListLength(op, "grad", grad.size(), n, false, false);
  CheckListLength(op, "learning_rate", learning_rate.size(), n, true, false);
  CheckListLength(op, "moment1", moment1.size(), n, false, false);
  CheckListLength(op, "moment2", moment2.size(), n, false, false);
  CheckListLength(op, "beta1_pow", beta1_pow.size(), n, false, false);
  CheckListLength(op, "beta2_pow", beta2_pow.size(), n, false, false);
  CheckListLength(op, "master_param", master_param.size(), n, false, true);
  for (auto* out : {param_out, moment1_out, moment2_out, beta1_pow_out, beta2_pow_out}) {
    out->resize(n);
  }
  master_param_out->resize(master_param.size());
  for (size_t i = 0; i < n; ++i) {
    TensorMeta unused_master_out;
    TensorMeta unused_moment2_max_out;
    AdamInferMeta(param[i], grad[i], learning_rate[learning_rate.size() == 1 ? 0 : i], moment1[i],
                  moment2[i], nullptr, beta1_pow[i], beta2_pow[i],
                  master_param.empty() ? nullptr : &master_param[i], nullptr, false,
                  &(*param_out)[i], &(*moment1_out)[i], &(*moment2_out)[i], &unused_moment2_max_out,
                  &(*beta1_pow_out)[i], &(*beta2_pow_out)[i],
                  master_param.empty() ? &unused_master_out : &(*master_param_out)[i]);
  }
}

}  // namespace paddle
