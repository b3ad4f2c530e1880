"""NAdam (Dozat, Adam with Nesterov momentum), with Paddle's update (the fused op nadam_):

    mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))
    mu_{t+1} = beta1 * (1 - 0.5 * 0.96^((t + 1) * momentum_decay))
    moment1 = beta1 * moment1 + (1 - beta1) * grad
    moment2 = beta2 * moment2 + (1 - beta2) * grad^2
    m_hat = mu_{t+1} * moment1 / (1 - prod_{i<=t+1} mu_i) + (1 - mu_t) * grad / (1 - prod_{i<=t} mu_i)
    param -= lr * m_hat / (sqrt(moment2 / (1 - beta2^t)) + epsilon)

0.96^t, beta2^t and prod mu_i are the accumulators "<param>_momentum_decay_pow_0",
"<param>_beta2_pow_0" and "<param>_mu_product_0", of the parameter's shape and starting at 1,
as in Paddle. weight_decay is an L2 term added to the gradient.
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval, state_dtype
from .optimizer import Optimizer

__all__ = ["NAdam"]


class NAdam(Optimizer):
    _momentum_decay_pow_acc_str = "momentum_decay_pow"
    _beta2_pow_acc_str = "beta2_pow"
    _mu_product_acc_str = "mu_product"
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 momentum_decay=0.004, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        check_learning_rate(learning_rate)
        check_non_negative("epsilon", epsilon)
        check_unit_interval("beta1", beta1)
        check_unit_interval("beta2", beta2)
        check_non_negative("momentum_decay", momentum_decay)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._default_dict.update({"beta1": beta1, "beta2": beta2, "epsilon": epsilon,
                                   "momentum_decay": momentum_decay})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p, state_dtype(p))
            for kind in (self._momentum_decay_pow_acc_str, self._beta2_pow_acc_str,
                         self._mu_product_acc_str):
                self._add_accumulator(kind, p, dtype=dtype, fill_value=1.0)
            self._add_accumulator(self._moment1_acc_str, p, dtype=dtype)
            self._add_accumulator(self._moment2_acc_str, p, dtype=dtype)

    def _append_optimize_op(self, param, grad, lr, group):
        accumulator = self._get_accumulator
        master = self._master_weight(param)
        _C_ops.nadam_(param, grad, self._lr_tensor(lr, param),
                      accumulator(self._momentum_decay_pow_acc_str, param),
                      accumulator(self._beta2_pow_acc_str, param),
                      accumulator(self._mu_product_acc_str, param),
                      accumulator(self._moment1_acc_str, param),
                      accumulator(self._moment2_acc_str, param), master,
                      float(self._option(group, "beta1")), float(self._option(group, "beta2")),
                      float(self._option(group, "epsilon")),
                      float(self._option(group, "momentum_decay")), master is not None)
