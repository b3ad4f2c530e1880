// CPU kernels of the updates in optimizer_extra.yaml, one pass over the parameter each (lamb:
// two, around the norms). Every formula is Paddle's; g is the gradient, lr the learning rate:
//   adadelta: Eg = rho * Eg + (1 - rho) * g^2
//             u = -sqrt((Eu + epsilon) / (Eg + epsilon)) * g;  Eu = rho * Eu + (1 - rho) * u^2
//             p += lr * u
//   adamax:   m = b1 * m + (1 - b1) * g;  n = max(b2 * n + epsilon, |g|)
//             p -= lr / (1 - b1pow) * m / n
//   rmsprop:  ms = decay * ms + (1 - decay) * g^2;  (centered: mg = decay * mg + (1 - decay) * g)
//             mom = momentum * mom + lr * g / sqrt(ms (- mg^2 centered) + epsilon);  p -= mom
//   lamb:     m1, m2 as adam;  r = (m1 / (1 - b1pow)) / (sqrt(m2 / (1 - b2pow)) + epsilon) + wd * p
//             ratio = |p| / |r| (1 where either norm is 0, or where wd == 0 and !always_adapt)
//             p -= lr * ratio * r;  b1pow *= b1;  b2pow *= b2
//   nadam:    mdp *= 0.96;  b2pow *= b2;  mu = b1 * (1 - mdp^psi / 2)
//             mu_next = b1 * (1 - (0.96 * mdp)^psi / 2);  mu_prod *= mu;  m1, m2 as adam
//             m_hat = mu_next * m1 / (1 - mu_prod * mu_next) + (1 - mu) * g / (1 - mu_prod)
//             p -= lr * m_hat / (sqrt(m2 / (1 - b2pow)) + epsilon)
//   radam:    b1pow *= b1;  b2pow *= b2;  rho = (rho * (b2 - b2pow) + b2pow) / (1 - b2pow)
//             rho_t = rho_inf - 2 * rho with rho_inf = 2 / (1 - b2) - 1;  m1, m2 as adam
//             p -= lr * m1 / (1 - b1pow) * (rho_t > 5 ? r_t * sqrt(1 - b2pow) / (sqrt(m2) + eps) :
//             1) with r_t = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2)
//             rho_t))
//   asgd:     d += g - y;  y = g;  p -= lr * d / n
//   rprop:    s = g * prev;  lr = clip(lr * (s > 0 ? eta+ : s < 0 ? eta- : 1), lr_min, lr_max)
//             g = 0 where s < 0;  p -= sign(g) * lr;  prev = g
// Arithmetic is in MathType<T>; the state (moments, pows) has the param's dtype or float32 for a
// 16-bit param (InferMeta checks that all of an op's states share it), and a master_param is
// updated in the param's place and written back rounded. Outputs may alias their inputs: each
// element is read before it is written.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/impl/optimizer_kernel_impl.h"

namespace paddle {
namespace optimizer_extra {

// The param and its optional master copy: Load gives the value the update starts from, Store
// writes the updated value to the param (rounded) and to the master copy.
template <typename T, typename MT>
struct ParamAccess {
  const T* param;
  const MT* master;
  T* param_out;
  MT* master_out;

  template <typename Context>
  ParamAccess(const Context& ctx, const DenseTensor& p, const DenseTensor* master_param,
              DenseTensor* p_out, DenseTensor* master_param_out)
      : param(p.data<T>()),
        master(detail::MasterData<MT>(master_param)),
        param_out(ctx.template Alloc<T>(p_out)),
        master_out(detail::MasterOut<MT>(ctx, master_param, master_param_out)) {}

  MT Load(int64_t i) const { return master ? master[i] : static_cast<MT>(param[i]); }
  void Store(int64_t i, MT p) const {
    param_out[i] = static_cast<T>(p);
    if (master_out) master_out[i] = p;
  }
};

// An element-wise state (a moment, a per-element pow) stored as S and computed in MT; `in` and
// `out` may share storage, each element being read before it is written.
template <typename S, typename MT>
struct StateAccess {
  const S* in;
  S* out;

  template <typename Context>
  StateAccess(const Context& ctx, const DenseTensor& state, DenseTensor* state_out)
      : in(state.data<S>()), out(ctx.template Alloc<S>(state_out)) {}

  MT Load(int64_t i) const { return static_cast<MT>(in[i]); }
  void Store(int64_t i, MT value) const { out[i] = static_cast<S>(value); }
};

// Adam's first and second moments, shared by lamb, nadam and radam.
template <typename S, typename MT>
struct AdamMoments {
  StateAccess<S, MT> m1, m2;
  MT b1, b2;

  template <typename Context>
  AdamMoments(const Context& ctx, const DenseTensor& moment1, const DenseTensor& moment2,
              DenseTensor* moment1_out, DenseTensor* moment2_out, double beta1, double beta2)
      : m1(ctx, moment1, moment1_out),
        m2(ctx, moment2, moment2_out),
        b1(static_cast<MT>(beta1)),
        b2(static_cast<MT>(beta2)) {}

  struct Updated {
    MT m1, m2;
  };
  // m1 = b1 * m1 + (1 - b1) * g;  m2 = b2 * m2 + (1 - b2) * g^2, stored and returned.
  Updated Update(int64_t i, MT g) const {
    Updated u{b1 * m1.Load(i) + (MT(1) - b1) * g, b2 * m2.Load(i) + (MT(1) - b2) * g * g};
    m1.Store(i, u.m1);
    m2.Store(i, u.m2);
    return u;
  }
};

// Element k of a small real tensor of any dtype (rprop's range and etas, asgd's n).
template <typename MT>
MT LoadNumber(const DenseTensor& t, int64_t k) {
  switch (t.dtype()) {
    case DataType::INT32:
      return static_cast<MT>(t.data<int32_t>()[k]);
    case DataType::INT64:
      return static_cast<MT>(t.data<int64_t>()[k]);
    default: {
      const char* base = static_cast<const char*>(t.raw_data());
      return funcs::LoadScalar<MT>({base + k * SizeOf(t.dtype()), t.dtype()});
    }
  }
}

template <typename MT>
MT LoadScalarTensor(const DenseTensor& t) {
  return funcs::LoadScalar<MT>(detail::ScalarOf(t));
}

// Copies `in` into `out` unless they share storage (a skipped in-place update).
template <typename Context>
void KeepValue(const Context& ctx, const DenseTensor& in, DenseTensor* out) {
  void* dst = ctx.Alloc(out, in.dtype());
  if (dst != in.raw_data() && in.numel() > 0) std::memcpy(dst, in.raw_data(), in.nbytes());
}

}  // namespace optimizer_extra

template <typename T, typename Context>
void AdadeltaKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                    const DenseTensor& avg_squared_grad, const DenseTensor& avg_squared_update,
                    const DenseTensor& learning_rate, const DenseTensor* master_param, double rho,
                    double epsilon, bool multi_precision, DenseTensor* param_out,
                    DenseTensor* avg_squared_grad_out, DenseTensor* avg_squared_update_out,
                    DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(avg_squared_grad.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    const S* eg = avg_squared_grad.data<S>();
    const S* eu = avg_squared_update.data<S>();
    S* eg_out = ctx.template Alloc<S>(avg_squared_grad_out);
    S* eu_out = ctx.template Alloc<S>(avg_squared_update_out);
    MT lr = optimizer_extra::LoadScalarTensor<MT>(learning_rate);
    MT r = static_cast<MT>(rho);
    MT eps = static_cast<MT>(epsilon);
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT egi = r * static_cast<MT>(eg[i]) + (MT(1) - r) * gi * gi;
        MT eui = static_cast<MT>(eu[i]);
        MT update = -std::sqrt((eui + eps) / (egi + eps)) * gi;
        eui = r * eui + (MT(1) - r) * update * update;
        MT pi = p.Load(i) + lr * update;
        eg_out[i] = static_cast<S>(egi);
        eu_out[i] = static_cast<S>(eui);
        p.Store(i, pi);
      }
    });
  });
}

template <typename T, typename Context>
void AdamaxKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                  const DenseTensor& learning_rate, const DenseTensor& moment,
                  const DenseTensor& inf_norm, const DenseTensor& beta1_pow,
                  const DenseTensor* master_param, double beta1, double beta2, double epsilon,
                  bool multi_precision, DenseTensor* param_out, DenseTensor* moment_out,
                  DenseTensor* inf_norm_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(moment.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    const S* m = moment.data<S>();
    const S* n = inf_norm.data<S>();
    S* m_out = ctx.template Alloc<S>(moment_out);
    S* n_out = ctx.template Alloc<S>(inf_norm_out);
    // The bias correction in double, as the other fused updates compute their step scalars.
    double b1pow = optimizer_extra::LoadScalarTensor<double>(beta1_pow);
    MT lr_t =
        static_cast<MT>(optimizer_extra::LoadScalarTensor<double>(learning_rate) / (1.0 - b1pow));
    MT b1 = static_cast<MT>(beta1);
    MT b2 = static_cast<MT>(beta2);
    MT eps = static_cast<MT>(epsilon);
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT mi = b1 * static_cast<MT>(m[i]) + (MT(1) - b1) * gi;
        MT ni = std::max(b2 * static_cast<MT>(n[i]) + eps, std::abs(gi));
        MT pi = p.Load(i) - lr_t * mi / ni;
        m_out[i] = static_cast<S>(mi);
        n_out[i] = static_cast<S>(ni);
        p.Store(i, pi);
      }
    });
  });
}

template <typename T, typename Context>
void RmspropKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& mean_square,
                   const DenseTensor& grad, const DenseTensor& moment,
                   const DenseTensor& learning_rate, const DenseTensor* mean_grad,
                   const DenseTensor* master_param, double epsilon, double decay, double momentum,
                   bool centered, bool multi_precision, DenseTensor* param_out,
                   DenseTensor* moment_out, DenseTensor* mean_square_out,
                   DenseTensor* mean_grad_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(mean_square.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    const S* ms = mean_square.data<S>();
    const S* mom = moment.data<S>();
    S* ms_out = ctx.template Alloc<S>(mean_square_out);
    S* mom_out = ctx.template Alloc<S>(moment_out);
    // Without centered, a given mean_grad is passed through unchanged.
    const S* mg = mean_grad ? mean_grad->data<S>() : nullptr;
    S* mg_out = mean_grad && mean_grad_out ? ctx.template Alloc<S>(mean_grad_out) : nullptr;
    MT lr = optimizer_extra::LoadScalarTensor<MT>(learning_rate);
    MT rho = static_cast<MT>(decay);
    MT mu = static_cast<MT>(momentum);
    MT eps = static_cast<MT>(epsilon);
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT msi = rho * static_cast<MT>(ms[i]) + (MT(1) - rho) * gi * gi;
        MT denom = msi + eps;
        if (centered) {
          MT mgi = rho * static_cast<MT>(mg[i]) + (MT(1) - rho) * gi;
          denom -= mgi * mgi;
          mg_out[i] = static_cast<S>(mgi);
        } else if (mg_out) {
          mg_out[i] = mg[i];
        }
        MT momi = mu * static_cast<MT>(mom[i]) + lr * gi / std::sqrt(denom);
        MT pi = p.Load(i) - momi;
        ms_out[i] = static_cast<S>(msi);
        mom_out[i] = static_cast<S>(momi);
        p.Store(i, pi);
      }
    });
  });
}

template <typename T, typename Context>
void LambKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                const DenseTensor& learning_rate, const DenseTensor& moment1,
                const DenseTensor& moment2, const DenseTensor& beta1_pow,
                const DenseTensor& beta2_pow, const DenseTensor* master_param,
                const DenseTensor* skip_update, double weight_decay, double beta1, double beta2,
                double epsilon, bool always_adapt, bool multi_precision, DenseTensor* param_out,
                DenseTensor* moment1_out, DenseTensor* moment2_out, DenseTensor* beta1_pow_out,
                DenseTensor* beta2_pow_out, DenseTensor* master_param_out) {
  using MT = MathType<T>;
  if (skip_update && *skip_update->data<bool>()) {
    optimizer_extra::KeepValue(ctx, param, param_out);
    optimizer_extra::KeepValue(ctx, moment1, moment1_out);
    optimizer_extra::KeepValue(ctx, moment2, moment2_out);
    optimizer_extra::KeepValue(ctx, beta1_pow, beta1_pow_out);
    optimizer_extra::KeepValue(ctx, beta2_pow, beta2_pow_out);
    if (master_param && master_param_out) {
      optimizer_extra::KeepValue(ctx, *master_param, master_param_out);
    }
    return;
  }
  detail::VisitStateType<T>(moment1.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    optimizer_extra::AdamMoments<S, MT> moments(ctx, moment1, moment2, moment1_out, moment2_out,
                                                beta1, beta2);
    double b1pow = optimizer_extra::LoadScalarTensor<double>(beta1_pow);
    double b2pow = optimizer_extra::LoadScalarTensor<double>(beta2_pow);
    MT lr = optimizer_extra::LoadScalarTensor<MT>(learning_rate);
    MT eps = static_cast<MT>(epsilon);
    MT wd = static_cast<MT>(weight_decay);
    MT correct1 = static_cast<MT>(1.0 - b1pow);
    MT correct2 = static_cast<MT>(1.0 - b2pow);
    int64_t numel = param.numel();
    // Pass 1: the moments and the update direction r, with the squared norms of p and r (in
    // double, serial: the sums must not depend on the thread count).
    std::vector<MT> r(static_cast<size_t>(numel));
    double p_norm2 = 0.0;
    double r_norm2 = 0.0;
    for (int64_t i = 0; i < numel; ++i) {
      auto m = moments.Update(i, static_cast<MT>(g[i]));
      MT pi = p.Load(i);
      MT ri = (m.m1 / correct1) / (std::sqrt(m.m2 / correct2) + eps) + wd * pi;
      r[static_cast<size_t>(i)] = ri;
      p_norm2 += static_cast<double>(pi) * static_cast<double>(pi);
      r_norm2 += static_cast<double>(ri) * static_cast<double>(ri);
    }
    double ratio = 1.0;
    if ((weight_decay != 0.0 || always_adapt) && p_norm2 > 0.0 && r_norm2 > 0.0) {
      ratio = std::sqrt(p_norm2) / std::sqrt(r_norm2);
    }
    MT step = static_cast<MT>(static_cast<double>(lr) * ratio);
    funcs::ParallelFor(numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        p.Store(i, p.Load(i) - step * r[static_cast<size_t>(i)]);
    });
    ctx.Alloc(beta1_pow_out, beta1_pow.dtype());
    ctx.Alloc(beta2_pow_out, beta2_pow.dtype());
    funcs::StoreScalar(beta1_pow_out->raw_data(), beta1_pow.dtype(), b1pow * beta1);
    funcs::StoreScalar(beta2_pow_out->raw_data(), beta2_pow.dtype(), b2pow * beta2);
  });
}

template <typename T, typename Context>
void NadamKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                 const DenseTensor& learning_rate, const DenseTensor& momentum_decay_pow,
                 const DenseTensor& beta2_pow, const DenseTensor& mu_product,
                 const DenseTensor& moment1, const DenseTensor& moment2,
                 const DenseTensor* master_param, double beta1, double beta2, double epsilon,
                 double momentum_decay, bool multi_precision, DenseTensor* param_out,
                 DenseTensor* momentum_decay_pow_out, DenseTensor* beta2_pow_out,
                 DenseTensor* mu_product_out, DenseTensor* moment1_out, DenseTensor* moment2_out,
                 DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(moment1.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    optimizer_extra::StateAccess<S, MT> mdp(ctx, momentum_decay_pow, momentum_decay_pow_out);
    optimizer_extra::StateAccess<S, MT> b2p(ctx, beta2_pow, beta2_pow_out);
    optimizer_extra::StateAccess<S, MT> mup(ctx, mu_product, mu_product_out);
    optimizer_extra::AdamMoments<S, MT> moments(ctx, moment1, moment2, moment1_out, moment2_out,
                                                beta1, beta2);
    MT lr = optimizer_extra::LoadScalarTensor<MT>(learning_rate);
    MT b1 = moments.b1;
    MT b2 = moments.b2;
    MT eps = static_cast<MT>(epsilon);
    MT psi = static_cast<MT>(momentum_decay);
    MT next_decay = std::pow(MT(0.96), psi);  // 0.96^psi: one step further
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT mdpi = mdp.Load(i) * MT(0.96);
        MT b2pi = b2p.Load(i) * b2;
        MT decay_now = std::pow(mdpi, psi);
        MT mu = b1 * (MT(1) - MT(0.5) * decay_now);
        MT mu_next = b1 * (MT(1) - MT(0.5) * decay_now * next_decay);
        MT mupi = mup.Load(i) * mu;
        auto m = moments.Update(i, gi);
        MT m_hat = mu_next * m.m1 / (MT(1) - mupi * mu_next) + (MT(1) - mu) * gi / (MT(1) - mupi);
        MT v_hat = m.m2 / (MT(1) - b2pi);
        mdp.Store(i, mdpi);
        b2p.Store(i, b2pi);
        mup.Store(i, mupi);
        p.Store(i, p.Load(i) - lr * m_hat / (std::sqrt(v_hat) + eps));
      }
    });
  });
}

template <typename T, typename Context>
void RadamKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                 const DenseTensor& learning_rate, const DenseTensor& beta1_pow,
                 const DenseTensor& beta2_pow, const DenseTensor& rho, const DenseTensor& moment1,
                 const DenseTensor& moment2, const DenseTensor* master_param, double beta1,
                 double beta2, double epsilon, bool multi_precision, DenseTensor* param_out,
                 DenseTensor* beta1_pow_out, DenseTensor* beta2_pow_out, DenseTensor* rho_out,
                 DenseTensor* moment1_out, DenseTensor* moment2_out,
                 DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(moment1.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    optimizer_extra::StateAccess<S, MT> b1p(ctx, beta1_pow, beta1_pow_out);
    optimizer_extra::StateAccess<S, MT> b2p(ctx, beta2_pow, beta2_pow_out);
    optimizer_extra::StateAccess<S, MT> rh(ctx, rho, rho_out);
    optimizer_extra::AdamMoments<S, MT> moments(ctx, moment1, moment2, moment1_out, moment2_out,
                                                beta1, beta2);
    MT lr = optimizer_extra::LoadScalarTensor<MT>(learning_rate);
    MT b1 = moments.b1;
    MT b2 = moments.b2;
    MT eps = static_cast<MT>(epsilon);
    MT rho_inf = MT(2) / (MT(1) - b2) - MT(1);
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT b1pi = b1p.Load(i) * b1;
        MT b2pi = b2p.Load(i) * b2;
        MT rhoi = (rh.Load(i) * (b2 - b2pi) + b2pi) / (MT(1) - b2pi);
        auto m = moments.Update(i, static_cast<MT>(g[i]));
        MT step = m.m1 / (MT(1) - b1pi);
        MT rho_t = rho_inf - MT(2) * rhoi;
        if (rho_t > MT(5)) {  // the variance is tractable: rectify the adaptive step
          MT r_t = std::sqrt((rho_t - MT(4)) * (rho_t - MT(2)) * rho_inf /
                             ((rho_inf - MT(4)) * (rho_inf - MT(2)) * rho_t));
          step *= r_t * std::sqrt(MT(1) - b2pi) / (std::sqrt(m.m2) + eps);
        }
        b1p.Store(i, b1pi);
        b2p.Store(i, b2pi);
        rh.Store(i, rhoi);
        p.Store(i, p.Load(i) - lr * step);
      }
    });
  });
}

template <typename T, typename Context>
void AsgdKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                const DenseTensor& learning_rate, const DenseTensor& d, const DenseTensor& y,
                const DenseTensor& n, const DenseTensor* master_param, bool multi_precision,
                DenseTensor* param_out, DenseTensor* d_out, DenseTensor* y_out,
                DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(d.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    const S* di = d.data<S>();
    const S* yi = y.data<S>();
    S* d_new = ctx.template Alloc<S>(d_out);
    S* y_new = ctx.template Alloc<S>(y_out);
    MT lr_over_n = static_cast<MT>(optimizer_extra::LoadScalarTensor<double>(learning_rate) /
                                   optimizer_extra::LoadNumber<double>(n, 0));
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT dn = static_cast<MT>(di[i]) - static_cast<MT>(yi[i]) + gi;
        MT pi = p.Load(i) - lr_over_n * dn;
        d_new[i] = static_cast<S>(dn);
        y_new[i] = static_cast<S>(gi);
        p.Store(i, pi);
      }
    });
  });
}

template <typename T, typename Context>
void RpropKernel(const Context& ctx, const DenseTensor& param, const DenseTensor& grad,
                 const DenseTensor& prev, const DenseTensor& learning_rate,
                 const DenseTensor* master_param, const DenseTensor& learning_rate_range,
                 const DenseTensor& etas, bool multi_precision, DenseTensor* param_out,
                 DenseTensor* prev_out, DenseTensor* learning_rate_out,
                 DenseTensor* master_param_out) {
  using MT = MathType<T>;
  detail::VisitStateType<T>(prev.dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    optimizer_extra::ParamAccess<T, MT> p(ctx, param, master_param, param_out, master_param_out);
    const T* g = grad.data<T>();
    const S* pv = prev.data<S>();
    const S* lr = learning_rate.data<S>();
    S* pv_out = ctx.template Alloc<S>(prev_out);
    S* lr_out = ctx.template Alloc<S>(learning_rate_out);
    MT lr_min = optimizer_extra::LoadNumber<MT>(learning_rate_range, 0);
    MT lr_max = optimizer_extra::LoadNumber<MT>(learning_rate_range, 1);
    MT eta_negative = optimizer_extra::LoadNumber<MT>(etas, 0);
    MT eta_positive = optimizer_extra::LoadNumber<MT>(etas, 1);
    funcs::ParallelFor(param.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        MT gi = static_cast<MT>(g[i]);
        MT agreement = gi * static_cast<MT>(pv[i]);
        MT eta = MT(1);
        if (agreement > MT(0)) {
          eta = eta_positive;
        } else if (agreement < MT(0)) {  // the sign flipped: shrink the step and skip it once
          eta = eta_negative;
          gi = MT(0);
        }
        MT lri = std::min(std::max(static_cast<MT>(lr[i]) * eta, lr_min), lr_max);
        MT sign = gi > MT(0) ? MT(1) : (gi < MT(0) ? MT(-1) : MT(0));
        MT pi = p.Load(i) - sign * lri;
        pv_out[i] = static_cast<S>(gi);
        lr_out[i] = static_cast<S>(lri);
        p.Store(i, pi);
      }
    });
  });
}

}  // namespace paddle
