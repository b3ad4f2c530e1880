// CPU kernels of the loss-scaling ops (amp.yaml). Each gradient is read in its own dtype (the
// kernel's T only selects the registration), and the scalars are read whatever their floating
// dtype.
//   check_finite_and_unscale: out[i] = x[i] / scale; found_infinite = any non-finite x element.
//   update_loss_scaling:      out[i] = found_infinite ? 0 : x[i]; the scaling and the good/bad
//                             step counters advance as amp.yaml describes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/impl/optimizer_kernel_impl.h"

namespace paddle {
namespace amp_kernels {

// Calls fn(U{}) with U the floating type of `dtype`.
template <typename Fn>
void VisitFloating(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DataType::FLOAT16:
      fn(float16{});
      break;
    case DataType::BFLOAT16:
      fn(bfloat16{});
      break;
    case DataType::FLOAT32:
      fn(float{});
      break;
    default:
      fn(double{});
  }
}

// Whether `value` is finite in `dtype` (float16 overflows past 65504).
inline bool Representable(double value, DataType dtype) {
  switch (dtype) {
    case DataType::FLOAT16:
      return std::abs(value) <= 65504.0;
    case DataType::BFLOAT16:
      return std::abs(value) <= 3.3895313892515355e38;
    case DataType::FLOAT64:
      return std::isfinite(value);
    default:
      return std::abs(value) <= static_cast<double>(std::numeric_limits<float>::max());
  }
}

}  // namespace amp_kernels

template <typename T, typename Context>
void CheckFiniteAndUnscaleKernel(const Context& ctx, const std::vector<const DenseTensor*>& x,
                                 const DenseTensor& scale, std::vector<DenseTensor*> out,
                                 DenseTensor* found_infinite) {
  double inverse = 1.0 / funcs::LoadScalar<double>(detail::ScalarOf(scale));
  bool found = false;
  for (size_t i = 0; i < x.size(); ++i) {
    amp_kernels::VisitFloating(x[i]->dtype(), [&](auto tag) {
      using U = decltype(tag);
      using MT = MathType<U>;
      const U* in = x[i]->data<U>();
      U* o = ctx.template Alloc<U>(out[i]);
      MT factor = static_cast<MT>(inverse);
      int64_t n = x[i]->numel();
      bool finite = true;
      for (int64_t k = 0; k < n; ++k) {
        MT v = static_cast<MT>(in[k]);
        finite &= std::isfinite(v);
        o[k] = static_cast<U>(v * factor);
      }
      found |= !finite;
    });
  }
  *ctx.template Alloc<bool>(found_infinite) = found;
}

template <typename T, typename Context>
void UpdateLossScalingKernel(const Context& ctx, const std::vector<const DenseTensor*>& x,
                             const DenseTensor& found_infinite,
                             const DenseTensor& prev_loss_scaling, const DenseTensor& in_good_steps,
                             const DenseTensor& in_bad_steps, int32_t incr_every_n_steps,
                             int32_t decr_every_n_nan_or_inf, double incr_ratio, double decr_ratio,
                             bool stop_update, std::vector<DenseTensor*> out,
                             DenseTensor* loss_scaling, DenseTensor* out_good_steps,
                             DenseTensor* out_bad_steps) {
  bool found = *found_infinite.data<bool>();
  for (size_t i = 0; i < x.size(); ++i) {
    void* o = ctx.Alloc(out[i], x[i]->dtype());
    if (found) {
      // All-zero bits are 0.0 in every floating dtype.
      std::memset(o, 0, x[i]->nbytes());
    } else if (o != x[i]->raw_data() && x[i]->numel() > 0) {
      std::memcpy(o, x[i]->raw_data(), x[i]->nbytes());
    }
  }
  double scaling = funcs::LoadScalar<double>(detail::ScalarOf(prev_loss_scaling));
  int32_t good = *in_good_steps.data<int32_t>();
  int32_t bad = *in_bad_steps.data<int32_t>();
  if (!stop_update) {
    if (found) {
      good = 0;
      if (++bad == decr_every_n_nan_or_inf) {
        scaling = std::max(scaling * decr_ratio, 1.0);
        bad = 0;
      }
    } else {
      bad = 0;
      if (++good == incr_every_n_steps) {
        // The scaling is kept where the increase would overflow its dtype.
        double increased = scaling * incr_ratio;
        if (amp_kernels::Representable(increased, prev_loss_scaling.dtype())) scaling = increased;
        good = 0;
      }
    }
  }
  ctx.Alloc(loss_scaling, prev_loss_scaling.dtype());
  funcs::StoreScalar(loss_scaling->raw_data(), prev_loss_scaling.dtype(), scaling);
  *ctx.template Alloc<int32_t>(out_good_steps) = good;
  *ctx.template Alloc<int32_t>(out_bad_steps) = bad;
}

}  // namespace paddle
