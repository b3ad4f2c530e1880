// CPU optimizer updates (sgd, momentum, adam, adamw, adagrad): the first four bodies are in
// impl/optimizer_kernel_impl.h; here each is one parallel loop over the parameter, with the
// per-step scalars read once on the host. The common case, an in-place update without master
// weights, has its own loop that reaches each array through one pointer, so the compiler
// vectorizes it (an output that aliases its input defeats the run-time alias check otherwise).
#pragma once

#include <string>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/impl/optimizer_kernel_impl.h"
namespace paddle::funcs {

namespace {

template <typename T, typename MT>
void SgdInPlace(const SgdArgs<T, MT>& a, MT lr, int64_t begin, int64_t end) {
  T* p = a.param_out;
  const T* g = a.grad;
  for (int64_t i = begin; i < end; ++i) {
    p[i] = static_cast<T>(static_cast<MT>(p[i]) - lr * static_cast<MT>(g[i]));
  }
}

template <typename T, typename S, typename MT>
void MomentumInPlace(const MomentumArgs<T, S, MT>& a, MT lr, int64_t begin, int64_t end) {
  T* p = a.param_out;
  S* v = a.velocity_out;
  const T* g = a.grad;
  for (int64_t i = begin; i < end; ++i) {
    MT pi = static_cast<MT>(p[i]);
    MT vi = static_cast<MT>(v[i]);
    MomentumMath(a, lr, static_cast<MT>(g[i]), pi, vi);
    v[i] = static_cast<S>(vi);
    p[i] = static_cast<T>(pi);
  }
}

template <bool kAmsgrad, typename T, typename S, typename MT>
void AdamInPlace(const AdamArgs<T, S, MT>& a, const AdamStep<MT> s, int64_t begin, int64_t end) {
  T* p = a.param_out;
  S* m1 = a.moment1_out;
  S* m2 = a.moment2_out;
  S* m2_max = a.moment2_max_out;
  const T* g = a.grad;
  for (int64_t i = begin; i < end; ++i) {
    MT m1i = static_cast<MT>(m1[i]);
    MT m2i = static_cast<MT>(m2[i]);
    AdamMoments(s, static_cast<MT>(g[i]), m1i, m2i);
    MT v = m2i;
    if constexpr (kAmsgrad) {
      v = Max(m2i, static_cast<MT>(m2_max[i]));
      m2_max[i] = static_cast<S>(v);
    }
    p[i] = static_cast<T>(AdamParam(s, static_cast<MT>(p[i]), m1i, v));
    m1[i] = static_cast<S>(m1i);
    m2[i] = static_cast<S>(m2i);
  }
}

}  // namespace

template <typename T, typename MT>
void RunSgd(const CPUContext&, const SgdArgs<T, MT>& a) {
  MT lr = LoadScalar<MT>(a.learning_rate);
  bool in_place = a.param_out == a.param && a.master_param == nullptr;
  ParallelFor(a.numel, [&](int64_t begin, int64_t end) {
    if (in_place) {
      SgdInPlace(a, lr, begin, end);
    } else {
      for (int64_t i = begin; i < end; ++i) SgdElement(a, lr, i);
    }
  });
}

template <typename T, typename S, typename MT>
void RunMomentum(const CPUContext&, const MomentumArgs<T, S, MT>& a) {
  MT lr = LoadScalar<MT>(a.learning_rate);
  bool in_place =
      a.param_out == a.param && a.velocity_out == a.velocity && a.master_param == nullptr;
  ParallelFor(a.numel, [&](int64_t begin, int64_t end) {
    if (in_place) {
      MomentumInPlace(a, lr, begin, end);
    } else {
      for (int64_t i = begin; i < end; ++i) MomentumElement(a, lr, i);
    }
  });
}

template <typename T, typename S, typename MT>
void RunAdam(const CPUContext&, const AdamArgs<T, S, MT>& a) {
  if (a.skip_update && *a.skip_update) {
    ParallelFor(a.numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) AdamKeepElement(a, i);
    });
  } else {
    AdamStep<MT> step = MakeAdamStep(a);
    bool in_place = a.param_out == a.param && a.moment1_out == a.moment1 &&
                    a.moment2_out == a.moment2 && a.master_param == nullptr &&
                    (a.amsgrad ? a.moment2_max_out == a.moment2_max : a.moment2_max_out == nullptr);
    ParallelFor(a.numel, [&](int64_t begin, int64_t end) {
      if (in_place && a.amsgrad) {
        AdamInPlace<true>(a, step, begin, end);
      } else if (in_place) {
        AdamInPlace<false>(a, step, begin, end);
      } else {
        for (int64_t i = begin; i < end; ++i) AdamElement(a, step, i);
      }
    });
  }
  AdamUpdateBetaPow(a);
}

}  // namespace paddle::funcs

namespace paddle {

// Adagrad, Paddle's update: moment += g^2; param -= lr * g / (sqrt(moment) + epsilon). A master
// param (multi-precision) is updated in the param's place and written back rounded.
template <typename T, typename Context>
void AdagradKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                   const DenseTensor& moment, const DenseTensor& learning_rate,
                   const DenseTensor* master_param, double epsilon, bool multi_precision,
                   DenseTensor* param_out, DenseTensor* moment_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(moment.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const T* p = param.data<T>();
    const T* g = grad.data<T>();
    const S* m = moment.data<S>();
    const MT* master = detail::MasterData<MT>(master_param);
    T* p_out = ctx.template Alloc<T>(param_out);
    S* m_out = ctx.template Alloc<S>(moment_out);
    MT* master_out = detail::MasterOut<MT>(ctx, master_param, master_param_out);
    MT lr = funcs::LoadScalar<MT>(detail::ScalarOf(learning_rate));
    MT eps = static_cast<MT>(epsilon);
    bool in_place = p_out == p && m_out == m && master == nullptr;
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      if (in_place) {  // one pointer per array, so the loop vectorizes
        for (int64_t i = begin; i < end; ++i) {
          MT gi = static_cast<MT>(g[i]);
          MT mi = static_cast<MT>(m_out[i]) + gi * gi;
          m_out[i] = static_cast<S>(mi);
          p_out[i] = static_cast<T>(static_cast<MT>(p_out[i]) - lr * gi / (std::sqrt(mi) + eps));
        }
        return;
      }
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT mi = static_cast<MT>(m[i]) + gi * gi;
        MT pi = master ? master[i] : static_cast<MT>(p[i]);
        pi -= lr * gi / (std::sqrt(mi) + eps);
        m_out[i] = static_cast<S>(mi);
        p_out[i] = static_cast<T>(pi);
        if (master_out) master_out[i] = pi;
      }
    });
  });
}

// merged_momentum and merged_adam: the momentum (adam) kernel on each param of the lists, whose
// lengths InferMeta has checked.
template <typename T, typename Context>
void MergedMomentumKernel(const Context& ctx, const std::vector<const DenseTensor*>& param,
                          const std::vector<const DenseTensor*>& grad,
                          const std::vector<const DenseTensor*>& velocity,
                          const std::vector<const DenseTensor*>& learning_rate,
                          const std::vector<const DenseTensor*>& master_param, double mu,
                          bool use_nesterov, const std::vector<std::string>& regularization_method,
                          const std::vector<double>& regularization_coeff, bool multi_precision,
                          double rescale_grad, std::vector<DenseTensor*> param_out,
                          std::vector<DenseTensor*> velocity_out,
                          std::vector<DenseTensor*> master_param_out) {
  for (size_t i = 0; i < param.size(); ++i) {
    const bool has_master = !master_param.empty();
    MomentumKernel<T, Context>(
        ctx, *param[i], *grad[i], *velocity[i], *learning_rate[learning_rate.size() == 1 ? 0 : i],
        has_master ? master_param[i] : nullptr, mu, use_nesterov,
        regularization_method.empty() ? std::string() : regularization_method[i],
        regularization_coeff.empty() ? 0.0 : regularization_coeff[i], multi_precision, rescale_grad,
        param_out[i], velocity_out[i], has_master ? master_param_out[i] : nullptr);
  }
}

template <typename T, typename Context>
void MergedAdamKernel(const Context& ctx, const std::vector<const DenseTensor*>& param,
                      const std::vector<const DenseTensor*>& grad,
                      const std::vector<const DenseTensor*>& learning_rate,
                      const std::vector<const DenseTensor*>& moment1,
                      const std::vector<const DenseTensor*>& moment2,
                      const std::vector<const DenseTensor*>& beta1_pow,
                      const std::vector<const DenseTensor*>& beta2_pow,
                      const std::vector<const DenseTensor*>& master_param, const Scalar& beta1,
                      const Scalar& beta2, const Scalar& epsilon, bool multi_precision,
                      bool use_global_beta_pow, std::vector<DenseTensor*> param_out,
                      std::vector<DenseTensor*> moment1_out, std::vector<DenseTensor*> moment2_out,
                      std::vector<DenseTensor*> beta1_pow_out,
                      std::vector<DenseTensor*> beta2_pow_out,
                      std::vector<DenseTensor*> master_param_out) {
  for (size_t i = 0; i < param.size(); ++i) {
    const bool has_master = !master_param.empty();
    AdamKernel<T, Context>(
        ctx, *param[i], *grad[i], *learning_rate[learning_rate.size() == 1 ? 0 : i], *moment1[i],
        *moment2[i], nullptr, *beta1_pow[i], *beta2_pow[i], has_master ? master_param[i] : nullptr,
        nullptr, beta1, beta2, epsilon, false, 1000, multi_precision, use_global_beta_pow, false,
        param_out[i], moment1_out[i], moment2_out[i], nullptr, beta1_pow_out[i], beta2_pow_out[i],
        has_master ? master_param_out[i] : nullptr);
  }
}

}  // namespace paddle
