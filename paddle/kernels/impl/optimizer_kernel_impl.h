// The fused optimizer updates (sgd, momentum, adam, adamw), shared by the CPU
// (cpu/optimizer_kernels.h) and CUDA (gpu/optimizer_kernels.cuh) registrations. One pass over
// the parameter per call; every formula is Paddle's:
//   sgd:      p -= lr * g
//   momentum: g = rescale_grad * g (+ regularization_coeff * p for "l2_decay")
//             v = mu * v + g;  p -= lr * (g + mu * v) with use_nesterov, else p -= lr * v
//   adam:     m1 = b1 * m1 + (1 - b1) * g;  m2 = b2 * m2 + (1 - b2) * g^2
//             (amsgrad: m2_max = max(m2_max, m2), used in place of m2 below)
//             lr_t = lr * sqrt(1 - b2pow) / (1 - b1pow)
//             p -= lr_t * m1 / (sqrt(m2) + epsilon * sqrt(1 - b2pow));  b1pow *= b1;  b2pow *= b2
//   adamw:    p *= 1 - lr * lr_ratio * coeff (with_decay), then adam at lr * lr_ratio
// Arithmetic is in MathType<T> (float for the 16-bit types); the per-step scalars (bias
// corrections, decay factor) in double. Moments and velocity ("state", S) have the param's dtype
// or, for 16-bit params, float32; a master_param (float32 copy of a 16-bit param) is updated in
// its place and written back rounded to the param. learning_rate and the beta powers are read
// where the kernel runs (on the GPU: inside the kernel, no host sync), in any floating dtype.
//
// The including file defines the device's engine after this header: RunSgd, RunMomentum and
// RunAdam in paddle::funcs, overloaded on its context and taking the argument structs below
// (called unqualified, so argument-dependent lookup finds them where the kernels are registered).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/math_type.h"

namespace paddle {
namespace funcs {

// A one-element tensor of any floating dtype, read on the device that holds it.
struct ScalarRef {
  const void* data;
  DataType dtype;
};

template <typename MT>
PD_HOSTDEVICE inline MT LoadScalar(ScalarRef s) {
  switch (s.dtype) {
    case DataType::FLOAT16:
      return static_cast<MT>(static_cast<float>(*static_cast<const float16*>(s.data)));
    case DataType::BFLOAT16:
      return static_cast<MT>(static_cast<float>(*static_cast<const bfloat16*>(s.data)));
    case DataType::FLOAT32:
      return static_cast<MT>(*static_cast<const float*>(s.data));
    default:
      return static_cast<MT>(*static_cast<const double*>(s.data));
  }
}

PD_HOSTDEVICE inline void StoreScalar(void* data, DataType dtype, double value) {
  switch (dtype) {
    case DataType::FLOAT16:
      *static_cast<float16*>(data) = float16(static_cast<float>(value));
      break;
    case DataType::BFLOAT16:
      *static_cast<bfloat16*>(data) = bfloat16(static_cast<float>(value));
      break;
    case DataType::FLOAT32:
      *static_cast<float*>(data) = static_cast<float>(value);
      break;
    default:
      *static_cast<double*>(data) = value;
  }
}

template <typename T, typename MT>
struct SgdArgs {
  const T* param;
  const T* grad;
  const MT* master_param;  // null without multi-precision
  T* param_out;
  MT* master_param_out;
  ScalarRef learning_rate;
  int64_t numel;
};

template <typename T, typename MT>
PD_HOSTDEVICE inline void SgdElement(const SgdArgs<T, MT>& a, MT lr, int64_t i) {
  MT p = a.master_param ? a.master_param[i] : static_cast<MT>(a.param[i]);
  p -= lr * static_cast<MT>(a.grad[i]);
  a.param_out[i] = static_cast<T>(p);
  if (a.master_param_out) a.master_param_out[i] = p;
}

template <typename T, typename S, typename MT>
struct MomentumArgs {
  const T* param;
  const T* grad;
  const S* velocity;
  const MT* master_param;
  T* param_out;
  S* velocity_out;
  MT* master_param_out;
  ScalarRef learning_rate;
  MT mu;
  MT regularization_coeff;
  MT rescale_grad;
  bool use_nesterov;
  bool l2_decay;  // regularization_method == "l2_decay"
  int64_t numel;
};

// The momentum update of one element's values: updates p and v.
template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline void MomentumMath(const MomentumArgs<T, S, MT>& a, MT lr, MT g, MT& p, MT& v) {
  g *= a.rescale_grad;
  if (a.l2_decay) g += a.regularization_coeff * p;
  v = a.mu * v + g;
  p -= a.use_nesterov ? lr * (g + a.mu * v) : lr * v;
}

template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline void MomentumElement(const MomentumArgs<T, S, MT>& a, MT lr, int64_t i) {
  MT p = a.master_param ? a.master_param[i] : static_cast<MT>(a.param[i]);
  MT v = static_cast<MT>(a.velocity[i]);
  MomentumMath(a, lr, static_cast<MT>(a.grad[i]), p, v);
  a.velocity_out[i] = static_cast<S>(v);
  a.param_out[i] = static_cast<T>(p);
  if (a.master_param_out) a.master_param_out[i] = p;
}

template <typename T, typename S, typename MT>
struct AdamArgs {
  const T* param;
  const T* grad;
  const S* moment1;
  const S* moment2;
  const S* moment2_max;  // null when not given
  const MT* master_param;
  T* param_out;
  S* moment1_out;
  S* moment2_out;
  S* moment2_max_out;  // null when absent or written in place without amsgrad
  MT* master_param_out;
  ScalarRef learning_rate;
  ScalarRef beta1_pow;
  ScalarRef beta2_pow;
  void* beta1_pow_out;
  void* beta2_pow_out;
  const bool* skip_update;  // null when not given
  double beta1;
  double beta2;
  double epsilon;
  double lr_ratio;  // adamw; 1 for adam
  double coeff;     // adamw decoupled decay; 0 for adam
  bool with_decay;
  bool amsgrad;
  bool update_beta_pow;  // !use_global_beta_pow
  int64_t numel;
};

// The per-step scalars of one Adam update.
template <typename MT>
struct AdamStep {
  MT lr_t;   // lr * sqrt(1 - b2pow) / (1 - b1pow)
  MT eps_t;  // epsilon * sqrt(1 - b2pow)
  MT decay;  // 1 - lr * coeff (adamw with_decay), else 1
  MT beta1;
  MT beta2;
};

template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline AdamStep<MT> MakeAdamStep(const AdamArgs<T, S, MT>& a) {
  double lr = LoadScalar<double>(a.learning_rate) * a.lr_ratio;
  double b1p = LoadScalar<double>(a.beta1_pow);
  double b2p = LoadScalar<double>(a.beta2_pow);
  double root = std::sqrt(1.0 - b2p);
  return {static_cast<MT>(lr * root / (1.0 - b1p)), static_cast<MT>(a.epsilon * root),
          static_cast<MT>(a.with_decay ? 1.0 - lr * a.coeff : 1.0), static_cast<MT>(a.beta1),
          static_cast<MT>(a.beta2)};
}

// The Adam moments of one element's values: updates m1 and m2.
template <typename MT>
PD_HOSTDEVICE inline void AdamMoments(const AdamStep<MT>& s, MT g, MT& m1, MT& m2) {
  m1 = s.beta1 * m1 + (MT(1) - s.beta1) * g;
  m2 = s.beta2 * m2 + (MT(1) - s.beta2) * g * g;
}

// The updated param value, from the new first moment and the second-moment term v (m2, or its
// running maximum with amsgrad).
template <typename MT>
PD_HOSTDEVICE inline MT AdamParam(const AdamStep<MT>& s, MT p, MT m1, MT v) {
  p *= s.decay;
  return p - s.lr_t * (m1 / (std::sqrt(v) + s.eps_t));
}

template <typename MT>
PD_HOSTDEVICE inline MT Max(MT a, MT b) {
  return a > b ? a : b;
}

template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline void AdamElement(const AdamArgs<T, S, MT>& a, const AdamStep<MT>& s,
                                      int64_t i) {
  MT p = a.master_param ? a.master_param[i] : static_cast<MT>(a.param[i]);
  MT m1 = static_cast<MT>(a.moment1[i]);
  MT m2 = static_cast<MT>(a.moment2[i]);
  AdamMoments(s, static_cast<MT>(a.grad[i]), m1, m2);
  MT v = m2;
  if (a.amsgrad) {
    v = Max(m2, static_cast<MT>(a.moment2_max[i]));
    a.moment2_max_out[i] = static_cast<S>(v);
  } else if (a.moment2_max_out) {
    a.moment2_max_out[i] = a.moment2_max[i];  // given without amsgrad: passed through
  }
  p = AdamParam(s, p, m1, v);
  a.moment1_out[i] = static_cast<S>(m1);
  a.moment2_out[i] = static_cast<S>(m2);
  a.param_out[i] = static_cast<T>(p);
  if (a.master_param_out) a.master_param_out[i] = p;
}

// skip_update: the outputs keep the inputs' values (copied when not written in place).
template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline void AdamKeepElement(const AdamArgs<T, S, MT>& a, int64_t i) {
  a.param_out[i] = a.param[i];
  a.moment1_out[i] = a.moment1[i];
  a.moment2_out[i] = a.moment2[i];
  if (a.moment2_max_out) a.moment2_max_out[i] = a.moment2_max[i];
  if (a.master_param_out) a.master_param_out[i] = a.master_param[i];
}

// After the elementwise pass (which read the old powers): b1pow *= beta1, b2pow *= beta2, unless
// the update was skipped or use_global_beta_pow; then the powers are kept (copied).
template <typename T, typename S, typename MT>
PD_HOSTDEVICE inline void AdamUpdateBetaPow(const AdamArgs<T, S, MT>& a) {
  bool advance = a.update_beta_pow && !(a.skip_update && *a.skip_update);
  double b1p = LoadScalar<double>(a.beta1_pow);
  double b2p = LoadScalar<double>(a.beta2_pow);
  StoreScalar(a.beta1_pow_out, a.beta1_pow.dtype, advance ? b1p * a.beta1 : b1p);
  StoreScalar(a.beta2_pow_out, a.beta2_pow.dtype, advance ? b2p * a.beta2 : b2p);
}

}  // namespace funcs

namespace detail {

template <typename T>
struct StateTag {
  using type = T;
};

// Calls fn(StateTag<S>) with S the dtype of the optimizer state: T, or float32 for 16-bit T
// (InferMeta has checked it is one of the two).
template <typename T, typename Fn>
void VisitStateType(DataType state_dtype, Fn&& fn) {
  if constexpr (std::is_same_v<T, MathType<T>>) {
    fn(StateTag<T>{});
  } else {
    if (state_dtype == kDataTypeOf<T>) {
      fn(StateTag<T>{});
    } else {
      fn(StateTag<MathType<T>>{});
    }
  }
}

inline funcs::ScalarRef ScalarOf(const DenseTensor& t) { return {t.raw_data(), t.dtype()}; }

template <typename MT>
const MT* MasterData(const DenseTensor* master_param) {
  return master_param ? master_param->data<MT>() : nullptr;
}

template <typename MT, typename Context>
MT* MasterOut(const Context& ctx, const DenseTensor* master_param, DenseTensor* master_param_out) {
  return master_param && master_param_out ? ctx.template Alloc<MT>(master_param_out) : nullptr;
}

}  // namespace detail

template <typename T, typename Context>
void SgdKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& learning_rate,
               const DenseTensor& grad, const DenseTensor* master_param, bool multi_precision,
               DenseTensor* param_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  funcs::SgdArgs<T, MT> a;
  a.param = param.data<T>();
  a.grad = grad.data<T>();
  a.master_param = detail::MasterData<MT>(master_param);
  a.param_out = ctx.template Alloc<T>(param_out);
  a.master_param_out = detail::MasterOut<MT>(ctx, master_param, master_param_out);
  a.learning_rate = detail::ScalarOf(learning_rate);
  a.numel = param.numel();
  RunSgd(ctx, a);
}

template <typename T, typename Context>
void MomentumKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                    const DenseTensor& velocity, const DenseTensor& learning_rate,
                    const DenseTensor* master_param, double mu, bool use_nesterov,
                    const std::string& regularization_method, double regularization_coeff,
                    bool multi_precision, double rescale_grad, DenseTensor* param_out,
                    DenseTensor* velocity_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(velocity.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    funcs::MomentumArgs<T, S, MT> a;
    a.param = param.data<T>();
    a.grad = grad.data<T>();
    a.velocity = velocity.data<S>();
    a.master_param = detail::MasterData<MT>(master_param);
    a.param_out = ctx.template Alloc<T>(param_out);
    a.velocity_out = ctx.template Alloc<S>(velocity_out);
    a.master_param_out = detail::MasterOut<MT>(ctx, master_param, master_param_out);
    a.learning_rate = detail::ScalarOf(learning_rate);
    a.mu = static_cast<MT>(mu);
    a.l2_decay = regularization_method == "l2_decay";
    a.regularization_coeff = static_cast<MT>(regularization_coeff);
    a.rescale_grad = static_cast<MT>(rescale_grad);
    a.use_nesterov = use_nesterov;
    a.numel = param.numel();
    RunMomentum(ctx, a);
  });
}

template <typename T, typename Context>
void AdamwKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                 const DenseTensor& learning_rate, const DenseTensor& moment1,
                 const DenseTensor& moment2, const DenseTensor* moment2_max,
                 const DenseTensor& beta1_pow, const DenseTensor& beta2_pow,
                 const DenseTensor* master_param, const DenseTensor* skip_update,
                 const Scalar& beta1, const Scalar& beta2, const Scalar& epsilon, double lr_ratio,
                 double coeff, bool with_decay, bool lazy_mode,
                 int64_t min_row_size_to_use_multithread, bool multi_precision,
                 bool use_global_beta_pow, bool amsgrad, DenseTensor* param_out,
                 DenseTensor* moment1_out, DenseTensor* moment2_out, DenseTensor* moment2_max_out,
                 DenseTensor* beta1_pow_out, DenseTensor* beta2_pow_out,
                 DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(moment1.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    funcs::AdamArgs<T, S, MT> a;
    a.param = param.data<T>();
    a.grad = grad.data<T>();
    a.moment1 = moment1.data<S>();
    a.moment2 = moment2.data<S>();
    a.moment2_max = moment2_max ? moment2_max->data<S>() : nullptr;
    a.master_param = detail::MasterData<MT>(master_param);
    a.param_out = ctx.template Alloc<T>(param_out);
    a.moment1_out = ctx.template Alloc<S>(moment1_out);
    a.moment2_out = ctx.template Alloc<S>(moment2_out);
    a.moment2_max_out =
        moment2_max && moment2_max_out ? ctx.template Alloc<S>(moment2_max_out) : nullptr;
    // Without amsgrad a moment2_max written in place needs no pass at all.
    if (!amsgrad && a.moment2_max_out == a.moment2_max) a.moment2_max_out = nullptr;
    a.master_param_out = detail::MasterOut<MT>(ctx, master_param, master_param_out);
    a.learning_rate = detail::ScalarOf(learning_rate);
    a.beta1_pow = detail::ScalarOf(beta1_pow);
    a.beta2_pow = detail::ScalarOf(beta2_pow);
    a.beta1_pow_out = ctx.Alloc(beta1_pow_out, beta1_pow.dtype());
    a.beta2_pow_out = ctx.Alloc(beta2_pow_out, beta2_pow.dtype());
    a.skip_update = skip_update ? skip_update->data<bool>() : nullptr;
    a.beta1 = beta1.to<double>();
    a.beta2 = beta2.to<double>();
    a.epsilon = epsilon.to<double>();
    a.lr_ratio = lr_ratio;
    a.coeff = coeff;
    a.with_decay = with_decay;
    a.amsgrad = amsgrad;  // InferMeta has checked that moment2_max is given
    a.update_beta_pow = !use_global_beta_pow;
    a.numel = param.numel();
    RunAdam(ctx, a);
  });
}

template <typename T, typename Context>
void AdamKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                const DenseTensor& learning_rate, const DenseTensor& moment1,
                const DenseTensor& moment2, const DenseTensor* moment2_max,
                const DenseTensor& beta1_pow, const DenseTensor& beta2_pow,
                const DenseTensor* master_param, const DenseTensor* skip_update,
                const Scalar& beta1, const Scalar& beta2, const Scalar& epsilon, bool lazy_mode,
                int64_t min_row_size_to_use_multithread, bool multi_precision,
                bool use_global_beta_pow, bool amsgrad, DenseTensor* param_out,
                DenseTensor* moment1_out, DenseTensor* moment2_out, DenseTensor* moment2_max_out,
                DenseTensor* beta1_pow_out, DenseTensor* beta2_pow_out,
                DenseTensor* master_param_out) {
  AdamwKernel<T, Context>(ctx, param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow,
                          beta2_pow, master_param, skip_update, beta1, beta2, epsilon, 1.0, 0.0,
                          false, lazy_mode, min_row_size_to_use_multithread, multi_precision,
                          use_global_beta_pow, amsgrad, param_out, moment1_out, moment2_out,
                          moment2_max_out, beta1_pow_out, beta2_pow_out, master_param_out);
}

}  // namespace paddle
