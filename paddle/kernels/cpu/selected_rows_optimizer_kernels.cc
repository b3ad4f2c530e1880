// Optimizer updates with a SelectedRows gradient (PaddlePaddle's *_dense_param_sparse_grad
// kernels): sgd, momentum, adam and adagrad on a dense param. The gradient's rows are merged
// first (a repeated row's values summed). Per update:
//   sgd, adagrad:  only the rows present change (for the others the dense update is a no-op too)
//   momentum:      every row, a missing row's gradient being zero (so velocities keep decaying),
//                  which equals the dense update
//   adam:          lazy_mode: only the rows present; otherwise every row with a zero gradient
//                  for the missing ones, which equals the dense update
// The formulas are those of the dense kernels (impl/optimizer_kernel_impl.h). Master params
// (multi-precision) with a sparse gradient are not supported.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "paddle/core/scalar.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/kernels/impl/optimizer_kernel_impl.h"
#include "paddle/kernels/selected_rows_kernel.h"

namespace paddle {

namespace {

// The output written in place of `in`: the same storage when the call updates in place, else a
// copy of `in` to update.
template <typename T>
T* UpdatedCopy(const DenseTensor& in, DenseTensor* out) {
  if (out == &in || out->SharesBufferWith(in)) return out->data<T>();
  out->set_meta(in.meta());
  out->AllocateStorage(in.place());
  std::memcpy(out->raw_data(), in.raw_data(), in.nbytes());
  return out->data<T>();
}

// The SelectedRows of input `slot`, the gradient; Unimplemented naming the op when another input
// is a SelectedRows instead.
const SelectedRows& SparseGrad(const char* op, const SelectedRowsInputs& sr, size_t slot) {
  for (size_t i = 0; i < sr.size(); ++i) {
    for (const SelectedRows* rows : sr[i]) {
      PD_CHECK(rows == nullptr || i == slot,
               errors::Unimplemented(op,
                                     ": only argument 'grad' may be a SelectedRows (a sparse "
                                     "gradient), but another input is one"));
    }
  }
  PD_CHECK(!sr[slot].empty() && sr[slot][0] != nullptr,
           errors::Unimplemented(op, ": only argument 'grad' may be a SelectedRows"));
  return *sr[slot][0];
}

// The merged gradient, checked against the param: same dtype, rows in range, same row width.
std::shared_ptr<SelectedRows> MergedGrad(const std::string& op, const DenseTensor& param,
                                         const SelectedRows& grad, const DenseTensor* master) {
  PD_CHECK(master == nullptr, errors::Unimplemented(op,
                                                    ": a SelectedRows 'grad' with 'master_param' "
                                                    "(multi_precision) is not supported"));
  PD_CHECK(grad.value().dtype() == param.dtype(),
           errors::InvalidType(op, ": argument 'grad' must have the dtype of 'param' (",
                               DataTypeName(param.dtype()), "), received ",
                               DataTypeName(grad.value().dtype())));
  PD_CHECK(grad.complete_dims() == param.dims(),
           errors::InvalidArgument(op, ": SelectedRows 'grad' stands for a table of shape ",
                                   grad.complete_dims().ToString(), ", expected the shape ",
                                   param.dims().ToString(), " of 'param'"));
  funcs::CheckRowsInRange(grad, (op + ": SelectedRows 'grad'").c_str());
  return funcs::MergeRows(grad);
}

// Calls fn(row, k) for each param row, k being the row's index in the merged gradient or -1
// when absent; with `present_only`, only the rows present. Rows run in parallel.
template <typename Fn>
void ForEachRow(int64_t height, const SelectedRows& merged, bool present_only, Fn&& fn) {
  const std::vector<int64_t>& rows = merged.rows();
  if (present_only) {
    funcs::ParallelFor(static_cast<int64_t>(rows.size()), [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) fn(rows[k], k);
    });
    return;
  }
  funcs::ParallelFor(height, [&](int64_t begin, int64_t end) {
    auto next = std::lower_bound(rows.begin(), rows.end(), begin);
    for (int64_t row = begin; row < end; ++row) {
      bool present = next != rows.end() && *next == row;
      fn(row, present ? next - rows.begin() : -1);
      if (present) ++next;
    }
  });
}

// Inputs, attributes and outputs by their index in the op's schema (paddle/ops/yaml).
void SgdSparse(const KernelContext& ctx, const SelectedRowsInputs& sr) {
  const DenseTensor& param = ctx.Input(0);
  auto merged = MergedGrad("sgd", param, SparseGrad("sgd", sr, 2), ctx.OptionalInput(3));
  int64_t width = funcs::RowWidth(*merged);
  funcs::VisitFloatingType(param.dtype(), "sgd", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    T* p = UpdatedCopy<T>(param, ctx.Output(0));
    const T* g = merged->value().data<T>();
    MT lr = funcs::LoadScalar<MT>(detail::ScalarOf(ctx.Input(1)));
    ForEachRow(param.dims()[0], *merged, true, [&](int64_t row, int64_t k) {
      for (int64_t j = 0; j < width; ++j) {
        T& pj = p[row * width + j];
        pj = static_cast<T>(static_cast<MT>(pj) - lr * static_cast<MT>(g[k * width + j]));
      }
    });
  });
}

void MomentumSparse(const KernelContext& ctx, const SelectedRowsInputs& sr) {
  const DenseTensor& param = ctx.Input(0);
  const DenseTensor& velocity = ctx.Input(2);
  auto merged = MergedGrad("momentum", param, SparseGrad("momentum", sr, 1), ctx.OptionalInput(4));
  int64_t width = funcs::RowWidth(*merged);
  funcs::VisitFloatingType(param.dtype(), "momentum", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    detail::VisitStateType<T>(velocity.dtype(), [&](auto state_tag) {
      using S = typename decltype(state_tag)::type;
      funcs::MomentumArgs<T, S, MT> a{};
      a.mu = static_cast<MT>(std::get<double>(ctx.Attr(0)));
      a.use_nesterov = std::get<bool>(ctx.Attr(1));
      a.l2_decay = std::get<std::string>(ctx.Attr(2)) == "l2_decay";
      a.regularization_coeff = static_cast<MT>(std::get<double>(ctx.Attr(3)));
      a.rescale_grad = static_cast<MT>(std::get<double>(ctx.Attr(5)));
      T* p = UpdatedCopy<T>(param, ctx.Output(0));
      S* v = UpdatedCopy<S>(velocity, ctx.Output(1));
      const T* g = merged->value().data<T>();
      MT lr = funcs::LoadScalar<MT>(detail::ScalarOf(ctx.Input(3)));
      ForEachRow(param.dims()[0], *merged, false, [&](int64_t row, int64_t k) {
        for (int64_t j = 0; j < width; ++j) {
          int64_t i = row * width + j;
          MT pi = static_cast<MT>(p[i]);
          MT vi = static_cast<MT>(v[i]);
          MT gi = k >= 0 ? static_cast<MT>(g[k * width + j]) : MT(0);
          funcs::MomentumMath(a, lr, gi, pi, vi);
          p[i] = static_cast<T>(pi);
          v[i] = static_cast<S>(vi);
        }
      });
    });
  });
}

void AdamSparse(const KernelContext& ctx, const SelectedRowsInputs& sr) {
  const DenseTensor& param = ctx.Input(0);
  const DenseTensor& moment1 = ctx.Input(3);
  const DenseTensor& moment2 = ctx.Input(4);
  const DenseTensor* moment2_max = ctx.OptionalInput(5);
  const DenseTensor& beta1_pow = ctx.Input(6);
  const DenseTensor& beta2_pow = ctx.Input(7);
  const DenseTensor* skip_update = ctx.OptionalInput(9);
  auto merged = MergedGrad("adam", param, SparseGrad("adam", sr, 1), ctx.OptionalInput(8));
  bool lazy_mode = std::get<bool>(ctx.Attr(3));
  bool amsgrad = std::get<bool>(ctx.Attr(7));
  int64_t width = funcs::RowWidth(*merged);
  funcs::VisitFloatingType(param.dtype(), "adam", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    detail::VisitStateType<T>(moment1.dtype(), [&](auto state_tag) {
      using S = typename decltype(state_tag)::type;
      funcs::AdamArgs<T, S, MT> a{};
      a.param_out = UpdatedCopy<T>(param, ctx.Output(0));
      a.moment1_out = UpdatedCopy<S>(moment1, ctx.Output(1));
      a.moment2_out = UpdatedCopy<S>(moment2, ctx.Output(2));
      a.moment2_max_out =
          moment2_max && ctx.Output(3) ? UpdatedCopy<S>(*moment2_max, ctx.Output(3)) : nullptr;
      a.learning_rate = detail::ScalarOf(ctx.Input(2));
      a.beta1_pow = detail::ScalarOf(beta1_pow);
      a.beta2_pow = detail::ScalarOf(beta2_pow);
      DenseTensor* beta1_pow_out = ctx.Output(4);
      DenseTensor* beta2_pow_out = ctx.Output(5);
      beta1_pow_out->set_meta(beta1_pow.meta());
      beta2_pow_out->set_meta(beta2_pow.meta());
      a.beta1_pow_out = beta1_pow_out->AllocateStorage(beta1_pow.place());
      a.beta2_pow_out = beta2_pow_out->AllocateStorage(beta2_pow.place());
      a.skip_update = skip_update ? skip_update->data<bool>() : nullptr;
      a.beta1 = std::get<Scalar>(ctx.Attr(0)).to<double>();
      a.beta2 = std::get<Scalar>(ctx.Attr(1)).to<double>();
      a.epsilon = std::get<Scalar>(ctx.Attr(2)).to<double>();
      a.lr_ratio = 1.0;
      a.amsgrad = amsgrad;
      a.update_beta_pow = !std::get<bool>(ctx.Attr(6));
      if (!(a.skip_update && *a.skip_update)) {
        funcs::AdamStep<MT> step = funcs::MakeAdamStep(a);
        const T* g = merged->value().data<T>();
        ForEachRow(param.dims()[0], *merged, lazy_mode, [&](int64_t row, int64_t k) {
          for (int64_t j = 0; j < width; ++j) {
            int64_t i = row * width + j;
            MT m1 = static_cast<MT>(a.moment1_out[i]);
            MT m2 = static_cast<MT>(a.moment2_out[i]);
            funcs::AdamMoments(step, k >= 0 ? static_cast<MT>(g[k * width + j]) : MT(0), m1, m2);
            MT denominator = m2;
            if (amsgrad) {
              denominator = funcs::Max(m2, static_cast<MT>(a.moment2_max_out[i]));
              a.moment2_max_out[i] = static_cast<S>(denominator);
            }
            a.param_out[i] = static_cast<T>(
                funcs::AdamParam(step, static_cast<MT>(a.param_out[i]), m1, denominator));
            a.moment1_out[i] = static_cast<S>(m1);
            a.moment2_out[i] = static_cast<S>(m2);
          }
        });
      }
      funcs::AdamUpdateBetaPow(a);
    });
  });
}

void AdagradSparse(const KernelContext& ctx, const SelectedRowsInputs& sr) {
  const DenseTensor& param = ctx.Input(0);
  const DenseTensor& moment = ctx.Input(2);
  auto merged = MergedGrad("adagrad", param, SparseGrad("adagrad", sr, 1), ctx.OptionalInput(4));
  int64_t width = funcs::RowWidth(*merged);
  funcs::VisitFloatingType(param.dtype(), "adagrad", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    detail::VisitStateType<T>(moment.dtype(), [&](auto state_tag) {
      using S = typename decltype(state_tag)::type;
      T* p = UpdatedCopy<T>(param, ctx.Output(0));
      S* m = UpdatedCopy<S>(moment, ctx.Output(1));
      const T* g = merged->value().data<T>();
      MT lr = funcs::LoadScalar<MT>(detail::ScalarOf(ctx.Input(3)));
      MT epsilon = static_cast<MT>(std::get<double>(ctx.Attr(0)));
      ForEachRow(param.dims()[0], *merged, true, [&](int64_t row, int64_t k) {
        for (int64_t j = 0; j < width; ++j) {
          int64_t i = row * width + j;
          MT gi = static_cast<MT>(g[k * width + j]);
          MT mi = static_cast<MT>(m[i]) + gi * gi;
          m[i] = static_cast<S>(mi);
          p[i] = static_cast<T>(static_cast<MT>(p[i]) - lr * gi / (std::sqrt(mi) + epsilon));
        }
      });
    });
  });
}

const bool kRegistered = RegisterSelectedRowsKernel("sgd", Backend::CPU, &SgdSparse) &&
                         RegisterSelectedRowsKernel("momentum", Backend::CPU, &MomentumSparse) &&
                         RegisterSelectedRowsKernel("adam", Backend::CPU, &AdamSparse) &&
                         RegisterSelectedRowsKernel("adagrad", Backend::CPU, &AdagradSparse);

}  // namespace

}  // namespace paddle
