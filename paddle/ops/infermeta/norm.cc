#include "paddle/ops/infermeta/norm.h"

#include <utility>

#include "paddle/common/data_format.h"
#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckAffine(const TensorMeta* t, const char* name, const TensorMeta& x, int64_t size) {
  if (t == nullptr) return;
  PD_CHECK(t->dims.size() == 1,
           errors::InvalidArgument("layer_norm: argument '", name, "' must be 1-D, received shape ",
                                   t->dims.ToString()));
  PD_CHECK(t->dims[0] == size || t->dims[0] == -1 || size < 0,
           errors::InvalidArgument("layer_norm: argument '", name, "' must have ", size,
                                   " elements (the product of the normalized dims of ",
                                   x.dims.ToString(), "), received shape ", t->dims.ToString()));
  PD_CHECK(t->dtype == x.dtype,
           errors::InvalidArgument("layer_norm: argument '", name, "' must have the dtype of 'x' (",
                                   DataTypeName(x.dtype), "), received ", DataTypeName(t->dtype)));
}

// The dtype of the statistics of a normalization of x: float32 for 16-bit floats, x's otherwise.
DataType StatisticsDtype(DataType x) {
  return x == DataType::FLOAT16 || x == DataType::BFLOAT16 ? DataType::FLOAT32 : x;
}

void CheckFloating(const TensorMeta& x, const char* op, const char* name) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument(op, ": argument '", name, "' must be floating-point, received ",
                                   DataTypeName(x.dtype)));
}

// t (when given) is 1-D with `size` elements (either may be unknown, -1) of dtype `dtype`.
void CheckVector(const TensorMeta* t, const char* op, const char* name, int64_t size,
                 DataType dtype, const char* what) {
  if (t == nullptr) return;
  PD_CHECK(t->dims.size() == 1 && DimsAgree(t->dims[0], size),
           errors::InvalidArgument(op, ": argument '", name, "' must be 1-D with ", size,
                                   " elements (", what, "), received shape ", t->dims.ToString()));
  PD_CHECK(t->dtype == dtype,
           errors::InvalidArgument(op, ": argument '", name, "' must have dtype ",
                                   DataTypeName(dtype), ", received ", DataTypeName(t->dtype)));
}

// t has x's shape and dtype (a gradient or a saved output of x's op).
void CheckLikeX(const TensorMeta& t, const char* op, const char* name, const TensorMeta& x) {
  PD_CHECK(
      ShapesAgree(t.dims, x.dims) && t.dtype == x.dtype,
      errors::InvalidArgument(op, ": argument '", name, "' must have the shape ", x.dims.ToString(),
                              " and dtype ", DataTypeName(x.dtype), " of 'x', received ",
                              t.dims.ToString(), " ", DataTypeName(t.dtype)));
}

// The product of x's dims except `skip` (-1 for none), or -1 where one is unknown.
int64_t ProductExcept(const DDim& dims, int skip) {
  int64_t product = 1;
  for (int i = 0; i < dims.size(); ++i) {
    if (i == skip) continue;
    if (IsUnknown(dims[i])) return kUnknownDim;
    product *= dims[i];
  }
  return product;
}

// The channels of group_norm's x, after checking what the forward and the gradient share.
int64_t GroupNormChannels(const TensorMeta& x, int32_t groups, const std::string& data_format,
                          const char* op) {
  CheckFloating(x, op, "x");
  const int rank = x.dims.size();
  PD_CHECK(rank >= 2, errors::InvalidArgument(op,
                                              ": argument 'x' must have at least 2 dims "
                                              "(N, C, ...), received shape ",
                                              x.dims.ToString()));
  const int64_t channels = x.dims[ChannelAxis(data_format, rank, op)];
  PD_CHECK(groups >= 1, errors::InvalidArgument(op,
                                                ": attribute 'groups' must be at least 1, "
                                                "received ",
                                                groups));
  PD_CHECK(
      IsUnknown(channels) || channels % groups == 0,
      errors::InvalidArgument(op, ": the channels of argument 'x' (", channels, ", shape ",
                              x.dims.ToString(), ") must be divisible by 'groups' (", groups, ")"));
  return channels;
}

// The channels of instance_norm's x (2-D to 5-D, channel first).
int64_t InstanceNormChannels(const TensorMeta& x, const char* op) {
  CheckFloating(x, op, "x");
  const int rank = x.dims.size();
  PD_CHECK(rank >= 2 && rank <= 5,
           errors::InvalidArgument(op,
                                   ": argument 'x' must be 2-D to 5-D (N, C, ...), received "
                                   "shape ",
                                   x.dims.ToString()));
  return x.dims[1];
}

// N * C of a channel-first x, or -1 where either is unknown.
int64_t SamplesTimesChannels(const TensorMeta& x) {
  return IsUnknown(x.dims[0]) || IsUnknown(x.dims[1]) ? kUnknownDim : x.dims[0] * x.dims[1];
}

void CheckLrn(const TensorMeta& x, int32_t n, const std::string& data_format, const char* op) {
  CheckFloating(x, op, "x");
  const int rank = x.dims.size();
  PD_CHECK(rank >= 3 && rank <= 5,
           errors::InvalidArgument(op, ": argument 'x' must be 3-D to 5-D, received shape ",
                                   x.dims.ToString()));
  PD_CHECK(n >= 1, errors::InvalidArgument(op,
                                           ": attribute 'n' (the channels each sum spans) "
                                           "must be at least 1, received ",
                                           n));
  if (data_format != "AnyLayout") ChannelAxis(data_format, rank, op);
}

// The rows (weight's dim `dim`) of spectral_norm's matrix, after checking weight, dim, u and v.
void CheckSpectralNorm(const TensorMeta& weight, const TensorMeta& u, const TensorMeta& v,
                       int32_t dim, int32_t power_iters, const char* op) {
  CheckFloating(weight, op, "weight");
  const int rank = weight.dims.size();
  PD_CHECK(rank >= 2, errors::InvalidArgument(op,
                                              ": argument 'weight' must have at least 2 dims, "
                                              "received shape ",
                                              weight.dims.ToString()));
  PD_CHECK(dim >= 0 && dim < rank,
           errors::InvalidArgument(op, ": attribute 'dim' must be in [0, ", rank,
                                   ") for a weight of shape ", weight.dims.ToString(),
                                   ", received ", dim));
  PD_CHECK(power_iters >= 0, errors::InvalidArgument(op,
                                                     ": attribute 'power_iters' must be "
                                                     "non-negative, received ",
                                                     power_iters));
  CheckVector(&u, op, "u", weight.dims[dim], weight.dtype, "weight's dim 'dim'");
  CheckVector(&v, op, "v", ProductExcept(weight.dims, dim), weight.dtype,
              "the product of weight's other dims");
}

}  // namespace

void LayerNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                        float epsilon, int32_t begin_norm_axis, TensorMeta* out, TensorMeta* mean,
                        TensorMeta* variance) {
  int rank = x.dims.size();
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidArgument("layer_norm: argument 'x' must be floating-point, received ",
                                   DataTypeName(x.dtype)));
  PD_CHECK(rank >= 1 && begin_norm_axis >= 1 && begin_norm_axis < rank,
           errors::InvalidArgument("layer_norm: 'begin_norm_axis' must be in [1, ", rank,
                                   ") for an input of shape ", x.dims.ToString(), ", received ",
                                   begin_norm_axis));
  int64_t left = 1;
  int64_t right = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t d = x.dims[i];
    int64_t& part = i < begin_norm_axis ? left : right;
    part = (d < 0 || part < 0) ? -1 : part * d;
  }
  CheckAffine(scale, "scale", x, right);
  CheckAffine(bias, "bias", x, right);
  *out = x;
  bool low_precision = x.dtype == DataType::FLOAT16 || x.dtype == DataType::BFLOAT16;
  mean->dims = DDim(std::vector<int64_t>{left});
  mean->dtype = low_precision ? DataType::FLOAT32 : x.dtype;
  *variance = *mean;
}

void GroupNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                        float epsilon, int32_t groups, const std::string& data_format,
                        TensorMeta* y, TensorMeta* mean, TensorMeta* variance) {
  const int64_t channels = GroupNormChannels(x, groups, data_format, "group_norm");
  CheckVector(scale, "group_norm", "scale", channels, x.dtype, "the channels of 'x'");
  CheckVector(bias, "group_norm", "bias", channels, x.dtype, "the channels of 'x'");
  *y = x;
  mean->dims = DDim({x.dims[0], int64_t{groups}});
  mean->dtype = StatisticsDtype(x.dtype);
  *variance = *mean;
}

void GroupNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta& mean,
                            const TensorMeta& variance, const TensorMeta& y_grad, float epsilon,
                            int32_t groups, const std::string& data_format, TensorMeta* x_grad,
                            TensorMeta* scale_grad, TensorMeta* bias_grad) {
  const char* op = "group_norm_grad";
  const int64_t channels = GroupNormChannels(x, groups, data_format, op);
  CheckVector(scale, op, "scale", channels, x.dtype, "the channels of 'x'");
  CheckLikeX(y_grad, op, "y_grad", x);
  // The kernel reads one statistic per (sample, group): a program file could give fewer.
  const DDim statistics({x.dims[0], int64_t{groups}});
  for (const auto& [t, name] : {std::pair{&mean, "mean"}, std::pair{&variance, "variance"}}) {
    PD_CHECK(ShapesAgree(t->dims, statistics) && t->dtype == StatisticsDtype(x.dtype),
             errors::InvalidArgument(op, ": argument '", name, "' must have the shape ",
                                     statistics.ToString(), " and dtype ",
                                     DataTypeName(StatisticsDtype(x.dtype)), ", received ",
                                     t->dims.ToString(), " ", DataTypeName(t->dtype)));
  }
  *x_grad = x;
  scale_grad->dims = DDim({channels});
  scale_grad->dtype = x.dtype;
  *bias_grad = *scale_grad;
}

void InstanceNormInferMeta(const TensorMeta& x, const TensorMeta* scale, const TensorMeta* bias,
                           float epsilon, TensorMeta* y, TensorMeta* saved_mean,
                           TensorMeta* saved_variance) {
  const int64_t channels = InstanceNormChannels(x, "instance_norm");
  CheckVector(scale, "instance_norm", "scale", channels, x.dtype, "the channels of 'x'");
  CheckVector(bias, "instance_norm", "bias", channels, x.dtype, "the channels of 'x'");
  *y = x;
  saved_mean->dims = DDim({SamplesTimesChannels(x)});
  saved_mean->dtype = StatisticsDtype(x.dtype);
  *saved_variance = *saved_mean;
}

void InstanceNormGradInferMeta(const TensorMeta& x, const TensorMeta* scale,
                               const TensorMeta& saved_mean, const TensorMeta& saved_variance,
                               const TensorMeta& y_grad, float epsilon, TensorMeta* x_grad,
                               TensorMeta* scale_grad, TensorMeta* bias_grad) {
  const char* op = "instance_norm_grad";
  const int64_t channels = InstanceNormChannels(x, op);
  CheckVector(scale, op, "scale", channels, x.dtype, "the channels of 'x'");
  CheckLikeX(y_grad, op, "y_grad", x);
  const DataType statistics = StatisticsDtype(x.dtype);
  CheckVector(&saved_mean, op, "saved_mean", SamplesTimesChannels(x), statistics, "N * C of 'x'");
  CheckVector(&saved_variance, op, "saved_variance", SamplesTimesChannels(x), statistics,
              "N * C of 'x'");
  *x_grad = x;
  scale_grad->dims = DDim({channels});
  scale_grad->dtype = x.dtype;
  *bias_grad = *scale_grad;
}

void LrnInferMeta(const TensorMeta& x, int32_t n, float k, float alpha, float beta,
                  const std::string& data_format, TensorMeta* out, TensorMeta* mid_out) {
  CheckLrn(x, n, data_format, "lrn");
  *out = x;
  *mid_out = x;
}

void LrnGradInferMeta(const TensorMeta& x, const TensorMeta& out, const TensorMeta& mid_out,
                      const TensorMeta& out_grad, int32_t n, float alpha, float beta,
                      const std::string& data_format, TensorMeta* x_grad) {
  CheckLrn(x, n, data_format, "lrn_grad");
  CheckLikeX(out, "lrn_grad", "out", x);
  CheckLikeX(mid_out, "lrn_grad", "mid_out", x);
  CheckLikeX(out_grad, "lrn_grad", "out_grad", x);
  *x_grad = x;
}

void SpectralNormInferMeta(const TensorMeta& weight, const TensorMeta& u, const TensorMeta& v,
                           int32_t dim, int32_t power_iters, float eps, TensorMeta* out) {
  CheckSpectralNorm(weight, u, v, dim, power_iters, "spectral_norm");
  *out = weight;
}

void SpectralNormGradInferMeta(const TensorMeta& weight, const TensorMeta& u, const TensorMeta& v,
                               const TensorMeta& out_grad, int32_t dim, int32_t power_iters,
                               float eps, TensorMeta* weight_grad) {
  CheckSpectralNorm(weight, u, v, dim, power_iters, "spectral_norm_grad");
  PD_CHECK(ShapesAgree(out_grad.dims, weight.dims) && out_grad.dtype == weight.dtype,
           errors::InvalidArgument("spectral_norm_grad: argument 'out_grad' must have the shape ",
                                   weight.dims.ToString(), " and dtype ",
                                   DataTypeName(weight.dtype), " of 'weight', received ",
                                   out_grad.dims.ToString(), " ", DataTypeName(out_grad.dtype)));
  *weight_grad = weight;
}

}  // namespace paddle
