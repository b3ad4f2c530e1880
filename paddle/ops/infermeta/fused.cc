#include "paddle/ops/infermeta/fused.h"

#include <algorithm>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/kernels/funcs/conv_epilogue.h"
#include "paddle/kernels/funcs/fused_elemwise_plan.h"
#include "paddle/ops/infermeta/conv.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

void FusedElemwiseActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                      const std::vector<std::string>& functor_list, int32_t axis,
                                      float scale, bool save_intermediate_out, TensorMeta* out,
                                      TensorMeta* intermediate_out) {
  const char* op = "fused_elemwise_activation";
  funcs::FusedElemwisePlan plan = funcs::ParseFusedElemwisePlan(functor_list);
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType(op, ": 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  const DDim y_dims = funcs::AlignedOperandDims(x.dims, y.dims, axis, op);
  out->dims = funcs::BroadcastShape(x.dims, y_dims, op);
  out->dtype = x.dtype;
  intermediate_out->dtype = x.dtype;
  intermediate_out->dims = !save_intermediate_out ? DDim({0})
                           : plan.unary_outside   ? out->dims
                                                  : y.dims;
}

void FusedElemwiseAddActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                         const std::vector<std::string>& functor_list, int32_t axis,
                                         float scale, bool save_intermediate_out, TensorMeta* out,
                                         TensorMeta* intermediate_out) {
  const bool has_add =
      std::find(functor_list.begin(), functor_list.end(), "elementwise_add") != functor_list.end();
  PD_CHECK(functor_list.size() == 2 && has_add,
           errors::InvalidArgument("fused_elemwise_add_activation: 'functor_list' must pair "
                                   "elementwise_add with an activation, received ",
                                   functor_list.size(), " functors without elementwise_add"));
  FusedElemwiseActivationInferMeta(x, y, functor_list, axis, scale, save_intermediate_out, out,
                                   intermediate_out);
}

void FusedConv2dAddActInferMeta(
    const TensorMeta& input, const TensorMeta& filter, const TensorMeta& bias,
    const TensorMeta* residual_data, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
    const std::vector<int32_t>& dilations, int32_t groups, const std::string& data_format,
    const std::string& activation, const std::vector<int32_t>& split_channels,
    bool exhaustive_search, int32_t workspace_size_MB, float fuse_alpha, bool onednn_blocked_input,
    bool onednn_blocked_residual, bool onednn_blocked_output, TensorMeta* output,
    std::vector<TensorMeta>* outputs) {
  const char* op = "fused_conv2d_add_act";
  Conv2dInferMeta(input, filter, strides, paddings, padding_algorithm, dilations, groups,
                  data_format, output);
  funcs::ParseConvActivation(activation, op);
  const bool channels_last = data_format == "NHWC";
  const int channel_axis = channels_last ? output->dims.size() - 1 : 1;
  const int64_t channels = output->dims[channel_axis];
  for (const auto& [name, meta] : {std::pair<const char*, const TensorMeta*>{"bias", &bias},
                                   {"residual_data", residual_data}}) {
    if (meta == nullptr) continue;
    PD_CHECK(meta->dtype == input.dtype,
             errors::InvalidType(op, ": '", name, "' has dtype ", DataTypeName(meta->dtype),
                                 ", expected ", DataTypeName(input.dtype), " like 'input'"));
  }
  // One value per output channel, as a vector or on the output's channel axis.
  bool bias_ok = bias.dims.size() == 1 && DimsAgree(bias.dims[0], channels);
  if (bias.dims.size() == output->dims.size()) {
    bias_ok = true;
    for (int i = 0; i < bias.dims.size(); ++i) {
      bias_ok = bias_ok && (i == channel_axis ? DimsAgree(bias.dims[i], channels)
                                              : DimsAgree(bias.dims[i], 1));
    }
  }
  PD_CHECK(bias_ok, errors::InvalidArgument(
                        op, ": 'bias' must hold one value per output channel (", channels,
                        "): shape [", channels, "] or the output's rank with ", channels,
                        " on the channel axis, received ", bias.dims.ToString()));
  if (residual_data != nullptr) {
    PD_CHECK(ShapesAgree(residual_data->dims, output->dims),
             errors::InvalidArgument(op, ": 'residual_data' must have the output's shape ",
                                     output->dims.ToString(), ", received ",
                                     residual_data->dims.ToString()));
  }
  if (onednn_blocked_input || onednn_blocked_residual || onednn_blocked_output) {
    PD_CHECK(
        input.dtype == DataType::FLOAT32 && !channels_last && groups == 1 && split_channels.empty(),
        errors::InvalidArgument(op,
                                ": the onednn_blocked_* attributes are for float32 "
                                "NCHW convolutions with groups 1 and no "
                                "split_channels"));
  }
  outputs->clear();
  if (split_channels.empty()) return;
  int64_t total = 0;
  for (int32_t part : split_channels) {
    PD_CHECK(part > 0, errors::InvalidArgument(op,
                                               ": each of 'split_channels' must be positive, "
                                               "received ",
                                               part));
    total += part;
    TensorMeta slice = *output;
    slice.dims[channel_axis] = part;
    outputs->push_back(slice);
  }
  PD_CHECK(IsUnknown(channels) || total == channels,
           errors::InvalidArgument(op, ": 'split_channels' must add up to the ", channels,
                                   " output channels, they add up to ", total));
}

}  // namespace paddle
