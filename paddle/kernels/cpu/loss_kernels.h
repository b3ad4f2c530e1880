// CPU kernels of the loss ops: cross_entropy_with_softmax and its gradient, the elementwise
// losses (bce_loss, sigmoid_cross_entropy_with_logits, huber_loss, kldiv_loss, log_loss) and
// nll_loss with its gradient.
//
// cross_entropy_with_softmax: the input is viewed as [outer, C, inner] with
// the classes on `axis`; each (outer, inner) line is one sample. With use_softmax the loss comes
// from the log-softmax, loss = logsumexp(x) - x[label], so it stays finite for large logits;
// without it the input already holds probabilities. Hard labels are validated before any
// parallel work, so a bad label raises OutOfRange instead of reading out of bounds.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/parallel_for.h"
namespace paddle {

namespace {

struct ClassLines {
  int64_t outer = 1;
  int64_t classes = 1;
  int64_t inner = 1;

  int64_t lines() const { return outer * inner; }
  // The first element of line `line` (elements of a line are `inner` apart).
  int64_t Base(int64_t line) const { return (line / inner) * classes * inner + line % inner; }
};

ClassLines ClassLinesOf(const DDim& dims, int32_t axis, const char* op) {
  ClassLines c;
  int a = NormalizeAxis(axis, dims.size(), op);
  c.classes = dims[a];
  for (int i = 0; i < a; ++i) c.outer *= dims[i];
  for (int i = a + 1; i < dims.size(); ++i) c.inner *= dims[i];
  return c;
}

template <typename LabelT>
void CheckHardLabels(const LabelT* label, int64_t n, int64_t classes, int32_t ignore_index,
                     const char* op) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t l = static_cast<int64_t>(label[i]);
    if (l == ignore_index) continue;
    PD_CHECK(l >= 0 && l < classes,
             errors::OutOfRange(op, ": argument 'label' holds ", l, " at flat index ", i,
                                ", expected a class index in [0, ", classes, ") or ignore_index (",
                                ignore_index, ")"));
  }
}

// Calls fn(labels) with the hard labels as int64_t* or int32_t*, after validating them.
template <typename Fn>
void WithHardLabels(const DenseTensor& label, int64_t classes, int32_t ignore_index, const char* op,
                    Fn&& fn) {
  if (label.dtype() == DataType::INT64) {
    const int64_t* l = label.data<int64_t>();
    CheckHardLabels(l, label.numel(), classes, ignore_index, op);
    fn(l);
  } else {
    PD_CHECK(label.dtype() == DataType::INT32,
             errors::InvalidArgument(op, ": hard labels must be int64 or int32, received ",
                                     DataTypeName(label.dtype())));
    const int32_t* l = label.data<int32_t>();
    CheckHardLabels(l, label.numel(), classes, ignore_index, op);
    fn(l);
  }
}

void CheckSoftLabel(const DenseTensor& label, DataType dtype, const char* op) {
  PD_CHECK(
      label.dtype() == dtype,
      errors::InvalidArgument(op, ": soft labels must have the input's dtype ", DataTypeName(dtype),
                              ", received ", DataTypeName(label.dtype())));
}

template <typename Fn>
void ForEachLine(const ClassLines& c, Fn&& fn) {
  funcs::ParallelFor(
      c.lines(),
      [&](int64_t begin, int64_t end) {
        for (int64_t line = begin; line < end; ++line) fn(line, c.Base(line));
      },
      funcs::kParallelThreshold / std::max<int64_t>(c.classes, 1) + 1);
}

}  // namespace

template <typename T, typename Context>
void CrossEntropyWithSoftmaxKernel(const Context& ctx, const DenseTensor& input,
                                   const DenseTensor& label, bool soft_label, bool use_softmax,
                                   bool numeric_stable_mode, int32_t ignore_index, int32_t axis,
                                   DenseTensor* softmax, DenseTensor* loss) {
  using MT = MathType<T>;
  const char* op = "cross_entropy_with_softmax";
  ClassLines c = ClassLinesOf(input.dims(), axis, op);
  T* sm = ctx.template Alloc<T>(softmax);
  T* lo = ctx.template Alloc<T>(loss);
  if (input.numel() == 0) {
    std::fill(lo, lo + loss->numel(), static_cast<T>(0));
    return;
  }
  const T* x = input.data<T>();
  const int64_t classes = c.classes, inner = c.inner;
  auto load = [&](const T* p, int64_t base, int64_t j) {
    return static_cast<MT>(p[base + j * inner]);
  };

  // log p_j of one line: x_j - logsumexp(x) with softmax, log x_j without. The line's softmax
  // output is written on the way.
  auto line_log_norm = [&](int64_t base) -> MT {
    if (!use_softmax) {
      for (int64_t j = 0; j < classes; ++j) sm[base + j * inner] = x[base + j * inner];
      return MT(0);
    }
    MT max_value = load(x, base, 0);
    for (int64_t j = 1; j < classes; ++j) max_value = std::max(max_value, load(x, base, j));
    MT total = 0;
    if constexpr (std::is_same_v<MT, T>) {  // one exp per element: keep them in the output
      for (int64_t j = 0; j < classes; ++j) {
        MT e = std::exp(load(x, base, j) - max_value);
        sm[base + j * inner] = e;
        total += e;
      }
      MT scale = MT(1) / total;
      for (int64_t j = 0; j < classes; ++j) sm[base + j * inner] *= scale;
      return max_value + std::log(total);
    }
    for (int64_t j = 0; j < classes; ++j) total += std::exp(load(x, base, j) - max_value);
    MT lse = max_value + std::log(total);
    for (int64_t j = 0; j < classes; ++j) {
      sm[base + j * inner] = static_cast<T>(std::exp(load(x, base, j) - lse));
    }
    return lse;
  };
  auto log_prob = [&](int64_t base, int64_t j, MT lse) {
    return use_softmax ? load(x, base, j) - lse : std::log(load(x, base, j));
  };

  if (soft_label) {
    CheckSoftLabel(label, input.dtype(), op);
    const T* y = label.data<T>();
    ForEachLine(c, [&](int64_t line, int64_t base) {
      MT lse = line_log_norm(base);
      MT total = 0;
      for (int64_t j = 0; j < classes; ++j) {
        MT weight = load(y, base, j);
        if (weight != MT(0)) total -= weight * log_prob(base, j, lse);
      }
      lo[line] = static_cast<T>(total);
    });
  } else {
    WithHardLabels(label, classes, ignore_index, op, [&](const auto* y) {
      ForEachLine(c, [&](int64_t line, int64_t base) {
        MT lse = line_log_norm(base);
        int64_t target = static_cast<int64_t>(y[line]);
        lo[line] = target == ignore_index ? static_cast<T>(0)
                                          : static_cast<T>(-log_prob(base, target, lse));
      });
    });
  }
}

// With use_softmax: input_grad = (softmax * sum(label) - label) * loss_grad, where a hard label
// is one-hot (sum 1). Without: input_grad = -loss_grad * label / input. Ignored rows get 0.
template <typename T, typename Context>
void CrossEntropyWithSoftmaxGradKernel(const Context& ctx, const DenseTensor& label,
                                       const DenseTensor& softmax, const DenseTensor& loss_grad,
                                       bool soft_label, bool use_softmax, bool numeric_stable_mode,
                                       int32_t ignore_index, int32_t axis,
                                       DenseTensor* input_grad) {
  using MT = MathType<T>;
  const char* op = "cross_entropy_with_softmax_grad";
  ClassLines c = ClassLinesOf(softmax.dims(), axis, op);
  T* g = ctx.template Alloc<T>(input_grad);
  if (softmax.numel() == 0) return;
  PD_CHECK(loss_grad.numel() == c.lines() && loss_grad.dtype() == softmax.dtype(),
           errors::InvalidArgument(op, ": argument 'loss_grad' must hold one ",
                                   DataTypeName(softmax.dtype()), " per sample (", c.lines(),
                                   "), received shape ", loss_grad.dims().ToString(), " of ",
                                   DataTypeName(loss_grad.dtype())));
  const T* p = softmax.data<T>();
  const T* dl = loss_grad.data<T>();
  const int64_t classes = c.classes, inner = c.inner;

  if (soft_label) {
    CheckSoftLabel(label, softmax.dtype(), op);
    const T* y = label.data<T>();
    ForEachLine(c, [&](int64_t line, int64_t base) {
      MT upstream = static_cast<MT>(dl[line]);
      if (use_softmax) {
        MT total = 0;
        for (int64_t j = 0; j < classes; ++j) total += static_cast<MT>(y[base + j * inner]);
        for (int64_t j = 0; j < classes; ++j) {
          int64_t k = base + j * inner;
          g[k] = static_cast<T>((static_cast<MT>(p[k]) * total - static_cast<MT>(y[k])) * upstream);
        }
      } else {
        for (int64_t j = 0; j < classes; ++j) {
          int64_t k = base + j * inner;
          MT weight = static_cast<MT>(y[k]);
          g[k] =
              static_cast<T>(weight == MT(0) ? MT(0) : -upstream * weight / static_cast<MT>(p[k]));
        }
      }
    });
    return;
  }
  WithHardLabels(label, classes, ignore_index, op, [&](const auto* y) {
    ForEachLine(c, [&](int64_t line, int64_t base) {
      int64_t target = static_cast<int64_t>(y[line]);
      MT upstream = target == ignore_index ? MT(0) : static_cast<MT>(dl[line]);
      for (int64_t j = 0; j < classes; ++j) {
        int64_t k = base + j * inner;
        MT value;
        if (use_softmax) {
          value = (static_cast<MT>(p[k]) - (j == target ? MT(1) : MT(0))) * upstream;
        } else {
          value = j == target && upstream != MT(0) ? -upstream / static_cast<MT>(p[k]) : MT(0);
        }
        g[k] = static_cast<T>(value);
      }
    });
  });
}

// ---------------------------------------------------------------- elementwise losses
// The formulas are in paddle/ops/yaml/loss.yaml. Their gradients are rules built from forward
// ops (paddle/ops/backward/loss_grad.cc), except nll_loss's.

namespace {

// out[i] = fn(i) for every element, in parallel over large tensors.
template <typename T, typename Fn>
void FillElementwise(T* out, int64_t n, Fn&& fn) {
  funcs::ParallelFor(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = fn(i);
  });
}

}  // namespace

template <typename T, typename Context>
void BceLossKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& label,
                   DenseTensor* out) {
  const T* x = input.data<T>();
  const T* y = label.data<T>();
  const int64_t n = input.numel();
  // Checked before any work, so a bad probability raises instead of giving NaN.
  for (int64_t i = 0; i < n; ++i) {
    PD_CHECK(x[i] >= T(0) && x[i] <= T(1),
             errors::InvalidArgument("bce_loss: argument 'input' must hold probabilities in "
                                     "[0, 1], received ",
                                     x[i], " at flat index ", i));
  }
  // Paddle clamps each log at -100, so a certain mistake costs 100 rather than inf.
  const T floor = T(-100);
  FillElementwise(ctx.template Alloc<T>(out), n, [&](int64_t i) {
    return -(y[i] * std::max(std::log(x[i]), floor) +
             (T(1) - y[i]) * std::max(std::log(T(1) - x[i]), floor));
  });
}

template <typename T, typename Context>
void SigmoidCrossEntropyWithLogitsKernel(const Context& ctx, const DenseTensor& x,
                                         const DenseTensor& label, const DenseTensor* pos_weight,
                                         bool normalize, int32_t ignore_index, DenseTensor* out) {
  const T* logit = x.data<T>();
  const T* y = label.data<T>();
  const T* w = pos_weight ? pos_weight->data<T>() : nullptr;
  const int64_t n = x.numel();
  const T ignored = static_cast<T>(ignore_index);
  T* o = ctx.template Alloc<T>(out);
  FillElementwise(o, n, [&](int64_t i) {
    const T v = logit[i];
    if (y[i] == ignored) return T(0);
    // log(1 + exp(-|v|)) + max(-v, 0) = -log(sigmoid(v)), without overflow.
    const T neg_log_sigmoid = std::log1p(std::exp(-std::abs(v))) + std::max(-v, T(0));
    return (T(1) - y[i]) * v + (w ? w[i] : T(1)) * neg_log_sigmoid;
  });
  if (!normalize) return;
  int64_t counted = 0;
  for (int64_t i = 0; i < n; ++i) counted += y[i] != ignored;
  // A batch with every label ignored keeps its zeros (Paddle divides 0 by 0 and gives NaN).
  if (counted == 0) return;
  for (int64_t i = 0; i < n; ++i) o[i] /= static_cast<T>(counted);
}

template <typename T, typename Context>
void HuberLossKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& label,
                     float delta, DenseTensor* out, DenseTensor* residual) {
  const T* x = input.data<T>();
  const T* y = label.data<T>();
  const T d = static_cast<T>(delta);
  T* r = ctx.template Alloc<T>(residual);
  FillElementwise(r, input.numel(), [&](int64_t i) { return y[i] - x[i]; });
  FillElementwise(ctx.template Alloc<T>(out), input.numel(), [&](int64_t i) {
    const T a = std::abs(r[i]);
    return a <= d ? T(0.5) * r[i] * r[i] : d * (a - T(0.5) * d);
  });
}

template <typename T, typename Context>
void KldivLossKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& label,
                     const std::string& reduction, bool log_target, DenseTensor* out) {
  const T* logp = x.data<T>();
  const T* t = label.data<T>();
  const int64_t n = x.numel();
  auto term = [&](int64_t i) {
    if (log_target) return std::exp(t[i]) * (t[i] - logp[i]);
    return t[i] > T(0) ? t[i] * (std::log(t[i]) - logp[i]) : T(0);
  };
  T* o = ctx.template Alloc<T>(out);
  if (reduction == "none") {
    FillElementwise(o, n, term);
    return;
  }
  double total = 0;
  for (int64_t i = 0; i < n; ++i) total += static_cast<double>(term(i));
  // An empty x gives NaN for 'mean' and 'batchmean' (0 / 0), as in Paddle; a 0-d x has no
  // batch dim, so its 'batchmean' is the sum.
  if (reduction == "mean") total /= static_cast<double>(n);
  if (reduction == "batchmean" && x.dims().size() > 0) total /= static_cast<double>(x.dims()[0]);
  o[0] = static_cast<T>(total);
}

template <typename T, typename Context>
void LogLossKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& label,
                   float epsilon, DenseTensor* out) {
  const T* p = input.data<T>();
  const T* y = label.data<T>();
  const T eps = static_cast<T>(epsilon);
  FillElementwise(ctx.template Alloc<T>(out), input.numel(), [&](int64_t i) {
    return -y[i] * std::log(p[i] + eps) - (T(1) - y[i]) * std::log(T(1) - p[i] + eps);
  });
}

namespace {

// nll_loss views input as [N, C, inner] and label as [N, inner].
struct NllLayout {
  int64_t batch = 0;
  int64_t classes = 0;
  int64_t inner = 1;

  explicit NllLayout(const DDim& input_dims) {
    batch = input_dims[0];
    classes = input_dims[1];
    for (int i = 2; i < input_dims.size(); ++i) inner *= input_dims[i];
  }
  int64_t positions() const { return batch * inner; }
  // The input element of class c at label position p.
  int64_t At(int64_t p, int64_t c) const { return ((p / inner) * classes + c) * inner + p % inner; }
};

void CheckNllLabels(const int64_t* label, int64_t n, int64_t classes, int64_t ignore_index,
                    const char* op) {
  for (int64_t i = 0; i < n; ++i) {
    PD_CHECK(label[i] == ignore_index || (label[i] >= 0 && label[i] < classes),
             errors::OutOfRange(op, ": argument 'label' holds ", label[i], " at flat index ", i,
                                ", expected a class index in [0, ", classes, ") or ignore_index (",
                                ignore_index, ")"));
  }
}

}  // namespace

template <typename T, typename Context>
void NllLossKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& label,
                   const DenseTensor* weight, int64_t ignore_index, const std::string& reduction,
                   DenseTensor* out, DenseTensor* total_weight) {
  const NllLayout layout(input.dims());
  const int64_t* y = label.data<int64_t>();
  CheckNllLabels(y, label.numel(), layout.classes, ignore_index, "nll_loss");
  const T* x = input.data<T>();
  const T* w = weight ? weight->data<T>() : nullptr;
  T* o = ctx.template Alloc<T>(out);
  T* tw = ctx.template Alloc<T>(total_weight);
  auto class_weight = [&](int64_t p) { return y[p] == ignore_index ? T(0) : (w ? w[y[p]] : T(1)); };
  auto loss = [&](int64_t p) {
    return y[p] == ignore_index ? T(0) : -class_weight(p) * x[layout.At(p, y[p])];
  };
  if (reduction == "none") {
    FillElementwise(o, layout.positions(), loss);
    tw[0] = T(0);
    return;
  }
  double total = 0, weights = 0;
  for (int64_t p = 0; p < layout.positions(); ++p) {
    total += static_cast<double>(loss(p));
    weights += static_cast<double>(class_weight(p));
  }
  tw[0] = static_cast<T>(weights);
  // A batch whose labels are all ignored has total_weight 0 and loss 0, as in Paddle.
  if (reduction == "mean") total = weights != 0 ? total / weights : 0.0;
  o[0] = static_cast<T>(total);
}

// input is read for its shape only (no_need_buffer).
template <typename T, typename Context>
void NllLossGradKernel(const Context& ctx, const DenseTensor& input, const DenseTensor& label,
                       const DenseTensor* weight, const DenseTensor& total_weight,
                       const DenseTensor& out_grad, int64_t ignore_index,
                       const std::string& reduction, DenseTensor* input_grad) {
  const NllLayout layout(input.dims());
  const int64_t* y = label.data<int64_t>();
  CheckNllLabels(y, label.numel(), layout.classes, ignore_index, "nll_loss_grad");
  const bool per_position = reduction == "none";
  PD_CHECK(out_grad.numel() == (per_position ? layout.positions() : 1) &&
               out_grad.dtype() == input.dtype(),
           errors::InvalidArgument("nll_loss_grad: argument 'out_grad' must hold ",
                                   per_position ? layout.positions() : 1, " ",
                                   DataTypeName(input.dtype()), " for reduction '", reduction,
                                   "', received shape ", out_grad.dims().ToString(), " of ",
                                   DataTypeName(out_grad.dtype())));
  PD_CHECK(total_weight.numel() == 1 && total_weight.dtype() == input.dtype(),
           errors::InvalidArgument("nll_loss_grad: argument 'total_weight' must hold one ",
                                   DataTypeName(input.dtype()), ", received shape ",
                                   total_weight.dims().ToString(), " of ",
                                   DataTypeName(total_weight.dtype())));
  const T* w = weight ? weight->data<T>() : nullptr;
  const T* dout = out_grad.data<T>();
  T scale = T(1);
  if (reduction == "mean") {
    const T tw = total_weight.data<T>()[0];
    scale = tw != T(0) ? T(1) / tw : T(0);
  }
  T* g = ctx.template Alloc<T>(input_grad);
  std::fill(g, g + input_grad->numel(), T(0));
  funcs::ParallelFor(layout.positions(), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      if (y[p] == ignore_index) continue;
      const T upstream = per_position ? dout[p] : dout[0];
      g[layout.At(p, y[p])] = -(w ? w[y[p]] : T(1)) * upstream * scale;
    }
  });
}

}  // namespace paddle
