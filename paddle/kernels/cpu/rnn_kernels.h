// CPU kernels of the fused recurrent network op `rnn` and its gradient: they resolve the tensors
// (shapes checked by the InferMeta) and the sequence lengths, and run funcs/rnn_compute.h,
// compiled once per dtype out of line.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/rnn_compute.h"

namespace paddle {

namespace rnn_detail {

inline funcs::RnnShape Shape(const char* op, const DenseTensor& x, bool is_bidirec,
                             int32_t hidden_size, int32_t num_layers, const std::string& mode) {
  funcs::RnnShape s;
  s.mode = funcs::ParseRnnMode(op, mode);
  s.seq_len = x.dims()[0];
  s.batch = x.dims()[1];
  s.input_size = x.dims()[2];
  s.hidden_size = hidden_size;
  s.num_layers = num_layers;
  s.num_directions = is_bidirec ? 2 : 1;
  return s;
}

// The lengths as int64, each checked to lie in [0, T]; empty without sequence_length.
inline std::vector<int64_t> Lengths(const char* op, const DenseTensor* sequence_length,
                                    int64_t seq_len) {
  std::vector<int64_t> lengths;
  if (sequence_length == nullptr) return lengths;
  const int64_t n = sequence_length->numel();
  lengths.resize(n);
  for (int64_t b = 0; b < n; ++b) {
    lengths[b] = sequence_length->dtype() == DataType::INT32
                     ? int64_t{sequence_length->data<int32_t>()[b]}
                     : sequence_length->data<int64_t>()[b];
    PD_CHECK(lengths[b] >= 0 && lengths[b] <= seq_len,
             errors::InvalidArgument(op, ": argument 'sequence_length' (SequenceLength) [", b,
                                     "] = ", lengths[b], " must lie in [0, ", seq_len,
                                     "], the time steps of 'x'"));
  }
  return lengths;
}

template <typename T>
std::vector<const T*> Data(const std::vector<const DenseTensor*>& tensors) {
  std::vector<const T*> data;
  for (const DenseTensor* t : tensors) data.push_back(t->data<T>());
  return data;
}

}  // namespace rnn_detail

template <typename T, typename Context>
void RnnKernel(const Context& ctx, const DenseTensor& x,
               const std::vector<const DenseTensor*>& pre_state,
               const std::vector<const DenseTensor*>& weight_list,
               const DenseTensor* sequence_length, float dropout_prob, bool is_bidirec,
               int32_t input_size, int32_t hidden_size, int32_t num_layers, const std::string& mode,
               int32_t seed, bool is_test, DenseTensor* out, DenseTensor* dropout_state,
               std::vector<DenseTensor*> state, DenseTensor* reserve) {
  const funcs::RnnShape s = rnn_detail::Shape("rnn", x, is_bidirec, hidden_size, num_layers, mode);
  const std::vector<int64_t> lengths = rnn_detail::Lengths("rnn", sequence_length, s.seq_len);
  funcs::RnnForwardArgs<T> args;
  args.x = x.data<T>();
  args.init_state = rnn_detail::Data<T>(pre_state);
  args.weights = rnn_detail::Data<T>(weight_list);
  args.lengths = lengths.empty() ? nullptr : lengths.data();
  args.dropout_prob = dropout_prob;
  args.training = !is_test;
  args.seed = seed;
  args.out = ctx.template Alloc<T>(out);
  for (DenseTensor* t : state) args.final_state.push_back(ctx.template Alloc<T>(t));
  args.reserve = ctx.template Alloc<T>(reserve);
  uint8_t* mask = ctx.template Alloc<uint8_t>(dropout_state);
  args.dropout_mask = dropout_state->numel() > 0 ? mask : nullptr;
  if (s.seq_len == 0 || s.batch == 0) {  // nothing to run: the final states are the initial ones
    for (size_t i = 0; i < state.size(); ++i) {
      if (state[i]->numel() > 0) {
        std::memcpy(args.final_state[i], args.init_state[i], sizeof(T) * state[i]->numel());
      }
    }
    return;
  }
  funcs::RnnForward<T>(s, args);
}

template <typename T, typename Context>
void RnnGradKernel(const Context& ctx, const DenseTensor& x,
                   const std::vector<const DenseTensor*>& pre_state,
                   const std::vector<const DenseTensor*>& weight_list,
                   const DenseTensor* sequence_length, const DenseTensor& dropout_state,
                   const DenseTensor& reserve, const DenseTensor& out_grad,
                   const std::vector<const DenseTensor*>& state_grad, float dropout_prob,
                   bool is_bidirec, int32_t input_size, int32_t hidden_size, int32_t num_layers,
                   const std::string& mode, int32_t seed, bool is_test, DenseTensor* x_grad,
                   std::vector<DenseTensor*> pre_state_grad,
                   std::vector<DenseTensor*> weight_list_grad) {
  const funcs::RnnShape s =
      rnn_detail::Shape("rnn_grad", x, is_bidirec, hidden_size, num_layers, mode);
  const std::vector<int64_t> lengths = rnn_detail::Lengths("rnn_grad", sequence_length, s.seq_len);
  funcs::RnnBackwardArgs<T> args;
  args.x = x.data<T>();
  args.init_state = rnn_detail::Data<T>(pre_state);
  args.weights = rnn_detail::Data<T>(weight_list);
  args.lengths = lengths.empty() ? nullptr : lengths.data();
  args.dropout_prob = dropout_prob;
  args.reserve = reserve.data<T>();
  args.dropout_mask =
      !is_test && dropout_state.numel() > 0 ? dropout_state.data<uint8_t>() : nullptr;
  args.out_grad = out_grad.data<T>();
  args.state_grad = rnn_detail::Data<T>(state_grad);
  args.x_grad = x_grad ? ctx.template Alloc<T>(x_grad) : nullptr;
  for (DenseTensor* t : pre_state_grad) {
    args.init_state_grad.push_back(t ? ctx.template Alloc<T>(t) : nullptr);
  }
  for (DenseTensor* t : weight_list_grad) {
    args.weight_grads.push_back(t ? ctx.template Alloc<T>(t) : nullptr);
  }
  if (s.seq_len == 0 || s.batch == 0) {  // nothing ran: the state gradients pass through
    for (size_t i = 0; i < pre_state_grad.size(); ++i) {
      if (args.init_state_grad[i] && pre_state_grad[i]->numel() > 0) {
        std::memcpy(args.init_state_grad[i], args.state_grad[i],
                    sizeof(T) * pre_state_grad[i]->numel());
      }
    }
    for (size_t i = 0; i < weight_list_grad.size(); ++i) {
      if (args.weight_grads[i]) {
        std::memset(args.weight_grads[i], 0, sizeof(T) * weight_list_grad[i]->numel());
      }
    }
    return;
  }
  funcs::RnnBackward<T>(s, args);
}

}  // namespace paddle
