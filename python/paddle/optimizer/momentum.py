"""Momentum SGD, with Paddle's update (the fused op momentum_):

    grad = rescale_grad * grad (+ coeff * param for L2 decay)
    velocity = momentum * velocity + grad
    param -= lr * velocity                          (use_nesterov=False)
    param -= lr * (grad + momentum * velocity)      (use_nesterov=True)

L2 decay (a float weight_decay, or an L2Decay on the optimizer or the parameter) is applied
inside the update after rescaling, as Paddle's fused momentum kernel does; other regularizers
are added to the gradient beforehand.
"""
from .. import _C_ops
from ..regularizer import L2Decay
from .optimizer import Optimizer

__all__ = ["Momentum"]


class Momentum(Optimizer):
    _velocity_acc_str = "velocity"
    # momentum_ takes a SelectedRows grad; rows it lacks count as zero (velocities decay).
    _supports_sparse_grad = True

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False,
                 weight_decay=None, grad_clip=None, multi_precision=False, rescale_grad=1.0,
                 use_multi_tensor=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._rescale_grad = float(rescale_grad)
        self._default_dict.update({"momentum": momentum, "use_nesterov": self._use_nesterov,
                                   "rescale_grad": self._rescale_grad})

    def _regularized_grad(self, param, grad, group):
        if self._l2_decay(param, group) is not None:
            return grad  # fused into the update, after rescale_grad
        return super()._regularized_grad(param, grad, group)

    def _l2_decay(self, param, group):
        regularizer = self._regularizer(param, group)
        return regularizer if isinstance(regularizer, L2Decay) else None

    def _create_accumulators(self, params, group):
        for p in params:
            self._add_accumulator(self._velocity_acc_str, p, dtype=self._state_dtype(p))

    def _append_optimize_op(self, param, grad, lr, group):
        velocity = self._get_accumulator(self._velocity_acc_str, param)
        l2 = self._l2_decay(param, group)
        method, coeff = ("l2_decay", l2._coeff) if l2 is not None and l2._coeff != 0.0 else ("", 0.0)
        master = self._master_weight(param)
        _C_ops.momentum_(param, grad, velocity, self._lr_tensor(lr, param), master,
                         self._option(group, "momentum"), bool(self._option(group, "use_nesterov")),
                         method, coeff, master is not None, self._option(group, "rescale_grad"))
