// CPU cross_entropy_with_softmax and its gradient. The input is viewed as [outer, C, inner] with
// the classes on `axis`; each (outer, inner) line is one sample. With use_softmax the loss comes
// from the log-softmax, loss = logsumexp(x) - x[label], so it stays finite for large logits;
// without it the input already holds probabilities. Hard labels are validated before any
// parallel work, so a bad label raises OutOfRange instead of reading out of bounds.
#pragma once

#include <algorithm>
#include <cmath>
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

}  // namespace paddle
