#include "paddle/ops/infermeta/amp.h"

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckGradients(const char* op, const std::vector<TensorMeta>& x) {
  for (size_t i = 0; i < x.size(); ++i) {
    PD_CHECK(IsFloating(x[i].dtype),
             errors::InvalidType(op, ": argument 'x' must hold floating-point tensors, but x[", i,
                                 "] is ", DataTypeName(x[i].dtype)));
  }
}

void CheckOneElement(const char* op, const TensorMeta& t, const char* name, bool ok_dtype,
                     const char* expected) {
  PD_CHECK(MayHoldOneElement(t.dims), errors::InvalidArgument(op, ": argument '", name,
                                                              "' must hold one element, received "
                                                              "shape ",
                                                              t.dims.ToString()));
  PD_CHECK(ok_dtype, errors::InvalidType(op, ": argument '", name, "' must be ", expected,
                                         ", received ", DataTypeName(t.dtype)));
}

}  // namespace

void CheckFiniteAndUnscaleInferMeta(const std::vector<TensorMeta>& x, const TensorMeta& scale,
                                    std::vector<TensorMeta>* out, TensorMeta* found_infinite) {
  const char* op = "check_finite_and_unscale";
  CheckGradients(op, x);
  CheckOneElement(op, scale, "scale", IsFloating(scale.dtype), "floating-point");
  *out = x;
  found_infinite->dims = DDim({1});
  found_infinite->dtype = DataType::BOOL;
}

void UpdateLossScalingInferMeta(const std::vector<TensorMeta>& x, const TensorMeta& found_infinite,
                                const TensorMeta& prev_loss_scaling,
                                const TensorMeta& in_good_steps, const TensorMeta& in_bad_steps,
                                int32_t incr_every_n_steps, int32_t decr_every_n_nan_or_inf,
                                double incr_ratio, double decr_ratio, bool stop_update,
                                std::vector<TensorMeta>* out, TensorMeta* loss_scaling,
                                TensorMeta* out_good_steps, TensorMeta* out_bad_steps) {
  const char* op = "update_loss_scaling";
  CheckGradients(op, x);
  CheckOneElement(op, found_infinite, "found_infinite", found_infinite.dtype == DataType::BOOL,
                  "bool");
  CheckOneElement(op, prev_loss_scaling, "prev_loss_scaling", IsFloating(prev_loss_scaling.dtype),
                  "floating-point");
  CheckOneElement(op, in_good_steps, "in_good_steps", in_good_steps.dtype == DataType::INT32,
                  "int32");
  CheckOneElement(op, in_bad_steps, "in_bad_steps", in_bad_steps.dtype == DataType::INT32, "int32");
  PD_CHECK(incr_every_n_steps > 0,
           errors::InvalidArgument(op, ": incr_every_n_steps must be positive, received ",
                                   incr_every_n_steps));
  PD_CHECK(decr_every_n_nan_or_inf > 0,
           errors::InvalidArgument(op, ": decr_every_n_nan_or_inf must be positive, received ",
                                   decr_every_n_nan_or_inf));
  PD_CHECK(incr_ratio > 1.0, errors::InvalidArgument(
                                 op, ": incr_ratio must be greater than 1, received ", incr_ratio));
  PD_CHECK(decr_ratio > 0.0 && decr_ratio < 1.0,
           errors::InvalidArgument(op, ": decr_ratio must be in (0, 1), received ", decr_ratio));
  *out = x;
  *loss_scaling = prev_loss_scaling;
  *out_good_steps = in_good_steps;
  *out_bad_steps = in_bad_steps;
}

}  // namespace paddle
