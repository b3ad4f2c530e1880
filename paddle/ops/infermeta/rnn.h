// InferMeta of the fused recurrent network op `rnn` and its gradient. x is time major [T, B, I];
// pre_state holds h0 (and c0 for LSTM), each [num_layers * D, B, hidden_size]; weight_list is
// Paddle's WeightList (every w_ih [G * H, in], w_hh [G * H, H], then every b_ih, b_hh [G * H]);
// sequence_length (optional) [B] int32 or int64. Whether each length is at most T depends on the
// data, so the kernel checks it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// out [T, B, D * H]; dropout_state (uint8) [num_layers - 1, T, B, D * H] when training with
// dropout between layers, else [0]; state like pre_state; reserve [n] (x's dtype): the values
// the backward reads (funcs::RnnReserveLayout).
void RnnInferMeta(const TensorMeta& x, const std::vector<TensorMeta>& pre_state,
                  const std::vector<TensorMeta>& weight_list, const TensorMeta* sequence_length,
                  float dropout_prob, bool is_bidirec, int32_t input_size, int32_t hidden_size,
                  int32_t num_layers, const std::string& mode, int32_t seed, bool is_test,
                  TensorMeta* out, TensorMeta* dropout_state, std::vector<TensorMeta>* state,
                  TensorMeta* reserve);

// Each gradient takes its input's meta.
void RnnGradInferMeta(const TensorMeta& x, const std::vector<TensorMeta>& pre_state,
                      const std::vector<TensorMeta>& weight_list, const TensorMeta* sequence_length,
                      const TensorMeta& dropout_state, const TensorMeta& reserve,
                      const TensorMeta& out_grad, const std::vector<TensorMeta>& state_grad,
                      float dropout_prob, bool is_bidirec, int32_t input_size, int32_t hidden_size,
                      int32_t num_layers, const std::string& mode, int32_t seed, bool is_test,
                      TensorMeta* x_grad, std::vector<TensorMeta>* pre_state_grad,
                      std::vector<TensorMeta>* weight_list_grad);

}  // namespace paddle
