"""RAdam (Liu et al., rectified Adam), with Paddle's update (the fused op radam_):

    moment1 = beta1 * moment1 + (1 - beta1) * grad
    moment2 = beta2 * moment2 + (1 - beta2) * grad^2
    rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
    rho_t > 5: param -= lr * moment1 / (1 - beta1^t) * r_t * sqrt(1 - beta2^t)
                        / (sqrt(moment2) + epsilon)
               with r_t = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))
    otherwise: param -= lr * moment1 / (1 - beta1^t)

beta1^t, beta2^t and the rho_t term are the accumulators "<param>_beta1_pow_0",
"<param>_beta2_pow_0" and "<param>_rho_0", of the parameter's shape and starting at 1, as in
Paddle. weight_decay is an L2 term added to the gradient.
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval, state_dtype
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    _beta1_pow_acc_str = "beta1_pow"
    _beta2_pow_acc_str = "beta2_pow"
    _rho_acc_str = "rho"
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1.0e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        check_learning_rate(learning_rate)
        check_non_negative("epsilon", epsilon)
        check_unit_interval("beta1", beta1)
        check_unit_interval("beta2", beta2)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._default_dict.update({"beta1": beta1, "beta2": beta2, "epsilon": epsilon})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p, state_dtype(p))
            for kind in (self._beta1_pow_acc_str, self._beta2_pow_acc_str, self._rho_acc_str):
                self._add_accumulator(kind, p, dtype=dtype, fill_value=1.0)
            self._add_accumulator(self._moment1_acc_str, p, dtype=dtype)
            self._add_accumulator(self._moment2_acc_str, p, dtype=dtype)

    def _append_optimize_op(self, param, grad, lr, group):
        accumulator = self._get_accumulator
        master = self._master_weight(param)
        _C_ops.radam_(param, grad, self._lr_tensor(lr, param),
                      accumulator(self._beta1_pow_acc_str, param),
                      accumulator(self._beta2_pow_acc_str, param),
                      accumulator(self._rho_acc_str, param),
                      accumulator(self._moment1_acc_str, param),
                      accumulator(self._moment2_acc_str, param), master,
                      float(self._option(group, "beta1")), float(self._option(group, "beta2")),
                      float(self._option(group, "epsilon")), master is not None)
