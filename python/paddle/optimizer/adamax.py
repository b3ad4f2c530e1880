"""Adamax (Kingma & Ba, the infinity-norm variant of Adam), with Paddle's update (the fused op
adamax_):

    moment = beta1 * moment + (1 - beta1) * grad
    inf_norm = max(beta2 * inf_norm + epsilon, |grad|)
    param -= learning_rate / (1 - beta1^t) * moment / inf_norm

beta1^t is the accumulator "<param>_beta1_pow_acc_0" (shape [1], starting at beta1), which the
optimizer multiplies by beta1 after each update, as Paddle does (the op only reads it).
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval, state_dtype
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    _moment_acc_str = "moment"
    _inf_norm_acc_str = "inf_norm"
    _beta1_pow_acc_str = "beta1_pow_acc"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        check_learning_rate(learning_rate)
        check_unit_interval("beta1", beta1)
        check_unit_interval("beta2", beta2)
        check_non_negative("epsilon", epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._default_dict.update({"beta1": beta1, "beta2": beta2, "epsilon": epsilon})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p, state_dtype(p))
            self._add_accumulator(self._moment_acc_str, p, dtype=dtype)
            self._add_accumulator(self._inf_norm_acc_str, p, dtype=dtype)
            self._add_accumulator(self._beta1_pow_acc_str, p, dtype=dtype,
                                  fill_value=self._option(group, "beta1"), shape=[1])

    def _append_optimize_op(self, param, grad, lr, group):
        beta1 = float(self._option(group, "beta1"))
        beta1_pow = self._get_accumulator(self._beta1_pow_acc_str, param)
        master = self._master_weight(param)
        _C_ops.adamax_(param, grad, self._lr_tensor(lr, param),
                       self._get_accumulator(self._moment_acc_str, param),
                       self._get_accumulator(self._inf_norm_acc_str, param), beta1_pow, master,
                       beta1, float(self._option(group, "beta2")),
                       float(self._option(group, "epsilon")), master is not None)
        _C_ops.scale_(beta1_pow, beta1, 0.0, True)
