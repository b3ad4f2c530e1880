"""Adadelta (Zeiler 2012), with Paddle's update (the fused op adadelta_):

    avg_squared_grad = rho * avg_squared_grad + (1 - rho) * grad^2
    update = -sqrt((avg_squared_update + epsilon) / (avg_squared_grad + epsilon)) * grad
    avg_squared_update = rho * avg_squared_update + (1 - rho) * update^2
    param += learning_rate * update

The accumulators are "<param>__avg_squared_grad_0" and "<param>__avg_squared_update_0" (Paddle's
names, double underscore included).
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    _avg_squared_grad_acc_str = "_avg_squared_grad"
    _avg_squared_update_acc_str = "_avg_squared_update"

    def __init__(self, learning_rate=0.001, epsilon=1.0e-6, rho=0.95, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        check_learning_rate(learning_rate)
        check_non_negative("epsilon", epsilon)
        check_unit_interval("rho", rho, closed=True)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = epsilon
        self._rho = rho
        self._default_dict.update({"epsilon": epsilon, "rho": rho})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p)
            self._add_accumulator(self._avg_squared_grad_acc_str, p, dtype=dtype)
            self._add_accumulator(self._avg_squared_update_acc_str, p, dtype=dtype)

    def _append_optimize_op(self, param, grad, lr, group):
        master = self._master_weight(param)
        _C_ops.adadelta_(param, grad,
                         self._get_accumulator(self._avg_squared_grad_acc_str, param),
                         self._get_accumulator(self._avg_squared_update_acc_str, param),
                         self._lr_tensor(lr, param), master, float(self._option(group, "rho")),
                         float(self._option(group, "epsilon")), master is not None)
