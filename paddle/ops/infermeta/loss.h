#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// Hard labels: `label` is integer with size 1 on `axis`; soft labels: `label` matches `input`.
void CrossEntropyWithSoftmaxInferMeta(const TensorMeta& input, const TensorMeta& label,
                                      bool soft_label, bool use_softmax, bool numeric_stable_mode,
                                      int32_t ignore_index, int32_t axis, TensorMeta* softmax,
                                      TensorMeta* loss);
void CrossEntropyGradInferMeta(const TensorMeta& label, const TensorMeta& softmax,
                               const TensorMeta& loss_grad, bool soft_label, bool use_softmax,
                               bool numeric_stable_mode, int32_t ignore_index, int32_t axis,
                               TensorMeta* input_grad);

// The elementwise losses: input and label of one shape and one floating dtype.
void BceLossInferMeta(const TensorMeta& input, const TensorMeta& label, TensorMeta* out);
void SigmoidCrossEntropyWithLogitsInferMeta(const TensorMeta& x, const TensorMeta& label,
                                            const TensorMeta* pos_weight, bool normalize,
                                            int32_t ignore_index, TensorMeta* out);
void HuberLossInferMeta(const TensorMeta& input, const TensorMeta& label, float delta,
                        TensorMeta* out, TensorMeta* residual);
// out is 0-d unless reduction is 'none'.
void KldivLossInferMeta(const TensorMeta& x, const TensorMeta& label, const std::string& reduction,
                        bool log_target, TensorMeta* out);
// input and label are [N, 1].
void LogLossInferMeta(const TensorMeta& input, const TensorMeta& label, float epsilon,
                      TensorMeta* out);

// input [N, C, d...], label int64 [N, d...], weight [C]; out has label's shape for 'none', else
// it is 0-d, as total_weight always is.
void NllLossInferMeta(const TensorMeta& input, const TensorMeta& label, const TensorMeta* weight,
                      int64_t ignore_index, const std::string& reduction, TensorMeta* out,
                      TensorMeta* total_weight);
void NllLossGradInferMeta(const TensorMeta& input, const TensorMeta& label,
                          const TensorMeta* weight, const TensorMeta& total_weight,
                          const TensorMeta& out_grad, int64_t ignore_index,
                          const std::string& reduction, TensorMeta* input_grad);

}  // namespace paddle
