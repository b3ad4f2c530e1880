// InferMeta of the loss-scaling ops (check_finite_and_unscale, update_loss_scaling). Each out[i]
// takes x[i]'s meta; the scalar outputs take their inputs'.
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

void CheckFiniteAndUnscaleInferMeta(const std::vector<TensorMeta>& x, const TensorMeta& scale,
                                    std::vector<TensorMeta>* out, TensorMeta* found_infinite);

void UpdateLossScalingInferMeta(const std::vector<TensorMeta>& x, const TensorMeta& found_infinite,
                                const TensorMeta& prev_loss_scaling,
                                const TensorMeta& in_good_steps, const TensorMeta& in_bad_steps,
                                int32_t incr_every_n_steps, int32_t decr_every_n_nan_or_inf,
                                double incr_ratio, double decr_ratio, bool stop_update,
                                std::vector<TensorMeta>* out, TensorMeta* loss_scaling,
                                TensorMeta* out_good_steps, TensorMeta* out_bad_steps);

}  // namespace paddle
