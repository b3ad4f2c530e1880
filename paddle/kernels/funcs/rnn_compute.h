// The fused recurrent network of the `rnn` op (LSTM, GRU, RNN_TANH, RNN_RELU), forward and
// backward, on the CPU. Each layer and direction runs one GEMM for the input projection of every
// time step, then per step one GEMM for the hidden projection and the fused gate math. Everything
// backward needs (activated gates, the state before each step, the inputs of the upper layers)
// lives in the op's Reserve output, so no step allocates.
//
// Tensors are time major: x [T, B, I], out [T, B, D * H], states [L * D, B, H]. weights holds
// Paddle's WeightList: w_ih [G * H, in] and w_hh [G * H, H] of each layer and direction (layer
// major), then b_ih [G * H] and b_hh [G * H] in the same order; G is 4 for LSTM (gates i, f, g,
// o), 3 for GRU (r, z, c), 1 for the simple RNNs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace paddle::funcs {

enum class RnnMode { kLstm, kGru, kRnnTanh, kRnnRelu };

// Parses Paddle's mode attribute; throws InvalidArgument naming `op` for an unknown mode.
RnnMode ParseRnnMode(const char* op, const std::string& mode);
int RnnGateCount(RnnMode mode);
int RnnStateCount(RnnMode mode);  // 2 for LSTM (h, c), 1 otherwise

struct RnnShape {
  RnnMode mode = RnnMode::kLstm;
  int64_t seq_len = 0;
  int64_t batch = 0;
  int64_t input_size = 0;
  int64_t hidden_size = 0;
  int num_layers = 1;
  int num_directions = 1;

  int64_t gate_width() const { return RnnGateCount(mode) * hidden_size; }
  int64_t layer_input_size(int layer) const {
    return layer == 0 ? input_size : num_directions * hidden_size;
  }
};

// Where each part of the Reserve buffer lies (in elements): per layer and direction the activated
// gates [T, B, G * H], the hidden state before each step [T, B, H] and, for LSTM the cell state
// before each step, for GRU the hidden projection of the candidate (W_hc h + b_hc) [T, B, H]; then
// the input of each layer above the first [T, B, D * H] (after dropout).
struct RnnReserveLayout {
  explicit RnnReserveLayout(const RnnShape& shape);
  int64_t gates(int layer, int direction) const;
  int64_t prev_hidden(int layer, int direction) const;
  int64_t aux(int layer, int direction) const;  // LSTM: cell before each step; GRU: W_hc h + b_hc
  int64_t layer_input(int layer) const;         // layer >= 1
  int64_t total = 0;

 private:
  int64_t block_ = 0;  // one layer and direction
  int64_t step_block_ = 0;
  int num_directions_ = 1;
  int num_layers_ = 1;
  int64_t layer_input_size_ = 0;
  bool has_aux_ = false;
};

template <typename T>
struct RnnForwardArgs {
  const T* x = nullptr;
  std::vector<const T*> init_state;  // h0 (and c0) [L * D, B, H]
  std::vector<const T*> weights;     // 4 * L * D pointers, Paddle's WeightList order
  const int64_t* lengths = nullptr;  // [B], each in [0, T]; null: every sequence is T long
  float dropout_prob = 0.0f;
  bool training = false;
  int64_t seed = 0;
  T* out = nullptr;
  std::vector<T*> final_state;      // like init_state
  T* reserve = nullptr;             // RnnReserveLayout(shape).total elements
  uint8_t* dropout_mask = nullptr;  // [L - 1, T, B, D * H] when training with dropout
};

template <typename T>
void RnnForward(const RnnShape& shape, const RnnForwardArgs<T>& args);

template <typename T>
struct RnnBackwardArgs {
  const T* x = nullptr;
  std::vector<const T*> init_state;
  std::vector<const T*> weights;
  const int64_t* lengths = nullptr;
  float dropout_prob = 0.0f;
  const T* reserve = nullptr;
  const uint8_t* dropout_mask = nullptr;  // null when no dropout ran
  const T* out_grad = nullptr;            // [T, B, D * H]
  std::vector<const T*> state_grad;       // like init_state
  T* x_grad = nullptr;                    // each may be null: not needed
  std::vector<T*> init_state_grad;
  std::vector<T*> weight_grads;  // empty, or one per weight (each may be null)
};

template <typename T>
void RnnBackward(const RnnShape& shape, const RnnBackwardArgs<T>& args);

}  // namespace paddle::funcs
