// InferMeta of the fused inference ops that the predictor's rewrites write.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out is x and y (y aligned at `axis`) broadcast together; intermediate_out holds the inner
// functor's result when save_intermediate_out, else it is empty ([0]).
void FusedElemwiseActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                      const std::vector<std::string>& functor_list, int32_t axis,
                                      float scale, bool save_intermediate_out, TensorMeta* out,
                                      TensorMeta* intermediate_out);

// output is conv2d's output of input and filter; bias holds one value per output channel ([C] or
// the output's rank with C on the channel axis); residual_data, where given, has the output's
// shape. outputs are output's channel slices of split_channels' sizes (none when it is empty).
// fused_elemwise_activation's meta, for a functor_list whose binary functor is elementwise_add.
void FusedElemwiseAddActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                         const std::vector<std::string>& functor_list, int32_t axis,
                                         float scale, bool save_intermediate_out, TensorMeta* out,
                                         TensorMeta* intermediate_out);

void FusedConv2dAddActInferMeta(
    const TensorMeta& input, const TensorMeta& filter, const TensorMeta& bias,
    const TensorMeta* residual_data, const std::vector<int32_t>& strides,
    const std::vector<int32_t>& paddings, const std::string& padding_algorithm,
    const std::vector<int32_t>& dilations, int32_t groups, const std::string& data_format,
    const std::string& activation, const std::vector<int32_t>& split_channels,
    bool exhaustive_search, int32_t workspace_size_MB, float fuse_alpha, bool onednn_blocked_input,
    bool onednn_blocked_residual, bool onednn_blocked_output, TensorMeta* output,
    std::vector<TensorMeta>* outputs);

}  // namespace paddle
