// Backward rules of the spectral ops. Every one of these ops is linear, so each gradient is the
// op's adjoint applied to out_grad, and the gradient of a gradient kernel is the forward op.
#include <string>
#include <vector>

#include "paddle/ops/generated/api/concat.h"
#include "paddle/ops/generated/api/fft_c2c.h"
#include "paddle/ops/generated/api/fft_c2r.h"
#include "paddle/ops/generated/api/fft_c2r_grad.h"
#include "paddle/ops/generated/api/fft_r2c.h"
#include "paddle/ops/generated/api/fft_r2c_grad.h"
#include "paddle/ops/generated/api/frame.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/overlap_add.h"
#include "paddle/ops/generated/grad_rules/signal.h"

namespace paddle::ops::grad {

namespace {

// The adjoint of a DFT scaled by s is the DFT the other way scaled by s: 'backward' scales the
// inverse transform and 'forward' the forward one, so reversing the direction swaps them.
std::string AdjointNormalization(const std::string& normalization) {
  if (normalization == "backward") return "forward";
  if (normalization == "forward") return "backward";
  return normalization;
}

}  // namespace

void fft_c2c_grad(const Tensor& out_grad, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, Tensor* x_grad) {
  if (x_grad) *x_grad = fft_c2c(out_grad, axes, AdjointNormalization(normalization), !forward);
}

void fft_r2c_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, bool onesided, Tensor* x_grad) {
  if (x_grad) {
    *x_grad = ops::fft_r2c_grad(x, out_grad, axes, normalization, forward, onesided);
  }
}

void fft_r2c_grad_grad(const Tensor& x_grad_grad, const std::vector<int64_t>& axes,
                       const std::string& normalization, bool forward, bool onesided,
                       Tensor* out_grad_grad) {
  if (out_grad_grad) {
    *out_grad_grad = fft_r2c(x_grad_grad, axes, normalization, forward, onesided);
  }
}

void fft_c2r_grad(const Tensor& x, const Tensor& out_grad, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, int64_t last_dim_size,
                  Tensor* x_grad) {
  if (x_grad) {
    *x_grad = ops::fft_c2r_grad(x, out_grad, axes, normalization, forward, last_dim_size);
  }
}

void fft_c2r_grad_grad(const Tensor& x_grad_grad, const std::vector<int64_t>& axes,
                       const std::string& normalization, bool forward, int64_t last_dim_size,
                       Tensor* out_grad_grad) {
  if (out_grad_grad) {
    *out_grad_grad = fft_c2r(x_grad_grad, axes, normalization, forward, last_dim_size);
  }
}

// Points past the last frame are in no frame: their gradient is zero.
void frame_grad(const Tensor& x, const Tensor& out_grad, int32_t hop_length, int32_t axis,
                Tensor* x_grad) {
  if (!x_grad) return;
  Tensor summed = overlap_add(out_grad, hop_length, axis);
  const int seq_axis = axis == 0 ? 0 : x.dims().size() - 1;
  const int64_t missing = x.dims()[seq_axis] - summed.dims()[seq_axis];
  if (missing > 0) {
    std::vector<int64_t> tail = x.dims().ToVector();
    tail[seq_axis] = missing;
    summed = concat({summed, full(tail, 0.0, x.dtype(), x.place())}, seq_axis);
  }
  *x_grad = summed;
}

void overlap_add_grad(const Tensor& x, const Tensor& out_grad, int32_t hop_length, int32_t axis,
                      Tensor* x_grad) {
  if (!x_grad) return;
  const int frame_axis = axis == 0 ? 1 : x.dims().size() - 2;
  *x_grad = frame(out_grad, static_cast<int32_t>(x.dims()[frame_axis]), hop_length, axis);
}

}  // namespace paddle::ops::grad
