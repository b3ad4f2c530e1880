#include "paddle/ops/infermeta/batch_norm.h"

#include "paddle/common/data_format.h"
#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

bool Is16BitFloat(DataType dtype) {
  return dtype == DataType::FLOAT16 || dtype == DataType::BFLOAT16;
}

// mean, variance, scale and bias: 1-D with `channels` elements (unknown, -1, passes), in x's
// dtype or, for a 16-bit x, float32.
void CheckPerChannel(const TensorMeta* t, const char* name, const TensorMeta& x, int64_t channels,
                     const char* op = "batch_norm") {
  if (t == nullptr) return;
  PD_CHECK(t->dims.size() == 1 && (t->dims[0] == channels || t->dims[0] == -1 || channels == -1),
           errors::InvalidArgument(op, ": argument '", name, "' must be 1-D with ", channels,
                                   " elements (the channels of 'x' of shape ", x.dims.ToString(),
                                   "), received shape ", t->dims.ToString()));
  bool dtype_ok = t->dtype == x.dtype || (Is16BitFloat(x.dtype) && t->dtype == DataType::FLOAT32);
  PD_CHECK(dtype_ok,
           errors::InvalidArgument(
               op, ": argument '", name, "' must have the dtype of 'x' (", DataTypeName(x.dtype),
               Is16BitFloat(x.dtype) ? " or float32" : "", "), received ", DataTypeName(t->dtype)));
}

}  // namespace

void BatchNormInferMeta(const TensorMeta& x, const TensorMeta& mean, const TensorMeta& variance,
                        const TensorMeta* scale, const TensorMeta* bias,
                        const std::string& data_format, TensorMeta* out, TensorMeta* mean_out,
                        TensorMeta* variance_out, TensorMeta* saved_mean,
                        TensorMeta* saved_variance, TensorMeta* reserve_space) {
  const int rank = x.dims.size();
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("batch_norm: argument 'x' must be floating-point, received ",
                                   DataTypeName(x.dtype)));
  PD_CHECK(rank >= 2 && rank <= 5,
           errors::InvalidArgument("batch_norm: argument 'x' must be 2-D to 5-D, received shape ",
                                   x.dims.ToString()));
  const int64_t channels = x.dims[ChannelAxis(data_format, rank, "batch_norm")];
  CheckPerChannel(&mean, "mean", x, channels);
  CheckPerChannel(&variance, "variance", x, channels);
  CheckPerChannel(scale, "scale", x, channels);
  CheckPerChannel(bias, "bias", x, channels);
  *out = x;
  *mean_out = mean;
  *variance_out = variance;
  saved_mean->dims = DDim({channels});
  saved_mean->dtype = mean.dtype;
  *saved_variance = *saved_mean;
  reserve_space->dims = DDim({0});
  reserve_space->dtype = DataType::UINT8;
}

void BatchNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale,
                            const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                            const TensorMeta& out_grad, const std::string& data_format,
                            bool use_global_stats, TensorMeta* x_grad, TensorMeta* scale_grad,
                            TensorMeta* bias_grad) {
  const int rank = x.dims.size();
  PD_CHECK(rank >= 2 && rank <= 5,
           errors::InvalidArgument("batch_norm_grad: argument 'x' must be 2-D to 5-D, received "
                                   "shape ",
                                   x.dims.ToString()));
  PD_CHECK(
      ShapesAgree(out_grad.dims, x.dims),
      errors::InvalidArgument("batch_norm_grad: argument 'out_grad' must have the shape ",
                              x.dims.ToString(), " of 'x', received ", out_grad.dims.ToString()));
  const int64_t channels = x.dims[ChannelAxis(data_format, rank, "batch_norm_grad")];
  // The kernel reads one statistic (and scale) per channel: a program file could give fewer.
  CheckPerChannel(scale, "scale", x, channels, "batch_norm_grad");
  CheckPerChannel(&saved_mean, "saved_mean", x, channels, "batch_norm_grad");
  CheckPerChannel(&saved_variance, "saved_variance", x, channels, "batch_norm_grad");
  *x_grad = x;
  scale_grad->dims = DDim({channels});
  scale_grad->dtype = scale ? scale->dtype : saved_mean.dtype;
  *bias_grad = *scale_grad;
}

namespace {

void CheckFusedBatchNormAct(const TensorMeta& x, const std::string& act_type, const char* op) {
  PD_CHECK(act_type == "relu",
           errors::InvalidArgument(op, ": argument 'act_type' must be \"relu\", received \"",
                                   act_type, "\""));
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument(op, ": argument 'x' must be floating-point, received ",
                                   DataTypeName(x.dtype)));
  PD_CHECK(x.dims.size() >= 2 && x.dims.size() <= 5,
           errors::InvalidArgument(op,
                                   ": argument 'x' must be 2-D to 5-D with the channels last, "
                                   "received shape ",
                                   x.dims.ToString()));
}

}  // namespace

void FusedBatchNormActInferMeta(const TensorMeta& x, const TensorMeta& scale,
                                const TensorMeta& bias, const TensorMeta& mean,
                                const TensorMeta& variance, float momentum, float epsilon,
                                const std::string& act_type, TensorMeta* out, TensorMeta* mean_out,
                                TensorMeta* variance_out, TensorMeta* saved_mean,
                                TensorMeta* saved_variance, TensorMeta* reserve_space) {
  constexpr const char* kOp = "fused_batch_norm_act";
  CheckFusedBatchNormAct(x, act_type, kOp);
  const int64_t channels = x.dims[x.dims.size() - 1];
  CheckPerChannel(&scale, "scale", x, channels, kOp);
  CheckPerChannel(&bias, "bias", x, channels, kOp);
  CheckPerChannel(&mean, "mean", x, channels, kOp);
  CheckPerChannel(&variance, "variance", x, channels, kOp);
  BatchNormInferMeta(x, mean, variance, &scale, &bias, "NHWC", out, mean_out, variance_out,
                     saved_mean, saved_variance, reserve_space);
}

void FusedBatchNormActGradInferMeta(const TensorMeta& x, const TensorMeta& scale,
                                    const TensorMeta& bias, const TensorMeta& out,
                                    const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                                    const TensorMeta& reserve_space, const TensorMeta& out_grad,
                                    float momentum, float epsilon, const std::string& act_type,
                                    TensorMeta* x_grad, TensorMeta* scale_grad,
                                    TensorMeta* bias_grad) {
  constexpr const char* kOp = "fused_batch_norm_act_grad";
  CheckFusedBatchNormAct(x, act_type, kOp);
  const int64_t channels = x.dims[x.dims.size() - 1];
  CheckPerChannel(&scale, "scale", x, channels, kOp);
  CheckPerChannel(&bias, "bias", x, channels, kOp);
  PD_CHECK(ShapesAgree(out.dims, x.dims),
           errors::InvalidArgument(kOp, ": argument 'out' must have the shape ", x.dims.ToString(),
                                   " of 'x', received ", out.dims.ToString()));
  BatchNormGradInferMeta(x, &scale, saved_mean, saved_variance, out_grad, "NHWC", false, x_grad,
                         scale_grad, bias_grad);
}

}  // namespace paddle
