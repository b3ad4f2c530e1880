// Backward rules of the layout ops. Every op here is linear, so each rule is one forward op
// (or a reshape and a sum), and gradients of any order follow.
#include <algorithm>
#include <limits>

#include "paddle/common/errors.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/channel_shuffle.h"
#include "paddle/ops/generated/api/flip.h"
#include "paddle/ops/generated/api/fold.h"
#include "paddle/ops/generated/api/pad3d.h"
#include "paddle/ops/generated/api/pad3d_grad.h"
#include "paddle/ops/generated/api/pixel_shuffle.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/roll.h"
#include "paddle/ops/generated/api/slice.h"
#include "paddle/ops/generated/api/sum.h"
#include "paddle/ops/generated/api/unfold.h"
#include "paddle/ops/generated/grad_rules/layout.h"

namespace paddle::ops::grad {

// The padded region of the output gradient.
void pad_grad(const Tensor& out_grad, const std::vector<int32_t>& paddings, Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& dims = out_grad.dims();
  PD_CHECK(paddings.size() == static_cast<size_t>(2 * dims.size()),
           errors::InvalidArgument("pad_grad: argument 'paddings' must hold 2 values per "
                                   "dimension of 'out_grad' (shape ",
                                   dims.ToString(), "), received ", paddings.size()));
  std::vector<int64_t> axes, starts, ends;
  for (int d = 0; d < dims.size(); ++d) {
    axes.push_back(d);
    starts.push_back(paddings[2 * d]);
    ends.push_back(dims[d] - paddings[2 * d + 1]);
  }
  *x_grad = slice(out_grad, axes, starts, ends);
}

void pad3d_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int32_t>& paddings,
                const std::string& mode, const std::string& data_format, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = ops::pad3d_grad(out_grad, paddings, mode, data_format);
  // A program may pair an out_grad with an x it is not the padding of.
  PD_CHECK(x_grad->dims() == x.dims(),
           errors::InvalidArgument("pad3d_grad: argument 'out_grad' of shape ",
                                   out_grad.dims().ToString(), " is not the shape of 'x' ",
                                   x.dims().ToString(), " padded by the paddings"));
}

// pad3d_grad is linear in out_grad; its adjoint pads without adding a constant.
void pad3d_grad_grad(const Tensor& x_grad_grad, const std::vector<int32_t>& paddings,
                     const std::string& mode, const std::string& data_format,
                     Tensor* out_grad_grad) {
  if (out_grad_grad) *out_grad_grad = pad3d(x_grad_grad, paddings, mode, 0.0f, data_format);
}

void flip_grad(const Tensor& out_grad, const std::vector<int32_t>& axis, Tensor* x_grad) {
  if (x_grad) *x_grad = flip(out_grad, axis);
}

void roll_grad(const Tensor& out_grad, const std::vector<int64_t>& shifts,
               const std::vector<int64_t>& axis, Tensor* x_grad) {
  if (!x_grad) return;
  PD_CHECK(axis.empty() || axis.size() == shifts.size(),
           errors::InvalidArgument("roll_grad: arguments 'shifts' and 'axis' must have the same "
                                   "length, received ",
                                   shifts.size(), " and ", axis.size()));
  // Rolling back by -shift: taken modulo the rolled size first, since -INT64_MIN overflows.
  std::vector<int64_t> back;
  for (size_t k = 0; k < shifts.size(); ++k) {
    const int rank = out_grad.dims().size();
    int64_t n =
        axis.empty() ? out_grad.numel() : out_grad.dims()[AxisOfDim(axis[k], rank, "roll_grad")];
    back.push_back(n == 0 ? 0 : -(shifts[k] % n));
  }
  *x_grad = roll(out_grad, back, axis);
}

// The output is x repeated r_i times along each axis i (x's dims d aligned with the repeats).
// Each repeated axis, seen as [before, r_i, d_i * after], is summed over r_i in turn, which keeps
// every reshape at rank 3.
void tile_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int32_t>& repeat_times,
               Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& x_dims = x.dims();
  if (x.numel() == 0 || out_grad.numel() == 0) {
    // Nothing to sum (and reshape would read a 0 as "keep this dim").
    *x_grad = ZerosLike(x);
    return;
  }
  const int rank = std::max<int>(x_dims.size(), static_cast<int>(repeat_times.size()));
  std::vector<int64_t> d(rank), r(rank);
  for (int i = 0; i < rank; ++i) {
    int xi = i - (rank - x_dims.size());
    int ri = i - (rank - static_cast<int>(repeat_times.size()));
    d[i] = xi >= 0 ? x_dims[xi] : 1;
    r[i] = ri >= 0 ? repeat_times[ri] : 1;
  }
  std::vector<int64_t> current(rank);  // the gradient's dims, repeated axes summed so far
  for (int i = 0; i < rank; ++i) current[i] = d[i] * r[i];
  Tensor g = out_grad;
  for (int i = 0; i < rank; ++i) {
    if (r[i] == 1) continue;
    int64_t before = 1, after = 1;
    for (int j = 0; j < i; ++j) before *= current[j];
    for (int j = i + 1; j < rank; ++j) after *= current[j];
    g = sum(reshape(g, {before, r[i], d[i] * after}), {1});
    current[i] = d[i];
  }
  *x_grad = reshape(g, x_dims.ToVector());
}

// The engine sums the gradient of a broadcast back to x's shape.
void expand_as_grad(const Tensor& x, const Tensor& out_grad, Tensor* x_grad) {
  if (x_grad) *x_grad = out_grad;
}

void pixel_unshuffle_grad(const Tensor& out_grad, int32_t downscale_factor,
                          const std::string& data_format, Tensor* x_grad) {
  if (x_grad) *x_grad = pixel_shuffle(out_grad, downscale_factor, data_format);
}

void channel_shuffle_grad(const Tensor& out_grad, int32_t groups, const std::string& data_format,
                          Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& dims = out_grad.dims();
  PD_CHECK(dims.size() == 4 && groups > 0,
           errors::InvalidArgument("channel_shuffle_grad: needs a 4-D 'out_grad' and positive "
                                   "'groups', received shape ",
                                   dims.ToString(), " and groups = ", groups));
  int64_t channels = dims[data_format == "NCHW" ? 1 : 3];
  *x_grad = channel_shuffle(out_grad, static_cast<int32_t>(channels / groups), data_format);
}

void unfold_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int32_t>& kernel_sizes,
                 const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                 const std::vector<int32_t>& dilations, Tensor* x_grad) {
  if (!x_grad) return;
  const DDim& dims = x.dims();
  constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
  PD_CHECK(dims.size() == 4 && dims[2] <= kIntMax && dims[3] <= kIntMax,
           errors::InvalidArgument("unfold_grad: argument 'x' must be a 4-D image of at most "
                                   "2^31 - 1 rows and columns, received shape ",
                                   dims.ToString()));
  std::vector<int32_t> image = {static_cast<int32_t>(dims[2]), static_cast<int32_t>(dims[3])};
  *x_grad = fold(out_grad, image, kernel_sizes, strides, paddings, dilations);
}

void fold_grad(const Tensor& out_grad, const std::vector<int32_t>& kernel_sizes,
               const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
               const std::vector<int32_t>& dilations, Tensor* x_grad) {
  if (x_grad) *x_grad = unfold(out_grad, kernel_sizes, strides, paddings, dilations);
}

}  // namespace paddle::ops::grad
