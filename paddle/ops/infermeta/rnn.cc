#include "paddle/ops/infermeta/rnn.h"

#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/rnn_compute.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// Checks every argument of the op; returns the network's shape (unknown dims stay -1).
funcs::RnnShape CheckRnnArgs(const char* op, const TensorMeta& x,
                             const std::vector<TensorMeta>& pre_state,
                             const std::vector<TensorMeta>& weight_list,
                             const TensorMeta* sequence_length, float dropout_prob, bool is_bidirec,
                             int32_t input_size, int32_t hidden_size, int32_t num_layers,
                             const std::string& mode) {
  funcs::RnnShape s;
  s.mode = funcs::ParseRnnMode(op, mode);
  PD_CHECK(x.dims.size() == 3,
           errors::InvalidArgument(op,
                                   ": argument 'x' (Input) must be a 3-D tensor [time_steps, "
                                   "batch_size, input_size], received shape ",
                                   x.dims.ToString()));
  PD_CHECK(
      x.dtype == DataType::FLOAT32 || x.dtype == DataType::FLOAT64,
      errors::InvalidArgument(op, ": argument 'x' (Input) must be float32 or float64, received ",
                              DataTypeName(x.dtype)));
  PD_CHECK(hidden_size > 0,
           errors::InvalidArgument(op, ": attribute 'hidden_size' must be positive, received ",
                                   hidden_size));
  PD_CHECK(num_layers > 0,
           errors::InvalidArgument(op, ": attribute 'num_layers' must be positive, received ",
                                   num_layers));
  PD_CHECK(dropout_prob >= 0.0f && dropout_prob <= 1.0f,
           errors::InvalidArgument(op, ": attribute 'dropout_prob' must be in [0, 1], received ",
                                   dropout_prob));
  PD_CHECK(DimsAgree(x.dims[2], input_size),
           errors::InvalidArgument(op, ": argument 'x' (Input) must have input_size = ", input_size,
                                   " features in its last dimension, received shape ",
                                   x.dims.ToString()));
  s.seq_len = x.dims[0];
  s.batch = x.dims[1];
  // The kernel reads x's feature count, so the weights are checked against it when it is known.
  s.input_size = IsUnknown(x.dims[2]) ? input_size : x.dims[2];
  s.hidden_size = hidden_size;
  s.num_layers = num_layers;
  s.num_directions = is_bidirec ? 2 : 1;
  const int64_t units = int64_t{num_layers} * s.num_directions;

  const size_t states = funcs::RnnStateCount(s.mode);
  PD_CHECK(
      pre_state.size() == states,
      errors::InvalidArgument(op, ": argument 'pre_state' (PreState) of mode ", mode, " must hold ",
                              states, states == 2 ? " tensors (h0, c0)" : " tensor (h0)",
                              ", received ", pre_state.size()));
  const DDim state_dims({units, s.batch, hidden_size});
  for (size_t i = 0; i < pre_state.size(); ++i) {
    PD_CHECK(ShapesAgree(pre_state[i].dims, state_dims),
             errors::InvalidArgument(op, ": argument 'pre_state' (PreState) [", i,
                                     "] must have shape [num_layers * num_directions, batch_size, "
                                     "hidden_size] = ",
                                     state_dims.ToString(), ", received ",
                                     pre_state[i].dims.ToString()));
    PD_CHECK(pre_state[i].dtype == x.dtype,
             errors::InvalidArgument(op, ": argument 'pre_state' (PreState) [", i,
                                     "] must have the dtype of 'x' (", DataTypeName(x.dtype),
                                     "), received ", DataTypeName(pre_state[i].dtype)));
  }

  PD_CHECK(weight_list.size() == static_cast<size_t>(4 * units),
           errors::InvalidArgument(op,
                                   ": argument 'weight_list' (WeightList) must hold 4 * "
                                   "num_layers * num_directions = ",
                                   4 * units,
                                   " tensors (every weight_ih, weight_hh, then every bias_ih, "
                                   "bias_hh), received ",
                                   weight_list.size()));
  const int64_t gh = s.gate_width();
  for (int l = 0; l < num_layers; ++l) {
    for (int d = 0; d < s.num_directions; ++d) {
      const int64_t k = l * s.num_directions + d;
      const DDim expected[4] = {DDim({gh, s.layer_input_size(l)}), DDim({gh, int64_t{hidden_size}}),
                                DDim({gh}), DDim({gh})};
      const int64_t index[4] = {2 * k, 2 * k + 1, 2 * units + 2 * k, 2 * units + 2 * k + 1};
      static const char* kNames[4] = {"weight_ih", "weight_hh", "bias_ih", "bias_hh"};
      for (int p = 0; p < 4; ++p) {
        const TensorMeta& w = weight_list[index[p]];
        PD_CHECK(ShapesAgree(w.dims, expected[p]),
                 errors::InvalidArgument(op, ": argument 'weight_list' (WeightList) [", index[p],
                                         "], the ", kNames[p], " of layer ", l,
                                         d == 1 ? " (reverse)" : "", " of mode ", mode,
                                         ", must have shape ", expected[p].ToString(),
                                         ", received ", w.dims.ToString()));
        PD_CHECK(w.dtype == x.dtype,
                 errors::InvalidArgument(op, ": argument 'weight_list' (WeightList) [", index[p],
                                         "] must have the dtype of 'x' (", DataTypeName(x.dtype),
                                         "), received ", DataTypeName(w.dtype)));
      }
    }
  }
  if (sequence_length != nullptr) {
    PD_CHECK(
        sequence_length->dims.size() == 1 && DimsAgree(sequence_length->dims[0], s.batch),
        errors::InvalidArgument(op,
                                ": argument 'sequence_length' (SequenceLength) must be 1-D "
                                "with one length per sequence (batch_size ",
                                s.batch, "), received shape ", sequence_length->dims.ToString()));
    PD_CHECK(sequence_length->dtype == DataType::INT32 || sequence_length->dtype == DataType::INT64,
             errors::InvalidArgument(op,
                                     ": argument 'sequence_length' (SequenceLength) must be int32 "
                                     "or int64, received ",
                                     DataTypeName(sequence_length->dtype)));
  }
  return s;
}

}  // namespace

void RnnInferMeta(const TensorMeta& x, const std::vector<TensorMeta>& pre_state,
                  const std::vector<TensorMeta>& weight_list, const TensorMeta* sequence_length,
                  float dropout_prob, bool is_bidirec, int32_t input_size, int32_t hidden_size,
                  int32_t num_layers, const std::string& mode, int32_t seed, bool is_test,
                  TensorMeta* out, TensorMeta* dropout_state, std::vector<TensorMeta>* state,
                  TensorMeta* reserve) {
  const funcs::RnnShape s =
      CheckRnnArgs("rnn", x, pre_state, weight_list, sequence_length, dropout_prob, is_bidirec,
                   input_size, hidden_size, num_layers, mode);
  const int64_t width = s.num_directions * s.hidden_size;
  out->dims = DDim({s.seq_len, s.batch, width});
  out->dtype = x.dtype;
  dropout_state->dtype = DataType::UINT8;
  if (!is_test && dropout_prob > 0.0f && num_layers > 1) {
    dropout_state->dims = DDim({int64_t{num_layers} - 1, s.seq_len, s.batch, width});
  } else {
    dropout_state->dims = DDim({0});
  }
  state->assign(pre_state.size(), TensorMeta());
  for (size_t i = 0; i < pre_state.size(); ++i) {
    (*state)[i].dims = DDim({int64_t{num_layers} * s.num_directions, s.batch, s.hidden_size});
    (*state)[i].dtype = x.dtype;
  }
  reserve->dtype = x.dtype;
  const bool known = !IsUnknown(s.seq_len) && !IsUnknown(s.batch);
  reserve->dims = DDim({known ? funcs::RnnReserveLayout(s).total : kUnknownDim});
}

void RnnGradInferMeta(const TensorMeta& x, const std::vector<TensorMeta>& pre_state,
                      const std::vector<TensorMeta>& weight_list, const TensorMeta* sequence_length,
                      const TensorMeta& dropout_state, const TensorMeta& reserve,
                      const TensorMeta& out_grad, const std::vector<TensorMeta>& state_grad,
                      float dropout_prob, bool is_bidirec, int32_t input_size, int32_t hidden_size,
                      int32_t num_layers, const std::string& mode, int32_t seed, bool is_test,
                      TensorMeta* x_grad, std::vector<TensorMeta>* pre_state_grad,
                      std::vector<TensorMeta>* weight_list_grad) {
  const funcs::RnnShape s =
      CheckRnnArgs("rnn_grad", x, pre_state, weight_list, sequence_length, dropout_prob, is_bidirec,
                   input_size, hidden_size, num_layers, mode);
  const DDim out_dims({s.seq_len, s.batch, s.num_directions * s.hidden_size});
  PD_CHECK(
      ShapesAgree(out_grad.dims, out_dims) && out_grad.dtype == x.dtype,
      errors::InvalidArgument("rnn_grad: argument 'out_grad' must be a ", DataTypeName(x.dtype),
                              " tensor of shape ", out_dims.ToString(), ", received ",
                              DataTypeName(out_grad.dtype), " ", out_grad.dims.ToString()));
  PD_CHECK(state_grad.size() == pre_state.size(),
           errors::InvalidArgument("rnn_grad: argument 'state_grad' must hold ", pre_state.size(),
                                   " tensors, received ", state_grad.size()));
  for (size_t i = 0; i < state_grad.size(); ++i) {
    PD_CHECK(ShapesAgree(state_grad[i].dims, pre_state[i].dims) && state_grad[i].dtype == x.dtype,
             errors::InvalidArgument(
                 "rnn_grad: argument 'state_grad' [", i, "] must be a ", DataTypeName(x.dtype),
                 " tensor of shape ", pre_state[i].dims.ToString(), ", received ",
                 DataTypeName(state_grad[i].dtype), " ", state_grad[i].dims.ToString()));
  }
  const bool known = !IsUnknown(s.seq_len) && !IsUnknown(s.batch);
  const int64_t masks = KnownNumel(dropout_state.dims);
  const int64_t mask_size = (int64_t{num_layers} - 1) * s.seq_len * s.batch * out_dims[2];
  PD_CHECK(dropout_state.dtype == DataType::UINT8 && (!known || masks <= 0 || masks == mask_size),
           errors::InvalidArgument("rnn_grad: argument 'dropout_state' must be the uint8 masks "
                                   "the forward rnn wrote (",
                                   mask_size, " values, or none), received ",
                                   DataTypeName(dropout_state.dtype), " ",
                                   dropout_state.dims.ToString()));
  PD_CHECK(
      reserve.dtype == x.dtype && (!known || KnownNumel(reserve.dims) < 0 ||
                                   KnownNumel(reserve.dims) == funcs::RnnReserveLayout(s).total),
      errors::InvalidArgument("rnn_grad: argument 'reserve' must hold ",
                              funcs::RnnReserveLayout(s).total,
                              " values written by the forward rnn, received ",
                              DataTypeName(reserve.dtype), " ", reserve.dims.ToString()));
  *x_grad = x;
  *pre_state_grad = pre_state;
  *weight_list_grad = weight_list;
}

}  // namespace paddle
