"""RMSProp (Hinton), with Paddle's update (the fused op rmsprop_):

    mean_square = rho * mean_square + (1 - rho) * grad^2
    centered:  mean_grad = rho * mean_grad + (1 - rho) * grad
               momentum_acc = momentum * momentum_acc
                              + lr * grad / sqrt(mean_square - mean_grad^2 + epsilon)
    otherwise: momentum_acc = momentum * momentum_acc + lr * grad / sqrt(mean_square + epsilon)
    param -= momentum_acc

The accumulators are "<param>_momentum_0", "<param>_mean_square_0" and "<param>_mean_grad_0"
(the last one stays zero without centered, as in Paddle).
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval
from .optimizer import Optimizer

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    _momentum_acc_str = "momentum"
    _mean_square_acc_str = "mean_square"
    _mean_grad_acc_str = "mean_grad"

    def __init__(self, learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        check_learning_rate(learning_rate)
        check_unit_interval("rho", rho, closed=True)
        check_non_negative("epsilon", epsilon)
        check_non_negative("momentum", momentum)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho = rho
        self._epsilon = epsilon
        self._momentum = momentum
        self._centered = centered
        self._default_dict.update({"rho": rho, "epsilon": epsilon, "momentum": momentum,
                                   "centered": centered})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p)
            self._add_accumulator(self._momentum_acc_str, p, dtype=dtype)
            self._add_accumulator(self._mean_square_acc_str, p, dtype=dtype)
            self._add_accumulator(self._mean_grad_acc_str, p, dtype=dtype)

    def _append_optimize_op(self, param, grad, lr, group):
        master = self._master_weight(param)
        _C_ops.rmsprop_(param, self._get_accumulator(self._mean_square_acc_str, param), grad,
                        self._get_accumulator(self._momentum_acc_str, param),
                        self._lr_tensor(lr, param),
                        self._get_accumulator(self._mean_grad_acc_str, param), master,
                        float(self._option(group, "epsilon")), float(self._option(group, "rho")),
                        float(self._option(group, "momentum")),
                        bool(self._option(group, "centered")), master is not None)
