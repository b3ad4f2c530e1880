// The backward rule of the fused recurrent network: one call of the rnn_grad kernel op, which
// produces the gradients of the input, the initial states and every weight together.
#include <string>
#include <vector>

#include "paddle/ops/generated/api/rnn_grad.h"
#include "paddle/ops/generated/grad_rules/rnn.h"

namespace paddle::ops::grad {

void rnn_grad(const Tensor& x, const std::vector<Tensor>& pre_state,
              const std::vector<Tensor>& weight_list, const Tensor& sequence_length,
              const Tensor& dropout_state, const Tensor& reserve, const Tensor& out_grad,
              const std::vector<Tensor>& state_grad, float dropout_prob, bool is_bidirec,
              int input_size, int hidden_size, int num_layers, const std::string& mode, int seed,
              bool is_test, Tensor* x_grad, const std::vector<Tensor*>& pre_state_grad,
              const std::vector<Tensor*>& weight_list_grad) {
  auto [dx, dstates, dweights] = ops::rnn_grad(
      x, pre_state, weight_list, sequence_length, dropout_state, reserve, out_grad, state_grad,
      dropout_prob, is_bidirec, input_size, hidden_size, num_layers, mode, seed, is_test);
  if (x_grad) *x_grad = dx;
  for (size_t i = 0; i < pre_state_grad.size() && i < dstates.size(); ++i) {
    if (pre_state_grad[i]) *pre_state_grad[i] = dstates[i];
  }
  for (size_t i = 0; i < weight_list_grad.size() && i < dweights.size(); ++i) {
    if (weight_list_grad[i]) *weight_list_grad[i] = dweights[i];
  }
}

}  // namespace paddle::ops::grad
